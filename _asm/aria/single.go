package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// CBC encryption is a serial chain: each block needs the previous one's
// ciphertext, so the byte-sliced kernels cannot help. ariaCBCEncrypt1
// encrypts one block at a time, the block whole in one XMM register:
//
//   - the substitution layer computes SB1 and SB2 of all 16 bytes (one
//     GF2P8AFFINEINVQB each) and the pre-inversion affine maps of SB3 and
//     SB4 (one GF2P8AFFINEQB each), blends the latter two by byte position
//     and inverts them together (GF2P8AFFINEINVQB with the identity), then
//     blends the forward and inverse halves by position; the AES-NI
//     variant does the same with one AESENCLAST and one AESDECLAST;
//   - the diffusion layer A, whose rows each have seven ones, is the XOR of
//     seven byte permutations of the block (a 7-regular bipartite graph
//     splits into seven perfect matchings), seven PSHUFBs and six XORs.
//
// Constant-time like the wide kernels, and a serial round costs about 20
// cycles of latency instead of the portable code's table walks.

// diffusionMatrix returns A as row sets: a[i] has bit j when output byte i
// includes input byte j. It is built from the same W∘P∘W∘M factorisation
// the wide kernels run, applied to each unit vector.
func diffusionMatrix() [16]uint16 {
	apply := func(x [16]uint16) [16]uint16 {
		m := func(x [16]uint16, idx func(g, k int) int) [16]uint16 {
			var y [16]uint16
			for g := 0; g < 4; g++ {
				var s uint16
				for k := 0; k < 4; k++ {
					s ^= x[idx(g, k)]
				}
				for k := 0; k < 4; k++ {
					y[idx(g, k)] = s ^ x[idx(g, k)]
				}
			}
			return y
		}
		inWord := func(g, k int) int { return 4*g + k }
		acrossWords := func(g, k int) int { return g + 4*k }
		wordMix := func(x [16]uint16) [16]uint16 {
			y := m(x, acrossWords) // y(T_k) = XOR of the other three words
			// W's outputs: T0' = y3, T1' = y1, T2' = y2, T3' = y0.
			var z [16]uint16
			for j := 0; j < 4; j++ {
				z[j], z[4+j], z[8+j], z[12+j] = y[12+j], y[4+j], y[8+j], y[j]
			}
			return z
		}
		x = m(x, inWord)
		x = wordMix(x)
		perm := [16]int{0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12}
		var p [16]uint16
		for i, f := range perm {
			p[i] = x[f]
		}
		return wordMix(p)
	}
	var unit [16]uint16
	for j := range unit {
		unit[j] = 1 << j
	}
	return apply(unit)
}

// matchings splits the rows of a (each with the same number of ones, and
// so each column too) into perfect matchings: perm[k][i] is the input byte
// that output byte i takes in permutation k.
func matchings(a [16]uint16) [][16]int {
	var perms [][16]int
	for a[0] != 0 {
		var colOwner [16]int
		for j := range colOwner {
			colOwner[j] = -1
		}
		var try func(i int, seen *[16]bool) bool
		try = func(i int, seen *[16]bool) bool {
			for j := 0; j < 16; j++ {
				if a[i]>>j&1 == 0 || seen[j] {
					continue
				}
				seen[j] = true
				if colOwner[j] < 0 || try(colOwner[j], seen) {
					colOwner[j] = i
					return true
				}
			}
			return false
		}
		for i := 0; i < 16; i++ {
			var seen [16]bool
			if !try(i, &seen) {
				panic("aria generator: no perfect matching in the diffusion matrix")
			}
		}
		var p [16]int
		for j, i := range colOwner {
			p[i] = j
			a[i] &^= 1 << j
		}
		perms = append(perms, p)
	}
	return perms
}

// byteMask returns a 16-byte constant with 0xff at positions i where
// pick(i mod 4) holds, for VPBLENDVB.
func byteMask(name string, pick func(int) bool) Mem {
	var q [2]uint64
	for i := 0; i < 16; i++ {
		if pick(i % 4) {
			q[i/8] |= 0xff << (8 * (i % 8))
		}
	}
	return qwords(name, q[0], q[1])
}

// oneBlock holds the constants of the one-block kernels.
type oneBlock struct {
	perms             []Mem // the seven byte permutations of A
	pos1, pos3, pos23 Mem   // VPBLENDVB masks by byte position mod 4
}

func oneBlockConstants() oneBlock {
	perms := matchings(diffusionMatrix())
	if len(perms) != 7 {
		panic(fmt.Sprintf("aria generator: diffusion split into %d permutations, want 7", len(perms)))
	}
	var permMem []Mem
	for k, p := range perms {
		var q [2]uint64
		for i, j := range p {
			q[i/8] |= uint64(j) << (8 * (i % 8))
		}
		permMem = append(permMem, qwords(fmt.Sprintf("ariaDiffusion%d", k), q[0], q[1]))
	}
	return oneBlock{
		perms: permMem,
		pos1:  byteMask("ariaBytePos1", func(p int) bool { return p == 1 }),
		pos3:  byteMask("ariaBytePos3", func(p int) bool { return p == 3 }),
		pos23: byteMask("ariaBytePos23", func(p int) bool { return p >= 2 }),
	}
}

