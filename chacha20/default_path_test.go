package chacha20

import (
	"runtime"
	"slices"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestDefaultPathPerGOARCH asserts the path dispatch chooses by default on
// each GOARCH: simdcrypt's assembly on amd64 (SSSE3, AVX2 or AVX-512), x/crypto's
// assembly where it has some (arm64, ppc64, ppc64le, s390x, loong64), and
// portable Go elsewhere and with -tags purego.
func TestDefaultPathPerGOARCH(t *testing.T) {
	got, why := paths.Path()
	asm := cpu.Has(cpu.SSSE3) || cpu.Has(cpu.AVX2) || cpu.Has(cpu.AVX512)
	stdlib := slices.Contains([]string{"arm64", "ppc64", "ppc64le", "s390x", "loong64"}, runtime.GOARCH)
	testkit.CheckDefaultPath(t, got, why, puregoTag, asm, stdlib)
}
