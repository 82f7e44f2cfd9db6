// Package bench is simdcrypt's measurement engine: it enumerates every
// (cipher, mode, direction, implementation) the registry in internal/impl
// offers, plus Go's own baselines, and measures them the way libgcrypt's
// bench-slope, BoringSSL's size×offset matrix and benchstat do.
//
//   - Slope: batches at several buffer sizes, fitted by least squares to
//     time = overhead + bytes × ns/B, so the per-call cost does not pollute
//     the per-byte figure; both are reported.
//   - Fixed sizes × offsets: the time per call at each size, with source and
//     destination misaligned by each offset from a 64-byte boundary.
//   - Cache-cold: calls rotate over a working set twice the last-level
//     cache, so every call starts from memory; this is where prefetch shows.
//   - Repetitions and estimator: every batch is timed in slices; a figure
//     is by default the median over all timed slices of its repetitions
//     (EstimatorMedian), or the median of each repetition's fastest slice
//     (EstimatorFastest), or the mean over the whole measurement, total
//     time over total calls (EstimatorMean, what openssl speed reports).
//     The spread is the interquartile range of the repetitions. Count
//     repeats whole runs for benchstat, and Compare runs a Mann–Whitney U
//     test (stats.go).
//   - Budget: a whole run can be given a wall-time budget; each
//     measurement gets its share of what is left and cuts its repetitions
//     (and, in the slope mode, its sizes) when the machine is too loaded to
//     finish them in time, saying so in the Result.
//   - Clock: the core frequency is measured next to every figure with a
//     chain of dependent one-cycle operations, so cycles per byte are real
//     even when the all-core turbo moves with the load.
//
// The package has no command-line code: cmd/simdcrypt builds a Config from
// flags and renders the Results with the writers here.
package bench

import (
	"time"
)

// Op processes len(src) bytes from src into dst (encrypts, decrypts or XORs
// keystream). Ops keep state across calls (a CBC chain, a CTR counter),
// which is how a caller streaming data uses them.
type Op func(dst, src []byte)

// Target is one measurable path.
type Target struct {
	Family    string // registry family: "aes", "aria", "chacha20"
	Cipher    string // "aes-128-ctr", "aria-256-cbc", "chacha20"
	Mode      string // "ecb", "cbc", "ctr" or "stream"
	KeyBits   int
	Direction string // "encrypt" or "decrypt"
	Impl      string // "vaes512", "generic", "stdlib", ...

	// Kernel names the path whose kernel runs this operation when the
	// path borrows another's (CBC encryption, a serial chain, runs the
	// 128-bit kernel on every AES path); "" when the path runs its own.
	Kernel string

	Default bool // the path dispatch picks on this CPU
	// VariantOf names the path this one varies for comparison
	// ("vaes512" for "vaes512-noprefetch"); dispatch never picks it.
	VariantOf string
	Baseline  bool // Go's own implementation, for the ratio column
	// Foreign marks an outside program's figure (openssl speed) rather
	// than a function the engine times. Measure calls Peer for each size
	// and offset (one thread) and takes the mean ns/B it returns as the
	// figure (onCPU: a mean over CPU time, as openssl speed's default);
	// PeerCost is the wall time one call takes, for the budget. Saved
	// runs read back have Foreign set and Peer nil.
	Foreign  bool
	Peer     func(size, offset int) (nsPerByte float64, onCPU bool, err error)
	PeerCost time.Duration

	// Align is the granularity sizes must respect (16 for ECB and CBC).
	Align int

	// SlopeSizes, when set, replace Config.SlopeSizes for this target in
	// the slope mode (XTS: 512-byte and 4 KiB sectors among them).
	SlopeSizes []int

	// New returns a fresh Op with its own key schedule and state.
	New func() (Op, error)
}

// Name is "aes-128-ctr/encrypt/vaes512".
func (t *Target) Name() string { return t.Cipher + "/" + t.Direction + "/" + t.Impl }

// Role is "default", "variant", "baseline" or "" (another path).
func (t *Target) Role() string {
	switch {
	case t.Default:
		return "default"
	case t.VariantOf != "":
		return "variant"
	case t.Baseline:
		return "baseline"
	}
	return ""
}

// Group is "aes-128-ctr/encrypt": what implementations are compared across.
func (t *Target) Group() string { return t.Cipher + "/" + t.Direction }

