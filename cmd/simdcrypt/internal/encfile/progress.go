package encfile

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// progressDelay is how long a run goes before it shows its progress line:
// short runs stay quiet.
var progressDelay = 2 * time.Second

// progressEvery is how often the line is redrawn.
const progressEvery = 200 * time.Millisecond

// startProgress shows a progress line on stderr, only if stderr is a
// terminal and the run lasts longer than progressDelay. total is the input
// size, or -1 when unknown (a pipe). stop erases the line.
//
// The rate counts from the start of the run, not from when the line
// appears.
func startProgress(stderr *os.File, total int64, consumed *atomic.Int64) (stop func()) {
	if stderr == nil || !term.IsTerminal(int(stderr.Fd())) {
		return func() {}
	}
	fd := int(stderr.Fd())
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		shown := false
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				if shown {
					fmt.Fprint(stderr, "\r\x1b[K")
				}
				return
			case <-tick.C:
			}
			elapsed := time.Since(start)
			if elapsed < progressDelay {
				continue
			}
			cols, _, err := term.GetSize(fd)
			if err != nil || cols <= 0 {
				cols = 80
			}
			// Carriage return, the line, erase to the end of the line:
			// one line redrawn in place, never wrapped.
			fmt.Fprint(stderr, "\r"+progressLine(consumed.Load(), total, elapsed, cols)+"\x1b[K")
			shown = true
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// progressWidth is the length of the bar between its brackets.
const progressWidth = 30

// progressLine is the text of the progress line after elapsed, with done
// of total bytes read (total -1 when unknown), fitted into cols columns:
// the bar goes first, then the estimate, then the line is cut.
//
//	simdcrypt enc  50% [==============>               ] 512.0 MiB / 1.0 GiB  256.0 MiB/s  ETA 2s
//	simdcrypt enc  512.0 MiB  256.0 MiB/s
func progressLine(done, total int64, elapsed time.Duration, cols int) string {
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	speed := formatBytes(rate) + "/s"
	if total < 0 {
		return fit("simdcrypt enc  "+formatBytes(float64(done))+"  "+speed, cols)
	}
	frac := 1.0
	if total > 0 {
		frac = min(float64(done)/float64(total), 1)
	}
	pct := fmt.Sprintf("%3d%%", int(frac*100))
	filled := int(frac * progressWidth)
	bar := strings.Repeat("=", filled)
	if filled < progressWidth {
		bar += ">" + strings.Repeat(" ", progressWidth-filled-1)
	}
	amount := formatBytes(float64(done)) + " / " + formatBytes(float64(total))
	eta := ""
	if rate > 0 && done < total {
		left := time.Duration(float64(total-done) / rate * float64(time.Second))
		eta = "  ETA " + left.Round(time.Second).String()
	}
	for _, line := range []string{
		"simdcrypt enc " + pct + " [" + bar + "] " + amount + "  " + speed + eta,
		"simdcrypt enc " + pct + " " + amount + "  " + speed + eta,
		"simdcrypt enc " + pct + " " + amount + "  " + speed,
	} {
		if len(line) < cols {
			return line
		}
	}
	return fit("simdcrypt enc "+pct, cols)
}

// fit cuts s to fewer than cols columns (the text is ASCII), so that the
// cursor never moves to the next line.
func fit(s string, cols int) string {
	if len(s) >= cols {
		return s[:max(cols-1, 0)]
	}
	return s
}

// formatBytes writes n bytes with a binary unit and one decimal.
func formatBytes(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", int64(n))
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}
