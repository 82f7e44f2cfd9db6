//go:build amd64 && !purego

package gcm

import (
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// batchBytes is the unit of the stitched counter-mode kernels: ARIA's
// 64-block AVX-512 batch.
const batchBytes = 1024

// stitcherFor returns k's stitched counter mode where this GHASH width is
// the one it hashes with (512-bit VPCLMULQDQ), or nil.
func stitcherFor(k modes.Kernels, gh ghashKind) stitcher {
	st, ok := k.(stitcher)
	if !ok || gh != kindVAES512 {
		return nil
	}
	if _, _, ok := st.CTRGHASH(nil, nil, [16]byte{}, nil, [16]byte{}, false); !ok {
		return nil
	}
	return st
}

// stitchedBytes is how much of src, in whole batches, the stitched kernel
// may take from counter block c: no more than is left before its 32-bit
// counter wraps (the kernel counts in 64 bits).
func stitchedBytes(src []byte, c *[16]byte) int {
	n := uint64(len(src) / blockSize)
	if room := 1<<32 - uint64(binary.BigEndian.Uint32(c[12:])); n > room {
		n = room
	}
	return int(n/(batchBytes/blockSize)) * batchBytes
}

// sealStitched encrypts and hashes what it can of src with the stitched
// kernel, which hashes each batch's ciphertext during the next batch, and
// returns the rest.
func (k *kernelsBackend) sealStitched(dst, src []byte, c, y [16]byte) ([]byte, []byte, [16]byte, [16]byte) {
	for {
		n := stitchedBytes(src, &c)
		if n == 0 {
			return dst, src, c, y
		}
		c, y, _ = k.st.CTRGHASH(dst[:n], src[:n], c, &k.hk.pow[0][0], y, true)
		ghashWith(k.gh, k.hk, &y, dst[n-batchBytes:n])
		dst, src = dst[n:], src[n:]
	}
}

// openStitched hashes and decrypts what it can of src with the stitched
// kernel and returns the rest.
func (k *kernelsBackend) openStitched(dst, src []byte, c, y [16]byte) ([]byte, []byte, [16]byte, [16]byte) {
	for {
		n := stitchedBytes(src, &c)
		if n == 0 {
			return dst, src, c, y
		}
		c, y, _ = k.st.CTRGHASH(dst[:n], src[:n], c, &k.hk.pow[0][0], y, false)
		dst, src = dst[n:], src[n:]
	}
}
