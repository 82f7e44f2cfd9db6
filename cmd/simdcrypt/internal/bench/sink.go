package bench

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// A Sink writes a run's results as they are measured: Begin before the
// first measurement (with the planned targets, which fix the table's
// column widths), Add after each measurement (the slope figure and its
// sizes together), End after the last. Every Add writes its rows at once,
// so `simdcrypt speed | tee` and `-format jsonl | jq` show them live.
type Sink interface {
	Begin(ts []*Target) error
	Add(rs []Result) error
	End() error
}

// Formats lists the output formats NewSink accepts.
var Formats = []string{"table", "csv", "json", "jsonl", "gobench"}

// NewSink returns the writer of format ("table", "csv", "json", "jsonl",
// "gobench" or "report") on w. env describes the run; End reads its
// Elapsed, set by then.
func NewSink(format string, w io.Writer, env *Env) (Sink, error) {
	switch format {
	case "table":
		return &tableSink{w: w, env: env}, nil
	case "report":
		return &reportSink{w: w, env: env}, nil
	case "json", "jsonl":
		return &jsonSink{w: w, env: env, array: format == "json"}, nil
	case "csv":
		return &csvSink{w: csv.NewWriter(w)}, nil
	case "gobench":
		return &gobenchSink{w: w, env: env}, nil
	}
	return nil, fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats, ", "))
}

// WriteAll writes finished results through format's sink, for saved runs
// (-load) and tests.
func WriteAll(format string, w io.Writer, results []Result, env *Env) error {
	s, err := NewSink(format, w, env)
	if err != nil {
		return err
	}
	var ts []*Target
	for i := range results {
		if !slices.Contains(ts, results[i].Target) {
			ts = append(ts, results[i].Target)
		}
	}
	if err := s.Begin(ts); err != nil {
		return err
	}
	// One Add per measurement: a slope figure with the sizes after it.
	for i := 0; i < len(results); {
		j := i + 1
		if results[i].Size == 0 {
			for j < len(results) && results[j].Size != 0 && results[j].Target == results[i].Target &&
				results[j].Run == results[i].Run && results[j].Offset == results[i].Offset && results[j].Threads == results[i].Threads {
				j++
			}
		}
		if err := s.Add(results[i:j]); err != nil {
			return err
		}
		i = j
	}
	return s.End()
}

// Noisy reports whether r's spread is over NoisyAbove.
func (r *Result) Noisy() bool { return r.Spread > NoisyAbove || r.FitFailed }

// Reduced reports whether the budget cut r's repetitions or sizes.
func (r *Result) Reduced(c *Config) bool {
	if r.Target.Foreign {
		return false
	}
	cfg := c.withDefaults()
	return r.Reps < cfg.Reps || (r.Size == 0 && len(r.Sizes) > 0 && len(r.Sizes) < len(cfg.SlopeSizes))
}

// Summary is the closing lines about noise and the budget, "" when every
// row was quiet and complete. rows are the rows shown (aggregated).
func Summary(rows []Result, env *Env) string {
	var b strings.Builder
	noisy, reduced, n := 0, 0, 0
	for i := range rows {
		r := &rows[i]
		if r.Target.Foreign {
			continue
		}
		n++
		if r.Noisy() {
			noisy++
		}
		if r.Reduced(&env.Config) {
			reduced++
		}
	}
	if noisy > 0 {
		more := max(3, env.Config.Count*3)
		fmt.Fprintf(&b, "noise  %d of %d rows spread over %.0f%% (marked !): rerun with -count %d or on a quieter machine\n",
			noisy, n, 100*NoisyAbove, more)
	}
	if reduced > 0 {
		budget := "the run's" // a saved run does not record it
		if env.Config.Budget > 0 {
			budget = "the " + FormatDuration(env.Config.Budget)
		}
		fmt.Fprintf(&b, "budget %d of %d rows cut to fewer reps or sizes (marked r) to keep %s budget\n",
			reduced, n, budget)
	}
	return b.String()
}

// Rows are the figures a table shows: every result aggregated over its
// runs, in the slope mode only the slope figures (and peers).
func Rows(results []Result, c *Config) []Result {
	slope := len(c.Sizes) == 0
	var out []Result
	for _, r := range Aggregate(results) {
		if !slope || r.Size == 0 || r.Target.Foreign {
			out = append(out, r)
		}
	}
	return out
}

// runsOf collects the runs of one figure until the last (Count−1) arrives.
type runsOf struct {
	last int
	runs map[key][]Result
}

