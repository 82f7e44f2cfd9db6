package testkit

import (
	"crypto/cipher"
	"testing"
	"time"

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
	for _, i := range Paths(cipherName) {
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
			b.SetBytes(2 * messages * size)
			TakeTurns(b, messages*size, "single", func() {
				for n, m := range encs {
					m.CryptBlocks(jobs[n].Dst, jobs[n].Src)
				}
			}, "multi", func() { multi(block, jobs) }, "speedup")
		})
	}
}

// TakeTurns runs first and second in turn in every iteration of b.Loop
// (on a shared machine both then see the same load) and reports each
// one's fastest turn over n bytes (firstName-MB/s, secondName-MB/s) and
// the first's time over the second's (ratioName).
func TakeTurns(b *testing.B, n int, firstName string, first func(), secondName string, second func(), ratioName string) {
	best := [2]time.Duration{1 << 62, 1 << 62}
	for b.Loop() {
		for i, f := range []func(){first, second} {
			t0 := time.Now()
			f()
			best[i] = min(best[i], time.Since(t0))
		}
	}
	mbps := func(d time.Duration) float64 { return float64(n) / d.Seconds() / 1e6 }
	b.ReportMetric(mbps(best[0]), firstName+"-MB/s")
	b.ReportMetric(mbps(best[1]), secondName+"-MB/s")
	b.ReportMetric(float64(best[0])/float64(best[1]), ratioName)
}
