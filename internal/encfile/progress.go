package encfile

import (
	"os"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressDelay is how long a run goes before it shows a bar: short runs
// stay quiet.
const progressDelay = 2 * time.Second

// startProgress shows a progress bar on stderr, only if stderr is a
// terminal and the run lasts longer than progressDelay. total is the input
// size, or -1 when unknown (a pipe). stop removes the bar.
func startProgress(stderr *os.File, total int64, consumed *atomic.Int64) (stop func()) {
	if stderr == nil || !term.IsTerminal(int(stderr.Fd())) {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-done:
			return
		case <-time.After(progressDelay):
		}
		bar := progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("simdcrypt enc"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			bar.Set64(consumed.Load())
			select {
			case <-done:
				bar.Finish()
				bar.Clear()
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