// Config says what to measure and how long.
type Config struct {
	// SlopeSizes are the buffer sizes the slope fit uses when Sizes is
	// empty. Nil means DefaultSlopeSizes.
	SlopeSizes []int
	// Sizes, when set, switches to fixed-size mode: one figure per size
	// and offset.
	Sizes []int
	// Offsets misalign source and destination from a 64-byte boundary
	// (fixed-size mode, and the slope mode when set). Nil means {0}.
	Offsets []int

	// Duration is the time spent on one measurement (one target at one
	// size and offset in fixed mode, or one target's whole slope),
	// warm-up included. Zero means DefaultDuration.
	Duration time.Duration
	// Budget, when set, is the wall time the whole run should take,
	// counted from Start (zero: when Measure begins): each measurement gets
	// its share of what is left (at most Duration), stops repeating when
	// its share is spent and, when the share is under MinDuration, fits
	// the slope to the smallest and largest size only. A run on a loaded
	// machine, where batches stretch, measures less but ends on time.
	Budget time.Duration
	Start  time.Time
	// Reps is the number of repetitions per measurement (default 5).
	Reps int
	// Slices is the number of timed slices per batch. 0 chooses: slices
	// of at most 250µs (at least DefaultSlices) for the median estimator,
	// DefaultSlices for the others. 1 times whole batches, as go test
	// -bench does.
	Slices int
	// Estimator turns the timed slices into a figure: EstimatorMedian
	// (default), EstimatorFastest or EstimatorMean.
	Estimator string
	// Count repeats the whole run (default 1), interleaving targets, so
	// that slow drifts spread over all of them.
	Count int

	// Cold rotates every call over ColdBytes of memory (default from
	// ColdWorkingSet) so data comes from DRAM.
	Cold      bool
	ColdBytes int64

	// Threads > 1 measures each target on 1 and on Threads goroutines,
	// each locked to its own OS thread, running concurrently.
	Threads int

	// MHz is the core clock for cycles per byte; 0 measures it next to
	// every figure.
	MHz float64

	// Clock is the time source (nil: the wall clock). Tests inject a fake.
	Clock Clock

	// Progress, when set, is called before each measurement, with an
	// estimate of the time left (0 when unknown), and once at the end
	// with what "".
	Progress func(done, total int, what string, left time.Duration)
	// OnResult, when set, is called with each measurement's results as
	// soon as it finishes (the slope figure and its sizes together).
	OnResult func([]Result)
}

// Estimators.
const (
	EstimatorMedian  = "median"  // median over every timed slice of every repetition
	EstimatorFastest = "fastest" // median over repetitions of each one's fastest slice
	EstimatorMean    = "mean"    // total time over total calls, as openssl speed reports
)

// Estimators lists the valid Config.Estimator values.
var Estimators = []string{EstimatorMedian, EstimatorFastest, EstimatorMean}

// Defaults.
var (
	// DefaultSlopeSizes span a range where every kernel runs its widest
	// loop most of the time; 16 KiB matches openssl speed's largest block.
	DefaultSlopeSizes = []int{1024, 4096, 8192, 16384}
	// MatrixSizes are openssl speed's sizes.
	MatrixSizes = []int{16, 64, 256, 1024, 8192, 16384}
	// AllOffsets are BoringSSL's misalignments.
	AllOffsets = []int{0, 1, 8, 64, 97}
)

const (
	DefaultDuration = 200 * time.Millisecond
	DefaultReps     = 5
)

// Result is one figure: a target at one size (0 for the slope fit), offset
// and thread count, from one of Count runs.
type Result struct {
	Target  *Target
	Size    int // bytes per call; 0 for the slope figure
	Offset  int
	Threads int
	Run     int // 0..Count-1
	Cold    bool

	NsPerByte     float64 // by the run's estimator (per thread)
	MeanNsPerByte float64 // total time over total bytes, whatever the estimator
	// CPUNsPerByte is the mean over the measuring thread's CPU time
	// rather than wall time (one thread, Linux; else 0): what openssl
	// speed divides by, and unmoved by time the OS gave other processes.
	CPUNsPerByte float64
	OverheadNs   float64   // slope only: fitted time per call at zero bytes
	Samples      []float64 // ns/B of each repetition, by the estimator
	Overheads    []float64 // slope only: overhead of each repetition
	Spread       float64   // RelSpread(Samples)
	// Reps is the number of repetitions made, fewer than Config.Reps when
	// the budget cut them; Sizes, in the slope mode, the sizes fitted.
	Reps  int
	Sizes []int
	R2    float64 // slope only: median goodness of fit
	// FitFailed: the slope came out zero or negative (a preempted batch
	// tilted the line), so NsPerByte is the largest size's figure.
	FitFailed bool
	Calls     int64 // calls timed (all repetitions, all threads)
	MHz       float64
}

// MiBps is the throughput of one thread in MiB/s.
func (r *Result) MiBps() float64 { return 1e9 / r.NsPerByte / (1 << 20) }

// TotalMiBps is the throughput of all threads together.
func (r *Result) TotalMiBps() float64 { return r.MiBps() * float64(max(r.Threads, 1)) }

// CyclesPerByte converts ns/B with the measured clock.
func (r *Result) CyclesPerByte() float64 { return r.NsPerByte * r.MHz / 1e3 }
