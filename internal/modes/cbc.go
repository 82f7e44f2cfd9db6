package modes

import "github.com/simdcrypt/simdcrypt/internal/alias"

type cbc struct {
	b       *Block
	iv      [BlockSize]byte
	decrypt bool
}

func newCBC(b *Block, iv []byte, decrypt bool) *cbc {
	c := &cbc{b: b, decrypt: decrypt}
	copy(c.iv[:], iv)
	return c
}

func (c *cbc) BlockSize() int { return BlockSize }

func (c *cbc) CryptBlocks(dst, src []byte) {
	dst = checkBlocks(c.b, dst, src)
	if c.decrypt {
		c.b.k.CBCDecrypt(dst, src, &c.iv)
	} else {
		c.b.k.CBCEncrypt(dst, src, &c.iv)
	}
}

// SetIV resets the chaining value, as crypto/cipher's CBC modes allow.
func (c *cbc) SetIV(iv []byte) {
	if len(iv) != BlockSize {
		panic("cipher: incorrect length IV")
	}
	copy(c.iv[:], iv)
}

type ecbMode struct {
	b       *Block
	decrypt bool
}

func (e *ecbMode) BlockSize() int { return BlockSize }

func (e *ecbMode) CryptBlocks(dst, src []byte) {
	dst = checkBlocks(e.b, dst, src)
	if e.decrypt {
		e.b.k.DecryptBlocks(dst, src)
	} else {
		e.b.k.EncryptBlocks(dst, src)
	}
}

// checkBlocks makes crypto/cipher's CryptBlocks checks and returns dst cut
// to the length of src.
func checkBlocks(b *Block, dst, src []byte) []byte {
	if len(src)%BlockSize != 0 {
		b.misuse("input not full blocks")
	}
	if len(dst) < len(src) {
		b.misuse("output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		b.misuse("invalid buffer overlap")
	}
	return dst
}
