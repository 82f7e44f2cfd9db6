package aes

import (
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestXORKeyStreamAt checks random access into the CTR keystream on every
// path and key size.
func TestXORKeyStreamAt(t *testing.T) {
	testkit.ForEachKey(t, cipherName, [][]byte{key128, key192, key256}, func(t *testing.T, b cipher.Block, _ []byte) {
		testkit.CheckCTRAt(t, b)
	})
}
