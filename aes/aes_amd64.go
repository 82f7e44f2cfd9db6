//go:build amd64 && !purego

package aes

import (
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/impl"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// asmFuncs are the kernels of one code path (see _asm/aes for their
// contract: whole blocks, n may be zero, round keys right-aligned in a
// 240-byte table).
type asmFuncs struct {
	encrypt, decrypt func(keys *[240]byte, rounds int, dst, src *byte, n int)
	cbcDecrypt       func(keys *[240]byte, rounds int, dst, src *byte, n int, iv *[16]byte)
	ctr              func(keys *[240]byte, rounds int, dst, src *byte, n int, ctr *[16]byte)
}

var (
	funcsAESNI           = &asmFuncs{encryptBlocksAESNI, decryptBlocksAESNI, cbcDecryptAESNI, ctrAESNI}
	funcsAESNINoPrefetch = &asmFuncs{encryptBlocksAESNINoPrefetch, decryptBlocksAESNINoPrefetch,
		cbcDecryptAESNINoPrefetch, ctrAESNINoPrefetch}
	funcsVAES256           = &asmFuncs{encryptBlocksVAES256, decryptBlocksVAES256, cbcDecryptVAES256, ctrVAES256}
	funcsVAES256NoPrefetch = &asmFuncs{encryptBlocksVAES256NoPrefetch, decryptBlocksVAES256NoPrefetch,
		cbcDecryptVAES256NoPrefetch, ctrVAES256NoPrefetch}
	funcsVAES512           = &asmFuncs{encryptBlocksVAES512, decryptBlocksVAES512, cbcDecryptVAES512, ctrVAES512}
	funcsVAES512NoPrefetch = &asmFuncs{encryptBlocksVAES512NoPrefetch, decryptBlocksVAES512NoPrefetch,
		cbcDecryptVAES512NoPrefetch, ctrVAES512NoPrefetch}
)

// asmKernels implements modes.Kernels with one path's assembly.
type asmKernels struct {
	// Round keys right-aligned: the last at offset 224, the first at
	// 16*(14-rounds); the slots before it stay zero.
	enc, dec [240]byte
	rounds   int
	f        *asmFuncs
}

func newAsmKernels(key []byte, f *asmFuncs) (modes.Kernels, error) {
	s, err := expandKey(key)
	if err != nil {
		return nil, err
	}
	k := &asmKernels{rounds: s.rounds, f: f}
	first := 16 * (maxRounds - s.rounds)
	copy(k.enc[first:], s.encBytes())
	copy(k.dec[first:], s.decBytes())
	return k, nil
}

func (k *asmKernels) EncryptBlocks(dst, src []byte) {
	if n := len(src) / BlockSize; n > 0 {
		k.f.encrypt(&k.enc, k.rounds, &dst[0], &src[0], n)
	}
}

func (k *asmKernels) DecryptBlocks(dst, src []byte) {
	if n := len(src) / BlockSize; n > 0 {
		k.f.decrypt(&k.dec, k.rounds, &dst[0], &src[0], n)
	}
}

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
	k.f.cbcDecrypt(&k.dec, k.rounds, &dst[0], &src[0], n, iv)
	*iv = next
}

func (k *asmKernels) CTR(dst, src []byte, ctr *[BlockSize]byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	// The layer guarantees the low half does not wrap inside one call; the
	// kernel advances it.
	k.f.ctr(&k.enc, k.rounds, &dst[0], &src[0], n, ctr)
}

func registerAsm(name string, f *asmFuncs, requires []cpu.Feature, variant bool, avoid func() string, notes string) {
	i := &impl.Impl{
		Cipher:   Name,
		Name:     name,
		Requires: requires,
		Variant:  variant,
		Avoid:    avoid,
		Notes:    notes,
		NewKernels: func(key []byte) (modes.Kernels, error) {
			return newAsmKernels(key, f)
		},
	}
	if f != funcsAESNI {
		// CBC encryption is one serial chain: wide vectors cannot help it.
		i.Kernel = map[impl.Op]string{impl.CBCEncrypt: "aesni"}
	}
	impl.Register(i)
}

func avoidVAES512() string {
	if cpu.WideVectorsDownclock() {
		return "this CPU lowers its clock for 512-bit vectors"
	}
	return ""
}

func init() {
	aesni := []cpu.Feature{cpu.AESNI, cpu.AVX}
	vaes256 := []cpu.Feature{cpu.VAES, cpu.AVX2}
	vaes512 := []cpu.Feature{cpu.VAES, cpu.AVX512}
	// Dispatch preference is registration order: widest first.
	registerAsm("vaes512", funcsVAES512, vaes512, false, avoidVAES512,
		"VAES on 512-bit vectors, 32 blocks in flight, round keys in registers")
	registerAsm("vaes256", funcsVAES256, vaes256, false, nil,
		"VAES on 256-bit vectors, 16 blocks in flight")
	registerAsm("aesni", funcsAESNI, aesni, false, nil,
		"AES-NI (VEX encoded), 8 blocks in flight")
	registerAsm("vaes512-noprefetch", funcsVAES512NoPrefetch, vaes512, true, nil,
		"vaes512 without software prefetch, for comparison")
	registerAsm("vaes256-noprefetch", funcsVAES256NoPrefetch, vaes256, true, nil,
		"vaes256 without software prefetch, for comparison")
	registerAsm("aesni-noprefetch", funcsAESNINoPrefetch, aesni, true, nil,
		"aesni without software prefetch, for comparison")
}
