package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// Two word-sliced sets with 16 registers (sse, vex): the 32 words live in
// the frame and vec.Spiller keeps the ones in use in registers (see there).

// home is the frame slot of word v (16*set + word).
func (g *gen) home(v int) Mem { return Mem{Base: g.frame, Disp: 4 * g.lanes * v} }

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
	sp := &vec.Spiller{ISA: g.v(), Ops: vec.DoubleRoundOps(2), Home: g.home, Masks: rotMasks}
	rounds := GP32()
	MOVL(U32(10), rounds)
	loop := fmt.Sprintf("rounds%d_%d", g.w, g.label)
	Label(loop)
	sp.Run()
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
