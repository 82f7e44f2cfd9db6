//go:build !linux

package testkit

import "time"

// ThreadCPU is unknown off Linux: benchmarks report wall time only.
func ThreadCPU() time.Duration { return 0 }
