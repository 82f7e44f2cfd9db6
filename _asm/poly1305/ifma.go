package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Radix 2^44: h = h0 + h1·2^44 + h2·2^88, limbs of 44, 44 and 42 bits
// (slightly more between steps). A product's terms at 2^132 and 2^176 fold
// down through 2^132 = 4·2^130 ≡ 20, so with s1 = 20·r1 and s2 = 20·r2
//
//	d0 = h0·r0 + h1·s2 + h2·s1
//	d1 = h0·r1 + h1·r0 + h2·s2
//	d2 = h0·r2 + h1·r1 + h2·r0
//
// Every factor is below 2^52, as VPMADD52LUQ/HUQ require: limbs below 2^45
// after a block is added, s1 below 2^49. Each d_i comes as a low sum (bits
// 0..51 of its products) and a high sum (bits 52..103, worth 2^8 in the
// next limb up; above the top limb, 2^140 = 2^10·2^130 ≡ 5·2^10).
//
// Lane L of a step holds block order[L] of each 8-block group (order is
// 0,4,1,5,2,6,3,7: what VPUNPCKLQDQ of two 4-block loads gives), so each
// lane is an independent Poly1305 over every eighth block, multiplied by
// r^8 per group; the last group multiplies lane L by r^(8-order[L]) instead
// (powers.last, prepared in Go), and the lanes' sum is the accumulator.
//
// The powers table (internal/poly1305.powers, 45 words): last [5][8]uint64, the
// per-lane limbs r0, r1, r2, s1, s2 of those powers, then step [5]uint64,
// the limbs of r^8.
const (
	lastOff = 0
	stepOff = 5 * 64
)

var (
	mask44 Mem
	mask42 Mem
	bit128 Mem // 2^40 in limb 2: the 2^128 of a full block
)

func ifma() {
	mask44 = GLOBL("poly1305_mask44", RODATA|NOPTR)
	DATA(0, U64(1<<44-1))
	mask42 = GLOBL("poly1305_mask42", RODATA|NOPTR)
	DATA(0, U64(1<<42-1))
	bit128 = GLOBL("poly1305_bit128", RODATA|NOPTR)
	DATA(0, U64(1<<40))

	TEXT("blocksIFMA", NOSPLIT, "func(acc *[3]uint64, pw *[45]uint64, msg []byte)")
	Pragma("noescape")
	Doc("blocksIFMA absorbs msg, whose length must be a non-zero multiple of 128,",
		"into acc, eight blocks per step (each with 2^128 added). acc holds h in",
		"radix 2^44, each limb below 2^52, on entry and exit.")
	accp := Load(Param("acc"), GP64())
	pw := Load(Param("pw"), GP64())
	m := Load(Param("msg").Base(), GP64())
	n := Load(Param("msg").Len(), GP64())
	SHRQ(U8(7), n)

	m44, m42, hib := ZMM(), ZMM(), ZMM()
	VPBROADCASTQ(mask44, m44)
	VPBROADCASTQ(mask42, m42)
	VPBROADCASTQ(bit128, hib)

	var step [5]Op
	for i := range step {
		z := ZMM()
		VPBROADCASTQ(Mem{Base: pw, Disp: stepOff + 8*i}, z)
		step[i] = z
	}

	Comment("h enters lane 0 (the group's first block); the other lanes start at 0.")
	var h [3]VecVirtual
	for i := range h {
		h[i] = ZMM()
		VMOVQ(Mem{Base: accp, Disp: 8 * i}, h[i].AsX())
	}
	msgLimbs := loadGroup(m, m44, hib)
	for i := range h {
		VPADDQ(msgLimbs[i], h[i], h[i])
	}
	ADDQ(U32(128), m)
	DECQ(n)
	JZ(LabelRef("ifma_last"))

	Label("ifma_loop")
	Comment("h = h·r^8 + the next group, the group's limbs seeding the low sums.")
	next := loadGroup(m, m44, hib)
	mulReduce(h, step[:], &next, m44, m42)
	ADDQ(U32(128), m)
	DECQ(n)
	JNZ(LabelRef("ifma_loop"))

	Label("ifma_last")
	Comment("Lane L times r^(8-order[L]), then the sum of the lanes.")
	var last [5]Op
	for i := range last {
		last[i] = Mem{Base: pw, Disp: lastOff + 64*i}
	}
	mulReduce(h, last[:], nil, m44, m42)
	for i := range h {
		y, x := YMM(), XMM()
		VEXTRACTI64X4(U8(1), h[i], y)
		VPADDQ(y, h[i].AsY(), y)
		VEXTRACTI128(U8(1), y, x)
		VPADDQ(x, y.AsX(), x)
		x2 := XMM()
		VPSHUFD(U8(0x4e), x, x2)
		VPADDQ(x2, x, x)
		VMOVQ(x, Mem{Base: accp, Disp: 8 * i})
	}
	VZEROUPPER()
	RET()
}

