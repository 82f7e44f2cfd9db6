package poly1305

import (
	"encoding/binary"
	"math/bits"
)

// blocksGeneric absorbs the whole 16-byte blocks of msg, each with 2^128
// added when hibit is 1 (full blocks) and not when 0 (the padded last
// block of the MAC, which carries its own 1 byte).
//
// With h = h0 + h1·2^64 + h2·2^128 and r = r0 + r1·2^64, the product's
// 2^128 and 2^192 terms fold down through 2^130 ≡ 5 (mod p): r1 is a
// multiple of 4 after clamping, so h1·r1·2^128 = h1·(r1/4)·2^130 ≡
// h1·s1 with s1 = 5·(r1/4) = r1 + r1/4, and likewise h2·r1·2^192 ≡
// h2·s1·2^64. What remains above 2^130 in the top word is folded once
// more, multiplied by 5, leaving h below 2^130 + 2^66.
func blocksGeneric(st *core, msg []byte, hibit uint64) {
	h0, h1, h2 := st.h[0], st.h[1], st.h[2]
	r0, r1, s1 := st.r[0], st.r[1], st.r[2]
	for len(msg) >= TagSize {
		var c uint64
		h0, c = bits.Add64(h0, binary.LittleEndian.Uint64(msg[0:8]), 0)
		h1, c = bits.Add64(h1, binary.LittleEndian.Uint64(msg[8:16]), c)
		h2 += c + hibit

		a1, a0 := bits.Mul64(h0, r0)
		c1, c0 := bits.Mul64(h1, s1)
		b1, b0 := bits.Mul64(h1, r0)
		e1, e0 := bits.Mul64(h0, r1)
		// h2 stays below 8, so these fit in 64 bits.
		t1 := h2 * s1
		t2 := h2 * r0

		d0, c := bits.Add64(a0, c0, 0)
		d1, c := bits.Add64(a1, c1, c)
		d2 := b1 + e1 + t2 + c
		d1, c = bits.Add64(d1, b0, 0)
		d2 += c
		d1, c = bits.Add64(d1, e0, 0)
		d2 += c
		d1, c = bits.Add64(d1, t1, 0)
		d2 += c

		// Keep bits 128 and 129 in h2; add 5·(d2>>2) as 4·(d2>>2) plus
		// d2>>2.
		h0, h1, h2 = d0, d1, d2&3
		cc := d2 &^ 3
		h0, c = bits.Add64(h0, cc, 0)
		h1, c = bits.Add64(h1, 0, c)
		h2 += c
		cc >>= 2
		h0, c = bits.Add64(h0, cc, 0)
		h1, c = bits.Add64(h1, 0, c)
		h2 += c

		msg = msg[TagSize:]
	}
	st.h[0], st.h[1], st.h[2] = h0, h1, h2
}

// finalize reduces h (below 2^130 + 2^66, so below 2p) modulo p = 2^130-5
// by one subtraction selected with a mask, adds s and writes the low 128
// bits.
func finalize(out *[TagSize]byte, h *[3]uint64, s *[2]uint64) {
	h0, h1, h2 := h[0], h[1], h[2]
	t0, b := bits.Sub64(h0, 0xfffffffffffffffb, 0)
	t1, b := bits.Sub64(h1, 0xffffffffffffffff, b)
	_, b = bits.Sub64(h2, 3, b)
	keep := -b // all ones when h < p
	h0 = h0&keep | t0&^keep
	h1 = h1&keep | t1&^keep
	var c uint64
	h0, c = bits.Add64(h0, s[0], 0)
	h1, _ = bits.Add64(h1, s[1], c)
	binary.LittleEndian.PutUint64(out[0:8], h0)
	binary.LittleEndian.PutUint64(out[8:16], h1)
}
