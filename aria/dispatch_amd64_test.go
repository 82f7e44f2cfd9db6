//go:build amd64 && !purego

package aria

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestDispatchByUarch checks that ARIA, like every cipher, passes over its
// 512-bit path where the CPU prefers 256-bit vectors.
func TestDispatchByUarch(t *testing.T) {
	testkit.CheckPrefer256(t, cipherName, "gfni-avx512", "gfni-avx2")
}
