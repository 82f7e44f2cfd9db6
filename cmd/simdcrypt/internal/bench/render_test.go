package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"unicode"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// fakeResults measures two fake implementations of one cipher, plus a
// fake baseline, on a fake clock: a realistic result set with known values.
func fakeResults(t *testing.T, cfg Config) ([]*Target, []Result) {
	t.Helper()
	clk := &fakeClock{}
	mk := func(impl string, perByte float64) *Target {
		tg := fakeTarget(clk, 50, perByte, false, 1)
		tg.Family, tg.Cipher, tg.Impl = "aes", "aes-128-ctr", impl
		return tg
	}
	base := mk("stdlib", 0.5)
	base.Baseline = true
	fast := mk("fast", 0.125)
	fast.Default = true
	slow := mk("fast-noprefetch", 0.25)
	slow.VariantOf = "fast"
	ts := []*Target{base, fast, slow}
	cfg.Clock, cfg.MHz = clk, 4000
	if cfg.Duration == 0 {
		cfg.Duration = 10 * time.Millisecond
	}
	rs, err := Measure(ts, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ts, rs
}

func fakeEnv(cfg Config) *Env {
	return &Env{CPUName: "Test CPU", CPUDesc: "TestVendor Testlake", MHz: 4000, MHzMeasured: true, Config: cfg}
}

func TestJSONRoundTrip(t *testing.T) {
	_, rs := fakeResults(t, Config{Count: 2})
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rs, fakeEnv(Config{})); err != nil {
		t.Fatal(err)
	}
	// The documented keys, through a plain decoder.
	var recs []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rs) {
		t.Fatalf("%d records for %d results", len(recs), len(rs))
	}
	for _, k := range []string{"cipher", "direction", "impl", "default", "size", "offset", "ns_per_byte",
		"mib_per_s", "cycles_per_byte", "mhz", "overhead_ns"} {
		if _, ok := recs[0][k]; !ok {
			t.Errorf("JSON record lacks key %q", k)
		}
	}
	slope := recs[0]
	if slope["size"].(float64) != 0 || slope["impl"] != "stdlib" || slope["cipher"] != "aes-128-ctr" {
		t.Errorf("first record %v, want the stdlib slope figure", slope)
	}
	within(t, "ns_per_byte", slope["ns_per_byte"].(float64), 0.5, 1e-6)
	within(t, "cycles_per_byte", slope["cycles_per_byte"].(float64), 2, 1e-6)
	within(t, "mib_per_s", slope["mib_per_s"].(float64), 1e9/0.5/(1<<20), 1e-6)
	within(t, "overhead_ns", slope["overhead_ns"].(float64), 50, 1e-3)

	back, env, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if env.CPUName != "Test CPU — TestVendor Testlake" || env.MHz != 4000 || env.Config.Count != 2 ||
		!slices.Equal(env.Config.SlopeSizes, DefaultSlopeSizes) || len(env.Config.Sizes) != 0 {
		t.Errorf("run description read back: %+v", env)
	}
	for i := range rs {
		a, b := rs[i], back[i]
		if a.Target.Name() != b.Target.Name() || a.Target.Family != b.Target.Family || a.Size != b.Size || a.Run != b.Run ||
			a.Target.Default != b.Target.Default || a.Target.VariantOf != b.Target.VariantOf ||
			math.Abs(a.NsPerByte-b.NsPerByte) > 1e-12 || len(a.Samples) != len(b.Samples) {
			t.Fatalf("record %d: wrote %+v, read %+v", i, a, b)
		}
	}
}

// gobenchLine is one benchmark result line of Go's benchmark format.
type gobenchLine struct {
	name   string // without "Benchmark"
	iters  int64
	values map[string]float64 // unit -> value
}

// parseGobench reads Go's benchmark format as the format's specification
// (golang.org/design/14313-benchmark-data) defines it: "key: value"
// configuration lines, and result lines "Benchmark<Name> <iterations>
// <value> <unit> ..." whose name starts with an upper-case letter or digit
// after "Benchmark" and whose value-unit pairs are fields.
func parseGobench(t *testing.T, text string) (map[string]string, []gobenchLine) {
	t.Helper()
	config := map[string]string{}
	var out []gobenchLine
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "Benchmark") {
			f := strings.Fields(line)
			if len(f) < 4 || len(f)%2 != 0 {
				t.Fatalf("result line with %d fields: %q", len(f), line)
			}
			name := strings.TrimPrefix(f[0], "Benchmark")
			if name == "" || !(unicode.IsUpper(rune(name[0])) || unicode.IsDigit(rune(name[0]))) {
				t.Fatalf("bad benchmark name in %q", line)
			}
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || n <= 0 {
				t.Fatalf("bad iteration count in %q", line)
			}
			r := gobenchLine{name: name, iters: n, values: map[string]float64{}}
			for i := 2; i < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					t.Fatalf("bad value %q in %q", f[i], line)
				}
				r.values[f[i+1]] = v
			}
			out = append(out, r)
			continue
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok || k == "" || strings.ContainsAny(k, " \t") || k != strings.ToLower(k[:1])+k[1:] {
			t.Fatalf("neither a configuration nor a result line: %q", line)
		}
		config[k] = v
	}
	return config, out
}

