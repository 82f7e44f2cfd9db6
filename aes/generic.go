package aes

import (
	"encoding/binary"
	"math/bits"
)

// The tables are computed at start-up from the field arithmetic rather than
// typed in: sbox is multiplicative inverse plus affine map (FIPS 197 5.1.1),
// te0[x] is one column of MixColumns applied to S(x), td0[x] one column of
// InvMixColumns applied to S^-1(x); te1..3 and td1..3 are byte rotations.
var (
	sbox, invSbox      [256]byte
	te0, te1, te2, te3 [256]uint32
	td0, td1, td2, td3 [256]uint32
)

func xtime(b byte) byte { return b<<1 ^ byte(int8(b)>>7)&0x1b }

func gmul(a, b byte) byte {
	var p byte
	for b != 0 {
		if b&1 != 0 {
			p ^= a
		}
		a = xtime(a)
		b >>= 1
	}
	return p
}

func init() {
	for x := 0; x < 256; x++ {
		inv := byte(0)
		if x != 0 {
			// x^254 is the inverse in GF(2^8).
			inv = 1
			for i := 0; i < 254; i++ {
				inv = gmul(inv, byte(x))
			}
		}
		s := inv ^ bits.RotateLeft8(inv, 1) ^ bits.RotateLeft8(inv, 2) ^ bits.RotateLeft8(inv, 3) ^ bits.RotateLeft8(inv, 4) ^ 0x63
		sbox[x] = s
		invSbox[s] = byte(x)
	}
	for x := 0; x < 256; x++ {
		s := sbox[x]
		te0[x] = uint32(gmul(s, 2))<<24 | uint32(s)<<16 | uint32(s)<<8 | uint32(gmul(s, 3))
		i := invSbox[x]
		td0[x] = uint32(gmul(i, 14))<<24 | uint32(gmul(i, 9))<<16 | uint32(gmul(i, 13))<<8 | uint32(gmul(i, 11))
		te1[x], te2[x], te3[x] = bits.RotateLeft32(te0[x], -8), bits.RotateLeft32(te0[x], -16), bits.RotateLeft32(te0[x], -24)
		td1[x], td2[x], td3[x] = bits.RotateLeft32(td0[x], -8), bits.RotateLeft32(td0[x], -16), bits.RotateLeft32(td0[x], -24)
	}
}

// generic is the portable one-block AES.
type generic schedule

func (g *generic) EncryptBlock(dst, src *[BlockSize]byte) {
	k := g.enc[:]
	s0 := binary.BigEndian.Uint32(src[0:]) ^ k[0]
	s1 := binary.BigEndian.Uint32(src[4:]) ^ k[1]
	s2 := binary.BigEndian.Uint32(src[8:]) ^ k[2]
	s3 := binary.BigEndian.Uint32(src[12:]) ^ k[3]
	for r := 1; r < g.rounds; r++ {
		k = k[4:]
		t0 := te0[s0>>24] ^ te1[s1>>16&0xff] ^ te2[s2>>8&0xff] ^ te3[s3&0xff] ^ k[0]
		t1 := te0[s1>>24] ^ te1[s2>>16&0xff] ^ te2[s3>>8&0xff] ^ te3[s0&0xff] ^ k[1]
		t2 := te0[s2>>24] ^ te1[s3>>16&0xff] ^ te2[s0>>8&0xff] ^ te3[s1&0xff] ^ k[2]
		t3 := te0[s3>>24] ^ te1[s0>>16&0xff] ^ te2[s1>>8&0xff] ^ te3[s2&0xff] ^ k[3]
		s0, s1, s2, s3 = t0, t1, t2, t3
	}
	k = k[4:]
	last := func(a, b, c, d uint32) uint32 {
		return uint32(sbox[a>>24])<<24 | uint32(sbox[b>>16&0xff])<<16 | uint32(sbox[c>>8&0xff])<<8 | uint32(sbox[d&0xff])
	}
	binary.BigEndian.PutUint32(dst[0:], last(s0, s1, s2, s3)^k[0])
	binary.BigEndian.PutUint32(dst[4:], last(s1, s2, s3, s0)^k[1])
	binary.BigEndian.PutUint32(dst[8:], last(s2, s3, s0, s1)^k[2])
	binary.BigEndian.PutUint32(dst[12:], last(s3, s0, s1, s2)^k[3])
}

func (g *generic) DecryptBlock(dst, src *[BlockSize]byte) {
	k := g.dec[:]
	s0 := binary.BigEndian.Uint32(src[0:]) ^ k[0]
	s1 := binary.BigEndian.Uint32(src[4:]) ^ k[1]
	s2 := binary.BigEndian.Uint32(src[8:]) ^ k[2]
	s3 := binary.BigEndian.Uint32(src[12:]) ^ k[3]
	for r := 1; r < g.rounds; r++ {
		k = k[4:]
		t0 := td0[s0>>24] ^ td1[s3>>16&0xff] ^ td2[s2>>8&0xff] ^ td3[s1&0xff] ^ k[0]
		t1 := td0[s1>>24] ^ td1[s0>>16&0xff] ^ td2[s3>>8&0xff] ^ td3[s2&0xff] ^ k[1]
		t2 := td0[s2>>24] ^ td1[s1>>16&0xff] ^ td2[s0>>8&0xff] ^ td3[s3&0xff] ^ k[2]
		t3 := td0[s3>>24] ^ td1[s2>>16&0xff] ^ td2[s1>>8&0xff] ^ td3[s0&0xff] ^ k[3]
		s0, s1, s2, s3 = t0, t1, t2, t3
	}
	k = k[4:]
	last := func(a, b, c, d uint32) uint32 {
		return uint32(invSbox[a>>24])<<24 | uint32(invSbox[b>>16&0xff])<<16 | uint32(invSbox[c>>8&0xff])<<8 | uint32(invSbox[d&0xff])
	}
	binary.BigEndian.PutUint32(dst[0:], last(s0, s3, s2, s1)^k[0])
	binary.BigEndian.PutUint32(dst[4:], last(s1, s0, s3, s2)^k[1])
	binary.BigEndian.PutUint32(dst[8:], last(s2, s1, s0, s3)^k[2])
	binary.BigEndian.PutUint32(dst[12:], last(s3, s2, s1, s0)^k[3])
}
