package modes

import "encoding/binary"

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
