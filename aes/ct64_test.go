package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"math/bits"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// referenceSbox builds the S-box from its definition (FIPS 197 5.1.1):
// the inverse in GF(2^8), x^254, then the affine map.
func referenceSbox() (s [256]byte) {
	mul := func(a, b byte) (p byte) {
		for ; b != 0; b >>= 1 {
			if b&1 != 0 {
				p ^= a
			}
			a = xtime(a)
		}
		return p
	}
	for x := range 256 {
		inv := byte(0)
		if x != 0 {
			inv = 1
			for range 254 {
				inv = mul(inv, byte(x))
			}
		}
		s[x] = inv ^ bits.RotateLeft8(inv, 1) ^ bits.RotateLeft8(inv, 2) ^ bits.RotateLeft8(inv, 3) ^ bits.RotateLeft8(inv, 4) ^ 0x63
	}
	return s
}

// TestBitslicedSbox checks the circuit and its inverse on all 256 inputs
// in every one of the 64 byte slots of the planes.
func TestBitslicedSbox(t *testing.T) {
	want := referenceSbox()
	for base := 0; base < 256; base += 64 {
		var in, out [ctBatch]byte
		for i := range in {
			in[i] = byte(base + i)
		}
		var q planes
		q.load(&in)
		q.subBytes()
		q.store(&out)
		for i, x := range in {
			if out[i] != want[x] {
				t.Fatalf("S(%#02x) = %#02x, want %#02x", x, out[i], want[x])
			}
		}
		q.load(&out)
		q.invSubBytes()
		q.store(&out)
		if out != in {
			t.Fatalf("inverse S-box does not undo the S-box for bytes %d..%d", base, base+63)
		}
	}
	for _, w := range []uint32{0, 0x00010203, 0xfffefdfc, 0x53c8f1a0} {
		got := subWordCT(w)
		exp := uint32(want[w>>24])<<24 | uint32(want[w>>16&0xff])<<16 | uint32(want[w>>8&0xff])<<8 | uint32(want[w&0xff])
		if got != exp {
			t.Errorf("subWordCT(%#08x) = %#08x, want %#08x", w, got, exp)
		}
	}
}

// TestLoadStore checks that bitslicing four blocks and back is the
// identity.
func TestLoadStore(t *testing.T) {
	var in, out [ctBatch]byte
	for i := range in {
		in[i] = byte(i*37 + 11)
	}
	var q planes
	q.load(&in)
	q.store(&out)
	if in != out {
		t.Fatalf("store(load(x)) != x:\n%x\n%x", out, in)
	}
}

// TestPortableWithAESNIMasked checks that masking the AES instructions
// (SIMDCRYPT_CPU=aesni=off, or ssse3=off which the 128-bit kernels also
// need) sends AES to the bitsliced path, not to table code, and that it
// agrees with crypto/aes there.
func TestPortableWithAESNIMasked(t *testing.T) {
	for _, mask := range []string{"aesni=off", "ssse3=off", "all=off"} {
		restore := testkit.Mask(t, mask)
		i, why := paths.Path()
		if i.Name != "generic" && i.Name != "stdlib" {
			t.Errorf("%s: dispatch chose %s (%s), want the constant-time portable path", mask, i.Name, why)
		}
		key := testkit.Hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
		b, err := NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := stdaes.NewCipher(key)
		src := bytes.Repeat([]byte("sixteen byte msg"), 5)
		got, want := make([]byte, len(src)), make([]byte, len(src))
		s, _ := NewCTR(b, src[:16])
		s.XORKeyStream(got, src)
		rs, _ := NewCTR(ref, src[:16])
		rs.XORKeyStream(want, src)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: CTR through %s differs from crypto/aes", mask, i.Name)
		}
		restore()
	}
}
