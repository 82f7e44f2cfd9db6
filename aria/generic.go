package aria

import (
	"encoding/binary"
	"math/bits"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// maxRounds is the number of rounds of ARIA-256.
const maxRounds = 16

// block is one 128-bit ARIA state, byte 0 first as RFC 5794 numbers them.
type block = [BlockSize]byte

// schedule is an expanded key: rounds+1 encryption round keys ek1..ek(n+1)
// and the decryption round keys dk1..dk(n+1) of RFC 5794 section 2.3.
type schedule struct {
	rounds int
	enc    [maxRounds + 1]block
	dec    [maxRounds + 1]block
	// The same keys as big-endian 32-bit words, for cryptWords.
	encWords, decWords [maxRounds + 1]words
}

// The key-schedule constants CK of RFC 5794 section 2.2: the fractional part
// of 1/π.
var keyConstants = [3]block{
	{0x51, 0x7c, 0xc1, 0xb7, 0x27, 0x22, 0x0a, 0x94, 0xfe, 0x13, 0xab, 0xe8, 0xfa, 0x9a, 0x6e, 0xe0},
	{0x6d, 0xb1, 0x4a, 0xcc, 0x9e, 0x21, 0xc8, 0x20, 0xff, 0x28, 0xb1, 0xd5, 0xef, 0x5d, 0xe2, 0xb0},
	{0xdb, 0x92, 0x37, 0x1d, 0x21, 0x26, 0xe9, 0x70, 0x03, 0x24, 0x97, 0x75, 0x04, 0xe8, 0xc9, 0x0e},
}

func expandKey(key []byte) (*schedule, error) {
	if !modes.ValidKeySize(len(key)) {
		return nil, KeySizeError(len(key))
	}
	s := &schedule{rounds: 12 + (len(key)-16)/4}

	// KL is the first 128 bits of the key, KR the rest padded with zeros.
	// The constants rotate with the key size: CK1, CK2, CK3 = C1, C2, C3
	// for 128-bit keys, C2, C3, C1 for 192 and C3, C1, C2 for 256.
	var kl, kr block
	copy(kl[:], key[:16])
	copy(kr[:], key[16:])
	first := (len(key) - 16) / 8
	ck1 := &keyConstants[first%3]
	ck2 := &keyConstants[(first+1)%3]
	ck3 := &keyConstants[(first+2)%3]

	// FO and FE with the S-boxes computed, not looked up (keysbox.go):
	// the tables would be indexed by key bytes.
	var w [4]block
	w[0] = kl
	w[1] = xor(diffuse(substKey(xor(w[0], *ck1), true)), kr)
	w[2] = xor(diffuse(substKey(xor(w[1], *ck2), false)), w[0])
	w[3] = xor(diffuse(substKey(xor(w[2], *ck3), true)), w[1])

	// ek(4j+i+1) = W(i) ⊕ (W(i+1 mod 4) >>> r(j)) for the rotations
	// r = 19, 31, -61, -31, -19 (right rotation by 128-61 = 67 and so on).
	rot := [5]uint{19, 31, 128 - 61, 128 - 31, 128 - 19}
	for k := 0; k <= s.rounds; k++ {
		i := k % 4
		s.enc[k] = xor(w[i], rotr128(w[(i+1)%4], rot[k/4]))
	}

	// dk1 = ek(n+1), dk(i) = A(ek(n+2-i)) for 1 < i <= n, dk(n+1) = ek1.
	n := s.rounds
	s.dec[0] = s.enc[n]
	for i := 1; i < n; i++ {
		s.dec[i] = diffuse(s.enc[n-i])
	}
	s.dec[n] = s.enc[0]
	for r := 0; r <= n; r++ {
		s.encWords[r] = toWords(&s.enc[r])
		s.decWords[r] = toWords(&s.dec[r])
	}
	return s, nil
}

// rotr128 rotates a 128-bit big-endian value right by r bits.
func rotr128(x block, r uint) block {
	hi := binary.BigEndian.Uint64(x[:8])
	lo := binary.BigEndian.Uint64(x[8:])
	r %= 128
	if r >= 64 {
		hi, lo = lo, hi
		r -= 64
	}
	if r > 0 {
		hi, lo = hi>>r|lo<<(64-r), lo>>r|hi<<(64-r)
	}
	var y block
	binary.BigEndian.PutUint64(y[:8], hi)
	binary.BigEndian.PutUint64(y[8:], lo)
	return y
}

func xor(a, b block) block {
	for i := range a {
		a[i] ^= b[i]
	}
	return a
}

// substOdd is the type-1 substitution layer SL1: SB1, SB2, SB3, SB4
// repeated over the 16 bytes.
func substOdd(x block) block {
	for i := 0; i < BlockSize; i += 4 {
		x[i], x[i+1], x[i+2], x[i+3] = sb1[x[i]], sb2[x[i+1]], sb3[x[i+2]], sb4[x[i+3]]
	}
	return x
}

// substEven is the type-2 substitution layer SL2: SB3, SB4, SB1, SB2, the
// inverse of SL1.
func substEven(x block) block {
	for i := 0; i < BlockSize; i += 4 {
		x[i], x[i+1], x[i+2], x[i+3] = sb3[x[i]], sb4[x[i+1]], sb1[x[i+2]], sb2[x[i+3]]
	}
	return x
}

// diffuse is the diffusion layer A of RFC 5794 section 2.4.3, an involution:
// every output byte is the XOR of seven input bytes.
func diffuse(x block) block {
	return block{
		x[3] ^ x[4] ^ x[6] ^ x[8] ^ x[9] ^ x[13] ^ x[14],
		x[2] ^ x[5] ^ x[7] ^ x[8] ^ x[9] ^ x[12] ^ x[15],
		x[1] ^ x[4] ^ x[6] ^ x[10] ^ x[11] ^ x[12] ^ x[15],
		x[0] ^ x[5] ^ x[7] ^ x[10] ^ x[11] ^ x[13] ^ x[14],
		x[0] ^ x[2] ^ x[5] ^ x[8] ^ x[11] ^ x[14] ^ x[15],
		x[1] ^ x[3] ^ x[4] ^ x[9] ^ x[10] ^ x[14] ^ x[15],
		x[0] ^ x[2] ^ x[7] ^ x[9] ^ x[10] ^ x[12] ^ x[13],
		x[1] ^ x[3] ^ x[6] ^ x[8] ^ x[11] ^ x[12] ^ x[13],
		x[0] ^ x[1] ^ x[4] ^ x[7] ^ x[10] ^ x[13] ^ x[15],
		x[0] ^ x[1] ^ x[5] ^ x[6] ^ x[11] ^ x[12] ^ x[14],
		x[2] ^ x[3] ^ x[5] ^ x[6] ^ x[8] ^ x[13] ^ x[15],
		x[2] ^ x[3] ^ x[4] ^ x[7] ^ x[9] ^ x[12] ^ x[14],
		x[1] ^ x[2] ^ x[6] ^ x[7] ^ x[9] ^ x[11] ^ x[12],
		x[0] ^ x[3] ^ x[6] ^ x[7] ^ x[8] ^ x[10] ^ x[13],
		x[0] ^ x[3] ^ x[4] ^ x[5] ^ x[9] ^ x[11] ^ x[14],
		x[1] ^ x[2] ^ x[4] ^ x[5] ^ x[8] ^ x[10] ^ x[15],
	}
}

// roundOdd is FO(D, RK) = A(SL1(D ⊕ RK)); roundEven is FE = A(SL2(D ⊕ RK)).
func roundOdd(d block, rk *block) block  { return diffuse(substOdd(xor(d, *rk))) }
func roundEven(d block, rk *block) block { return diffuse(substEven(xor(d, *rk))) }

// crypt runs the n rounds of RFC 5794 section 2.4 with round keys rk:
// FO and FE alternate for rounds 1..n-1, and the last round is SL2 between
// two key additions without diffusion. Decryption is the same with the
// decryption round keys.
func crypt(rk *[maxRounds + 1]block, rounds int, dst, src *block) {
	x := *src
	for r := 0; r < rounds-1; r++ {
		if r%2 == 0 {
			x = roundOdd(x, &rk[r])
		} else {
			x = roundEven(x, &rk[r])
		}
	}
	*dst = xor(substEven(xor(x, rk[rounds-1])), rk[rounds])
}

// The functions above follow RFC 5794 byte by byte and serve as the
// reference (the tests' spec.Reference). Below, the same cipher on four
// big-endian 32-bit words, in which the diffusion layer A factors as
// W∘P∘W∘M (the form the vector kernels and the bitsliced portable path,
// ct.go, use; see _asm/aria), where M replaces each byte of a word by the
// XOR of the other three, W does the same across the four words at each
// byte position, and P permutes the bytes of words 1 to 3. It looks up the
// S-box tables by data, so no path runs it: the tests compare it with
// crypt, which checks the factorisation.

// words is a block as four big-endian 32-bit words.
type words = [4]uint32

func toWords(b *block) words {
	return words{
		binary.BigEndian.Uint32(b[0:]), binary.BigEndian.Uint32(b[4:]),
		binary.BigEndian.Uint32(b[8:]), binary.BigEndian.Uint32(b[12:]),
	}
}

// substOddWord and substEvenWord are SL1 and SL2 on one word.
func substOddWord(t uint32) uint32 {
	return uint32(sb1[t>>24])<<24 | uint32(sb2[t>>16&0xff])<<16 | uint32(sb3[t>>8&0xff])<<8 | uint32(sb4[t&0xff])
}

func substEvenWord(t uint32) uint32 {
	return uint32(sb3[t>>24])<<24 | uint32(sb4[t>>16&0xff])<<16 | uint32(sb1[t>>8&0xff])<<8 | uint32(sb2[t&0xff])
}

// diffuseWords is A = W∘P∘W∘M on words.
func diffuseWords(t *words) {
	for i, w := range t {
		// s gets the XOR of w's four bytes in every byte.
		s := w ^ bits.RotateLeft32(w, 8)
		s ^= bits.RotateLeft32(s, 16)
		t[i] = w ^ s
	}
	mixWords(t)
	t[1] = t[1]<<8&0xff00ff00 | t[1]>>8&0x00ff00ff // swap bytes in pairs
	t[2] = bits.RotateLeft32(t[2], 16)             // swap halves
	t[3] = bits.ReverseBytes32(t[3])               // reverse
	mixWords(t)
}

// mixWords is W: T0, T1, T2, T3 become T0⊕T1⊕T2, T0⊕T2⊕T3, T0⊕T1⊕T3,
// T1⊕T2⊕T3.
func mixWords(t *words) {
	t[1] ^= t[2]
	t[2] ^= t[3]
	t[0] ^= t[1]
	t[3] ^= t[1]
	t[2] ^= t[0]
	t[1] ^= t[2]
}

// cryptWords is crypt on words.
func cryptWords(rk *[maxRounds + 1]words, rounds int, dst, src *block) {
	t := toWords(src)
	for r := 0; r < rounds-1; r++ {
		for i := range t {
			t[i] ^= rk[r][i]
			if r%2 == 0 {
				t[i] = substOddWord(t[i])
			} else {
				t[i] = substEvenWord(t[i])
			}
		}
		diffuseWords(&t)
	}
	for i := range t {
		w := substEvenWord(t[i]^rk[rounds-1][i]) ^ rk[rounds][i]
		binary.BigEndian.PutUint32(dst[4*i:], w)
	}
}
