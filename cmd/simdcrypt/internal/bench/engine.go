package bench

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
)

// Plan counts the measurements Measure will make of ts. A peer (openssl)
// is measured on one thread only.
func (c *Config) Plan(ts []*Target) int {
	per := max(len(c.Offsets), 1)
	if len(c.Sizes) > 0 {
		per *= len(c.Sizes)
	}
	n := 0
	for _, t := range ts {
		if t.Peer == nil && c.Threads > 1 {
			n += 2 * per
		} else {
			n += per
		}
	}
	return n * max(c.Count, 1)
}

// peerPlan counts the peer measurements among Plan(ts) and the wall time
// they will take.
func (c *Config) peerPlan(ts []*Target) (int, time.Duration) {
	var peers []*Target
	for _, t := range ts {
		if t.Peer != nil {
			peers = append(peers, t)
		}
	}
	n := c.Plan(peers)
	var d time.Duration
	for _, t := range peers {
		d += t.PeerCost
	}
	return n, d * time.Duration(n/max(len(peers), 1))
}

// PeerTime is the wall time the peer measurements of ts will take.
func (c *Config) PeerTime(ts []*Target) time.Duration { _, d := c.peerPlan(ts); return d }

// MinDuration is the share of the budget under which a measurement
// shortens itself: it fits the slope to two sizes instead of all.
const MinDuration = 40 * time.Millisecond

// floorDuration is the shortest a measurement sizes its batches for, however
// little budget is left: a repetition of calibrated batches a millisecond
// or two long.
const floorDuration = 2 * time.Millisecond

