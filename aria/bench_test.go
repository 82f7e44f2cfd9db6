package aria

import (
	"crypto/cipher"
	"strconv"
	"testing"

	"github.com/simdcrypt/simdcrypt/ecb"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// BenchmarkARIA measures every registered path in every bulk mode at 64 B
// (the one-block kernels' ECB and CTR tails), 1 KiB and 16 KiB, for
// ARIA-128 and ARIA-256:
//
//	go test -run NONE -bench ARIA ./aria/
func BenchmarkARIA(b *testing.B) {
	modes := []struct {
		name string
		new  func(c cipher.Block, iv []byte) func(dst, src []byte)
	}{
		{"ECB-encrypt", func(c cipher.Block, _ []byte) func(dst, src []byte) { return ecb.NewEncrypter(c).CryptBlocks }},
		{"ECB-decrypt", func(c cipher.Block, _ []byte) func(dst, src []byte) { return ecb.NewDecrypter(c).CryptBlocks }},
		{"CBC-encrypt", func(c cipher.Block, iv []byte) func(dst, src []byte) {
			return cipher.NewCBCEncrypter(c, iv).CryptBlocks
		}},
		{"CBC-decrypt", func(c cipher.Block, iv []byte) func(dst, src []byte) {
			return cipher.NewCBCDecrypter(c, iv).CryptBlocks
		}},
		{"CTR", func(c cipher.Block, iv []byte) func(dst, src []byte) { return cipher.NewCTR(c, iv).XORKeyStream }},
	}
	for _, ks := range []int{16, 32} {
		for _, i := range testkit.Paths(cipherName) {
			for _, m := range modes {
				for _, size := range []int{64, 1024, 16384} {
					unit := strconv.Itoa(size) + "B"
					if size >= 1024 {
						unit = strconv.Itoa(size/1024) + "KiB"
					}
					name := "ARIA-" + strconv.Itoa(ks*8) + "/" + i.Name + "/" + m.name + "/" + unit
					b.Run(name, func(b *testing.B) {
						if !i.Available() {
							b.Skipf("%s needs %v", i.Name, i.Missing())
						}
						c, err := i.NewBlock(make([]byte, ks))
						if err != nil {
							b.Fatal(err)
						}
						f := m.new(c, make([]byte, BlockSize))
						buf := make([]byte, size)
						b.SetBytes(int64(size))
						for b.Loop() {
							f(buf, buf)
						}
					})
				}
			}
		}
	}
}
