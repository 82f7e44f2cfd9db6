package chacha20

import (
	"runtime"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// TestDefaultPathPerGOARCH asserts the path dispatch chooses by default on
// each GOARCH: simdcrypt's assembly on amd64 (SSSE3, AVX2 or AVX-512), x/crypto's
// assembly where it has some (arm64, ppc64, ppc64le, s390x, loong64), and
// portable Go elsewhere and with -tags purego.
func TestDefaultPathPerGOARCH(t *testing.T) {
	got, why := paths.Path()
	want := "generic"
	switch arch := runtime.GOARCH; {
	case puregoTag:
	case arch == "amd64":
		if cpu.Has(cpu.SSSE3) || cpu.Has(cpu.AVX2) || cpu.Has(cpu.AVX512) {
			if got.Name == "generic" || got.Name == "stdlib" {
				t.Fatalf("amd64: dispatch chose %s (%s), want a vector path", got.Name, why)
			}
			t.Logf("amd64: %s (%s)", got.Name, why)
			return
		}
	case arch == "arm64" || arch == "ppc64" || arch == "ppc64le" || arch == "s390x" || arch == "loong64":
		want = "stdlib"
	}
	if got.Name != want {
		t.Fatalf("%s (purego %v): dispatch chose %s (%s), want %s", runtime.GOARCH, puregoTag, got.Name, why, want)
	}
	t.Logf("%s (purego %v): %s", runtime.GOARCH, puregoTag, got.Name)
}