// AutoDuration spreads a time budget over the planned measurements of ts,
// within bounds that keep each one meaningful (at least MinDuration) and
// short (at most 1 s). The peers' own time comes off the budget first.
func (c *Config) AutoDuration(ts []*Target, budget time.Duration) time.Duration {
	peers, peerTime := c.peerPlan(ts)
	d := (budget - peerTime) / time.Duration(max(c.Plan(ts)-peers, 1))
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
	if d.Estimator == "" {
		d.Estimator = EstimatorMedian
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
	if c.Estimator != "" && !slices.Contains(Estimators, c.Estimator) {
		return fmt.Errorf("unknown estimator %q (valid: %s)", c.Estimator, strings.Join(Estimators, ", "))
	}
	return nil
}

// Measure runs every planned measurement of ts and returns the results:
// per run, per cipher and direction in the order of ts, the targets of that
// group one after the other, so that implementations measured side by side
// see the same machine. In the slope mode each target gives the slope
// figure (Size 0) followed by the per-size figures it was fitted from; in
// fixed-size mode the loop goes size by size and offset by offset, every
// target of the group at each, one result each.
func Measure(ts []*Target, cfg Config) ([]Result, error) {
	if err := cfg.Validate(ts); err != nil {
		return nil, err
	}
	c := cfg.withDefaults()
	r := &runner{cfg: c, mhz: c.MHz}
	start := c.Start
	if start.IsZero() {
		start = time.Now()
	}
	if c.MHz <= 0 {
		MeasureMHz(c.Clock) // ramps the core up before the first target
	}
	// No collection inside a timed batch: collect sets the pace instead.
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	threadCounts := []int{1}
	if c.Threads > 1 {
		threadCounts = append(threadCounts, c.Threads)
		// Every lane must be able to run Go code at the same time.
		if prev := runtime.GOMAXPROCS(0); c.Threads > prev {
			runtime.GOMAXPROCS(c.Threads)
			defer runtime.GOMAXPROCS(prev)
		}
	}
	total, done := c.Plan(ts), 0
	peerJobs, peersLeft := c.peerPlan(ts)
	// share gives the next measurement its part of what is left of the
	// budget, after the peers' fixed time: on a loaded machine batches
	// stretch, and the later measurements shrink so the run ends on time.
	// Without a budget every measurement takes Duration.
	// overhead is the mean wall time a measurement spends beyond the
	// share it was given (set-up, calibration, the clock, a repetition
	// that ran over), which the shares of the rest must leave room for.
	var overhead time.Duration
	measured := 0
	// The share is what each measurement left may take; a measurement
	// sizes its batches for at most Duration of it and is cut only past
	// the whole share, so a run ahead of its budget never cuts.
	share := func() time.Duration {
		if c.Budget <= 0 {
			return c.Duration
		}
		left := c.Budget - time.Since(start) - peersLeft
		n := time.Duration(max(total-done-peerJobs, 1))
		return left/n - overhead
	}
	// The groups, in order of first appearance.
	var groups [][]*Target
	for _, t := range ts {
		k := slices.IndexFunc(groups, func(g []*Target) bool { return g[0].Group() == t.Group() })
		if k < 0 {
			groups = append(groups, []*Target{t})
		} else {
			groups[k] = append(groups[k], t)
		}
	}
	sizes := c.Sizes
	slope := len(sizes) == 0
	if slope {
		sizes = []int{0} // one job: the whole slope
	}
	var out []Result
	one := func(t *Target, size, off, th, run int) error {
		if th > 1 && t.Peer != nil {
			return nil
		}
		if c.Progress != nil {
			what := t.Name()
			if !slope {
				what += fmt.Sprintf(" size %s", FormatBytes(int64(size)))
				if len(c.Offsets) > 1 {
					what += fmt.Sprintf(" offset %d", off)
				}
			}
			c.Progress(done, total, what+threadsNote(th), r.eta(start, done, total))
		}
		var res []Result
		var err error
		if t.Peer != nil {
			res, err = r.measurePeer(t, size, off, slope)
			peersLeft -= t.PeerCost
			peerJobs--
		} else {
			// d sizes the batches, limit cuts the repetitions; without
			// a budget every repetition runs.
			d, limit, hurry := share(), time.Duration(0), false
			if c.Budget > 0 {
				hurry = d < floorDuration
				limit = max(d, floorDuration)
				d = max(min(d, c.Duration), floorDuration)
			}
			js := []int{size}
			if slope {
				js = c.SlopeSizes
				if len(t.SlopeSizes) > 0 {
					js = t.SlopeSizes
				}
				if c.Budget > 0 && d < MinDuration && len(js) > 2 {
					// Too little time for every size: the line through
					// the smallest and largest still separates the
					// per-call cost from the per-byte one.
					js = []int{js[0], js[len(js)-1]}
				}
			}
			began := time.Now()
			r.hurry = hurry
			res, err = r.measure(t, js, off, th, slope, d, limit)
			if limit > 0 {
				measured++
				overhead += (time.Since(began) - limit - overhead) / time.Duration(measured)
				overhead = max(overhead, 0)
			}
		}
		if err != nil {
			return err
		}
		for i := range res {
			res[i].Run = run
		}
		out = append(out, res...)
		done++
		if c.OnResult != nil {
			c.OnResult(res)
		}
		return nil
	}
	for run := range c.Count {
		for _, g := range groups {
			for _, th := range threadCounts {
				for _, off := range c.Offsets {
					for _, size := range sizes {
						for _, t := range g {
							if err := one(t, size, off, th, run); err != nil {
								return nil, err
							}
						}
					}
				}
			}
		}
	}
	if c.Progress != nil {
		c.Progress(total, total, "", 0)
	}
	return out, nil
}

// eta estimates the time left: what the budget leaves, or the mean time
// per measurement so far times the measurements left.
func (r *runner) eta(start time.Time, done, total int) time.Duration {
	el := time.Since(start)
	if r.cfg.Budget > 0 {
		return max(r.cfg.Budget-el, 0)
	}
	if done == 0 {
		return 0
	}
	return el / time.Duration(done) * time.Duration(total-done)
}

// measurePeer asks a peer (openssl speed) for its figure at one size: the
// largest slope size in the slope mode. The clock is measured around it
// for cycles per byte.
func (r *runner) measurePeer(t *Target, size, offset int, slope bool) ([]Result, error) {
	if slope {
		size = slices.Max(r.cfg.SlopeSizes)
	}
	mhz := r.mhz
	if mhz <= 0 {
		mhz = quickMHz(r.cfg.Clock)
	}
	ns, onCPU, err := t.Peer(size, offset)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", t.Name(), err)
	}
	if r.mhz <= 0 {
		mhz = max(mhz, quickMHz(r.cfg.Clock))
	}
	res := Result{Target: t, Size: size, Offset: offset, Threads: 1, Cold: r.cfg.Cold, MHz: mhz,
		NsPerByte: ns, MeanNsPerByte: ns, Samples: []float64{ns}, Reps: 1}
	if onCPU {
		res.CPUNsPerByte = ns
	}
	return []Result{res}, nil
}

type runner struct {
	cfg     Config  // Duration is paced per measurement when Budget is set
	mhz     float64 // the given clock; 0: measure it next to every figure
	arena   []byte  // cache-cold working set, allocated on first use
	hurry   bool    // the budget is nearly spent: reuse the last clock
	lastMHz float64
	garbage int64 // bytes of buffers allocated since the last collection
}

