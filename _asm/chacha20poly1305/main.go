// Command chacha20poly1305 generates chacha20poly1305/chacha20poly1305_amd64.s:
// the keystream kernel of the AEAD's short-message path, and the stitched
// ChaCha20 and Poly1305 kernels of the avx2-stitched path (stitched.go).
//
// A short message (up to three blocks) needs keystream blocks 0 (the MAC
// key) to 3. The chacha20 package computes them in one call as well, but
// its general entry (cipher set-up, dispatch, the stream's bookkeeping)
// costs about 5% of a 64-byte Seal on AVX-512 and, on its avx2 path, about
// 170 ns of CPU time against about 80 for keystream4AVX2 (Zen 5, under
// avx512=off); these kernels take the key and nonce directly and always
// write exactly four blocks (or, for messages of one block, two: in YMM
// the second set of registers costs about 20 ns more on Zen 5, the
// rounds being a chain of dependent operations with little room beside it).
//
// Row layout: each register holds one row of the 4×4 state for one block
// per 128-bit lane (ZMM: blocks 0..3; YMM: two sets, blocks 0-1 and 2-3),
// so a double round is the quarter round on the columns, a rotation of
// rows b, c, d within each lane (VPSHUFD) to bring the diagonals into
// columns, the quarter round again and the rotation back. Rotations are
// VPROLD in ZMM, VPSHUFB (by 8 and 16) or shifts and an OR in YMM.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

func main() {
	ConstraintExpr("amd64,!purego")

	sigma := GLOBL("cp_sigma", RODATA|NOPTR)
	for i, w := range []uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574} {
		DATA(4*i, U32(w))
	}
	lanes := GLOBL("cp_lanectr", RODATA|NOPTR)
	cpLanes = lanes
	// Lanes 0 to 19: five sets of four (xorKeystream20); 24 and 25: the
	// YMM rows beside the first of three batches (ten.go's rowPair). 26
	// and 27 are read by nothing: the table keeps the 448 bytes it was
	// measured with, so that the read-only tables after it keep their
	// placement modulo 64 (see docs/prefetch.md on a move of 32 there).
	for l := 0; l < 28; l++ {
		DATA(16*l, U32(uint32(l)))
		DATA(16*l+4, U32(0))
		DATA(16*l+8, U64(0))
	}

	stitchedData()
	mask := GLOBL("cp_mask", RODATA|NOPTR)
	for i := 0; i < 128; i += 8 {
		DATA(i, U64(^uint64(0)>>(i&64))) // 64 bytes of ones, then zeros
	}
	cpMask = mask
	zmm := vec.ISA{W: vec.W512, Enc: vec.EVEX, Elem: 32}
	ymm := vec.ISA{W: vec.W256, Enc: vec.VEX, Elem: 32}
	keystreamRows("keystream4", zmm, 4, sigma, lanes,
		"keystream4 writes ChaCha20 keystream blocks 0 to 3 for key and nonce to ks.")
	keystreamRows("keystream4AVX2", ymm, 4, sigma, lanes,
		"keystream4AVX2 is keystream4 in YMM registers with AVX2: two sets of two blocks.")
	keystreamRows("keystream2AVX2", ymm, 2, sigma, lanes,
		"keystream2AVX2 writes keystream blocks 0 and 1 (one set of YMM registers)",
		"and leaves the rest of ks alone.")
	for sets := 2; sets <= 5; sets++ {
		name := fmt.Sprintf("keystream%d", 4*sets)
		keystreamRows(name, zmm, 4*sets, sigma, lanes,
			fmt.Sprintf("%s writes ChaCha20 keystream blocks 0 to %d for key and nonce to", name, 4*sets-1),
			fmt.Sprintf("ks: %d sets of ZMM rows side by side.", sets))
	}
	for sets := 2; sets <= 5; sets++ {
		xorRows(fmt.Sprintf("xorKeystream%d", 4*sets), zmm, 4*sets, sigma, lanes, false)
	}
	for sets := 1; sets <= 5; sets++ {
		xorRows(fmt.Sprintf("xorKeystreamAt%d", 4*sets), zmm, 4*sets, sigma, lanes, true)
	}
	stitched("sealAVX2", true)
	stitched("openAVX2", false)
	stitchedWide("openWideAVX2", false)
	stitchedWide("sealWideAVX2", true)
	stitchedLast("sealLastAVX2")
	stitchedTail("sealTailAVX2")
	stitchedFirst("sealFirstAVX2")
	macBatch("macBatchAVX2")
	stitchedLoop("sealNextAVX2", true, false)
	stitchedSealDirect("sealDirectY4", oneBatch{isa: ymm, blocks: 4})
	stitchedSealDirect("sealDirectY2", oneBatch{isa: ymm, blocks: 2})
	stitchedRolled("sealTenDirectAVX2", oneBatch{extra: 2}, false)
	stitchedRolled("sealDirectAVX2", sliced, false)
	stitchedRolled("openTenAVX2", oneBatch{extra: 2}, true)
	stitchedRolled("openDirectAVX2", sliced, true)
	stitchedSealTwoDirect("sealTwoDirectAVX2", 2)
	stitchedSealTwoRows("sealEighteenDirectAVX2")
	stitchedSealTwoDirect("sealFourDirectAVX2", 4)
	stitchedOpenTwoRows("openEighteenAVX2")
	stitchedThreeRows("sealThreeDirectAVX2", true)
	stitchedThreeRows("openThreeAVX2", false)
	stitchedOpenFour("openFourAVX2")
	stitchedOpenTwoDirect("openTwoDirectAVX2")
	oneRowsKernels(zmm, ymm)
	mulAddKernel("mulAdd130")
	block0Scalar("block0")
	ymmVL := vec.ISA{W: vec.W256, Enc: vec.EVEX, Elem: 32}
	shortKernel("sealShort", true, 0, ymm, sigma, lanes, mask)
	shortKernel("openShort", false, 0, ymm, sigma, lanes, mask)
	shortKernel("sealShortVL", true, 0, ymmVL, sigma, lanes, mask)
	shortKernel("openShortVL", false, 0, ymmVL, sigma, lanes, mask)
	shortKernel("sealShortLead", true, 5, ymm, sigma, lanes, mask)
	shortKernel("openShortLead", false, 4, ymm, sigma, lanes, mask)
	shortKernel("sealShortLeadVL", true, 4, ymmVL, sigma, lanes, mask)
	shortKernel("openShortLeadVL", false, 3, ymmVL, sigma, lanes, mask)
	Generate()
}

