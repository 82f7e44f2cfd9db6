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

// oneLayouts returns the one-call kernels' layouts for messages up to
// smallMax bytes, shortest first: row layout for up to four blocks, then
// eight blocks word-sliced in YMM, or (zmm) row layout in ZMM throughout.
// Measured on Zen 5 at 256 bytes (kernel alone): the YMM rows about 10%
// quicker than the word-sliced batch, the ZMM rows about 30%.
func oneLayouts(zmm bool) []oneLayout {
	if zmm {
		return []oneLayout{oneZ4, oneZ8}
	}
	return []oneLayout{oneY4, oneSliced}
}

// openOneCall runs layout l's openOne kernel that absorbs the fewest MAC
// blocks, at least steps.
func openOneCall(l oneLayout, steps int, st *[1384]byte) {
	switch {
	case l == oneZ8:
		openOne30Z8(st)
	case l == oneZ4 && steps <= 10:
		openOne10Z4(st)
	case l == oneZ4:
		openOne18Z4(st)
	case l == oneY4 && steps <= 10:
		openOne10Y4(st)
	case l == oneY4:
		openOne18Y4(st)
	case steps <= 10:
		openOne10AVX2(st)
	case steps <= 18:
		openOne18AVX2(st)
	default:
		openOneAVX2(st)
	}
}

// sealOneCall runs layout l's sealOne kernel.
func sealOneCall(l oneLayout, st *[1384]byte) {
	switch l {
	case oneZ4:
		sealOneZ4(st)
	case oneZ8:
		sealOneZ8(st)
	case oneY4:
		sealOneY4(st)
	default:
		sealOneAVX2(st)
	}
}
