package modes

import (
	"crypto/cipher"
	"encoding/binary"
	"strconv"
)

// OneBlock is a portable block cipher that works one block at a time.
type OneBlock interface {
	EncryptBlock(dst, src *[BlockSize]byte)
	DecryptBlock(dst, src *[BlockSize]byte)
}

// Generic builds Kernels from a one-block cipher: the portable path, and the
// reference every other implementation is tested against.
type Generic struct{ C OneBlock }

func (g Generic) EncryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += BlockSize {
		g.C.EncryptBlock((*[BlockSize]byte)(dst[i:]), (*[BlockSize]byte)(src[i:]))
	}
}

func (g Generic) DecryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += BlockSize {
		g.C.DecryptBlock((*[BlockSize]byte)(dst[i:]), (*[BlockSize]byte)(src[i:]))
	}
}

// The methods below hand the one-block cipher only slices of dst and src:
// a pointer to a local array passed through the OneBlock interface would
// escape and cost a heap allocation per call.

func (g Generic) CBCEncrypt(dst, src []byte, iv *[BlockSize]byte) {
	prev := iv[:]
	for i := 0; i < len(src); i += BlockSize {
		out := (*[BlockSize]byte)(dst[i:])
		for j := range out {
			out[j] = src[i+j] ^ prev[j]
		}
		g.C.EncryptBlock(out, out)
		prev = out[:]
	}
	copy(iv[:], prev)
}

func (g Generic) CBCDecrypt(dst, src []byte, iv *[BlockSize]byte) {
	prev := *iv
	for i := 0; i < len(src); i += BlockSize {
		c := [BlockSize]byte(src[i:]) // src may be dst: keep the ciphertext for chaining
		out := (*[BlockSize]byte)(dst[i:])
		g.C.DecryptBlock(out, (*[BlockSize]byte)(src[i:]))
		for j := range out {
			out[j] ^= prev[j]
		}
		prev = c
	}
	*iv = prev
}

func (g Generic) CTR(dst, src []byte, ctr *[BlockSize]byte) {
	lo := binary.BigEndian.Uint64(ctr[8:])
	for i := 0; i < len(src); i += BlockSize {
		in := [BlockSize]byte(src[i:]) // src may be dst
		out := (*[BlockSize]byte)(dst[i:])
		g.C.EncryptBlock(out, ctr)
		for j := range out {
			out[j] ^= in[j]
		}
		lo++
		binary.BigEndian.PutUint64(ctr[8:], lo)
	}
}

// NewGenericBlock returns the cipher.Block of a portable path: c under the
// Generic kernels, or err when the key was refused.
func NewGenericBlock(c OneBlock, err error, cipherName string) (cipher.Block, error) {
	if err != nil {
		return nil, err
	}
	return NewBlock(Generic{C: c}, cipherName, "generic"), nil
}

// ValidKeySize reports whether n bytes is a key size of the 128-bit block
// ciphers here: 16, 24 or 32.
func ValidKeySize(n int) bool { return n == 16 || n == 24 || n == 32 }

// KeySizeMessage is the text of the cipher packages' KeySizeError.
func KeySizeMessage(cipherName string, n int) string {
	return "simdcrypt/" + cipherName + ": invalid key size " + strconv.Itoa(n) + " (want 16, 24 or 32 bytes)"
}