// affine1 returns lo[b&15] ⊕ hi[b>>4] for each byte b of src.
func affine1(src reg.VecVirtual, lo, hi Mem) reg.VecVirtual {
	t, u, d := XMM(), XMM(), XMM()
	emitNibbleAffine(src, d, t, u, lo, hi)
	return d
}

// cbcEncrypt1 emits ariaCBCEncrypt1 (S-boxes by GFNI) or, with aesni,
// ariaCBCEncrypt1AESNI (S-boxes by AESENCLAST/AESDECLAST and the affine
// map L of the wide AES-NI kernel: SB2 = L∘SB1, SB4 = SB3∘L⁻¹).
func cbcEncrypt1(c oneBlock, aesni bool) {
	name := "ariaCBCEncrypt1"
	if aesni {
		name += "AESNI"
	}
	permMem, pos1, pos3, pos23 := c.perms, c.pos1, c.pos3, c.pos23
	TEXT(name, NOSPLIT, "func(rk *[272]byte, rounds int, dst, src []byte, iv *[16]byte)")
	Pragma("noescape")
	Doc(name+" CBC-encrypts len(src)/16 blocks one at a time with the",
		"round keys rk (ek1..ek(n+1) as 16-byte blocks), chaining from *iv and",
		"leaving the last ciphertext block there. len(dst) >= len(src).")
	rk := Load(Param("rk"), GP64())
	rounds := Load(Param("rounds"), GP64())
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("src").Base(), GP64())
	n := Load(Param("src").Len(), GP64())
	ivp := Load(Param("iv"), GP64())

	x := XMM()
	VMOVDQU(Mem{Base: ivp}, x)
	m1, m3, m23 := XMM(), XMM(), XMM()
	VMOVDQU(pos1, m1)
	VMOVDQU(pos3, m3)
	VMOVDQU(pos23, m23)

	// substitute applies SL1 (odd) or SL2 to x.
	substitute := func(odd bool) {
		// SL1 is SB1, SB2, SB3, SB4 by position mod 4; SL2 is SB3, SB4,
		// SB1, SB2. VPBLENDVB takes its second operand where the mask is set.
		fwdSecond, invSecond := m1, m3
		if !odd {
			fwdSecond, invSecond = m3, m1
		}
		a, p := XMM(), XMM()
		if aesni {
			VPSHUFB(constInvShiftRows, x, a)
			VAESENCLAST(constZero, a, a) // SB1
			b := affine1(a, constSB2PostLo, constSB2PostHi)
			q := affine1(x, constSB4PreLo, constSB4PreHi)
			VPBLENDVB(fwdSecond, b, a, a) // SB1, then SB2 where the mask says
			VPBLENDVB(invSecond, q, x, p) // SB4's inputs through L⁻¹
			VPSHUFB(constShiftRows, p, p)
			VAESDECLAST(constZero, p, p) // SB3 / SB4
		} else {
			b, q := XMM(), XMM()
			VGF2P8AFFINEINVQB(U8(cSB1), constSB1, x, a)
			VGF2P8AFFINEINVQB(U8(cSB2), constSB2, x, b)
			VGF2P8AFFINEQB(U8(cSB3Pre), constSB1Inv, x, p)
			VGF2P8AFFINEQB(U8(cSB4Pre), constSB2Inv, x, q)
			VPBLENDVB(fwdSecond, b, a, a) // SB1, then SB2 where the mask says
			VPBLENDVB(invSecond, q, p, p)
			VGF2P8AFFINEINVQB(U8(0), constIdent, p, p) // SB3 / SB4
		}
		if odd {
			VPBLENDVB(m23, p, a, x) // positions 2, 3 from the inverse half
		} else {
			VPBLENDVB(m23, a, p, x)
		}
	}
	diffuse := func() {
		var t [7]reg.VecVirtual
		for k := range t {
			t[k] = XMM()
			VPSHUFB(permMem[k], x, t[k])
		}
		VPXOR(t[1], t[0], t[0])
		VPXOR(t[3], t[2], t[2])
		VPXOR(t[5], t[4], t[4])
		VPXOR(t[6], t[0], t[0])
		VPXOR(t[4], t[2], t[2])
		VPXOR(t[2], t[0], x)
	}
	addKey := func(r reg.Register, disp int) { VPXOR(Mem{Base: r, Disp: disp}, x, x) }

	Label("cbc1_block")
	CMPQ(n, U8(16))
	JB(LabelRef("cbc1_done"))
	VPXOR(Mem{Base: src}, x, x)
	// Rounds 1..n-1 in (odd, even) pairs, then round n-1 and the last.
	k := GP64()
	MOVQ(rk, k)
	pairs := GP64()
	MOVQ(rounds, pairs)
	SUBQ(U8(2), pairs)
	SHRQ(U8(1), pairs)
	Label("cbc1_pair")
	addKey(k, 0)
	substitute(true)
	diffuse()
	addKey(k, 16)
	substitute(false)
	diffuse()
	ADDQ(U8(32), k)
	DECQ(pairs)
	JNZ(LabelRef("cbc1_pair"))
	addKey(k, 0)
	substitute(true)
	diffuse()
	addKey(k, 16)
	substitute(false)
	addKey(k, 32)
	VMOVDQU(x, Mem{Base: dst})
	ADDQ(U8(16), src)
	ADDQ(U8(16), dst)
	SUBQ(U8(16), n)
	JMP(LabelRef("cbc1_block"))

	Label("cbc1_done")
	VMOVDQU(x, Mem{Base: ivp})
	RET()
}
