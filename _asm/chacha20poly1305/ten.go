package main

// Two more blocks beside the word-sliced batch, in the same latency window:
// on Zen 5 under avx512=off the batch's rounds are a chain of two-cycle
// vector operations with issue slots to spare, so a message of 513 to 640
// bytes (blocks 1 to 10) costs one batch instead of two when its ninth and
// tenth blocks run in YMM rows (one register per row, a block per 128-bit
// lane) beside it; likewise two blocks past two or three batches
// (1025..1152, 1537..1664 bytes: sealTwoKernel with extra) ride beside one
// of them instead of costing a batch. The four row registers come from
// the batch's d words (12 to 15), which then live in the frame: each
// quarter round's first step computes d ^= a from the slot into a
// temporary (regT for the first column of the pair, Y15 for the second),
// rotates and stores it, and the second step adds the temporary to c;
// regT is free again for the rotation of b. The rows' operations go between the batch's steps in
// chunks of three, those that rotate by shifts (through regT) only after
// a step that leaves regT free.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// rowPair is the two extra blocks' state while the rounds are emitted:
// rows a, b, c, d in Y8 to Y11, the chunks of the current double round
// still to come, and which of them need regT.
type rowPair struct {
	chunks []func()
	temp   []bool
	first  int // the rows' first block after the batch's st.x[12]: 8, or 16 or 24 beside the first of two or three batches
}

func (rowPair) reg(i int) VecPhysical { return y(8 + i) }

// start queues one double round of the rows in chunks.
func (p *rowPair) start(rot vec.RotateMasks) {
	a, b, c, d, t := p.reg(0), p.reg(1), p.reg(2), p.reg(3), y(regT)
	p.chunks, p.temp = nil, nil
	add := func(f func(), temp bool) {
		p.chunks = append(p.chunks, f)
		p.temp = append(p.temp, temp)
	}
	half := func(rd, rb int) {
		add(func() {
			VPADDD(b, a, a)
			VPXOR(a, d, d)
			stAVX2.Rol32(rd, rot, t, d)
		}, false)
		add(func() {
			VPADDD(d, c, c)
			VPXOR(c, b, b)
			stAVX2.Rol32(rb, rot, t, b)
		}, true)
	}
	shuffle := func(ia, ic, id uint8) {
		add(func() {
			VPSHUFD(U8(ia), a, a)
			VPSHUFD(U8(ic), c, c)
			VPSHUFD(U8(id), d, d)
		}, false)
	}
	half(16, 12)
	half(8, 7)
	shuffle(0x93, 0x39, 0x4e)
	half(16, 12)
	half(8, 7)
	shuffle(0x39, 0x93, 0x4e)
}

// step emits the next chunk after one of the batch's steps (free: the
// step left regT and Y15 unused).
func (p *rowPair) step(free bool) {
	if len(p.chunks) == 0 || p.temp[0] && !free {
		return
	}
	p.chunks[0]()
	p.chunks, p.temp = p.chunks[1:], p.temp[1:]
}

// finish emits what is left of the double round (after its last step,
// which leaves regT free).
func (p *rowPair) finish() {
	for _, f := range p.chunks {
		f()
	}
	p.chunks, p.temp = nil, nil
}

// lanes is the d row's block numbers for the pair: first and first+1
// after the batch's st.x[12].
func (p *rowPair) lanes() Mem { return cpLanes.Offset(16 * p.first) }

// storeDWords moves the batch's d words, just loaded into Y8 to Y11, to
// their slots and builds the rows there from the batch's words (each
// register one word in every lane) rather than with 16-byte loads of the
// state, which the caller has just written in narrower stores that the
// core cannot forward to them.
func (k *sk) storeDWords() {
	for i := 12; i < 16; i++ {
		VMOVDQU(y(i-4), k.slot(i))
	}
	// word returns word i of the batch: a register, or its slot.
	word := func(i int) Op {
		if r, ok := k.creg[i]; ok {
			return y(r)
		}
		if i >= 8 {
			return k.slot(i)
		}
		return y(i)
	}
	p := k.extra
	for row := range 4 {
		dst := p.reg(row)
		if row == 3 {
			VPBROADCASTD(k.stateWord(12), dst)
		} else {
			VMOVDQU(word(4*row), dst)
		}
		for j := 1; j < 4; j++ {
			VPBLENDD(U8(0x11<<j), word(4*row+j), dst, dst)
		}
	}
	VPADDD(p.lanes(), p.reg(3), p.reg(3))
}

// rowsOutput adds the input back to the rows and hands their four 32-byte
// pieces (offsets 512 to 608 from the batch's start) to k.put, then loads
// the batch's d words back into Y8 to Y11 for its output.
func (k *sk) rowsOutput() {
	t := y(regT)
	for i := range 4 {
		stAVX2.BroadcastLane(k.stateWord(4*i), t)
		if i == 3 {
			VPADDD(k.extra.lanes(), t, t)
		}
		VPADDD(t, k.extra.reg(i), k.extra.reg(i))
	}
	p := k.extra
	for half, imm := range []uint8{0x20, 0x31} {
		blk := 512 + 64*half
		VPERM2I128(U8(imm), p.reg(1), p.reg(0), y(regT))
		k.put(y(regT), blk)
		VPERM2I128(U8(imm), p.reg(3), p.reg(2), y(15))
		k.put(y(15), blk+32)
	}
	for i := 12; i < 16; i++ {
		VMOVDQU(k.slot(i), y(i-4))
	}
}

