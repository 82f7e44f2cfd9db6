package encfile

import (
	"encoding/binary"
)

// chachaStream is the part of a ChaCha20 cipher (x/crypto's API) the
// transform uses.
type chachaStream interface {
	SetCounter(counter uint32)
	XORKeyStream(dst, src []byte)
}

// chachaCipher describes ChaCha20 with OpenSSL's 16-byte IV: a 32-bit
// little-endian block counter followed by the 12-byte RFC 8439 nonce.
//
// When the 32-bit counter wraps, OpenSSL carries into the first 32-bit word
// of the nonce (its ChaCha20 keeps four state words counter[0..3] and
// increments counter[1] on overflow). So the first 8 bytes of the IV act as
// one 64-bit little-endian block counter, and so they do here: a chunk's
// keystream starts at block LE64(iv[0:8]) + offset/64, and a chunk that
// crosses a 2^32 boundary is split there, restarting the cipher with the
// carried nonce, so no cipher is ever asked to wrap its own counter.
func chachaCipher(newCipher func(key, nonce []byte) (chachaStream, error)) Cipher {
	return Cipher{
		Name: "chacha20", KeyLen: 32, IVLen: 16, Align: 64,
		newTransform: func(key, iv []byte, _ bool) (transform, error) {
			if _, err := newCipher(key, iv[4:]); err != nil {
				return transform{}, err
			}
			base := binary.LittleEndian.Uint64(iv[:8])
			rest := [8]byte(iv[8:])
			return transform{parallel: true, crypt: func(c *chunk) {
				block := base + c.off/64
				data, src := c.out(), c.in
				for len(data) > 0 {
					// Blocks left before the low 32 bits wrap.
					left := uint64(1<<32) - uint64(uint32(block))
					n := len(data)
					if uint64(n) > left*64 {
						n = int(left * 64)
					}
					var nonce [12]byte
					binary.LittleEndian.PutUint32(nonce[:4], uint32(block>>32))
					copy(nonce[4:], rest[:])
					s, err := newCipher(key, nonce[:])
					if err != nil {
						panic(err) // lengths were checked above
					}
					s.SetCounter(uint32(block))
					s.XORKeyStream(data[:n], src[:n])
					data, src = data[n:], src[n:]
					block += uint64(n) / 64
				}
			}}, nil
		},
	}
}
