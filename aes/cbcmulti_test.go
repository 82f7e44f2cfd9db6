package aes

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestCBCEncryptMulti checks the batch against one-at-a-time CBC through
// crypto/aes on every path and key size.
func TestCBCEncryptMulti(t *testing.T) {
	testkit.ForEachKey(t, cipherName, [][]byte{key128, key192, key256}, func(t *testing.T, b cipher.Block, key []byte) {
		ref, _ := stdaes.NewCipher(key)
		testkit.CheckCBCMulti(t, b, ref, CBCEncryptMulti)
	})
}

// TestCBCEncryptMultiOtherBlock checks that a block from elsewhere runs
// one chain at a time, with the same result.
func TestCBCEncryptMultiOtherBlock(t *testing.T) {
	std, _ := stdaes.NewCipher(key128)
	testkit.CheckCBCMulti(t, std, std, CBCEncryptMulti)
}

// TestCBCEncryptMultiKeys checks the batch with a key for each message
// against one-at-a-time CBC through crypto/aes on every path.
func TestCBCEncryptMultiKeys(t *testing.T) {
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		newBlock := func(key []byte) cipher.Block { b, _ := i.NewBlock(key); return b }
		ref := func(key []byte) cipher.Block { b, _ := stdaes.NewCipher(key); return b }
		testkit.CheckCBCMultiKeys(t, newBlock, ref, CBCEncryptMultiKeys)
	})
}
