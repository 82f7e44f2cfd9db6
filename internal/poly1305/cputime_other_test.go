//go:build !linux

package poly1305

import "time"

// threadCPU is unknown off Linux: benchmarks report wall time only.
func threadCPU() time.Duration { return 0 }
