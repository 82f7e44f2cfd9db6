package aes

import "encoding/binary"

// maxRounds is the number of rounds of AES-256.
const maxRounds = 14

// schedule holds the expanded key. The encryption keys are the FIPS 197
// words; the decryption keys are those of the equivalent inverse cipher
// (FIPS 197 section 5.3.5): reversed, with InvMixColumns applied to the
// middle ones, which is the form both the table code and AESDEC expect.
type schedule struct {
	rounds int
	enc    [4 * (maxRounds + 1)]uint32
	dec    [4 * (maxRounds + 1)]uint32
}

func expandKey(key []byte) (*schedule, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	nk := len(key) / 4
	s := &schedule{rounds: nk + 6}
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
	for r := 0; r <= s.rounds; r++ {
		for c := 0; c < 4; c++ {
			w := s.enc[4*(s.rounds-r)+c]
			if r > 0 && r < s.rounds {
				w = invMixColumn(w)
			}
			s.dec[4*r+c] = w
		}
	}
	return s, nil
}

// encBytes and decBytes lay the round keys out as the bytes AES-NI loads:
// round r's key at offset 16*r.
func (s *schedule) encBytes() []byte { return wordsToBytes(s.enc[:4*(s.rounds+1)]) }
func (s *schedule) decBytes() []byte { return wordsToBytes(s.dec[:4*(s.rounds+1)]) }

func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.BigEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func subWord(w uint32) uint32 {
	return uint32(sbox[w>>24])<<24 | uint32(sbox[w>>16&0xff])<<16 | uint32(sbox[w>>8&0xff])<<8 | uint32(sbox[w&0xff])
}

func invMixColumn(w uint32) uint32 {
	// Through the decryption tables: td[x] is InvMixColumns of x*S^-1,
	// so feed S(x) to cancel the inverse S-box.
	return td0[sbox[w>>24]] ^ td1[sbox[w>>16&0xff]] ^ td2[sbox[w>>8&0xff]] ^ td3[sbox[w&0xff]]
}
