package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// The avx2 path: four blocks per step, one per 64-bit lane of a YMM
// register, in radix 2^26 (five limbs; VPMULUDQ multiplies the low 32
// bits of each lane into 64). With s_i = 5·r_i (2^130 ≡ 5):
//
//	d0 = h0·r0 + h1·s4 + h2·s3 + h3·s2 + h4·s1
//	d1 = h0·r1 + h1·r0 + h2·s4 + h3·s3 + h4·s2
//	d2 = h0·r2 + h1·r1 + h2·r0 + h3·s4 + h4·s3
//	d3 = h0·r3 + h1·r2 + h2·r1 + h3·r0 + h4·s4
//	d4 = h0·r4 + h1·r3 + h2·r2 + h3·r1 + h4·r0
//
// Limbs stay below 2^27 and r's (partially reduced powers) below 2^27, so
// each sum is below 2^60. Lane L holds block order[L] = 0,2,1,3 of each
// 4-block group (VPUNPCKLQDQ of two 2-block loads); every step multiplies
// by r^4, the last by r^(4-order[L]) in lane L, and the lanes' sum is the
// accumulator. With 16 registers, the powers are read from memory as full
// vectors.
//
// The table (internal/poly1305.powers): last [9][4]uint64, the per-lane
// r0..r4, s1..s4 of r^(4-order[L]), then step [9][4]uint64, those of r^4
// in every lane.
const (
	avx2LastOff = 0
	avx2StepOff = 9 * 32
)

var (
	mask26  Mem
	bit128b Mem // 2^24 in limb 4: a full block's 2^128
)

func avx2() {
	mask26 = vec.Qwords("poly1305_mask26", 8, 1<<26-1)
	bit128b = vec.Qwords("poly1305_bit128_26", 8, 1<<24)

	accp, pw, m, n := blocksHead("blocksAVX2", "*[5]uint64", 6, // four blocks a step
		"into acc, four blocks per step (each with 2^128 added). acc holds h in",
		"radix 2^26, each limb below 2^27, on entry and exit.")

	m26, hib := YMM(), YMM()
	VPBROADCASTQ(mask26, m26)
	VPBROADCASTQ(bit128b, hib)

	Comment("h enters lane 0 (the first block's); the other lanes start at 0.")
	var h [5]VecVirtual
	g := loadGroup26(m, m26, hib)
	for i := range h {
		h[i] = YMM()
		VMOVQ(Mem{Base: accp, Disp: 8 * i}, h[i].AsX())
		VPADDQ(g[i], h[i], h[i])
	}
	ADDQ(U8(64), m)
	DECQ(n)
	JZ(LabelRef("avx2_last"))

	Label("avx2_loop")
	Comment("h = h·r^4 + the next group, the group's limbs seeding the sums.")
	g = loadGroup26(m, m26, hib)
	mulReduce26(h, pw, avx2StepOff, &g, m26)
	ADDQ(U8(64), m)
	DECQ(n)
	JNZ(LabelRef("avx2_loop"))

	Label("avx2_last")
	Comment("Lane L times r^(4-order[L]), then the sum of the lanes.")
	mulReduce26(h, pw, avx2LastOff, nil, m26)
	for i := range h {
		sumLanes(h[i], Mem{Base: accp, Disp: 8 * i})
	}
	VZEROUPPER()
	RET()
}

// loadGroup26 loads 4 blocks from m and returns their radix-2^26 limbs,
// block order[L] in lane L, 2^128 included.
func loadGroup26(m Register, m26, hib VecVirtual) [5]VecVirtual {
	a, b := YMM(), YMM()
	VMOVDQU(Mem{Base: m}, a)
	VMOVDQU(Mem{Base: m, Disp: 32}, b)
	lo, hi := YMM(), YMM()
	VPUNPCKLQDQ(b, a, lo)
	VPUNPCKHQDQ(b, a, hi)
	var l [5]VecVirtual
	for i := range l {
		l[i] = YMM()
	}
	VPAND(m26, lo, l[0])
	VPSRLQ(U8(26), lo, l[1])
	VPAND(m26, l[1], l[1])
	VPSRLQ(U8(52), lo, l[2])
	t := YMM()
	VPSLLQ(U8(12), hi, t)
	VPOR(t, l[2], l[2])
	VPAND(m26, l[2], l[2])
	VPSRLQ(U8(14), hi, l[3])
	VPAND(m26, l[3], l[3])
	VPSRLQ(U8(40), hi, l[4])
	VPOR(hib, l[4], l[4])
	return l
}

// mulReduce26 sets h to h·r (r's nine vectors at pw+off: r0..r4, s1..s4)
// plus init (or nothing), carried so that every limb is below 2^26 + 2^6.
func mulReduce26(h [5]VecVirtual, pw Register, off int, init *[5]VecVirtual, m26 VecVirtual) {
	vec := func(i int) Mem { return Mem{Base: pw, Disp: off + 32*i} }
	r := func(i int) Mem { return vec(i) }
	s := func(i int) Mem { return vec(4 + i) } // s1..s4 at 5..8
	// terms[i][j] multiplies h_j into d_i.
	terms := [5][5]Mem{
		{r(0), s(4), s(3), s(2), s(1)},
		{r(1), r(0), s(4), s(3), s(2)},
		{r(2), r(1), r(0), s(4), s(3)},
		{r(3), r(2), r(1), r(0), s(4)},
		{r(4), r(3), r(2), r(1), r(0)},
	}
	var d [5]VecVirtual
	for i := range d {
		t := YMM()
		if init != nil {
			d[i] = init[i]
			VPMULUDQ(terms[i][0], h[0], t)
			VPADDQ(t, d[i], d[i])
		} else {
			d[i] = YMM()
			VPMULUDQ(terms[i][0], h[0], d[i])
		}
		for j := 1; j < 5; j++ {
			VPMULUDQ(terms[i][j], h[j], t)
			VPADDQ(t, d[i], d[i])
		}
	}
	c := YMM()
	carry := func(from, to int) {
		VPSRLQ(U8(26), d[from], c)
		VPAND(m26, d[from], d[from])
		if from == 4 { // 2^130 ≡ 5
			VPADDQ(c, d[to], d[to])
			VPSLLQ(U8(2), c, c)
		}
		VPADDQ(c, d[to], d[to])
	}
	carry(0, 1)
	carry(3, 4)
	carry(1, 2)
	carry(4, 0)
	carry(2, 3)
	carry(0, 1)
	carry(3, 4)
	for i := range h {
		VMOVDQA(d[i], h[i])
	}
}
