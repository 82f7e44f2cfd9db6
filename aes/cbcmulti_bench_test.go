package aes

import (
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// BenchmarkCBCEncryptMulti encrypts 64 messages of 4 KiB on every path,
// once as one batch (CBCEncryptMulti) and once one message after another
// through the same block's CBC encrypter, the single-stream baseline:
//
//	go test -run - -bench CBCEncryptMulti ./aes/
//
// The machine may be shared: the two take turns within one benchmark and
// each reports its fastest turn (single-MB/s, multi-MB/s) and their ratio
// (speedup).
func BenchmarkCBCEncryptMulti(b *testing.B) {
	const messages, size = 64, 4 << 10
	for _, i := range catalog.For(cipherName) {
		b.Run(i.Name, func(b *testing.B) {
			if !i.Available() {
				b.Skipf("%s needs %v", i.Name, i.Missing())
			}
			block, _ := i.NewBlock(key128)
			jobs := make([]CBCJob, messages)
			for n := range jobs {
				buf := make([]byte, size)
				jobs[n] = CBCJob{Dst: buf, Src: buf}
			}
			modes := make([]interface{ CryptBlocks(dst, src []byte) }, messages)
			for n := range modes {
				modes[n], _ = NewCBCEncrypter(block, make([]byte, BlockSize))
			}
			best := [2]time.Duration{1 << 62, 1 << 62}
			b.SetBytes(2 * messages * size)
			for b.Loop() {
				t0 := time.Now()
				for n, m := range modes {
					m.CryptBlocks(jobs[n].Dst, jobs[n].Src)
				}
				best[0] = min(best[0], time.Since(t0))
				t0 = time.Now()
				CBCEncryptMulti(block, jobs)
				best[1] = min(best[1], time.Since(t0))
			}
			mbps := func(d time.Duration) float64 { return messages * size / d.Seconds() / 1e6 }
			b.ReportMetric(mbps(best[0]), "single-MB/s")
			b.ReportMetric(mbps(best[1]), "multi-MB/s")
			b.ReportMetric(float64(best[0])/float64(best[1]), "speedup")
		})
	}
}
