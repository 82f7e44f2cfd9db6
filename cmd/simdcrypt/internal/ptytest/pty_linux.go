package ptytest

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// PTY is a pseudo-terminal for tests of terminal behaviour (prompts,
// progress bars). Slave goes to the code under test; what it writes there
// collects in a screen buffer, and Type sends keystrokes back.
type PTY struct {
	Slave  *os.File
	master *os.File
	mu     sync.Mutex
	screen bytes.Buffer
}

// OpenPTY opens a pseudo-terminal, closed when the test ends, or skips the
// test with a message where the system has none.
func OpenPTY(t *testing.T) *PTY {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here (%v): cannot test terminal behaviour", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	// TIOCGPTN writes a 32-bit unsigned int: read into a Go int, it lands
	// in the high half on big-endian machines (s390x), which went unseen
	// while the first pseudo-terminal, number 0, was the one handed out.
	n, err := unix.IoctlGetUint32(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	p := &PTY{Slave: slave, master: master}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			p.mu.Lock()
			p.screen.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p
}

// Screen returns everything written to the terminal so far.
func (p *PTY) Screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.screen.String()
}

// Type sends s as keyboard input.
func (p *PTY) Type(s string) (int, error) { return p.master.Write([]byte(s)) }

// WaitFor waits up to ten seconds until the screen shows s at least count
// times, and fails the test otherwise.
func (p *PTY) WaitFor(t testing.TB, s string, count int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(p.Screen(), s) < count {
		if time.Now().After(deadline) {
			t.Fatalf("terminal shows %q, waited for %q", p.Screen(), s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
