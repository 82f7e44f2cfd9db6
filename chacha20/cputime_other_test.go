//go:build !linux

package chacha20

import "time"

// threadCPU is unknown here; benchmarks then report wall time only.
func threadCPU() time.Duration { return 0 }
