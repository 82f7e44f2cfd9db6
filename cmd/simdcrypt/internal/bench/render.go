package bench

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
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
	Peer        string // "OpenSSL 3.0.19": the peer measured with -openssl, if any
	PeerNote    string // why the peer is not measured ("openssl not found"), if so
	Wide        bool   // the table shows every column
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

// implLabel names the kernel that ran, and the path it ran on when that
// path borrows another's kernel for this operation, as `simdcrypt cpu`
// does ("aesni (cbc-enc on vaes512 path)"); it marks the default path "*"
// and variants "~", as the table key says.
func implLabel(t *Target) string {
	l := t.Impl
	if t.Kernel != "" && t.Kernel != t.Impl {
		l = fmt.Sprintf("%s (%s on %s path)", t.Kernel, shortOp(t), t.Impl)
	}
	switch t.Role() {
	case "default":
		return l + " *"
	case "variant":
		return l + " ~"
	}
	return l
}

// shortOp is "cbc-enc", "ecb-dec", "gcm-dec", "ctr" or "stream".
func shortOp(t *Target) string {
	if t.Mode == "ctr" || t.Mode == "stream" || t.Mode == "mac" {
		return t.Mode
	}
	return t.Mode + "-" + dirShort(t.Direction)
}

// kernelOf is the path whose kernel i runs for mode and direction, "" when
// its own.
func kernelOf(i *catalog.Path, op catalog.Op) string {
	if k := i.KernelFor(op); k != i.Name {
		return k
	}
	return ""
}

func num(x float64) string {
	switch {
	case !isFinite(x):
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

// pct is a relative spread: "12%", "3.4%", "0.0%", ">999%".
func pct(x float64) string {
	if x >= 9.995 {
		return ">999%" // the column keeps its width
	}
	if 100*x >= 9.95 {
		return fmt.Sprintf("%.0f%%", 100*x)
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// sig3 writes x with 3 significant figures and no exponent: 0.146, 3.04,
// 15.7, 721, 1230.
func sig3(x float64) string {
	if !isFinite(x) || x == 0 {
		if x == 0 {
			return "0"
		}
		return "-"
	}
	e := int(math.Floor(math.Log10(math.Abs(x))))
	if d := 2 - e; d > 0 {
		// Rounding can carry into the next decade (9.996 -> 10.0).
		s := strconv.FormatFloat(x, 'f', d, 64)
		if r, _ := strconv.ParseFloat(s, 64); math.Abs(r) >= math.Pow(10, float64(e+1)) && d > 1 {
			s = strconv.FormatFloat(x, 'f', d-1, 64)
		}
		return s
	}
	p := math.Pow(10, float64(e-2))
	return strconv.FormatFloat(math.Round(x/p)*p, 'f', 0, 64)
}

// FormatRate writes bytes per second with 3 significant figures in decimal
// units, as openssl speed and go test's MB/s count: "12.9 GB/s", "721 MB/s".
func FormatRate(bps float64) string {
	if !isFinite(bps) || bps <= 0 {
		return "-"
	}
	for _, u := range []struct {
		scale float64
		name  string
	}{{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}} {
		if bps >= u.scale*0.9995 {
			return sig3(bps/u.scale) + " " + u.name
		}
	}
	return sig3(bps) + " B/s"
}

// FormatDuration writes d with 3 significant figures: "583 ms", "1.20 s",
// "35.0 s", "12.3 µs"; minutes past 100 s ("3m20s").
func FormatDuration(d time.Duration) string {
	switch {
	case d >= 100*time.Second:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return sig3(d.Seconds()) + " s"
	case d >= time.Millisecond:
		return sig3(float64(d)/1e6) + " ms"
	case d >= time.Microsecond:
		return sig3(float64(d)/1e3) + " µs"
	}
	return strconv.FormatInt(int64(d), 10) + " ns"
}

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
			} else if r.Target.VariantOf != "" {
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
	base := r.Target.VariantOf
	if base == "" {
		return ""
	}
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
