//go:build amd64 && !purego

package gcm

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// ghashKind selects a GHASH implementation: the portable one or the
// assembly of one vector width.
type ghashKind uint8

const (
	ghashPortable ghashKind = iota
	kindAESNI
	kindVAES256
	kindVAES512
)

func ghashWith(kind ghashKind, hk *hashKey, y *[16]byte, blocks []byte) {
	n := len(blocks) / blockSize
	if n == 0 {
		return
	}
	switch kind {
	case kindAESNI:
		ghashAESNI(&hk.pow[0][0], y, &blocks[0], n)
	case kindVAES256:
		ghashVAES256(&hk.pow[0][0], y, &blocks[0], n)
	case kindVAES512:
		ghashVAES512(&hk.pow[0][0], y, &blocks[0], n)
	default:
		ghashGeneric(hk.h, y, blocks)
	}
}

// aesBackend runs the stitched AES-GCM kernels of one width over the
// expanded key of a simdcrypt AES block.
type aesBackend struct {
	enc    *[240]byte // the block's encryption round keys, right-aligned
	rounds int
	hk     *hashKey
	kind   ghashKind
}

func newAESBackend(rk modes.AESRoundKeys, kind ghashKind) *aesBackend {
	enc, _, rounds := rk.AESRoundKeys()
	k := &aesBackend{enc: enc, rounds: rounds, kind: kind}
	var z [16]byte
	encryptBlockAESNI(enc, rounds, &z, &z)
	k.hk = newHashKey(&z)
	clear(z[:])
	return k
}

func (k *aesBackend) encrypt(c [16]byte) [16]byte {
	encryptBlockAESNI(k.enc, k.rounds, &c, &c)
	return c
}

func (k *aesBackend) ghash(y [16]byte, blocks []byte) [16]byte {
	ghashWith(k.kind, k.hk, &y, blocks)
	return y
}

func (k *aesBackend) ghashBlock(y, x [16]byte) [16]byte {
	// One block: the 128-bit kernel, whatever the path, skips the wide
	// kernels' set-up.
	ghashAESNI(&k.hk.pow[0][0], &y, &x[0], 1)
	return y
}

func (k *aesBackend) seal(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte) {
	n := len(src) / blockSize
	d, s, hk := &dst[0], &src[0], &k.hk.pow[0][0]
	switch k.kind {
	case kindVAES512:
		sealVAES512(k.enc, k.rounds, hk, d, s, n, &c, &y)
	case kindVAES256:
		sealVAES256(k.enc, k.rounds, hk, d, s, n, &c, &y)
	default:
		sealAESNI(k.enc, k.rounds, hk, d, s, n, &c, &y)
	}
	return c, y
}

func (k *aesBackend) open(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte) {
	n := len(src) / blockSize
	d, s, hk := &dst[0], &src[0], &k.hk.pow[0][0]
	switch k.kind {
	case kindVAES512:
		openVAES512(k.enc, k.rounds, hk, d, s, n, &c, &y)
	case kindVAES256:
		openVAES256(k.enc, k.rounds, hk, d, s, n, &c, &y)
	default:
		openAESNI(k.enc, k.rounds, hk, d, s, n, &c, &y)
	}
	return c, y
}

// asmPath returns the path of one kernel width: the stitched kernels for an
// AES block whose expanded key it can read, the block's own counter-mode
// kernel and this width's GHASH for any other simdcrypt block (ARIA).
func asmPath(name string, kind ghashKind, requires []cpu.Feature, avoid func() string, notes string) Path {
	return Path{
		Name:     name,
		Requires: requires,
		Avoid:    avoid,
		Notes:    notes,
		New: func(b cipher.Block, nonceSize, tagSize int) cipher.AEAD {
			mb, ok := b.(*modes.Block)
			if !ok {
				return nil
			}
			if rk, ok := mb.Kernels().(modes.AESRoundKeys); ok {
				return newGCM(newAESBackend(rk, kind), nonceSize, tagSize, name)
			}
			return newGCM(newKernelsBackend(mb.Kernels(), kind), nonceSize, tagSize, name)
		},
	}
}

// avoidVAES512 is the aes package's rule: on the CPUs that lower their
// clock for 512-bit vectors the 256-bit path wins.
func avoidVAES512() string {
	if cpu.WideVectorsDownclock() {
		return cpu.CPU().Uarch + " lowers its clock for 512-bit vectors"
	}
	return ""
}

func init() {
	paths = []Path{
		stdlibPath,
		asmPath("vaes512", kindVAES512, []cpu.Feature{cpu.VAES, cpu.VPCLMULQDQ, cpu.AVX512}, avoidVAES512,
			"VAES and VPCLMULQDQ on 512-bit vectors: AES rounds and GHASH stitched, 16 blocks per reduction, round keys in registers"),
		asmPath("vaes256", kindVAES256, []cpu.Feature{cpu.VAES, cpu.VPCLMULQDQ, cpu.AVX2}, nil,
			"VAES and VPCLMULQDQ on 256-bit vectors (VEX only): AES rounds and GHASH stitched, 8 blocks per reduction"),
		asmPath("aesni", kindAESNI, []cpu.Feature{cpu.AESNI, cpu.PCLMULQDQ, cpu.AVX}, nil,
			"AES-NI and PCLMULQDQ (VEX): AES rounds and GHASH stitched, 8 blocks per reduction"),
		genericPath,
	}
}
