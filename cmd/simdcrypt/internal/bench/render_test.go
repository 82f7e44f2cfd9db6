package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
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
	slow.Variant = true
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
			a.Target.Default != b.Target.Default || a.Target.Variant != b.Target.Variant ||
			math.Abs(a.NsPerByte-b.NsPerByte) > 1e-12 || len(a.Samples) != len(b.Samples) {
			t.Fatalf("record %d: wrote %+v, read %+v", i, a, b)
		}
	}
}

func TestGobenchParsedByBenchfmt(t *testing.T) {
	cfg := Config{Count: 3}
	_, rs := fakeResults(t, cfg)
	var buf bytes.Buffer
	WriteGobench(&buf, rs, fakeEnv(cfg))
	r := benchfmt.NewReader(&buf, "a.txt")
	n := 0
	names := map[string]bool{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.Result:
			n++
			names[string(rec.Name)] = true
			if v := rec.GetConfig("cpu"); v != "Test CPU" {
				t.Errorf("cpu config %q", v)
			}
			full := string(rec.Name.Full())
			if strings.Contains(full, "size=slope") {
				v, ok := rec.Value("sec/B") // ns/B, tidied by benchfmt
				if !ok {
					t.Fatalf("slope line without ns/B: %s %+v", full, rec.Values)
				}
				if strings.Contains(full, "impl=fast/") {
					within(t, "fast sec/B", v, 0.125e-9, 1e-3)
				}
			} else {
				if _, ok := rec.Value("sec/op"); !ok { // ns/op, tidied by benchfmt
					t.Fatalf("fixed-size line without ns/op: %s", full)
				}
				if strings.Contains(full, "impl=fast/size=16384") {
					v, _ := rec.Value("B/s")
					within(t, "fast B/s at 16K", v, 16384/(50+0.125*16384)*1e9, 1e-3)
				}
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if want := len(rs); n != want {
		t.Errorf("parsed %d results, wrote %d", n, want)
	}
	if !names["Speed/aes-128-ctr/encrypt/impl=fast/size=slope-"+strconv.Itoa(runtime.GOMAXPROCS(0))] {
		t.Errorf("benchmark names: %v", names)
	}
}

func TestCSV(t *testing.T) {
	_, rs := fakeResults(t, Config{})
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rs); err != nil {
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
	WriteTable(&buf, rs, fakeEnv(cfg))
	out := buf.String()
	for _, want := range []string{"4000 MHz", "fast *", "fast-noprefetch ~", "16K MiB/s",
		// stdlib at 0.5 ns/B is the baseline; fast is 4× its throughput
		// and 0.125 ns/B × 4 GHz = 0.5 c/B.
		"4.00", "0.500",
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
	if !strings.Contains(buf.String(), "aes-128-ctr/encrypt size=slope") || !strings.Contains(buf.String(), "(p=") {
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

func TestPlotFiles(t *testing.T) {
	cfg := Config{Sizes: MatrixSizes}
	_, rs := fakeResults(t, cfg)
	dir := t.TempDir()
	for _, name := range []string{"speed.svg", "speed.png"} {
		p := filepath.Join(dir, name)
		if err := Plot(p, rs, fakeEnv(cfg)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 1000 {
			t.Errorf("%s: only %d bytes", name, len(b))
		}
		if name == "speed.svg" && (!bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("fast-noprefetch"))) {
			t.Errorf("%s does not look like the plot", name)
		}
		if name == "speed.png" && !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("%s is not a PNG", name)
		}
	}
	if err := Plot(filepath.Join(dir, "x.svg"), nil, fakeEnv(cfg)); err == nil {
		t.Error("plot of no figures did not fail")
	}
}
