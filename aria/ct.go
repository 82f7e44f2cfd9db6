package aria

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/bitslice"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// The portable path is bitsliced, four blocks at a time, like package aes's:
// plane b of eight 64-bit words holds bit b of the 64 state bytes, byte i of
// block k at bit 4i + k, so each byte position is a 4-bit nibble of a
// plane. No memory is indexed and no branch taken on data or key.
//
// All four S-boxes are the AES S-box S between affine maps, since each is
// field inversion plus an affine map (keysbox.go) and S(x) = A(x⁻¹):
//
//	SB1 = S            SB3 = A⁻¹∘S∘A⁻¹ (S⁻¹)
//	SB2 = L2∘S         SB4 = A⁻¹∘S∘P4
//
// with L2 = SB2∘S⁻¹ and P4 = S⁻¹∘A∘SB4, both affine. The substitution layer
// applies each pre-map to the nibbles of its byte positions (masked), runs
// S once on everything with the circuit package aes uses, and applies the
// post-maps. The diffusion layer A uses the factorisation W∘P∘W∘M of the
// word form (generic.go) on the nibbles: words are 16-bit groups.

const ctBatch = 4 * BlockSize

type planes = [8]uint64

// The affine maps below, on bitsliced planes and only in the nibbles a mask
// selects, are written out from their 8×8 bit matrices, which follow from
// the S-box tables of RFC 5794 (sbox.go); TestPlaneMaps checks them against
// those tables byte for byte.

// invAffPlanes applies A⁻¹, the inverse of the AES affine map, to the nibbles in mask.
func invAffPlanes(q *planes, m uint64) {
	x0, x1, x2, x3, x4, x5, x6, x7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	q[0] = x0&^m | (^(x2 ^ x5 ^ x7))&m
	q[1] = x1&^m | (x0^x3^x6)&m
	q[2] = x2&^m | (^(x1 ^ x4 ^ x7))&m
	q[3] = x3&^m | (x0^x2^x5)&m
	q[4] = x4&^m | (x1^x3^x6)&m
	q[5] = x5&^m | (x2^x4^x7)&m
	q[6] = x6&^m | (x0^x3^x5)&m
	q[7] = x7&^m | (x1^x4^x6)&m
}

// l2Planes applies L2 = SB2∘S⁻¹ to the nibbles in mask.
func l2Planes(q *planes, m uint64) {
	x0, x1, x2, x3, x4, x5, x6, x7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	q[0] = x0&^m | (x0^x1^x7)&m
	q[1] = x1&^m | (x1^x4)&m
	q[2] = x2&^m | (x0^x1^x4^x5^x6^x7)&m
	q[3] = x3&^m | (^(x1 ^ x2 ^ x4 ^ x7))&m
	q[4] = x4&^m | (x1^x4^x5)&m
	q[5] = x5&^m | (x1^x3^x4)&m
	q[6] = x6&^m | (x5^x7)&m
	q[7] = x7&^m | (^(x0 ^ x1 ^ x2 ^ x5 ^ x6 ^ x7))&m
}

// p4Planes applies P4 = S⁻¹∘A∘SB4 to the nibbles in mask.
func p4Planes(q *planes, m uint64) {
	x0, x1, x2, x3, x4, x5, x6, x7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	q[0] = x0&^m | (x3^x4)&m
	q[1] = x1&^m | (x2^x5^x6)&m
	q[2] = x2&^m | (^(x4 ^ x6))&m
	q[3] = x3&^m | (^(x0 ^ x1 ^ x2 ^ x6 ^ x7))&m
	q[4] = x4&^m | (x0^x1^x2^x4^x5)&m
	q[5] = x5&^m | (^(x1 ^ x2 ^ x4 ^ x6 ^ x7))&m
	q[6] = x6&^m | (x0^x2^x3^x4^x5^x7)&m
	q[7] = x7&^m | (x0^x3^x6^x7)&m
}

// lane returns the nibbles of byte positions i ≡ t (mod 4).
func lane(t int) uint64 { return 0x000f000f000f000f << (4 * t) }

