package main

// openTwoDirectAVX2, Open of 641 to 1024 bytes in two word-sliced
// batches, with all of its MAC beside the second batch's rounds, reading
// the ciphertext where it is and writing the plaintext to dst itself (as
// openTenAVX2 does). The kernel it replaced (sealTwoKernel's Open, on a
// buffer in its state) started the MAC only after the first batch (block
// 0, the MAC key, runs beside its rounds), carried 30 steps and the powers
// r^2..r^21 beside the second batch's, and absorbed the second batch's
// ciphertext and the lengths after them in two chains: about 17 steps of
// 16.6 cycles in a row (measured on Zen 5 under avx512=off, kernel alone at
// 1 KiB: 472 ns, 385 without that tail). All of Open's ciphertext is there
// from the start, so here two chains run beside the second batch's rounds
// instead, three steps each per double round: A continues from the
// additional data's block over the ciphertext's first blocks, B starts
// from zero over the last 33 whole blocks, then (after the rounds) the
// tail's blocks and the lengths, and h = A·r^J + B (see openTwoSetup).
//
// r^J (square and multiply, six dependent operations of 20 to 40 cycles)
// computed after the first batch held back the second's rounds by about
// 25 ns however it was placed, the out-of-order window filling behind it;
// three power steps per double round (two chains of data and one of r
// beside the rounds) cost more than that. So block 0 runs two double
// rounds per double round of the first batch, in its first half, and the
// other half's rounds are unrolled with the additional data's step and the
// pieces of r^34 spread through them (buffer kernel alone at 1 KiB: about
// 395 ns against 472). The first batch's keystream waits in the frame
// until the MAC has read its ciphertext (dst may be src).

