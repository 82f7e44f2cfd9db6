package encfile

import (
	"os"
	"path/filepath"
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

// TestDanglingOutputSymlink (D5): an -out that is a symbolic link to a
// file that does not exist is refused, as cp refuses it: creating the
// target would write wherever the link's owner pointed it, and replacing
// the link would silently lose it.
func TestDanglingOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	if err := os.Symlink("missing", link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	k := strings.Repeat("00", 16)
	r := run(t, []byte("plaintext"), 0, "-aes-128-ctr", "-K", k, "-iv", k, "-out", link)
	if r.code == 0 || !strings.Contains(r.stderr, "dangling symbolic link") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want a one-line refusal naming the dangling link", r.code, r.stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	assertOnly(t, dir, "link")
}

// TestOutputWrittenAs0600 (D6): the temporary file holds plaintext while
// the run lasts (when decrypting), so it is readable by the owner only
// until it is complete, whatever the umask or the mode of the file it
// replaces.
func TestOutputWrittenAs0600(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	os.WriteFile(existing, nil, 0o644)
	os.Chmod(existing, 0o644)
	for _, target := range []string{existing, filepath.Join(dir, "fresh")} {
		o, err := openOutput(target, nil)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := o.f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: temporary file has mode %v while being written, want 0600", filepath.Base(target), fi.Mode().Perm())
		}
		o.abort()
	}
	assertOnly(t, dir, "existing")
}

// TestBadInputLeavesNothing runs every refusal of TestBadInput again with
// -out in an empty directory: nothing may appear there.
func TestBadInputLeavesNothing(t *testing.T) {
	k16 := strings.Repeat("00", 16)
	badPad := mustRun(t, make([]byte, 32), 0, "-aes-128-cbc", "-K", k16, "-iv", k16, "-nopad")
	for _, tc := range []struct {
		stdin []byte
		args  []string
	}{
		{nil, []string{"-aes-128-ctr", "-K", "0011", "-iv", k16}},
		{nil, []string{"-aes-128-cbc", "-K", k16}},
		{nil, []string{"-aes-128-cbc"}},
		{badPad, []string{"-d", "-aes-128-cbc", "-K", k16, "-iv", k16}},
		{badPad[:31], []string{"-d", "-aes-128-cbc", "-K", k16, "-iv", k16}},
		{[]byte("abc"), []string{"-aes-128-ecb", "-K", k16, "-nopad"}},
		{nil, []string{"-d", "-aes-128-ctr", "-pass", "pass:x", "-pbkdf2"}},
		{[]byte("Nalted__0123456789"), []string{"-d", "-aes-128-ctr", "-pass", "pass:x", "-pbkdf2"}},
		{nil, []string{"-aes-128-ctr", "-K", k16, "-iv", k16, "-in", "/nonexistent/in"}},
		{nil, []string{"-aes-128-ctr", "-K", k16, "-iv", k16, "-threads", "0"}},
	} {
		dir := t.TempDir()
		r := run(t, tc.stdin, 4096, append(tc.args, "-out", filepath.Join(dir, "out"))...)
		if r.code == 0 || strings.Count(strings.TrimSuffix(r.stderr, "\n"), "\n") > 2 {
			t.Errorf("%q: exit %d, stderr %q", tc.args, r.code, r.stderr)
		}
		if names := dirEntries(t, dir); len(names) != 0 {
			t.Errorf("%q: left %q behind", tc.args, names)
		}
	}
}
