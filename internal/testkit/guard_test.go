//go:build unix

package testkit

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// sink keeps the probe's read from being optimised away.
var sink byte

// TestGuardedFaults proves the guard pages guard: a child process that
// touches one byte past (or before) a guarded buffer must die, and one that
// stays inside must not.
func TestGuardedFaults(t *testing.T) {
	if probe := os.Getenv("TESTKIT_GUARD_PROBE"); probe != "" {
		off, _ := strconv.Atoi(probe)
		buf, _, ok := Guarded(100, off >= 0)
		if !ok {
			os.Exit(3)
		}
		// Read one byte at off from the start of buf, bypassing bounds checks.
		sink = *(*byte)(unsafeAdd(&buf[0], off))
		os.Exit(0)
	}
	for _, c := range []struct {
		off   int
		fault bool
	}{{99, false}, {100, true}, {4095, true}, {0, false}, {-1, true}} {
		probe := c.off
		if probe == 0 {
			probe = 1 // "0" would read as "no probe"... keep it inside the buffer
		}
		cmd := exec.Command(os.Args[0], "-test.run=TestGuardedFaults")
		cmd.Env = append(os.Environ(), "TESTKIT_GUARD_PROBE="+strconv.Itoa(probe))
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			// The child never ran: under user-mode emulation (go test
			// -exec qemu-aarch64) without binfmt_misc the kernel cannot
			// start a binary of the emulated GOARCH.
			t.Skipf("cannot start a child process of this test binary here: %v", err)
		}
		if faulted := err != nil; faulted != c.fault {
			t.Errorf("access at offset %d: faulted = %v (%v), want %v", c.off, faulted, err, c.fault)
		}
	}
}
