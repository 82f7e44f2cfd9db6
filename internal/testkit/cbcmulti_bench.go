package testkit

import (
	"crypto/cipher"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// BenchCBCMulti encrypts 64 messages of 4 KiB on every path of cipherName,
// once as one batch (multi) and once one message after another through the
// same block's CBC encrypter (newCBC), the single-stream baseline. The
// machine may be shared: the two take turns within one benchmark and each
// reports its fastest turn (single-MB/s, multi-MB/s) and their ratio
// (speedup).
func BenchCBCMulti(b *testing.B, cipherName string, newCBC func(cipher.Block, []byte) (cipher.BlockMode, error), multi CBCMulti) {
	const messages, size = 64, 4 << 10
	for _, i := range catalog.For(cipherName) {
		b.Run(i.Name, func(b *testing.B) {
			if !i.Available() {
				b.Skipf("%s needs %v", i.Name, i.Missing())
			}
			block, _ := i.NewBlock(make([]byte, 16))
			jobs := make([]modes.CBCJob, messages)
			for n := range jobs {
				buf := make([]byte, size)
				jobs[n] = modes.CBCJob{Dst: buf, Src: buf}
			}
			encs := make([]cipher.BlockMode, messages)
			for n := range encs {
				encs[n], _ = newCBC(block, make([]byte, 16))
			}
			best := [2]time.Duration{1 << 62, 1 << 62}
			b.SetBytes(2 * messages * size)
			for b.Loop() {
				t0 := time.Now()
				for n, m := range encs {
					m.CryptBlocks(jobs[n].Dst, jobs[n].Src)
				}
				best[0] = min(best[0], time.Since(t0))
				t0 = time.Now()
				multi(block, jobs)
				best[1] = min(best[1], time.Since(t0))
			}
			mbps := func(d time.Duration) float64 { return messages * size / d.Seconds() / 1e6 }
			b.ReportMetric(mbps(best[0]), "single-MB/s")
			b.ReportMetric(mbps(best[1]), "multi-MB/s")
			b.ReportMetric(float64(best[0])/float64(best[1]), "speedup")
		})
	}
}
