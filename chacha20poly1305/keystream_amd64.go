//go:build amd64 && !purego

package chacha20poly1305

import "github.com/simdcrypt/simdcrypt/internal/cpu"

// haveKeystream4 reports whether keystream4 (ZMM registers, VPROLD) may
// run: it needs AVX-512 and, like the chacha20 package's avx512 path,
// stays off CPUs whose clock drops when 512-bit registers are used.
func haveKeystream4() bool { return cpu.Has(cpu.AVX512) && !cpu.Has(cpu.Prefer256) }

// stitchedBuilt: the stitched kernels exist in this build.
const stitchedBuilt = true

// haveKeystream4AVX2 reports whether keystream4AVX2 may run.
func haveKeystream4AVX2() bool { return cpu.Has(cpu.AVX2) }

// macKey writes the first 32 bytes of block 0 for key and a 12-byte nonce
// (see block0.go).
func macKey(out *[32]byte, key *[KeySize]byte, nonce []byte) {
	block0(out, key, (*[NonceSize]byte)(nonce))
}