// loadGroup loads 8 blocks from m and returns their limbs: block order[L]
// in lane L, 2^128 included.
func loadGroup(m Register, m44, hib VecVirtual) [3]VecVirtual {
	a, b := ZMM(), ZMM()
	VMOVDQU64(Mem{Base: m}, a)
	VMOVDQU64(Mem{Base: m, Disp: 64}, b)
	lo, hi := ZMM(), ZMM()
	VPUNPCKLQDQ(b, a, lo)
	VPUNPCKHQDQ(b, a, hi)
	l0, l1, l2 := ZMM(), ZMM(), ZMM()
	VPANDQ(m44, lo, l0)
	VPSRLQ(U8(44), lo, l1)
	t := ZMM()
	VPSLLQ(U8(20), hi, t)
	// l1 = (l1 | t) & m44 in one VPTERNLOGQ: with l1, t, m44 as its A, B,
	// C (imm8 bit 4A+2B+C), (A|B)&C sets bits 3, 5 and 7.
	VPTERNLOGQ(U8(0xa8), m44, t, l1)
	VPSRLQ(U8(24), hi, l2)
	VPORQ(hib, l2, l2)
	return [3]VecVirtual{l0, l1, l2}
}

// mulReduce sets h to h·r (r: limbs r0, r1, r2, s1, s2 as registers or
// memory) plus init (three limb vectors, or nil for none), carried so that
// every limb is again below 2^44 + 2^8 (limb 2 below 2^42).
func mulReduce(h [3]VecVirtual, r []Op, init *[3]VecVirtual, m44, m42 VecVirtual) {
	r0, r1, r2, s1, s2 := r[0], r[1], r[2], r[3], r[4]
	var lo, hi [3]VecVirtual
	for i := range lo {
		if init != nil {
			lo[i] = init[i]
		} else {
			lo[i] = ZMM()
			VPXORQ(lo[i], lo[i], lo[i])
		}
		hi[i] = ZMM()
		VPXORQ(hi[i], hi[i], hi[i])
	}
	terms := [3][3]Op{
		{r0, s2, s1},
		{r1, r0, s2},
		{r2, r1, r0},
	}
	for j := range 3 { // h_j's products, so the three sums proceed together
		for i := range 3 {
			VPMADD52LUQ(terms[i][j], h[j], lo[i])
			VPMADD52HUQ(terms[i][j], h[j], hi[i])
		}
	}
	t := ZMM()
	// limb 0
	VPANDQ(m44, lo[0], h[0])
	VPSRLQ(U8(44), lo[0], t)
	VPADDQ(t, lo[1], lo[1])
	VPSLLQ(U8(8), hi[0], t)
	VPADDQ(t, lo[1], lo[1])
	// limb 1
	VPANDQ(m44, lo[1], h[1])
	VPSRLQ(U8(44), lo[1], t)
	VPADDQ(t, lo[2], lo[2])
	VPSLLQ(U8(8), hi[1], t)
	VPADDQ(t, lo[2], lo[2])
	// limb 2 and what lies above 2^130, times 5, back into limb 0
	VPANDQ(m42, lo[2], h[2])
	c := ZMM()
	VPSRLQ(U8(42), lo[2], c)
	VPSLLQ(U8(10), hi[2], t)
	VPADDQ(t, c, c)
	VPSLLQ(U8(2), c, t)
	VPADDQ(t, c, c)
	VPADDQ(c, h[0], h[0])
	// limb 0 may now pass 2^44: one more carry into limb 1
	VPSRLQ(U8(44), h[0], t)
	VPANDQ(m44, h[0], h[0])
	VPADDQ(t, h[1], h[1])
}