// rows is the state of a row-layout kernel while it is emitted: sets of
// four registers (a, b, c, d), the input rows they started from, and one
// temporary per set.
type rows struct {
	isa                 vec.ISA
	a0, b0, c0          VecVirtual
	d0, a, b, c, d, tmp []VecVirtual
	rot                 vec.RotateMasks // YMM: the rotation masks (stRot unless a kernel copies them)
}

// newRows loads the input rows for key and nonce (block counter 0, plus
// the lane's block number), one set per register width of blocks.
//
// With ctr (not nil), the counter starts there instead of 0.
func newRows(isa vec.ISA, blocks int, key, nonce GPVirtual, sigma, lanes Mem, ctr Op) *rows {
	return loadRows(isa, blocks, sigma, Mem{Base: key}, Mem{Base: key, Disp: 16}, lanes, func(newReg func() VecVirtual) VecVirtual {
		Comment("Row d: counter 0 and the nonce, the lane's block number added to the counter.")
		x := XMM()
		VMOVD(Mem{Base: nonce}, x) // zero-extends; the counter word is set below
		VPSLLDQ(U8(4), x, x)       // [0, n0, 0, 0]
		VPINSRQ(U8(1), Mem{Base: nonce, Disp: 4}, x, x)
		if ctr != nil {
			VPINSRD(U8(0), ctr, x, x)
		}
		dBase := newReg()
		if isa.W == vec.W512 {
			VSHUFI32X4(U8(0), x.AsZ(), x.AsZ(), dBase)
		} else {
			VINSERTI128(U8(1), x, x.AsY(), dBase)
		}
		return dBase
	})
}

// loadRows broadcasts rows a, b and c from memory and row d from dRow's
// register, to which each set adds its lanes' block numbers (from lanes).
func loadRows(isa vec.ISA, blocks int, a, b, c, lanes Mem, dRow func(newReg func() VecVirtual) VecVirtual) *rows {
	perReg := isa.W.Blocks()
	sets := blocks / perReg
	newReg := func() VecVirtual {
		if isa.W == vec.W512 {
			return ZMM()
		}
		return YMM()
	}
	r := &rows{isa: isa, a0: newReg(), b0: newReg(), c0: newReg(), rot: stRot}
	isa.BroadcastLane(a, r.a0)
	isa.BroadcastLane(b, r.b0)
	isa.BroadcastLane(c, r.c0)
	dBase := dRow(newReg)
	for s := range sets {
		d0 := newReg()
		isa.Add32(lanes.Offset(16*perReg*s), dBase, d0)
		a, b, c, d := newReg(), newReg(), newReg(), newReg()
		isa.Copy(r.a0, a)
		isa.Copy(r.b0, b)
		isa.Copy(r.c0, c)
		isa.Copy(d0, d)
		r.d0, r.a, r.b, r.c, r.d = append(r.d0, d0), append(r.a, a), append(r.b, b), append(r.c, c), append(r.d, d)
		r.tmp = append(r.tmp, newReg())
	}
	return r
}

