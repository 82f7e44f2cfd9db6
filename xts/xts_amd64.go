//go:build amd64 && !purego

package xts

import "github.com/simdcrypt/simdcrypt/internal/cpu"

// asmPaths are the kernels of xts_amd64.s, widest first. They take the
// round keys of aes's assembly paths, so they need SSSE3 as those do (with
// ssse3=off AES runs the portable path and XTS its generic one). Each kernel
// encrypts the tweak with k2, ciphers all whole blocks and does the
// ciphertext stealing itself (see _asm/xts).
var asmPaths = []*xtsPath{
	{
		name:     "vaes512",
		requires: []cpu.Feature{cpu.VAES, cpu.VPCLMULQDQ, cpu.AVX512, cpu.AVX512VBMI2, cpu.SSSE3},
		wide:     true,
		kernel:   kernelVAES512,
		notes:    "VAES on 512-bit vectors: 32 blocks in flight, tweaks advanced by x^32 with VPCLMULQDQ, masked stealing",
	},
	{
		name:     "vaes256",
		requires: []cpu.Feature{cpu.VAES, cpu.VPCLMULQDQ, cpu.AVX2, cpu.SSSE3},
		kernel:   kernelVAES256,
		notes:    "VAES on 256-bit vectors (VEX): 12 blocks in flight",
	},
	{
		name:     "aesni",
		requires: []cpu.Feature{cpu.AESNI, cpu.PCLMULQDQ, cpu.AVX, cpu.SSSE3},
		kernel:   kernelAESNI,
		notes:    "AES-NI and PCLMULQDQ in VEX (AVX) encodings: 8 blocks in flight, keys from memory",
	},
}

// cryptAsm calls the kernel directly in each case, without the wrapper an
// indirect call through a func value costs: at 512-byte sectors the call is
// a visible share of the time.
func cryptAsm(k kernel, keys *aesKeys, dst, src []byte, tweakLo, tweakHi uint64, decrypt bool) {
	d, s, n := &dst[0], &src[0], len(src)
	switch {
	case k == kernelVAES512 && !decrypt:
		xtsEncryptVAES512(keys.enc1, keys.enc2, keys.rounds, d, s, n, tweakLo, tweakHi)
	case k == kernelVAES512:
		xtsDecryptVAES512(keys.dec1, keys.enc2, keys.rounds, d, s, n, tweakLo, tweakHi)
	case k == kernelVAES256 && !decrypt:
		xtsEncryptVAES256(keys.enc1, keys.enc2, keys.rounds, d, s, n, tweakLo, tweakHi)
	case k == kernelVAES256:
		xtsDecryptVAES256(keys.dec1, keys.enc2, keys.rounds, d, s, n, tweakLo, tweakHi)
	case k == kernelAESNI && !decrypt:
		xtsEncryptAESNI(keys.enc1, keys.enc2, keys.rounds, d, s, n, tweakLo, tweakHi)
	case k == kernelAESNI:
		xtsDecryptAESNI(keys.dec1, keys.enc2, keys.rounds, d, s, n, tweakLo, tweakHi)
	default:
		panic("xts: unknown kernel")
	}
}