// substitute is SL1 (odd true) or SL2. SL1 puts SB1, SB2, SB3, SB4 at
// positions 0, 1, 2, 3 of each group of four bytes; SL2 SB3, SB4, SB1, SB2.
func substitute(q *planes, odd bool) {
	sb1, sb2, sb3, sb4 := lane(0), lane(1), lane(2), lane(3)
	if !odd { // public: the round's parity
		sb1, sb2, sb3, sb4 = lane(2), lane(3), lane(0), lane(1)
	}
	_ = sb1 // SB1 is S itself: no map
	invAffPlanes(q, sb3)
	p4Planes(q, sb4)
	q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = bitslice.Sbox(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
	l2Planes(q, sb2)
	invAffPlanes(q, sb3|sb4)
}

// Nibble moves within each 16-bit group (one word of four bytes).
func swapNibblePairs(x uint64) uint64 { return x<<4&0xf0f0f0f0f0f0f0f0 | x>>4&0x0f0f0f0f0f0f0f0f }
func swapNibbleHalves(x uint64) uint64 {
	return x<<8&0xff00ff00ff00ff00 | x>>8&0x00ff00ff00ff00ff
}

// group extracts word w (16 bits) of a plane; ungroup puts it back.
func group(x uint64, w int) uint64 { return x >> (16 * w) & 0xffff }

// diffusePlanes is the diffusion layer A = W∘P∘W∘M on every plane.
func diffusePlanes(q *planes) {
	for i, x := range q {
		// M: each byte becomes the XOR of the other three of its word.
		s := x ^ swapNibblePairs(x)
		s ^= swapNibbleHalves(s)
		x ^= s
		// W, then P (words 1 to 3: swap byte pairs, swap halves,
		// reverse), then W.
		t0, t1, t2, t3 := group(x, 0), group(x, 1), group(x, 2), group(x, 3)
		t0, t1, t2, t3 = mix(t0, t1, t2, t3)
		t1 = swapNibblePairs(t1)
		t2 = swapNibbleHalves(t2)
		t3 = swapNibblePairs(swapNibbleHalves(t3))
		t0, t1, t2, t3 = mix(t0, t1, t2, t3)
		q[i] = t0 | t1<<16 | t2<<32 | t3<<48
	}
}

// mix is W: T0, T1, T2, T3 become T0⊕T1⊕T2, T0⊕T2⊕T3, T0⊕T1⊕T3, T1⊕T2⊕T3
// (mixWords in generic.go).
func mix(t0, t1, t2, t3 uint64) (uint64, uint64, uint64, uint64) {
	t1 ^= t2
	t2 ^= t3
	t0 ^= t1
	t3 ^= t1
	t2 ^= t0
	t1 ^= t2
	return t0, t1, t2, t3
}

// pack puts bytes 0, 2, 4 and 6 of v into a 32-bit value; unpack spreads
// them back.
func pack(v uint64) uint64 {
	v &= 0x00ff00ff00ff00ff
	v = (v | v>>8) & 0x0000ffff0000ffff
	return (v | v>>16) & 0xffffffff
}

func unpack(v uint64) uint64 {
	v &= 0xffffffff
	v = (v | v<<16) & 0x0000ffff0000ffff
	return (v | v<<8) & 0x00ff00ff00ff00ff
}

// load bitslices four blocks: word k gets the even bytes of block k, word
// 4+k its odd bytes, so that after the transpose byte i of block k is at
// bit 8(i/2) + 4(i mod 2) + k = 4i + k of each plane.
func load(q *planes, src *[ctBatch]byte) {
	for k := range 4 {
		lo := binary.LittleEndian.Uint64(src[16*k:])
		hi := binary.LittleEndian.Uint64(src[16*k+8:])
		q[k] = pack(lo) | pack(hi)<<32
		q[4+k] = pack(lo>>8) | pack(hi>>8)<<32
	}
	bitslice.Transpose(q)
}

func store(q *planes, dst *[ctBatch]byte) {
	bitslice.Transpose(q)
	for k := range 4 {
		lo := unpack(q[k]) | unpack(q[4+k])<<8
		hi := unpack(q[k]>>32) | unpack(q[4+k]>>32)<<8
		binary.LittleEndian.PutUint64(dst[16*k:], lo)
		binary.LittleEndian.PutUint64(dst[16*k+8:], hi)
	}
}

// ctKernels is the portable path under one key: the round keys bitsliced,
// each replicated into all four block slots.
type ctKernels struct {
	rounds   int
	enc, dec [maxRounds + 1]planes
}

func newCTKernels(key []byte) (*ctKernels, error) {
	s, err := expandKey(key)
	if err != nil {
		return nil, err
	}
	k := &ctKernels{rounds: s.rounds}
	loadRoundKeys(&k.enc, &s.enc, s.rounds)
	loadRoundKeys(&k.dec, &s.dec, s.rounds)
	*s = schedule{}
	return k, nil
}

// loadRoundKeys bitslices round keys 0 to rounds of rk into q, each key in
// all four block slots.
func loadRoundKeys(q *[maxRounds + 1]planes, rk *[maxRounds + 1]block, rounds int) {
	var four [ctBatch]byte
	for r := 0; r <= rounds; r++ {
		for blk := range 4 {
			copy(four[16*blk:], rk[r][:])
		}
		load(&q[r], &four)
	}
	clear(four[:])
}

func addKey(q, rk *planes) {
	for i := range q {
		q[i] ^= rk[i]
	}
}

// crypt4 runs the rounds of RFC 5794 section 2.4 (as crypt in generic.go)
// on four bitsliced blocks.
func (k *ctKernels) crypt4(rk *[maxRounds + 1]planes, q *planes) {
	for r := 0; r < k.rounds-1; r++ {
		addKey(q, &rk[r])
		substitute(q, r%2 == 0)
		diffusePlanes(q)
	}
	addKey(q, &rk[k.rounds-1])
	substitute(q, false)
	addKey(q, &rk[k.rounds])
}

// batch runs up to four blocks (src a multiple of 16 bytes, at most 64),
// padding a short batch with zero blocks on the stack.
func (k *ctKernels) batch(rk *[maxRounds + 1]planes, dst, src []byte) {
	var buf [ctBatch]byte
	copy(buf[:], src)
	var q planes
	load(&q, &buf)
	k.crypt4(rk, &q)
	store(&q, &buf)
	copy(dst, buf[:len(src)])
}

func (k *ctKernels) EncryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += ctBatch {
		end := min(i+ctBatch, len(src))
		k.batch(&k.enc, dst[i:end], src[i:end])
	}
}