// add returns the figure aggregated over its runs once r is the last run.
func (a *runsOf) add(r Result) (Result, bool) {
	if a.runs == nil {
		a.runs = map[key][]Result{}
	}
	k := keyOf(&r)
	a.runs[k] = append(a.runs[k], r)
	if r.Run < a.last {
		return Result{}, false
	}
	rs := a.runs[k]
	delete(a.runs, k)
	return Aggregate(rs)[0], true
}

// column is one column of the streamed table.
type column struct {
	head  string
	width int
	right bool
	cell  func(s *tableSink, r *Result) string
}

// tableSink writes the aligned table: a header, then per cipher family a
// title line and column heads, one row per figure as it is measured
// (aggregated over -count runs, so with -count N rows appear in the last
// run), and a footer with the clock, the time taken and the noise summary.
type tableSink struct {
	w     io.Writer
	env   *Env
	cfg   Config
	slope bool
	big   int // the largest slope size: peers and the wide "16K" column
	cols  []column
	runs  runsOf
	agg   []Result // every figure aggregated so far, sizes included
	shown []Result // the rows printed
	// famWidths are the cipher and impl column widths per family: each
	// family's table is as narrow as its own cells allow, so one family's
	// long names (xchacha20-poly1305) do not widen another's long labels.
	famWidths map[string][2]int
	// famSlope are a family's own slope sizes (Target.SlopeSizes), which
	// its title line names.
	famSlope map[string][]int
	family   string
	group    string
	lastSz   string
}

func (s *tableSink) Begin(ts []*Target) error {
	s.cfg = s.env.Config.withDefaults()
	s.slope = len(s.cfg.Sizes) == 0
	s.big = slices.Max(s.cfg.SlopeSizes)
	s.runs.last = s.cfg.Count - 1
	WriteHeader(s.w, s.env)
	c := s.cfg
	wCipher, wImpl := len("cipher"), len("impl")
	hasVariants, hasPeer, hasBase := false, false, false
	s.famWidths, s.famSlope = map[string][2]int{}, map[string][]int{}
	for _, t := range ts {
		wCipher = max(wCipher, len([]rune(cipherCell(t))))
		wImpl = max(wImpl, len([]rune(s.label(t))))
		if len(t.SlopeSizes) > 0 {
			s.famSlope[t.Family] = t.SlopeSizes
		}
		w := s.famWidths[t.Family]
		s.famWidths[t.Family] = [2]int{max(w[0], len([]rune(cipherCell(t))), len("cipher")), max(w[1], len([]rune(s.label(t))), len("impl"))}
		hasVariants = hasVariants || t.VariantOf != ""
		hasPeer = hasPeer || t.Foreign
		hasBase = hasBase || t.Baseline
	}
	wide := s.env.Wide
	add := func(on bool, head string, width int, right bool, cell func(s *tableSink, r *Result) string) {
		if on {
			s.cols = append(s.cols, column{head, max(width, len([]rune(head))), right, cell})
		}
	}
	add(true, "cipher", wCipher, false, func(s *tableSink, r *Result) string { return cipherCell(r.Target) })
	add(!s.slope, "size", 4, true, func(s *tableSink, r *Result) string { return FormatBytes(int64(r.Size)) })
	add(!s.slope && (len(c.Offsets) > 1 || c.Offsets[0] != 0), "off", 3, true, func(s *tableSink, r *Result) string { return strconv.Itoa(r.Offset) })
	add(s.slope && len(c.Offsets) > 1, "off", 3, true, func(s *tableSink, r *Result) string { return strconv.Itoa(r.Offset) })
	add(c.Threads > 1, "thr", 3, true, func(s *tableSink, r *Result) string { return strconv.Itoa(r.Threads) })
	add(true, "impl", wImpl, false, func(s *tableSink, r *Result) string { return s.label(r.Target) })
	add(true, "speed", 9, true, func(s *tableSink, r *Result) string { return FormatRate(1e9 / r.NsPerByte) })
	add(c.Threads > 1, "total", 9, true, func(s *tableSink, r *Result) string {
		return FormatRate(1e9 / r.NsPerByte * float64(max(r.Threads, 1)))
	})
	add(c.Threads > 1, "scale", 5, true, func(s *tableSink, r *Result) string { return scaleCell(s.agg, r) })
	add(true, "c/B", 6, true, func(s *tableSink, r *Result) string { return sig3(r.CyclesPerByte()) })
	add(true, "spread", 6, true, func(s *tableSink, r *Result) string { return s.spreadCell(r) })
	add(hasBase, "×Go", 4, true, func(s *tableSink, r *Result) string { return s.goRatio(r) })
	add(hasPeer, "×ossl", 5, true, func(s *tableSink, r *Result) string { return s.peerRatio(r) })
	add(wide, "ns/B", 6, true, func(s *tableSink, r *Result) string { return sig3(r.NsPerByte) })
	add(wide && s.env.MHzMeasured, "MHz", 4, true, func(s *tableSink, r *Result) string { return fmt.Sprintf("%.0f", r.MHz) })
	add(wide, "reps", 4, true, func(s *tableSink, r *Result) string { return strconv.Itoa(r.Reps) })
	add(wide && s.slope, "ovh ns", 6, true, func(s *tableSink, r *Result) string {
		if r.Target.Foreign {
			return ""
		}
		return sig3(r.OverheadNs)
	})
	add(wide && s.slope, FormatBytes(int64(s.big))+" speed", 9, true, func(s *tableSink, r *Result) string {
		if p := s.sized(r, s.big); p != nil {
			return FormatRate(1e9 / p.NsPerByte)
		}
		return "-"
	})
	add(wide && hasVariants, "variant/path", 12, false, func(s *tableSink, r *Result) string { return variantCell(s.agg, r) })
	return nil
}

