package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
)

func TestQuick(t *testing.T) {
	key := make([]byte, 16)
	for i := range key { key[i] = byte(i) }
	sb, _ := stdaes.NewCipher(key)
	ref, _ := cipher.NewGCM(sb)
	b, _ := aes.NewCipher(key)
	g, err := New(b)
	if err != nil { t.Fatal(err) }
	t.Log(pathOf(g))
	for n := 0; n < 300; n++ {
		pt := make([]byte, n)
		for i := range pt { pt[i] = byte(i*7) }
		nonce := make([]byte, 12)
		w := ref.Seal(nil, nonce, pt, pt[:n/2])
		got := g.Seal(nil, nonce, pt, pt[:n/2])
		if !bytes.Equal(w, got) { t.Fatalf("n=%d\n%x\n%x", n, w, got) }
	}
}
