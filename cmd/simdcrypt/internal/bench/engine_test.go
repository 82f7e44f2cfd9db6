package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// fakeClock is advanced by fake kernels instead of by time passing, so the
// engine's arithmetic is tested exactly, whatever else the machine runs.
type fakeClock struct{ ns float64 }

func (c *fakeClock) Now() int64 { return int64(c.ns) }

// fakeTarget is a kernel of known cost: overhead ns per call plus perByte
// ns per byte. With noise set, every call jitters by ±0.5% and, at random
// moments about 40 ms of fake time apart, the "OS preempts" the kernel for
// 2 ms, which lands in one batch: the medians must see through it.
func fakeTarget(c *fakeClock, overhead, perByte float64, noise bool, seed uint64) *Target {
	rng := rand.New(rand.NewPCG(seed, 1))
	nextPreempt := 0.0
	return &Target{
		Family: "fake", Cipher: "fake-128-ctr", Mode: "ctr", KeyBits: 128,
		Direction: "encrypt", Impl: "known", Align: 1,
		New: func() (Op, error) {
			return func(dst, src []byte) {
				cost := overhead + perByte*float64(len(src))
				if noise {
					cost *= 1 + 0.01*(rng.Float64()-0.5)
					if c.ns >= nextPreempt {
						if nextPreempt > 0 {
							cost += 2e6
						}
						nextPreempt = c.ns + rng.ExpFloat64()*40e6
					}
				}
				c.ns += cost
			}, nil
		},
	}
}

func TestFakeKernelRecovered(t *testing.T) {
	for _, tc := range []struct {
		name              string
		overhead, perByte float64
		noise             bool
	}{
		{"exact", 40, 0.25, false},
		{"noisy", 40, 0.25, true},
		{"overhead-heavy", 500, 0.05, true},
		{"slow", 1000, 5, true},
	} {
		// Ten noise patterns each, with the default repetitions.
		for seed := uint64(1); seed <= 10; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", tc.name, seed), func(t *testing.T) {
				clk := &fakeClock{}
				tg := fakeTarget(clk, tc.overhead, tc.perByte, tc.noise, seed)
				res, err := Measure([]*Target{tg}, Config{Clock: clk, MHz: 3000, Duration: 200 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				if len(res) != 1+len(DefaultSlopeSizes) {
					t.Fatalf("got %d results, want slope + %d sizes", len(res), len(DefaultSlopeSizes))
				}
				s := res[0]
				if s.Size != 0 {
					t.Fatalf("first result has size %d, want the slope (0)", s.Size)
				}
				within(t, "ns/B", s.NsPerByte, tc.perByte, 0.05)
				within(t, "overhead ns", s.OverheadNs, tc.overhead, 0.05)
				within(t, "c/B", s.CyclesPerByte(), tc.perByte*3, 0.05)
				if !tc.noise && s.Spread > 1e-6 {
					t.Errorf("spread %.3g on a noiseless kernel", s.Spread)
				}
				for _, p := range res[1:] {
					within(t, "per-size ns/B", p.NsPerByte, tc.perByte+tc.overhead/float64(p.Size), 0.05)
				}
			})
		}
	}
}