// cipherCell is "aes-128-cbc dec", "aes-128-ctr", "chacha20": the
// direction where a mode has two (every mode but CTR and the stream
// ciphers, whose one operation serves both ways).
func cipherCell(t *Target) string {
	if t.Mode == "ctr" || t.Mode == "stream" || t.Mode == "mac" {
		return t.Cipher
	}
	return t.Cipher + " " + dirShort(t.Direction)
}

// dirShort is "enc" or "dec".
func dirShort(d string) string { return d[:min(3, len(d))] }

// label is the impl cell: implLabel, and for a peer its version and, in the
// slope mode, the one size it measured.
func (s *tableSink) label(t *Target) string {
	if t.Foreign && s.slope {
		return fmt.Sprintf("%s (%s calls)", t.Impl, FormatBytes(int64(s.big)))
	}
	return implLabel(t)
}

func (s *tableSink) spreadCell(r *Result) string {
	if r.Target.Foreign || len(r.Samples) < 2 {
		if r.Reduced(&s.cfg) {
			return "- r"
		}
		return "-"
	}
	c := pct(r.Spread)
	if r.FitFailed {
		c = "fit"
	}
	if r.Noisy() {
		c += "!"
	}
	if r.Reduced(&s.cfg) {
		c += "r"
	}
	return c
}

// sized finds r's target's figure at size bytes (same offset and threads).
func (s *tableSink) sized(r *Result, size int) *Result {
	if r.Size == size {
		return r
	}
	for i := range s.agg {
		p := &s.agg[i]
		if p.Target == r.Target && p.Size == size && p.Offset == r.Offset && p.Threads == r.Threads {
			return p
		}
	}
	return nil
}

// goRatio is throughput over Go's baseline: by the run's estimator on
// both sides, except for a peer row, whose figure is a mean and is set
// against the baseline's mean.
func (s *tableSink) goRatio(r *Result) string {
	b := baselineFor(s.agg, r)
	if r.Target.Foreign {
		for i := range s.agg {
			p := &s.agg[i]
			if p.Target.Baseline && p.Target.Group() == r.Target.Group() && p.Size == r.Size && p.Offset == r.Offset && p.Threads == 1 {
				return ratio3(p.MeanNsPerByte / r.MeanNsPerByte)
			}
		}
		return "-"
	}
	if b == nil {
		return "-"
	}
	return ratio3(b.NsPerByte / r.NsPerByte)
}

// PeerRatio is our throughput over a peer's, means on both sides: over
// CPU time when both have it (openssl speed divides by its user time by
// default), else over wall time.
func PeerRatio(peer, mine *Result) float64 {
	if peer.CPUNsPerByte > 0 && mine.CPUNsPerByte > 0 {
		return peer.CPUNsPerByte / mine.CPUNsPerByte
	}
	return peer.MeanNsPerByte / mine.MeanNsPerByte
}

