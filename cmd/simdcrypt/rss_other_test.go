//go:build !linux

package main

import "os"

// peakRSS: only Linux's unit for Rusage.Maxrss is checked here (macOS
// says bytes, the BSDs KiB, Windows has no Rusage), so elsewhere the
// memory bound is not measured.
func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }
