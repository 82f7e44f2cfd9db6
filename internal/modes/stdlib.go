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

// The methods below hand the block only slices of dst and src: a local
// array passed through the cipher.Block interface would escape and cost a
// heap allocation per call.

func (s StdlibKernels) CBCEncrypt(dst, src []byte, iv *[BlockSize]byte) {
	prev := *iv
	for i := 0; i < len(src); i += BlockSize {
		out := dst[i : i+BlockSize]
		for j := range BlockSize {
			out[j] = src[i+j] ^ prev[j]
		}
		s.B.Encrypt(out, out)
		prev = [BlockSize]byte(out)
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
	for i := 0; i < len(src); i += BlockSize {
		in := [BlockSize]byte(src[i:]) // src may be dst
		out := dst[i : i+BlockSize]
		s.B.Encrypt(out, ctr[:])
		for j := range BlockSize {
			out[j] ^= in[j]
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

// stdlibCTR is CTR for a block with a standard-library block behind it:
// XORKeyStream runs crypto/cipher's CTR over that block (its assembly),
// XORKeyStreamAt this layer's CTR over the same kernels, which
// crypto/cipher's stream lacks.
type stdlibCTR struct {
	cipher.Stream
	at *ctr
}

func (s *stdlibCTR) XORKeyStreamAt(dst, src []byte, offset uint64) {
	s.at.XORKeyStreamAt(dst, src, offset)
}

func newStdlibCTR(b *Block, std cipher.Block, iv []byte) cipher.Stream {
	return &stdlibCTR{Stream: cipher.NewCTR(std, iv), at: newCTR(b, iv)}
}
