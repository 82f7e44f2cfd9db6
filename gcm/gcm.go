// Package gcm implements the Galois/Counter Mode AEAD (NIST SP 800-38D) over
// any 128-bit block cipher, with the constructors and behaviour of
// crypto/cipher's NewGCM family.
//
// crypto/cipher.NewGCM takes its fast path only for crypto/aes blocks: over
// a block from simdcrypt's aes or aria package it runs a slow generic GCM.
// New and its siblings here reach simdcrypt's kernels instead: for AES,
// counter mode and GHASH stitched in one loop on VAES (512- or 256-bit
// vectors) or AES-NI; for ARIA, ARIA's own counter-mode kernels with a
// carry-less-multiply GHASH. Any other cipher.Block gets a portable GCM
// whose GHASH uses no table indexed by secret data. Off amd64, an AES block
// that runs on crypto/aes is handed to crypto/cipher itself.
//
// The paths, chosen when the AEAD is made, in order of preference: stdlib
// (the crypto/aes case above), vaes512 (unless the CPU lowers its clock for
// 512-bit vectors), vaes256, aesni, generic. SIMDCRYPT_CPU masks (see
// simdcrypt's README) apply as for the ciphers: aesni=off, vaes=off,
// avx512=off or vpclmulqdq=off move dispatch down the list.
//
// Every path is constant-time: no branch or memory index depends on the key
// or the data (only on lengths and the public nonce); tags are compared
// with crypto/subtle, and a failed Open leaves no plaintext in dst.
package gcm

import (
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"

	"github.com/simdcrypt/simdcrypt/internal/alias"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/tags"
)

const (
	blockSize         = 16
	standardNonceSize = 12
	standardTagSize   = 16
	minimumTagSize    = 12 // NIST SP 800-38D recommends tags of 12 or more bytes
	// maxPlaintext is the GCM limit of 2^32 - 2 blocks per message.
	maxPlaintext = uint64(1<<32-2) * blockSize
)

// The errors are crypto/cipher's, word for word, so that callers matching
// on text see no difference.
var (
	errOpen      = errors.New("cipher: message authentication failed")
	errTagSize   = errors.New("cipher: incorrect tag size given to GCM")
	errNonceSize = errors.New("cipher: the nonce can't have zero length")
	errBlockSize = errors.New("cipher: NewGCM requires 128-bit block cipher")
)

// New returns b in Galois Counter Mode with the standard 12-byte nonce and
// 16-byte tag, as crypto/cipher.NewGCM does.
func New(b cipher.Block) (cipher.AEAD, error) {
	return newAEAD(b, standardNonceSize, standardTagSize)
}

// NewWithNonceSize returns b in Galois Counter Mode with nonces of size
// bytes, as crypto/cipher.NewGCMWithNonceSize does. Use it only for
// compatibility with existing systems: nonces of other than 12 bytes go
// through GHASH and lose the counter's uniqueness guarantee.
func NewWithNonceSize(b cipher.Block, size int) (cipher.AEAD, error) {
	return newAEAD(b, size, standardTagSize)
}

// NewWithTagSize returns b in Galois Counter Mode with tags of tagSize
// bytes (12 to 16), as crypto/cipher.NewGCMWithTagSize does.
func NewWithTagSize(b cipher.Block, tagSize int) (cipher.AEAD, error) {
	return newAEAD(b, standardNonceSize, tagSize)
}

// NewWithRandomNonce returns b in Galois Counter Mode with a random 12-byte
// nonce, as crypto/cipher.NewGCMWithRandomNonce does: NonceSize is 0, Seal
// draws the nonce from crypto/rand and prepends it to the ciphertext, and
// Overhead is 28. Unlike crypto/cipher it accepts any 128-bit block.
func NewWithRandomNonce(b cipher.Block) (cipher.AEAD, error) {
	if b.BlockSize() != blockSize {
		return nil, errBlockSize
	}
	return choose(b, randomNonce, standardTagSize)
}

// randomNonce, as a nonce size, asks a path for NewWithRandomNonce's AEAD.
const randomNonce = 0

