package aria

import (
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// BenchmarkXORKeyStreamAt compares random access with the serial stream on
// the default path (SIMDCRYPT_CPU selects others), in one run:
//
//	go test -run - -bench XORKeyStreamAt ./aria/
func BenchmarkXORKeyStreamAt(b *testing.B) {
	block, _ := NewCipher(make([]byte, 16))
	testkit.BenchStreamAt(b, func() testkit.StreamAt {
		return cipher.NewCTR(block, make([]byte, 16)).(testkit.StreamAt)
	})
}
