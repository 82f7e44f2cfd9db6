//go:build amd64 && !purego

package aes

import (
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/impl"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// path names one set of kernels. The methods below switch on it and call
// the assembly directly, without the ABI wrapper an indirect call through a
// func value would need: small messages are mostly call overhead.
type path uint8

const (
	pathAESNI path = iota
	pathAESNINoPrefetch
	pathVAES256
	pathVAES256NoPrefetch
	pathVAES512
	pathVAES512NoPrefetch
)

// zmmBlocks is the number of blocks in one 512-bit vector. Calls with fewer
// blocks take the 128-bit kernel on the 512-bit paths: it skips loading 15
// round keys into registers, which is a measurable share of a one-block
// call.
const zmmBlocks = 4

// asmKernels implements modes.Kernels with one path's assembly (see
// _asm/aes for the kernels' contract: whole blocks, n > 0, round keys
// right-aligned in a 240-byte table).
type asmKernels struct {
	// Round keys right-aligned: the last at offset 224, the first at
	// 16*(14-rounds); the slots before it stay zero.
	enc, dec [240]byte
	rounds   int
	path     path
}

func newAsmKernels(key []byte, p path) (modes.Kernels, error) {
	// The S-box step through the AES unit: the portable tables are indexed
	// by key bytes and would leak them through the cache.
	s, err := expandKeyWith(key, subWordAESNI)
	if err != nil {
		return nil, err
	}
	k := &asmKernels{rounds: s.rounds, path: p}
	first := 16 * (maxRounds - s.rounds)
	s.putRoundKeys(k.enc[first:], k.dec[first:])
	*s = schedule{} // the kernels keep their own copy
	return k, nil
}

// pathFor returns the path whose kernel runs a call of n blocks: the
// 512-bit paths hand calls shorter than one ZMM vector to the 128-bit
// kernel (see zmmBlocks).
func (k *asmKernels) pathFor(n int) path {
	if n < zmmBlocks {
		switch k.path {
		case pathVAES512:
			return pathAESNI
		case pathVAES512NoPrefetch:
			return pathAESNINoPrefetch
		}
	}
	return k.path
}

func (k *asmKernels) EncryptBlocks(dst, src []byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	d, s := &dst[0], &src[0]
	switch k.pathFor(n) {
	case pathAESNI:
		encryptBlocksAESNI(&k.enc, k.rounds, d, s, n)
	case pathAESNINoPrefetch:
		encryptBlocksAESNINoPrefetch(&k.enc, k.rounds, d, s, n)
	case pathVAES256:
		encryptBlocksVAES256(&k.enc, k.rounds, d, s, n)
	case pathVAES256NoPrefetch:
		encryptBlocksVAES256NoPrefetch(&k.enc, k.rounds, d, s, n)
	case pathVAES512:
		encryptBlocksVAES512(&k.enc, k.rounds, d, s, n)
	case pathVAES512NoPrefetch:
		encryptBlocksVAES512NoPrefetch(&k.enc, k.rounds, d, s, n)
	}
}

func (k *asmKernels) DecryptBlocks(dst, src []byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	d, s := &dst[0], &src[0]
	switch k.pathFor(n) {
	case pathAESNI:
		decryptBlocksAESNI(&k.dec, k.rounds, d, s, n)
	case pathAESNINoPrefetch:
		decryptBlocksAESNINoPrefetch(&k.dec, k.rounds, d, s, n)
	case pathVAES256:
		decryptBlocksVAES256(&k.dec, k.rounds, d, s, n)
	case pathVAES256NoPrefetch:
		decryptBlocksVAES256NoPrefetch(&k.dec, k.rounds, d, s, n)
	case pathVAES512:
		decryptBlocksVAES512(&k.dec, k.rounds, d, s, n)
	case pathVAES512NoPrefetch:
		decryptBlocksVAES512NoPrefetch(&k.dec, k.rounds, d, s, n)
	}
}

// CBCEncrypt runs the one serial kernel on every path: the chain leaves
// nothing for wider vectors to do.
func (k *asmKernels) CBCEncrypt(dst, src []byte, iv *[BlockSize]byte) {
	if n := len(src) / BlockSize; n > 0 {
		cbcEncryptAESNI(&k.enc, k.rounds, &dst[0], &src[0], n, iv)
	}
}

func (k *asmKernels) CBCDecrypt(dst, src []byte, iv *[BlockSize]byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	// Saved first: decryption in place overwrites it.
	next := [BlockSize]byte(src[len(src)-BlockSize:])
	d, s := &dst[0], &src[0]
	switch k.pathFor(n) {
	case pathAESNI:
		cbcDecryptAESNI(&k.dec, k.rounds, d, s, n, iv)
	case pathAESNINoPrefetch:
		cbcDecryptAESNINoPrefetch(&k.dec, k.rounds, d, s, n, iv)
	case pathVAES256:
		cbcDecryptVAES256(&k.dec, k.rounds, d, s, n, iv)
	case pathVAES256NoPrefetch:
		cbcDecryptVAES256NoPrefetch(&k.dec, k.rounds, d, s, n, iv)
	case pathVAES512:
		cbcDecryptVAES512(&k.dec, k.rounds, d, s, n, iv)
	case pathVAES512NoPrefetch:
		cbcDecryptVAES512NoPrefetch(&k.dec, k.rounds, d, s, n, iv)
	}
	*iv = next
}

// CTR relies on the layer's guarantee that the low half of the counter does
// not wrap inside one call; the kernel advances it.
func (k *asmKernels) CTR(dst, src []byte, ctr *[BlockSize]byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	d, s := &dst[0], &src[0]
	switch k.pathFor(n) {
	case pathAESNI:
		ctrAESNI(&k.enc, k.rounds, d, s, n, ctr)
	case pathAESNINoPrefetch:
		ctrAESNINoPrefetch(&k.enc, k.rounds, d, s, n, ctr)
	case pathVAES256:
		ctrVAES256(&k.enc, k.rounds, d, s, n, ctr)
	case pathVAES256NoPrefetch:
		ctrVAES256NoPrefetch(&k.enc, k.rounds, d, s, n, ctr)
	case pathVAES512:
		ctrVAES512(&k.enc, k.rounds, d, s, n, ctr)
	case pathVAES512NoPrefetch:
		ctrVAES512NoPrefetch(&k.enc, k.rounds, d, s, n, ctr)
	}
}

func registerAsm(name string, p path, requires []cpu.Feature, variant bool, avoid func() string, notes string) {
	i := &impl.Impl{
		Cipher:   Name,
		Name:     name,
		Requires: requires,
		Variant:  variant,
		Avoid:    avoid,
		Notes:    notes,
		NewKernels: func(key []byte) (modes.Kernels, error) {
			return newAsmKernels(key, p)
		},
	}
	if p != pathAESNI {
		// CBC encryption is one serial chain: wide vectors cannot help it.
		i.Kernel = map[impl.Op]string{impl.CBCEncrypt: "aesni"}
	}
	impl.Register(i)
}

// avoidVAES512 is the preference table for the 512-bit path. On the CPUs
// named here 512-bit instructions lower the core clock (the same list the
// Linux kernel keeps for its AES code), and the 256-bit path runs the same
// number of AES rounds per cycle there, so it wins. Elsewhere (Sapphire and
// Emerald Rapids, Zen 4 and 5) the 512-bit path is at least as fast: on
// Emerald Rapids both run four block-rounds per cycle hot, and the 512-bit
// path is ahead on cold data.
func avoidVAES512() string {
	if cpu.WideVectorsDownclock() {
		return cpu.CPU().Uarch + " lowers its clock for 512-bit vectors"
	}
	return ""
}

func init() {
	// The 128-bit kernels use legacy SSE encodings (PSHUFB is SSSE3), so
	// AES-NI CPUs without AVX still get constant-time hardware AES.
	aesni := []cpu.Feature{cpu.AESNI, cpu.SSSE3}
	// The wide paths borrow the 128-bit kernels (CBC encryption, calls
	// shorter than one vector), so they need what those need too.
	vaes256 := []cpu.Feature{cpu.VAES, cpu.AVX2, cpu.SSSE3}
	vaes512 := []cpu.Feature{cpu.VAES, cpu.AVX512, cpu.SSSE3}
	// Dispatch preference is registration order: widest first.
	registerAsm("vaes512", pathVAES512, vaes512, false, avoidVAES512,
		"VAES on 512-bit vectors: 32 blocks in flight, all round keys in registers, 16/8/4-block steps then YMM/XMM tails; prefetch 2 KiB ahead")
	registerAsm("vaes256", pathVAES256, vaes256, false, nil,
		"VAES on 256-bit vectors (VEX): 16 blocks in flight, XMM tail; prefetch 2 KiB ahead")
	registerAsm("aesni", pathAESNI, aesni, false, nil,
		"AES-NI (legacy SSE encodings): 8 blocks in flight; serial CBC encryption for every path; prefetch 2 KiB ahead")
	registerAsm("vaes512-noprefetch", pathVAES512NoPrefetch, vaes512, true, nil,
		"vaes512 without software prefetch, for comparison")
	registerAsm("vaes256-noprefetch", pathVAES256NoPrefetch, vaes256, true, nil,
		"vaes256 without software prefetch, for comparison")
	registerAsm("aesni-noprefetch", pathAESNINoPrefetch, aesni, true, nil,
		"aesni without software prefetch, for comparison")
}

// AESRoundKeys gives the gcm and xts kernels this key's schedule (see
// modes.AESRoundKeys).
func (k *asmKernels) AESRoundKeys() (enc, dec *[240]byte, rounds int) {
	return &k.enc, &k.dec, k.rounds
}
