package chacha20

import (
	"fmt"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xchacha "golang.org/x/crypto/chacha20"
)

var benchSizes = []int{64, 256, 1024, 16 * 1024}

// BenchmarkXORKeyStream measures every path and the x/crypto baseline on
// one cipher per size (as a long stream would use it).
func BenchmarkXORKeyStream(b *testing.B) {
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	type stream interface{ XORKeyStream(dst, src []byte) }
	run := func(b *testing.B, s stream, n int) {
		buf := make([]byte, n)
		defer testkit.StartCPU(b, n)()
		for b.Loop() {
			s.XORKeyStream(buf, buf)
		}
	}
	for _, n := range benchSizes {
		for _, i := range testkit.Paths("chacha20") {
			b.Run(fmt.Sprintf("%s/%d", i.Name, n), func(b *testing.B) {
				if !i.Available() {
					b.Skipf("%s needs %v", i.Name, i.Missing())
				}
				c, _ := newCipher(key, nonce, pathByName(i.Name))
				run(b, c, n)
			})
		}
		b.Run(fmt.Sprintf("xcrypto/%d", n), func(b *testing.B) {
			c, _ := xchacha.NewUnauthenticatedCipher(key, nonce)
			run(b, c, n)
		})
	}
}

// BenchmarkNewAndXOR includes cipher setup, as an AEAD does per message.
func BenchmarkNewAndXOR(b *testing.B) {
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	for _, n := range []int{64, 1024} {
		buf := make([]byte, n)
		b.Run(fmt.Sprintf("default/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				c, _ := NewUnauthenticatedCipher(key, nonce)
				c.XORKeyStream(buf, buf)
			}
		})
		b.Run(fmt.Sprintf("xcrypto/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				c, _ := xchacha.NewUnauthenticatedCipher(key, nonce)
				c.XORKeyStream(buf, buf)
			}
		})
	}
}
