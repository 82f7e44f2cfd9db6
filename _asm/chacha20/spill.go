package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Two word-sliced sets with 16 registers (sse, vex).
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

// vop is one operation on state words: x += y, x ^= y, or x <<<= bits.
// Words are numbered 16*set + word.
type vop struct {
	kind byte // '+', '^' or 'r'
	x, y int
	bits int
}

// doubleRoundOps lists one double round of sets sets: per round, per half
// of the quarter round, per step, each quarter round's three operations,
// the sets' quarter rounds alternating. (Chunks of four quarter rounds
// taken through a whole round need a third fewer loads and stores but
// measured no faster: the order with the most independent chains close
// together is as good.)
func doubleRoundOps(sets int) []vop {
	var ops []vop
	for _, round := range [2][4][4]int{columns, diagonals} {
		var qrs [][4]int
		for q := 0; q < 4; q++ {
			for s := 0; s < sets; s++ {
				w := round[q]
				qrs = append(qrs, [4]int{16*s + w[0], 16*s + w[1], 16*s + w[2], 16*s + w[3]})
			}
		}
		for _, bits := range [2][2]int{{16, 12}, {8, 7}} {
			for _, w := range qrs { // a += b; d ^= a; d <<<= 16 or 8
				ops = append(ops, vop{'+', w[0], w[1], 0}, vop{'^', w[3], w[0], 0}, vop{'r', w[3], 0, bits[0]})
			}
			for _, w := range qrs { // c += d; b ^= c; b <<<= 12 or 7
				ops = append(ops, vop{'+', w[2], w[3], 0}, vop{'^', w[1], w[2], 0}, vop{'r', w[1], 0, bits[1]})
			}
		}
	}
	return ops
}

// spiller emits operations on state words kept in home slots, with
// registers 0..14 caching them and 15 the temporary of the rotations.
type spiller struct {
	g     *gen
	ops   []vop
	regOf map[int]int // word -> register
	valOf [15]int     // register -> word, -1 when free
	dirty map[int]bool
}

const spillRegs = 15

// home is the frame slot of word v (16*set + word).
func (g *gen) home(v int) Mem { return Mem{Base: g.frame, Disp: 4 * g.lanes * v} }

// nextUse is the index of the first operation at or after p that uses v.
func (sp *spiller) nextUse(v, p int) int {
	for ; p < len(sp.ops); p++ {
		if o := sp.ops[p]; o.x == v || (o.kind != 'r' && o.y == v) {
			return p
		}
	}
	return len(sp.ops) + v // never again: evict the highest-numbered first
}

// alloc returns a register for v at operation p, evicting another word
// (never keep) if none is free.
func (sp *spiller) alloc(v, p, keep int) int {
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
			sp.g.mov(sp.g.r(best), sp.g.home(w))
		}
		delete(sp.regOf, w)
		delete(sp.dirty, w)
	}
	sp.valOf[best] = v
	sp.regOf[v] = best
	return best
}

// operand is v's register, or its home slot when it is in none.
func (sp *spiller) operand(v int) Op {
	if r, ok := sp.regOf[v]; ok {
		return sp.g.r(r)
	}
	return sp.g.home(v)
}

// run emits ops from a state with every word home, and stores the changed
// words at the end.
func (sp *spiller) run() {
	g := sp.g
	sp.regOf, sp.dirty = map[int]int{}, map[int]bool{}
	for r := range sp.valOf {
		sp.valOf[r] = -1
	}
	for p, o := range sp.ops {
		if o.kind == 'r' {
			g.v().Rol32(o.bits, rotMasks, g.r(spillRegs), g.r(sp.regOf[o.x]))
			continue
		}
		y := sp.operand(o.y)
		rx, ok := sp.regOf[o.x]
		switch {
		case ok:
		case g.isa == vex && IsRegister(y):
			// Three operands: the old x comes from its slot.
			rx = sp.alloc(o.x, p, o.y)
			g.op(o.kind, g.home(o.x), y.(Register), g.r(rx))
			sp.dirty[o.x] = true
			continue
		default:
			rx = sp.alloc(o.x, p, o.y)
			g.mov(g.home(o.x), g.r(rx))
		}
		g.op(o.kind, y, g.r(rx), g.r(rx))
		sp.dirty[o.x] = true
	}
	for r, w := range sp.valOf {
		if w >= 0 && sp.dirty[w] {
			g.mov(g.r(r), g.home(w))
		}
	}
}

// op emits dst = x + y or x ^ y (sse: dst == y).
func (g *gen) op(kind byte, x Op, y, dst Register) {
	switch {
	case g.isa == sse && kind == '+':
		PADDL(x, dst)
	case g.isa == sse:
		PXOR(x, dst)
	case kind == '+':
		VPADDD(x, y, dst)
	default:
		VPXOR(x, y, dst)
	}
}

// batch2 is the word-sliced batch of two sets of g.lanes blocks with 16
// registers: the state goes to the home slots, ten spilled double rounds,
// then each set is written as a one-set batch would be.
func (g *gen) batch2() {
	t, t2 := g.r(0), g.r(1)
	for i := 0; i < 16; i++ {
		if i != 12 {
			g.broadcast(i, t)
		}
		for s := 0; s < 2; s++ {
			if i == 12 {
				g.ctrOff = g.lanes * s
				g.counterRow(t, t2)
			}
			g.mov(t, g.home(16*s+i))
		}
	}
	g.ctrOff = 0
	sp := &spiller{g: g, ops: doubleRoundOps(2)}
	rounds := GP32()
	MOVL(U32(10), rounds)
	loop := fmt.Sprintf("rounds%d_%d", g.w, g.label)
	Label(loop)
	sp.run()
	DECL(rounds)
	JNZ(LabelRef(loop))

	w := g.w
	g.w = g.lanes
	for s := 0; s < 2; s++ {
		for i := 0; i < 16; i++ {
			if i < 8 || i >= 12 {
				g.mov(g.home(16*s+i), g.word(i))
			}
		}
		g.creg = map[int]int{}
		g.spill = g.home(16*s + 8)
		g.ctrOff, g.outOff = g.lanes*s, 64*g.lanes*s
		g.outputGroups()
	}
	g.ctrOff, g.outOff = 0, 0
	g.spill = g.home(8)
	g.w = w
	ADDL(U32(w), g.stateWord(12))
}
