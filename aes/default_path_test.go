package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestDefaultPathPerGOARCH asserts the path dispatch chooses by default on
// each GOARCH: simdcrypt's AES-NI/VAES assembly on amd64 with AES-NI, the
// standard library where crypto/aes runs on AES instructions (arm64,
// ppc64, ppc64le, s390x, on CPUs that have them: stdlibPaths), and the
// constant-time bitsliced Go everywhere else, with -tags purego, and on
// CPUs without AES instructions.
func TestDefaultPathPerGOARCH(t *testing.T) {
	got, why := paths.Path()
	testkit.CheckDefaultPath(t, got, why, puregoTag, cpu.HasAll(cpu.AESNI, cpu.SSSE3), len(stdlibPaths()) > 0)
}
