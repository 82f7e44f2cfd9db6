//go:build amd64 && !purego

package gcm

import (
	"crypto/cipher"
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/modes"
	"github.com/simdcrypt/simdcrypt/internal/tags"
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

// ghashWordsWith folds the block of big-endian words hi and lo into *y:
// through the one-block kernel, which takes them in registers, on every
// assembly path.
func ghashWordsWith(kind ghashKind, hk *hashKey, y *[16]byte, hi, lo uint64) {
	if kind == ghashPortable {
		foldWords(hk, y, hi, lo)
		return
	}
	ghashWordsAESNI(&hk.pow[0][0], y, hi, lo)
}

// aesBackend runs the stitched AES-GCM kernels of one width over the
// expanded key of a simdcrypt AES block.
type aesBackend struct {
	enc    *[240]byte // the block's encryption round keys, right-aligned
	keys   *byte      // &enc[0], as the bulk kernels take it
	rounds int
	hk     *hashKey
	kind   ghashKind
}

func newAESBackend(rk modes.AESRoundKeys, kind ghashKind) *aesBackend {
	enc, _, rounds := rk.AESRoundKeys()
	k := &aesBackend{enc: enc, keys: &enc[0], rounds: rounds, kind: kind}
	var z [16]byte
	encryptBlockAESNI(enc, rounds, &z, &z)
	k.hk = newHashKey(&z)
	clear(z[:])
	k.hk.powers(kind)
	return k
}

// powers fills in the key powers for the GHASH kind that reads them: by
// carry-less multiplication, which every assembly path's CPU has.
func (k *hashKey) powers(kind ghashKind) {
	if kind != ghashPortable {
		powersAESNI(&k.pow[0][0])
	}
}

// state is one message's working state, on the caller's stack: the
// counter block (J0 on entry to the kernel), the GHASH state, the tag (the
// kernel's E_K(J0) until finishAESNI) and a partial block's key stream.
type state struct {
	ctr, y, tag, x [16]byte
}

// j0Count is J0's counter field, 1, in place in the block's high word
// (little-endian). A variable: were it a constant, the compiler would
// split the word's store into narrower ones around the bytes it knows.
var j0Count uint64 = 1 << 56

// start writes J0 to s.ctr, where the kernel takes it, and hashes the
// additional data.
func (k *aesBackend) start(s *state, nonce, ad []byte) {
	if len(nonce) == standardNonceSize {
		// Two eight-byte stores, as the kernel loads it: a 16-byte load
		// over fresh narrower stores would wait for them to reach the
		// cache.
		lo, hi := nonceWords(nonce)
		hi |= j0Count
		binary.LittleEndian.PutUint64(s.ctr[:], lo)
		binary.LittleEndian.PutUint64(s.ctr[8:], hi)
	} else {
		k.hash(&s.ctr, nonce)
		ghashWordsAESNI(&k.hk.pow[0][0], &s.ctr, 0, uint64(len(nonce))*8)
		s.ctr = toGHASH(s.ctr)
	}
	k.hash(&s.y, ad)
}

// hash folds data, zero-padded to whole blocks, into *y.
func (k *aesBackend) hash(y *[16]byte, data []byte) {
	n := len(data) &^ (blockSize - 1)
	if n > 0 {
		kind := k.kind
		if n < 8*blockSize {
			kind = kindAESNI // skips the wide kernels' set-up
		}
		ghashWith(kind, k.hk, y, data[:n])
	}
	if n < len(data) {
		hi, lo := partialWords(data[n:])
		ghashWordsAESNI(&k.hk.pow[0][0], y, hi, lo)
	}
}

// partialWords returns the big-endian words of b (1 to 15 bytes) padded
// with zeros to a block, read in a few overlapping loads rather than
// copied to a buffer: the 16-byte load of a buffer just written byte by
// byte would wait for those stores to reach the cache. It branches on
// len(b) alone.
func partialWords(b []byte) (hi, lo uint64) {
	r := len(b)
	switch {
	case r >= 8:
		// The last eight bytes end at r: shifted up, bytes 8..r-1 lead.
		return binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[r-8:]) << (8 * (16 - r))
	case r >= 4:
		// Two four-byte loads that overlap where r < 8 (the same bytes).
		head := uint64(binary.BigEndian.Uint32(b)) << 32
		tail := uint64(binary.BigEndian.Uint32(b[r-4:])) << 32 >> (8 * (r - 4))
		return head | tail, 0
	}
	for i, c := range b {
		hi |= uint64(c) << (56 - 8*i)
	}
	return hi, 0
}

// tailMask keeps the first r (1 to 15) bytes of a block's big-endian words.
func tailMask(r int) (hi, lo uint64) {
	if r >= 8 {
		return ^uint64(0), ^uint64(0) << (8 * (16 - r))
	}
	return ^uint64(0) << (8 * (8 - r)), 0
}

