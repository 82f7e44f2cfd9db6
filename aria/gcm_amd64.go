//go:build amd64 && !purego

package aria

import "encoding/binary"

// CTRGHASH is counter mode with GHASH stitched in, for package gcm's
// ARIA-GCM. It XORs src, whole 64-block batches, into dst with the
// keystream from counter block ctr (the low 64 bits counting: the caller
// keeps GCM's 32-bit counter from wrapping inside the call), and between
// the rounds of each batch folds 64 blocks into the GHASH state y under the
// key powers at hk (gcm's layout from its h^32 on: h^32..h^1 in POLYVAL
// form, 16 bytes each, their Karatsuba operands 1024 bytes on). For Open (seal false) a batch hashes its own input, read before
// its output is stored; for Seal a batch hashes the previous batch's
// output, so the caller hashes the last batch's itself. It returns the
// counter block after the last one used and the new state; ok is false,
// and nothing is done, on a path without the stitched kernel (all but the
// AVX-512 one). The caller needs VPCLMULQDQ on 512-bit vectors.
//
// Counter and state travel by value: pointers through gcm's interface
// would move them to the heap on every call.
func (k *slicedKernels) CTRGHASH(dst, src []byte, ctr [BlockSize]byte, hk *byte, y [16]byte, seal bool) (next [BlockSize]byte, sum [16]byte, ok bool) {
	if k.batches[0] != zmm64 || len(src)%batch64 != 0 || len(dst) < len(src) {
		return ctr, y, false
	}
	if len(src) == 0 {
		return ctr, y, true
	}
	c := [7]uint64{binary.BigEndian.Uint64(ctr[:8]), binary.BigEndian.Uint64(ctr[8:])}
	c[2] = c[1] + 256
	rk := keys(zmm64, k.enc, k.encZ)
	ariaCTRPrep(rk, &c)
	gsrc, gy := src, &y
	var discard [16]byte
	if seal {
		// The first batch has no previous one: it hashes its own input
		// into a state that is dropped.
		gy = &discard
	}
	for len(src) >= batch64 {
		ariaCTRGHASH64(rk, k.rounds, (*[batch64]byte)(dst), (*[batch64]byte)(src), &c, hk, gy, (*[batch64]byte)(gsrc))
		c[1] += batch64 / BlockSize
		c[2] = c[1] + 256
		if seal {
			gsrc, gy = dst, &y
		}
		dst, src = dst[batch64:], src[batch64:]
		if !seal {
			gsrc = src
		}
	}
	binary.BigEndian.PutUint64(ctr[8:], c[1])
	return ctr, y, true
}

// EncryptBlock returns the encryption of one block, for gcm's tag mask
// E_K(J0), through the one-block kernel: the block stays on the stack,
// where a slice or pointer passed through gcm's interface would move it to
// the heap on every message.
func (k *slicedKernels) EncryptBlock(b [BlockSize]byte) [BlockSize]byte {
	k.one.ecb(&k.oneEnc, k.rounds, b[:], b[:])
	return b
}