// addXorRotateMem is addXorRotate with the d words in their slots (see
// the top of this file): ts holds the pair's d words between the steps.
func (k *sk) addXorRotateMem(groups [][4]int, y1, z, bits int) {
	ts := []VecPhysical{y(regT), y(15)}
	if z == 3 { // a += b; d ^= a; d <<<= bits
		for g, q := range groups {
			k.add(k.word(q[y1]), k.word(q[0]))
			t, a, m := ts[g], k.word(q[0]), k.slot(q[3])
			k.vop(func() { VPXOR(m, a, t) })
		}
		k.rotate(bits, ts[:len(groups)]...)
		for g, q := range groups {
			t, m := ts[g], k.slot(q[3])
			k.vop(func() { VMOVDQU(t, m) })
		}
		return
	}
	// c += d (from ts); b ^= c; b <<<= bits
	var rot []VecPhysical
	for g, q := range groups {
		k.add(ts[g], k.word(q[2]))
		k.xor(k.word(q[2]), k.word(q[1]))
		rot = append(rot, k.word(q[1]))
	}
	k.rotate(bits, rot...)
}

// stitchedRolled emits a one-batch kernel (lay: the word-sliced batch,
// with or without the two extra blocks) whose rounds run as loops of
// double rounds, as sealTwoKernel's do: unrolled (as sealDirectAVX2 was,
// by stitchedSealDirect) the kernel is 12 KB of code, with the extra
// blocks 20 KB, and measured on Zen 5 under avx512=off its speed then
// depended on the build (the same kernel about 310 or 460 ns at 576 bytes
// as the rest of the binary moved); rolled, Seal of 288 to 512 bytes was
// about 10-20% quicker than unrolled, side by side in one process. The
// first loop's iterations each run two double rounds of block 0 in
// general registers beside the batch's one, the second's four steps
// of the powers of r (the table the two chains after the batch read r^J
// from, up to maxJ; steps past r^21 follow the loop); the MAC of the
// additional data runs between them.
//
// Seal (on a directState, reading src and writing dst itself) then emits
// the output and the MAC as stitchedSealDirect does. Open (on a
// directState as well) first absorbs the ciphertext at src in the same two
// chains (directChains: the whole 32-byte pieces at src, the last n mod 32
// bytes from st's tail) and writes the tag, then writes the plaintext to
// dst as Seal writes its ciphertext; the caller compares the tag and
// clears dst if it is wrong, as x/crypto does.
func stitchedRolled(name string, lay oneBatch, open bool) {
	if open {
		TEXT(name, 0, fmt.Sprintf("func(st *[%d]byte, dst, src []byte)", sdEnd))
		Pragma("noescape")
		Doc(name+" writes the tag of the additional data's block (2^128 bit from st), src",
			"zero-padded (its last n mod 32 bytes from st's tail) and the lengths' block,",
			fmt.Sprintf("then decrypts src (up to %d bytes) into dst with the %s", 64*lay.n(), lay),
			"from st.x[12] on, all but the last n mod 32 bytes, whose plaintext replaces",
			"them in st's tail. The caller compares the tag (and clears dst if wrong).")
	} else {
		directText(name, lay, 0) // not NOSPLIT: the frame outgrows the limit
	}
	vec.PCAlign(64)
	k := &sk{rows: lay}
	if lay.extra > 0 {
		k.extra = &rowPair{first: 8}
	}
	q := func(f func()) { k.queue = append(k.queue, f) }
	x := k.queueBlockZero("Block 0 in general registers: the state with the counter one less.")
	k.queue = nil
	in := func(i int) Op { return k.stateWord(i) }
	k.loadState()
	if k.extra != nil {
		k.storeDWords()
	}
	k.rolledRoundsN(name+"_b0", 5, func() {
		for range 2 {
			scalarDoubleRound(&x, q)
		}
	})
	k.macKeyFrom(&x, in, ooS)
	maxJ := 2*lay.n() + 3 // directChains' J at most (twoChains' is less)
	rf := AllocLocal(24)
	pw := AllocLocal(24 * (max(maxJ, 21) + 1)) // the loop writes up to r^21
	a, p := k.macStart(rf, pw)
	r := words3(rf)
	k.polyStepHi(Mem{Base: k.st, Disp: sdAD}, Mem{Base: k.st, Disp: sdHi})
	k.flush()
	pc := chain{h: p, t: a.t}
	pwp := GP64().(GPVirtual)
	LEAQ(pw.Offset(48), pwp)
	power := func(emit func(func())) {
		for _, f := range pc.stepOps(nil, nil, nil, r) {
			emit(f)
		}
		emit(func() {
			for i := range 3 {
				MOVQ(p[i], Mem{Base: pwp, Disp: 8 * i})
			}
			ADDQ(U8(24), pwp)
		})
	}
	k.rolledRoundsN(name+"_b1", 5, func() {
		for range 4 {
			power(q)
		}
	})
	for j := 22; j <= maxJ; j++ {
		power(func(f func()) { f() })
	}
	if open {
		k.directChains(name, Load(Param("src").Base(), GP64()).(GPVirtual), Load(Param("src").Len(), GP64()).(GPVirtual), rf, pw, false)
		Comment("The MAC has read the ciphertext (dst may be src): decrypt it.")
	}
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	k.src = Load(Param("src").Base(), GP64()).(GPVirtual)
	k.dst = Load(Param("dst").Base(), GP64()).(GPVirtual)
	n := Load(Param("src").Len(), GP64()).(GPVirtual)
	k.put = func(r Op, off int) { k.putPiece(name, n, r, off) }
	if k.extra != nil {
		k.rowsOutput()
	}
	k.output()
	k.put = nil
	if !open {
		k.directChains(name, k.dst, n, rf, pw, false)
	}
	stAVX2.Return()
}
