package testkit

import (
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU returns the calling thread's CPU time, or 0 where unknown: on a
// shared machine wall time includes other processes' turns, so benchmarks
// report CPU time beside it.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