// peerRatio is throughput over openssl speed's at the same size (the
// largest slope size in the slope mode), by PeerRatio.
func (s *tableSink) peerRatio(r *Result) string {
	size := r.Size
	if s.slope {
		size = s.big
	}
	var peer *Result
	for i := range s.agg {
		p := &s.agg[i]
		if p.Target.Foreign && p.Target.Group() == r.Target.Group() && p.Size == size && p.Offset == r.Offset {
			peer = p
		}
	}
	mine := s.sized(r, size)
	if peer == nil || mine == nil || r.Threads != 1 {
		return "-"
	}
	return ratio3(PeerRatio(peer, mine))
}

// ratio3 is a ratio with 3 significant figures, at most 3 decimals.
func ratio3(x float64) string {
	if x <= 0 || !isFinite(x) {
		return "-"
	}
	if x < 0.1 {
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return sig3(x)
}

func (s *tableSink) Add(rs []Result) error {
	var rows []Result
	for _, r := range rs {
		a, ok := s.runs.add(r)
		if !ok {
			continue
		}
		s.agg = append(s.agg, a)
		if !s.slope || a.Size == 0 || a.Target.Foreign {
			rows = append(rows, a)
		}
	}
	for i := range rows {
		s.row(&rows[i])
	}
	return nil
}

func (s *tableSink) row(r *Result) {
	if fam := r.Target.Family; fam != s.family {
		s.family, s.group = fam, ""
		if w, ok := s.famWidths[fam]; ok {
			for i := range s.cols {
				switch s.cols[i].head {
				case "cipher":
					s.cols[i].width = w[0]
				case "impl":
					s.cols[i].width = w[1]
				}
			}
		}
		fmt.Fprintln(s.w)
		if b, ok := Baselines[fam]; ok {
			fmt.Fprintf(s.w, "%s — baseline %s: %s", fam, b.Impl, b.Notes)
			if sz := s.famSlope[fam]; s.slope && len(sz) > 0 {
				fmt.Fprintf(s.w, "; slope over %s-byte calls", sizesString(sz))
			}
			fmt.Fprintln(s.w)
		} else {
			fmt.Fprintf(s.w, "%s — no Go baseline exists (neither the standard library nor x/crypto implements it)\n", fam)
		}
		head := make([]string, len(s.cols))
		for i, c := range s.cols {
			head[i] = c.head
		}
		s.line(head)
	}
	cells := make([]string, len(s.cols))
	for i, c := range s.cols {
		cells[i] = c.cell(s, r)
	}
	// The cipher (and size) only where they change.
	if g := r.Target.Group(); g == s.group {
		cells[0] = ""
		if !s.slope {
			sz := fmt.Sprint(r.Size, r.Offset, r.Threads)
			if sz == s.lastSz {
				for i, c := range s.cols {
					if c.head == "size" || c.head == "off" || c.head == "thr" {
						cells[i] = ""
					}
				}
			}
			s.lastSz = sz
		}
	} else {
		s.group = g
		s.lastSz = fmt.Sprint(r.Size, r.Offset, r.Threads)
	}
	s.line(cells)
	s.shown = append(s.shown, *r)
}

func (s *tableSink) line(cells []string) {
	var b strings.Builder
	b.WriteString("  ")
	for i, c := range s.cols {
		pad := strings.Repeat(" ", max(c.width-len([]rune(cells[i])), 0))
		if c.right {
			b.WriteString(pad + cells[i])
		} else {
			b.WriteString(cells[i] + pad)
		}
		b.WriteString("  ")
	}
	fmt.Fprintln(s.w, strings.TrimRight(b.String(), " "))
}

func (s *tableSink) End() error {
	fmt.Fprintln(s.w)
	env := s.env
	env.SetClock(s.agg)
	WriteFooter(s.w, env)
	fmt.Fprint(s.w, Summary(s.shown, env))
	return nil
}

// WriteHeader prints the lines the table starts with, each under 100
// columns.
func WriteHeader(w io.Writer, env *Env) {
	c := env.Config.withDefaults()
	if env.CPUName != "" {
		fmt.Fprintf(w, "CPU    %s\n", env.CPUName)
		if env.CPUDesc != "" {
			fmt.Fprintf(w, "       %s\n", env.CPUDesc)
		}
	} else {
		fmt.Fprintf(w, "CPU    %s\n", env.Machine())
	}
	if env.Source == "" { // a saved run does not record these
		fmt.Fprintf(w, "Go     %s %s/%s, GOMAXPROCS %d", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
		if env.Mask != "" {
			fmt.Fprintf(w, ", SIMDCRYPT_CPU=%s", env.Mask)
		}
		fmt.Fprintln(w)
	}
	if len(c.Sizes) == 0 {
		fmt.Fprintf(w, "method slope: time = overhead + bytes × ns/B, least squares over %s-byte calls\n", sizesString(c.SlopeSizes))
	} else {
		fmt.Fprintf(w, "method fixed sizes %s, offsets %s\n", sizesString(c.Sizes), strings.Trim(fmt.Sprint(c.Offsets), "[]"))
	}
	fmt.Fprintf(w, "figure %s\n", EstimatorText(&c))
	switch {
	case env.Source != "":
		fmt.Fprintf(w, "saved  in %s\n", env.Source)
	case c.Budget > 0:
		fmt.Fprintf(w, "budget %s for the whole run, up to %s per measurement; less under load (marked r)\n",
			FormatDuration(c.Budget), FormatDuration(c.Duration))
	default:
		fmt.Fprintf(w, "time   %s per measurement\n", FormatDuration(c.Duration))
	}
	if c.Count > 1 {
		fmt.Fprintf(w, "runs   %d, interleaved; each row aggregates them and appears in the last\n", c.Count)
	}
	if c.Cold {
		fmt.Fprintf(w, "cold   every call on fresh memory: %s\n", env.ColdHow)
	}
	if c.Threads > 1 {
		fmt.Fprintf(w, "threads 1 and %d goroutines on their own OS threads; speed per thread, total of all", c.Threads)
		if n := runtime.NumCPU(); c.Threads > n {
			fmt.Fprintf(w, " (only %d CPUs)", n)
		}
		fmt.Fprintln(w)
	}
	for _, u := range env.Unavailable {
		fmt.Fprintf(w, "skip   %s/%s: needs %s (absent or masked)\n", u.Family, u.Impl, u.Missing)
	}
	if env.PeerNote != "" {
		fmt.Fprintf(w, "peer   %s\n", env.PeerNote)
	} else if env.Peer != "" {
		clock := "wall-clock"
		if CPUTimeAvailable() {
			clock = "CPU-time"
		}
		fmt.Fprintf(w, "peer   %s: openssl speed -evp <cipher> -bytes <size>, a %s mean, between our rows\n", env.Peer, clock)
	}
	fmt.Fprintln(w, "key    * default path, ~ variant (never dispatched); spread: ! over 5%, r cut by the budget,")
	fmt.Fprintln(w, "       fit: line too noisy to fit, largest size shown")
	fmt.Fprintln(w, "       ×Go = speed / Go's own, same estimator on both sides")
	if env.Peer != "" {
		size := "same size"
		if len(c.Sizes) == 0 {
			size = FormatBytes(int64(slices.Max(c.SlopeSizes))) + " calls"
		}
		clock := "wall-clock"
		if CPUTimeAvailable() {
			clock = "CPU-time"
		}
		fmt.Fprintf(w, "       ×ossl = our mean speed / openssl's mean speed, both %s, %s\n", clock, size)
	}
}

// EstimatorText says how a figure and its spread are made.
func EstimatorText(c *Config) string {
	cfg := c.withDefaults()
	what := ""
	slices := fmt.Sprint(cfg.Slices)
	if cfg.Slices <= 0 {
		slices = fmt.Sprint(DefaultSlices)
		if cfg.Estimator == EstimatorMedian {
			slices = fmt.Sprintf("≥%d slices of ≤%dµs", DefaultSlices, maxSliceNs/1000)
		}
	}
	switch cfg.Estimator {
	case EstimatorFastest:
		what = fmt.Sprintf("median over %d reps of each one's fastest of %s timed slices", cfg.Reps, slices)
	case EstimatorMean:
		what = fmt.Sprintf("mean: total time / total bytes over %d reps", cfg.Reps)
	default:
		what = fmt.Sprintf("median of all timed slices (%d reps × %s)", cfg.Reps, slices)
	}
	return what + "; spread = IQR of reps / median"
}

// WriteFooter prints the clock and the time the run took.
func WriteFooter(w io.Writer, env *Env) {
	if env.MHzMeasured {
		fmt.Fprintf(w, "clock  %.0f MHz median (%.0f–%.0f) by a dependent ADD/XOR chain next to each row\n",
			env.MHz, env.MHzLo, env.MHzHi)
	} else {
		fmt.Fprintf(w, "clock  %.0f MHz, given by -cpu-mhz\n", env.MHz)
	}
	if env.Elapsed > 0 {
		fmt.Fprintf(w, "took   %s\n", FormatDuration(env.Elapsed))
	}
}

// reportSink collects everything for WriteReport at the end.
type reportSink struct {
	w   io.Writer
	env *Env
	all []Result
}

func (s *reportSink) Begin([]*Target) error { return nil }
func (s *reportSink) Add(rs []Result) error { s.all = append(s.all, rs...); return nil }
func (s *reportSink) End() error {
	s.env.SetClock(s.all)
	WriteReport(s.w, s.all, s.env)
	return nil
}

// jsonRecord is one result in the JSON formats.
type jsonRecord struct {
	Cipher        string    `json:"cipher"`
	Family        string    `json:"family"` // registry family ("chacha20" for xchacha20 too)
	Mode          string    `json:"mode"`
	KeyBits       int       `json:"key_bits"`
	Direction     string    `json:"direction"`
	Impl          string    `json:"impl"`
	Kernel        string    `json:"kernel,omitempty"` // the path whose kernel ran, when not impl's own
	Default       bool      `json:"default"`
	Variant       bool      `json:"variant"`
	VariantOf     string    `json:"variant_of,omitempty"`
	Baseline      bool      `json:"baseline"`
	Peer          bool      `json:"peer,omitempty"` // an outside program's figure (openssl speed)
	Size          int       `json:"size"`
	Offset        int       `json:"offset"`
	Threads       int       `json:"threads"`
	Cold          bool      `json:"cold"`
	Run           int       `json:"run"`
	Estimator     string    `json:"estimator"`
	NsPerByte     float64   `json:"ns_per_byte"`
	MeanNsPerByte float64   `json:"mean_ns_per_byte"`
	CPUNsPerByte  float64   `json:"cpu_mean_ns_per_byte,omitempty"` // mean over the thread's CPU time
	MiBPerS       float64   `json:"mib_per_s"`                      // per thread
	TotalMiBPerS  float64   `json:"total_mib_per_s"`                // all threads together
	CyclesPerByte float64   `json:"cycles_per_byte"`
	MHz           float64   `json:"mhz"`
	OverheadNs    float64   `json:"overhead_ns"`
	Spread        float64   `json:"spread"` // interquartile range of the samples / median
	Noisy         bool      `json:"noisy"`
	FitFailed     bool      `json:"fit_failed,omitempty"` // slope ≤ 0: ns_per_byte is the largest size's
	Reps          int       `json:"reps"`
	SlopeSizes    []int     `json:"slope_sizes,omitempty"`
	Samples       []float64 `json:"samples_ns_per_byte"`
	FitR2         float64   `json:"fit_r2,omitempty"` // slope only: median R² of the repetitions' fits
	CPU           string    `json:"cpu,omitempty"`
	Calls         int64     `json:"calls"`
}

func finite(x float64) float64 {
	if !isFinite(x) {
		return 0
	}
	return x
}

func recordOf(r *Result, env *Env) jsonRecord {
	t := r.Target
	samples := make([]float64, len(r.Samples))
	for i, s := range r.Samples {
		samples[i] = finite(s)
	}
	est := env.Config.withDefaults().Estimator
	if t.Foreign {
		est = EstimatorMean
	}
	return jsonRecord{
		Cipher: t.Cipher, Family: t.Family, Mode: t.Mode, KeyBits: t.KeyBits, Direction: t.Direction, Impl: t.Impl,
		Kernel: t.Kernel, Default: t.Default, Variant: t.VariantOf != "", VariantOf: t.VariantOf, Baseline: t.Baseline, Peer: t.Foreign,
		Size: r.Size, Offset: r.Offset, Threads: r.Threads, Cold: r.Cold, Run: r.Run, Estimator: est,
		NsPerByte: finite(r.NsPerByte), MeanNsPerByte: finite(r.MeanNsPerByte), CPUNsPerByte: finite(r.CPUNsPerByte), MiBPerS: finite(r.MiBps()),
		TotalMiBPerS: finite(r.TotalMiBps()), CyclesPerByte: finite(r.CyclesPerByte()),
		MHz: r.MHz, OverheadNs: finite(r.OverheadNs), Spread: finite(r.Spread), Noisy: r.Noisy(), FitFailed: r.FitFailed, Reps: r.Reps,
		SlopeSizes: r.Sizes, Samples: samples, Calls: r.Calls, FitR2: finite(r.R2), CPU: env.Machine(),
	}
}

// jsonSink writes one JSON object per line per result: "jsonl" as JSON
// lines, "json" as the elements of one array ("[" first, "]" at the end).
type jsonSink struct {
	w     io.Writer
	env   *Env
	array bool
	n     int
}

func (s *jsonSink) Begin([]*Target) error {
	if s.array {
		_, err := io.WriteString(s.w, "[\n")
		return err
	}
	return nil
}

func (s *jsonSink) Add(rs []Result) error {
	var b bytes.Buffer
	for i := range rs {
		line, err := json.Marshal(recordOf(&rs[i], s.env))
		if err != nil {
			return err
		}
		if s.array && s.n > 0 {
			b.WriteString(",\n")
		}
		b.Write(line)
		if !s.array {
			b.WriteByte('\n')
		}
		s.n++
	}
	_, err := s.w.Write(b.Bytes())
	return err
}

func (s *jsonSink) End() error {
	if s.array {
		_, err := io.WriteString(s.w, "\n]\n")
		return err
	}
	return nil
}

// WriteJSON writes every result (one per run) as a JSON array.
func WriteJSON(w io.Writer, results []Result, env *Env) error {
	return WriteAll("json", w, results, env)
}

// ReadJSON reads what the json and jsonl formats wrote (for -compare and
// -load). The Targets it returns carry names and flags but cannot be run;
// the Env describes the run as far as the records tell (machine, clock,
// estimator, sizes, offsets, threads).
func ReadJSON(r io.Reader) ([]Result, *Env, error) {
	br := bufio.NewReader(r)
	var recs []jsonRecord
	first, err := peekNonSpace(br)
	if err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(br)
	if first == '[' {
		if err := dec.Decode(&recs); err != nil {
			return nil, nil, err
		}
	} else {
		for {
			var j jsonRecord
			if err := dec.Decode(&j); err == io.EOF {
				break
			} else if err != nil {
				return nil, nil, err
			}
			recs = append(recs, j)
		}
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("no records")
	}
	env := &Env{CPUName: recs[0].CPU, MHzMeasured: true}
	targets := map[string]*Target{}
	var out []Result
	for _, j := range recs {
		if j.Cipher == "" || j.Impl == "" || j.Direction == "" {
			return nil, nil, fmt.Errorf("record without cipher, direction or impl: %+v", j)
		}
		if j.Estimator != "" && !j.Peer {
			env.Config.Estimator = j.Estimator
		}
		name := j.Cipher + "/" + j.Direction + "/" + j.Impl
		t := targets[name]
		if t == nil {
			fam := j.Family
			if fam == "" {
				fam, _, _ = strings.Cut(j.Cipher, "-")
			}
			t = &Target{Family: fam, Cipher: j.Cipher, Mode: j.Mode, KeyBits: j.KeyBits, Direction: j.Direction,
				Impl: j.Impl, Kernel: j.Kernel, Default: j.Default, VariantOf: j.VariantOf, Baseline: j.Baseline,
				Foreign: j.Peer, Align: 1}
			targets[name] = t
			if j.Peer {
				env.Peer = j.Impl
			}
		}
		mean := j.MeanNsPerByte
		if mean == 0 {
			mean = j.NsPerByte // saved before means were recorded
		}
		reps := j.Reps
		if reps == 0 {
			reps = len(j.Samples)
		}
		out = append(out, Result{Target: t, Size: j.Size, Offset: j.Offset, Threads: max(j.Threads, 1), Run: j.Run,
			Cold: j.Cold, NsPerByte: j.NsPerByte, MeanNsPerByte: mean, CPUNsPerByte: j.CPUNsPerByte, OverheadNs: j.OverheadNs, Samples: j.Samples,
			Spread: j.Spread, Calls: j.Calls, MHz: j.MHz, R2: j.FitR2, Reps: reps, Sizes: j.SlopeSizes, FitFailed: j.FitFailed})
	}
	// The run's shape, from the records.
	c := &env.Config
	var sizes []int
	slope := false
	for _, r := range out {
		if r.Size == 0 {
			slope = true
		} else if !slices.Contains(sizes, r.Size) && !r.Target.Foreign {
			sizes = append(sizes, r.Size)
		}
		if !slices.Contains(c.Offsets, r.Offset) {
			c.Offsets = append(c.Offsets, r.Offset)
		}
		c.Threads = max(c.Threads, r.Threads)
		c.Cold = c.Cold || r.Cold
		c.Count = max(c.Count, r.Run+1)
		if !r.Target.Foreign {
			c.Reps = max(c.Reps, r.Reps)
		}
	}
	slices.Sort(sizes)
	if slope {
		c.SlopeSizes = sizes
	} else {
		c.Sizes = sizes
	}
	env.SetClock(out)
	return out, env, nil
}

func peekNonSpace(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			if err == io.EOF {
				return 0, errors.New("empty file")
			}
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\n', '\r':
			br.ReadByte()
			continue
		}
		return b[0], nil
	}
}

