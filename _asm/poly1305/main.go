// Command poly1305 generates internal/poly1305/poly1305_amd64.s: the
// Poly1305 block kernels of the mulx and ifma paths.
//
// mulx absorbs one 16-byte block per step in three 64-bit limbs. r1 is a
// multiple of 4 after clamping, so the product's terms at 2^128 and above
// fold down through 2^130 ≡ 5 with s1 = r1 + r1/4 as multiplier; the four
// 64×64 products come from MULX (no flags, free choice of destinations) and
// are summed in two independent carry chains, CF with ADCX and OF with ADOX.
//
// ifma absorbs eight blocks per step, one per 64-bit lane, in radix 2^44
// (limbs of 44, 44 and 42 bits), where VPMADD52LUQ and VPMADD52HUQ give the
// low and high 52 bits of a limb product added to an accumulator; see
// ifma.go.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	mulx()
	ifma()
	powers()
	avx2()
	powersAVX2()
	Generate()
}

// mulx emits blocksMULX.
func mulx() {
	TEXT("blocksMULX", NOSPLIT, "func(h *[3]uint64, r *[3]uint64, msg []byte)")
	Pragma("noescape")
	Doc("blocksMULX absorbs the whole 16-byte blocks of msg into h, each with",
		"2^128 added, multiplying by r after each; r holds r0, r1 and",
		"s1 = r1 + r1/4. len(msg) must be a multiple of 16. h stays below",
		"2^130 + 2^66 on entry and exit.")
	hp := Load(Param("h"), GP64())
	rp := Load(Param("r"), GP64())
	m := Load(Param("msg").Base(), GP64())
	n := Load(Param("msg").Len(), GP64())
	SHRQ(U8(4), n)
	JZ(LabelRef("mulx_done"))

	var h0, h1, h2 GPVirtual = GP64(), GP64(), GP64()
	MOVQ(Mem{Base: hp}, h0)
	MOVQ(Mem{Base: hp, Disp: 8}, h1)
	MOVQ(Mem{Base: hp, Disp: 16}, h2)
	r0, r1, s1 := Mem{Base: rp}, Mem{Base: rp, Disp: 8}, Mem{Base: rp, Disp: 16}

	Label("mulx_loop")
	Comment("h += block + 2^128")
	ADDQ(Mem{Base: m}, h0)
	ADCQ(Mem{Base: m, Disp: 8}, h1)
	ADCQ(U8(1), h2)

	mulStep(h0, h1, h2, r0, r1, s1)

	ADDQ(U8(16), m)
	DECQ(n)
	JNZ(LabelRef("mulx_loop"))

	Comment("The pointer to h was given up to the loop; load it again.")
	hp = Load(Param("h"), GP64())
	MOVQ(h0, Mem{Base: hp})
	MOVQ(h1, Mem{Base: hp, Disp: 8})
	MOVQ(h2, Mem{Base: hp, Disp: 16})
	Label("mulx_done")
	RET()
}

// mulStep sets (h0, h1, h2) to h·r, partially reduced (below 2^130 + 2^66),
// for h below 2^131; r0, r1 and s1 = r1 + r1/4 are memory operands.
func mulStep(h0, h1, h2 GPVirtual, r0, r1, s1 Mem) {
	Comment("The products: word 0 gets h0·r0 + h1·s1, word 1 their high halves",
		"and h1·r0 + h0·r1 + h2·s1, word 2 the high halves and h2·r0 (h2 < 8, so",
		"the h2 products fit in 64 bits). r's words are read from memory: the",
		"registers are all taken.")
	a0, a1, b0, b1, c0, c1, e0, e1, t2 := GP64(), GP64(), GP64(), GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	MOVQ(h0, RDX)
	MULXQ(r0, a0, a1)
	MULXQ(r1, e0, e1)
	MOVQ(h1, RDX)
	MULXQ(r0, b0, b1)
	MULXQ(s1, c0, c1)
	MOVQ(h2, t2)
	IMULQ(r0, t2)
	IMULQ(s1, h2)

	Comment("Sum in two carry chains; XOR clears CF and OF and leaves DX zero.")
	XORL(EDX, EDX)
	ADCXQ(c0, a0)  // word 0, CF → word 1
	ADOXQ(b0, a1)  // word 1, OF → word 2
	ADCXQ(c1, a1)  // word 1, CF → word 2
	ADOXQ(e1, b1)  // word 2 takes OF; cannot carry out
	ADCXQ(t2, b1)  // word 2 takes CF; cannot carry out
	ADCXQ(e0, a1)  // word 1, CF → word 2
	ADOXQ(h2, a1)  // word 1 += h2·s1, OF → word 2
	ADCXQ(RDX, b1) // the last two carries
	ADOXQ(RDX, b1)

	Comment("Keep bits 128 and 129; add 5·(w2>>2) = 4·(w2>>2) + (w2>>2), summed",
		"first (w2 < 2^63, so the sum fits) to keep one carry chain.")
	MOVQ(b1, h2)
	ANDQ(U8(3), h2)
	MOVQ(b1, t2)
	SHRQ(U8(2), t2)
	ANDQ(I8(-4), b1)
	ADDQ(t2, b1)
	ADDQ(b1, a0)
	ADCQ(U8(0), a1)
	ADCQ(U8(0), h2)
	MOVQ(a0, h0)
	MOVQ(a1, h1)

}

