package poly1305

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xpoly "golang.org/x/crypto/poly1305" //nolint:staticcheck // the baseline
)

// BenchmarkSum runs every path and x/crypto's one-shot Sum in one run.
func BenchmarkSum(b *testing.B) {
	var key [32]byte
	for i := range key {
		key[i] = byte(i)
	}
	var tag [TagSize]byte
	run := func(b *testing.B, n int, sum func(msg []byte)) {
		msg := make([]byte, n)
		defer testkit.StartCPU(b, n)()
		for b.Loop() {
			sum(msg)
		}
	}
	for _, n := range []int{64, 256, 384, 512, 1024, 16 << 10} {
		for _, p := range Paths() {
			b.Run(fmt.Sprintf("%s/%d", p, n), func(b *testing.B) {
				if !p.Available() {
					b.Skipf("%s needs %v or is not built", p, p.Requires())
				}
				run(b, n, func(msg []byte) { SumOn(&tag, msg, &key, p) })
			})
		}
		b.Run(fmt.Sprintf("xcrypto/%d", n), func(b *testing.B) {
			run(b, n, func(msg []byte) { xpoly.Sum(&tag, msg, &key) })
		})
	}
}

var clockMul uint64 = 0x9e3779b97f4a7c15

// BenchmarkClock estimates the core clock for turning throughput into
// cycles per byte: a chain of dependent 64-bit multiplications, which take
// 3 cycles each on current x86-64 cores (AMD Zen, Intel Core). It reports
// GHz over thread CPU time; c/B = GHz / (GB/s).
func BenchmarkClock(b *testing.B) {
	const chain = 1 << 16
	x := clockMul
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := testkit.ThreadCPU()
	for b.Loop() {
		for range chain {
			x *= clockMul
		}
	}
	if cpu := testkit.ThreadCPU() - cpu0; cpu > 0 {
		b.ReportMetric(3*chain*float64(b.N)/cpu.Seconds()/1e9, "GHz")
	}
	clockMul ^= x & 1 // keep the chain live
}
