package ecb

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
)

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// mustPanic is testkit.MustPanic, which this package cannot import: testkit
// imports ecb.
func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
}

// SP 800-38A F.1.1.
var (
	key = unhex("2b7e151628aed2a6abf7158809cf4f3c")
	pt  = unhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
	ct  = unhex("3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf")
)

func TestBulkAndPerBlock(t *testing.T) {
	ours, _ := aes.NewCipher(key)
	std, _ := stdaes.NewCipher(key) // no bulk hook: the per-block fallback
	for _, b := range []cipher.Block{ours, std} {
		got := make([]byte, len(pt))
		NewEncrypter(b).CryptBlocks(got, pt)
		if !bytes.Equal(got, ct) {
			t.Errorf("%T encrypt: got %x", b, got)
		}
		NewDecrypter(b).CryptBlocks(got, got)
		if !bytes.Equal(got, pt) {
			t.Errorf("%T decrypt in place: got %x", b, got)
		}
		if bs := NewEncrypter(b).BlockSize(); bs != 16 {
			t.Errorf("%T BlockSize = %d", b, bs)
		}
	}
	if _, ok := NewEncrypter(std).(*perBlock); !ok {
		t.Error("a block without the hook did not get the per-block mode")
	}
	if _, ok := NewEncrypter(ours).(*perBlock); ok {
		t.Error("simdcrypt's AES did not get its bulk kernel")
	}
}

func TestMisuse(t *testing.T) {
	std, _ := stdaes.NewCipher(key)
	buf := make([]byte, 64)
	m := NewEncrypter(std)
	mustPanic(t, "partial block", func() { m.CryptBlocks(buf, buf[:20]) })
	mustPanic(t, "short dst", func() { m.CryptBlocks(buf[:16], buf[32:64]) })
	mustPanic(t, "inexact overlap", func() { m.CryptBlocks(buf[1:33], buf[:32]) })
}