// doubleRound emits one double round on every set, each vector instruction
// (a rotation counting as one) through vop.
func (r *rows) doubleRound(vop func(func())) {
	isa := r.isa
	each := func(f func(s int)) {
		for s := range r.a {
			vop(func() { f(s) })
		}
	}
	half := func(rd, rb int) {
		each(func(s int) { isa.Add32(r.b[s], r.a[s], r.a[s]) })
		each(func(s int) { isa.Xor(r.a[s], r.d[s], r.d[s]) })
		each(func(s int) { isa.Rol32(rd, r.rot, r.tmp[s], r.d[s]) })
		each(func(s int) { isa.Add32(r.d[s], r.c[s], r.c[s]) })
		each(func(s int) { isa.Xor(r.c[s], r.b[s], r.b[s]) })
		each(func(s int) { isa.Rol32(rb, r.rot, r.tmp[s], r.b[s]) })
	}
	quarter := func() {
		half(16, 12)
		half(8, 7)
	}
	// Rows a, c and d move, not b: b is the last row a quarter round
	// finishes and the first the next one reads (a += b), so a shuffle of
	// b would lengthen the chain; the other three are ready early.
	shuffle := func(ia, ic, id uint8) {
		each(func(s int) { isa.ShuffleDwords(ia, r.a[s], r.a[s]) })
		each(func(s int) { isa.ShuffleDwords(ic, r.c[s], r.c[s]) })
		each(func(s int) { isa.ShuffleDwords(id, r.d[s], r.d[s]) })
	}
	quarter()
	// Diagonals into columns: row a back by one word, c on by one, d by two.
	shuffle(0x93, 0x39, 0x4e)
	quarter()
	shuffle(0x39, 0x93, 0x4e)
}

// addInput adds the input rows back: the sets now hold keystream.
func (r *rows) addInput() {
	for s := range r.a {
		r.isa.Add32(r.a0, r.a[s], r.a[s])
		r.isa.Add32(r.b0, r.b[s], r.b[s])
		r.isa.Add32(r.c0, r.c[s], r.c[s])
		r.isa.Add32(r.d0[s], r.d[s], r.d[s])
	}
}

// keystreamRows emits a kernel writing keystream blocks 0 to blocks-1 in
// row layout at isa's width: one block per 128-bit lane, so one set of four
// registers (ZMM) or, in YMM, one set per two blocks, interleaved so that
// their chains run side by side.
func keystreamRows(name string, isa vec.ISA, blocks int, sigma, lanes Mem, doc ...string) {
	vec.Leaf(name, fmt.Sprintf("func(ks *[%d]byte, key *[32]byte, nonce *[12]byte)", max(256, 64*blocks)), doc...)
	ks := Load(Param("ks"), GP64())
	key := Load(Param("key"), GP64()).(GPVirtual)
	nonce := Load(Param("nonce"), GP64()).(GPVirtual)
	r := newRows(isa, blocks, key, nonce, sigma, lanes, nil)

	n := GP64()
	MOVL(U32(10), n.As32())
	loop := name + "_loop"
	Label(loop)
	r.doubleRound(func(f func()) { f() })
	DECL(n.As32())
	JNZ(LabelRef(loop))
	r.addInput()

	r.toBlocks(func(v VecVirtual, off int) {
		if isa.W == vec.W256 {
			VMOVDQU(v, Mem{Base: ks, Disp: off})
		} else {
			VMOVDQU64(v, Mem{Base: ks, Disp: off})
		}
	})
	isa.Return()
}