func TestGobenchFormat(t *testing.T) {
	cfg := Config{Count: 3}
	_, rs := fakeResults(t, cfg)
	var buf bytes.Buffer
	if err := WriteAll("gobench", &buf, rs, fakeEnv(cfg)); err != nil {
		t.Fatal(err)
	}
	config, lines := parseGobench(t, buf.String())
	if config["cpu"] != "Test CPU" || config["estimator"] != "median" || config["goos"] != runtime.GOOS {
		t.Errorf("configuration %v", config)
	}
	names := map[string]bool{}
	for _, l := range lines {
		names[l.name] = true
		if strings.Contains(l.name, "size=slope") {
			v, ok := l.values["ns/B"]
			if !ok {
				t.Fatalf("slope line without ns/B: %+v", l)
			}
			if strings.Contains(l.name, "impl=fast/") {
				within(t, "fast ns/B", v, 0.125, 1e-3)
			}
		} else {
			if _, ok := l.values["ns/op"]; !ok {
				t.Fatalf("fixed-size line without ns/op: %+v", l)
			}
			if strings.Contains(l.name, "impl=fast/size=16384") {
				within(t, "fast MB/s at 16K", l.values["MB/s"], 16384/(50+0.125*16384)*1e3, 1e-3)
			}
		}
	}
	if want := len(rs); len(lines) != want {
		t.Errorf("parsed %d results, wrote %d", len(lines), want)
	}
	if !names["Speed/aes-128-ctr/encrypt/impl=fast/size=slope-"+strconv.Itoa(runtime.GOMAXPROCS(0))] {
		t.Errorf("benchmark names: %v", names)
	}
}

func TestCSV(t *testing.T) {
	_, rs := fakeResults(t, Config{})
	var buf bytes.Buffer
	if err := WriteAll("csv", &buf, rs, fakeEnv(Config{})); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(rs)+1 || rows[0][0] != "cipher" || rows[1][4] != "stdlib" {
		t.Errorf("csv rows: %v", rows[:2])
	}
}

func TestTableAndReport(t *testing.T) {
	cfg := Config{}
	_, rs := fakeResults(t, cfg)
	var buf bytes.Buffer
	env := fakeEnv(cfg)
	env.Wide = true
	if err := WriteAll("table", &buf, rs, env); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"4000 MHz", "fast *", "fast-noprefetch ~", "16K speed", "figure median of all timed slices",
		// stdlib at 0.5 ns/B is the baseline; fast is 4× its throughput
		// (8 GB/s) and 0.125 ns/B × 4 GHz = 0.5 c/B.
		"4.00", "0.500", "8.00 GB/s", "2.00 GB/s",
		// The variant runs at half its path's throughput.
		"0.50 fast"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	buf.Reset()
	WriteReport(&buf, rs, fakeEnv(cfg))
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(buf.String()), "\n\n", "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("report has %d lines, want title, header, one row:\n%s", len(lines), buf.String())
	}
	if f := strings.Fields(lines[1]); strings.Join(f, " ") != "cipher direction stdlib fast fast-noprefetch" {
		t.Errorf("report header %q", lines[1])
	}
	if f := strings.Fields(lines[2]); strings.Join(f, " ") != "aes-128-ctr encrypt 2.00 0.50* 1.00~" {
		t.Errorf("report row %q", lines[2])
	}
}

