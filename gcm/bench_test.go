package gcm

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/aria"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

var benchSizes = []int{64, 1024, 16384}

// BenchmarkAES128GCM measures Seal and Open on every path this CPU runs and
// on crypto/cipher over crypto/aes (the stdlib baseline), in one run so
// that the ratios compare like with like.
func BenchmarkAES128GCM(b *testing.B) { benchAES(b, 16) }
func BenchmarkAES256GCM(b *testing.B) { benchAES(b, 32) }

func benchAES(b *testing.B, keySize int) {
	key := make([]byte, keySize)
	sb, _ := stdaes.NewCipher(key)
	std, _ := cipher.NewGCM(sb)
	benchAEAD(b, "stdlib-baseline", std)
	blk, _ := aes.NewCipher(key)
	for _, p := range paths {
		a, err := newPath(p.Name, blk, standardNonceSize, standardTagSize)
		if err != nil {
			continue
		}
		benchAEAD(b, p.Name, a)
	}
}

// BenchmarkARIA128GCM measures ARIA-128-GCM on every GHASH width, beside
// ARIA-128-CTR through the same block: GCM's cost over counter mode.
func BenchmarkARIA128GCM(b *testing.B) {
	key := make([]byte, 16)
	blk, _ := aria.NewCipher(key)
	benchCTR(b, blk)
	for _, p := range paths {
		a, err := newPath(p.Name, blk, standardNonceSize, standardTagSize)
		if err != nil {
			continue
		}
		benchAEAD(b, p.Name, a)
	}
}

// benchCTR measures counter mode through blk at every size.
func benchCTR(b *testing.B, blk cipher.Block) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("ctr/%d", size), func(b *testing.B) {
			s := cipher.NewCTR(blk, make([]byte, 16))
			buf := make([]byte, size)
			b.SetBytes(int64(size))
			cpu0 := lockThread(b)
			for b.Loop() {
				s.XORKeyStream(buf, buf)
			}
			reportCPU(b, size, cpu0)
		})
	}
}

func benchAEAD(b *testing.B, name string, a cipher.AEAD) {
	nonce := make([]byte, a.NonceSize())
	ad := make([]byte, 13)
	for _, size := range benchSizes {
		pt := make([]byte, size)
		ct := a.Seal(nil, nonce, pt, ad)
		out := make([]byte, 0, size+a.Overhead())
		b.Run(fmt.Sprintf("%s/seal/%d", name, size), func(b *testing.B) {
			b.SetBytes(int64(size))
			cpu0 := lockThread(b)
			for b.Loop() {
				a.Seal(out[:0], nonce, pt, ad)
			}
			reportCPU(b, size, cpu0)
		})
		b.Run(fmt.Sprintf("%s/open/%d", name, size), func(b *testing.B) {
			b.SetBytes(int64(size))
			cpu0 := lockThread(b)
			for b.Loop() {
				if _, err := a.Open(out[:0], nonce, ct, ad); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, size, cpu0)
		})
	}
}

// lockThread pins the benchmark to its thread for the rest of b and returns
// the thread's CPU time, for reportCPU.
func lockThread(b *testing.B) time.Duration {
	runtime.LockOSThread()
	b.Cleanup(runtime.UnlockOSThread)
	return testkit.ThreadCPU()
}

// reportCPU adds throughput over the thread's CPU time, steadier than wall
// time on a shared machine.
func reportCPU(b *testing.B, n int, cpu0 time.Duration) {
	if cpu := testkit.ThreadCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}
