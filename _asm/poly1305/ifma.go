package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
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
// Lane L of a group holds block order[L] of its 8 blocks (order is
// 0,4,1,5,2,6,3,7: what VPUNPCKLQDQ of two 4-block loads gives), so each
// lane is an independent Poly1305 over every eighth block. One chain of
// multiplications is latency-bound (each step waits for the last one's
// carries), so two chains run interleaved: A takes every other group and B
// the ones between, each multiplied by r^16 per step. At the end lane L of
// B is multiplied by r^(8-order[L]), of A by r^(16-order[L]), and the
// lanes' sum is the accumulator. An odd group count first takes one
// single-chain step with r^8.
//
// The powers table (internal/poly1305.powers, 90 words): lastB [5][8]uint64,
// the per-lane limbs r0, r1, r2, s1, s2 of r^(8-order[L]); step8 [5]uint64,
// the limbs of r^8; lastA [5][8]uint64 for r^(16-order[L]); step16 [5]uint64
// for r^16.
const (
	lastBOff  = 0
	step8Off  = 5 * 64
	lastAOff  = step8Off + 5*8
	step16Off = lastAOff + 5*64
)

var (
	mask44 Mem
	mask42 Mem
	bit128 Mem // 2^40 in limb 2: the 2^128 of a full block
)

func ifma() {
	mask44 = vec.Qwords("poly1305_mask44", 8, 1<<44-1)
	mask42 = vec.Qwords("poly1305_mask42", 8, 1<<42-1)
	bit128 = vec.Qwords("poly1305_bit128", 8, 1<<40)

	accp, pw, m, n := blocksHead("blocksIFMA", "*[3]uint64", 7, // groups of eight blocks
		"into acc, sixteen blocks per step in two chains (each block with 2^128",
		"added). acc holds h in radix 2^44, each limb below 2^52, on entry and exit.")

	m44, m42, hib := ZMM(), ZMM(), ZMM()
	VPBROADCASTQ(mask44, m44)
	VPBROADCASTQ(mask42, m42)
	VPBROADCASTQ(bit128, hib)
	broadcast := func(off int) []Op {
		r := make([]Op, 5)
		for i := range r {
			z := ZMM()
			VPBROADCASTQ(Mem{Base: pw, Disp: off + 8*i}, z)
			r[i] = z
		}
		return r
	}
	table := func(off int) []Op {
		r := make([]Op, 5)
		for i := range r {
			r[i] = Mem{Base: pw, Disp: off + 64*i}
		}
		return r
	}

	Comment("A = h (in lane 0, the first block's) + group 0.")
	var a, b [3]VecVirtual
	for i := range a {
		a[i] = ZMM()
		VMOVQ(Mem{Base: accp, Disp: 8 * i}, a[i].AsX())
	}
	g := loadGroup(m, m44, hib)
	for i := range a {
		VPADDQ(g[i], a[i], a[i])
	}
	ADDQ(U32(128), m)
	DECQ(n)
	JZ(LabelRef("ifma_one"))

	Comment("An even number of groups left: one single-chain step first.")
	TESTQ(U32(1), n)
	JNZ(LabelRef("ifma_pair"))
	g = loadGroup(m, m44, hib)
	mulReduce(a, broadcast(step8Off), &g, m44, m42)
	ADDQ(U32(128), m)
	DECQ(n)

	Label("ifma_pair")
	Comment("B = the next group; then A and B advance by two groups per step.")
	b = loadGroup(m, m44, hib)
	ADDQ(U32(128), m)
	DECQ(n)
	JZ(LabelRef("ifma_two"))
	step16 := broadcast(step16Off)

	Label("ifma_loop")
	ga := loadGroup(m, m44, hib)
	gb := loadGroup(m, m44, hib, 128)
	mulReduce(a, step16, &ga, m44, m42)
	mulReduce(b, step16, &gb, m44, m42)
	ADDQ(U32(256), m)
	SUBQ(U8(2), n)
	JNZ(LabelRef("ifma_loop"))

	Label("ifma_two")
	Comment("A's lane L times r^(16-order[L]), B's times r^(8-order[L]).")
	mulReduce(a, table(lastAOff), nil, m44, m42)
	mulReduce(b, table(lastBOff), nil, m44, m42)
	for i := range a {
		VPADDQ(b[i], a[i], a[i])
	}
	JMP(LabelRef("ifma_sum"))

	Label("ifma_one")
	Comment("A single group: lane L times r^(8-order[L]).")
	mulReduce(a, table(lastBOff), nil, m44, m42)

	Label("ifma_sum")
	Comment("The sum of the lanes.")
	for i := range a {
		sumLanes(a[i], Mem{Base: accp, Disp: 8 * i})
	}
	VZEROUPPER()
	RET()
}

// loadGroup loads 8 blocks from m and returns their limbs: block order[L]
// in lane L, 2^128 included.
func loadGroup(m Register, m44, hib VecVirtual, disp ...int) [3]VecVirtual {
	d := 0
	if len(disp) > 0 {
		d = disp[0]
	}
	a, b := ZMM(), ZMM()
	VMOVDQU64(Mem{Base: m, Disp: d}, a)
	VMOVDQU64(Mem{Base: m, Disp: d + 64}, b)
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
			VPXORQ(m44, m44, lo[i]) // zero, reading only a live register
		}
		hi[i] = ZMM()
		VPXORQ(m44, m44, hi[i])
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
