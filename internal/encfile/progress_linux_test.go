package encfile

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns both ends of a new pseudo-terminal, or skips the test.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here (%v): cannot test terminal output", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	return master, slave
}

// TestProgress checks the bar: drawn on a terminal once the delay has
// passed, never before it, and never on a file.
func TestProgress(t *testing.T) {
	master, slave := openPTY(t)
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	shown := func() string {
		time.Sleep(100 * time.Millisecond) // let the terminal deliver
		mu.Lock()
		defer mu.Unlock()
		return screen.String()
	}

	var consumed atomic.Int64
	defer func(d time.Duration) { progressDelay = d }(progressDelay)

	progressDelay = time.Hour
	stop := startProgress(slave, 1000, &consumed)
	consumed.Store(500)
	time.Sleep(300 * time.Millisecond)
	stop()
	if s := shown(); s != "" {
		t.Errorf("a run shorter than the delay drew %q", s)
	}

	progressDelay = 0
	stop = startProgress(slave, 1<<30, &consumed)
	consumed.Store(1 << 29)
	time.Sleep(500 * time.Millisecond)
	stop()
	if s := shown(); !strings.Contains(s, "simdcrypt enc") || !strings.Contains(s, "50%") {
		t.Errorf("terminal shows %q, want the bar at 50%%", s)
	}

	f, err := os.Create(t.TempDir() + "/stderr")
	if err != nil {
		t.Fatal(err)
	}
	stop = startProgress(f, 1000, &consumed)
	time.Sleep(300 * time.Millisecond)
	stop()
	if fi, _ := f.Stat(); fi.Size() != 0 {
		t.Errorf("progress written to a file that is not a terminal")
	}
}
