package xts

import (
	"crypto/cipher"
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// NewCipherOnPath is NewCipher pinned to the named path; it fails where the
// path cannot run (the CPU lacks a feature, or the blocks are not this
// module's AES for an assembly path).
func NewCipherOnPath(path string, cipherFunc func([]byte) (cipher.Block, error), key []byte) (*Cipher, error) {
	return newCipher(cipherFunc, key, path)
}

// PathInfo describes one row of the dispatch table to the tests.
type PathInfo struct {
	Name    string
	Usable  bool
	Missing []cpu.Feature
}

// Paths returns the dispatch table, preferred first.
func Paths() []PathInfo {
	var ps []PathInfo
	for _, p := range paths {
		info := PathInfo{Name: p.name, Usable: p.available()}
		for _, f := range p.requires {
			if !cpu.Has(f) {
				info.Missing = append(info.Missing, f)
			}
		}
		ps = append(ps, info)
	}
	return ps
}

// CryptTweak runs the cipher's path with a whole 16-byte tweak input (the
// vector suites give tweaks wider than a sector number); len(src) >= 16.
func (c *Cipher) CryptTweak(dst, src []byte, tweak *[16]byte, decrypt bool) {
	c.crypt(dst[:len(src)], src, binary.LittleEndian.Uint64(tweak[:]), binary.LittleEndian.Uint64(tweak[8:]), decrypt)
}

// Stealing is the portable path over the cipher's blocks: the reference for
// lengths x/crypto rejects.
func (c *Cipher) Stealing(dst, src []byte, tweak *[16]byte, decrypt bool) {
	cryptGeneric(c.k1, c.k2, dst[:len(src)], src, binary.LittleEndian.Uint64(tweak[:]), binary.LittleEndian.Uint64(tweak[8:]), decrypt)
}
