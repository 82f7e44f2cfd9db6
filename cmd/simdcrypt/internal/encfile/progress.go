package encfile

import (
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressDelay is how long a run goes before it shows a bar: short runs
// stay quiet.
var progressDelay = 2 * time.Second

// startProgress shows a progress bar on stderr, only if stderr is a
// terminal and the run lasts longer than progressDelay. total is the input
// size, or -1 when unknown (a pipe). stop removes the bar.
//
// The bar exists from the start, so its rate and time estimates count the
// whole run, but writes nothing until the delay has passed.
func startProgress(stderr *os.File, total int64, consumed *atomic.Int64) (stop func()) {
	if stderr == nil || !term.IsTerminal(int(stderr.Fd())) {
		return func() {}
	}
	w := &delayedWriter{w: stderr}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("simdcrypt enc"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		showAt := time.Now().Add(progressDelay)
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			if !w.show.Load() && time.Now().After(showAt) {
				w.show.Store(true)
			}
			bar.Set64(consumed.Load())
			select {
			case <-done:
				bar.Finish()
				if w.show.Load() {
					bar.Clear()
				}
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

// delayedWriter drops writes until show is set.
type delayedWriter struct {
	w    io.Writer
	show atomic.Bool
}

func (d *delayedWriter) Write(p []byte) (int, error) {
	if !d.show.Load() {
		return len(p), nil
	}
	return d.w.Write(p)
}