func (k *ctKernels) DecryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += ctBatch {
		end := min(i+ctBatch, len(src))
		k.batch(&k.dec, dst[i:end], src[i:end])
	}
}

// CBCEncrypt is a serial chain: one block per batch.
func (k *ctKernels) CBCEncrypt(dst, src []byte, iv *[BlockSize]byte) {
	prev := *iv
	var x [BlockSize]byte
	for i := 0; i < len(src); i += BlockSize {
		subtle.XORBytes(x[:], src[i:i+BlockSize], prev[:])
		k.batch(&k.enc, prev[:], x[:])
		copy(dst[i:], prev[:])
	}
	*iv = prev
}

func (k *ctKernels) CBCDecrypt(dst, src []byte, iv *[BlockSize]byte) {
	modes.CBCDecrypt4(dst, src, iv, func(dst, src []byte) { k.batch(&k.dec, dst, src) })
}

func (k *ctKernels) CTR(dst, src []byte, ctr *[BlockSize]byte) {
	var buf [ctBatch]byte
	lo := binary.BigEndian.Uint64(ctr[8:])
	for i := 0; i < len(src); i += ctBatch {
		end := min(i+ctBatch, len(src))
		for j := 0; j < end-i; j += BlockSize {
			copy(buf[j:], ctr[:8])
			binary.BigEndian.PutUint64(buf[j+8:], lo)
			lo++
		}
		k.batch(&k.enc, buf[:end-i], buf[:end-i])
		subtle.XORBytes(dst[i:end], src[i:end], buf[:end-i])
	}
	binary.BigEndian.PutUint64(ctr[8:], lo)
}
