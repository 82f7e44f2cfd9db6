package main

// openTwoAVX2, Open of 641 to 1024 bytes in two word-sliced batches, with
// all of its MAC beside the second batch's rounds. sealTwoKernel's Open
// started the MAC only after the first batch (block 0, the MAC key, runs
// beside its rounds), carried 30 steps and the powers r^2..r^21 beside the
// second batch's, and absorbed the second batch's ciphertext and the
// lengths after them in two chains: about 17 steps of 16.6 cycles in a row
// (measured on Zen 5 under avx512=off, kernel alone at 1 KiB: 472 ns, 385
// without that tail). All of Open's ciphertext is there from the start,
// so here two chains run beside the second batch's rounds instead, three
// steps each per double round: A continues from the additional data's
// block over the ciphertext's first blocks, B starts from zero over the
// last 32 and the lengths (see openTwoSetup), and h = A·r^33 + B.
//
// r^33 (square and multiply, six dependent operations of 20 to 40 cycles)
// computed after the first batch held back the second's rounds by about
// 25 ns however it was placed, the out-of-order window filling behind it;
// three power steps per double round (two chains of data and one of r
// beside the rounds) cost more than that. So block 0 runs two double
// rounds per double round of the first batch, in its first half, and the
// other half's rounds are unrolled with the additional data's step and the
// pieces of r^33 spread through them (kernel alone at 1 KiB: about 395 ns
// against 472; the Go code around it adds about 50).

