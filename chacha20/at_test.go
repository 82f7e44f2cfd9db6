package chacha20

import (
	"bytes"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestXORKeyStreamAt checks random access into the keystream on every path,
// for ChaCha20 and XChaCha20, and at the end of the 32-bit block counter.
func TestXORKeyStreamAt(t *testing.T) {
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i * 3)
	}
	nonce := testkit.Hex("000000090000004a00000000")
	xnonce := testkit.Hex("404142434445464748494a4b4c4d4e4f5051525354555658")
	testkit.ForEachImpl(t, "chacha20", func(t *testing.T, i *catalog.Path) {
		p := pathByName(i.Name)
		mk := func(nonce []byte) *Cipher {
			c, err := newCipher(key, nonce, p)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		for _, n := range [][]byte{nonce, xnonce} {
			testkit.CheckStreamAt(t, blockSize, func() testkit.StreamAt { return mk(n) })
		}
		t.Run("CounterEnd", func(t *testing.T) {
			st := mk(nonce)
			// 5 bytes into block 2^32-4, through the last block.
			const start = (1<<32-4)*blockSize + 5
			src := make([]byte, streamEnd-start)
			for j := range src {
				src[j] = byte(j)
			}
			ref := mk(nonce)
			ref.SetCounter(1<<32 - 4)
			want := make([]byte, len(src))
			ref.XORKeyStream(want[:5], want[:5])
			ref.XORKeyStream(want, src)
			got := make([]byte, len(src))
			st.XORKeyStreamAt(got, src, start)
			if !bytes.Equal(got, want) {
				t.Errorf("XORKeyStreamAt up to the counter's end differs from SetCounter and XORKeyStream")
			}
			for n := 1; n < len(src); n += 37 {
				part := make([]byte, n)
				st.XORKeyStreamAt(part, src[len(src)-n:], streamEnd-uint64(n))
				if !bytes.Equal(part, want[len(want)-n:]) {
					t.Fatalf("last %d bytes differ", n)
				}
			}
			buf := make([]byte, 2)
			testkit.MustPanic(t, "range past block 2^32-1", func() { st.XORKeyStreamAt(buf, buf, streamEnd-1) })
			testkit.MustPanic(t, "offset past the end", func() { st.XORKeyStreamAt(buf[:1], buf[:1], streamEnd) })
			testkit.MustPanic(t, "offset far past the end", func() { st.XORKeyStreamAt(buf[:1], buf[:1], 1<<63) })
		})
		t.Run("NoAllocs", func(t *testing.T) {
			st := mk(nonce)
			buf := make([]byte, 4096+7)
			for _, n := range []int{1, 64, 100, 1024, len(buf)} {
				if a := testing.AllocsPerRun(20, func() { st.XORKeyStreamAt(buf[:n], buf[:n], 12345) }); a != 0 {
					t.Errorf("XORKeyStreamAt of %d bytes: %v allocations per call", n, a)
				}
			}
		})
	})
}
