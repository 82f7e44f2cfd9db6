package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Clock is the engine's time source, in nanoseconds from an arbitrary
// origin. The engine reads it only around whole batches, so a fake clock
// that kernels advance themselves makes the tests exact.
type Clock interface {
	Now() int64
}

type wallClock struct{ origin time.Time }

// WallClock returns the monotonic wall clock the engine uses by default.
func WallClock() Clock { return wallClock{time.Now()} }

func (c wallClock) Now() int64 { return int64(time.Since(c.origin)) }

// The operands of the dependent chain live in package variables so the
// compiler cannot fold the chain into a multiplication: it must emit every
// ADD and XOR, each depending on the one before.
var (
	chainAdd  uint64 = 0x9e3779b97f4a7c15
	chainXor  uint64 = 0xbf58476d1ce4e5b9
	chainSink uint64
)

// chainOpsPerIter is the number of dependent single-cycle ALU operations in
// one iteration of dependentChain.
const chainOpsPerIter = 32

// dependentChain runs iters×32 dependent one-cycle operations (alternating
// ADD and XOR, which no compiler rewrite merges). The loop counter and
// branch run on other ports alongside, so one iteration costs 32 cycles.
func dependentChain(iters int) uint64 {
	x, a, b := chainSink, chainAdd, chainXor
	for i := 0; i < iters; i++ {
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
		x += a
		x ^= b
	}
	return x
}

// MeasureMHz estimates the core clock the way libgcrypt's bench-slope
// --cpu-mhz auto does: it times a long chain of dependent single-cycle
// operations, which retires one per cycle at whatever frequency the core
// runs, turbo included. Interruptions can only make a run look slower, so
// after a warm-up that lets the core reach its working frequency it keeps
// the fastest of many short runs.
func MeasureMHz(c Clock) float64 {
	if c == nil {
		c = WallClock()
	}
	const iters = 1 << 15      // 1 Mi operations: about 0.3 ms at 3 GHz
	dependentChain(iters * 32) // warm-up: let the core ramp up
	best := 0.0
	for range 25 {
		t0 := c.Now()
		chainSink = dependentChain(iters)
		dt := c.Now() - t0
		if dt <= 0 {
			continue
		}
		best = max(best, float64(iters*chainOpsPerIter)/float64(dt)*1e3)
	}
	return best
}

// quickMHz is MeasureMHz without the warm-up and with fewer, shorter runs
// (about 0.2 ms in all at 4 GHz), for measuring the clock next to every
// figure.
func quickMHz(c Clock) float64 {
	const iters = 1 << 12
	best := 0.0
	for range 6 {
		t0 := c.Now()
		chainSink = dependentChain(iters)
		if dt := c.Now() - t0; dt > 0 {
			best = max(best, float64(iters*chainOpsPerIter)/float64(dt)*1e3)
		}
	}
	return best
}

// DefaultLLCBytes is assumed when the OS does not say how large the
// last-level cache is.
const DefaultLLCBytes = 64 << 20

// MaxColdBytes caps the cache-cold working set: large enough to defeat any
// current last-level cache twice over, small enough for a shared machine.
const MaxColdBytes = 1 << 30

// LLCBytes reads the size of the largest (last-level) cache CPU 0 sees
// from Linux's sysfs; ok is false when it cannot.
func LLCBytes() (n int64, ok bool) {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	best, bestLevel := int64(0), -1
	for _, d := range dirs {
		typ := readTrim(filepath.Join(d, "type"))
		if typ == "Instruction" {
			continue
		}
		level, err := strconv.Atoi(readTrim(filepath.Join(d, "level")))
		if err != nil {
			continue
		}
		size, err := parseCacheSize(readTrim(filepath.Join(d, "size")))
		if err != nil {
			continue
		}
		if level > bestLevel || (level == bestLevel && size > best) {
			best, bestLevel = size, level
		}
	}
	return best, best > 0
}

// ColdWorkingSet returns the bytes the cache-cold mode rotates over: twice
// the last-level cache (so little of it survives between visits), capped at
// MaxColdBytes, and a sentence saying how it was chosen.
func ColdWorkingSet() (int64, string) {
	llc, ok := LLCBytes()
	how := "last-level cache " + FormatBytes(llc) + " (from sysfs)"
	if !ok {
		llc = DefaultLLCBytes
		how = "last-level cache size unknown, assuming " + FormatBytes(llc)
	}
	ws := 2 * llc
	if ws > MaxColdBytes {
		ws = MaxColdBytes
		how += "; working set 2×LLC capped at " + FormatBytes(ws)
	} else {
		how += "; working set 2×LLC = " + FormatBytes(ws)
	}
	return ws, how
}

func parseCacheSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// FormatBytes writes n as 16, 1K, 16K, 300M, 1G when exact, else with a
// decimal.
func FormatBytes(n int64) string {
	units := []struct {
		shift int
		name  string
	}{{30, "G"}, {20, "M"}, {10, "K"}}
	for _, u := range units {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	for _, u := range units {
		if n >= 1<<u.shift {
			return strconv.FormatFloat(float64(n)/float64(int64(1)<<u.shift), 'f', 1, 64) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// CPUName returns the processor's brand string from /proc/cpuinfo, or "".
func CPUName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
