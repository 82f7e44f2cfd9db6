//go:build amd64 && !purego

package aria

// oneBlockKeys lays out round keys for the one-block GFNI kernels
// (ariaCBCEncrypt1, ariaECB1; see oneBlockGFNI in _asm/aria). They hold the
// block with the even bytes in the low 64-bit lane and the odd ones in the
// high lane, compute SB1 and SB2 without their outer constants and SB3 and
// SB4 without their inner ones, and so take keys with those constants
// folded in: round r's key gets SB3⁻¹(0) = 0x63 or SB4⁻¹(0) = 0xe2 at the
// bytes that go through SB3 or SB4 in round r, and, through A, the
// constants 0x63 (SB1) and 0xe2 (SB2) that round r-1's substitution left
// out; the last key gets the last substitution's outer constants directly.
// The constants are public, so this is key-independent work on key bytes,
// constant-time like the rest of the key schedule.
func oneBlockKeys(rk *[maxRounds + 1]block, rounds int) oneKeys {
	return foldKeys(rk, rounds, [4]byte{0, 0, 0x63, 0xe2}, [4]byte{0x63, 0xe2, 0, 0}, true)
}

// oneBlockKeysAESNI lays out round keys for the one-block AES-NI kernels
// (ariaCBCEncrypt1AESNI, ariaECB1AESNI, ariaECB1VAES), which compute SB2 as
// L∘SB1 without L's constant L(0) = SB2(SB3(0)): round r's key gets it
// through A at the bytes that went through SB2 in round r-1, the last key
// directly.
func oneBlockKeysAESNI(rk *[maxRounds + 1]block, rounds int) oneKeys {
	return foldKeys(rk, rounds, [4]byte{}, [4]byte{0, sb2[sb3[0]], 0, 0}, false)
}

// foldKeys XORs into round key r the constant inner[t] at the bytes whose
// S-box in round r has type t (SB1..SB4 as 0..3), and A applied to the
// constants outer[t] of round r-1's S-boxes (the last key: the constants
// themselves). layout puts the even bytes in the low half, the odd ones in
// the high half.
func foldKeys(rk *[maxRounds + 1]block, rounds int, inner, outer [4]byte, layout bool) (out oneKeys) {
	// sboxType is SB1..SB4 as 0..3 for byte i in round r (from 0).
	sboxType := func(r, i int) int {
		if r%2 == 1 {
			return i%4 ^ 2
		}
		return i % 4
	}
	for r := 0; r <= rounds; r++ {
		k := rk[r]
		var c block
		for i := range c {
			if r < rounds {
				k[i] ^= inner[sboxType(r, i)]
			}
			if r > 0 {
				c[i] = outer[sboxType(r-1, i)]
			}
		}
		if r < rounds {
			c = diffuse(c)
		}
		for i := range k {
			l := i
			if layout {
				l = i/2 + 8*(i%2)
			}
			out[r*BlockSize+l] = k[i] ^ c[i]
		}
	}
	return out
}

// foldAESKeys lays out round keys for the byte-sliced AES-NI and VAES
// kernels (see sboxAESNI in _asm/aria): key 0 as it is, then for each
// round r's substitution the key operand of its AES round instructions,
// A(key r+1) (for the last round, the last key), which the diffusion layer
// turns into key r+1; at the bytes whose S-box is SB2 = L∘SB1 the operand
// is added before L, so it is taken through L's linear part inverted. Each
// byte is repeated over 16 bytes (4 uint32), a whole XMM operand.
func foldAESKeys(rk *[maxRounds + 1]block, rounds int) []uint32 {
	x := make([]uint32, 0, (rounds+1)*BlockSize*4)
	put := func(b block) {
		for _, v := range b {
			for range 4 {
				x = append(x, uint32(v)*0x01010101)
			}
		}
	}
	put(rk[0])
	for r := 0; r < rounds; r++ {
		k := rk[r+1]
		if r < rounds-1 {
			k = diffuse(k)
		}
		// SB2 is at the bytes 1 mod 4 in even rounds (SL1), 3 mod 4 in odd ones.
		sb2At := 1 + 2*(r%2)
		for i := range k {
			if i%4 == sb2At {
				k[i] = sb2LinearInverse(k[i])
			}
		}
		put(k)
	}
	return x
}

// sb2LinearBasis holds the inverse of L's linear part, SB2 = L∘SB1, on the
// eight unit bytes, computed from the public S-box tables.
var sb2LinearBasis = func() (basis [8]byte) {
	c := sb2[sb3[0]] // L(0)
	for y := range 256 {
		l := sb2[sb3[y]] ^ c // L's linear part of y
		for b := range 8 {
			if l == 1<<b {
				basis[b] = byte(y)
			}
		}
	}
	return basis
}()

// sb2LinearInverse applies L's linear part inverted to v, bit by bit
// (constant-time: v is key material).
func sb2LinearInverse(v byte) byte {
	var y byte
	for b := range 8 {
		y ^= -(v >> b & 1) & sb2LinearBasis[b]
	}
	return y
}
