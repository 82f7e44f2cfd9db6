package gcm

import (
	"bytes"
	"testing"
)

// FuzzSeal compares every path with crypto/cipher on fuzzed keys, nonces,
// plaintexts and AD, and checks that Open undoes Seal and rejects a
// corrupted message.
func FuzzSeal(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 12), []byte("hello"), []byte("ad"), uint8(0))
	f.Add(make([]byte, 32), make([]byte, 7), make([]byte, 300), []byte{}, uint8(3))
	f.Add(make([]byte, 24), make([]byte, 60), make([]byte, 4096+31), make([]byte, 33), uint8(200))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, flip uint8) {
		switch len(key) {
		case 16, 24, 32:
		default:
			return
		}
		if len(nonce) == 0 {
			return
		}
		ref := refAEAD(t, nil, key, len(nonce), 16)
		want := ref.Seal(nil, nonce, pt, ad)
		for _, tp := range aesPaths(t) {
			a := tp.newAEAD(t, key, len(nonce), 16)
			got := a.Seal(nil, nonce, pt, ad)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: Seal differs from crypto/cipher", tp.name)
			}
			if out, err := a.Open(nil, nonce, got, ad); err != nil || !bytes.Equal(out, pt) {
				t.Fatalf("%s: Open failed or differs: %v", tp.name, err)
			}
			i := int(flip) % len(got)
			got[i] ^= 1 << (flip % 8)
			if _, err := a.Open(nil, nonce, got, ad); err == nil {
				t.Fatalf("%s: corrupted byte %d accepted", tp.name, i)
			}
		}
	})
}
