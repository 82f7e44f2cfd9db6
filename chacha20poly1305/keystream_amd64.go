//go:build amd64 && !purego

package chacha20poly1305

import (
	"unsafe"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// haveKeystream4 reports whether keystream4 (ZMM registers, VPROLD) may
// run: it needs AVX-512 and, like the chacha20 package's avx512 path,
// stays off CPUs whose clock drops when 512-bit registers are used.
func haveKeystream4() bool { return cpu.Has(cpu.AVX512) && !cpu.Has(cpu.Prefer256) }

// stitchedBuilt: the stitched kernels exist in this build.
const stitchedBuilt = true

// haveKeystream4AVX2 reports whether keystream4AVX2 may run.
func haveKeystream4AVX2() bool { return cpu.Has(cpu.AVX2) }

// chooseFused returns the version of the fused kernels for this CPU (see
// _asm/chacha20poly1305/short.go): VPROLD where AVX-512 may run (on YMM
// registers, which do not lower the clock, so cpu.Prefer256 does not
// matter), and the lead on Zen 5, whose vector operations take two
// cycles.
func chooseFused() fusedKernel {
	zen5 := cpu.CPU().Uarch == "Zen 5"
	switch {
	case cpu.Has(cpu.AVX512) && zen5:
		return fusedLeadVL
	case cpu.Has(cpu.AVX512):
		return fusedVL
	case zen5:
		return fusedLead
	}
	return fusedAVX2
}

// call runs k's Seal kernel (seal) or its Open kernel on st.
func (k fusedKernel) call(seal bool, st *[320]byte) {
	switch {
	case k == fusedVL && seal:
		sealShortVL(st)
	case k == fusedVL:
		openShortVL(st)
	case k == fusedLead && seal:
		sealShortLead(st)
	case k == fusedLead:
		openShortLead(st)
	case k == fusedLeadVL && seal:
		sealShortLeadVL(st)
	case k == fusedLeadVL:
		openShortLeadVL(st)
	case seal:
		sealShort(st)
	default:
		openShort(st)
	}
}

// macKey writes the first 32 bytes of block 0 for key and a 12-byte nonce
// (see block0.go).
func macKey(out *[32]byte, key *[KeySize]byte, nonce []byte) {
	block0(out, key, (*[NonceSize]byte)(nonce))
}

// oneLayouts returns the one-call kernels' layouts for messages up to
// oneMax bytes, shortest first: row layout for up to four blocks, then
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
func openOneCall(l oneLayout, steps int, st *[1496]byte) {
	switch {
	case l == oneZ4 && steps <= 10:
		openOne10Z4(st)
	case l == oneZ4:
		openOne18Z4(st)
	case l == oneY4 && steps <= 10: // up to 128 bytes: one set of rows
		openOne10Y2(st)
	case l == oneY4:
		openOne18Y4(st)
	default: // oneSliced, oneZ8: openDirect
		panic("chacha20poly1305: openOneCall of a layout openDirect takes")
	}
}

// sealDirectCall runs the direct Seal kernel for src, by its length:
// layout l's up to oneMax bytes (oneY4: sealDirectY2 up to 128 bytes, one
// set of rows, measured on Zen 5 under avx512=off, same build, ratio to
// x/crypto at 65 to 128 bytes 0.93-1.02x with sealDirectY4 -> 1.02-1.13x,
// then sealDirectY4; oneSliced: sealDirectAVX2), then sealTenDirectAVX2 up
// to tenMax, sealTwoDirectAVX2 up to twoMax, sealEighteenDirectAVX2 up to
// eighteenMax, sealThreeDirectAVX2 from 3*batch+1 to threeMax and
// sealFourDirectAVX2 for the rest (eighteenMax+1 to 3*batch, and past
// threeMax).
func sealDirectCall(l oneLayout, st *directState, dst, src []byte) {
	p := (*[216]byte)(unsafe.Pointer(st))
	switch {
	case len(src) > threeMax || len(src) > eighteenMax && len(src) <= 3*batch:
		sealFourDirectAVX2(p, dst, src)
	case len(src) > 3*batch:
		sealThreeDirectAVX2(p, dst, src)
	case len(src) > twoMax:
		sealEighteenDirectAVX2(p, dst, src)
	case len(src) > tenMax:
		sealTwoDirectAVX2(p, dst, src)
	case len(src) > oneMax:
		sealTenDirectAVX2(p, dst, src)
	case l == oneY4 && len(src) <= 128:
		sealDirectY2(p, dst, src)
	case l == oneY4:
		sealDirectY4(p, dst, src)
	default:
		sealDirectAVX2(p, dst, src)
	}
}

// openDirectCall runs the direct Open kernel for src: openTwoDirectAVX2
// past tenMax bytes, openTenAVX2 past oneMax, else openDirectAVX2.
func openDirectCall(st *directState, dst, src []byte) {
	p := (*[216]byte)(unsafe.Pointer(st))
	if len(src) > tenMax {
		openTwoDirectAVX2(p, dst, src)
		return
	}
	if len(src) > oneMax {
		openTenAVX2(p, dst, src)
		return
	}
	openDirectAVX2(p, dst, src)
}

// sealOneCall runs layout l's sealOne kernel.
func sealOneCall(l oneLayout, st *[1496]byte) {
	switch l {
	case oneZ4:
		sealOneZ4(st)
	case oneZ8:
		sealOneZ8(st)
	default: // oneSliced, oneY4: sealDirect
		panic("chacha20poly1305: sealOneCall of a layout sealDirect takes")
	}
}

// midKeystream writes keystream blocks 0 to at least the last an n-byte
// message needs to ks, with the fewest sets of rows: each set beside
// others still adds vector work (four sets issue about 2.5 operations per
// cycle, near what the core sustains with every chain critical).
func midKeystream(ks *[64 * 20]byte, n int, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	switch {
	case n <= 7*64:
		keystream8((*[512]byte)(ks[:512]), key, nonce12)
	case n <= 11*64:
		keystream12((*[768]byte)(ks[:768]), key, nonce12)
	case n <= 15*64:
		keystream16((*[1024]byte)(ks[:1024]), key, nonce12)
	default:
		keystream20(ks, key, nonce12)
	}
}

// midXOR writes the MAC key (the first 32 bytes of block 0) to mk and src
// XORed with the keystream from block 1 on to dst, with the fewest sets of
// rows (see midKeystream); past 19 blocks, xorAt goes on from block 20.
func midXOR(mk *[32]byte, dst, src []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	if len(src) > 19*64 {
		xorSets(5, mk, dst[:19*64], src[:19*64], key, nonce12, 0)
		xorAt(dst[19*64:], src[19*64:], key, nonce12, 20)
		return
	}
	xorSets(max(2, (len(src)+64+255)/256), mk, dst, src, key, nonce12, 0)
}

// xorAt writes src XORed with the keystream from block ctr on to dst, at
// most 20 blocks per call, the fewest sets of rows for the last.
func xorAt(dst, src []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte, ctr uint32) {
	for len(src) > 0 {
		n := min(len(src), 20*64)
		xorSets((n+255)/256, nil, dst[:n], src[:n], key, nonce12, ctr)
		dst, src, ctr = dst[n:], src[n:], ctr+20
	}
}

// xorSets runs the XOR kernel of sets sets of ZMM rows: with mk, the one
// from block 0 (xorKeystream8 to 20, the MAC key to mk; two sets at
// least), else the one from block ctr (xorKeystreamAt4 to 20).
func xorSets(sets int, mk *[32]byte, dst, src []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte, ctr uint32) {
	switch {
	case mk == nil && sets == 1:
		xorKeystreamAt4(dst, src, key, nonce12, ctr)
	case mk == nil && sets == 2:
		xorKeystreamAt8(dst, src, key, nonce12, ctr)
	case mk == nil && sets == 3:
		xorKeystreamAt12(dst, src, key, nonce12, ctr)
	case mk == nil && sets == 4:
		xorKeystreamAt16(dst, src, key, nonce12, ctr)
	case mk == nil:
		xorKeystreamAt20(dst, src, key, nonce12, ctr)
	case sets == 2:
		xorKeystream8(mk, dst, src, key, nonce12)
	case sets == 3:
		xorKeystream12(mk, dst, src, key, nonce12)
	case sets == 4:
		xorKeystream16(mk, dst, src, key, nonce12)
	default:
		xorKeystream20(mk, dst, src, key, nonce12)
	}
}
