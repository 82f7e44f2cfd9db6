package chacha20

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/impl"
)

// forEachPath runs f for every registered path, reporting (not hiding) the
// ones this CPU or mask cannot run.
func forEachPath(t *testing.T, f func(t *testing.T, p path)) {
	t.Helper()
	all := impl.For("chacha20")
	if len(all) == 0 {
		t.Fatal("no chacha20 implementations registered")
	}
	for _, i := range all {
		t.Run(i.Name, func(t *testing.T) {
			if !i.Available() {
				t.Skipf("path %s not run: CPU lacks or mask hides %v", i.Name, i.Missing())
			}
			s, err := i.NewStream(make([]byte, KeySize), make([]byte, NonceSize))
			if err != nil {
				t.Fatal(err)
			}
			c, ok := s.(*Cipher)
			if !ok || c.path != pathByName(i.Name) {
				t.Fatalf("NewStream of %s did not return a *Cipher pinned to it", i.Name)
			}
			f(t, c.path)
		})
	}
}

// sharedDir returns ../shared/testdata/rel seen from the repository root,
// or skips with a message when the shared tree is absent.
func sharedDir(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "testdata", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping shared vector files: %s not found (%v); the typed-in vectors still ran", p, err)
	}
	return p
}

// parseRecords reads NIST-style "NAME = value" records separated by blank
// lines, ignoring '#' comments.
func parseRecords(t *testing.T, file string) []map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []map[string]string
	cur := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			if len(cur) > 0 && line == "" {
				recs = append(recs, cur)
				cur = map[string]string{}
			}
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			cur[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if len(cur) > 0 {
		recs = append(recs, cur)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no records", file)
	}
	return recs
}
