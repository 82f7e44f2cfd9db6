package vec

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Two word-sliced ChaCha20 sets with 16 registers.
//
// Every simple vector instruction (add, xor, shift, shuffle) has a latency
// of two cycles on Zen 5, and four pipes take adds and logic, so eight
// independent operations must be in flight. One set's round has only four
// independent quarter-round chains: a single set is latency bound at about
// twice the ALU bound. Two sets double the chains but need 32 state words
// in 16 registers, so the words live in the frame (each at its home slot)
// and a small allocator keeps those about to be used in registers: it
// walks a double round's operations, reads a word that is only an input
// straight from its home slot (a memory operand), and when a register is
// needed evicts the word whose next use is furthest (Belady), storing it
// only if it changed. A double round starts and ends with every word home.

// WordOp is one operation on state words: X += Y, X ^= Y, or X <<<= Bits.
// Words are numbered 16*set + word.
type WordOp struct {
	Kind byte // '+', '^' or 'r'
	X, Y int
	Bits int
}

// ChaChaColumns and ChaChaDiagonals are the word groups of ChaCha20's
// column and diagonal rounds.
var (
	ChaChaColumns   = [4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}
	ChaChaDiagonals = [4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}}
)

// DoubleRoundOps lists one ChaCha20 double round of sets sets: per round,
// per half of the quarter round, per step, each quarter round's three
// operations, the sets' quarter rounds alternating. (Chunks of four
// quarter rounds taken through a whole round need a third fewer loads and
// stores but measured no faster: the order with the most independent
// chains close together is as good.)
func DoubleRoundOps(sets int) []WordOp {
	var ops []WordOp
	for _, round := range [2][4][4]int{ChaChaColumns, ChaChaDiagonals} {
		var qrs [][4]int
		for q := 0; q < 4; q++ {
			for s := 0; s < sets; s++ {
				w := round[q]
				qrs = append(qrs, [4]int{16*s + w[0], 16*s + w[1], 16*s + w[2], 16*s + w[3]})
			}
		}
		for _, bits := range [2][2]int{{16, 12}, {8, 7}} {
			for _, w := range qrs { // a += b; d ^= a; d <<<= 16 or 8
				ops = append(ops, WordOp{'+', w[0], w[1], 0}, WordOp{'^', w[3], w[0], 0}, WordOp{'r', w[3], 0, bits[0]})
			}
			for _, w := range qrs { // c += d; b ^= c; b <<<= 12 or 7
				ops = append(ops, WordOp{'+', w[2], w[3], 0}, WordOp{'^', w[1], w[2], 0}, WordOp{'r', w[1], 0, bits[1]})
			}
		}
	}
	return ops
}

// Spiller emits operations on state words kept in home slots, with
// registers 0..14 of ISA caching them and 15 the temporary of the
// rotations. Emit, if set, receives each instruction (a move, an
// operation or a rotation) as a function to run, so that a caller can
// interleave other work or only count them.
type Spiller struct {
	ISA   ISA
	Ops   []WordOp
	Home  func(v int) Mem // the home slot of word v
	Masks RotateMasks
	Emit  func(func())

	regOf map[int]int // word -> register
	valOf [SpillRegs]int
	dirty map[int]bool
}

// SpillRegs is the number of registers the Spiller caches words in.
const SpillRegs = 15

func (sp *Spiller) emit(f func()) {
	if sp.Emit == nil {
		f()
		return
	}
	sp.Emit(f)
}

// nextUse is the index of the first operation at or after p that uses v.
func (sp *Spiller) nextUse(v, p int) int {
	for ; p < len(sp.Ops); p++ {
		if o := sp.Ops[p]; o.X == v || (o.Kind != 'r' && o.Y == v) {
			return p
		}
	}
	return len(sp.Ops) + v // never again: evict the highest-numbered first
}

// alloc returns a register for v at operation p, evicting another word
// (never keep) if none is free.
func (sp *Spiller) alloc(v, p, keep int) int {
	best, bestUse := -1, -1
	for r, w := range sp.valOf {
		if w < 0 {
			best = r
			break
		}
		if w == keep {
			continue
		}
		if u := sp.nextUse(w, p); u > bestUse {
			best, bestUse = r, u
		}
	}
	if w := sp.valOf[best]; w >= 0 {
		if sp.dirty[w] {
			reg, home := sp.ISA.Reg(best), sp.Home(w)
			sp.emit(func() { sp.ISA.Mov(reg, home) })
		}
		delete(sp.regOf, w)
		delete(sp.dirty, w)
	}
	sp.valOf[best] = v
	sp.regOf[v] = best
	return best
}

// operand is v's register, or its home slot when it is in none.
func (sp *Spiller) operand(v int) Op {
	if r, ok := sp.regOf[v]; ok {
		return sp.ISA.Reg(r)
	}
	return sp.Home(v)
}

// Run emits Ops from a state with every word home, and stores the changed
// words at the end.
func (sp *Spiller) Run() {
	isa := sp.ISA
	sp.regOf, sp.dirty = map[int]int{}, map[int]bool{}
	for r := range sp.valOf {
		sp.valOf[r] = -1
	}
	for p, o := range sp.Ops {
		if o.Kind == 'r' {
			x := isa.Reg(sp.regOf[o.X])
			sp.emit(func() { isa.Rol32(o.Bits, sp.Masks, isa.Reg(SpillRegs), x) })
			continue
		}
		y := sp.operand(o.Y)
		rx, ok := sp.regOf[o.X]
		switch {
		case ok:
		case isa.Enc == VEX && IsRegister(y):
			// Three operands: the old x comes from its slot.
			rx = sp.alloc(o.X, p, o.Y)
			home, yr, x := sp.Home(o.X), y.(Register), isa.Reg(rx)
			sp.emit(func() { sp.op(o.Kind, home, yr, x) })
			sp.dirty[o.X] = true
			continue
		default:
			rx = sp.alloc(o.X, p, o.Y)
			home, x := sp.Home(o.X), isa.Reg(rx)
			sp.emit(func() { isa.Mov(home, x) })
		}
		x := isa.Reg(rx)
		sp.emit(func() { sp.op(o.Kind, y, x, x) })
		sp.dirty[o.X] = true
	}
	for r, w := range sp.valOf {
		if w >= 0 && sp.dirty[w] {
			reg, home := isa.Reg(r), sp.Home(w)
			sp.emit(func() { isa.Mov(reg, home) })
		}
	}
}

// op emits dst = x + y or x ^ y (SSE: dst == y).
func (sp *Spiller) op(kind byte, x Op, y, dst Register) {
	switch {
	case sp.ISA.Enc == SSE && kind == '+':
		PADDL(x, dst)
	case sp.ISA.Enc == SSE:
		PXOR(x, dst)
	case kind == '+':
		VPADDD(x, y, dst)
	default:
		VPXOR(x, y, dst)
	}
}
