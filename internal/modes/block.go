package modes

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/alias"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// Block is a cipher.Block backed by Kernels. It also offers the optional
// methods through which crypto/cipher's NewCTR, NewCBCEncrypter and
// NewCBCDecrypter, and this module's ecb package, pick up the bulk kernels.
type Block struct {
	k      Kernels
	cipher string // "aes", "aria": named in panic messages
	impl   string
}

// NewBlock wraps k. cipherName ("aes", "aria") is named in panic messages and
// impl names the implementation behind k.
func NewBlock(k Kernels, cipherName, impl string) *Block {
	return &Block{k: k, cipher: cipherName, impl: impl}
}

// misuse panics, as crypto/cipher does, for a caller's error. The message is
// built only here: a prefix built in NewBlock cost an allocation per key.
func (b *Block) misuse(what string) {
	panic("simdcrypt/" + b.cipher + ": " + what)
}

// Impl returns the name of the implementation the block runs.
func (b *Block) Impl() string { return b.impl }

func (b *Block) BlockSize() int { return BlockSize }

func (b *Block) Encrypt(dst, src []byte) {
	b.checkOne(dst, src)
	b.k.EncryptBlocks(dst[:BlockSize], src[:BlockSize])
}

func (b *Block) Decrypt(dst, src []byte) {
	b.checkOne(dst, src)
	b.k.DecryptBlocks(dst[:BlockSize], src[:BlockSize])
}

func (b *Block) checkOne(dst, src []byte) {
	if len(src) < BlockSize {
		b.misuse("input not full block")
	}
	if len(dst) < BlockSize {
		b.misuse("output not full block")
	}
	if alias.InexactOverlap(dst[:BlockSize], src[:BlockSize]) {
		b.misuse("invalid buffer overlap")
	}
}

// NewCTR is the hook crypto/cipher.NewCTR calls. crypto/cipher calls it
// before checking the IV length, so it checks here and panics as
// crypto/cipher would.
func (b *Block) NewCTR(iv []byte) cipher.Stream {
	if len(iv) != BlockSize {
		panic("cipher.NewCTR: IV length must equal block size")
	}
	if std := b.stdlibBlock(); std != nil {
		return newStdlibCTR(b, std, iv)
	}
	return newCTR(b, iv)
}

// NewCBCEncrypter is the hook crypto/cipher.NewCBCEncrypter calls.
func (b *Block) NewCBCEncrypter(iv []byte) cipher.BlockMode {
	if len(iv) != BlockSize {
		panic("cipher.NewCBCEncrypter: IV length must equal block size")
	}
	return b.cbcMode(iv, false)
}

// NewCBCDecrypter is the hook crypto/cipher.NewCBCDecrypter calls.
func (b *Block) NewCBCDecrypter(iv []byte) cipher.BlockMode {
	if len(iv) != BlockSize {
		panic("cipher.NewCBCDecrypter: IV length must equal block size")
	}
	return b.cbcMode(iv, true)
}

// cbcMode is CBC over b: crypto/cipher's over the standard library's block
// where b's path is the standard library's, else this package's.
func (b *Block) cbcMode(iv []byte, decrypt bool) cipher.BlockMode {
	if std := b.stdlibBlock(); std != nil {
		return stdlibCBC(std, iv, decrypt)
	}
	return newCBC(b, iv, decrypt)
}

// NewECBEncrypter and NewECBDecrypter are the hooks package ecb uses.
func (b *Block) NewECBEncrypter() cipher.BlockMode { return &ecbMode{b: b} }
func (b *Block) NewECBDecrypter() cipher.BlockMode { return &ecbMode{b: b, decrypt: true} }

// Kernels returns the bulk kernels behind the block, for the modes that
// live in their own packages (gcm, xts): they type-assert the result to the
// optional interfaces below to reach a cipher's own assembly.
func (b *Block) Kernels() Kernels { return b.k }

// AESRoundKeys is implemented by AES kernels whose expanded key the AEAD and
// XTS kernels can use directly. Both tables hold the round keys
// right-aligned: the last at offset 224, the first at 16*(14-rounds). dec
// holds the equivalent-inverse-cipher keys in decryption order. The tables
// belong to the kernels: callers only read them.
type AESRoundKeys interface {
	AESRoundKeys() (enc, dec *[240]byte, rounds int)
}

// PortablePath is the last entry of the aes and aria dispatch tables: the
// bitsliced constant-time Go kernels that every GOARCH and purego build can
// run, built by newKernels.
func PortablePath[K Kernels](cipherName string, newKernels func(key []byte) (K, error)) *catalog.Path {
	return &catalog.Path{
		Name:  "generic",
		Notes: "portable Go, bitsliced 4 blocks at a time (constant-time, no tables)",
		NewBlock: func(key []byte) (cipher.Block, error) {
			k, err := newKernels(key)
			if err != nil {
				return nil, err
			}
			return NewBlock(k, cipherName, "generic"), nil
		},
	}
}