// powers emits powersIFMA: r^1..r^8 by seven mulSteps, each split into
// radix 2^44 and stored where the ifma kernel reads it.
func powers() {
	TEXT("powersIFMA", NOSPLIT, "func(pw *[90]uint64, r *[3]uint64)")
	Pragma("noescape")
	Doc("powersIFMA fills pw (see blocksIFMA) from r = r0, r1, s1: for lane L the",
		"limbs r0, r1, r2, 20·r1, 20·r2 of r^(8-order[L]), then those of r^8, by",
		"scalar steps; then r^(16-order[L]) and r^16 by one vector multiplication.",
		"The powers are partially reduced: the top limb stays below 2^43, the",
		"others below 2^44 + 2^8.")
	pw := Load(Param("pw"), GP64())
	scalarPowers([]int{0, 4, 1, 5, 2, 6, 3, 7}, func(k, lane int, h0, h1, h2 GPVirtual) {
		l0, l1, l2, t := GP64(), GP64(), GP64(), GP64()
		MOVQ(U64(1<<44-1), t)
		MOVQ(h0, l0)
		ANDQ(t, l0)
		MOVQ(h0, l1)
		SHRQ(U8(44), h1, l1) // (h0 >> 44) | (h1 << 20)
		ANDQ(t, l1)
		MOVQ(h1, l2)
		SHRQ(U8(24), h2, l2) // (h1 >> 24) | (h2 << 40)
		limbs := []GPVirtual{l0, l1, l2}
		store := func(base, stride int) {
			for i, l := range limbs {
				MOVQ(l, Mem{Base: pw, Disp: 8 * (base + i*stride)})
			}
			for i, l := range limbs[1:] {
				x := GP64()
				IMUL3Q(U8(20), l, x)
				MOVQ(x, Mem{Base: pw, Disp: 8 * (base + (3+i)*stride)})
			}
		}
		store(lane, 8)
		if k == 8 {
			store(step8Off/8, 1)
		}
	})

	Comment("r^(16-order[L]) = r^(8-order[L]) · r^8, lane by lane; lane 0 is r^16.")
	m44, m42 := ZMM(), ZMM()
	VPBROADCASTQ(mask44, m44)
	VPBROADCASTQ(mask42, m42)
	var h [3]VecVirtual
	for i := range h {
		h[i] = ZMM()
		VMOVDQU64(Mem{Base: pw, Disp: lastBOff + 64*i}, h[i])
	}
	r8 := make([]Op, 5)
	for i := range r8 {
		z := ZMM()
		VPBROADCASTQ(Mem{Base: pw, Disp: step8Off + 8*i}, z)
		r8[i] = z
	}
	mulReduce(h, r8, nil, m44, m42)
	limbs := []VecVirtual{h[0], h[1], h[2], ZMM(), ZMM()}
	for i, src := range h[1:] { // 20x = 16x + 4x
		t := ZMM()
		VPSLLQ(U8(2), src, t)
		VPSLLQ(U8(4), src, limbs[3+i])
		VPADDQ(t, limbs[3+i], limbs[3+i])
	}
	for i, l := range limbs {
		VMOVDQU64(l, Mem{Base: pw, Disp: lastAOff + 64*i})
		VMOVQ(l.AsX(), Mem{Base: pw, Disp: step16Off + 8*i})
	}
	VZEROUPPER()
	RET()
}

