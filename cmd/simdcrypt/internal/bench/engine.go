package bench

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Plan counts the measurements Measure will make for n targets.
func (c *Config) Plan(n int) int {
	per := max(len(c.Offsets), 1)
	if len(c.Sizes) > 0 {
		per *= len(c.Sizes)
	}
	if c.Threads > 1 {
		per *= 2
	}
	return n * per * max(c.Count, 1)
}

// MinDuration is the shortest measurement AutoDuration and Budget allow:
// enough for 5 repetitions × 4 sizes of batches of a millisecond or two.
const MinDuration = 40 * time.Millisecond

// AutoDuration spreads a time budget over the planned measurements, within
// bounds that keep each one meaningful (at least MinDuration) and short (at
// most 1 s).
func (c *Config) AutoDuration(n int, budget time.Duration) time.Duration {
	d := budget / time.Duration(max(c.Plan(n), 1))
	return min(max(d, MinDuration), time.Second)
}

func (c *Config) withDefaults() Config {
	d := *c
	if len(d.SlopeSizes) == 0 {
		d.SlopeSizes = DefaultSlopeSizes
	}
	if len(d.Offsets) == 0 {
		d.Offsets = []int{0}
	}
	if d.Duration <= 0 {
		d.Duration = DefaultDuration
	}
	if d.Reps <= 0 {
		d.Reps = DefaultReps
	}
	if d.Slices <= 0 {
		d.Slices = DefaultSlices
	}
	d.Count = max(d.Count, 1)
	d.Threads = max(d.Threads, 1)
	if d.Clock == nil {
		d.Clock = WallClock()
	}
	if d.Cold && d.ColdBytes <= 0 {
		d.ColdBytes, _ = ColdWorkingSet()
	}
	return d
}

// Validate checks sizes against the targets' block alignment, offsets and
// counts, returning the first problem as a one-line error.
func (c *Config) Validate(ts []*Target) error {
	sizes := c.Sizes
	if len(sizes) == 0 {
		sizes = c.SlopeSizes
		if len(sizes) == 0 {
			sizes = DefaultSlopeSizes
		} else if len(sizes) < 2 {
			return errors.New("the slope fit needs at least two sizes")
		}
	}
	for _, s := range sizes {
		if s <= 0 {
			return fmt.Errorf("size %d: sizes must be positive", s)
		}
		for _, t := range ts {
			if s%t.Align != 0 {
				return fmt.Errorf("size %d is not a multiple of %d bytes, which %s needs (choose multiples of 16, or select only ctr/stream ciphers)", s, t.Align, t.Cipher)
			}
		}
	}
	for _, o := range c.Offsets {
		if o < 0 || o > 4096 {
			return fmt.Errorf("offset %d: offsets must be in 0..4096", o)
		}
	}
	if c.Threads < 0 || c.Count < 0 || c.Reps < 0 {
		return errors.New("threads, count and reps must not be negative")
	}
	return nil
}

// Measure runs every planned measurement of ts and returns the results:
// per run, per target in the given order, the slope figure (Size 0)
// followed by the per-size figures it was fitted from, or in fixed-size
// mode one result per size and offset.
func Measure(ts []*Target, cfg Config) ([]Result, error) {
	if err := cfg.Validate(ts); err != nil {
		return nil, err
	}
	c := cfg.withDefaults()
	r := &runner{cfg: c, mhz: c.MHz}
	if c.MHz <= 0 {
		MeasureMHz(c.Clock) // ramps the core up before the first target
	}
	threadCounts := []int{1}
	if c.Threads > 1 {
		threadCounts = append(threadCounts, c.Threads)
		// Every lane must be able to run Go code at the same time.
		if prev := runtime.GOMAXPROCS(0); c.Threads > prev {
			runtime.GOMAXPROCS(c.Threads)
			defer runtime.GOMAXPROCS(prev)
		}
	}
	total, done := c.Plan(len(ts)), 0
	start := time.Now()
	// paced gives each measurement its share of what is left of the
	// budget: on a loaded machine batches stretch in wall time, and the
	// later measurements shrink so the whole run still ends on time.
	paced := func() {
		if c.Budget <= 0 {
			return
		}
		left := c.Budget - time.Since(start)
		d := left / time.Duration(max(total-done, 1))
		r.cfg.Duration = min(max(d, MinDuration), c.Duration)
	}
	// One measurement: the slope over all slope sizes, or one fixed size.
	type job struct {
		sizes []int
		slope bool
	}
	jobs := []job{{c.SlopeSizes, true}}
	if len(c.Sizes) > 0 {
		jobs = jobs[:0]
		for _, s := range c.Sizes {
			jobs = append(jobs, job{[]int{s}, false})
		}
	}
	var out []Result
	for run := range c.Count {
		for _, t := range ts {
			for _, th := range threadCounts {
				for _, off := range c.Offsets {
					for _, j := range jobs {
						if c.Progress != nil {
							what := t.Name() + " slope"
							if !j.slope {
								what = fmt.Sprintf("%s size %d offset %d", t.Name(), j.sizes[0], off)
							}
							c.Progress(done, total, what+threadsNote(th))
						}
						paced()
						res, err := r.measure(t, j.sizes, off, th, j.slope)
						if err != nil {
							return nil, err
						}
						for i := range res {
							res[i].Run = run
						}
						out = append(out, res...)
						done++
					}
				}
			}
		}
	}
	if c.Progress != nil {
		c.Progress(total, total, "")
	}
	return out, nil
}

