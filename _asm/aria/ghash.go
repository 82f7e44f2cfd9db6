package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// GHASH stitched into the 64-block CTR kernel, for ARIA-GCM.
//
// A separate GHASH pass is bound by the carry-less multiplier (on Zen 5
// one VPCLMULQDQ issues every two cycles at any width: about 0.1 cycles per
// byte for 512-bit GHASH), while ARIA's rounds leave vector issue slots
// free between their dependency chains. Between rounds the kernel folds the
// 64 blocks at gsrc into the GHASH state *y: for Seal the previous batch's
// ciphertext, for Open this batch's (read before any store of this batch).
// On Zen 5 that costs about 12% over the CTR kernel, against 40% for the
// second pass.
//
// The arithmetic is gcm's (see _asm/gcm): POLYVAL form (blocks
// byte-reversed), the key powers h^32..h^1 at hk (the last 32 rows of gcm's
// hashKey.pow, 512 bytes, highest first; their Karatsuba middle operands,
// kar, karOffset bytes on), the
// 256-bit products of a 32-block half added unreduced and reduced once by
// two multiplications by x^63+x^62+x^57. The products are Karatsuba (three
// multiplications per vector, and two logic instructions to fold the
// block's halves): on Zen 5, where a 512-bit multiplication holds its unit
// two cycles, the fourth multiplication of schoolbook cost more than the
// two logic instructions (Seal 16 KiB about 2% faster, the kernel about
// 3%). The first half's state goes through *y into the second half's first
// vector.
//
// The 16 vectors spread evenly over the 12 gaps (one or two each): four
// vectors in each of four gaps measured 4% slower, and a gap among the
// output transpose's shuffles slower too.
//
// Registers: the pool has 9 free between rounds, and the diffusion layer
// needs all but one of them, so the partial sums of a half live in a
// 192-byte stack area from one gap to the next; Z31 holds the
// byte-reversal mask.

var ghashDoc = []string{
	"Between the rounds it folds the 64 blocks at gsrc into the GHASH state *y (POLYVAL form)",
	"under the key powers at hk (gcm's hashKey.pow from h^32 on: h^32..h^1, 16 bytes each), two reductions per call.",
}

var constGHASHBswap, constGHASHPoly Mem

// karOffset is the distance from a row of gcm's hashKey.pow to the same
// row of hashKey.kar (each power's halves XORed, in both words): 16 bytes
// for each of gcm's 64 powers.
const karOffset = 1024

// ghashStitch is the GHASH work of one stitched kernel.
type ghashStitch struct {
	hk, yp, gsrc reg.Register
	sums         reg.Register // lo, mid, hi partial sums of the half, 64 bytes each
	bswap        reg.VecPhysical
	plan         [gapCount][]int // vectors (0..15) done at each gap (see slices.gap)
}

// halfOrder is the order of the vectors of a half: 1..7, then vector 0,
// which takes in the running state and ends the half (its gap reduces), so
// that the others need not wait for the previous reduction.
var halfOrder = [8]int{1, 2, 3, 4, 5, 6, 7, 0}

// firstOfHalf reports whether v is a half's first vector: no partial sums
// stored yet.
func firstOfHalf(v int) bool { return v%8 == halfOrder[0] }

// lastOfHalf reports whether v is a half's last vector, the one that takes
// in the running state and after which the half is reduced.
func lastOfHalf(v int) bool { return v%8 == halfOrder[7] }

