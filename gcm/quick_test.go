package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
)

func TestQuick(t *testing.T) {
	for _, ks := range []int{16, 24, 32} {
		for _, p := range []string{"vaes512", "vaes256", "aesni", "generic"} {
			key := make([]byte, ks)
			for i := range key {
				key[i] = byte(i)
			}
			sb, _ := stdaes.NewCipher(key)
			ref, _ := cipher.NewGCM(sb)
			b, _ := aes.NewCipher(key)
			g, err := newPath(p, b, 12, 16)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < 1100; n++ {
				pt := make([]byte, n)
				for i := range pt {
					pt[i] = byte(i * 7)
				}
				nonce := make([]byte, 12)
				w := ref.Seal(nil, nonce, pt, pt[:n/3])
				got := g.Seal(nil, nonce, pt, pt[:n/3])
				if !bytes.Equal(w, got) {
					t.Fatalf("%s ks=%d n=%d\n%x\n%x", p, ks, n, w, got)
				}
				o, err := g.Open(nil, nonce, got, pt[:n/3])
				if err != nil || !bytes.Equal(o, pt) {
					t.Fatalf("%s open n=%d %v", p, n, err)
				}
			}
		}
	}
}
