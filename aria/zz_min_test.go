package aria

import (
	"crypto/cipher"
	"fmt"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/ecb"
	"github.com/simdcrypt/simdcrypt/internal/impl"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// throwaway: min-of-N timing, robust against preemption on a shared box
func TestZZMin(t *testing.T) {
	for _, name := range []string{"gfni-avx512", "gfni-avx2", "aesni-avx"} {
		i := impl.MustLookup(Name, name)
		for _, ks := range []int{16, 32} {
			b, _ := testkit.NewBlock(i, make([]byte, ks))
			buf := make([]byte, 16384)
			e := ecb.NewEncrypter(b)
			s := cipher.NewCTR(b, make([]byte, 16))
			d := cipher.NewCBCDecrypter(b, make([]byte, 16))
			for _, op := range []struct {
				n string
				f func()
			}{{"ecb", func() { e.CryptBlocks(buf, buf) }}, {"ctr", func() { s.XORKeyStream(buf, buf) }}, {"cbcdec", func() { d.CryptBlocks(buf, buf) }}} {
				best := time.Hour
				for k := 0; k < 3000; k++ {
					t0 := time.Now()
					op.f()
					if dt := time.Since(t0); dt < best {
						best = dt
					}
				}
				fmt.Printf("%-12s %d %-7s %7.0f MB/s  %.3f c/B@2.1GHz\n", name, ks*8, op.n, 16384/best.Seconds()/1e6, best.Seconds()*2.1e9/16384)
			}
		}
	}
}

var sink uint64

func TestZZFreq(t *testing.T) {
	best := time.Hour
	for k := 0; k < 200; k++ {
		x := uint64(k)
		t0 := time.Now()
		for i := 0; i < 1000000; i++ {
			x = x*0x9E3779B97F4A7C15 + 1
		}
		dt := time.Since(t0)
		sink += x
		if dt < best {
			best = dt
		}
	}
	fmt.Printf("freq estimate: %.2f GHz (4 cycles/iter)\n", 4e6/best.Seconds()/1e9)
}
