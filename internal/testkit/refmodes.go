package testkit

import (
	"crypto/cipher"
	"math/big"
)

// The reference modes below are written plainly over one-block Encrypt and
// Decrypt, independent of internal/modes, so that a bug there cannot hide
// by agreeing with itself.

func refECB(b cipher.Block, decrypt bool, src []byte) []byte {
	out := make([]byte, len(src))
	for i := 0; i < len(src); i += 16 {
		if decrypt {
			b.Decrypt(out[i:i+16], src[i:i+16])
		} else {
			b.Encrypt(out[i:i+16], src[i:i+16])
		}
	}
	return out
}

func refCBC(b cipher.Block, decrypt bool, iv, src []byte) []byte {
	out := make([]byte, len(src))
	prev := append([]byte(nil), iv...)
	for i := 0; i < len(src); i += 16 {
		blk := make([]byte, 16)
		if decrypt {
			b.Decrypt(blk, src[i:i+16])
			for j := range blk {
				blk[j] ^= prev[j]
			}
			copy(prev, src[i:i+16])
		} else {
			for j := range blk {
				blk[j] = src[i+j] ^ prev[j]
			}
			b.Encrypt(blk, blk)
			copy(prev, blk)
		}
		copy(out[i:], blk)
	}
	return out
}

var two128 = new(big.Int).Lsh(big.NewInt(1), 128)

// refCTR counts with arbitrary-precision arithmetic modulo 2^128.
func refCTR(b cipher.Block, iv, src []byte) []byte {
	out := make([]byte, len(src))
	ctr := new(big.Int).SetBytes(iv)
	ks := make([]byte, 16)
	for i := 0; i < len(src); i += 16 {
		cb := make([]byte, 16)
		ctr.FillBytes(cb)
		b.Encrypt(ks, cb)
		for j := 0; j < 16 && i+j < len(src); j++ {
			out[i+j] = src[i+j] ^ ks[j]
		}
		ctr.Add(ctr, big.NewInt(1))
		ctr.Mod(ctr, two128)
	}
	return out
}
