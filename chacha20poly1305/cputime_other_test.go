//go:build !linux

package chacha20poly1305

import "time"

// threadCPU is unknown off Linux: benchmarks report wall time only.
func threadCPU() time.Duration { return 0 }
