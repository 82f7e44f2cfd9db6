package aes

import (
	"encoding/binary"
	"math/bits"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// maxRounds is the number of rounds of AES-256.
const maxRounds = 14

// schedule holds the expanded key. The encryption keys are the FIPS 197
// words; the decryption keys are those of the equivalent inverse cipher
// (FIPS 197 section 5.3.5): reversed, with InvMixColumns applied to the
// middle ones, which is the form AESDEC expects.
type schedule struct {
	rounds int
	enc    [4 * (maxRounds + 1)]uint32
	dec    [4 * (maxRounds + 1)]uint32
}

// expandKey expands key for the portable path, the S-box step through the
// bitsliced circuit (subWord): nothing is looked up by key bytes. The
// hardware paths expand keys on the AES unit (expandKeyAESNI).
func expandKey(key []byte) (*schedule, error) {
	s := new(schedule)
	if err := s.expandEnc(key); err != nil {
		return nil, err
	}
	s.invert()
	return s, nil
}

// expandEnc sets the encryption keys of s from key.
func (s *schedule) expandEnc(key []byte) error {
	if !modes.ValidKeySize(len(key)) {
		return KeySizeError(len(key))
	}
	nk := len(key) / 4
	s.rounds = nk + 6
	n := 4 * (s.rounds + 1)
	for i := 0; i < nk; i++ {
		s.enc[i] = binary.BigEndian.Uint32(key[4*i:])
	}
	rcon := uint32(1)
	for i := nk; i < n; i++ {
		t := s.enc[i-1]
		switch {
		case i%nk == 0:
			t = subWord(t<<8|t>>24) ^ rcon<<24
			rcon = uint32(xtime(byte(rcon)))
		case nk > 6 && i%nk == 4:
			t = subWord(t)
		}
		s.enc[i] = s.enc[i-nk] ^ t
	}
	return nil
}

// invert sets the decryption keys of s from its encryption keys.
func (s *schedule) invert() {
	for r := 0; r <= s.rounds; r++ {
		for c := 0; c < 4; c++ {
			w := s.enc[4*(s.rounds-r)+c]
			if r > 0 && r < s.rounds {
				w = invMixColumn(w)
			}
			s.dec[4*r+c] = w
		}
	}
}

// subWord applies the S-box to the four bytes of w (subWordCT).
func subWord(w uint32) uint32 { return subWordCT(w) }

// xtime multiplies b by x in GF(2^8) (only for the public round constants).
func xtime(b byte) byte { return b<<1 ^ byte(int8(b)>>7)&0x1b }

// invMixColumn is InvMixColumns on one column, computed on all four bytes at
// once rather than through tables, so that no memory is indexed by key
// material on any path: byte i becomes 14*a[i] ^ 11*a[i+1] ^ 13*a[i+2] ^
// 9*a[i+3] in GF(2^8).
func invMixColumn(w uint32) uint32 {
	x2 := xtime4(w)
	x4 := xtime4(x2)
	x8 := xtime4(x4)
	x9 := x8 ^ w
	x11 := x9 ^ x2
	x13 := x9 ^ x4
	x14 := x8 ^ x4 ^ x2
	return x14 ^ bits.RotateLeft32(x11, 8) ^ bits.RotateLeft32(x13, 16) ^ bits.RotateLeft32(x9, 24)
}

// xtime4 multiplies each of the four bytes of w by x in GF(2^8), without
// branches.
func xtime4(w uint32) uint32 { return (w&0x7f7f7f7f)<<1 ^ (w>>7&0x01010101)*0x1b }
