package testkit

import (
	"strconv"
	"testing"
	"time"
)

// BenchStreamAt measures XORKeyStreamAt against XORKeyStream of the same
// kind of stream at 64 B and 16 KiB, each going sequentially through its
// stream so both do the same work. On a shared, loaded machine two
// benchmarks run one after the other see different loads, so the variants
// take turns in short batches within one benchmark, and each reports the
// speed of its fastest batch (the one least disturbed): serial-MB/s, at-MB/s
// (block-aligned offsets), at5-MB/s (5 bytes into a block) and the ratio
// at/serial.
func BenchStreamAt(b *testing.B, newStream func() StreamAt) {
	for _, n := range []int{64, 16 << 10} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			buf := make([]byte, n)
			calls := max(1, 32<<10/n)
			serial, at, at5 := newStream(), newStream(), newStream()
			var offAt, offAt5 uint64 = 0, 5
			best := [3]time.Duration{1 << 62, 1 << 62, 1 << 62}
			batch := func(v int, f func()) {
				t0 := time.Now()
				for range calls {
					f()
				}
				best[v] = min(best[v], time.Since(t0))
			}
			b.SetBytes(int64(3 * n * calls))
			for b.Loop() {
				batch(0, func() { serial.XORKeyStream(buf, buf) })
				batch(1, func() {
					at.XORKeyStreamAt(buf, buf, offAt)
					offAt += uint64(n)
				})
				batch(2, func() {
					at5.XORKeyStreamAt(buf, buf, offAt5)
					offAt5 += uint64(n)
				})
				if offAt > 1<<30 { // stay within every keystream's length
					serial, at, at5 = newStream(), newStream(), newStream()
					offAt, offAt5 = 0, 5
				}
			}
			mbps := func(d time.Duration) float64 { return float64(n*calls) / d.Seconds() / 1e6 }
			b.ReportMetric(mbps(best[0]), "serial-MB/s")
			b.ReportMetric(mbps(best[1]), "at-MB/s")
			b.ReportMetric(mbps(best[2]), "at5-MB/s")
			b.ReportMetric(float64(best[0])/float64(best[1]), "at/serial")
		})
	}
}
