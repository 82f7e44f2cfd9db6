// Package chachacore holds the portable ChaCha20 block function that the
// chacha20 and chacha20poly1305 packages share: the quarter round, the 20
// rounds, the state layout and HChaCha20.
package chachacore

import (
	"encoding/binary"
	"math/bits"
)

// The "expand 32-byte k" constants, state words 0..3.
const (
	Sigma0 uint32 = 0x61707865
	Sigma1 uint32 = 0x3320646e
	Sigma2 uint32 = 0x79622d32
	Sigma3 uint32 = 0x6b206574
)

// QuarterRound mixes four state words (RFC 8439 section 2.1). It is small
// enough to inline into the callers' unrolled loops.
func QuarterRound(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
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

// Rounds runs the 20 rounds (10 column + diagonal double rounds) on x in
// place, without the final addition.
func Rounds(x *[16]uint32) {
	x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
	x4, x5, x6, x7 := x[4], x[5], x[6], x[7]
	x8, x9, x10, x11 := x[8], x[9], x[10], x[11]
	x12, x13, x14, x15 := x[12], x[13], x[14], x[15]
	for range 10 {
		x0, x4, x8, x12 = QuarterRound(x0, x4, x8, x12)
		x1, x5, x9, x13 = QuarterRound(x1, x5, x9, x13)
		x2, x6, x10, x14 = QuarterRound(x2, x6, x10, x14)
		x3, x7, x11, x15 = QuarterRound(x3, x7, x11, x15)

		x0, x5, x10, x15 = QuarterRound(x0, x5, x10, x15)
		x1, x6, x11, x12 = QuarterRound(x1, x6, x11, x12)
		x2, x7, x8, x13 = QuarterRound(x2, x7, x8, x13)
		x3, x4, x9, x14 = QuarterRound(x3, x4, x9, x14)
	}
	*x = [16]uint32{x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15}
}

// InitState loads the constants, the key and the 16 bytes of counter and
// nonce (or, for HChaCha20, the nonce's first 16 bytes).
func InitState(x *[16]uint32, key *[32]byte, tail *[16]byte) {
	x[0], x[1], x[2], x[3] = Sigma0, Sigma1, Sigma2, Sigma3
	for i := range 8 {
		x[4+i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	for i := range 4 {
		x[12+i] = binary.LittleEndian.Uint32(tail[4*i:])
	}
}

// HChaCha20 writes HChaCha20(key, nonce) to out (draft-irtf-cfrg-xchacha
// section 2.2): the rounds without the final addition, keeping words 0..3
// and 12..15.
func HChaCha20(out, key *[32]byte, nonce *[16]byte) {
	var x [16]uint32
	InitState(&x, key, nonce)
	Rounds(&x)
	for i := range 4 {
		binary.LittleEndian.PutUint32(out[4*i:], x[i])
		binary.LittleEndian.PutUint32(out[16+4*i:], x[12+i])
	}
}
