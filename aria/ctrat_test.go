package aria

import (
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestXORKeyStreamAt checks random access into the CTR keystream on every
// path and key size.
func TestXORKeyStreamAt(t *testing.T) {
	keys := testkit.PatternKeys([]int{16, 24, 32}, func(j int) byte { return byte(j * 7) })
	testkit.ForEachKey(t, cipherName, keys, func(t *testing.T, b cipher.Block, _ []byte) {
		testkit.CheckCTRAt(t, b)
	})
}
