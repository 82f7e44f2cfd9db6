package gcm

import (
	"encoding/binary"
	"math/bits"
)

// GHASH is computed everywhere in POLYVAL's representation (RFC 8452,
// appendix A): a block is byte-reversed into a little-endian 128-bit
// polynomial, the key is H byte-reversed and multiplied by x, and the
// product is a Montgomery product a·b·x^-128 modulo
// x^128 + x^127 + x^126 + x^121 + 1. Byte-reversal is one shuffle on SIMD
// units, and the Montgomery reduction is two multiplications by the
// constant x^63 + x^62 + x^57, where the bit-reflected GHASH product would
// need a shift of the whole 256-bit product. The portable code below uses
// the same representation so that every path shares one key layout.

// elem is a field element: lo holds the coefficients of x^0..x^63.
type elem struct{ lo, hi uint64 }

// load reverses a GHASH block into an element.
func load(b []byte) elem {
	return elem{lo: binary.BigEndian.Uint64(b[8:16]), hi: binary.BigEndian.Uint64(b[0:8])}
}

// storeGHASH reverses an element back into a GHASH block.
func (e elem) storeGHASH(b []byte) {
	binary.BigEndian.PutUint64(b[0:8], e.hi)
	binary.BigEndian.PutUint64(b[8:16], e.lo)
}

// bytes returns the element as the kernels keep it in memory (little-endian).
func (e elem) put(b *[16]byte) {
	binary.LittleEndian.PutUint64(b[0:8], e.lo)
	binary.LittleEndian.PutUint64(b[8:16], e.hi)
}

func get(b *[16]byte) elem {
	return elem{lo: binary.LittleEndian.Uint64(b[0:8]), hi: binary.LittleEndian.Uint64(b[8:16])}
}

// mulX multiplies by x modulo the POLYVAL polynomial, without branching on
// the key bit that leaves the top.
func (e elem) mulX() elem {
	carry := -(e.hi >> 63)
	return elem{
		lo: e.lo<<1 ^ carry&1,
		hi: (e.hi<<1 | e.lo>>63) ^ carry&0xc200000000000000,
	}
}

// bmul64 returns the low 64 bits of the carry-less product x·y with integer
// multiplications only. Each operand is split into four interleaved bit
// sets (every fourth bit); integer products of such sets leave three zero
// "holes" between the bits that matter, so the carries of at most sixteen
// overlapping terms never reach a bit of the result. No table, no branch:
// constant time wherever the multiplier is, which it is on the CPUs Go
// targets.
func bmul64(x, y uint64) uint64 {
	const (
		m0 = 0x1111111111111111
		m1 = 0x2222222222222222
		m2 = 0x4444444444444444
		m3 = 0x8888888888888888
	)
	x0, x1, x2, x3 := x&m0, x&m1, x&m2, x&m3
	y0, y1, y2, y3 := y&m0, y&m1, y&m2, y&m3
	z0 := x0*y0 ^ x1*y3 ^ x2*y2 ^ x3*y1
	z1 := x0*y1 ^ x1*y0 ^ x2*y3 ^ x3*y2
	z2 := x0*y2 ^ x1*y1 ^ x2*y0 ^ x3*y3
	z3 := x0*y3 ^ x1*y2 ^ x2*y1 ^ x3*y0
	return z0&m0 | z1&m1 | z2&m2 | z3&m3
}

// clmul64 returns the full 128-bit carry-less product. The high half is the
// low half of the product of the bit-reversed operands, reversed back: the
// reversal maps product bit k to bit 126-k.
func clmul64(x, y uint64) (lo, hi uint64) {
	lo = bmul64(x, y)
	hi = bits.Reverse64(bmul64(bits.Reverse64(x), bits.Reverse64(y))) >> 1
	return lo, hi
}

// dot returns the Montgomery product a·b·x^-128.
func dot(a, b elem) elem {
	// Karatsuba: three 64x64 products make the 256-bit product w3:w2:w1:w0.
	l0, l1 := clmul64(a.lo, b.lo)
	h0, h1 := clmul64(a.hi, b.hi)
	m0, m1 := clmul64(a.lo^a.hi, b.lo^b.hi)
	m0 ^= l0 ^ h0
	m1 ^= l1 ^ h1
	w0, w1, w2, w3 := l0, l1^m0, h0^m1, h1
	// Montgomery reduction, 64 bits at a time: adding w0·P (P the field
	// polynomial) clears w0; its x^128 term lands on w2 and its
	// x^127 + x^126 + x^121 terms are w0·(x^63 + x^62 + x^57) shifted up by
	// 64 bits. Then the same for w1, one word higher.
	w1 ^= w0<<63 ^ w0<<62 ^ w0<<57
	w2 ^= w0 ^ w0>>1 ^ w0>>2 ^ w0>>7
	w2 ^= w1<<63 ^ w1<<62 ^ w1<<57
	w3 ^= w1 ^ w1>>1 ^ w1>>2 ^ w1>>7
	return elem{lo: w2, hi: w3}
}

// ghashGeneric folds whole 16-byte blocks into *y (kept as the kernels keep
// it) under the key h.
func ghashGeneric(h elem, y *[16]byte, blocks []byte) {
	acc := get(y)
	for len(blocks) >= 16 {
		x := load(blocks)
		acc = dot(elem{acc.lo ^ x.lo, acc.hi ^ x.hi}, h)
		blocks = blocks[16:]
	}
	acc.put(y)
}

// numPowers is the number of powers of the key the kernels aggregate over:
// one reduction per 64 blocks on the 256-bit path.
const numPowers = 64

// from32 points at h^32 in pow, where aria's stitched ARIA-GCM kernel reads
// h^32..h^1 (and their kar rows 16*numPowers bytes on).
func (k *hashKey) from32() *byte { return &k.pow[numPowers-32][0] }

// hashKey is the key material every GHASH path reads: the key in POLYVAL
// form and its powers. pow[i] is h^(64-i) (Montgomery powers, so that
// dot(x, pow[i]) multiplies by the (64-i)-th power of H), highest first, so
// that a run of m blocks reads pow[64-m:] in order. kar[i] holds
// pow[i].lo ^ pow[i].hi in both halves: the Karatsuba middle operand.
type hashKey struct {
	pow [numPowers][16]byte
	kar [numPowers][16]byte
	h   elem
	// The 512-bit kernels' masked last vector loads a whole 64 bytes of
	// powers from the last rows of pow and kar; the lanes past the data
	// are zeroed, so the values do not matter, but the load must stay
	// inside this allocation.
	_ [64]byte
}

// newHashKey derives the key from E_K(0^128): h, and h^1 in the last row of
// pow. The other powers are filled in by powers (per architecture) for the
// kernels that aggregate; the portable GHASH needs h alone.
func newHashKey(encZero *[16]byte) *hashKey {
	k := &hashKey{h: load(encZero[:]).mulX()}
	k.h.put(&k.pow[numPowers-1])
	return k
}

// powersGeneric fills in pow and kar with the portable multiplication.
func (k *hashKey) powersGeneric() {
	p := k.h
	for i := numPowers - 1; i >= 0; i-- {
		p.put(&k.pow[i])
		m := p.lo ^ p.hi
		binary.LittleEndian.PutUint64(k.kar[i][0:8], m)
		binary.LittleEndian.PutUint64(k.kar[i][8:16], m)
		p = dot(p, k.h)
	}
}