import (
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// powerItems returns the instructions that write r^e (e at least 2) to pf,
// r0, r1, s1 at r, in pieces to emit in order: square and multiply, the
// first squaring (r·r) and each multiplication by r a MAC step without a
// block, the other squarings mulAdd (through pf); the store last.
func powerItems(r [3]Mem, pf Mem, e int) []func() {
	c := newChain()
	items := []func(){func() {
		MOVQ(r[0], c.h[0])
		MOVQ(r[1], c.h[1])
		XORL(c.h[2].As32(), c.h[2].As32())
	}}
	byR := func() {
		for _, f := range c.stepOps(nil, nil, nil, r) {
			f()
		}
	}
	top := bits.Len(uint(e)) - 2
	for b := top; b >= 0; b-- {
		if b == top {
			items = append(items, byR)
		} else {
			items = append(items, func() {
				for i := range 3 {
					MOVQ(c.h[i], pf.Offset(8*i))
				}
				mulAdd(c.h, words3(pf), nil)
			})
		}
		if e>>b&1 != 0 {
			items = append(items, byR)
		}
	}
	return append(items, func() {
		for i := range 3 {
			MOVQ(c.h[i], pf.Offset(8*i))
		}
	})
}

// openTwoJ is the number of MAC blocks chain B takes in openTwoAVX2: the
// last 32 of the padded ciphertext and the lengths.
const openTwoJ = 33

// openTwoPad is frame space openTwoAVX2 leaves unused, so that its frame
// keeps the 808 bytes of the kernel it replaced, whose first slots (the
// spill area, the masks, block 0's words) it shares: the frame's place
// against the caller's data mattered more than the kernel. Measured on
// Zen 5 under avx512=off in the package's Open benchmark at 1 KiB, same
// code with frames of 288 to 344 bytes in steps of 8: 1630 to 2034 cpu-MB/s
// (312, 344 and 808 bytes the fast ones), while a harness calling Open from
// another function ran every size at about 2000-2070; we did not find the
// data the frame collides with.
const openTwoPad = 520

// openTwo emits openTwoAVX2 from the first batch's rounds on (x: block 0,
// the state with the counter one less, in general registers and the
// frame; nOff: the message's length in st).
func (k *sk) openTwo(name string, x *[16]Op, in func(i int) Op, nOff int) {
	k.loadState()
	Comment("The first batch: two double rounds of block 0 per double round, in half of its rounds.")
	zero := func(f func()) { k.queue = append(k.queue, f) }
	cnt := AllocLocal(8)
	MOVQ(U32(5), cnt)
	vec.PCAlign(32)
	k.rolledLoop(name+"_b1", cnt, func() {
		scalarDoubleRound(x, zero)
		scalarDoubleRound(x, zero)
	})
	k.macKeyFrom(x, in, ooS)
	rf, pf := AllocLocal(24), AllocLocal(24)
	r := words3(rf)
	a := k.macChain(rf)
	Comment("The other half unrolled, the additional data's step and r^33 spread through it.")
	all := k.ticks
	k.ticks = all / 2
	ad, adHi := Mem{Base: k.st, Disp: ooMAC + 16*(openSteps-2)}, Mem{Base: k.st, Disp: ooHi + 8*(openSteps-2)}
	k.queue, k.tick, k.emitted, k.delay = []func(){whole(a.stepOps(ad, ad.Offset(8), adHi, r))}, 0, 0, 0
	k.queue = append(k.queue, powerItems(r, pf, openTwoJ)...)
	for range 5 {
		k.doubleRound()
	}
	k.flush()
	k.ticks = all
	s := k.openTwoSetup(nOff)
	for _, f := range s.preB(r) {
		f()
	}
	buf := GP64().(GPVirtual)
	LEAQ(Mem{Base: k.st, Disp: ooBuf}, buf)
	k.src = buf
	k.dst = GP64().(GPVirtual)
	LEAQ(Mem{Base: k.st, Disp: ooMAC}, k.dst)
	k.output()
	k.openTwoLast(name, a, s, r, pf, buf)
	AllocLocal(openTwoPad)
	stAVX2.Return()
}

// whole makes one piece of the instructions ops.
func whole(ops []func()) func() {
	return func() {
		for _, f := range ops {
			f()
		}
	}
}

// twoSplit is openTwoAVX2's split of the MAC between its chains: B and its
// pointer, and in the frame the loop counts and A's blocks before them.
type twoSplit struct {
	b                chain
	pb               GPVirtual
	cntA, cntB, remA Mem
}

// openTwoSetup writes the zeros after the ciphertext and the lengths after
// them, and splits the MAC: B (from zero, k.t its temporaries) over the
// last openTwoJ blocks, A over the a = m-32 before them (m blocks of
// padded ciphertext): a mod 3 alone, then three per double round of the
// first a/3 (cntA) of the second batch, the rest (cntB) B's steps alone.
func (k *sk) openTwoSetup(nOff int) twoSplit {
	Comment("Zeros after the ciphertext (the MAC pads with them), then the lengths.")
	n := GP64()
	MOVQ(Mem{Base: k.st, Disp: nOff}, n)
	z := XMM()
	VPXOR(z, z, z)
	VMOVDQU(z, Mem{Base: k.st, Index: n, Scale: 1, Disp: ooBuf})
	ADDQ(U8(15), n)
	ANDQ(I8(-16), n)
	VMOVDQU(Mem{Base: k.st, Disp: ooMAC + 16*(openSteps-1)}, z)
	VMOVDQU(z, Mem{Base: k.st, Index: n, Scale: 1, Disp: ooBuf})
	Comment("B's blocks from 16m-512 on; A's a = m-32: a mod 3 alone, then a/3 double rounds.")
	s := twoSplit{pb: GP64().(GPVirtual), cntA: AllocLocal(8), cntB: AllocLocal(8), remA: AllocLocal(8)}
	LEAQ(Mem{Base: k.st, Index: n, Scale: 1, Disp: ooBuf - 16*(openTwoJ-1)}, s.pb)
	SUBQ(U32(16*(openTwoJ-1)), n)
	SHRQ(U8(4), n)
	loops := GP64()
	IMUL3Q(U32(171), n, loops) // a/3 for a under 512
	SHRQ(U8(9), loops)
	MOVQ(loops, s.cntA)
	for range 3 {
		SUBQ(loops, n)
	}
	MOVQ(n, s.remA)
	NEGQ(loops)
	ADDQ(U8(10), loops)
	MOVQ(loops, s.cntB)
	s.b = chain{t: k.t}
	for i := range s.b.h {
		s.b.h[i] = GP64().(GPVirtual)
		XORQ(s.b.h[i], s.b.h[i])
	}
	return s
}

// stepAt returns chain c's step over the block j blocks past p.
func stepAt(c chain, p GPVirtual, j int, r [3]Mem) []func() {
	m := Mem{Base: p, Disp: 16 * j}
	return c.stepOps(m, m.Offset(8), U8(1), r)
}

// preB returns B's first three steps, each whole, and the move past them.
func (s twoSplit) preB(r [3]Mem) []func() {
	var ops []func()
	for j := range 3 {
		ops = append(ops, whole(stepAt(s.b, s.pb, j, r)))
	}
	return append(ops, func() { ADDQ(U8(48), s.pb) })
}

// openTwoLast emits the second batch of openTwoAVX2 with the rest of the
// MAC beside its rounds (see openTwoSetup): A's blocks before its loop,
// then two loops of double rounds, three steps of A and B per double round
// in the first, of B alone in the second. Then h = A·r^33 + B (pf holds
// r^33) and the tag. buf holds the ciphertext's start.
func (k *sk) openTwoLast(name string, a chain, s twoSplit, r [3]Mem, pf Mem, buf GPVirtual) {
	for j := range 3 {
		CMPQ(s.remA, U8(j))
		JE(LabelRef(name + "_pre"))
		for _, f := range stepAt(a, buf, 0, r) {
			f()
		}
		ADDQ(U8(16), buf)
	}
	Label(name + "_pre")

	Comment("The second batch.")
	ADDL(U8(8), k.stateWord(12))
	k.loadState()
	CMPQ(s.cntA, U8(0))
	JE(LabelRef(name + "_bonly"))
	vec.PCAlign(32)
	k.rolledLoop(name+"_ab", s.cntA, func() {
		for j := range 3 {
			k.queue = append(k.queue, stepAt(a, buf, j, r)...)
			k.queue = append(k.queue, stepAt(s.b, s.pb, j, r)...)
		}
		k.queue = append(k.queue, func() {
			ADDQ(U8(48), buf)
			ADDQ(U8(48), s.pb)
		})
	})
	Label(name + "_bonly")
	CMPQ(s.cntB, U8(0))
	JE(LabelRef(name + "_out"))
	vec.PCAlign(32)
	k.rolledLoop(name+"_b", s.cntB, func() {
		for j := range 3 {
			k.queue = append(k.queue, stepAt(s.b, s.pb, j, r)...)
		}
		k.queue = append(k.queue, func() { ADDQ(U8(48), s.pb) })
	})
	Label(name + "_out")
	Comment("The plaintext over the first batch's ciphertext, absorbed by now.")
	k.src, k.dst = GP64().(GPVirtual), GP64().(GPVirtual)
	LEAQ(Mem{Base: k.st, Disp: ooBuf + batchBytes}, k.src)
	LEAQ(Mem{Base: k.st, Disp: ooBuf}, k.dst)
	k.output()
	mulAdd(a.h, words3(pf), []Op{s.b.h[0], s.b.h[1], s.b.h[2]})
	k.h = a.h
	k.finishAt(ooS, ooTag)
}
