package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Env describes the run for output headers.
type Env struct {
	CPUName     string  // brand string, "" when unknown
	CPUDesc     string  // "GenuineIntel Emerald Rapids (family 0x6, model 0xcf)"
	MHz         float64 // clock used for cycles per byte (median over rows when measured)
	MHzMeasured bool    // measured next to every figure (else given)
	MHzLo       float64 // range of the per-row clock
	MHzHi       float64
	Mask        string // SIMDCRYPT_CPU in force, "" for none
	Config      Config // what was measured (sizes, duration, reps, ...)
	ColdHow     string // how the cold working set was sized
	Unavailable []Unavailable
	NoBaseline  []string // families without a Go baseline
	Elapsed     time.Duration
	Source      string // the JSON file results were loaded from, if any
}

// table is a minimal column aligner: text columns left, numbers right.
type table struct {
	rows  [][]string
	right []bool
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer, indent string) {
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i < len(t.right) && t.right[i] {
				b.WriteString(pad + c)
			} else if i == len(r)-1 {
				b.WriteString(c)
			} else {
				b.WriteString(c + pad)
			}
			if i < len(r)-1 {
				b.WriteString("  ")
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func sizesString(s []int) string {
	var parts []string
	for _, n := range s {
		parts = append(parts, FormatBytes(int64(n)))
	}
	return strings.Join(parts, ",")
}

// implLabel marks the default path "*" and variants "~", as the table key says.
func implLabel(t *Target) string {
	switch t.Role() {
	case "default":
		return t.Impl + " *"
	case "variant":
		return t.Impl + " ~"
	}
	return t.Impl
}

func num(x float64) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "-"
	case math.Abs(x) >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) >= 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case math.Abs(x) >= 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// Machine is "brand string — vendor microarchitecture (family, model)",
// whichever parts are known.
func (env *Env) Machine() string {
	var parts []string
	for _, p := range []string{env.CPUName, env.CPUDesc} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "unknown CPU"
	}
	return strings.Join(parts, " — ")
}

// SetClock fills the clock fields from the results' per-row clocks.
func (env *Env) SetClock(results []Result) {
	var ms []float64
	for _, r := range results {
		if r.MHz > 0 {
			ms = append(ms, r.MHz)
		}
	}
	if len(ms) == 0 {
		return
	}
	env.MHz, env.MHzLo, env.MHzHi = median(ms), slices.Min(ms), slices.Max(ms)
}

