package gcm

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
)

// BenchmarkNew measures key setup: AES key expansion plus the GHASH key's
// powers, beside crypto/cipher's.
func BenchmarkNew(b *testing.B) {
	key := make([]byte, 16)
	b.Run("stdlib-baseline", func(b *testing.B) {
		for b.Loop() {
			blk, _ := stdaes.NewCipher(key)
			cipher.NewGCM(blk)
		}
	})
	b.Run("default", func(b *testing.B) {
		for b.Loop() {
			blk, _ := aes.NewCipher(key)
			New(blk)
		}
	})
}
