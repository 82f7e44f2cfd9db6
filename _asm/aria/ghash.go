package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// GHASH stitched into the 64-block CTR kernel, for ARIA-GCM.
//
// ARIA's rounds keep the GFNI and vector logic units busy and leave the
// carry-less multiplier idle, while a separate GHASH pass is bound by that
// multiplier (on Zen 5 one VPCLMULQDQ issues every two cycles at any
// width). Between rounds the kernel folds the 64 blocks at gsrc into the
// GHASH state *y: for Seal the previous batch's ciphertext, for Open this
// batch's (read before any store of this batch).
//
// The arithmetic is gcm's (see _asm/gcm): POLYVAL form (blocks
// byte-reversed), the key powers h^32..h^1 at hk (gcm's hashKey.pow, 512
// bytes, highest first), the 256-bit products of a 32-block half added
// unreduced and reduced once by two multiplications by x^63+x^62+x^57.
// Here the products are schoolbook (four multiplications per vector, no
// Karatsuba middle operand): the multiplier has room to spare, while the
// two extra logic instructions per vector Karatsuba needs would compete
// with ARIA's. The first half's state goes through *y into the second
// half's first vector.
//
// Registers: the pool has 9 free between rounds, and the diffusion layer
// needs all but one of them, so the partial sums of a half live in a 192-
// byte stack area from one gap to the next; Z31 holds the byte-reversal
// mask.

var ghashDoc = []string{
	"Between the rounds it folds the 64 blocks at gsrc into the GHASH state *y (POLYVAL form)",
	"under the key powers at hk (gcm's hashKey: h^32..h^1, 16 bytes each), two reductions per call.",
}

const karatsuba = true

var constGHASHBswap, constGHASHPoly Mem

// ghashStitch is the GHASH work of one stitched kernel.
type ghashStitch struct {
	s             *slices
	hk, yp, gsrc  reg.Register
	sums          reg.Register // lo, mid, hi partial sums of the half, 64 bytes each
	bswap         reg.VecPhysical
	plan          [11][]int // vectors (0..15) done in the gap after each round
	reduceAfter   [16]bool  // the half ends with this vector: reduce in its gap
	firstOfHalf   [16]bool  // no partial sums stored yet
	accumulateTop [16]bool  // the vector that takes in the running state
}

func newGHASHStitch(s *slices) *ghashStitch {
	if constGHASHBswap.Symbol.Name == "" {
		constGHASHBswap = qwords("ariaGHASHBswap", 0x08090a0b0c0d0e0f, 0x0001020304050607)
		constGHASHPoly = qwords("ariaGHASHPoly", 0, 0xc200000000000000)
	}
	g := &ghashStitch{s: s, bswap: s.w.Reg(31)}
	g.hk = Load(Param("hk"), GP64())
	g.yp = Load(Param("y"), GP64())
	g.gsrc = Load(Param("gsrc"), GP64())
	g.sums = allocSums()
	s.w.Load(constGHASHBswap, g.bswap)
	// Each half: vectors 1..7 of it, then vector 0, which takes in the
	// running state, so that the others need not wait for the previous
	// reduction. The 16 vectors spread evenly over the 11 gaps, and no
	// gap holds vectors of both halves.
	k := 0
	for h := 0; h < 2; h++ {
		for i, j := range []int{1, 2, 3, 4, 5, 6, 7, 0} {
			v := 8*h + j
			gap := k * len(g.plan) / 16
			if i == 0 && len(g.plan[gap]) > 0 {
				panic("aria generator: a GHASH gap spans both halves")
			}
			g.firstOfHalf[v] = i == 0
			g.plan[gap] = append(g.plan[gap], v)
			k++
		}
		g.reduceAfter[8*h] = true
		g.accumulateTop[8*h] = true
	}
	return g
}

// allocSums reserves the stack area of the partial sums, 64-byte aligned.
func allocSums() reg.Register {
	buf := AllocLocal(3*64 + 64)
	p := GP64()
	LEAQ(buf, p)
	ADDQ(U32(63), p)
	ANDQ(I32(-64), p)
	return p
}

func (g *ghashStitch) sum(k int) Mem { return Mem{Base: g.sums, Disp: 64 * k} }

