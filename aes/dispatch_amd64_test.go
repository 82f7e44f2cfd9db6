//go:build amd64 && !purego

package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestDispatchByUarch checks the per-microarchitecture choice: 512-bit VAES
// where it runs at full clock, 256-bit VAES where the CPU prefers 256-bit
// vectors.
func TestDispatchByUarch(t *testing.T) { testkit.CheckPrefer256(t, cipherName, "vaes512", "vaes256") }
