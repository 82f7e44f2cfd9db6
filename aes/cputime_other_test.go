//go:build !linux

package aes

import "time"

// threadCPU is unknown here; benchmarks then report wall time only.
func threadCPU() time.Duration { return 0 }