// gap emits the GHASH work planned after round r.
func (g *ghashStitch) gap(r int) {
	vs := g.plan[r]
	if len(vs) == 0 {
		return
	}
	Commentf("GHASH of vectors %v", vs)
	s := g.s
	var d []reg.VecPhysical
	for _, v := range vs {
		x := s.alloc()
		VMOVDQU64(Mem{Base: g.gsrc, Disp: 64 * v}, x)
		VPSHUFB(g.bswap, x, x)
		if g.accumulateTop[v] {
			t := s.alloc()
			VMOVDQU64(Mem{Base: g.yp}, t.AsX()) // upper lanes zeroed
			VPXORQ(t, x, x)
			s.release(t)
		}
		d = append(d, x)
	}
	first := g.firstOfHalf[vs[0]]
	last := g.reduceAfter[vs[len(vs)-1]]
	pow := func(v int) Mem { return Mem{Base: g.hk, Disp: 64 * (v % 8)} }
	kar := func(v int) Mem { return Mem{Base: g.hk, Disp: 512 + 64*(v%8)} }
	var mids []reg.VecPhysical
	if karatsuba {
		for _, x := range d {
			m := s.alloc()
			VPSHUFD(U8(0x4e), x, m)
			VPXORQ(x, m, m)
			mids = append(mids, m)
		}
	}
	// The three 128-bit column sums of the products: lo (imm 0x00), mid
	// (0x01 and 0x10) and hi (0x11).
	var out [3]reg.VecPhysical
	for k, imms := range [3][]uint64{{0x00}, {0x01, 0x10}, {0x11}} {
		var terms []Op
		for i, v := range vs {
			if karatsuba && k == 1 {
				t := mids[i]
				VPCLMULQDQ(U8(0), kar(v), t, t)
				terms = append(terms, t)
				continue
			}
			for _, imm := range imms {
				t := s.alloc()
				VPCLMULQDQ(U8(imm), pow(v), d[i], t)
				terms = append(terms, t)
			}
		}
		if !first {
			terms = append(terms, g.sum(k))
		}
		acc := terms[0].(reg.VecPhysical)
		rest := terms[1:]
		for len(rest) >= 2 {
			VPTERNLOGQ(U8(0x96), rest[1], rest[0], acc)
			g.releaseOps(rest[:2])
			rest = rest[2:]
		}
		if len(rest) == 1 {
			VPXORQ(rest[0], acc, acc)
			g.releaseOps(rest)
		}
		if last {
			out[k] = acc
			continue
		}
		VMOVDQU64(acc, g.sum(k))
		s.release(acc)
	}
	for _, x := range d {
		s.release(x)
	}
	if last {
		g.reduce(out[0], out[1], out[2])
	}
}

func (g *ghashStitch) releaseOps(ops []Op) {
	for _, op := range ops {
		if r, ok := op.(reg.VecPhysical); ok {
			g.s.release(r)
		}
	}
}

// reduce reduces the lanes of lo, mid and hi (the 256-bit products
// lo + mid·x^64 + hi·x^128, Montgomery form), adds the four lanes, and
// stores the sum to *y.
func (g *ghashStitch) reduce(lo, mid, hi reg.VecPhysical) {
	s := g.s
	t := s.alloc()
	if karatsuba {
		VPTERNLOGQ(U8(0x96), hi, lo, mid)
	}
	// Clear lo's low word: add it times the field polynomial, whose x^128
	// term lands one word up (the swap) and whose low terms are the
	// multiplication by x^63 + x^62 + x^57.
	VPCLMULQDQ(U8(0x10), constGHASHPoly, lo, t)
	VPSHUFD(U8(0x4e), lo, lo)
	VPTERNLOGQ(U8(0x96), t, lo, mid)
	// The same for the next word, now the low word of mid.
	VPCLMULQDQ(U8(0x10), constGHASHPoly, mid, t)
	VPSHUFD(U8(0x4e), mid, mid)
	VPTERNLOGQ(U8(0x96), t, mid, hi)
	VEXTRACTI64X4(U8(1), hi, t.AsY())
	VPXORQ(t.AsY(), hi.AsY(), hi.AsY())
	VEXTRACTI64X2(U8(1), hi.AsY(), t.AsX())
	VPXORQ(t.AsX(), hi.AsX(), hi.AsX())
	VMOVDQU64(hi.AsX(), Mem{Base: g.yp})
	for _, r := range []reg.VecPhysical{t, lo, mid, hi} {
		s.release(r)
	}
}
