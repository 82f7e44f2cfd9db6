package modes

import (
	"crypto/cipher"
	"encoding/binary"
)

// StdlibKernels serves a path that delegates to a standard-library block
// (crypto/aes where Go runs it on the CPU's AES instructions). The
// crypto/cipher modes over that block run the standard library's own
// multi-block assembly, which no Kernels method can reach, so Block's mode
// constructors hand them the block itself (see stdlibBlock); the methods
// below serve ECB and any caller that uses the kernels directly.
type StdlibKernels struct{ B cipher.Block }

// StdlibBlock returns the standard-library block, for the modes here and
// in the gcm and xts packages.
func (s StdlibKernels) StdlibBlock() cipher.Block { return s.B }

func (s StdlibKernels) EncryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += BlockSize {
		s.B.Encrypt(dst[i:i+BlockSize], src[i:i+BlockSize])
	}
}

func (s StdlibKernels) DecryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += BlockSize {
		s.B.Decrypt(dst[i:i+BlockSize], src[i:i+BlockSize])
	}
}

func (s StdlibKernels) CBCEncrypt(dst, src []byte, iv *[BlockSize]byte) {
	prev := *iv
	for i := 0; i < len(src); i += BlockSize {
		var x [BlockSize]byte
		for j := range x {
			x[j] = src[i+j] ^ prev[j]
		}
		s.B.Encrypt(prev[:], x[:])
		copy(dst[i:], prev[:])
	}
	*iv = prev
}

func (s StdlibKernels) CBCDecrypt(dst, src []byte, iv *[BlockSize]byte) {
	prev := *iv
	for i := 0; i < len(src); i += BlockSize {
		c := [BlockSize]byte(src[i:]) // src may be dst: keep the ciphertext for chaining
		s.B.Decrypt(dst[i:i+BlockSize], src[i:i+BlockSize])
		for j := range BlockSize {
			dst[i+j] ^= prev[j]
		}
		prev = c
	}
	*iv = prev
}

func (s StdlibKernels) CTR(dst, src []byte, ctr *[BlockSize]byte) {
	lo := binary.BigEndian.Uint64(ctr[8:])
	var ks [BlockSize]byte
	for i := 0; i < len(src); i += BlockSize {
		s.B.Encrypt(ks[:], ctr[:])
		for j := range BlockSize {
			dst[i+j] = src[i+j] ^ ks[j]
		}
		lo++
		binary.BigEndian.PutUint64(ctr[8:], lo)
	}
}

// stdlibBlock returns the standard-library block behind b's kernels, or
// nil when they are simdcrypt's own.
func (b *Block) stdlibBlock() cipher.Block {
	if s, ok := b.k.(interface{ StdlibBlock() cipher.Block }); ok {
		return s.StdlibBlock()
	}
	return nil
}
