package aes

import (
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// BenchmarkXORKeyStreamAt compares random access with the serial stream on
// the default path (SIMDCRYPT_CPU selects others), in one run:
//
//	go test -run - -bench XORKeyStreamAt ./aes/
func BenchmarkXORKeyStreamAt(b *testing.B) {
	block, _ := NewCipher(key128)
	testkit.BenchStreamAt(b, func() testkit.StreamAt {
		return cipher.NewCTR(block, ctrIV).(testkit.StreamAt)
	})
}