// collect runs the garbage collector before a measurement that is about to
// allocate buffers for size bytes when the buffers of earlier measurements
// add up to 64 MiB. Measure turns the collector's pacing off, so no
// collection starts inside a timed batch; collecting before every
// measurement instead costs a loaded machine dearly, as runtime.GC yields
// in a loop until the background sweep is done.
func (r *runner) collect(size, offset, threads int) {
	r.garbage += int64(2 * (size + offset + 64) * threads)
	if r.garbage > 64<<20 {
		runtime.GC()
		r.garbage = 0
	}
}

// lane is one goroutine's Op and buffers.
type lane struct {
	op       Op
	src, dst []byte // warm: the placement in use, see placements
	// the placements the repetitions rotate over (cold: one, its Op alone)
	placements []placement
	// cold: slots of stride bytes rotated through on every call
	coldSrc, coldDst []byte
	stride, slots    int
	next             int
	offset           int
}

// placement is one instance of a target's Op with buffers of its own.
//
// Where the buffers fall matters at small sizes: when dst shares its
// address bits 0-11 with something the next call loads (the key schedule,
// the mode's state, a stack frame), that load waits on this call's stores
// (4K aliasing), and one 64-byte AES call takes 9-14 ns instead of 8.3 on
// Zen 5 (a scan of dst over a page, docs/prefetch.md). With one placement a
// row would show whichever the allocator happened to give this build. So
// each repetition runs its own placement: a fresh Op (its own key schedule
// and mode state on the heap) and buffers at a page offset of their own
// (placementAt), and the estimators take the median over the repetitions
// as they do over noise.
//
// No dst starts in the first placementFloor bytes of a page. The Op is
// made just before its buffers, in a process that has allocated little:
// its objects (the closure, the mode, the block, the key schedule) are
// among the first of their size classes' spans, and a span starts at page
// offset 0, so they sit in the low part of a page. A dst at page offset 0
// aliased the Op's own state (the key schedule at 0, the Block at 48): on
// Zen 5 at 64 bytes that placement was the slowest of five for AES ECB
// encryption (by 12-20%), CTR (25%), CBC (3-5%) and ARIA ECB encryption
// (5%), in the minimum over 8-12 runs, which a program's long-lived key
// beside a buffer at an arbitrary offset rarely sees.
type placement struct {
	op       Op
	src, dst []byte
}

const (
	// maxPlacements caps the placements a lane rotates over (one per
	// repetition).
	maxPlacements = 8
	pageSize      = 4096
	// placementStep spreads the placements' page offsets: 13 lines, so
	// eight placements fall on eight different offsets across the page
	// above placementFloor.
	placementStep = 13 * 64
	// placementFloor is the lowest page offset a dst starts at (see
	// placement).
	placementFloor = 1024
)

// placementAt is the page offset of placement k's dst: placementStep apart,
// wrapping within [placementFloor, pageSize).
func placementAt(k int) int {
	return placementFloor + k*placementStep%(pageSize-placementFloor)
}

// place switches the lane to placement k (modulo their number).
func (l *lane) place(k int) {
	p := l.placements[k%len(l.placements)]
	l.op, l.src, l.dst = p.op, p.src, p.dst
}

// placed returns n bytes starting at offset from a 64-byte boundary that
// sits at page offset at (a multiple of 64).
func placed(n, offset, at int) []byte {
	b := make([]byte, n+offset+pageSize)
	for i := range b {
		b[i] = byte(i)
	}
	skew := (at - int(uintptr(unsafePointer(b))%pageSize) + pageSize) % pageSize
	return b[skew+offset : skew+offset+n]
}