func newAEAD(b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	// crypto/cipher's order of checks, so that the same bad input gets the
	// same error.
	if tagSize < minimumTagSize || tagSize > blockSize {
		return nil, errTagSize
	}
	if nonceSize <= 0 {
		return nil, errNonceSize
	}
	if b.BlockSize() != blockSize {
		return nil, errBlockSize
	}
	return choose(b, nonceSize, tagSize)
}

// choose hands an AES block that runs on crypto/aes to the stdlib path;
// any other block goes to the path the catalogue table chooses (cached
// per CPU mask), or to generic when that path does not serve the block
// (a block from another module: the assembly paths need this module's
// kernels).
func choose(b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	if cpu.HasAll(stdlibPath.Requires...) { // unless masked (stdlib=off, all=off)
		if a := stdlibPath.New(b, nonceSize, tagSize); a != nil {
			return a, nil
		}
	}
	if a := table.Chosen().New(b, nonceSize, tagSize); a != nil {
		return a, nil
	}
	return genericPath.New(b, nonceSize, tagSize), nil
}

// backend is one path's whole-block work. Counter blocks and the GHASH
// state travel by value: pointers into the caller's frame, passed through
// an interface, would move them to the heap on every call.
type backend interface {
	// encrypt returns E_K(c).
	encrypt(c [16]byte) [16]byte
	// ghash folds whole blocks into y (POLYVAL form, see polyval.go).
	ghash(y [16]byte, blocks []byte) [16]byte
	// ghashBlock folds one block into y.
	ghashBlock(y, x [16]byte) [16]byte
	// ghashWords folds into y the block whose big-endian words are hi
	// and lo, passed in registers: a block built of narrower stores (the
	// lengths block) and then copied 16 bytes at a time would wait for
	// them to reach the cache.
	ghashWords(y [16]byte, hi, lo uint64) [16]byte
	// seal encrypts whole blocks from counter block c (the low 32 bits
	// counting modulo 2^32) and hashes the ciphertext; open hashes then
	// decrypts. Both return the next counter block and the new state.
	seal(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte)
	open(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte)
}

// aead is GCM over one backend, or over the AES kernels' own entry points
// (fast): those keep the message's state on the stack and call the
// assembly directly, where a backend's interface calls would pay for
// passing it around by value on every small message.
type aead struct {
	k         backend
	fast      *aesBackend
	nonceSize int
	tagSize   int
	path      string
}

func newGCM(k backend, nonceSize, tagSize int, pathName string) cipher.AEAD {
	return wrapAEAD(&aead{k: k, nonceSize: nonceSize, tagSize: tagSize, path: pathName})
}

// wrapAEAD finishes g, which has its nonce size as asked: randomNonce
// gets NewWithRandomNonce's wrapper.
func wrapAEAD(g *aead) cipher.AEAD {
	nonceSize := g.nonceSize
	if nonceSize == randomNonce {
		g.nonceSize = standardNonceSize
		return &randomNonceAEAD{g}
	}
	return g
}

func (g *aead) NonceSize() int { return g.nonceSize }
func (g *aead) Overhead() int  { return g.tagSize }

func (g *aead) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != g.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to GCM")
	}
	if uint64(len(plaintext)) > maxPlaintext {
		panic("crypto/cipher: message too large for GCM")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+g.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	// The AES kernels' entry straight from here (as in Open): a call level
	// less per message than through g.seal.
	if g.fast != nil {
		g.fast.seal(out, nonce, plaintext, additionalData, g.tagSize)
	} else {
		g.seal(out, nonce, plaintext, additionalData)
	}
	return ret
}

