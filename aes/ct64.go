package aes

import (
	"crypto/subtle"
	"encoding/binary"
	"math/bits"

	"github.com/simdcrypt/simdcrypt/internal/bitslice"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// The portable path is bitsliced, in the manner of BearSSL's aes_ct64: four
// blocks at a time, spread over eight 64-bit words ("planes"), plane b
// holding bit b of each of the 64 state bytes. SubBytes is then a Boolean
// circuit (Boyar and Peralta's 113-gate S-box) evaluated on whole words,
// and ShiftRows and MixColumns are shifts and rotations within a word. No
// memory is indexed and no branch taken on data or key, so every mode and
// the key schedule are constant-time.
//
// Within a plane, byte (row r, column c) of block k sits at bit
// 16r + 4c + k: each row is a 16-bit field, so ShiftRows rotates fields by
// a multiple of 4 and MixColumns combines a word with itself rotated by
// 16 bits (the next row, same column and block).

const ctBatch = 4 * BlockSize // blocks bitsliced together, in bytes

// planes is the bitsliced state of four blocks, or one bitsliced round key.
type planes [8]uint64

// ctKernels is the portable path under one key: the round keys bitsliced
// (each replicated into all four block slots).
type ctKernels struct {
	rounds int
	rk     [maxRounds + 1]planes
}

func newCTKernels(key []byte) (*ctKernels, error) {
	s, err := expandKey(key)
	if err != nil {
		return nil, err
	}
	k := &ctKernels{rounds: s.rounds}
	var four [ctBatch]byte
	for r := 0; r <= s.rounds; r++ {
		for j := range 4 {
			for blk := range 4 {
				binary.BigEndian.PutUint32(four[16*blk+4*j:], s.enc[4*r+j])
			}
		}
		k.rk[r].load(&four)
	}
	clear(four[:])
	*s = schedule{}
	return k, nil
}

// spread moves the four bytes of x to bytes 0, 2, 4 and 6 of the result.
func spread(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000ffff0000ffff
	return (v | v<<8) & 0x00ff00ff00ff00ff
}

// gather is the inverse of spread: bytes 0, 2, 4 and 6 of v, packed.
func gather(v uint64) uint32 {
	v &= 0x00ff00ff00ff00ff
	v = (v | v>>8) & 0x0000ffff0000ffff
	return uint32(v | v>>16)
}

// load bitslices four blocks. Word 4·(c mod 2) + k gets, byte by byte,
// rows 0..3 of columns c and c+2 of block k, alternating; transposing the
// 8×8 bit matrices across the eight words (transpose) then puts bit b of
// the byte at word position 8·(2r + c/2) + 4·(c mod 2) + k = 16r + 4c + k
// into plane b.
func (q *planes) load(src *[ctBatch]byte) {
	for k := range 4 {
		b := src[16*k : 16*k+16]
		// Bytes 0..3 are column 0 (rows 0..3), 4..7 column 1, and so on.
		c0 := binary.LittleEndian.Uint32(b[0:])
		c1 := binary.LittleEndian.Uint32(b[4:])
		c2 := binary.LittleEndian.Uint32(b[8:])
		c3 := binary.LittleEndian.Uint32(b[12:])
		q[k] = spread(c0) | spread(c2)<<8
		q[4+k] = spread(c1) | spread(c3)<<8
	}
	q.transpose()
}

// store is the inverse of load.
func (q *planes) store(dst *[ctBatch]byte) {
	q.transpose()
	for k := range 4 {
		b := dst[16*k : 16*k+16]
		binary.LittleEndian.PutUint32(b[0:], gather(q[k]))
		binary.LittleEndian.PutUint32(b[4:], gather(q[4+k]))
		binary.LittleEndian.PutUint32(b[8:], gather(q[k]>>8))
		binary.LittleEndian.PutUint32(b[12:], gather(q[4+k]>>8))
	}
}

// transpose transposes, for each of the eight byte positions, the 8×8 bit
// matrix whose row j is that byte of q[j]. It is its own inverse.
func (q *planes) transpose() { bitslice.Transpose((*[8]uint64)(q)) }

func (q *planes) addRoundKey(rk *planes) {
	for i := range q {
		q[i] ^= rk[i]
	}
}

// subBytes applies the S-box to all 64 bytes.
func (q *planes) subBytes() {
	q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = sbox(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
}

// sbox is the S-box on planes p0 (least significant bit) to p7: the
// Boyar–Peralta circuit in internal/bitslice, shared with ARIA.
func sbox(p0, p1, p2, p3, p4, p5, p6, p7 uint64) (r0, r1, r2, r3, r4, r5, r6, r7 uint64) {
	return bitslice.Sbox(p0, p1, p2, p3, p4, p5, p6, p7)
}

// invAffine applies the inverse of the S-box's affine map (FIPS 197 5.3.2):
// bit i becomes bits i+2, i+5 and i+7 (mod 8) XORed, plus the constant 0x05.
func (q *planes) invAffine() {
	a := *q
	for i := range q {
		q[i] = a[(i+2)&7] ^ a[(i+5)&7] ^ a[(i+7)&7]
	}
	q[0] = ^q[0]
	q[2] = ^q[2]
}

// invSubBytes applies the inverse S-box. With S(x) = A(x⁻¹) for the affine
// map A, S⁻¹(y) = (A⁻¹(y))⁻¹ = A⁻¹(S(A⁻¹(y))): the forward circuit between
// two inverse affine maps.
func (q *planes) invSubBytes() {
	q.invAffine()
	q.subBytes()
	q.invAffine()
}

func (q *planes) invShiftRows() {
	for i, x := range q {
		q[i] = invShiftRow(x)
	}
}

// nextRow moves each row field to the row above (row 0 to row 3): byte
// (r, c) of the result is byte (r+1, c) of x.
func nextRow(x uint64) uint64 { return bits.RotateLeft64(x, -16) }

// double multiplies every byte by x in GF(2^8) (xtime on the planes).
func double(t *planes) planes {
	return planes{t[7], t[0] ^ t[7], t[1], t[2] ^ t[7], t[3] ^ t[7], t[4], t[5], t[6]}
}

// mixColumns computes, per column, 2a_r ⊕ 3a_(r+1) ⊕ a_(r+2) ⊕ a_(r+3), as
// 2t ⊕ a_(r+1) ⊕ t_(r+2) with t_r = a_r ⊕ a_(r+1).
func (q *planes) mixColumns() {
	var t, a1 planes
	for i, x := range q {
		a1[i] = nextRow(x)
		t[i] = x ^ a1[i]
	}
	d := double(&t)
	for i := range q {
		q[i] = d[i] ^ a1[i] ^ bits.RotateLeft64(t[i], 32)
	}
}

// invMixColumns uses the factorisation of the inverse matrix
// (14, 11, 13, 9) = (2, 3, 1, 1)·(5, 0, 4, 0): first a_r ⊕ 4(a_r ⊕ a_(r+2)),
// then MixColumns.
func (q *planes) invMixColumns() {
	var u planes
	for i, x := range q {
		u[i] = x ^ bits.RotateLeft64(x, 32)
	}
	u = double(&u)
	u = double(&u)
	for i := range q {
		q[i] ^= u[i]
	}
	q.mixColumns()
}

// shiftRow is ShiftRows on one plane: row r rotates left by r columns,
// that is its 16-bit field right by 4r bits, done as a rotation by 4 of
// rows 1 and 3 and then by 8 of rows 2 and 3 (14 operations, not 19).
func shiftRow(x uint64) uint64 {
	x = x&0x0000ffff0000ffff | (x>>4)&0x0fff00000fff0000 | (x<<12)&0xf0000000f0000000
	return x&0x00000000ffffffff | (x>>8)&0x00ff00ff00000000 | (x<<8)&0xff00ff0000000000
}

// invShiftRow is the inverse of shiftRow: the same rotations, leftwards.
func invShiftRow(x uint64) uint64 {
	x = x&0x0000ffff0000ffff | (x<<4)&0xfff00000fff00000 | (x>>12)&0x000f0000000f0000
	return x&0x00000000ffffffff | (x>>8)&0x00ff00ff00000000 | (x<<8)&0xff00ff0000000000
}

func (k *ctKernels) encrypt4(q *planes) {
	rk := &k.rk[0]
	q0, q1, q2, q3 := q[0]^rk[0], q[1]^rk[1], q[2]^rk[2], q[3]^rk[3]
	q4, q5, q6, q7 := q[4]^rk[4], q[5]^rk[5], q[6]^rk[6], q[7]^rk[7]
	for r := 1; r < k.rounds; r++ {
		q0, q1, q2, q3, q4, q5, q6, q7 = sbox(q0, q1, q2, q3, q4, q5, q6, q7)
		q0, q1, q2, q3 = shiftRow(q0), shiftRow(q1), shiftRow(q2), shiftRow(q3)
		q4, q5, q6, q7 = shiftRow(q4), shiftRow(q5), shiftRow(q6), shiftRow(q7)
		// MixColumns as in mixColumns, unrolled on locals: a1 is the next
		// row, t = a ⊕ a1, out = 2t ⊕ a1 ⊕ (t two rows on).
		a0, a1, a2, a3 := nextRow(q0), nextRow(q1), nextRow(q2), nextRow(q3)
		a4, a5, a6, a7 := nextRow(q4), nextRow(q5), nextRow(q6), nextRow(q7)
		t0, t1, t2, t3 := q0^a0, q1^a1, q2^a2, q3^a3
		t4, t5, t6, t7 := q4^a4, q5^a5, q6^a6, q7^a7
		rk = &k.rk[r]
		q0 = t7 ^ a0 ^ bits.RotateLeft64(t0, 32) ^ rk[0]
		q1 = t0 ^ t7 ^ a1 ^ bits.RotateLeft64(t1, 32) ^ rk[1]
		q2 = t1 ^ a2 ^ bits.RotateLeft64(t2, 32) ^ rk[2]
		q3 = t2 ^ t7 ^ a3 ^ bits.RotateLeft64(t3, 32) ^ rk[3]
		q4 = t3 ^ t7 ^ a4 ^ bits.RotateLeft64(t4, 32) ^ rk[4]
		q5 = t4 ^ a5 ^ bits.RotateLeft64(t5, 32) ^ rk[5]
		q6 = t5 ^ a6 ^ bits.RotateLeft64(t6, 32) ^ rk[6]
		q7 = t6 ^ a7 ^ bits.RotateLeft64(t7, 32) ^ rk[7]
	}
	q0, q1, q2, q3, q4, q5, q6, q7 = sbox(q0, q1, q2, q3, q4, q5, q6, q7)
	rk = &k.rk[k.rounds]
	q[0], q[1], q[2], q[3] = shiftRow(q0)^rk[0], shiftRow(q1)^rk[1], shiftRow(q2)^rk[2], shiftRow(q3)^rk[3]
	q[4], q[5], q[6], q[7] = shiftRow(q4)^rk[4], shiftRow(q5)^rk[5], shiftRow(q6)^rk[6], shiftRow(q7)^rk[7]
}

// invAffine8 is invAffine on locals.
func invAffine8(a0, a1, a2, a3, a4, a5, a6, a7 uint64) (r0, r1, r2, r3, r4, r5, r6, r7 uint64) {
	return ^(a2 ^ a5 ^ a7), a3 ^ a6 ^ a0, ^(a4 ^ a7 ^ a1), a5 ^ a0 ^ a2,
		a6 ^ a1 ^ a3, a7 ^ a2 ^ a4, a0 ^ a3 ^ a5, a1 ^ a4 ^ a6
}

// invMix8 is invMixColumns on locals: x ⊕ 4(x ⊕ x two rows on), then
// MixColumns.
func invMix8(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (r0, r1, r2, r3, r4, r5, r6, r7 uint64) {
	u0, u1, u2, u3 := q0^bits.RotateLeft64(q0, 32), q1^bits.RotateLeft64(q1, 32), q2^bits.RotateLeft64(q2, 32), q3^bits.RotateLeft64(q3, 32)
	u4, u5, u6, u7 := q4^bits.RotateLeft64(q4, 32), q5^bits.RotateLeft64(q5, 32), q6^bits.RotateLeft64(q6, 32), q7^bits.RotateLeft64(q7, 32)
	// 4u, bit by bit: double applied twice.
	q0 ^= u6
	q1 ^= u7 ^ u6
	q2 ^= u0 ^ u7
	q3 ^= u1 ^ u6
	q4 ^= u2 ^ u7 ^ u6
	q5 ^= u3 ^ u7
	q6 ^= u4
	q7 ^= u5
	a0, a1, a2, a3 := nextRow(q0), nextRow(q1), nextRow(q2), nextRow(q3)
	a4, a5, a6, a7 := nextRow(q4), nextRow(q5), nextRow(q6), nextRow(q7)
	t0, t1, t2, t3 := q0^a0, q1^a1, q2^a2, q3^a3
	t4, t5, t6, t7 := q4^a4, q5^a5, q6^a6, q7^a7
	return t7 ^ a0 ^ bits.RotateLeft64(t0, 32),
		t0 ^ t7 ^ a1 ^ bits.RotateLeft64(t1, 32),
		t1 ^ a2 ^ bits.RotateLeft64(t2, 32),
		t2 ^ t7 ^ a3 ^ bits.RotateLeft64(t3, 32),
		t3 ^ t7 ^ a4 ^ bits.RotateLeft64(t4, 32),
		t4 ^ a5 ^ bits.RotateLeft64(t5, 32),
		t5 ^ a6 ^ bits.RotateLeft64(t6, 32),
		t6 ^ a7 ^ bits.RotateLeft64(t7, 32)
}

// decrypt4 runs the inverse cipher of FIPS 197 5.3 with the encryption
// round keys, on locals as encrypt4 does.
func (k *ctKernels) decrypt4(q *planes) {
	rk := &k.rk[k.rounds]
	q0, q1, q2, q3 := q[0]^rk[0], q[1]^rk[1], q[2]^rk[2], q[3]^rk[3]
	q4, q5, q6, q7 := q[4]^rk[4], q[5]^rk[5], q[6]^rk[6], q[7]^rk[7]
	for r := k.rounds - 1; r >= 0; r-- {
		q0, q1, q2, q3 = invShiftRow(q0), invShiftRow(q1), invShiftRow(q2), invShiftRow(q3)
		q4, q5, q6, q7 = invShiftRow(q4), invShiftRow(q5), invShiftRow(q6), invShiftRow(q7)
		q0, q1, q2, q3, q4, q5, q6, q7 = invAffine8(q0, q1, q2, q3, q4, q5, q6, q7)
		q0, q1, q2, q3, q4, q5, q6, q7 = sbox(q0, q1, q2, q3, q4, q5, q6, q7)
		q0, q1, q2, q3, q4, q5, q6, q7 = invAffine8(q0, q1, q2, q3, q4, q5, q6, q7)
		rk = &k.rk[r]
		q0, q1, q2, q3 = q0^rk[0], q1^rk[1], q2^rk[2], q3^rk[3]
		q4, q5, q6, q7 = q4^rk[4], q5^rk[5], q6^rk[6], q7^rk[7]
		if r > 0 { // public: the round number
			q0, q1, q2, q3, q4, q5, q6, q7 = invMix8(q0, q1, q2, q3, q4, q5, q6, q7)
		}
	}
	q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = q0, q1, q2, q3, q4, q5, q6, q7
}

// crypt4 runs up to four blocks (a multiple of 16 bytes of src, at most
// 64) through the cipher, padding a short batch with zero blocks on the
// stack.
func (k *ctKernels) crypt4(dst, src []byte, decrypt bool) {
	var buf [ctBatch]byte
	copy(buf[:], src)
	var q planes
	q.load(&buf)
	if decrypt {
		k.decrypt4(&q)
	} else {
		k.encrypt4(&q)
	}
	q.store(&buf)
	copy(dst, buf[:len(src)])
}

func (k *ctKernels) EncryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += ctBatch {
		end := min(i+ctBatch, len(src))
		k.crypt4(dst[i:end], src[i:end], false)
	}
}

func (k *ctKernels) DecryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += ctBatch {
		end := min(i+ctBatch, len(src))
		k.crypt4(dst[i:end], src[i:end], true)
	}
}

// CBCEncrypt is a serial chain: one block per batch, the other three slots
// idle.
func (k *ctKernels) CBCEncrypt(dst, src []byte, iv *[BlockSize]byte) {
	var buf [ctBatch]byte
	prev := *iv
	for i := 0; i < len(src); i += BlockSize {
		for j := range BlockSize {
			buf[j] = src[i+j] ^ prev[j]
		}
		var q planes
		q.load(&buf)
		k.encrypt4(&q)
		q.store(&buf)
		copy(prev[:], buf[:BlockSize])
		copy(dst[i:], prev[:])
	}
	*iv = prev
}

func (k *ctKernels) CBCDecrypt(dst, src []byte, iv *[BlockSize]byte) {
	modes.CBCDecrypt4(dst, src, iv, func(dst, src []byte) { k.crypt4(dst, src, true) })
}

func (k *ctKernels) CTR(dst, src []byte, ctr *[BlockSize]byte) {
	var buf [ctBatch]byte
	hi := ctr[:8]
	lo := binary.BigEndian.Uint64(ctr[8:])
	for i := 0; i < len(src); i += ctBatch {
		end := min(i+ctBatch, len(src))
		for j := 0; j < end-i; j += BlockSize {
			copy(buf[j:], hi)
			binary.BigEndian.PutUint64(buf[j+8:], lo)
			lo++
		}
		var q planes
		q.load(&buf)
		k.encrypt4(&q)
		q.store(&buf)
		subtle.XORBytes(dst[i:end], src[i:end], buf[:end-i])
	}
	binary.BigEndian.PutUint64(ctr[8:], lo)
}

// subWordCT applies the S-box to the four bytes of w with the bitsliced
// circuit, for the key schedule: each byte goes in one bit position of the
// planes.
func subWordCT(w uint32) uint32 {
	var q planes
	for b := range q {
		// Bit b of byte i (most significant byte first) to bit i of plane b.
		x := w >> uint(b) & 0x01010101
		q[b] = uint64(x>>24 | x>>15 | x>>6 | x<<3)
	}
	q.subBytes()
	var out uint32
	for b, x := range q {
		out |= uint32(x>>0&1)<<(24+b) | uint32(x>>1&1)<<(16+b) | uint32(x>>2&1)<<(8+b) | uint32(x>>3&1)<<b
	}
	return out
}