// powersAVX2 emits powersAVX2: r^1..r^4 by mulSteps, each split into
// radix 2^26 with the 5× multiples, where blocksAVX2 reads them.
func powersAVX2() {
	TEXT("powersAVX2", NOSPLIT, "func(pw *[90]uint64, r *[3]uint64)")
	Pragma("noescape")
	Doc("powersAVX2 fills pw (see blocksAVX2) from r = r0, r1, s1: for lane L the",
		"limbs r0..r4 and 5·r1..5·r4 of r^(4-order[L]), then those of r^4 in all",
		"four lanes. The powers are partially reduced: the top limb stays below",
		"2^27, the others below 2^26.")
	pw := Load(Param("pw"), GP64())
	scalarPowers([]int{0, 2, 1, 3}, func(k, lane int, h0, h1, h2 GPVirtual) {
		var limbs [5]GPVirtual
		for i := range limbs {
			limbs[i] = GP64()
		}
		MOVQ(h0, limbs[0])
		MOVQ(h0, limbs[1])
		SHRQ(U8(26), limbs[1])
		MOVQ(h0, limbs[2])
		SHRQ(U8(52), h1, limbs[2]) // (h0 >> 52) | (h1 << 12)
		MOVQ(h1, limbs[3])
		SHRQ(U8(14), limbs[3])
		MOVQ(h1, limbs[4])
		SHRQ(U8(40), h2, limbs[4]) // (h1 >> 40) | (h2 << 24)
		for i := range 4 {
			ANDQ(U32(1<<26-1), limbs[i])
		}
		stores := func(base int, lanes []int) {
			for _, l := range lanes {
				for i, x := range limbs {
					MOVQ(x, Mem{Base: pw, Disp: base + 32*i + 8*l})
				}
			}
			for i, x := range limbs[1:] {
				t := GP64()
				LEAQ(Mem{Base: x, Index: x, Scale: 4}, t)
				for _, l := range lanes {
					MOVQ(t, Mem{Base: pw, Disp: base + 32*(5+i) + 8*l})
				}
			}
		}
		stores(avx2LastOff, []int{lane})
		if k == 4 {
			stores(avx2StepOff, []int{0, 1, 2, 3})
		}
	})
	RET()
}

// scalarPowers computes r^1..r^len(order) in scalar registers h0, h1, h2
// (r = r0, r1, s1 at the pointer parameter r) by mulSteps and hands each
// power r^k to store with the lane that holds it: lane L holds
// r^(len(order)-order[L]).
func scalarPowers(order []int, store func(k, lane int, h0, h1, h2 GPVirtual)) {
	rp := Load(Param("r"), GP64())
	r0, r1, s1 := Mem{Base: rp}, Mem{Base: rp, Disp: 8}, Mem{Base: rp, Disp: 16}
	var h0, h1, h2 GPVirtual = GP64(), GP64(), GP64()
	MOVQ(r0, h0)
	MOVQ(r1, h1)
	XORL(h2.As32(), h2.As32())
	for k := 1; k <= len(order); k++ {
		if k > 1 {
			mulStep(h0, h1, h2, r0, r1, s1)
		}
		lane := 0
		for l, b := range order {
			if len(order)-b == k {
				lane = l
			}
		}
		Commentf("r^%d: lane %d", k, lane)
		store(k, lane, h0, h1, h2)
	}
}

// sumLanes stores at dst the sum of the 64-bit lanes of v (YMM or ZMM),
// folding halves: 512 to 256 bits, 256 to 128, then the two quadwords.
func sumLanes(v VecVirtual, dst Mem) {
	if v.Size() == 64 {
		y := YMM()
		VEXTRACTI64X4(U8(1), v, y)
		VPADDQ(y, v.AsY(), y)
		v = y
	}
	x := XMM()
	VEXTRACTI128(U8(1), v, x)
	VPADDQ(x, v.AsX(), x)
	x2 := XMM()
	VPSHUFD(U8(0x4e), x, x2)
	VPADDQ(x2, x, x)
	VMOVQ(x, dst)
}

// blocksHead opens a vector blocks kernel, func(acc, pw *[90]uint64, msg
// []byte) with acc of type accType, and loads its pointers, the message's
// base and in n its number of steps: its length >> stepShift, one step
// absorbing 1<<stepShift bytes. The doc comment starts with that length
// rule; doc goes on from there.
func blocksHead(name, accType string, stepShift uint8, doc ...string) (acc, pw, m, n GPVirtual) {
	TEXT(name, NOSPLIT, "func(acc "+accType+", pw *[90]uint64, msg []byte)")
	Pragma("noescape")
	Doc(append([]string{fmt.Sprintf("%s absorbs msg, whose length must be a non-zero multiple of %d,", name, 1<<stepShift)}, doc...)...)
	acc = Load(Param("acc"), GP64()).(GPVirtual)
	pw = Load(Param("pw"), GP64()).(GPVirtual)
	m = Load(Param("msg").Base(), GP64()).(GPVirtual)
	n = Load(Param("msg").Len(), GP64()).(GPVirtual)
	SHRQ(U8(stepShift), n)
	return acc, pw, m, n
}
