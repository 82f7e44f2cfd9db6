package encfile

import (
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/parallel"
)

// chachaCipher describes ChaCha20 with OpenSSL's 16-byte IV: a 32-bit
// little-endian block counter followed by the 12-byte RFC 8439 nonce.
//
// When the 32-bit counter wraps, OpenSSL carries into the first 32-bit word
// of the nonce (its ChaCha20 keeps four state words counter[0..3] and
// increments counter[1] on overflow). So the first 8 bytes of the IV act as
// one 64-bit little-endian block counter, and so they do here (see
// chachaCarry).
func chachaCipher(newCipher func(key, nonce []byte) (parallel.SeekableStream, error)) Cipher {
	return Cipher{
		Name: "chacha20", KeyLen: 32, IVLen: 16, Align: 64,
		newTransform: func(key, iv []byte, _ bool) (transform, error) {
			if _, err := newCipher(key, iv[4:]); err != nil {
				return transform{}, err
			}
			return seekable(&chachaCarry{
				newCipher: newCipher,
				key:       key,
				base:      binary.LittleEndian.Uint64(iv[:8]),
				rest:      [8]byte(iv[8:]),
			}), nil
		},
	}
}

// chachaCarry is OpenSSL's ChaCha20 as a seekable stream: byte offset 0 is
// in block base (a 64-bit counter), and a range that crosses a multiple of
// 2^32 blocks is split there, each piece running on a cipher whose first
// nonce word is the counter's high half, so no cipher is asked to wrap its
// own 32-bit counter.
type chachaCarry struct {
	newCipher func(key, nonce []byte) (parallel.SeekableStream, error)
	key       []byte
	base      uint64
	rest      [8]byte // the last 8 nonce bytes
}

func (s *chachaCarry) XORKeyStreamAt(dst, src []byte, offset uint64) {
	for len(src) > 0 {
		block, within := s.base+offset/64, offset%64
		low := uint64(uint32(block))
		n := uint64(len(src))
		if left := (1<<32-low)*64 - within; n > left {
			n = left
		}
		var nonce [12]byte
		binary.LittleEndian.PutUint32(nonce[:4], uint32(block>>32))
		copy(nonce[4:], s.rest[:])
		c, err := s.newCipher(s.key, nonce[:])
		if err != nil {
			panic(err) // the lengths were checked when the transform was made
		}
		c.XORKeyStreamAt(dst[:n], src[:n], low*64+within)
		dst, src, offset = dst[n:], src[n:], offset+n
	}
}
