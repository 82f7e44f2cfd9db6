package parallel_test

import (
	"crypto/cipher"
	"crypto/subtle"
	"runtime"
	"sync"
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

// BenchmarkCeiling64M measures what the machine allows two goroutines (more
// precisely GOMAXPROCS of them) against one, on the traffic of a 64 MiB
// CTR call, so that XORKeyStream64M's speedup can be judged against it.
// Each row takes turns between one goroutine and GOMAXPROCS, each
// reporting its fastest turn (1-GB/s, N-GB/s) and their ratio (speedup):
//
//   - copy, pad-inplace, pad-separate: memory traffic alone. pad XORs a
//     4 KiB L1-resident pad into the buffer (the loads and stores of CTR
//     without the AES work), in place or from src into a separate dst.
//   - ctr-inplace, ctr-separate: XORKeyStream itself on the same buffers.
//   - ctr-halves: ctr-inplace with one fixed share per goroutine instead
//     of XORKeyStream's pieces taken in turn: on a busy machine the call
//     waits for a goroutine that lost its core.
//   - ctr-l2: the AES work alone: each goroutine runs XORKeyStreamAt over
//     its own 256 KiB, which stays in its L2, to 64 MiB in all.
//     Throughput-bound: it scales only when the goroutines have execution
//     units of their own.
//   - cbc-l1: latency-bound control, each goroutine CBC-encrypts its own
//     16 KiB over and over (8 MiB in all): it scales whenever the
//     goroutines both run, even on two hardware threads of one core. When
//     it does not, other processes held the cores and no row's speedup
//     means anything.
//
// All buffers are written before timing, so no turn measures page faults.
//
//	go test -run - -bench Ceiling64M ./parallel/
func BenchmarkCeiling64M(b *testing.B) {
	const size = 64 << 20
	src, dst := make([]byte, size), make([]byte, size)
	for i := range src {
		src[i], dst[i] = byte(i), byte(i>>8)
	}
	var pad [4096]byte
	block, _ := aes.NewCipher(make([]byte, 16))
	ctr := cipher.NewCTR(block, make([]byte, 16)).(parallel.SeekableStream)
	procs := runtime.GOMAXPROCS(0)
	rows := []struct {
		name  string
		bytes int // what a turn processes
		turn  func(workers int)
	}{
		{"copy", size, func(w int) { split(w, size, func(_, lo, hi int) { copy(dst[lo:hi], src[lo:hi]) }) }},
		{"pad-inplace", size, func(w int) { split(w, size, func(_, lo, hi int) { xorPad(dst[lo:hi], dst[lo:hi], &pad) }) }},
		{"pad-separate", size, func(w int) { split(w, size, func(_, lo, hi int) { xorPad(dst[lo:hi], src[lo:hi], &pad) }) }},
		{"ctr-inplace", size, func(w int) { parallel.XORKeyStream(ctr, dst, dst, 0, w) }},
		{"ctr-separate", size, func(w int) { parallel.XORKeyStream(ctr, dst, src, 0, w) }},
		{"ctr-halves", size, func(w int) {
			split(w, size, func(_, lo, hi int) { ctr.XORKeyStreamAt(dst[lo:hi], dst[lo:hi], uint64(lo)) })
		}},
		{"ctr-l2", size, func(w int) {
			split(w, size, func(k, lo, hi int) {
				buf := dst[k*256<<10 : (k+1)*256<<10]
				for n := lo; n < hi; n += len(buf) {
					ctr.XORKeyStreamAt(buf, buf, 0)
				}
			})
		}},
		{"cbc-l1", size / 8, func(w int) {
			split(w, size/8, func(k, lo, hi int) {
				buf := dst[k*16<<10 : (k+1)*16<<10]
				cbc, _ := aes.NewCBCEncrypter(block, make([]byte, 16))
				for n := lo; n < hi; n += len(buf) {
					cbc.CryptBlocks(buf, buf)
				}
			})
		}},
	}
	for _, row := range rows {
		b.Run(row.name, func(b *testing.B) {
			best := [2]time.Duration{1 << 62, 1 << 62}
			for b.Loop() {
				for i, workers := range []int{1, procs} {
					t0 := time.Now()
					row.turn(workers)
					best[i] = min(best[i], time.Since(t0))
				}
			}
			bytes := float64(row.bytes)
			gbps := func(d time.Duration) float64 { return bytes / d.Seconds() / 1e9 }
			b.ReportMetric(gbps(best[0]), "1-GB/s")
			b.ReportMetric(gbps(best[1]), "N-GB/s")
			b.ReportMetric(float64(best[0])/float64(best[1]), "speedup")
		})
	}
}

// split runs f over n bytes cut into workers equal parts, part k on [lo,
// hi), one goroutine each (the caller's among them).
func split(workers, n int, f func(k, lo, hi int)) {
	var wg sync.WaitGroup
	part := n / workers
	for k := 1; k < workers; k++ {
		wg.Go(func() { f(k, k*part, min((k+1)*part, n)) })
	}
	f(0, 0, part)
	wg.Wait()
}

// xorPad writes src XOR the repeated pad to dst.
func xorPad(dst, src []byte, pad *[4096]byte) {
	for len(src) > 0 {
		n := subtle.XORBytes(dst, src, pad[:])
		dst, src = dst[n:], src[n:]
	}
}
