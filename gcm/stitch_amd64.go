//go:build amd64 && !purego

package gcm

import (
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
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

// stitched runs what it can of src through the stitched kernel and
// returns the rest. Seal's kernel hashes each batch's ciphertext during the
// next batch, so the last batch's is hashed here; Open's hashes each
// batch's own.
func (k *kernelsBackend) stitched(dst, src []byte, c, y [16]byte, seal bool) ([]byte, []byte, [16]byte, [16]byte) {
	for {
		n := stitchedBytes(src, &c)
		if n == 0 {
			return dst, src, c, y
		}
		c, y, _ = k.st.CTRGHASH(dst[:n], src[:n], c, k.hk.from32(), y, seal)
		if seal {
			ghashWith(k.gh, k.hk, &y, dst[n-batchBytes:n])
		}
		dst, src = dst[n:], src[n:]
	}
}

// ghashFor is the GHASH of a block other than AES on path kind: GHASH needs
// VPCLMULQDQ, not VAES, so where VAES is missing or masked but VPCLMULQDQ
// is usable (on the aesni path), the widest carry-less multiply the CPU
// has runs it, no wider than the 256-bit preference allows. On Zen 5 the
// 128-bit GHASH is bound at 0.375 cycles per byte (one PCLMULQDQ every two
// cycles); the 512-bit one at a quarter of that.
func ghashFor(kind ghashKind) ghashKind {
	if kind != kindAESNI || !cpu.HasAll(cpu.VPCLMULQDQ) {
		return kind
	}
	switch {
	case cpu.HasAll(cpu.AVX512) && !cpu.HasAll(cpu.Prefer256):
		return kindVAES512
	case cpu.HasAll(cpu.AVX2):
		return kindVAES256
	}
	return kind
}

// oneBlockKind is the GHASH kind for a single block: the 128-bit kernel,
// which skips the wide kernels' set-up (half the time of the 512-bit one
// on one block), on any assembly path.
func oneBlockKind(kind ghashKind) ghashKind {
	if kind == ghashPortable {
		return kind
	}
	return kindAESNI
}
