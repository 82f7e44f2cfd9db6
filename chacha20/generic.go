package chacha20

import (
	"encoding/binary"
	"math/bits"
)

// quarterRound mixes four state words (RFC 8439 section 2.1).
func quarterRound(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
	a += b
	d = bits.RotateLeft32(d^a, 16)
	c += d
	b = bits.RotateLeft32(b^c, 12)
	a += b
	d = bits.RotateLeft32(d^a, 8)
	c += d
	b = bits.RotateLeft32(b^c, 7)
	return a, b, c, d
}

// core runs the 20 rounds (10 column + diagonal double rounds) on x.
func core(x *[16]uint32) {
	x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
	x4, x5, x6, x7 := x[4], x[5], x[6], x[7]
	x8, x9, x10, x11 := x[8], x[9], x[10], x[11]
	x12, x13, x14, x15 := x[12], x[13], x[14], x[15]
	for range 10 {
		x0, x4, x8, x12 = quarterRound(x0, x4, x8, x12)
		x1, x5, x9, x13 = quarterRound(x1, x5, x9, x13)
		x2, x6, x10, x14 = quarterRound(x2, x6, x10, x14)
		x3, x7, x11, x15 = quarterRound(x3, x7, x11, x15)

		x0, x5, x10, x15 = quarterRound(x0, x5, x10, x15)
		x1, x6, x11, x12 = quarterRound(x1, x6, x11, x12)
		x2, x7, x8, x13 = quarterRound(x2, x7, x8, x13)
		x3, x4, x9, x14 = quarterRound(x3, x4, x9, x14)
	}
	*x = [16]uint32{x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15}
}

// xorBlocksGeneric is the portable kernel: it XORs len(src)/64 whole blocks
// of keystream into dst and advances state[12] by as many.
func xorBlocksGeneric(state *[16]uint32, dst, src []byte) {
	s := *state
	// Columns 1..3 of the first round do not involve the counter: compute
	// them once per call, not once per block.
	p1, p5, p9, p13 := quarterRound(s[1], s[5], s[9], s[13])
	p2, p6, p10, p14 := quarterRound(s[2], s[6], s[10], s[14])
	p3, p7, p11, p15 := quarterRound(s[3], s[7], s[11], s[15])
	for len(src) >= blockSize && len(dst) >= blockSize {
		x0, x4, x8, x12 := quarterRound(s[0], s[4], s[8], s[12])
		x0, x5, x10, x15 := quarterRound(x0, p5, p10, p15)
		x1, x6, x11, x12 := quarterRound(p1, p6, p11, x12)
		x2, x7, x8, x13 := quarterRound(p2, p7, x8, p13)
		x3, x4, x9, x14 := quarterRound(p3, x4, p9, p14)
		for range 9 {
			x0, x4, x8, x12 = quarterRound(x0, x4, x8, x12)
			x1, x5, x9, x13 = quarterRound(x1, x5, x9, x13)
			x2, x6, x10, x14 = quarterRound(x2, x6, x10, x14)
			x3, x7, x11, x15 = quarterRound(x3, x7, x11, x15)

			x0, x5, x10, x15 = quarterRound(x0, x5, x10, x15)
			x1, x6, x11, x12 = quarterRound(x1, x6, x11, x12)
			x2, x7, x8, x13 = quarterRound(x2, x7, x8, x13)
			x3, x4, x9, x14 = quarterRound(x3, x4, x9, x14)
		}
		d, in := dst[:blockSize:blockSize], src[:blockSize:blockSize]
		for i, x := range [16]uint32{x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15} {
			k := x + s[i]
			binary.LittleEndian.PutUint32(d[4*i:], binary.LittleEndian.Uint32(in[4*i:])^k)
		}
		s[12]++
		dst, src = dst[blockSize:], src[blockSize:]
	}
	state[12] = s[12]
}

// hChaCha20 writes HChaCha20(key, nonce) to out: the rounds without the
// final addition, keeping words 0..3 and 12..15.
func hChaCha20(out *[32]byte, key, nonce []byte) {
	x := [16]uint32{sigma0, sigma1, sigma2, sigma3}
	for i := range 8 {
		x[4+i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	for i := range 4 {
		x[12+i] = binary.LittleEndian.Uint32(nonce[4*i:])
	}
	core(&x)
	for i := range 4 {
		binary.LittleEndian.PutUint32(out[4*i:], x[i])
		binary.LittleEndian.PutUint32(out[16+4*i:], x[12+i])
	}
}
