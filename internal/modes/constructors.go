package modes

import (
	"crypto/cipher"
	"errors"
)

// The constructors below back the exported NewCTR, NewCBCEncrypter and
// NewCBCDecrypter of the cipher packages. Unlike the crypto/cipher hooks,
// which upstream plans to remove, they return errors for bad IV lengths. A
// block from elsewhere gets crypto/cipher's own mode.

var errIV = errors.New("IV length must equal block size (16 bytes)")

// NewCTR returns a CTR stream with a 128-bit big-endian counter starting at iv.
func NewCTR(b cipher.Block, iv []byte) (cipher.Stream, error) {
	if b.BlockSize() != BlockSize || len(iv) != BlockSize {
		return nil, errIV
	}
	if ours, ok := b.(*Block); ok {
		return newCTR(ours, iv), nil
	}
	return cipher.NewCTR(b, iv), nil
}

// NewCBCEncrypter returns a CBC encrypter chaining from iv.
func NewCBCEncrypter(b cipher.Block, iv []byte) (cipher.BlockMode, error) {
	if b.BlockSize() != BlockSize || len(iv) != BlockSize {
		return nil, errIV
	}
	if ours, ok := b.(*Block); ok {
		return newCBC(ours, iv, false), nil
	}
	return cipher.NewCBCEncrypter(b, iv), nil
}

// NewCBCDecrypter returns a CBC decrypter chaining from iv.
func NewCBCDecrypter(b cipher.Block, iv []byte) (cipher.BlockMode, error) {
	if b.BlockSize() != BlockSize || len(iv) != BlockSize {
		return nil, errIV
	}
	if ours, ok := b.(*Block); ok {
		return newCBC(ours, iv, true), nil
	}
	return cipher.NewCBCDecrypter(b, iv), nil
}
