package aria

import (
	"math/bits"
	"testing"
)

// This file derives ARIA's S-boxes from their definitions (RFC 5794 section
// 2.4.2) in the form the GFNI kernels compute them, and rebuilds the four
// tables from that form:
//
//	SB1(x) = A·x⁻¹ ⊕ 0x63          one GF2P8AFFINEINVQB (matrix A)
//	SB2(x) = B·x²⁴⁷ ⊕ 0xe2         one GF2P8AFFINEINVQB: x²⁴⁷ = (x⁻¹)⁸ and
//	                               squaring is linear, so the matrix is B·Q³
//	SB3(x) = (A⁻¹·x ⊕ A⁻¹·0x63)⁻¹  GF2P8AFFINEQB, then GF2P8AFFINEINVQB(I, 0)
//	SB4(x) = ((BQ³)⁻¹·x ⊕ (BQ³)⁻¹·0xe2)⁻¹
//
// The field is GF(2⁸) modulo x⁸+x⁴+x³+x+1 for ARIA as for AES, which is the
// polynomial the GFNI instructions hard-wire. The expected 64-bit operands
// are typed in: they are the constants _asm/aria emits, derived there by the
// same mathematics.

// matrix is an 8×8 matrix over GF(2): row i gives output bit i, bit j of a
// row multiplies input bit j (bits numbered from the least significant, as
// RFC 5794 and FIPS 197 write the vectors top to bottom).
type matrix [8]byte

func (m matrix) apply(x byte) byte {
	var y byte
	for i, row := range m {
		y |= byte(bits.OnesCount8(row&x)&1) << i
	}
	return y
}

// linear returns the matrix of a GF(2)-linear map on bytes.
func linear(f func(byte) byte) matrix {
	var m matrix
	for j := 0; j < 8; j++ {
		col := f(1 << j)
		for i := 0; i < 8; i++ {
			m[i] |= (col >> i & 1) << j
		}
	}
	return m
}

func (m matrix) mul(n matrix) matrix { return linear(func(x byte) byte { return m.apply(n.apply(x)) }) }

// inverse inverts m by brute force over the 256 inputs (m is a bijection).
func (m matrix) inverse(t *testing.T) matrix {
	var inv [256]byte
	seen := map[byte]bool{}
	for x := 0; x < 256; x++ {
		y := m.apply(byte(x))
		if seen[y] {
			t.Fatalf("matrix %x is singular", m)
		}
		seen[y] = true
		inv[y] = byte(x)
	}
	return linear(func(y byte) byte { return inv[y] })
}

// rows builds a matrix from the rows RFC 5794 prints, bit 0 leftmost.
func rows(rs ...string) matrix {
	var m matrix
	for i, r := range rs {
		for j, c := range r {
			if c == '1' {
				m[i] |= 1 << j
			}
		}
	}
	return m
}

// gfni packs m as the 64-bit matrix operand of GF2P8AFFINEQB: output bit i
// is the parity of x AND byte 7-i of the operand.
func (m matrix) gfni() uint64 {
	var q uint64
	for i, row := range m {
		q |= uint64(row) << (8 * (7 - i))
	}
	return q
}

func gfMul(a, b byte) byte {
	var p byte
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			p ^= a
		}
		a = a<<1 ^ byte(int8(a)>>7)&0x1b
	}
	return p
}

func gfInv(x byte) byte {
	r := byte(1)
	for i := 0; i < 254; i++ { // x²⁵⁴ = x⁻¹, and 0 maps to 0
		r = gfMul(r, x)
	}
	if x == 0 {
		return 0
	}
	return r
}

// affine and affineInv model GF2P8AFFINEQB and GF2P8AFFINEINVQB on one byte
// with a 64-bit matrix operand q and immediate c, bit for bit as the
// instruction reference defines them.
func affine(q uint64, c, x byte) byte {
	var y byte
	for i := 0; i < 8; i++ {
		row := byte(q >> (8 * (7 - i)))
		y |= byte(bits.OnesCount8(row&x)&1) << i
	}
	return y ^ c
}

func affineInv(q uint64, c, x byte) byte { return affine(q, c, gfInv(x)) }

