package testkit

import (
	"crypto/cipher"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// CheckCTRAt tests XORKeyStreamAt of the CTR streams over b, both the one
// crypto/cipher.NewCTR returns through b's hook and the one the cipher
// packages' NewCTR returns: CheckStreamAt at IVs whose counter carries out
// of its low 64 bits and out of all 128 within the range, far offsets
// against a stream started at the shifted IV, and the limit of 2^64-1
// bytes.
func CheckCTRAt(t *testing.T, b cipher.Block) {
	r := rand.New(rand.NewPCG(7, 16))
	ctors := []struct {
		name string
		new  func(iv []byte) cipher.Stream
	}{
		{"cipher.NewCTR", func(iv []byte) cipher.Stream { return cipher.NewCTR(b, iv) }},
		{"NewCTR", func(iv []byte) cipher.Stream {
			s, err := modes.NewCTR(b, iv)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	}
	ivs := []struct {
		name string
		iv   []byte
	}{
		{"random", RandBytes(r, 16)},
		{"carry64", Hex("0123456789abcdef fffffffffffffff0")},  // low half wraps 16 blocks in
		{"carry128", Hex("ffffffffffffffff ffffffffffffff00")}, // all 128 bits wrap 256 blocks in
	}
	for _, c := range ctors {
		for _, iv := range ivs {
			t.Run(c.name+"/"+iv.name, func(t *testing.T) {
				CheckStreamAt(t, 16, func() StreamAt {
					at, ok := c.new(iv.iv).(StreamAt)
					if !ok {
						t.Fatalf("%T has no XORKeyStreamAt", c.new(iv.iv))
					}
					return at
				})
			})
		}
		t.Run(c.name+"/FarOffsets", func(t *testing.T) {
			for _, iv := range ivs {
				st := c.new(iv.iv).(StreamAt)
				for _, off := range []uint64{1<<40 + 5, 1<<63 + 17, 1<<64 - 1000, 1<<64 - 100} {
					src := RandBytes(r, 99)
					got := make([]byte, len(src))
					st.XORKeyStreamAt(got, src, off)
					// The reference starts a fresh stream at iv + off/16.
					hi := binary.BigEndian.Uint64(iv.iv[:8])
					lo, carry := bits.Add64(binary.BigEndian.Uint64(iv.iv[8:]), off/16, 0)
					shifted := make([]byte, 16)
					binary.BigEndian.PutUint64(shifted[:8], hi+carry)
					binary.BigEndian.PutUint64(shifted[8:], lo)
					ref := cipher.NewCTR(b, shifted)
					skip := make([]byte, off%16)
					ref.XORKeyStream(skip, skip)
					want := make([]byte, len(src))
					ref.XORKeyStream(want, src)
					if i := diffAt(got, want); i >= 0 {
						t.Fatalf("iv %s, offset %#x: differs at byte %d", iv.name, off, i)
					}
				}
			}
		})
		t.Run(c.name+"/NoAllocs", func(t *testing.T) {
			st := c.new(ivs[0].iv).(StreamAt)
			buf := make([]byte, 4096+7)
			for _, n := range []int{1, 16, 64, 100, len(buf)} {
				if a := testing.AllocsPerRun(20, func() { st.XORKeyStreamAt(buf[:n], buf[:n], 12345) }); a != 0 {
					t.Errorf("XORKeyStreamAt of %d bytes: %v allocations per call", n, a)
				}
			}
		})
		t.Run(c.name+"/Limit", func(t *testing.T) {
			st := c.new(ivs[0].iv).(StreamAt)
			// As XORKeyStream, the stream holds 2^64-1 bytes.
			buf := make([]byte, 10)
			st.XORKeyStreamAt(buf[:9], buf[:9], 1<<64-10)
			MustPanic(t, "range past 2^64-1 bytes", func() { st.XORKeyStreamAt(buf, buf, 1<<64-10) })
			MustPanic(t, "range past 2^64 bytes", func() { st.XORKeyStreamAt(buf, buf, 1<<64-1) })
		})
	}
}
