// Package aes implements AES (FIPS 197) with several code paths chosen at key
// setup from the CPU's features: portable Go, AES-NI, and VAES on 256- and
// 512-bit vectors. The cipher.Block it returns works with crypto/cipher's
// NewCTR, NewCBCEncrypter and NewCBCDecrypter, which pick up its bulk
// kernels; NewCTR, NewCBCEncrypter and NewCBCDecrypter below do the same
// without relying on those hooks.
//
// The portable path looks up tables indexed by secret data and so is not
// constant-time; the AES-NI and VAES paths are, key setup included (its
// S-box step runs on the AES unit).
package aes

import (
	"crypto/cipher"
	"strconv"

	"github.com/simdcrypt/simdcrypt/internal/impl"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// BlockSize is the AES block size in bytes.
const BlockSize = 16

// KeySizeError is returned for keys that are not 16, 24 or 32 bytes.
type KeySizeError int

func (k KeySizeError) Error() string {
	return "simdcrypt/aes: invalid key size " + strconv.Itoa(int(k)) + " (want 16, 24 or 32 bytes)"
}

// NewCipher returns AES-128, AES-192 or AES-256 for a 16-, 24- or 32-byte
// key, running the fastest implementation the CPU offers.
//
// crypto/cipher.NewGCM cannot reach these kernels (it takes its fast path
// only for crypto/aes blocks and runs a slow generic GCM over any other):
// use gcm.New from github.com/simdcrypt/simdcrypt/gcm instead.
func NewCipher(key []byte) (cipher.Block, error) {
	i, _ := impl.Choose(Name)
	return i.NewBlock(key)
}

// Name is the cipher family name in the implementation registry.
const Name = "aes"

// NewCTR returns a CTR stream (128-bit big-endian counter starting at iv,
// as crypto/cipher.NewCTR counts) over b. It returns an error if iv is not
// 16 bytes. A b from another package gets crypto/cipher's CTR.
func NewCTR(b cipher.Block, iv []byte) (cipher.Stream, error) { return modes.NewCTR(b, iv) }

// NewCBCEncrypter returns a CBC encrypter over b, chaining from iv.
func NewCBCEncrypter(b cipher.Block, iv []byte) (cipher.BlockMode, error) {
	return modes.NewCBCEncrypter(b, iv)
}

// NewCBCDecrypter returns a CBC decrypter over b, chaining from iv.
func NewCBCDecrypter(b cipher.Block, iv []byte) (cipher.BlockMode, error) {
	return modes.NewCBCDecrypter(b, iv)
}

func checkKey(key []byte) error {
	switch len(key) {
	case 16, 24, 32:
		return nil
	}
	return KeySizeError(len(key))
}

func init() {
	impl.Register(&impl.Impl{
		Cipher: Name,
		Name:   "generic",
		Notes:  "portable Go with lookup tables (not constant-time)",
		NewKernels: func(key []byte) (modes.Kernels, error) {
			s, err := expandKey(key)
			if err != nil {
				return nil, err
			}
			return modes.Generic{C: (*generic)(s)}, nil
		},
	})
}
