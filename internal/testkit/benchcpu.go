package testkit

import (
	"runtime"
	"testing"
)

// StartCPU starts measuring a benchmark of n bytes per iteration over the
// thread's CPU time as well as wall time: on a shared machine wall time
// includes other processes' turns, thread CPU time (what openssl speed
// divides by, too) does not. It sets b's bytes, locks the goroutine to its
// thread and reads the thread's clock; the stop it returns, called after
// the b.Loop loop (defer testkit.StartCPU(b, n)()), reports cpu-MB/s and
// unlocks the thread.
func StartCPU(b *testing.B, n int) (stop func()) {
	b.SetBytes(int64(n))
	runtime.LockOSThread()
	cpu0 := ThreadCPU()
	return func() {
		if cpu := ThreadCPU() - cpu0; cpu > 0 {
			b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
		}
		runtime.UnlockOSThread()
	}
}
