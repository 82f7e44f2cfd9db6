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

func (g Generic) CBCEncrypt(dst, src []byte, iv *[BlockSize]byte) {
	x := *iv
	for i := 0; i < len(src); i += BlockSize {
		for j := range x {
			x[j] ^= src[i+j]
		}
		g.C.EncryptBlock(&x, &x)
		copy(dst[i:], x[:])
	}
	*iv = x
}

func (g Generic) CBCDecrypt(dst, src []byte, iv *[BlockSize]byte) {
	prev := *iv
	var c, p [BlockSize]byte
	for i := 0; i < len(src); i += BlockSize {
		copy(c[:], src[i:]) // src may be dst: keep the ciphertext for chaining
		g.C.DecryptBlock(&p, &c)
		for j := range p {
			dst[i+j] = p[j] ^ prev[j]
		}
		prev = c
	}
	*iv = prev
}

func (g Generic) CTR(dst, src []byte, ctr *[BlockSize]byte) {
	var ks [BlockSize]byte
	lo := binary.BigEndian.Uint64(ctr[8:])
	for i := 0; i < len(src); i += BlockSize {
		g.C.EncryptBlock(&ks, ctr)
		for j := range ks {
			dst[i+j] = src[i+j] ^ ks[j]
		}
		lo++
		binary.BigEndian.PutUint64(ctr[8:], lo)
	}
}
