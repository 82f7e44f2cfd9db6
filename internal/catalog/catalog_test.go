package catalog

import (
	"crypto/cipher"
	"slices"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

func newBlock(key []byte) (cipher.Block, error) { return nil, nil }

// fakePaths is a table of the usual shape: a wide path, a narrower one, a
// measurement variant, the portable one.
func fakePaths() []*Path {
	return []*Path{
		{Name: "wide", Requires: []cpu.Feature{cpu.AVX512}, Wide: true},
		{Name: "wide-variant", Requires: []cpu.Feature{cpu.AVX2}, VariantOf: "wide"},
		{Name: "narrow", Requires: []cpu.Feature{cpu.AVX2}},
		{Name: "portable"},
	}
}

// TestChoose checks the pure choice on made-up feature sets, whatever the
// host.
func TestChoose(t *testing.T) {
	has := func(fs ...cpu.Feature) func(...cpu.Feature) bool {
		return func(req ...cpu.Feature) bool {
			for _, r := range req {
				if !slices.Contains(fs, r) {
					return false
				}
			}
			return true
		}
	}
	for _, c := range []struct {
		usable    func(...cpu.Feature) bool
		prefer256 string
		want, why string
	}{
		{has(cpu.AVX512, cpu.AVX2), "", "wide", "best"},
		{has(cpu.AVX512, cpu.AVX2), "it downclocks", "narrow", "passed over wide (512-bit vectors) because it downclocks"},
		{has(cpu.AVX2), "", "narrow", "best"},
		{has(cpu.AVX512), "it downclocks", "wide", "only usable accelerated path, although it downclocks"},
		{has(), "", "portable", "portable Go"},
	} {
		paths := fakePaths()
		i, why := Choose(paths, c.usable, c.prefer256)
		if paths[i].Name != c.want || !strings.Contains(why, c.why) {
			t.Errorf("Choose = %s (%s), want %s (%s)", paths[i].Name, why, c.want, c.why)
		}
	}
}

// TestTableFollowsMask checks that the cached choice moves with the mask.
func TestTableFollowsMask(t *testing.T) {
	var entries []Entry[string]
	for _, p := range fakePaths() {
		p.Cipher, p.Ops, p.NewBlock = "test-table", BlockOps, newBlock
		entries = append(entries, Entry[string]{Path: p, Impl: p.Name})
	}
	tab := NewTable("test-table", entries...)
	restore, _ := cpu.SetMask("all=off")
	if got := tab.Chosen(); got != "portable" {
		t.Errorf("under all=off: %s", got)
	}
	restore()
	c, ok := Get("test-table")
	if !ok {
		t.Fatal("table not in the catalogue")
	}
	p, _ := c.Chosen()
	if p.Name != tab.Chosen() {
		t.Errorf("catalogue says %s, table runs %s", p.Name, tab.Chosen())
	}
	if cpu.Has(cpu.AVX2) {
		restore, _ := cpu.SetMask("avx512=off")
		if got := tab.Chosen(); got != "narrow" {
			t.Errorf("under avx512=off: %s", got)
		}
		restore()
	}
	if got := MustLookup("test-table", "wide-variant"); got.VariantOf != "wide" {
		t.Errorf("lookup returned %+v", got)
	}
}

func TestAddRejects(t *testing.T) {
	mustPanic := func(what string, paths ...*Path) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", what)
			}
		}()
		add(&Cipher{Name: "x", Paths: paths})
	}
	ok := func(name string) *Path {
		return &Path{Cipher: "x", Name: name, Ops: StreamOps, NewStream: func(k, n []byte) (cipher.Stream, error) { return nil, nil }}
	}
	two := ok("two")
	two.NewBlock = newBlock
	mustPanic("two constructors", two)
	mustPanic("repeated name", ok("a"), ok("a"))
	last := ok("last")
	last.Requires = []cpu.Feature{cpu.AVX2}
	mustPanic("no portable path last", last)
	mustPanic("misfiled", &Path{Cipher: "y", Name: "z", Ops: StreamOps, NewBlock: newBlock})
}

func TestKernelFor(t *testing.T) {
	p := &Path{Name: "wide", Kernels: map[Op]string{CBCEncrypt: "narrow"}}
	if p.KernelFor(CBCEncrypt) != "narrow" || p.KernelFor(CTR) != "wide" {
		t.Error("KernelFor ignores the Kernels map")
	}
}
