package main

// The wide stitched kernels of the avx2-stitched path: two word-sliced
// sets of eight blocks (1024 bytes) per batch, with the Poly1305 steps of
// the one-set kernels spread through their rounds.
//
// One set's rounds are latency bound on Zen 5 under avx512=off (every
// AVX2 integer operation takes two cycles there, and a round has four
// independent quarter-round chains for four vector pipes): the chacha20
// package's avx2 path runs two sets at once, their 32 words in the frame
// with vec.Spiller keeping those in use in registers, and is about a fifth
// faster than one set. The wide kernels do the same, the rounds rolled
// into a loop of double rounds, and run the batch's 64 Poly1305 steps
// beside them.
//
// The kernels address everything through one 32-byte-aligned frame
// pointer (the words' home slots would split cache lines at the stack
// pointer's alignment): st's words are copied to its start, so that the
// one-set code (loads of state words, r for the steps, the output) reads
// them there unchanged, and general registers are left for the pointers,
// h and the steps' temporaries.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// Layout of a wide kernel's frame: a copy of st (the ChaCha20 state, h
// and r at offH and offR), the rotation masks, the two sets' home slots.
const (
	wideState = 0
	wideMasks = 128
	wideHomes = 192
	wideFrame = wideHomes + 32*32
	wideBatch = 2 * batchBytes
)

// wide is a wide kernel while it is emitted: the one-set kernel's state
// (k.st the frame) and the spiller of its rounds.
type wide struct {
	*sk
	sp *vec.Spiller
}

// home is the slot of word v (16*set + word) in the frame.
func (w *wide) home(v int) Mem { return Mem{Base: w.st, Disp: wideHomes + 32*v} }

// stitchedWide emits openWideAVX2 (seal false): Open of whole 1024-byte
// batches, each batch's ciphertext absorbed during its own rounds; or
// sealWideAVX2 (seal true): Seal of whole batches, each absorbing the
// batch before it (the first: the 512 bytes before dst, sealFirstAVX2's
// or sealNextAVX2's output), the last left to the caller.
func stitchedWide(name string, seal bool) {
	TEXT(name, 0, "func(st *[14]uint64, dst, src []byte)")
	Pragma("noescape")
	if seal {
		Doc(name+" encrypts src, whose length must be a non-zero multiple of 1024, into",
			"dst and absorbs into st.h the 512 bytes before dst and every 1024-byte",
			"batch of dst but the last, each block with 2^128 added; st.x[12] advances.")
	} else {
		Doc(name+" absorbs src, whose length must be a non-zero multiple of 1024, into",
			"st.h (each block with 2^128 added) and decrypts it into dst; st.x[12]",
			"advances.")
	}
	w := newWide()
	mac := GP64().(GPVirtual)
	if !seal {
		Label(name + "_loop")
		MOVQ(w.src, mac)
		w.batch(name+"_rounds", mac, 64)
		w.advance(name + "_loop")
		w.finishFramed()
		return
	}
	LEAQ(Mem{Base: w.dst, Disp: -batchBytes}, mac)
	w.batch(name+"_first", mac, 32)
	w.advance(name + "_loop")
	w.finishFramed()
	Label(name + "_loop")
	LEAQ(Mem{Base: w.dst, Disp: -wideBatch}, mac)
	w.batch(name+"_rounds", mac, 64)
	w.advance(name + "_loop")
	w.finishFramed()
}

// batch emits one wide batch: its rounds as a loop of ten double rounds
// (label) with the Poly1305 steps over the steps blocks at mac spread
// through them, a tenth in each iteration and the rest after (mac moves
// on by the blocks of each iteration); then the output.
func (w *wide) batch(label string, mac GPVirtual, steps int) {
	w.homeState()
	cnt := AllocLocal(8)
	MOVQ(U32(10), cnt)
	a, r := chain{h: w.h, t: w.t}, w.rWords()
	per := steps / 10
	w.roundLoop(label, cnt, func() { w.queueSteps(a, r, mac, per) }, w.sp.Run)
	for j := range steps - 10*per {
		whole(stepAt(a, mac, j, r))()
	}
	w.output2()
}

// advance moves the pointers past a batch and continues at loop while
// bytes are left.
func (w *wide) advance(loop string) {
	ADDQ(U32(wideBatch), w.dst)
	ADDQ(U32(wideBatch), w.src)
	SUBQ(U32(wideBatch), w.n)
	JNZ(LabelRef(loop))
}

// newWide sets up the frame and the registers (newFramed, loadRegs) and
// counts a double round's vector instructions.
func newWide() *wide {
	k := newFramed()
	k.loadRegs(true)
	w := &wide{sk: k}
	w.sp = &vec.Spiller{ISA: stAVX2, Ops: vec.DoubleRoundOps(2), Home: w.home, Masks: k.rot, Emit: k.vop}
	k.counting = true
	w.sp.Run()
	k.counting = false
	return w
}

// newFramed returns a kernel whose st is a 32-byte-aligned frame holding
// a copy of st's words and the rotation masks.
func newFramed() *sk {
	k := &sk{}
	st := Load(Param("st"), GP64())
	k.st = vec.AlignedLocal(wideFrame, 32).(GPVirtual)
	for off := 0; off < offR+24; off += 8 {
		g := GP64()
		MOVQ(Mem{Base: st, Disp: off}, g)
		MOVQ(g, Mem{Base: k.st, Disp: wideState + off})
	}
	k.masksAt(Mem{Base: k.st, Disp: wideMasks})
	return k
}