func newGHASHStitch(s *slices) *ghashStitch {
	if constGHASHBswap.Symbol.Name == "" {
		constGHASHBswap = qwords("ariaGHASHBswap", 0x08090a0b0c0d0e0f, 0x0001020304050607)
		constGHASHPoly = qwords("ariaGHASHPoly", 0, 0xc200000000000000)
	}
	g := &ghashStitch{bswap: s.w.Reg(31)}
	g.hk = Load(Param("hk"), GP64())
	g.yp = Load(Param("y"), GP64())
	g.gsrc = Load(Param("gsrc"), GP64())
	g.sums = vec.AlignedLocal(3*64, 64)
	s.w.Load(constGHASHBswap, g.bswap)
	// Each half in halfOrder. The 16 vectors spread evenly over the
	// gapCount gaps, and no gap holds vectors of both halves.
	k := 0
	for h := 0; h < 2; h++ {
		for i, j := range halfOrder {
			v := 8*h + j
			gap := k * gapCount / 16
			if i == 0 && len(g.plan[gap]) > 0 {
				panic("aria generator: a GHASH gap spans both halves")
			}
			g.plan[gap] = append(g.plan[gap], v)
			k++
		}
	}
	return g
}

func (g *ghashStitch) sum(k int) Mem { return Mem{Base: g.sums, Disp: 64 * k} }

// gapCount is the number of points in a stitched kernel where the cipher
// calls slices.gap.
const gapCount = 12

// gap emits the GHASH work planned for point p, with the slices as they are
// there.
func (g *ghashStitch) gap(s *slices, p int) {
	vs := g.plan[p]
	if len(vs) == 0 {
		return
	}
	Commentf("GHASH of vectors %v", vs)
	var d []reg.VecPhysical
	for _, v := range vs {
		x := s.alloc()
		VMOVDQU64(Mem{Base: g.gsrc, Disp: 64 * v}, x)
		VPSHUFB(g.bswap, x, x)
		if lastOfHalf(v) {
			t := s.alloc()
			VMOVDQU64(Mem{Base: g.yp}, t.AsX()) // upper lanes zeroed
			VPXORQ(t, x, x)
			s.release(t)
		}
		d = append(d, x)
	}
	first := firstOfHalf(vs[0])
	last := lastOfHalf(vs[len(vs)-1])
	pow := func(v int) Mem { return Mem{Base: g.hk, Disp: 64 * (v % 8)} }
	kar := func(v int) Mem { return Mem{Base: g.hk, Disp: karOffset + 64*(v%8)} }
	// The three 128-bit column sums of the products: lo (imm 0x00), the
	// Karatsuba middle (each block's halves folded, times the power's
	// middle operand) and hi (0x11), each folded as its terms come, two at
	// a time, so that few registers are live.
	var out [3]reg.VecPhysical
	for k, imm := range [3]uint64{0x00, 0, 0x11} {
		var acc reg.VecPhysical
		var pending []Op
		add := func(term Op) {
			if acc == nil {
				acc = term.(reg.VecPhysical)
				return
			}
			if pending = append(pending, term); len(pending) == 2 {
				VPTERNLOGQ(U8(0x96), pending[1], pending[0], acc)
				releaseOps(s, pending)
				pending = nil
			}
		}
		for i, v := range vs {
			t := s.alloc()
			if k == 1 {
				// (d.lo ^ d.hi) times the power's middle operand.
				VPSHUFD(U8(0x4e), d[i], t)
				VPXORQ(d[i], t, t)
				VPCLMULQDQ(U8(0x00), kar(v), t, t)
			} else {
				VPCLMULQDQ(U8(imm), pow(v), d[i], t)
			}
			add(t)
		}
		if !first {
			add(g.sum(k))
		}
		if len(pending) == 1 {
			VPXORQ(pending[0], acc, acc)
			releaseOps(s, pending)
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
		g.reduce(s, out[0], out[1], out[2])
	}
}

func releaseOps(s *slices, ops []Op) {
	for _, op := range ops {
		if r, ok := op.(reg.VecPhysical); ok {
			s.release(r)
		}
	}
}

// reduce reduces the lanes of lo, mid and hi (the 256-bit products
// lo + mid·x^64 + hi·x^128, Montgomery form), adds the four lanes, and
// stores the sum to *y.
func (g *ghashStitch) reduce(s *slices, lo, mid, hi reg.VecPhysical) {
	t := s.alloc()
	// Karatsuba's middle sum still holds lo and hi.
	VPTERNLOGQ(U8(0x96), lo, hi, mid)
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