// WriteHeader prints the lines every human-readable format starts with.
func WriteHeader(w io.Writer, env *Env) {
	c := env.Config.withDefaults()
	fmt.Fprintf(w, "CPU    %s\n", env.Machine())
	if env.MHzMeasured {
		fmt.Fprintf(w, "clock  %.0f MHz median (%.0f–%.0f), measured next to every figure with a chain of dependent one-cycle ADD/XOR (bench-slope's --cpu-mhz auto); c/B uses each row's clock\n",
			env.MHz, env.MHzLo, env.MHzHi)
	} else {
		fmt.Fprintf(w, "clock  %.0f MHz, given by -cpu-mhz\n", env.MHz)
	}
	if env.Source == "" { // a saved run does not record these
		fmt.Fprintf(w, "Go     %s %s/%s, GOMAXPROCS %d", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
		if env.Mask != "" {
			fmt.Fprintf(w, ", SIMDCRYPT_CPU=%s", env.Mask)
		}
		fmt.Fprintln(w)
	}
	if len(c.Sizes) == 0 {
		fmt.Fprintf(w, "method slope: time = overhead + bytes × ns/B, least squares over %s-byte calls", sizesString(c.SlopeSizes))
	} else {
		fmt.Fprintf(w, "method fixed sizes %s × offsets %v", sizesString(c.Sizes), c.Offsets)
	}
	per := c.Duration.Round(time.Millisecond).String() + " per measurement"
	if c.Budget > 0 {
		per = fmt.Sprintf("up to %s per measurement (a %v budget shared out)", c.Duration.Round(time.Millisecond), c.Budget)
	}
	if env.Source != "" {
		per = "saved in " + env.Source
	}
	if c.Slices > 1 {
		fmt.Fprintf(w, "\n       %s: warm-up, then %d reps (each the fastest of %d timed slices)", per, c.Reps, c.Slices)
	} else {
		fmt.Fprintf(w, "\n       %s: warm-up, then %d reps (whole batches)", per, c.Reps)
	}
	if c.Count > 1 {
		fmt.Fprintf(w, ", %d runs", c.Count)
	}
	fmt.Fprintln(w, "; median, ± robust spread (1.48·MAD/median)")
	if c.Cold {
		fmt.Fprintf(w, "cold   every call on fresh memory: %s\n", env.ColdHow)
	}
	if c.Threads > 1 {
		fmt.Fprintf(w, "threads 1 and %d goroutines on their own OS threads; MiB/s per thread, total = all threads, scale = total / one thread's", c.Threads)
		if n := runtime.NumCPU(); c.Threads > n {
			fmt.Fprintf(w, " (only %d CPUs: threads share them)", n)
		}
		fmt.Fprintln(w)
	}
	for _, u := range env.Unavailable {
		fmt.Fprintf(w, "skip   %s/%s: needs %s (absent or masked)\n", u.Family, u.Impl, u.Missing)
	}
	if env.Elapsed > 0 {
		fmt.Fprintf(w, "took   %v\n", env.Elapsed.Round(100*time.Millisecond))
	}
	fmt.Fprintln(w, "key    * default path (dispatch picks it), ~ variant (measured, never dispatched); ratio = throughput / Go baseline")
}

// WriteTable prints the aligned table grouped by cipher family.
func WriteTable(w io.Writer, results []Result, env *Env) {
	WriteHeader(w, env)
	rs := Aggregate(results)
	c := env.Config.withDefaults()
	slope := len(c.Sizes) == 0
	big := slices.Max(c.SlopeSizes)
	if !slope {
		// Fixed sizes read best size by size, implementations together.
		groupIdx := map[string]int{}
		for _, r := range rs {
			if _, ok := groupIdx[r.Target.Group()]; !ok {
				groupIdx[r.Target.Group()] = len(groupIdx)
			}
		}
		slices.SortStableFunc(rs, func(a, b Result) int {
			if d := groupIdx[a.Target.Group()] - groupIdx[b.Target.Group()]; d != 0 {
				return d
			}
			if d := a.Size - b.Size; d != 0 {
				return d
			}
			if d := a.Offset - b.Offset; d != 0 {
				return d
			}
			return a.Threads - b.Threads
		})
	}
	var families []string
	for _, r := range rs {
		if !slices.Contains(families, r.Target.Family) {
			families = append(families, r.Target.Family)
		}
	}
	for _, fam := range families {
		fmt.Fprintln(w)
		if b, ok := Baselines[fam]; ok {
			fmt.Fprintf(w, "%s — baseline %s: %s\n", fam, b.Impl, b.Notes)
		} else {
			fmt.Fprintf(w, "%s — no Go baseline exists (neither the standard library nor x/crypto implements it)\n", fam)
		}
		t := &table{}
		head := []string{"cipher", "dir"}
		if !slope {
			head = append(head, "size", "off")
		}
		if c.Threads > 1 {
			head = append(head, "thr")
		}
		head = append(head, "impl", "ns/B", "±", "MiB/s")
		if c.Threads > 1 {
			head = append(head, "total", "scale")
		}
		head = append(head, "c/B")
		if env.MHzMeasured {
			head = append(head, "MHz")
		}
		if slope {
			head = append(head, "ovh ns", FormatBytes(int64(big))+" MiB/s")
		}
		head = append(head, "ratio")
		hasVariants := slices.ContainsFunc(rs, func(r Result) bool { return r.Target.Family == fam && r.Target.Variant })
		if hasVariants {
			head = append(head, "variant/path")
		}
		t.add(head...)
		t.right = make([]bool, len(head))
		for i, h := range head {
			t.right[i] = !slices.Contains([]string{"cipher", "dir", "impl", "variant/path"}, h)
		}
		lastGroup, lastSize := "", ""
		for i := range rs {
			r := &rs[i]
			if r.Target.Family != fam || (slope && r.Size != 0) {
				continue
			}
			cipherCell, dirCell := r.Target.Cipher, r.Target.Direction
			if g := r.Target.Group(); g == lastGroup {
				cipherCell, dirCell = "", ""
			} else {
				lastGroup = g
			}
			row := []string{cipherCell, dirCell}
			if !slope {
				sizeCell, offCell := FormatBytes(int64(r.Size)), strconv.Itoa(r.Offset)
				if sk := fmt.Sprint(r.Size, r.Offset); sk == lastSize && cipherCell == "" {
					sizeCell, offCell = "", ""
				} else {
					lastSize = sk
				}
				row = append(row, sizeCell, offCell)
			}
			if c.Threads > 1 {
				row = append(row, strconv.Itoa(r.Threads))
			}
			row = append(row, implLabel(r.Target), num(r.NsPerByte), pct(r.Spread), num(r.MiBps()))
			if c.Threads > 1 {
				row = append(row, num(r.TotalMiBps()), scaleCell(rs, r))
			}
			row = append(row, num(r.CyclesPerByte()))
			if env.MHzMeasured {
				row = append(row, fmt.Sprintf("%.0f", r.MHz))
			}
			if slope {
				bigMiB := "-"
				for j := range rs {
					p := &rs[j]
					if p.Target == r.Target && p.Size == big && p.Offset == r.Offset && p.Threads == r.Threads {
						bigMiB = num(p.MiBps())
					}
				}
				row = append(row, num(r.OverheadNs), bigMiB)
			}
			row = append(row, fmtRatio(Ratio(rs, r)))
			if hasVariants {
				row = append(row, variantCell(rs, r))
			}
			t.add(row...)
		}
		t.write(w, "  ")
	}
}

// jsonRecord is one element of the JSON array.
type jsonRecord struct {
	Cipher        string    `json:"cipher"`
	Family        string    `json:"family"` // registry family ("chacha20" for xchacha20 too)
	Mode          string    `json:"mode"`
	KeyBits       int       `json:"key_bits"`
	Direction     string    `json:"direction"`
	Impl          string    `json:"impl"`
	Default       bool      `json:"default"`
	Variant       bool      `json:"variant"`
	Baseline      bool      `json:"baseline"`
	Size          int       `json:"size"`
	Offset        int       `json:"offset"`
	Threads       int       `json:"threads"`
	Cold          bool      `json:"cold"`
	Run           int       `json:"run"`
	NsPerByte     float64   `json:"ns_per_byte"`
	MiBPerS       float64   `json:"mib_per_s"`       // per thread
	TotalMiBPerS  float64   `json:"total_mib_per_s"` // all threads together
	CyclesPerByte float64   `json:"cycles_per_byte"`
	MHz           float64   `json:"mhz"`
	OverheadNs    float64   `json:"overhead_ns"`
	Spread        float64   `json:"spread"`
	Samples       []float64 `json:"samples_ns_per_byte"`
	FitR2         float64   `json:"fit_r2,omitempty"` // slope only: median R² of the repetitions' fits
	CPU           string    `json:"cpu,omitempty"`
	Calls         int64     `json:"calls"`
}

func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// WriteJSON writes every result (one per run) as a JSON array; env (may be
// nil) names the machine in each record's "cpu".
func WriteJSON(w io.Writer, results []Result, env *Env) error {
	machine := ""
	if env != nil {
		machine = env.Machine()
	}
	recs := make([]jsonRecord, 0, len(results))
	for _, r := range results {
		t := r.Target
		samples := make([]float64, len(r.Samples))
		for i, s := range r.Samples {
			samples[i] = finite(s)
		}
		recs = append(recs, jsonRecord{
			Cipher: t.Cipher, Family: t.Family, Mode: t.Mode, KeyBits: t.KeyBits, Direction: t.Direction, Impl: t.Impl,
			Default: t.Default, Variant: t.Variant, Baseline: t.Baseline,
			Size: r.Size, Offset: r.Offset, Threads: r.Threads, Cold: r.Cold, Run: r.Run,
			NsPerByte: finite(r.NsPerByte), MiBPerS: finite(r.MiBps()), TotalMiBPerS: finite(r.TotalMiBps()), CyclesPerByte: finite(r.CyclesPerByte()),
			MHz: r.MHz, OverheadNs: finite(r.OverheadNs), Spread: finite(r.Spread), Samples: samples, Calls: r.Calls,
			FitR2: finite(r.R2), CPU: machine,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(recs)
}

// ReadJSON reads what WriteJSON wrote (for -compare and -load). The
// Targets it returns carry names and flags but cannot be run; the Env
// describes the run as far as the records tell (machine, clock, sizes,
// offsets, threads).
func ReadJSON(r io.Reader) ([]Result, *Env, error) {
	var recs []jsonRecord
	if err := json.NewDecoder(r).Decode(&recs); err != nil {
		return nil, nil, err
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
		name := j.Cipher + "/" + j.Direction + "/" + j.Impl
		t := targets[name]
		if t == nil {
			fam := j.Family
			if fam == "" {
				fam, _, _ = strings.Cut(j.Cipher, "-")
			}
			t = &Target{Family: fam, Cipher: j.Cipher, Mode: j.Mode, KeyBits: j.KeyBits, Direction: j.Direction,
				Impl: j.Impl, Default: j.Default, Variant: j.Variant, Baseline: j.Baseline, Align: 1}
			targets[name] = t
		}
		out = append(out, Result{Target: t, Size: j.Size, Offset: j.Offset, Threads: max(j.Threads, 1), Run: j.Run,
			Cold: j.Cold, NsPerByte: j.NsPerByte, OverheadNs: j.OverheadNs, Samples: j.Samples, Spread: j.Spread,
			Calls: j.Calls, MHz: j.MHz, R2: j.FitR2})
	}
	// The run's shape, from the records.
	c := &env.Config
	var sizes []int
	slope := false
	for _, r := range out {
		if r.Size == 0 {
			slope = true
		} else if !slices.Contains(sizes, r.Size) {
			sizes = append(sizes, r.Size)
		}
		if !slices.Contains(c.Offsets, r.Offset) {
			c.Offsets = append(c.Offsets, r.Offset)
		}
		c.Threads = max(c.Threads, r.Threads)
		c.Cold = c.Cold || r.Cold
		c.Count = max(c.Count, r.Run+1)
		c.Reps = max(c.Reps, len(r.Samples))
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

// WriteCSV writes one row per result (one per run).
func WriteCSV(w io.Writer, results []Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"cipher", "mode", "key_bits", "direction", "impl", "default", "variant", "baseline",
		"size", "offset", "threads", "cold", "run", "ns_per_byte", "mib_per_s", "cycles_per_byte", "mhz",
		"overhead_ns", "spread", "calls"})
	f := func(x float64) string { return strconv.FormatFloat(finite(x), 'g', 6, 64) }
	for _, r := range results {
		t := r.Target
		cw.Write([]string{t.Cipher, t.Mode, strconv.Itoa(t.KeyBits), t.Direction, t.Impl,
			strconv.FormatBool(t.Default), strconv.FormatBool(t.Variant), strconv.FormatBool(t.Baseline),
			strconv.Itoa(r.Size), strconv.Itoa(r.Offset), strconv.Itoa(r.Threads), strconv.FormatBool(r.Cold),
			strconv.Itoa(r.Run), f(r.NsPerByte), f(r.MiBps()), f(r.CyclesPerByte()), f(r.MHz),
			f(r.OverheadNs), f(r.Spread), strconv.FormatInt(r.Calls, 10)})
	}
	cw.Flush()
	return cw.Error()
}

// GobenchName is the benchmark name of a result in Go's benchmark format,
// "BenchmarkSpeed/aes-128-ctr/encrypt/impl=vaes512/size=16384-2", with
// offset, threads and cold parts only when they are not the defaults.
func GobenchName(r *Result) string {
	size := "slope"
	if r.Size > 0 {
		size = strconv.Itoa(r.Size)
	}
	n := fmt.Sprintf("BenchmarkSpeed/%s/%s/impl=%s/size=%s", r.Target.Cipher, r.Target.Direction, r.Target.Impl, size)
	if r.Offset != 0 {
		n += "/offset=" + strconv.Itoa(r.Offset)
	}
	if r.Threads > 1 {
		n += "/threads=" + strconv.Itoa(r.Threads)
	}
	if r.Cold {
		n += "/cold"
	}
	return n + "-" + strconv.Itoa(runtime.GOMAXPROCS(0))
}

// WriteGobench writes Go benchmark format, one line per result and run,
// which benchstat reads: fixed sizes as ns/op and MB/s like go test
// -bench, the slope figure as ns/B and MB/s with the overhead as ns/call;
// cycles per byte as c/B on both.
func WriteGobench(w io.Writer, results []Result, env *Env) {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/simdcrypt/simdcrypt/bench\n", runtime.GOOS, runtime.GOARCH)
	if env.CPUName != "" {
		fmt.Fprintf(w, "cpu: %s\n", env.CPUName)
	}
	fmt.Fprintf(w, "mhz: %.0f\n", env.MHz)
	if env.Mask != "" {
		fmt.Fprintf(w, "simdcrypt-cpu: %s\n", env.Mask)
	}
	for _, r := range results {
		mbs := 1e3 / r.NsPerByte // bytes per ns × 1000 = 10^6 bytes per second, go test's MB/s
		calls := max(r.Calls/int64(max(r.Threads, 1)), 1)
		if r.Size > 0 {
			fmt.Fprintf(w, "%s\t%d\t%.2f ns/op\t%.2f MB/s\t%.4f c/B\n", GobenchName(&r), calls, r.NsPerByte*float64(r.Size), mbs, r.CyclesPerByte())
		} else {
			fmt.Fprintf(w, "%s\t%d\t%.5f ns/B\t%.2f MB/s\t%.4f c/B\t%.2f ns/call\n", GobenchName(&r), calls, r.NsPerByte, mbs, r.CyclesPerByte(), r.OverheadNs)
		}
	}
}

// WriteReport prints OpenSSL's per-path table: one row per (cipher, mode,
// direction), one column per implementation, cycles per byte (the slope, or
// the largest fixed size), the default marked with *.
func WriteReport(w io.Writer, results []Result, env *Env) {
	rs := Aggregate(results)
	c := env.Config.withDefaults()
	size := 0
	what := "slope fit"
	if len(c.Sizes) > 0 {
		size = slices.Max(c.Sizes)
		what = FormatBytes(int64(size)) + "-byte calls"
	}
	clock := fmt.Sprintf("%.0f MHz", env.MHz)
	if env.MHzMeasured {
		clock = fmt.Sprintf("clock measured per row, median %.0f MHz", env.MHz)
	}
	fmt.Fprintf(w, "cycles per byte (%s, offset 0, one thread) on %s, %s; * = default path, ~ = variant\n",
		what, env.Machine(), clock)
	var families []string
	for i := range rs {
		if f := rs[i].Target.Family; !slices.Contains(families, f) {
			families = append(families, f)
		}
	}
	// One block per family, so each has only its own columns.
	for _, fam := range families {
		var impls, groups []string
		baselines := map[string]bool{}
		cell := map[[2]string]string{}
		for i := range rs {
			r := &rs[i]
			if r.Target.Family != fam || r.Size != size || r.Offset != 0 || r.Threads != 1 {
				continue
			}
			if !slices.Contains(impls, r.Target.Impl) {
				impls = append(impls, r.Target.Impl)
			}
			if r.Target.Baseline {
				baselines[r.Target.Impl] = true
			}
			g := r.Target.Cipher + " " + r.Target.Direction
			if !slices.Contains(groups, g) {
				groups = append(groups, g)
			}
			v := strconv.FormatFloat(r.CyclesPerByte(), 'f', 2, 64)
			if r.Target.Default {
				v += "*"
			} else if r.Target.Variant {
				v += "~"
			}
			cell[[2]string{g, r.Target.Impl}] = v
		}
		if len(groups) == 0 {
			continue
		}
		// Baselines first, then the registry's order as first seen.
		slices.SortStableFunc(impls, func(a, b string) int { return boolInt(!baselines[a]) - boolInt(!baselines[b]) })
		fmt.Fprintln(w)
		t := &table{}
		t.add(append([]string{"cipher direction"}, impls...)...)
		t.right = make([]bool, len(impls)+1)
		for i := 1; i <= len(impls); i++ {
			t.right[i] = true
		}
		for _, g := range groups {
			row := []string{g}
			for _, im := range impls {
				v, ok := cell[[2]string{g, im}]
				if !ok {
					v = "."
				}
				row = append(row, v)
			}
			t.add(row...)
		}
		t.write(w, "")
		if len(baselines) == 0 {
			fmt.Fprintf(w, "(no Go baseline exists for %s: neither the standard library nor x/crypto implements it)\n", fam)
		}
	}
}

// variantCell is a variant's throughput over its path's, same figure
// otherwise ("0.93 vaes512"): the prefetch-on/off comparison at a glance.
func variantCell(rs []Result, r *Result) string {
	if !r.Target.Variant {
		return ""
	}
	var names []string
	for i := range rs {
		if rs[i].Target.Group() == r.Target.Group() {
			names = append(names, rs[i].Target.Impl)
		}
	}
	base := VariantOf(r.Target.Impl, names)
	for i := range rs {
		p := &rs[i]
		if p.Target.Impl == base && p.Target.Group() == r.Target.Group() && p.Size == r.Size &&
			p.Offset == r.Offset && p.Threads == r.Threads {
			return fmt.Sprintf("%.2f %s", p.NsPerByte/r.NsPerByte, base)
		}
	}
	return ""
}

// scaleCell is the total throughput on N threads over that on one thread
// (N would be perfect scaling).
func scaleCell(rs []Result, r *Result) string {
	if r.Threads <= 1 {
		return ""
	}
	for i := range rs {
		p := &rs[i]
		if p.Target == r.Target && p.Threads == 1 && p.Size == r.Size && p.Offset == r.Offset {
			return fmt.Sprintf("%.2fx", r.TotalMiBps()/p.TotalMiBps())
		}
	}
	return ""
}