func (r *runner) newLane(t *Target, maxSize, offset, index, lanes int) (*lane, error) {
	l := &lane{offset: offset}
	n := 1 // cold: one Op, over the arena's slots
	if !r.cfg.Cold {
		n = min(r.cfg.Reps, maxPlacements) // withDefaults makes Reps at least 1
	}
	for k := range n {
		op, err := t.New()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", t.Name(), err)
		}
		p := placement{op: op}
		if !r.cfg.Cold {
			// src half a page from dst: the next call's first loads do
			// not alias this call's last stores.
			at := placementAt(k)
			p.src, p.dst = placed(maxSize, offset, (at+pageSize/2)%pageSize), placed(maxSize, offset, at)
		}
		l.placements = append(l.placements, p)
	}
	l.place(0)
	if !r.cfg.Cold {
		return l, nil
	}
	if r.arena == nil {
		r.arena = placed(int(r.cfg.ColdBytes), 0, 0)
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
	// cpuOK: one lane, on the wall clock, on an OS thread the measuring
	// goroutine is locked to, where the thread's CPU time can be read;
	// cpuNs accumulates it over every batch since it was last reset.
	cpuOK bool
	cpuNs int64
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
		_, isWall := r.cfg.Clock.(wallClock)
		_, cpuOK := threadCPUNow()
		c.cpuOK = isWall && cpuOK
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

// place switches every lane to placement k. The lanes' goroutines read it
// after the next batch is sent to them.
func (c *crew) place(k int) {
	for _, l := range c.lanes {
		l.place(k)
	}
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
		var cpu0 int64
		if c.cpuOK {
			cpu0, _ = threadCPUNow()
		}
		t0 := c.clock.Now()
		c.lanes[0].batch(n, size)
		el := c.clock.Now() - t0
		if c.cpuOK {
			cpu1, _ := threadCPUNow()
			c.cpuNs += cpu1 - cpu0
		}
		return el
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

// DefaultSlices is the least number of timed slices a batch is cut into. A
// slice the OS interrupted (another process, an interrupt, a page fault)
// only gets slower; the median over slices ignores the few that were, and
// the fastest slice (EstimatorFastest) often ran whole between two
// preemptions on a busy machine.
const DefaultSlices = 4

// maxSliceNs bounds a slice's length when the median estimator chooses the
// number of slices (Config.Slices 0). The median only ignores interrupted
// slices while most slices are whole, and a kernel that takes a timer tick
// every millisecond (and a busy VM its context switches) interrupts nearly
// every slice of several milliseconds: on the shared 2-core Zen 5 VM,
// vaes256 ECB at 16 KiB read 0.17-0.35 c/B with 4 slices of 4 ms and
// 0.157-0.159 with 64 slices, against a limit of 0.156. The fastest
// estimator keeps DefaultSlices, so that its figures stay comparable with
// earlier releases (more slices would make its minimum more optimistic).
const maxSliceNs = 250_000

// slicesFor is the number of slices a batch of about batchNs is cut into.
func (r *runner) slicesFor(batchNs int64) int {
	switch {
	case r.cfg.Slices > 0:
		return r.cfg.Slices
	case r.cfg.Estimator == EstimatorMedian:
		return max(DefaultSlices, int((batchNs+maxSliceNs-1)/maxSliceNs))
	}
	return DefaultSlices
}

// timeSlices makes n calls of size bytes in k timed slices and appends each
// slice's time per call to into; it returns the total elapsed nanoseconds.
func (c *crew) timeSlices(n, size, k int, into *[]float64) int64 {
	k = min(k, n)
	var total int64
	for i := range k {
		m := n/k + boolInt(i < n%k)
		el := c.run(m, size)
		total += el
		*into = append(*into, float64(el)/float64(m))
	}
	return total
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

// estimate is one repetition's figure (or, over all of them, the row's)
// from its slices' times per call, by the configured estimator.
func (r *runner) estimate(slices []float64, totalNs float64, calls int) float64 {
	switch r.cfg.Estimator {
	case EstimatorFastest:
		return minOf(slices)
	case EstimatorMean:
		return totalNs / float64(calls)
	}
	return median(slices)
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}

// measure times one target: with slope set, batches at every size, one
// line fit per repetition; else one size. It sizes its batches to spend
// about d and, when limit is set, stops after the repetition that crosses
// limit.
func (r *runner) measure(t *Target, sizes []int, offset, threads int, slope bool, d, limit time.Duration) ([]Result, error) {
	began := time.Now()
	r.collect(slices.Max(sizes), offset, threads)
	// The thread's CPU time is read around each batch: the goroutine
	// must stay on one OS thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c, err := r.newCrew(t, slices.Max(sizes), offset, threads)
	if err != nil {
		return nil, err
	}
	defer c.close()
	reps := r.cfg.Reps
	batchNs := int64(d) * 4 / 5 / int64(reps*len(sizes))
	calls := make([]int, len(sizes))
	for i, s := range sizes {
		calls[i] = c.calibrate(s, batchNs)
	}
	nSlices := r.slicesFor(batchNs)
	perRep := make([][]float64, len(sizes))    // [size][rep] ns per call, by the estimator
	allSlices := make([][]float64, len(sizes)) // [size] every slice's ns per call
	totalNs := make([]float64, len(sizes))
	cpuNs := make([]float64, len(sizes))
	var totalCalls int64
	done := 0
	for rep := range reps {
		c.place(rep)
		// Rotate the order of sizes between repetitions so a drift in
		// clock or load does not bias one end of the line.
		for k := range sizes {
			i := (k + rep) % len(sizes)
			var sl []float64
			c.cpuNs = 0
			el := c.timeSlices(calls[i], sizes[i], nSlices, &sl)
			cpuNs[i] += float64(c.cpuNs)
			perRep[i] = append(perRep[i], r.estimate(sl, float64(el), calls[i]))
			allSlices[i] = append(allSlices[i], sl...)
			totalNs[i] += float64(el)
			totalCalls += int64(calls[i] * threads)
		}
		done++
		if limit > 0 && time.Since(began) > limit {
			break // the budget's share is spent: say so in Reps
		}
	}
	mhz := r.mhz
	if mhz <= 0 {
		// The clock of this row, as bench-slope's --cpu-mhz auto does:
		// the core's frequency moves with the load on the other cores
		// (all-core turbo), so it is measured right after each figure,
		// while the core still runs at the figure's frequency; in a hurry
		// the previous row's serves.
		if !r.hurry || r.lastMHz == 0 {
			r.lastMHz = quickMHz(r.cfg.Clock)
		}
		mhz = r.lastMHz
	}
	// Each size's figure over all its repetitions: the median of every
	// slice, the median of the repetitions' fastest, or the overall mean.
	figure := make([]float64, len(sizes))
	means := make([]float64, len(sizes))
	cpuMeans := make([]float64, len(sizes)) // zero without a CPU clock
	for i := range sizes {
		means[i] = totalNs[i] / float64(calls[i]*done)
		cpuMeans[i] = cpuNs[i] / float64(calls[i]*done)
		switch r.cfg.Estimator {
		case EstimatorFastest:
			figure[i] = median(perRep[i])
		case EstimatorMean:
			figure[i] = means[i]
		default:
			figure[i] = median(allSlices[i])
		}
	}
	base := Result{Target: t, Offset: offset, Threads: threads, Cold: r.cfg.Cold, MHz: mhz, Reps: done}
	var out []Result
	if slope {
		s := base
		s.Calls = totalCalls
		s.Sizes = sizes
		var r2s []float64
		xs := make([]float64, len(sizes))
		for i, sz := range sizes {
			xs[i] = float64(sz)
		}
		for rep := range done {
			ys := make([]float64, len(sizes))
			for i := range sizes {
				ys[i] = perRep[i][rep]
			}
			f := FitLine(xs, ys)
			s.Samples = append(s.Samples, f.Slope)
			s.Overheads = append(s.Overheads, f.Intercept)
			r2s = append(r2s, f.R2)
		}
		// The reported line is fitted to each size's figure; the
		// per-repetition fits are the samples the spread and the U test
		// use.
		f := FitLine(xs, figure)
		s.NsPerByte, s.OverheadNs, s.R2 = f.Slope, f.Intercept, median(r2s)
		s.MeanNsPerByte = FitLine(xs, means).Slope
		if c.cpuOK {
			s.CPUNsPerByte = FitLine(xs, cpuMeans).Slope
		}
		s.Spread = RelSpread(s.Samples)
		if !(f.Slope > 0) {
			// Noise this large (a preempted batch at one end of the
			// line) can tilt the line flat or backwards: report the
			// largest size's figure, overhead included, and say so.
			last := len(sizes) - 1
			s.NsPerByte, s.OverheadNs = figure[last]/xs[last], math.NaN()
			s.MeanNsPerByte = means[last] / xs[last]
			s.CPUNsPerByte = cpuMeans[last] / xs[last]
			s.FitFailed = true
		}
		out = append(out, s)
	}
	for i, sz := range sizes {
		p := base
		p.Size = sz
		for _, pc := range perRep[i] {
			p.Samples = append(p.Samples, pc/float64(sz))
		}
		p.NsPerByte = figure[i] / float64(sz)
		p.MeanNsPerByte = means[i] / float64(sz)
		p.CPUNsPerByte = cpuMeans[i] / float64(sz)
		p.Spread = RelSpread(p.Samples)
		p.Calls = int64(calls[i] * done * threads)
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
