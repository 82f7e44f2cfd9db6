//go:build linux

package bench

import "golang.org/x/sys/unix"

// threadCPUNow reads the calling OS thread's CPU time in nanoseconds. Linux
// accounts it exactly (to the nanosecond, on every read), so a batch of a
// few hundred microseconds is timed well, and time the thread spent
// descheduled by other processes does not count.
func threadCPUNow() (int64, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return ts.Nano(), true
}