func TestCompare(t *testing.T) {
	th := func(impl string, samples ...float64) Result {
		return Result{Target: &Target{Cipher: "aes-128-ctr", Direction: "encrypt", Impl: impl},
			Threads: 1, Samples: samples, NsPerByte: median(samples)}
	}
	rs := []Result{
		th("a", 1.00, 1.01, 0.99, 1.02, 1.00, 0.98),
		th("b", 1.10, 1.11, 1.09, 1.12, 1.10, 1.08),
	}
	cs := CompareImpls(rs, "a", "b")
	if len(cs) != 1 {
		t.Fatalf("%d comparisons", len(cs))
	}
	c := cs[0]
	if !c.Significant || c.P > 0.01 || c.Stat != "p=0.002 n=6" || c.Delta != "+10.00%" {
		t.Errorf("clear difference: delta %s %s (p=%g)", c.Delta, c.Stat, c.P)
	}
	rs[1] = th("b", 1.01, 0.99, 1.00, 1.02, 0.98, 1.00)
	c = CompareImpls(rs, "a", "b")[0]
	if c.Significant || c.Delta != "~" {
		t.Errorf("same distribution reported as %s %s", c.Delta, c.Stat)
	}
	var buf bytes.Buffer
	WriteComparisons(&buf, CompareImpls(rs, "a", "b"), "a", "b")
	if !strings.Contains(buf.String(), "aes-128-ctr/encrypt size=slope") || !strings.Contains(buf.String(), "(p=") ||
		!strings.Contains(buf.String(), "not significant") {
		t.Errorf("comparison output:\n%s", buf.String())
	}
	// Saved runs: the same implementation in two files.
	old := []Result{th("x", 2, 2.1, 1.9, 2, 2.05)}
	cur := []Result{th("x", 1, 1.05, 0.95, 1, 1.02)}
	c = CompareRuns(old, cur)[0]
	if !c.Significant || !strings.HasPrefix(c.Delta, "-5") || c.Stat != "p=0.008 n=5" {
		t.Errorf("halved ns/B: %s %s", c.Delta, c.Stat)
	}
}

func TestPlotSVG(t *testing.T) {
	cfg := Config{Sizes: MatrixSizes}
	_, rs := fakeResults(t, cfg)
	dir := t.TempDir()
	p := filepath.Join(dir, "speed.svg")
	if err := Plot(p, rs, fakeEnv(cfg)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Well-formed XML with one polyline per implementation, every size a
	// point, and the legend naming each line.
	dec := xml.NewDecoder(bytes.NewReader(b))
	polylines, circles := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed SVG: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "polyline":
				polylines++
			case "circle":
				circles++
			}
		}
	}
	if polylines != 3 || circles != 3*len(MatrixSizes) {
		t.Errorf("%d polylines, %d points; want 3 and %d", polylines, circles, 3*len(MatrixSizes))
	}
	for _, want := range []string{"<svg", "fast-noprefetch ~", "stdlib", "buffer size", "stroke-dasharray"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if err := Plot(filepath.Join(dir, "x.svg"), nil, fakeEnv(cfg)); err == nil {
		t.Error("plot of no figures did not fail")
	}
	if err := Plot(filepath.Join(dir, "x.png"), rs, fakeEnv(cfg)); err == nil {
		t.Error("PNG plot did not fail")
	}
}

