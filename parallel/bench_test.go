package parallel_test

import (
	"crypto/cipher"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/chacha20"
	"github.com/simdcrypt/simdcrypt/parallel"
)

// BenchmarkXORKeyStream64M compares one goroutine with GOMAXPROCS of them
// on 64 MiB. The machine may be shared: the two take turns within one
// benchmark and each reports its fastest turn (serial-MB/s, parallel-MB/s)
// and their ratio (speedup):
//
//	go test -run - -bench XORKeyStream64M ./parallel/
func BenchmarkXORKeyStream64M(b *testing.B) {
	block, _ := aes.NewCipher(make([]byte, 16))
	key, nonce := make([]byte, chacha20.KeySize), make([]byte, chacha20.NonceSize)
	streams := []struct {
		name string
		s    parallel.SeekableStream
	}{
		{"aes-128-ctr", cipher.NewCTR(block, make([]byte, 16)).(parallel.SeekableStream)},
		{"chacha20", func() parallel.SeekableStream { c, _ := chacha20.NewUnauthenticatedCipher(key, nonce); return c }()},
	}
	buf := make([]byte, 64<<20)
	for _, st := range streams {
		b.Run(st.name, func(b *testing.B) {
			best := [2]time.Duration{1 << 62, 1 << 62}
			b.SetBytes(2 * int64(len(buf)))
			for b.Loop() {
				for i, workers := range []int{1, 0} {
					t0 := time.Now()
					parallel.XORKeyStream(st.s, buf, buf, 0, workers)
					best[i] = min(best[i], time.Since(t0))
				}
			}
			mbps := func(d time.Duration) float64 { return float64(len(buf)) / d.Seconds() / 1e6 }
			b.ReportMetric(mbps(best[0]), "serial-MB/s")
			b.ReportMetric(mbps(best[1]), "parallel-MB/s")
			b.ReportMetric(float64(best[0])/float64(best[1]), "speedup")
		})
	}
}
