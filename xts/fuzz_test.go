package xts_test

import (
	"bytes"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/xts"
)

// FuzzXTS checks every usable path against the reference (x/crypto/xts for
// whole blocks, the portable stealing path otherwise) and that decryption
// inverts encryption. The input picks the key size, key, sector and data.
func FuzzXTS(f *testing.F) {
	for _, n := range []int{16, 17, 31, 64, 513, 4096 + 15} {
		f.Add(byte(n), bytes.Repeat([]byte{byte(n)}, 64), ^uint64(n), bytes.Repeat([]byte{0x5a}, n))
	}
	f.Fuzz(func(t *testing.T, keySel byte, keyMaterial []byte, sector uint64, data []byte) {
		ks := keySizes[int(keySel)%len(keySizes)]
		if len(keyMaterial) < ks || len(data) < 16 {
			return
		}
		key := keyMaterial[:ks]
		want := reference(key, sector, data, false)
		for _, p := range xts.Paths() {
			if !p.Usable {
				continue
			}
			c, err := xts.NewCipherOnPath(p.Name, aes.NewCipher, key)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(data))
			c.Encrypt(got, data, sector)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s len %d: encryption differs from the reference", p.Name, len(data))
			}
			c.Decrypt(got, got, sector)
			if !bytes.Equal(got, data) {
				t.Fatalf("%s len %d: decryption does not invert encryption", p.Name, len(data))
			}
		}
	})
}
