// Package testkit holds the tests every cipher reuses: known answers,
// differential runs of every registered implementation against the portable
// path and an independent reference over all lengths and alignments, split
// streams, overlap and misuse panics, guard-page bounds checks and
// concurrent use. A cipher package's tests describe the cipher (BlockSpec,
// StreamSpec) and call RunBlockCipher or RunStreamCipher.
package testkit

import (
	"bufio"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hex decodes s, ignoring spaces, and panics on bad input: it is for vectors
// typed into tests.
func Hex(s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		panic("testkit: bad hex in test vector: " + err.Error())
	}
	return b
}

// SharedPath returns the absolute path of rel inside the shared test-vector
// tree (../shared/testdata beside the repository), or skips the test with a
// message saying what was not run. The tree sits beside developers' and CI's
// checkouts but not beside a user's clone; the typed-in core vectors run
// either way.
func SharedPath(t testing.TB, rel string) string {
	t.Helper()
	root, err := repoRoot()
	if err == nil {
		p := filepath.Join(root, "..", "shared", "testdata", rel)
		if _, err = os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("skipping full vector suite: ../shared/testdata/%s not found beside the repository (%v); the typed-in core vectors still ran", rel, err)
	return ""
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.Contains(string(data), "module github.com/simdcrypt/simdcrypt\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// Record is one record of a NIST CAVP-style response file (also the format
// of the KISA ARIA files): KEY = value lines, with the [SECTION] it sits in.
type Record struct {
	Section string // "ENCRYPT", "DECRYPT", or "" before any section
	Line    int    // line of the record's first field, for messages
	Fields  map[string]string
}

// Bytes returns the hex-decoded field, failing the test on bad hex.
func (r Record) Bytes(t testing.TB, name string) []byte {
	t.Helper()
	v, ok := r.Fields[name]
	if !ok {
		t.Fatalf("record at line %d has no %s", r.Line, name)
	}
	b, err := hex.DecodeString(v)
	if err != nil {
		t.Fatalf("record at line %d: %s: %v", r.Line, name, err)
	}
	return b
}

// ParseRSP reads a response file. Records are separated by blank lines; '#'
// starts a comment; CRLF line ends are accepted.
func ParseRSP(t testing.TB, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		recs    []Record
		cur     *Record
		section string
		n       int
	)
	flush := func() {
		if cur != nil && len(cur.Fields) > 0 {
			recs = append(recs, *cur)
		}
		cur = nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			flush()
			section = strings.Trim(line, "[]")
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			if cur == nil {
				cur = &Record{Section: section, Line: n, Fields: map[string]string{}}
			}
			cur.Fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no records", path)
	}
	return recs
}