// csvSink writes one CSV row per result, flushed as it comes.
type csvSink struct{ w *csv.Writer }

func (s *csvSink) Begin([]*Target) error {
	s.w.Write([]string{"cipher", "mode", "key_bits", "direction", "impl", "kernel", "default", "variant", "baseline", "peer",
		"size", "offset", "threads", "cold", "run", "ns_per_byte", "mean_ns_per_byte", "cpu_mean_ns_per_byte", "mib_per_s", "cycles_per_byte", "mhz",
		"overhead_ns", "spread", "reps", "calls"})
	s.w.Flush()
	return s.w.Error()
}

func (s *csvSink) Add(rs []Result) error {
	f := func(x float64) string { return strconv.FormatFloat(finite(x), 'g', 6, 64) }
	for _, r := range rs {
		t := r.Target
		s.w.Write([]string{t.Cipher, t.Mode, strconv.Itoa(t.KeyBits), t.Direction, t.Impl, t.Kernel,
			strconv.FormatBool(t.Default), strconv.FormatBool(t.VariantOf != ""), strconv.FormatBool(t.Baseline), strconv.FormatBool(t.Foreign),
			strconv.Itoa(r.Size), strconv.Itoa(r.Offset), strconv.Itoa(r.Threads), strconv.FormatBool(r.Cold),
			strconv.Itoa(r.Run), f(r.NsPerByte), f(r.MeanNsPerByte), f(r.CPUNsPerByte), f(r.MiBps()), f(r.CyclesPerByte()), f(r.MHz),
			f(r.OverheadNs), f(r.Spread), strconv.Itoa(r.Reps), strconv.FormatInt(r.Calls, 10)})
	}
	s.w.Flush()
	return s.w.Error()
}