type runner struct {
	cfg   Config  // Duration is paced per measurement when Budget is set
	mhz   float64 // the given clock; 0: measure it next to every figure
	arena []byte  // cache-cold working set, allocated on first use
}

// lane is one goroutine's Op and buffers.
type lane struct {
	op       Op
	src, dst []byte // warm: one buffer each, offset from a 64-byte boundary
	// cold: slots of stride bytes rotated through on every call
	coldSrc, coldDst []byte
	stride, slots    int
	next             int
	offset           int
}

// aligned returns n bytes starting at offset from a 64-byte boundary.
func aligned(n, offset int) []byte {
	b := make([]byte, n+offset+64)
	for i := range b {
		b[i] = byte(i)
	}
	skew := 0
	if r := int(uintptr(unsafePointer(b)) % 64); r != 0 {
		skew = 64 - r
	}
	return b[skew+offset : skew+offset+n]
}

func (r *runner) newLane(t *Target, maxSize, offset, index, lanes int) (*lane, error) {
	op, err := t.New()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", t.Name(), err)
	}
	l := &lane{op: op, offset: offset}
	if !r.cfg.Cold {
		l.src, l.dst = aligned(maxSize, offset), aligned(maxSize, offset)
		return l, nil
	}
	if r.arena == nil {
		r.arena = aligned(int(r.cfg.ColdBytes), 0)
	}
	part := len(r.arena) / lanes
	mine := r.arena[index*part : (index+1)*part]
	half := len(mine) / 2 &^ 63
	l.coldSrc, l.coldDst = mine[:half], mine[half:2*half]
	// A spare line between slots keeps a slot's tail and the next slot's
	// head from sharing a line.
	l.stride = (maxSize+offset+63)&^63 + 64
	l.slots = half / l.stride
	if l.slots < 2 {
		return nil, fmt.Errorf("cold working set of %d bytes is too small for %d-byte buffers", r.cfg.ColdBytes, maxSize)
	}
	return l, nil
}

// batch makes n calls of size bytes.
func (l *lane) batch(n, size int) {
	op := l.op
	if l.coldSrc == nil {
		src, dst := l.src[:size], l.dst[:size]
		for range n {
			op(dst, src)
		}
		return
	}
	for range n {
		p := l.next*l.stride + l.offset
		op(l.coldDst[p:p+size], l.coldSrc[p:p+size])
		if l.next++; l.next == l.slots {
			l.next = 0
		}
	}
}

// crew runs batches on every lane at once and reports the mean time per
// call. With one lane it runs on the calling goroutine.
type crew struct {
	clock Clock
	lanes []*lane
	start []chan [2]int
	done  chan int64
	wg    sync.WaitGroup
}

func (r *runner) newCrew(t *Target, maxSize, offset, threads int) (*crew, error) {
	c := &crew{clock: r.cfg.Clock, done: make(chan int64, threads)}
	for i := range threads {
		l, err := r.newLane(t, maxSize, offset, i, threads)
		if err != nil {
			return nil, err
		}
		c.lanes = append(c.lanes, l)
	}
	if threads == 1 {
		return c, nil
	}
	for _, l := range c.lanes {
		ch := make(chan [2]int)
		c.start = append(c.start, ch)
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			// One OS thread per lane, so the scheduler spreads them
			// over cores instead of time-slicing one.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for job := range ch {
				t0 := c.clock.Now()
				l.batch(job[0], job[1])
				c.done <- c.clock.Now() - t0
			}
		}()
	}
	return c, nil
}

func (c *crew) close() {
	for _, ch := range c.start {
		close(ch)
	}
	c.wg.Wait()
}

// run makes n calls of size bytes on every lane and returns the mean
// elapsed nanoseconds per lane.
func (c *crew) run(n, size int) int64 {
	if len(c.start) == 0 {
		t0 := c.clock.Now()
		c.lanes[0].batch(n, size)
		return c.clock.Now() - t0
	}
	for _, ch := range c.start {
		ch <- [2]int{n, size}
	}
	var sum int64
	for range c.start {
		sum += <-c.done
	}
	return sum / int64(len(c.start))
}

