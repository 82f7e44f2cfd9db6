package chacha20

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// BenchmarkXORKeyStreamAt compares random access with the serial stream on
// the default path (SIMDCRYPT_CPU selects others), in one run:
//
//	go test -run - -bench XORKeyStreamAt ./chacha20/
func BenchmarkXORKeyStreamAt(b *testing.B) {
	testkit.BenchStreamAt(b, func() testkit.StreamAt {
		c, _ := NewUnauthenticatedCipher(make([]byte, KeySize), make([]byte, NonceSize))
		return c
	})
}
