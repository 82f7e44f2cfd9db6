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
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	mulx()
	ifma()
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

	h0, h1, h2 := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: hp}, h0)
	MOVQ(Mem{Base: hp, Disp: 8}, h1)
	MOVQ(Mem{Base: hp, Disp: 16}, h2)
	r0, r1, s1 := Mem{Base: rp}, Mem{Base: rp, Disp: 8}, Mem{Base: rp, Disp: 16}

	Label("mulx_loop")
	Comment("h += block + 2^128")
	ADDQ(Mem{Base: m}, h0)
	ADCQ(Mem{Base: m, Disp: 8}, h1)
	ADCQ(U8(1), h2)

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

	Comment("Keep bits 128 and 129; add 5·(word 2 >> 2) as 4·(w2>>2) + (w2>>2).")
	MOVQ(b1, h2)
	ANDQ(U8(3), h2)
	ANDQ(I8(-4), b1)
	ADDQ(b1, a0)
	ADCQ(U8(0), a1)
	ADCQ(U8(0), h2)
	SHRQ(U8(2), b1)
	ADDQ(b1, a0)
	ADCQ(U8(0), a1)
	ADCQ(U8(0), h2)
	MOVQ(a0, h0)
	MOVQ(a1, h1)

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
