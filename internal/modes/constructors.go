package modes

import (
	"crypto/cipher"
	"fmt"
)

// The constructors below back the exported NewCTR, NewCBCEncrypter and
// NewCBCDecrypter of the cipher packages. Unlike the crypto/cipher hooks,
// which upstream plans to remove, they return errors for bad IV lengths. A
// block from elsewhere gets crypto/cipher's own mode.

// Package is the public surface every 128-bit block cipher package of this
// module offers (aes, aria), as values: the enc command's cipher table and
// the packages' API tests each take one per cipher.
type Package struct {
	Cipher          string
	KeySizes        []int
	NewCipher       func(key []byte) (cipher.Block, error)
	NewCTR          func(b cipher.Block, iv []byte) (cipher.Stream, error)
	NewCBCEncrypter func(b cipher.Block, iv []byte) (cipher.BlockMode, error)
	NewCBCDecrypter func(b cipher.Block, iv []byte) (cipher.BlockMode, error)
}

// checkArgs separates the two mistakes a caller can make: a block cipher
// that is not a 128-bit one (DES, say, whose IV is rightly 8 bytes) and
// an IV of the wrong length.
func checkArgs(mode string, b cipher.Block, iv []byte) error {
	if n := b.BlockSize(); n != BlockSize {
		return fmt.Errorf("simdcrypt: %s needs a %d-byte block cipher (AES, ARIA); got a %d-byte block (%T)", mode, BlockSize, n, b)
	}
	if len(iv) != BlockSize {
		return fmt.Errorf("simdcrypt: %s IV must be %d bytes, got %d bytes", mode, BlockSize, len(iv))
	}
	return nil
}

// NewCTR returns a CTR stream with a 128-bit big-endian counter starting at iv.
func NewCTR(b cipher.Block, iv []byte) (cipher.Stream, error) {
	if err := checkArgs("NewCTR", b, iv); err != nil {
		return nil, err
	}
	if ours, ok := b.(*Block); ok {
		if std := ours.stdlibBlock(); std != nil {
			return newStdlibCTR(ours, std, iv), nil
		}
		return newCTR(ours, iv), nil
	}
	return cipher.NewCTR(b, iv), nil
}

// NewCBCEncrypter returns a CBC encrypter chaining from iv.
func NewCBCEncrypter(b cipher.Block, iv []byte) (cipher.BlockMode, error) {
	return newCBCMode("NewCBCEncrypter", b, iv, false)
}

// NewCBCDecrypter returns a CBC decrypter chaining from iv.
func NewCBCDecrypter(b cipher.Block, iv []byte) (cipher.BlockMode, error) {
	return newCBCMode("NewCBCDecrypter", b, iv, true)
}

func newCBCMode(name string, b cipher.Block, iv []byte, decrypt bool) (cipher.BlockMode, error) {
	if err := checkArgs(name, b, iv); err != nil {
		return nil, err
	}
	if ours, ok := b.(*Block); ok {
		return ours.cbcMode(iv, decrypt), nil
	}
	return stdlibCBC(b, iv, decrypt), nil
}

// stdlibCBC is crypto/cipher's CBC over b.
func stdlibCBC(b cipher.Block, iv []byte, decrypt bool) cipher.BlockMode {
	if decrypt {
		return cipher.NewCBCDecrypter(b, iv)
	}
	return cipher.NewCBCEncrypter(b, iv)
}
