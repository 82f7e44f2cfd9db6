package testkit

import (
	"bytes"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/impl"
)

// FuzzBlockCipher fuzzes every available implementation of the cipher,
// every mode, against the generic path. The input picks the key size, the
// mode, the IV and the data; seeds cover each mode and counter edges.
func FuzzBlockCipher(f *testing.F, s BlockSpec) {
	for op := range BlockOps {
		for _, n := range []int{0, 16, 17, 255, 1024 + 3} {
			iv := bytes.Repeat([]byte{0xff}, 16)
			f.Add(byte(op), byte(n), iv, bytes.Repeat([]byte{byte(n)}, 32), bytes.Repeat([]byte{0x5a}, n))
		}
	}
	generic := impl.MustLookup(s.Cipher, "generic")
	f.Fuzz(func(t *testing.T, opSel, keySel byte, iv, keyMaterial, data []byte) {
		op := BlockOps[int(opSel)%len(BlockOps)]
		ks := s.KeySizes[int(keySel)%len(s.KeySizes)]
		if len(iv) < 16 || len(keyMaterial) < ks {
			return
		}
		iv, key := iv[:16], keyMaterial[:ks]
		if op.Whole {
			data = data[:len(data)&^15]
		}
		g, err := NewBlock(generic, key)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]byte, len(data))
		op.New(g, iv)(want, data)
		for _, i := range impl.For(s.Cipher) {
			if !i.Available() || i == generic {
				continue
			}
			b, err := NewBlock(i, key)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(data))
			op.New(b, iv)(got, data)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s %s len %d: differs from generic", i.Name, op.Name, len(data))
			}
		}
	})
}
