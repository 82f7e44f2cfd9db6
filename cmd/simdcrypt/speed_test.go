package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func runSpeedArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = speed(args, &o, &e)
	return code, o.String(), e.String()
}

// TestSpeedUsageErrors: every mistake is one line on stderr, naming the
// valid choices, and exit status 2; nothing is measured.
func TestSpeedUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-nosuchflag"}, "valid flags: -cipher"},
		{[]string{"-count", "x"}, "-count"},
		{[]string{"-cipher", "aes-512-ctr"}, "aes-128-ctr"},
		{[]string{"-cipher", "aes-*-ocb"}, "globs like aes-*-ctr"},
		{[]string{"-impl", "nosuch"}, "stdlib"},
		{[]string{"-format", "xml"}, "table, csv, json, jsonl, gobench"},
		{[]string{"-estimator", "best"}, "median, fastest, mean"},
		{[]string{"-time", "0s"}, "-time must be positive"},
		{[]string{"-size", "abc"}, "matrix"},
		{[]string{"-size", "17", "-cipher", "aes-128-cbc"}, "multiple of 16"},
		{[]string{"-offset", "-3"}, "all"},
		{[]string{"-plot", "x.png"}, "must end in .svg"},
		{[]string{"-compare", "generic"}, "A,B"},
		{[]string{"-report", "-format", "json"}, "-report"},
		{[]string{"-count", "0"}, "at least 1"},
		{[]string{"stray"}, "unexpected argument"},
		{[]string{"-load", "x.json", "-cipher", "aes"}, "takes only -format"},
		{[]string{"-load", "/nonexistent/x.json"}, "no such file"},
	} {
		code, out, errOut := runSpeedArgs(t, tc.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if out != "" {
			t.Errorf("%v: wrote to stdout: %q", tc.args, out)
		}
		lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "simdcrypt speed: ") || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%v: stderr %q, want one line mentioning %q", tc.args, errOut, tc.want)
		}
	}
}

func TestSpeedList(t *testing.T) {
	code, out, _ := runSpeedArgs(t, "-list", "-cipher", "aes-128-ctr")
	if code != 0 || !strings.Contains(out, "stdlib (baseline)") || !strings.Contains(out, "(default)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// quick keeps real measurements short: the tests check plumbing, the
// engine's accuracy is tested on a fake clock in package bench.
var quick = []string{"-duration", "15ms", "-reps", "2", "-cpu-mhz", "3000"}

func TestSpeedJSON(t *testing.T) {
	code, out, errOut := runSpeedArgs(t, append(quick, "-cipher", "aes-128-ctr", "-impl", "stdlib,default", "-format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var recs []struct {
		Cipher, Direction, Impl string
		Default                 bool
		Size                    int
		NsPerByte               float64 `json:"ns_per_byte"`
		MHz                     float64
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var slopes, defaults int
	for _, r := range recs {
		if r.Cipher != "aes-128-ctr" || r.Direction != "encrypt" || r.NsPerByte <= 0 || r.MHz != 3000 {
			t.Errorf("record %+v", r)
		}
		if r.Size == 0 {
			slopes++
			if r.Default {
				defaults++
			}
		}
	}
	if slopes != 2 || defaults != 1 {
		t.Errorf("%d slope figures, %d default; want stdlib and the default path", slopes, defaults)
	}
}

func TestSpeedGobenchAndPlot(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "speed.svg")
	code, out, errOut := runSpeedArgs(t, append(quick, "-cipher", "aes-128-ctr", "-impl", "stdlib,default",
		"-size", "64,1k", "-count", "2", "-format", "gobench", "-plot", plot)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Go's benchmark format: "key: value" lines, then result lines
	// "BenchmarkName-N <iterations> <value> <unit>..." with ns/op.
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "Benchmark") {
			if k, _, ok := strings.Cut(line, ": "); !ok || strings.Contains(k, " ") {
				t.Errorf("neither configuration nor result: %q", line)
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 || f[3] != "ns/op" {
			t.Errorf("result line %q", line)
		}
		if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
			t.Errorf("iterations in %q: %v", line, err)
		}
		n++
	}
	if n != 2*2*2 { // impls × sizes × count
		t.Errorf("%d benchmark lines, want 8:\n%s", n, out)
	}
	if st, err := os.Stat(plot); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
}

// TestSpeedJSONLines: -format jsonl is one JSON object per line, each
// naming the estimator; -format json is one array of the same records.
func TestSpeedJSONLines(t *testing.T) {
	code, out, errOut := runSpeedArgs(t, append(quick, "-cipher", "aes-128-cbc", "-impl", "stdlib,default", "-format", "jsonl")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 2*2*(1+4) { // directions × impls × (slope + 4 sizes)
		t.Errorf("%d lines:\n%s", len(lines), out)
	}
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if rec["estimator"] != "median" || rec["ns_per_byte"].(float64) <= 0 {
			t.Errorf("record %v", rec)
		}
	}
}

func TestSpeedTableReportCompare(t *testing.T) {
	code, out, errOut := runSpeedArgs(t, append(quick, "-cipher", "aes-128-cbc", "-impl", "stdlib,generic")...)
	if code != 0 || !strings.Contains(out, "aes-128-cbc dec  stdlib") || !strings.Contains(out, "3000 MHz") ||
		!strings.Contains(out, "figure median of all timed slices") {
		t.Errorf("table: exit %d %s\n%s", code, errOut, out)
	}
	code, out, errOut = runSpeedArgs(t, append(quick, "-cipher", "aes-128-cbc", "-impl", "stdlib,generic", "-report")...)
	if code != 0 || !strings.Contains(out, "aes-128-cbc encrypt") || !strings.Contains(out, "stdlib") {
		t.Errorf("report: exit %d %s\n%s", code, errOut, out)
	}
	code, out, errOut = runSpeedArgs(t, append(quick, "-cipher", "aes-128-ctr", "-compare", "stdlib,generic")...)
	if code != 0 || !strings.Contains(out, "(p=") || !strings.Contains(out, "n=2") {
		t.Errorf("compare: exit %d %s\n%s", code, errOut, out)
	}
	// Two saved files.
	dir := t.TempDir()
	for _, name := range []string{"a.json", "b.json"} {
		code, out, errOut = runSpeedArgs(t, append(quick, "-cipher", "aes-128-ctr", "-impl", "stdlib", "-format", "json")...)
		if code != 0 {
			t.Fatal(errOut)
		}
		os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644)
	}
	code, out, errOut = runSpeedArgs(t, "-compare", filepath.Join(dir, "a.json")+","+filepath.Join(dir, "b.json"))
	if code != 0 || !strings.Contains(out, "aes-128-ctr/encrypt/stdlib size=slope") {
		t.Errorf("compare files: exit %d %s\n%s", code, errOut, out)
	}
	// A saved run renders again without measuring.
	code, out, errOut = runSpeedArgs(t, "-load", filepath.Join(dir, "a.json"), "-report")
	if code != 0 || !strings.Contains(out, "aes-128-ctr encrypt") || !strings.Contains(out, "stdlib") {
		t.Errorf("-load -report: exit %d %s\n%s", code, errOut, out)
	}
}