func (s *csvSink) End() error { return nil }

// gobenchSink writes Go's benchmark format, which benchstat reads: fixed
// sizes as ns/op and MB/s like go test -bench, the slope figure as ns/B
// and MB/s with the overhead as ns/call; cycles per byte as c/B on both.
type gobenchSink struct {
	w   io.Writer
	env *Env
}

func (s *gobenchSink) Begin([]*Target) error {
	env := s.env
	fmt.Fprintf(s.w, "goos: %s\ngoarch: %s\npkg: github.com/simdcrypt/simdcrypt/cmd/simdcrypt\n", runtime.GOOS, runtime.GOARCH)
	if env.CPUName != "" {
		fmt.Fprintf(s.w, "cpu: %s\n", env.CPUName)
	}
	if !env.MHzMeasured {
		fmt.Fprintf(s.w, "mhz: %.0f\n", env.MHz)
	}
	fmt.Fprintf(s.w, "estimator: %s\n", env.Config.withDefaults().Estimator)
	if env.Mask != "" {
		fmt.Fprintf(s.w, "simdcrypt-cpu: %s\n", env.Mask)
	}
	return nil
}

func (s *gobenchSink) Add(rs []Result) error {
	var b bytes.Buffer
	for _, r := range rs {
		mbs := 1e3 / r.NsPerByte // bytes per ns × 1000 = 10^6 bytes per second, go test's MB/s
		calls := max(r.Calls/int64(max(r.Threads, 1)), 1)
		if r.Size > 0 {
			fmt.Fprintf(&b, "%s\t%d\t%.2f ns/op\t%.2f MB/s\t%.4f c/B\n", GobenchName(&r), calls, r.NsPerByte*float64(r.Size), mbs, r.CyclesPerByte())
		} else {
			fmt.Fprintf(&b, "%s\t%d\t%.5f ns/B\t%.2f MB/s\t%.4f c/B\t%.2f ns/call\n", GobenchName(&r), calls, r.NsPerByte, mbs, r.CyclesPerByte(), r.OverheadNs)
		}
	}
	_, err := s.w.Write(b.Bytes())
	return err
}

func (s *gobenchSink) End() error { return nil }

// CPUTimeAvailable reports whether figures carry a mean over the
// measuring thread's CPU time (CPUNsPerByte); peers should then report
// theirs over CPU time too (openssl speed's default), else over wall time.
func CPUTimeAvailable() bool { _, ok := threadCPUNow(); return ok }
