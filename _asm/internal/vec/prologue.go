package vec

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// LoadParam loads a 64-bit argument into a physical register (avo's Load
// deduces moves only for virtual registers). Kernels with a fixed register
// plan name their general registers and load each argument this way.
func LoadParam(name string, r GPPhysical) { loadArg(Param(name), r) }

// LoadArgs loads the leading arguments of the function being built, in the
// order its signature declares them, into physical registers: regs[i]
// gets argument i. Each must be a 64-bit value (a pointer, int or uint64).
func LoadArgs(regs ...GPPhysical) {
	for i, r := range regs {
		loadArg(ParamIndex(i), r)
	}
}

func loadArg(arg gotypes.Component, r GPPhysical) {
	b, err := arg.Resolve()
	if err != nil {
		panic(err)
	}
	MOVQ(b.Addr, r)
}

// AlignedLocal reserves size bytes of frame aligned to align (a power of
// two) and returns a register pointing at them: Go frames are only 8-byte
// aligned, and aligned 64-byte spills do not split cache lines.
func AlignedLocal(size, align int) GPVirtual {
	buf := AllocLocal(size + align)
	p := GP64()
	LEAQ(buf, p)
	ADDQ(U32(align-1), p)
	ANDQ(I32(-align), p)
	return p
}

// Labels numbers a kernel's labels: New("loop") returns loop_1, loop_2,
// ... so that repeated pieces of code get distinct labels. Start a new
// Labels (or reuse one) per TEXT symbol; labels are local to it.
type Labels struct{ n int }

// New returns a fresh label "what_N".
func (l *Labels) New(what string) string {
	l.n++
	return fmt.Sprintf("%s_%d", what, l.n)
}

// Pool is a free list of physical vector registers: Get takes the most
// recently returned one (or the last of the initial list), Put returns one.
type Pool struct{ free []VecPhysical }

// NewPool returns a pool holding regs; Get hands them out from the end.
func NewPool(regs ...VecPhysical) *Pool {
	return &Pool{free: append([]VecPhysical(nil), regs...)}
}

// Len is the number of free registers.
func (p *Pool) Len() int { return len(p.free) }

// Get takes a free register; ok is false when there is none.
func (p *Pool) Get() (r VecPhysical, ok bool) {
	n := len(p.free)
	if n == 0 {
		return nil, false
	}
	r = p.free[n-1]
	p.free = p.free[:n-1]
	return r, true
}

// Put returns r to the pool.
func (p *Pool) Put(r VecPhysical) { p.free = append(p.free, r) }

// Clone returns an independent copy, for code emitted along two branches.
func (p *Pool) Clone() *Pool { return NewPool(p.free...) }

// Leaf starts a NOSPLIT assembly function whose pointer arguments do not
// escape, with its doc lines: the header every kernel of the AEAD
// generators opens with.
func Leaf(name, signature string, doc ...string) {
	TEXT(name, NOSPLIT, signature)
	Pragma("noescape")
	Doc(doc...)
}
