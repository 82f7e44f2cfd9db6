// Package modes is the block-mode layer for 128-bit block ciphers, written
// once for AES and ARIA: IV and counter state, leftover keystream, overlap
// and length checks, and the crypto/cipher interfaces. Implementations supply
// only bulk kernels over whole blocks (Kernels); they never see a partial
// block, a length check or a chaining state they must keep between calls.
package modes

// BlockSize is the block size of every cipher this layer serves.
const BlockSize = 16

// Kernels are the bulk operations of one implementation of a 128-bit block
// cipher under one key. In every method len(src) is a multiple of BlockSize
// (possibly zero), len(dst) == len(src), and dst and src either are the same
// memory or do not overlap at all. A kernel reads and writes nothing outside
// dst, src and its arguments.
type Kernels interface {
	// EncryptBlocks and DecryptBlocks apply the block cipher to each block (ECB).
	EncryptBlocks(dst, src []byte)
	DecryptBlocks(dst, src []byte)

	// CBCEncrypt and CBCDecrypt chain from *iv and leave in *iv the last
	// ciphertext block, ready for the next call.
	CBCEncrypt(dst, src []byte, iv *[BlockSize]byte)
	CBCDecrypt(dst, src []byte, iv *[BlockSize]byte)

	// CTR XORs src with the encryption of counter blocks ctr, ctr+1, ...
	// (big-endian) and advances *ctr past them. Only the low 64 bits count
	// and advance: the caller never asks for more blocks than remain before
	// they wrap, and carries into the high half itself, so kernels can add
	// in 64-bit lanes without carry handling.
	CTR(dst, src []byte, ctr *[BlockSize]byte)
}