func TestSBoxDerivation(t *testing.T) {
	aesA := rows("10001111", "11000111", "11100011", "11110001", "11111000", "01111100", "00111110", "00011111")
	ariaB := rows("01011110", "00111101", "11010111", "10011101", "00101100", "10000001", "01011101", "11010011")
	square := linear(func(x byte) byte { return gfMul(x, x) })
	m1 := aesA
	m2 := ariaB.mul(square.mul(square).mul(square)) // B·Q³: x⁻¹ ↦ (x⁻¹)⁸ = x²⁴⁷ ↦ B·x²⁴⁷
	const c1, c2 = 0x63, 0xe2
	m1inv, m2inv := m1.inverse(t), m2.inverse(t)
	identity := linear(func(x byte) byte { return x })

	got := map[string]uint64{
		"SB1": m1.gfni(), "SB2": m2.gfni(), "SB1^-1 pre": m1inv.gfni(), "SB2^-1 pre": m2inv.gfni(), "identity": identity.gfni(),
	}
	// The operands _asm/aria emits (matSB1 and so on in the generator),
	// which key setup uses too (keysbox.go).
	want := map[string]uint64{
		"SB1":        matrixSB1,
		"SB2":        matrixSB2,
		"SB1^-1 pre": matrixSB1Inv,
		"SB2^-1 pre": matrixSB2Inv,
		"identity":   0x0102040810204080,
	}
	for name, q := range got {
		if q != want[name] {
			t.Errorf("%s matrix operand: derived %#016x, the kernels use %#016x", name, q, want[name])
		}
	}

	pre1, pre2 := m1inv.apply(c1), m2inv.apply(c2)
	for x := 0; x < 256; x++ {
		b := byte(x)
		if s := affineInv(m1.gfni(), c1, b); s != sb1[x] {
			t.Fatalf("SB1(%#02x): affine form gives %#02x, table %#02x", x, s, sb1[x])
		}
		if s := affineInv(m2.gfni(), c2, b); s != sb2[x] {
			t.Fatalf("SB2(%#02x): affine form gives %#02x, table %#02x", x, s, sb2[x])
		}
		if s := affineInv(identity.gfni(), 0, affine(m1inv.gfni(), pre1, b)); s != sb3[x] {
			t.Fatalf("SB3(%#02x): affine form gives %#02x, table %#02x", x, s, sb3[x])
		}
		if s := affineInv(identity.gfni(), 0, affine(m2inv.gfni(), pre2, b)); s != sb4[x] {
			t.Fatalf("SB4(%#02x): affine form gives %#02x, table %#02x", x, s, sb4[x])
		}
	}
	if pre1 != 0x05 || pre2 != 0x2c {
		t.Errorf("pre-inversion constants %#02x, %#02x; the kernels use 0x05, 0x2c", pre1, pre2)
	}
	// The tables are permutations and SB3, SB4 their inverses.
	for x := 0; x < 256; x++ {
		if sb3[sb1[x]] != byte(x) || sb4[sb2[x]] != byte(x) {
			t.Fatalf("SB3/SB4 do not invert SB1/SB2 at %#02x", x)
		}
	}
}

// TestAESNIAffine checks the relation the aesni-avx kernel computes SB2 and
// SB4 by: with SB1 from AESENCLAST and SB3 from AESDECLAST, SB2 = L∘SB1 and
// SB4 = SB3∘L⁻¹ for one affine map L(y) = M·A⁻¹·y ⊕ (M·A⁻¹·0x63 ⊕ 0xe2),
// M = B·Q³, which the kernel applies as two nibble look-ups.
func TestAESNIAffine(t *testing.T) {
	aesA := rows("10001111", "11000111", "11100011", "11110001", "11111000", "01111100", "00111110", "00011111")
	ariaB := rows("01011110", "00111101", "11010111", "10011101", "00101100", "10000001", "01011101", "11010011")
	square := linear(func(x byte) byte { return gfMul(x, x) })
	m := ariaB.mul(square.mul(square).mul(square))
	lin := m.mul(aesA.inverse(t))
	c := lin.apply(0x63) ^ 0xe2
	L := func(y byte) byte { return lin.apply(y) ^ c }
	var lo, hi [16]byte
	for n := 0; n < 16; n++ {
		lo[n], hi[n] = L(byte(n)), lin.apply(byte(n<<4))
	}
	for x := 0; x < 256; x++ {
		if got := L(sb1[x]); got != sb2[x] {
			t.Fatalf("L(SB1(%#02x)) = %#02x, SB2 = %#02x", x, got, sb2[x])
		}
		if got := lo[sb1[x]&15] ^ hi[sb1[x]>>4]; got != sb2[x] {
			t.Fatalf("nibble tables give %#02x for SB2(%#02x), want %#02x", got, x, sb2[x])
		}
		// SB4(x) = SB3(L⁻¹(x)): L(SB1(SB4(x))) = SB2(SB4(x)) = x.
		if L(sb1[sb4[x]]) != byte(x) {
			t.Fatalf("SB4(%#02x) is not SB3∘L⁻¹", x)
		}
	}
}
