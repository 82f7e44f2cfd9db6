// Package xts implements the XTS mode of IEEE 1619 (XEX with ciphertext
// stealing) for sector encryption, with the API of golang.org/x/crypto/xts
// name for name: a drop-in replacement.
//
// When cipherFunc returns this module's AES blocks (aes.NewCipher), sectors
// run through assembly kernels that compute the tweaks in vector registers
// and encrypt many blocks at once (VAES on 512- or 256-bit vectors, or
// AES-NI), chosen at NewCipher from the CPU's features. Any other
// cipher.Block (crypto/aes, for one) runs the portable path: one Encrypt or
// Decrypt call per block, the tweak arithmetic in constant-time Go.
//
// # Differences from x/crypto/xts
//
// Sectors whose length is a multiple of 16 bytes produce exactly x/crypto's
// output. Sectors of at least 16 bytes that are not a multiple of 16, which
// x/crypto rejects with a panic, are encrypted with the ciphertext stealing
// of IEEE 1619-2018 section 5.3.2: the ciphertext has the plaintext's length.
// Sectors of 1 to 15 bytes panic, as XTS has no encryption for them.
// NewCipher returns a nil *Cipher with its error (x/crypto returns a
// half-built one), and it checks the block size of both halves of the key.
//
// XTS does not authenticate: an attacker can alter a sector undetected,
// randomising 16-byte blocks of its plaintext. It is meant for disk and
// sector encryption; other data wants an AEAD such as GCM.
package xts

import (
	"crypto/cipher"
	"errors"

	"github.com/simdcrypt/simdcrypt/internal/alias"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// blockSize is the block size XTS is defined for.
const blockSize = 16

// Cipher holds the two block ciphers of one XTS key. It is safe for
// concurrent use if the underlying block cipher is, as this module's AES is.
type Cipher struct {
	k1, k2 cipher.Block // data key and tweak key
	keys   *aesKeys     // the AES round keys, for the kernels; nil on the portable path
	path   *xtsPath
}

// aesKeys are the expanded keys the kernels read (see modes.AESRoundKeys):
// k1 in both directions, k2 for encryption only, since the tweak is always
// encrypted.
type aesKeys struct {
	enc1, dec1, enc2 *[240]byte
	rounds           int
}

// NewCipher creates a Cipher given a function for creating the underlying
// block cipher (which must have a block size of 16 bytes). The key must be
// twice the length of the underlying cipher's key: its first half keys the
// data, its second half the tweak.
func NewCipher(cipherFunc func([]byte) (cipher.Block, error), key []byte) (*Cipher, error) {
	return newCipher(cipherFunc, key, "")
}

// newCipher is NewCipher on the named path ("" for the one dispatch picks).
func newCipher(cipherFunc func([]byte) (cipher.Block, error), key []byte, pathName string) (*Cipher, error) {
	k1, err := cipherFunc(key[:len(key)/2])
	if err != nil {
		return nil, err
	}
	k2, err := cipherFunc(key[len(key)/2:])
	if err != nil {
		return nil, err
	}
	if k1.BlockSize() != blockSize || k2.BlockSize() != blockSize {
		return nil, errors.New("xts: cipher does not have a block size of 16")
	}
	c := &Cipher{k1: k1, k2: k2, keys: roundKeys(k1, k2)}
	if pathName == "" {
		c.path = choosePath(c.keys != nil)
		return c, nil
	}
	p := lookupPath(pathName)
	if p == nil || !p.available() || (p.kernel != kernelGeneric && c.keys == nil) {
		return nil, errors.New("xts: path " + pathName + " cannot run here")
	}
	c.path = p
	return c, nil
}

// roundKeys returns the two keys' AES schedules when both blocks are this
// module's AES with kernels that expose them, else nil.
func roundKeys(k1, k2 cipher.Block) *aesKeys {
	b1, ok1 := k1.(*modes.Block)
	b2, ok2 := k2.(*modes.Block)
	if !ok1 || !ok2 {
		return nil
	}
	r1, ok1 := b1.Kernels().(modes.AESRoundKeys)
	r2, ok2 := b2.Kernels().(modes.AESRoundKeys)
	if !ok1 || !ok2 {
		return nil
	}
	enc1, dec1, rounds1 := r1.AESRoundKeys()
	enc2, _, rounds2 := r2.AESRoundKeys()
	if rounds1 != rounds2 {
		return nil
	}
	return &aesKeys{enc1: enc1, dec1: dec1, enc2: enc2, rounds: rounds1}
}

// Impl returns the name of the code path the cipher runs ("vaes512",
// "vaes256", "aesni" or "generic").
func (c *Cipher) Impl() string { return c.path.name }

// Encrypt encrypts a sector of plaintext and puts the result into ciphertext.
// Plaintext and ciphertext must overlap entirely or not at all. The sector
// is empty or at least 16 bytes long; lengths that are not a multiple of 16
// use ciphertext stealing.
func (c *Cipher) Encrypt(ciphertext, plaintext []byte, sectorNum uint64) {
	c.sector(ciphertext, plaintext, sectorNum, false)
}

// Decrypt decrypts a sector of ciphertext and puts the result into plaintext.
// Plaintext and ciphertext must overlap entirely or not at all. The sector
// is empty or at least 16 bytes long; lengths that are not a multiple of 16
// use ciphertext stealing.
func (c *Cipher) Decrypt(plaintext, ciphertext []byte, sectorNum uint64) {
	c.sector(plaintext, ciphertext, sectorNum, true)
}

// sector checks dst and src as x/crypto/xts does, panicking with its
// messages, and runs one sector.
func (c *Cipher) sector(dst, src []byte, sectorNum uint64, decrypt bool) {
	dstName, srcName := "ciphertext", "plaintext"
	if decrypt {
		dstName, srcName = srcName, dstName
	}
	if len(dst) < len(src) {
		panic("xts: " + dstName + " is smaller than " + srcName)
	}
	if len(src) < blockSize && len(src) != 0 {
		panic("xts: " + srcName + " is not a multiple of the block size and shorter than one block, too short for ciphertext stealing")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("xts: invalid buffer overlap")
	}
	if len(src) == 0 {
		return
	}
	c.crypt(dst[:len(src)], src, sectorNum, 0, decrypt)
}

// crypt runs the cipher's path on len(src) >= 16 bytes. The tweak before
// its encryption under k2 is the 128-bit little-endian number tweakLo +
// tweakHi<<64: the sector number, for the exported methods.
func (c *Cipher) crypt(dst, src []byte, tweakLo, tweakHi uint64, decrypt bool) {
	if c.path.kernel == kernelGeneric {
		cryptGeneric(c.k1, c.k2, dst, src, tweakLo, tweakHi, decrypt)
		return
	}
	cryptAsm(c.path.kernel, c.keys, dst, src, tweakLo, tweakHi, decrypt)
}
