package main

import (
	"os"
	"syscall"
)

// peakRSS is the peak resident memory of an ended process, in bytes
// (Linux reports KiB).
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return int64(ru.Maxrss) << 10, true
}
