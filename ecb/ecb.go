// Package ecb provides electronic codebook mode as a cipher.BlockMode over
// any block cipher. ECB leaks equal plaintext blocks and is offered for
// interoperability and measurement, not as a recommendation.
//
// Blocks from this module's cipher packages run their bulk ECB kernels;
// any other cipher.Block is driven one Encrypt or Decrypt call per block.
package ecb

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/alias"
)

// The optional methods a cipher.Block offers to supply a bulk ECB mode.
type ecbEncAble interface{ NewECBEncrypter() cipher.BlockMode }
type ecbDecAble interface{ NewECBDecrypter() cipher.BlockMode }

// NewEncrypter returns a BlockMode that encrypts each block with b.
func NewEncrypter(b cipher.Block) cipher.BlockMode {
	if f, ok := b.(ecbEncAble); ok {
		return f.NewECBEncrypter()
	}
	return &perBlock{b: b, crypt: b.Encrypt}
}

// NewDecrypter returns a BlockMode that decrypts each block with b.
func NewDecrypter(b cipher.Block) cipher.BlockMode {
	if f, ok := b.(ecbDecAble); ok {
		return f.NewECBDecrypter()
	}
	return &perBlock{b: b, crypt: b.Decrypt}
}

type perBlock struct {
	b     cipher.Block
	crypt func(dst, src []byte)
}

func (e *perBlock) BlockSize() int { return e.b.BlockSize() }

func (e *perBlock) CryptBlocks(dst, src []byte) {
	bs := e.b.BlockSize()
	if len(src)%bs != 0 {
		panic("simdcrypt/ecb: input not full blocks")
	}
	if len(dst) < len(src) {
		panic("simdcrypt/ecb: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("simdcrypt/ecb: invalid buffer overlap")
	}
	for i := 0; i < len(src); i += bs {
		e.crypt(dst[i:i+bs], src[i:i+bs])
	}
}
