//go:build amd64 && !purego

package poly1305

import "math/bits"

// powers is the ifma path's table (see _asm/poly1305/ifma.go): words
// 0..39 are last[5][8], lane L's radix-2^44 limbs r0, r1, r2, 20·r1, 20·r2
// of r^(8-order[L]); words 40..44 the same limbs of r^8.
type powers [90]uint64

// ifmaOrder is the block of an 8-block group that lane L holds.
var ifmaOrder = [8]int{0, 4, 1, 5, 2, 6, 3, 7}

// ifmaMin is the shortest input the ifma path takes: below it, computing
// the powers costs more than the vector steps save.
const ifmaMin = 256

// avx2Min is the shortest input the avx2 path takes (measured crossover
// with mulx on Zen 5: about 384 bytes).
const avx2Min = 384

var built = [numPaths]bool{Generic: true, MULX: true, AVX2: true, IFMA: true}

// blocks absorbs whole 16-byte blocks (2^128 bit set) on path p, the
// vector paths keeping their powers of r in kept where it is not nil (see
// vectorBlocks).
func blocks(st *state, p Path, msg []byte, kept *powers) {
	switch p {
	case IFMA, AVX2:
		blocksMULX(&st.h, &st.r, st.vectorBlocks(p, msg, kept))
	default:
		blocksScalar(&st.core, p, msg)
	}
}

// vectorBlocks absorbs the whole vector groups at the start of msg with
// the kernel of path p (IFMA or AVX2), which runs on h in its own radix,
// once msg is long enough to repay computing the powers of r (again for
// each such input unless kept is set: see state); it returns the rest
// for mulx.
func (st *state) vectorBlocks(p Path, msg []byte, kept *powers) []byte {
	minLen, group := avx2Min, 64
	if p == IFMA {
		minLen, group = ifmaMin, 128
	}
	if len(msg) < minLen {
		return msg
	}
	var local powers
	pw := (*[90]uint64)(&local)
	if kept != nil {
		pw = (*[90]uint64)(kept)
	}
	if kept == nil || !st.kept {
		if p == IFMA {
			powersIFMA(pw, &st.r)
		} else {
			powersAVX2(pw, &st.r)
		}
		st.kept = kept != nil
	}
	n := len(msg) &^ (group - 1)
	if p == IFMA {
		acc := toRadix44(&st.h)
		blocksIFMA(&acc, pw, msg[:n])
		st.h = fromRadix44(&acc)
	} else {
		acc := toRadix26(&st.h)
		blocksAVX2(&acc, pw, msg[:n])
		st.h = fromRadix26(&acc)
	}
	return msg[n:]
}

// blocksScalar absorbs whole blocks on the scalar code of path p: the
// vector paths' own scalar path is mulx.
func blocksScalar(c *core, p Path, msg []byte) {
	if p == Generic {
		blocksGeneric(c, msg, 1)
		return
	}
	blocksMULX(&c.h, &c.r, msg)
}

const mask44 = 1<<44 - 1

// limbs44 splits a value below 2^130 (plus a little) into radix 2^44.
func toRadix44(h *[3]uint64) [3]uint64 {
	return [3]uint64{h[0] & mask44, (h[0]>>44 | h[1]<<20) & mask44, h[1]>>24 | h[2]<<40}
}

// fromRadix44 joins limbs below 2^52 into three 64-bit words, folding what
// lies above 2^130 back (×5) so that h ends below 2^130 + 2^66.
func fromRadix44(a *[3]uint64) [3]uint64 {
	x0, x1, x2 := a[0], a[1], a[2]
	c := x2 >> 42
	x2 &= 1<<42 - 1
	x0 += c * 5
	h0, carry := bits.Add64(x0, x1<<44, 0)
	h1, carry := bits.Add64(x1>>20, x2<<24, carry)
	h2 := x2>>40 + carry
	return [3]uint64{h0, h1, h2}
}

const mask26 = 1<<26 - 1

// toRadix26 splits h (below 2^130 + 2^66) into five 26-bit limbs, the top
// one below 2^27.
func toRadix26(h *[3]uint64) [5]uint64 {
	return [5]uint64{
		h[0] & mask26,
		h[0] >> 26 & mask26,
		(h[0]>>52 | h[1]<<12) & mask26,
		h[1] >> 14 & mask26,
		h[1]>>40 | h[2]<<24,
	}
}

// fromRadix26 joins limbs below 2^28 into three words and folds what lies
// above 2^130 back (×5), so that h ends below 2^130 + 2^7.
func fromRadix26(x *[5]uint64) [3]uint64 {
	h0, c := bits.Add64(x[0]+x[1]<<26, x[2]<<52, 0)
	h1, c := bits.Add64(x[2]>>12+x[3]<<14, x[4]<<40, c)
	h2 := x[4]>>24 + c
	top := h2 >> 2
	h2 &= 3
	h0, c = bits.Add64(h0, top*5, 0)
	h1, c = bits.Add64(h1, 0, c)
	return [3]uint64{h0, h1, h2 + c}
}