import (
	"fmt"
	"math/bits"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
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

// openTwoJ is the number of whole MAC blocks chain B takes in
// openTwoDirectAVX2 (the lengths' block and the tail's follow).
const openTwoJ = 33

// openTwoPad is frame space openTwoDirectAVX2 leaves unused. Where its
// frame falls against the caller's data mattered more than the kernel's
// own changes: measured on Zen 5 under avx512=off in the package's Open
// benchmark at 1 KiB, the buffer kernel this one grew from, the same code
// with frames of 288 to 344 bytes in steps of 8, ran 1630 to 2034
// cpu-MB/s (312, 344 and 808 bytes the fast ones), while a harness calling
// Open from another function ran every size at 2000-2070; we did not find
// the data the frame collides with. The pad gave that kernel the 808 bytes
// of the one it replaced; this one has 1328 with it, 808 without (in
// interleaved runs at 768 bytes and 1 KiB neither clearly ahead, both
// 1.4-1.6x x/crypto), and keeps it.
//
// What decides the speed is where the stack lies, not the message: in a
// harness taking the best of 4000 Seal calls at each of 16 placements of
// the message (256 bytes apart), called through 0 to 127 more frames of 32
// bytes, sealTwoDirectAVX2 at 1 KiB took 455-475 ns at most depths and
// 530-580 ns (every placement alike) at about one depth in eight, in
// clusters (55-65, 73-75 and 123-126 in one build); which depths are slow
// moved when only the test's own code changed, and sealTenDirectAVX2 (640
// bytes: 420 -> 610 ns) and openTwoDirectAVX2 slow down at them too. The
// loops of these kernels load nothing from a fixed address (their masks
// are in the frame, see frameMasks), so what the frame collides with is
// still unknown.
const openTwoPad = 520

// stitchedOpenTwoDirect emits openTwoDirectAVX2 on a directState (see
// openDirect).
func stitchedOpenTwoDirect(name string) {
	TEXT(name, 0, fmt.Sprintf("func(st *[%d]byte, dst, src []byte)", sdEnd))
	Pragma("noescape")
	Doc(name+" writes the tag of the additional data's block (2^128 bit from st), src",
		"(641 to 1024 bytes) zero-padded (its last n mod 32 bytes from st's tail) and",
		"the lengths' block, and decrypts src into dst with the blocks (two",
		"word-sliced batches) from st.x[12] on, all but the last n mod 32 bytes,",
		"whose plaintext replaces them in st's tail. The caller compares the tag",
		"(and clears dst if wrong).")
	vec.PCAlign(64)
	k := &sk{}
	x, in := k.twoStart(false)
	k.loadState()
	Comment("The first batch: two double rounds of block 0 per double round, in half of its rounds.")
	zero := func(f func()) { k.queue = append(k.queue, f) }
	cnt := AllocLocal(8)
	MOVQ(U32(5), cnt)
	vec.PCAlign(32)
	k.rolledLoop(name+"_b1", cnt, func() {
		scalarDoubleRound(&x, zero)
		scalarDoubleRound(&x, zero)
	})
	k.macKeyFrom(&x, in, ooS)
	rf, pf := AllocLocal(24), AllocLocal(24)
	r := words3(rf)
	a := k.macChain(rf)
	Comment("The other half unrolled, the additional data's step and r^34 spread through it.")
	all := k.ticks
	k.ticks = all / 2
	ad, adHi := Mem{Base: k.st, Disp: sdAD}, Mem{Base: k.st, Disp: sdHi}
	k.queue, k.tick, k.emitted, k.delay = []func(){whole(a.stepOps(ad, ad.Offset(8), adHi, r))}, 0, 0, 0
	k.queue = append(k.queue, powerItems(r, pf, openTwoJ+1)...)
	for range 5 {
		k.doubleRound()
	}
	k.flush()
	k.ticks = all
	s := k.openTwoSetup()
	for _, f := range s.preB(r) {
		f()
	}
	Comment("The first batch's keystream to the frame: the ciphertext stays for the MAC.")
	ks := AllocLocal(batchBytes)
	k.put = func(r Op, off int) { VMOVDQU(r, ks.Offset(off)) }
	k.output()
	k.put = nil
	buf := Load(Param("src").Base(), GP64()).(GPVirtual)
	k.openTwoLast(name, a, s, r, buf)
	k.openTwoOut(name, a, s, r, pf, ks)
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

// twoSplit is openTwoDirectAVX2's split of the MAC between its chains: B
// and its pointer, and in the frame the loop counts, A's blocks before
// them and the tail's blocks.
type twoSplit struct {
	b                    chain
	pb                   GPVirtual
	cntA, cntB, remA, tb Mem
}

// openTwoSetup splits the MAC of the ciphertext's m = 2·(n/32) whole
// blocks: B (from zero, k.t its temporaries) over the last openTwoJ of
// them, then the tail's blocks (none to two) and the lengths; A over the
// a = m-33 before them: a mod 3 alone, then three per double round of the
// first a/3 (cntA) of the second batch, the rest (cntB) B's steps alone.
func (k *sk) openTwoSetup() twoSplit {
	s := twoSplit{pb: GP64().(GPVirtual), cntA: AllocLocal(8), cntB: AllocLocal(8), remA: AllocLocal(8), tb: AllocLocal(8)}
	Comment("B's blocks from 32·(n/32) - 528 on, then the tail's and the lengths; A's a = 2·(n/32) - 33.")
	n := Load(Param("src").Len(), GP64())
	t := GP64()
	MOVQ(n, t)
	ANDQ(U8(31), t)
	ADDQ(U8(15), t)
	SHRQ(U8(4), t)
	MOVQ(t, s.tb)
	ANDQ(I8(-32), n)
	Load(Param("src").Base(), s.pb)
	LEAQ(Mem{Base: s.pb, Index: n, Scale: 1, Disp: -16 * openTwoJ}, s.pb)
	SUBQ(U32(16*openTwoJ), n)
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

// openTwoLast emits the second batch's rounds with the MAC beside them
// (see openTwoSetup): A's blocks before them, then two loops of double
// rounds, three steps of A and B per double round in the first, of B
// alone in the second. buf holds the ciphertext's start.
func (k *sk) openTwoLast(name string, a chain, s twoSplit, r [3]Mem, buf GPVirtual) {
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
}

// openTwoOut emits what follows the second batch's rounds: B over the
// tail's blocks (from st's tail, before the output takes their place) and
// the lengths, r^34 (pf) on by r once per tail block; the first batch's
// plaintext from its keystream in the frame (ks, wiped), the second's
// through putPiece; then h = A·r^J + B and the tag.
func (k *sk) openTwoOut(name string, a chain, s twoSplit, r [3]Mem, pf, ks Mem) {
	Comment("B over the tail's blocks and the lengths, r^J on with them.")
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	p := chain{t: s.b.t}
	for i := range 3 {
		p.h[i] = GP64().(GPVirtual)
		MOVQ(pf.Offset(8*i), p.h[i])
	}
	for j := range 2 {
		CMPQ(s.tb, U8(j))
		JE(LabelRef(name + "_lens"))
		m := Mem{Base: k.st, Disp: sdTail + 16*j}
		whole(s.b.stepOps(m, m.Offset(8), U8(1), r))()
		whole(p.stepOps(nil, nil, nil, r))()
	}
	Label(name + "_lens")
	m := Mem{Base: k.st, Disp: sdLens}
	whole(s.b.stepOps(m, m.Offset(8), U8(1), r))()
	for i := range 3 {
		MOVQ(p.h[i], pf.Offset(8*i))
	}
	Comment("The MAC has read the ciphertext (dst may be src): the plaintext.")
	src := Load(Param("src").Base(), GP64()).(GPVirtual)
	dst := Load(Param("dst").Base(), GP64()).(GPVirtual)
	z, t := y(15), y(regT)
	VPXOR(z, z, z)
	for off := 0; off < batchBytes; off += 32 {
		VMOVDQU(ks.Offset(off), t)
		VPXOR(Mem{Base: src, Disp: off}, t, t)
		VMOVDQU(t, Mem{Base: dst, Disp: off})
		VMOVDQU(z, ks.Offset(off))
	}
	k.src, k.dst = src, dst
	ADDQ(U32(batchBytes), k.src)
	ADDQ(U32(batchBytes), k.dst)
	rem := Load(Param("src").Len(), GP64()).(GPVirtual)
	SUBQ(U32(batchBytes), rem)
	k.put = func(r Op, off int) { k.putPiece(name+"_o", rem, r, off) }
	k.output()
	k.put = nil
	mulAdd(a.h, words3(pf), []Op{s.b.h[0], s.b.h[1], s.b.h[2]})
	k.h = a.h
	k.finishAt(ooS, ooTag)
}
