package aes

import (
	"runtime"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// TestDefaultPathPerGOARCH asserts the path dispatch chooses by default on
// each GOARCH: simdcrypt's AES-NI/VAES assembly on amd64 with AES-NI, the
// standard library where crypto/aes runs on AES instructions (arm64,
// ppc64, ppc64le, s390x), and the constant-time bitsliced Go everywhere
// else, with -tags purego, and on CPUs without AES instructions.
func TestDefaultPathPerGOARCH(t *testing.T) {
	got, why := paths.Path()
	want := "generic"
	switch arch := runtime.GOARCH; {
	case puregoTag:
	case arch == "amd64":
		if cpu.HasAll(cpu.AESNI, cpu.SSSE3) {
			if got.Name == "generic" || got.Name == "stdlib" {
				t.Fatalf("amd64 with AES-NI: dispatch chose %s (%s), want an AES-NI or VAES path", got.Name, why)
			}
			t.Logf("amd64: %s (%s)", got.Name, why)
			return
		}
	case arch == "arm64" || arch == "ppc64" || arch == "ppc64le" || arch == "s390x":
		if len(stdlibPaths()) > 0 {
			want = "stdlib"
		} else {
			t.Logf("%s: this CPU has no AES instructions crypto/aes uses, so it would use tables", arch)
		}
	}
	if got.Name != want {
		t.Fatalf("%s (purego %v): dispatch chose %s (%s), want %s", runtime.GOARCH, puregoTag, got.Name, why, want)
	}
	t.Logf("%s (purego %v): %s", runtime.GOARCH, puregoTag, got.Name)
}
