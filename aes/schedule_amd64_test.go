//go:build amd64 && !purego

package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestHardwareKeyScheduleUsesNoTables proves that key setup on the hardware
// paths looks nothing up in the portable path's tables, which are indexed by
// key bytes and so would leak the key through the cache: the tables are
// zeroed while the kernels are built, and the kernels must still encrypt
// correctly. (Not parallel: it changes package state.)
func TestHardwareKeyScheduleUsesNoTables(t *testing.T) {
	tested := 0
	for _, i := range catalog.For(cipherName) {
		if len(i.Requires) == 0 {
			continue
		}
		if !i.Available() {
			t.Logf("%s not tested here: needs %v", i.Name, i.Missing())
			continue
		}
		for _, ks := range []int{16, 24, 32} {
			key := testkit.Hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")[:ks]
			b, err := withTablesZeroed(func() (cipher.Block, error) { return i.NewBlock(key) })
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := stdaes.NewCipher(key)
			src := []byte("sixteen byte msg")
			want, got := make([]byte, 16), make([]byte, 16)
			ref.Encrypt(want, src)
			b.Encrypt(got, src)
			if !bytes.Equal(got, want) {
				t.Errorf("%s key %d: encryption wrong after key setup without tables", i.Name, ks)
			}
			ref.Decrypt(want, src)
			b.Decrypt(got, src)
			if !bytes.Equal(got, want) {
				t.Errorf("%s key %d: decryption wrong after key setup without tables", i.Name, ks)
			}
		}
		tested++
	}
	if tested == 0 {
		t.Skip("no hardware AES path usable here")
	}
}

// withTablesZeroed runs f with every lookup table of the portable path
// zeroed, and restores them.
func withTablesZeroed[T any](f func() (T, error)) (T, error) {
	saved := [...][256]uint32{te0, te1, te2, te3, td0, td1, td2, td3}
	savedS, savedInv := sbox, invSbox
	defer func() {
		te0, te1, te2, te3, td0, td1, td2, td3 = saved[0], saved[1], saved[2], saved[3], saved[4], saved[5], saved[6], saved[7]
		sbox, invSbox = savedS, savedInv
	}()
	clear(sbox[:])
	clear(invSbox[:])
	for _, t := range []*[256]uint32{&te0, &te1, &te2, &te3, &td0, &td1, &td2, &td3} {
		clear(t[:])
	}
	return f()
}
