package encfile

import (
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/ptytest"
)

// TestProgress checks the progress line: drawn on a terminal once the delay has
// passed, never before it, and never on a file.
func TestProgress(t *testing.T) {
	pty := ptytest.OpenPTY(t)
	slave := pty.Slave
	shown := func() string {
		time.Sleep(100 * time.Millisecond) // let the terminal deliver
		return pty.Screen()
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
	s := shown()
	if !strings.Contains(s, "simdcrypt enc") || !strings.Contains(s, "50%") {
		t.Errorf("terminal shows %q, want the bar at 50%%", s)
	}
	// Redrawn in place and erased when the run ends.
	if strings.Contains(s, "\n") || !strings.HasPrefix(s, "\r") || !strings.HasSuffix(s, "\r\x1b[K") {
		t.Errorf("terminal shows %q, want lines redrawn after \\r and erased at the end", s)
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