// DefaultSlices is the number of timed slices a batch is cut into. A slice that
// the OS interrupted (another process, an interrupt, a page fault) only
// gets slower, never faster, so the fastest slice is the batch's figure:
// on a busy machine slices a few milliseconds long often run whole between
// two preemptions where a longer batch never would.
const DefaultSlices = 4

// timeSlices makes n calls of size bytes in k timed slices and returns
// the fastest slice's time per call.
func (c *crew) timeSlices(n, size, k int) float64 {
	k = min(k, n)
	best := math.Inf(1)
	for i := range k {
		m := n/k + boolInt(i < n%k)
		best = min(best, float64(c.run(m, size))/float64(m))
	}
	return best
}

// calibrate finds how many calls of size bytes take about want
// nanoseconds, growing the batch geometrically; the growing batches are
// also the warm-up (caches, branch predictors, clock ramp).
func (c *crew) calibrate(size int, want int64) int {
	n := 1
	for {
		el := c.run(n, size)
		if el >= want/4 || n >= 1<<30 {
			if el <= 0 {
				return n
			}
			return max(1, int(float64(n)*float64(want)/float64(el)))
		}
		grow := 16
		if el > 0 {
			grow = min(16, max(2, int(want/4/el)+1))
		}
		n *= grow
	}
}

// measure times one target: with slope set, batches at every size, one
// line fit per repetition; else one size.
func (r *runner) measure(t *Target, sizes []int, offset, threads int, slope bool) ([]Result, error) {
	runtime.GC() // start every measurement with the heap quiet
	c, err := r.newCrew(t, slices.Max(sizes), offset, threads)
	if err != nil {
		return nil, err
	}
	defer c.close()
	reps := r.cfg.Reps
	batchNs := int64(r.cfg.Duration) * 4 / 5 / int64(reps*len(sizes))
	calls := make([]int, len(sizes))
	for i, s := range sizes {
		calls[i] = c.calibrate(s, batchNs)
	}
	mhzBefore := 0.0
	if r.mhz <= 0 {
		mhzBefore = quickMHz(r.cfg.Clock)
	}
	perCall := make([][]float64, len(sizes)) // [size][rep] ns per call
	var totalCalls int64
	for rep := range reps {
		// Rotate the order of sizes between repetitions so a drift in
		// clock or load does not bias one end of the line.
		for k := range sizes {
			i := (k + rep) % len(sizes)
			perCall[i] = append(perCall[i], c.timeSlices(calls[i], sizes[i], r.cfg.Slices))
			totalCalls += int64(calls[i] * threads)
		}
	}
	mhz := r.mhz
	if mhz <= 0 {
		// The clock of this row, as bench-slope's --cpu-mhz auto does:
		// the core's frequency moves with the load on the other cores
		// (all-core turbo), so it is measured next to each figure.
		mhz = max(mhzBefore, quickMHz(r.cfg.Clock))
	}
	base := Result{Target: t, Offset: offset, Threads: threads, Cold: r.cfg.Cold, MHz: mhz}
	var out []Result
	if slope {
		s := base
		s.Calls = totalCalls
		var r2s []float64
		xs := make([]float64, len(sizes))
		for i, sz := range sizes {
			xs[i] = float64(sz)
		}
		for rep := range reps {
			ys := make([]float64, len(sizes))
			for i := range sizes {
				ys[i] = perCall[i][rep]
			}
			f := FitLine(xs, ys)
			s.Samples = append(s.Samples, f.Slope)
			s.Overheads = append(s.Overheads, f.Intercept)
			r2s = append(r2s, f.R2)
		}
		// The reported line is fitted to each size's median time, which
		// ignores a batch that was preempted; the per-repetition fits
		// are the samples the spread and the U test use.
		ys := make([]float64, len(sizes))
		for i := range sizes {
			ys[i] = median(perCall[i])
		}
		f := FitLine(xs, ys)
		s.NsPerByte, s.OverheadNs, s.R2 = f.Slope, f.Intercept, median(r2s)
		s.Spread = RelSpread(s.Samples)
		out = append(out, s)
	}
	for i, sz := range sizes {
		p := base
		p.Size = sz
		for _, pc := range perCall[i] {
			p.Samples = append(p.Samples, pc/float64(sz))
		}
		p.NsPerByte = median(p.Samples)
		p.Spread = RelSpread(p.Samples)
		p.Calls = int64(calls[i] * reps * threads)
		out = append(out, p)
	}
	return out, nil
}

func threadsNote(n int) string {
	if n > 1 {
		return fmt.Sprintf(" on %d threads", n)
	}
	return ""
}
