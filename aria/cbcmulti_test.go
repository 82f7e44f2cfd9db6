package aria

import (
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestCBCEncryptMulti checks the batch against one-at-a-time CBC on the
// portable path, on every path and key size.
func TestCBCEncryptMulti(t *testing.T) {
	generic := catalog.MustLookup(cipherName, "generic")
	keys := testkit.PatternKeys([]int{16, 24, 32}, func(j int) byte { return byte(j*5 + 1) })
	testkit.ForEachKey(t, cipherName, keys, func(t *testing.T, b cipher.Block, key []byte) {
		ref, _ := generic.NewBlock(key)
		testkit.CheckCBCMulti(t, b, ref, CBCEncryptMulti)
	})
}
