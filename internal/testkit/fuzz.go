package testkit

import (
	"bytes"
	"slices"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// FuzzBlockCipher fuzzes one mode (an Op name such as "ctr") of every
// available implementation of the cipher against the generic path. The
// input picks the key size, the IV and the data; seeds cover batch edges
// and an IV whose counter carries through all 128 bits.
func FuzzBlockCipher(f *testing.F, s BlockSpec, opName catalog.Op) {
	i := slices.IndexFunc(BlockOps, func(o Op) bool { return o.Name == opName })
	if i < 0 {
		f.Fatalf("no operation %q", opName)
	}
	op := BlockOps[i]
	for _, n := range []int{0, 16, 17, 255, 1024 + 3, 4096 + 48} {
		iv := bytes.Repeat([]byte{0xff}, 16)
		f.Add(byte(n), iv, bytes.Repeat([]byte{byte(n)}, 32), bytes.Repeat([]byte{0x5a}, n))
	}
	generic := catalog.MustLookup(s.Cipher, "generic")
	f.Fuzz(func(t *testing.T, keySel byte, iv, keyMaterial, data []byte) {
		ks := s.KeySizes[int(keySel)%len(s.KeySizes)]
		if len(iv) < 16 || len(keyMaterial) < ks {
			return
		}
		iv, key := iv[:16], keyMaterial[:ks]
		if op.Whole {
			data = data[:len(data)&^15]
		}
		g, err := generic.NewBlock(key)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]byte, len(data))
		op.New(g, iv)(want, data)
		for _, i := range catalog.For(s.Cipher) {
			if !i.Available() || i == generic {
				continue
			}
			b, err := i.NewBlock(key)
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
