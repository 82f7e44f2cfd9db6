package encfile

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The tests in this file are regression tests for the defects D1-D10 of
// issue 13, one test (or more) per defect; the ones that need a separate
// process are in cmd/simdcrypt.

// dirEntries lists a directory's names, for "left nothing behind" checks.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// assertOnly fails unless dir holds exactly the names given.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	got := dirEntries(t, dir)
	if strings.Join(got, "/") != strings.Join(names, "/") {
		t.Errorf("directory holds %q, want %q", got, names)
	}
}

// TestThreadsCap (D1): -threads is capped at a multiple of the CPU count,
// with an error that says the cap; the cap itself is accepted.
func TestThreadsCap(t *testing.T) {
	limit := threadsPerCPU * runtime.NumCPU()
	for _, v := range []string{strconv.Itoa(limit + 1), "1000000", "1000000000", "99999999999999999999"} {
		_, err := Parse([]string{"-aes-128-ctr", "-threads", v})
		if _, ok := err.(*UsageError); !ok || !strings.Contains(err.Error(), "at most "+strconv.Itoa(limit)) {
			t.Errorf("-threads %s: %v, want a usage error naming the cap %d", v, err, limit)
		}
	}
	k := strings.Repeat("00", 16)
	pt := randBytes(100_000, 1)
	want := mustRun(t, pt, 4096, "-aes-128-ctr", "-K", k, "-iv", k, "-threads", "1")
	if got := mustRun(t, pt, 4096, "-aes-128-ctr", "-K", k, "-iv", k, "-threads", strconv.Itoa(limit)); string(got) != string(want) {
		t.Errorf("-threads %d (the cap): output differs", limit)
	}
	r := run(t, pt, 0, "-aes-128-ctr", "-K", k, "-iv", k, "-threads", strconv.Itoa(limit+1))
	if r.code != 2 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("-threads %d: exit %d, stdout %d bytes, stderr %q; want exit 2, one line, no output", limit+1, r.code, len(r.stdout), r.stderr)
	}
}

// TestEmptyFileNames (D4): an empty -in, -out or -kfile is a mistake (an
// unset shell variable), not a request for stdin or stdout.
func TestEmptyFileNames(t *testing.T) {
	k := strings.Repeat("00", 16)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, args := range [][]string{
		{"-in", ""}, {"-out", ""}, {"-in="}, {"-out="}, {"--out", ""}, {"-kfile", ""}, {"-pass", "file:"},
	} {
		r := run(t, []byte("plaintext"), 0, append([]string{"-aes-128-ctr", "-K", k, "-iv", k}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "empty") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line about the empty name", args, r.code, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("%q: wrote %d bytes to stdout", args, len(r.stdout))
		}
	}
	assertOnly(t, dir)
}
