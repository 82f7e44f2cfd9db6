package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"testing"
)

func TestQuickGeneric(t *testing.T) {
	for _, n := range []int{16, 24, 32} {
		key := make([]byte, n)
		for i := range key {
			key[i] = byte(i * 7)
		}
		ref, _ := stdaes.NewCipher(key)
		s, _ := expandKey(key)
		g := (*generic)(s)
		var in, a, b, c [16]byte
		for i := range in {
			in[i] = byte(i)
		}
		for it := 0; it < 100; it++ {
			g.EncryptBlock(&a, &in)
			ref.Encrypt(b[:], in[:])
			if a != b {
				t.Fatalf("enc %d mismatch", n)
			}
			g.DecryptBlock(&c, &a)
			if !bytes.Equal(c[:], in[:]) {
				t.Fatalf("dec %d mismatch", n)
			}
			in = a
		}
	}
}