func (k *aesBackend) seal(out, nonce, plaintext, ad []byte, tagSize int) {
	var s state
	k.start(&s, nonce, ad)
	n := len(plaintext) &^ (blockSize - 1)
	d, src := &s.x[0], &s.x[0] // never read when there are no whole blocks
	if n > 0 {
		d, src = &out[0], &plaintext[0]
	}
	hk := &k.hk.pow[0][0]
	// A whole 16-byte tag goes straight to out, which the kernel's mask
	// and finishAESNI's tag write in place of s.tag (past the plaintext,
	// which out may be, and no longer read by then): no copy of it after.
	tag := &s.tag
	if tagSize == blockSize {
		tag = (*[16]byte)(out[len(plaintext):])
	}
	k.kind.sealBlocks(k.keys, k.rounds, hk, d, src, n/blockSize, &s.ctr, &s.y, tag)
	if r := len(plaintext) - n; r > 0 {
		// The ciphertext's words, from the plaintext's (read before out,
		// which may be the plaintext, is written) and the key stream's
		// (eight-byte loads of the kernel's one 16-byte store).
		hi, lo := partialWords(plaintext[n:])
		encryptBlockAESNI(k.enc, k.rounds, &s.x, &s.ctr)
		for i := range r {
			out[n+i] = plaintext[n+i] ^ s.x[i]
		}
		mhi, mlo := tailMask(r)
		hi ^= binary.BigEndian.Uint64(s.x[:]) & mhi
		lo ^= binary.BigEndian.Uint64(s.x[8:]) & mlo
		ghashWordsAESNI(hk, &s.y, hi, lo)
	}
	finishAESNI(hk, &s.y, uint64(len(ad))*8, uint64(len(plaintext))*8, tag)
	if tagSize != blockSize {
		copy(out[len(plaintext):], s.tag[:tagSize])
	}
}

func (k *aesBackend) open(out, nonce, ciphertext, ad []byte, tagSize int) bool {
	tag := ciphertext[len(ciphertext)-tagSize:]
	ciphertext = ciphertext[:len(ciphertext)-tagSize]
	var s state
	k.start(&s, nonce, ad)
	n := len(ciphertext) &^ (blockSize - 1)
	d, src := &s.x[0], &s.x[0]
	if n > 0 {
		d, src = &out[0], &ciphertext[0]
	}
	hk := &k.hk.pow[0][0]
	k.kind.openBlocks(k.keys, k.rounds, hk, d, src, n/blockSize, &s.ctr, &s.y, &s.tag)
	if r := len(ciphertext) - n; r > 0 {
		hi, lo := partialWords(ciphertext[n:])
		ghashWordsAESNI(hk, &s.y, hi, lo)
		encryptBlockAESNI(k.enc, k.rounds, &s.x, &s.ctr)
		for i := range r {
			out[n+i] = ciphertext[n+i] ^ s.x[i]
		}
	}
	finishAESNI(hk, &s.y, uint64(len(ad))*8, uint64(len(ciphertext))*8, &s.tag)
	return tags.Equal(&s.tag, tag)
}

// asmPath returns the path of one kernel width: the stitched kernels for an
// AES block whose expanded key it can read, the block's own counter-mode
// kernel and this width's GHASH for any other simdcrypt block (ARIA).
func asmPath(name string, kind ghashKind, requires []cpu.Feature, wide bool, notes string) path {
	return path{
		Name:     name,
		Requires: requires,
		Wide:     wide,
		Notes:    notes,
		New: func(b cipher.Block, nonceSize, tagSize int) cipher.AEAD {
			mb, ok := b.(*modes.Block)
			if !ok {
				return nil
			}
			if rk, ok := mb.Kernels().(modes.AESRoundKeys); ok {
				return wrapAEAD(&aead{fast: newAESBackend(rk, kind), nonceSize: nonceSize, tagSize: tagSize, path: name})
			}
			return newGCM(newKernelsBackend(mb.Kernels(), ghashFor(kind)), nonceSize, tagSize, name)
		},
	}
}

func pathList() []path {
	return []path{
		stdlibPath,
		asmPath("vaes512", kindVAES512, []cpu.Feature{cpu.VAES, cpu.VPCLMULQDQ, cpu.AVX512, cpu.SSSE3}, true,
			"VAES and VPCLMULQDQ on 512-bit vectors: AES rounds and GHASH stitched, 32 blocks per reduction, round keys in registers"),
		asmPath("vaes256", kindVAES256, []cpu.Feature{cpu.VAES, cpu.VPCLMULQDQ, cpu.AVX2, cpu.SSSE3}, false,
			"VAES and VPCLMULQDQ on 256-bit vectors (VEX only): AES rounds and GHASH stitched, 64 blocks per reduction (groups of four 16-block batches), counter blocks from general-purpose code and the GHASH work between each round's AES instructions for 96-bit nonces"),
		asmPath("aesni", kindAESNI, []cpu.Feature{cpu.AESNI, cpu.PCLMULQDQ, cpu.AVX, cpu.SSSE3}, false,
			"AES-NI and PCLMULQDQ (VEX): AES rounds and GHASH stitched, 8 blocks per reduction"),
		genericPath,
	}
}
