package xts

import (
	"crypto/cipher"
	"encoding/binary"
)

// cryptGeneric is the portable path: one Encrypt or Decrypt call on k1 per
// block, and the tweak kept as two 64-bit halves (the little-endian
// polynomial of IEEE 1619) and doubled without branches. It needs no
// scratch buffer for the block cipher calls, which would escape to the heap
// through the interface: the tweak is encrypted in dst's first block, after
// that block's input has been saved.
func cryptGeneric(k1, k2 cipher.Block, dst, src []byte, tweakLo, tweakHi uint64, decrypt bool) {
	crypt := k1.Encrypt
	if decrypt {
		crypt = k1.Decrypt
	}
	in0lo, in0hi := binary.LittleEndian.Uint64(src), binary.LittleEndian.Uint64(src[8:])
	binary.LittleEndian.PutUint64(dst, tweakLo)
	binary.LittleEndian.PutUint64(dst[8:], tweakHi)
	k2.Encrypt(dst[:blockSize], dst[:blockSize])
	tlo, thi := binary.LittleEndian.Uint64(dst), binary.LittleEndian.Uint64(dst[8:])

	// input returns block i of the source, whose first block dst's may
	// have replaced (in place).
	input := func(i int) (lo, hi uint64) {
		if i == 0 {
			return in0lo, in0hi
		}
		return binary.LittleEndian.Uint64(src[16*i:]), binary.LittleEndian.Uint64(src[16*i+8:])
	}
	// block sets dst's block i to the cipher of (lo, hi) under tweak (t0, t1).
	block := func(i int, lo, hi, t0, t1 uint64) {
		d := dst[16*i : 16*i+16]
		binary.LittleEndian.PutUint64(d, lo^t0)
		binary.LittleEndian.PutUint64(d[8:], hi^t1)
		crypt(d, d)
		binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(d)^t0)
		binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(d[8:])^t1)
	}

	whole := len(src) / blockSize
	partial := len(src) % blockSize
	if partial != 0 {
		whole-- // the last whole block takes part in the stealing
	}
	for i := range whole {
		lo, hi := input(i)
		block(i, lo, hi, tlo, thi)
		tlo, thi = mulX(tlo, thi)
	}
	if partial == 0 {
		return
	}

	// Ciphertext stealing (IEEE 1619-2018 5.3.2 and 5.4.2). The last whole
	// block m-1 is ciphered first under tweak T(m-1) when encrypting, T(m)
	// when decrypting; the first `partial` bytes of the result become the
	// short final block, and the short input block, padded with the rest of
	// that result, is ciphered under the other tweak into block m-1.
	m := whole
	ulo, uhi := mulX(tlo, thi)
	first0, first1, second0, second1 := tlo, thi, ulo, uhi
	if decrypt {
		first0, first1, second0, second1 = ulo, uhi, tlo, thi
	}
	var short [blockSize]byte
	copy(short[:], src[16*(m+1):]) // read before dst overwrites it in place
	lo, hi := input(m)
	block(m, lo, hi, first0, first1)
	copy(dst[16*(m+1):], dst[16*m:16*m+partial])
	copy(dst[16*m:], short[:partial])
	lo, hi = binary.LittleEndian.Uint64(dst[16*m:]), binary.LittleEndian.Uint64(dst[16*m+8:])
	block(m, lo, hi, second0, second1)
}

// mulX multiplies the tweak (lo, hi) by x in GF(2^128) modulo
// x^128 + x^7 + x^2 + x + 1, folding the bit shifted out back in through a
// mask rather than a branch on it.
func mulX(lo, hi uint64) (uint64, uint64) {
	carry := hi >> 63
	return lo<<1 ^ 0x87&-carry, hi<<1 | lo>>63
}
