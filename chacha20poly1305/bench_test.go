package chacha20poly1305

import (
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xcp "golang.org/x/crypto/chacha20poly1305"
)

var benchSizes = []int{16, 64, 128, 256, 320, 384, 448, 512, 528, 576, 640, 768, 1024, 1536, 2048, 2560, 4096, 16 << 10}

// BenchmarkSeal and BenchmarkOpen run every path of this build and the
// x/crypto baseline in one run, so their ratios are comparable.
func BenchmarkSeal(b *testing.B) { benchAEAD(b, false) }
func BenchmarkOpen(b *testing.B) { benchAEAD(b, true) }

func benchAEAD(b *testing.B, open bool) {
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	ad := make([]byte, 13)
	run := func(b *testing.B, a cipher.AEAD, n int) {
		plain := make([]byte, n)
		sealed := a.Seal(nil, nonce, plain, ad)
		out := make([]byte, n+Overhead)
		defer testkit.StartCPU(b, n)()
		for b.Loop() {
			if open {
				if _, err := a.Open(out[:0], nonce, sealed, ad); err != nil {
					b.Fatal(err)
				}
			} else {
				a.Seal(out[:0], nonce, plain, ad)
			}
		}
	}
	for _, n := range benchSizes {
		for _, p := range paths {
			b.Run(fmt.Sprintf("%s/%d", p.Name, n), func(b *testing.B) {
				if !p.Available() {
					b.Skipf("%s needs %v", p.Name, p.Requires)
				}
				a, _ := p.New(key)
				run(b, a, n)
			})
		}
		b.Run(fmt.Sprintf("xcrypto/%d", n), func(b *testing.B) {
			a, _ := xcp.New(key)
			run(b, a, n)
		})
	}
}
