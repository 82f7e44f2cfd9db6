package catalog

import (
	"crypto/cipher"
	"strings"
	"sync/atomic"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// Choose returns the index in paths (a cipher's paths, best first) of the
// one dispatch takes, and a sentence saying why: the first path that is not
// a measurement variant and whose requirements usable accepts, passing over
// the Wide ones when prefer256 (the reason the CPU prefers 256-bit vectors)
// is not empty, unless only the portable path would be left. It depends on
// nothing but its arguments.
func Choose(paths []*Path, usable func(...cpu.Feature) bool, prefer256 string) (int, string) {
	var passed []string
	wide := -1
	for i, p := range paths {
		if p.VariantOf != "" || !usable(p.Requires...) {
			continue
		}
		if p.Wide && prefer256 != "" {
			passed = append(passed, p.Name)
			if wide < 0 {
				wide = i
			}
			continue
		}
		if len(p.Requires) == 0 {
			if wide >= 0 {
				return wide, "the only usable accelerated path, although " + prefer256
			}
			return i, "portable Go: no faster path is usable"
		}
		why := "the best path this CPU can run"
		if len(passed) > 0 {
			why += "; passed over " + strings.Join(passed, ", ") + " (512-bit vectors) because " + prefer256
		}
		return i, why
	}
	panic("catalog: no usable path; the portable one must require nothing")
}

// Table is one cipher's dispatch: its catalogue entry, an implementation
// value per path (a constructor, a kernel set: whatever key setup needs),
// and the cached choice. The cipher package keeps it in a package variable;
// nothing else dispatches.
type Table[T any] struct {
	cipher *Cipher
	impls  []T
	cur    atomic.Pointer[choice[T]]
}

type choice[T any] struct {
	gen  uint64 // cpu.Generation when the choice was made
	path *Path
	impl T
	why  string
}

// Entry pairs a path with the value its cipher's key setup uses to run it.
type Entry[T any] struct {
	Path *Path
	Impl T
}

// NewTable enters the cipher and its paths (best first, the portable one
// last) into the catalogue and returns its dispatch table.
func NewTable[T any](cipherName string, entries ...Entry[T]) *Table[T] {
	t := &Table[T]{cipher: &Cipher{Name: cipherName}}
	for _, e := range entries {
		t.cipher.Paths = append(t.cipher.Paths, e.Path)
		t.impls = append(t.impls, e.Impl)
	}
	t.cipher.choice = func() (*Path, string) {
		c := t.current()
		return c.path, c.why
	}
	add(t.cipher)
	return t
}

// Chosen returns the implementation value of the path dispatch takes now:
// two atomic loads while the CPU mask stays as it was, no lock and no
// lookup.
func (t *Table[T]) Chosen() T { return t.current().impl }

// Path returns the path dispatch takes now, and why.
func (t *Table[T]) Path() (*Path, string) {
	c := t.current()
	return c.path, c.why
}

func (t *Table[T]) current() *choice[T] {
	if c := t.cur.Load(); c != nil && c.gen == cpu.Generation() {
		return c
	}
	return t.choose()
}

// choose evaluates Choose for the current mask. The generation is read
// first: if the mask changes meanwhile, the stored choice is already stale
// and the next call chooses again.
func (t *Table[T]) choose() *choice[T] {
	gen := cpu.Generation()
	prefer256 := ""
	if cpu.Has(cpu.Prefer256) {
		prefer256 = cpu.Prefer256Reason()
	}
	i, why := Choose(t.cipher.Paths, cpu.HasAll, prefer256)
	c := &choice[T]{gen: gen, path: t.cipher.Paths[i], impl: t.impls[i], why: why}
	t.cur.Store(c)
	return c
}

// NewBlockFunc is the implementation value of a block cipher's path: its
// constructor.
type NewBlockFunc = func(key []byte) (cipher.Block, error)

// BlockPath completes p as a path of the 128-bit block cipher cipherName
// (every block operation, p.NewBlock the constructor) and pairs it with its
// constructor for NewTable.
func BlockPath(cipherName string, p *Path) Entry[NewBlockFunc] {
	p.Cipher, p.Ops = cipherName, BlockOps
	return Entry[NewBlockFunc]{Path: p, Impl: p.NewBlock}
}

// NewAEADFunc is the implementation value of an AEAD's path: its
// constructor.
type NewAEADFunc = func(key []byte) (cipher.AEAD, error)

// AEADPath completes p as a path of the AEAD cipherName (seal and open,
// p.NewAEAD the constructor) and pairs it with its constructor for
// NewTable.
func AEADPath(cipherName string, p *Path) Entry[NewAEADFunc] {
	p.Cipher, p.Ops = cipherName, AEADOps
	return Entry[NewAEADFunc]{Path: p, Impl: p.NewAEAD}
}