func (g *aead) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != g.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to GCM")
	}
	if len(ciphertext) < g.tagSize {
		return nil, errOpen
	}
	if uint64(len(ciphertext)) > maxPlaintext+uint64(g.tagSize) {
		return nil, errOpen
	}
	ret, out := alias.SliceForAppend(dst, len(ciphertext)-g.tagSize)
	if alias.InexactOverlap(out, ciphertext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	var ok bool
	if g.fast != nil {
		ok = g.fast.open(out, nonce, ciphertext, additionalData, g.tagSize)
	} else {
		ok = g.open(out, nonce, ciphertext, additionalData)
	}
	if !ok {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// seal writes the ciphertext and tag of plaintext to out.
func (g *aead) seal(out, nonce, plaintext, ad []byte) {
	if g.fast != nil {
		g.fast.seal(out, nonce, plaintext, ad, g.tagSize)
		return
	}
	j0, c, y := g.begin(nonce, ad)
	tagMask := g.k.encrypt(j0)
	n := len(plaintext) &^ (blockSize - 1)
	if n > 0 {
		c, y = g.k.seal(out[:n], plaintext[:n], c, y)
	}
	if r := len(plaintext) - n; r > 0 {
		ks := g.k.encrypt(c)
		var x [16]byte
		for i := range r {
			x[i] = plaintext[n+i] ^ ks[i]
		}
		copy(out[n:], x[:r])
		y = g.k.ghashBlock(y, x)
	}
	y = g.k.ghashWords(y, uint64(len(ad))*8, uint64(len(plaintext))*8)
	putTag(out[len(plaintext):], y, tagMask)
}

// open decrypts into out with the generic kernels (Open, its one caller,
// takes g.fast itself) and reports whether the tag matched; the caller
// clears out when it did not.
func (g *aead) open(out, nonce, ciphertext, ad []byte) bool {
	tag := ciphertext[len(ciphertext)-g.tagSize:]
	ciphertext = ciphertext[:len(ciphertext)-g.tagSize]
	j0, c, y := g.begin(nonce, ad)
	tagMask := g.k.encrypt(j0)
	n := len(ciphertext) &^ (blockSize - 1)
	if n > 0 {
		c, y = g.k.open(out[:n], ciphertext[:n], c, y)
	}
	if r := len(ciphertext) - n; r > 0 {
		var x [16]byte
		copy(x[:], ciphertext[n:])
		y = g.k.ghashBlock(y, x)
		ks := g.k.encrypt(c)
		for i := range r {
			x[i] ^= ks[i]
		}
		copy(out[n:], x[:r])
	}
	y = g.k.ghashWords(y, uint64(len(ad))*8, uint64(len(ciphertext))*8)
	var want [16]byte
	putTag(want[:], y, tagMask)
	return tags.Equal(&want, tag)
}

// begin starts a message of the portable path: J0 (whose encryption
// masks the tag), the first counter block after it and the GHASH state
// over ad.
func (g *aead) begin(nonce, ad []byte) (j0, c, y [16]byte) {
	if len(nonce) == standardNonceSize {
		// Each block written whole from the nonce in two 8-byte stores:
		// narrower stores, or a copy of one block into the other, would
		// make the kernels' 16-byte loads of them wait for the cache.
		lo, hi := nonceWords(nonce)
		binary.LittleEndian.PutUint64(j0[:], lo)
		binary.LittleEndian.PutUint64(j0[8:], hi|1<<56)
		binary.LittleEndian.PutUint64(c[:], lo)
		binary.LittleEndian.PutUint64(c[8:], hi|2<<56)
	} else {
		y = g.hash([16]byte{}, nonce)
		y = g.k.ghashWords(y, 0, uint64(len(nonce))*8)
		j0 = toGHASH(y)
		c = inc32(j0)
	}
	return j0, c, g.hash([16]byte{}, ad)
}

// nonceWords returns the little-endian words of the counter block of a
// 96-bit nonce with its counter field zero.
func nonceWords(nonce []byte) (lo, hi uint64) {
	return binary.LittleEndian.Uint64(nonce), uint64(binary.LittleEndian.Uint32(nonce[8:]))
}

// hash folds data, zero-padded to whole blocks, into y.
func (g *aead) hash(y [16]byte, data []byte) [16]byte {
	n := len(data) &^ (blockSize - 1)
	if n > 0 {
		y = g.k.ghash(y, data[:n])
	}
	if n < len(data) {
		var x [16]byte
		copy(x[:], data[n:])
		y = g.k.ghashBlock(y, x)
	}
	return y
}

// foldWords folds into *y, by the portable GHASH, the block whose
// big-endian words are hi and lo.
func foldWords(hk *hashKey, y *[16]byte, hi, lo uint64) {
	var x [16]byte
	binary.BigEndian.PutUint64(x[:], hi)
	binary.BigEndian.PutUint64(x[8:], lo)
	ghashGeneric(hk.h, y, x[:])
}

// toGHASH turns a POLYVAL-form state into GHASH's byte order: the block
// reversed, in two 8-byte words (byte loops and their narrow stores would
// stall the 16-byte loads of the result).
func toGHASH(y [16]byte) (b [16]byte) {
	binary.BigEndian.PutUint64(b[:], binary.LittleEndian.Uint64(y[8:]))
	binary.BigEndian.PutUint64(b[8:], binary.LittleEndian.Uint64(y[:]))
	return b
}

// putTag writes the first len(dst) (12 to 16) bytes of the tag, state y
// in GHASH's byte order XOR mask, in 8-byte words where dst has room.
func putTag(dst []byte, y, mask [16]byte) {
	hi := binary.LittleEndian.Uint64(y[8:]) ^ binary.BigEndian.Uint64(mask[:])
	lo := binary.LittleEndian.Uint64(y[:]) ^ binary.BigEndian.Uint64(mask[8:])
	binary.BigEndian.PutUint64(dst, hi)
	if len(dst) == blockSize {
		binary.BigEndian.PutUint64(dst[8:], lo)
		return
	}
	for i := 8; i < len(dst); i++ {
		dst[i] = byte(lo >> (64 - 8*(i-7)))
	}
}

// inc32 adds one to the counter block's low 32 bits, modulo 2^32.
func inc32(c [16]byte) [16]byte {
	binary.BigEndian.PutUint32(c[12:], binary.BigEndian.Uint32(c[12:])+1)
	return c
}

// randomNonceAEAD is NewWithRandomNonce's AEAD, crypto/cipher's
// gcmWithRandomNonce case by case.
type randomNonceAEAD struct{ g *aead }

func (r *randomNonceAEAD) NonceSize() int { return 0 }
func (r *randomNonceAEAD) Overhead() int  { return standardNonceSize + r.g.tagSize }

func (r *randomNonceAEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != 0 {
		panic("crypto/cipher: non-empty nonce passed to GCMWithRandomNonce")
	}
	if uint64(len(plaintext)) > maxPlaintext {
		panic("crypto/cipher: message too large for GCM")
	}
	ret, out := alias.SliceForAppend(dst, standardNonceSize+len(plaintext)+r.g.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	nonce = out[:standardNonceSize]
	ciphertext := out[standardNonceSize:]
	if alias.AnyOverlap(out, plaintext) {
		// In place: the plaintext moves up past the nonce first.
		copy(ciphertext, plaintext)
		plaintext = ciphertext[:len(plaintext)]
	}
	rand.Read(nonce)
	r.g.seal(ciphertext, nonce, plaintext, additionalData)
	return ret
}

func (r *randomNonceAEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != 0 {
		panic("crypto/cipher: non-empty nonce passed to GCMWithRandomNonce")
	}
	if len(ciphertext) < standardNonceSize+r.g.tagSize {
		return nil, errOpen
	}
	ret, out := alias.SliceForAppend(dst, len(ciphertext)-standardNonceSize-r.g.tagSize)
	if alias.InexactOverlap(out, ciphertext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	if alias.AnyOverlap(out, ciphertext) {
		nonce = make([]byte, standardNonceSize)
		copy(nonce, ciphertext)
		copy(out[:len(ciphertext)], ciphertext[standardNonceSize:])
		ciphertext = out[:len(ciphertext)-standardNonceSize]
	} else {
		nonce = ciphertext[:standardNonceSize]
		ciphertext = ciphertext[standardNonceSize:]
	}
	if _, err := r.g.Open(out[:0], nonce, ciphertext, additionalData); err != nil {
		return nil, err
	}
	return ret, nil
}
