package poly1305

import (
	"fmt"
	"testing"

	xpoly "golang.org/x/crypto/poly1305" //nolint:staticcheck // the baseline
)

// BenchmarkSum runs every path and x/crypto's one-shot Sum in one run.
func BenchmarkSum(b *testing.B) {
	var key [32]byte
	for i := range key {
		key[i] = byte(i)
	}
	var tag [TagSize]byte
	for _, n := range []int{64, 1024, 16 << 10} {
		msg := make([]byte, n)
		for _, p := range Paths() {
			b.Run(fmt.Sprintf("%s/%d", p, n), func(b *testing.B) {
				if !p.Available() {
					b.Skipf("%s needs %v or is not built", p, p.Requires())
				}
				b.SetBytes(int64(n))
				for b.Loop() {
					SumOn(&tag, msg, &key, p)
				}
			})
		}
		b.Run(fmt.Sprintf("xcrypto/%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				xpoly.Sum(&tag, msg, &key)
			}
		})
	}
}