func TestFixedSizesAndOffsets(t *testing.T) {
	clk := &fakeClock{}
	tg := fakeTarget(clk, 100, 1, false, 1)
	res, err := Measure([]*Target{tg}, Config{
		Clock: clk, MHz: 2000, Sizes: []int{16, 1024}, Offsets: []int{0, 1, 97}, Count: 2, Reps: 3,
		Duration: 20 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2*2*3 {
		t.Fatalf("got %d results, want count 2 × 2 sizes × 3 offsets", len(res))
	}
	seen := map[[3]int]bool{}
	for _, r := range res {
		seen[[3]int{r.Run, r.Size, r.Offset}] = true
		within(t, "ns/B", r.NsPerByte, 1+100/float64(r.Size), 0.001)
		if len(r.Samples) != 3 {
			t.Errorf("%d samples, want 3 (reps)", len(r.Samples))
		}
	}
	if len(seen) != 12 {
		t.Errorf("runs × sizes × offsets not all covered: %v", seen)
	}
}

func TestThreadsAndCold(t *testing.T) {
	clk := &fakeClockSafe{}
	tg := &Target{Family: "fake", Cipher: "fake-ctr", Mode: "ctr", Direction: "encrypt", Impl: "x", Align: 1,
		New: func() (Op, error) {
			return func(dst, src []byte) {
				copy(dst, src) // touches the buffers: cold slots must be in range
				clk.add(2 * float64(len(src)))
			}, nil
		}}
	res, err := Measure([]*Target{tg}, Config{
		Clock: clk, MHz: 1000, Threads: 2, Cold: true, ColdBytes: 1 << 20,
		Sizes: []int{4096}, Offsets: []int{0, 97}, Reps: 3, Duration: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	threads := map[int]bool{}
	for _, r := range res {
		threads[r.Threads] = true
		if !r.Cold {
			t.Error("result not marked cold")
		}
		if r.NsPerByte <= 0 {
			t.Errorf("threads=%d: ns/B %g", r.Threads, r.NsPerByte)
		}
	}
	if !threads[1] || !threads[2] {
		t.Errorf("thread counts measured: %v, want 1 and 2", threads)
	}
}

// fakeClockSafe is a fake clock several goroutines advance.
type fakeClockSafe struct {
	mu fakeMutex
	ns float64
}

func (c *fakeClockSafe) add(d float64) { c.mu.Lock(); c.ns += d; c.mu.Unlock() }
func (c *fakeClockSafe) Now() int64    { c.mu.Lock(); defer c.mu.Unlock(); return int64(c.ns) }

func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol*math.Abs(want) {
		t.Errorf("%s = %.4g, want %.4g within %.1f%%", what, got, want, 100*tol)
	}
}

func TestMeasureMHzFakeClock(t *testing.T) {
	// A clock that never advances must not divide by zero.
	if got := MeasureMHz(&fakeClock{}); got != 0 {
		t.Errorf("MeasureMHz on a stopped clock = %g, want 0", got)
	}
}

func TestMeasureMHzPlausible(t *testing.T) {
	// Preemption can only lower the figure; on a loaded machine, retry.
	var mhz float64
	for range 3 {
		if mhz = MeasureMHz(nil); mhz >= 300 {
			break
		}
	}
	// Any CPU that runs Go today: 300 MHz .. 10 GHz. A value outside means
	// the chain was folded (too fast) or is not dependent (too fast) or
	// not one cycle per step (too slow).
	if mhz < 300 || mhz > 10000 {
		t.Errorf("measured clock %.0f MHz is implausible", mhz)
	}
	t.Logf("clock %.0f MHz", mhz)
}

type fakeMutex = sync.Mutex

// TestPlacementsRotate: each repetition runs an Op of its own on buffers at
// a page offset of its own, above placementFloor, with src half a page from
// dst and the requested offset from a 64-byte boundary kept.
func TestPlacementsRotate(t *testing.T) {
	const reps, offset = 5, 8
	clk := &fakeClock{}
	type seen struct{ op, dst, src int }
	used := map[seen]bool{}
	made := 0
	tg := &Target{
		Family: "fake", Cipher: "fake-128-ctr", Mode: "ctr", KeyBits: 128,
		Direction: "encrypt", Impl: "known", Align: 1,
		New: func() (Op, error) {
			made++
			id := made
			return func(dst, src []byte) {
				used[seen{id, int(uintptr(unsafePointer(dst)) % pageSize), int(uintptr(unsafePointer(src)) % pageSize)}] = true
				clk.ns += 10
			}, nil
		},
	}
	if _, err := Measure([]*Target{tg}, Config{Clock: clk, MHz: 3000, Duration: 20 * time.Millisecond,
		Sizes: []int{64}, Offsets: []int{offset}, Reps: reps}); err != nil {
		t.Fatal(err)
	}
	if made != reps {
		t.Errorf("%d Ops made, want one per repetition (%d)", made, reps)
	}
	dsts := map[int]bool{}
	for s := range used {
		dsts[s.dst] = true
		if s.dst < placementFloor {
			t.Errorf("dst at page offset %d: below %d, where the Op's own objects sit", s.dst, placementFloor)
		}
		if s.dst%64 != offset {
			t.Errorf("dst at page offset %d: not %d from a 64-byte boundary", s.dst, offset)
		}
		if (s.src-s.dst+pageSize)%pageSize != pageSize/2 {
			t.Errorf("src at page offset %d, dst at %d: not half a page apart", s.src, s.dst)
		}
	}
	if len(used) != reps || len(dsts) != reps {
		t.Errorf("%d (Op, placement) pairs over %d dst page offsets, want %d of each", len(used), len(dsts), reps)
	}
}

// TestSlicesFor checks how batches are cut: the median estimator's slices
// stay short however long the batch, an explicit -slices wins, and the
// fastest estimator keeps the count its earlier figures were taken with.
func TestSlicesFor(t *testing.T) {
	cases := []struct {
		slices    int
		estimator string
		batchNs   int64
		want      int
	}{
		{0, EstimatorMedian, 32_000_000, 128},
		{0, EstimatorMedian, 32_000_001, 129},
		{0, EstimatorMedian, 100_000, DefaultSlices},
		{0, EstimatorFastest, 32_000_000, DefaultSlices},
		{0, EstimatorMean, 32_000_000, DefaultSlices},
		{7, EstimatorMedian, 32_000_000, 7},
		{1, EstimatorFastest, 32_000_000, 1},
	}
	for _, c := range cases {
		r := &runner{cfg: Config{Slices: c.slices, Estimator: c.estimator}}
		if got := r.slicesFor(c.batchNs); got != c.want {
			t.Errorf("slices %d, %s, batch %d ns: %d slices, want %d", c.slices, c.estimator, c.batchNs, got, c.want)
		}
	}
}