// loadRegs loads dst, src, (withN) src's length and h, and allocates the
// steps' temporaries.
func (k *sk) loadRegs(withN bool) {
	k.dst = Load(Param("dst").Base(), GP64()).(GPVirtual)
	k.src = Load(Param("src").Base(), GP64()).(GPVirtual)
	if withN {
		k.n = Load(Param("src").Len(), GP64()).(GPVirtual)
	}
	for i := range k.h {
		k.h[i], k.t[i] = GP64().(GPVirtual), GP64().(GPVirtual)
		MOVQ(Mem{Base: k.st, Disp: offH + 8*i}, k.h[i])
	}
}

// stitchedLast emits sealLastAVX2: Seal's last whole batch after
// sealWideAVX2, one set of eight blocks whose rounds absorb the wide
// kernel's last batch (the 1024 bytes before dst) in two chains of 32
// blocks, h = A·r^32 + B: one chain of 64 steps would outlast the rounds.
// That leaves the caller 512 bytes to absorb, as after sealNextAVX2.
func stitchedLast(name string) {
	TEXT(name, 0, "func(st *[14]uint64, dst, src []byte)")
	Pragma("noescape")
	Doc(name+" encrypts the 512 bytes of src into dst (one batch) and absorbs the",
		"1024 bytes before dst into st.h (each block with 2^128 added); st.x[12]",
		"advances.")
	k := newFramed()
	k.seal = true
	k.spill = Mem{Base: k.st, Disp: wideHomes + 256}
	pf := Mem{Base: k.st, Disp: wideHomes}
	p := words3(pf)
	saved := words3(Mem{Base: k.st, Disp: wideHomes + 32})
	r := k.rWords()
	whole(powerItems(r, pf, 32))()
	k.loadRegs(false)
	a, b := chain{h: k.h, t: k.t}, chain{t: k.t}
	for i := range b.h {
		b.h[i] = GP64().(GPVirtual)
		XORQ(b.h[i], b.h[i])
	}
	mac := GP64().(GPVirtual)
	LEAQ(Mem{Base: k.dst, Disp: -wideBatch}, mac)
	k.countRounds()
	k.loadState()
	// steps is chain A's step over block j of the first 512 bytes at mac
	// and chain B's over block j of the second.
	steps := func(j int) []func() { return append(stepAt(a, mac, j, r), stepAt(b, mac, 32+j, r)...) }
	k.rolledRounds(name+"_rounds", func() {
		for j := range 3 {
			k.queue = append(k.queue, steps(j)...)
		}
		k.queue = append(k.queue, func() { ADDQ(U8(48), mac) })
	})
	for j := range 2 {
		whole(steps(j))()
	}
	k.output()
	Comment("h = A·P + B.")
	for i := range 3 {
		MOVQ(b.h[i], saved[i])
	}
	mulAdd(a.h, p, []Op{saved[0], saved[1], saved[2]})
	ADDL(U8(8), k.stateWord(12))
	k.finishFramed()
}

// homeState writes the batch's input words to the home slots: set 1's
// counters eight blocks past set 0's.
func (w *wide) homeState() {
	t := y(0)
	for i := 0; i < 16; i++ {
		if i == 12 {
			continue
		}
		VPBROADCASTD(w.stateWord(i), t)
		VMOVDQU(t, w.home(i))
		VMOVDQU(t, w.home(16+i))
	}
	w.counterRow(t)
	VMOVDQU(t, w.home(12))
	VPBROADCASTD(w.stateWord(12), t)
	VPADDD(stIota.Offset(32), t, t)
	VMOVDQU(t, w.home(28))
}

// output2 adds the input back and writes both sets, set 1 at 512 bytes
// on, then advances the counter by sixteen blocks.
func (w *wide) output2() {
	for s := range 2 {
		for i := 0; i < 16; i++ {
			if i < 10 || i >= 12 {
				r := w.word8(i)
				VMOVDQU(w.home(16*s+i), r)
			}
		}
		w.spill = w.home(16*s + 8)
		w.creg = map[int]int{8: regC0, 9: regC0 + 1}
		off := batchBytes * s
		w.put = func(r Op, o int) {
			VPXOR(Mem{Base: w.src, Disp: o + off}, r, r)
			VMOVDQU(r, Mem{Base: w.dst, Disp: o + off})
		}
		if s == 1 {
			ADDL(U8(8), w.stateWord(12))
		}
		w.output()
	}
	w.put = nil
	ADDL(U8(8), w.stateWord(12))
}

// word8 is the register output expects word i in (words 8 and 9: the two
// c registers).
func (w *wide) word8(i int) VecPhysical {
	switch i {
	case 8, 9:
		return y(regC0 + i - 8)
	}
	return w.word(i)
}

// finishFramed writes h and the counter back from a framed kernel (see
// newFramed) to st.
func (k *sk) finishFramed() {
	st := Load(Param("st"), GP64())
	for i := range k.h {
		MOVQ(k.h[i], Mem{Base: st, Disp: offH + 8*i})
	}
	c := GP32()
	MOVL(k.stateWord(12), c)
	MOVL(c, Mem{Base: st, Disp: 4 * 12})
	stAVX2.Return()
}