// xorRows emits a kernel that computes keystream blocks 0 to blocks-1 in
// ZMM rows as keystreamRows does, writes the first 32 bytes of block 0
// (the MAC key) to mk and src XORed with blocks 1 on to dst: whole blocks
// in full-width moves, a final partial block through an opmask. src may
// be at most blocks-1 blocks long; dst as long as src.
//
// With at, the kernel starts at block ctr and XORs src with every block
// (src at most blocks blocks long); no MAC key.
func xorRows(name string, isa vec.ISA, blocks int, sigma, lanes Mem, at bool) {
	first := 64 // src's first byte meets the keystream's block 1
	var ctr Op
	if at {
		first = 0
		vec.Leaf(name, "func(dst, src []byte, key *[32]byte, nonce *[12]byte, ctr uint32)",
			fmt.Sprintf("%s writes src (at most %d bytes) XORed with ChaCha20 keystream blocks", name, 64*blocks),
			fmt.Sprintf("ctr on for key and nonce to dst: %d sets of ZMM rows side by side.", blocks/4))
		ctr = Load(Param("ctr"), GP32())
	} else {
		vec.Leaf(name, "func(mk *[32]byte, dst, src []byte, key *[32]byte, nonce *[12]byte)",
			fmt.Sprintf("%s writes the first 32 bytes of ChaCha20 block 0 for key and nonce to", name),
			fmt.Sprintf("mk and src XORed with blocks 1 on to dst (src at most %d bytes): %d sets of", 64*(blocks-1), blocks/4),
			"ZMM rows side by side.")
	}
	key := Load(Param("key"), GP64()).(GPVirtual)
	nonce := Load(Param("nonce"), GP64()).(GPVirtual)
	r := newRows(isa, blocks, key, nonce, sigma, lanes, ctr)
	cnt := GP64()
	MOVL(U32(10), cnt.As32())
	Label(name + "_loop")
	r.doubleRound(func(f func()) { f() })
	DECL(cnt.As32())
	JNZ(LabelRef(name + "_loop"))
	r.addInput()

	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("src").Base(), GP64())
	n := Load(Param("src").Len(), GP64())
	done := name + "_done"
	r.toBlocks(func(v VecVirtual, off int) {
		if off < first {
			VMOVDQU(v.AsY(), Mem{Base: Load(Param("mk"), GP64())})
			return
		}
		// Blocks come in order; the length is public.
		at := off - first
		partial := fmt.Sprintf("%s_part%d", name, off/64)
		CMPQ(n, U32(at+64))
		JB(LabelRef(partial))
		isa.Xor(Mem{Base: src, Disp: at}, v, v)
		VMOVDQU64(v, Mem{Base: dst, Disp: at})
		next := fmt.Sprintf("%s_full%d", name, off/64)
		JMP(LabelRef(next))
		Label(partial)
		CMPQ(n, U32(at))
		JBE(LabelRef(done))
		t := GP64()
		SUBQ(U32(at), n)
		MOVQ(I32(-1), t)
		BZHIQ(n, t, t)
		KMOVQ(t, K1)
		w := ZMM()
		vec.LoadMasked(Mem{Base: src, Disp: at}, K1, w)
		VPXORD(w, v, v)
		vec.StoreMasked(v, K1, Mem{Base: dst, Disp: at})
		JMP(LabelRef(done))
		Label(next)
	})
	Label(done)
	isa.Return()
}

// toBlocks hands the keystream in the sets, 32 (YMM) or 64 (ZMM) bytes at
// a time, to put with its offset from block 0 of the sets.
func (r *rows) toBlocks(put func(v VecVirtual, off int)) {
	a, b, c, d, tmp := r.a, r.b, r.c, r.d, r.tmp
	if r.isa.W == vec.W256 {
		Comment("Rows to blocks: set s holds blocks 2s (low lanes) and 2s+1 (high).")
		for s := range a {
			for half, imm := range []uint8{0x20, 0x31} {
				blk := 64 * (2*s + half)
				t := tmp[s]
				VPERM2I128(U8(imm), b[s], a[s], t)
				put(t, blk)
				VPERM2I128(U8(imm), d[s], c[s], t)
				put(t, blk+32)
			}
		}
		return
	}
	Comment("Rows to blocks: block 4s+L is lane L of set s's a, b, c and d.")
	for s := range a {
		ab01, cd01, ab23, cd23 := ZMM(), ZMM(), ZMM(), ZMM()
		VSHUFI32X4(U8(0x44), b[s], a[s], ab01) // a0 a1 b0 b1
		VSHUFI32X4(U8(0x44), d[s], c[s], cd01) // c0 c1 d0 d1
		VSHUFI32X4(U8(0xee), b[s], a[s], ab23) // a2 a3 b2 b3
		VSHUFI32X4(U8(0xee), d[s], c[s], cd23) // c2 c3 d2 d3
		for i, src := range [][2]VecVirtual{{ab01, cd01}, {ab01, cd01}, {ab23, cd23}, {ab23, cd23}} {
			imm := U8(0x88) // lanes 0 and 2 of each: a_L b_L c_L d_L for the even block
			if i%2 == 1 {
				imm = U8(0xdd)
			}
			out := ZMM()
			VSHUFI32X4(imm, src[1], src[0], out)
			put(out, 256*s+64*i)
		}
	}
}