func TestNumberFormats(t *testing.T) {
	for x, want := range map[float64]string{0.14567: "0.146", 3.0449: "3.04", 15.66: "15.7", 721.3: "721", 1234: "1230",
		9.996: "10.0", 0.0799: "0.0799", 0: "0"} {
		if got := sig3(x); got != want {
			t.Errorf("sig3(%g) = %q, want %q", x, got, want)
		}
	}
	for bps, want := range map[float64]string{12.94e9: "12.9 GB/s", 721.3e6: "721 MB/s", 999.96e6: "1.00 GB/s", 5e3: "5.00 kB/s"} {
		if got := FormatRate(bps); got != want {
			t.Errorf("FormatRate(%g) = %q, want %q", bps, got, want)
		}
	}
	for d, want := range map[time.Duration]string{583333333: "583 ms", 35 * time.Second: "35.0 s", 1200 * time.Millisecond: "1.20 s",
		12345 * time.Nanosecond: "12.3 µs", 200 * time.Second: "3m20s"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestLabelsNameTheKernel: a row names the kernel that ran, and the path
// it ran on when that path borrows another's kernel (CBC encryption on
// the wide AES paths), as `simdcrypt cpu` does.
func TestLabelsNameTheKernel(t *testing.T) {
	tg := &Target{Cipher: "aes-128-cbc", Mode: "cbc", Direction: "encrypt", Impl: "vaes256", Kernel: "aesni", Default: true}
	if got, want := implLabel(tg), "aesni (cbc-enc on vaes256 path) *"; got != want {
		t.Errorf("label %q, want %q", got, want)
	}
	ts, _ := Targets()
	for _, tg := range ts {
		if tg.Baseline {
			continue
		}
		i, ok := catalog.Lookup(tg.Family, tg.Impl)
		if !ok {
			t.Fatalf("%s: no path in the catalogue", tg.Name())
		}
		op := catalog.Op(tg.Mode + "-" + tg.Direction)
		switch tg.Mode {
		case "ctr":
			op = catalog.CTR
		case "stream":
			op = catalog.Stream
		case "gcm", "aead":
			op = map[string]catalog.Op{"encrypt": catalog.Seal, "decrypt": catalog.Open}[tg.Direction]
		case "xts":
			op = catalog.Op("xts-" + tg.Direction)
		case "mac":
			op = catalog.MAC
		}
		if !slices.Contains(i.Ops, op) {
			t.Errorf("%s: operation %s is not one of its path's %v", tg.Name(), op, i.Ops)
		}
		label := implLabel(tg)
		if k := i.KernelFor(op); !strings.HasPrefix(label, k+" ") && label != k {
			t.Errorf("%s runs kernel %s but is labelled %q", tg.Name(), k, label)
		} else if k != tg.Impl && !strings.Contains(label, "on "+tg.Impl+" path") {
			t.Errorf("%s borrows %s's kernel but its label %q does not name its path", tg.Name(), k, label)
		}
	}
}

// TestRowsWrittenAsMeasured: with a sink fed by OnResult, the first
// target's row is written before the second target is measured.
func TestRowsWrittenAsMeasured(t *testing.T) {
	for _, format := range []string{"table", "jsonl", "csv", "gobench"} {
		clk := &fakeClock{}
		a := fakeTarget(clk, 50, 0.5, false, 1)
		a.Family, a.Cipher, a.Impl = "aes", "aes-128-ctr", "first"
		b := fakeTarget(clk, 50, 0.25, false, 2)
		b.Family, b.Cipher, b.Impl = "aes", "aes-128-ctr", "second"
		var buf bytes.Buffer
		cfg := Config{Clock: clk, MHz: 3000, Duration: 5 * time.Millisecond}
		sink, err := NewSink(format, &buf, fakeEnv(cfg))
		if err != nil {
			t.Fatal(err)
		}
		sink.Begin([]*Target{a, b})
		newB := b.New
		seen := false
		b.New = func() (Op, error) {
			seen = strings.Contains(buf.String(), "first")
			return newB()
		}
		cfg.OnResult = func(rs []Result) { sink.Add(rs) }
		if _, err := Measure([]*Target{a, b}, cfg); err != nil {
			t.Fatal(err)
		}
		sink.End()
		if !seen {
			t.Errorf("%s: the first row was not written before the second measurement:\n%s", format, buf.String())
		}
	}
}

// TestNoiseMarked: a row whose repetitions spread over 5% is marked, and
// the summary counts it and suggests -count.
func TestNoiseMarked(t *testing.T) {
	mk := func(impl string, samples ...float64) Result {
		return Result{Target: &Target{Family: "aes", Cipher: "aes-128-ctr", Mode: "ctr", Direction: "encrypt", Impl: impl},
			Threads: 1, Samples: samples, NsPerByte: median(samples), MeanNsPerByte: mean(samples), Spread: RelSpread(samples),
			Reps: len(samples), MHz: 3000}
	}
	cfg := Config{Sizes: []int{1024}}
	rs := []Result{mk("quiet", 1, 1.01, 0.99, 1, 1), mk("noisy", 1, 1.3, 0.8, 1.1, 0.9)}
	rs[0].Size, rs[1].Size = 1024, 1024
	var buf bytes.Buffer
	if err := WriteAll("table", &buf, rs, fakeEnv(cfg)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "20%!") || !strings.Contains(out, "1 of 2 rows spread over 5%") || !strings.Contains(out, "-count 3") {
		t.Errorf("noise not marked or summarised:\n%s", out)
	}
}

// TestPeerRatioUsesMeans: ×ossl sets our mean against the peer's mean,
// whatever estimator the row shows.
func TestPeerRatioUsesMeans(t *testing.T) {
	peer := &Target{Family: "aes", Cipher: "aes-128-ctr", Mode: "ctr", Direction: "encrypt", Impl: "openssl", Foreign: true}
	ours := &Target{Family: "aes", Cipher: "aes-128-ctr", Mode: "ctr", Direction: "encrypt", Impl: "fast", Default: true}
	cfg := Config{Sizes: []int{16384}}
	rs := []Result{
		{Target: peer, Size: 16384, Threads: 1, NsPerByte: 0.1, MeanNsPerByte: 0.1, Samples: []float64{0.1}, Reps: 1, MHz: 3000},
		// Median 0.04 (2.5× the peer), mean 0.05 (2×).
		{Target: ours, Size: 16384, Threads: 1, NsPerByte: 0.04, MeanNsPerByte: 0.05, Samples: []float64{0.04, 0.04, 0.04, 0.04, 0.04}, Reps: 5, MHz: 3000},
	}
	var buf bytes.Buffer
	env := fakeEnv(cfg)
	env.Peer = "OpenSSL 3.0"
	if err := WriteAll("table", &buf, rs, env); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	var row string
	for _, l := range lines {
		if strings.Contains(l, "fast *") {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) == 0 || f[len(f)-1] != "2.00" {
		t.Errorf("×ossl of the fast row: %q, want 2.00 (means)\n%s", row, buf.String())
	}
}
