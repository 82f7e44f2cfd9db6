//go:build !linux

package bench

// threadCPUNow is not offered here: figures keep their wall-clock mean
// only, and peers are run on wall-clock time too.
func threadCPUNow() (int64, bool) { return 0, false }
