package chacha20_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/chacha20"
)

// The encryption example of RFC 8439, section 2.4.2: a 12-byte nonce and
// the block counter set to 1 (the first ciphertext bytes are printed).
// Decryption is the same call with a cipher set up the same way.
func ExampleNewUnauthenticatedCipher() {
	key := make([]byte, chacha20.KeySize)
	for i := range key {
		key[i] = byte(i)
	}
	nonce, _ := hex.DecodeString("000000000000004a00000000")
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		panic(err)
	}
	c.SetCounter(1)
	plaintext := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	ciphertext := make([]byte, len(plaintext))
	c.XORKeyStream(ciphertext, plaintext)
	fmt.Printf("%x\n", ciphertext[:32])
	// Output: 6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
}

// A 24-byte nonce selects XChaCha20, whose nonces are long enough to be
// chosen at random. The stream can be cut anywhere: XORKeyStream keeps the
// unused keystream of a block for the next call.
func ExampleNewUnauthenticatedCipher_xChaCha20() {
	key := make([]byte, chacha20.KeySize)
	nonce := make([]byte, chacha20.NonceSizeX) // random in real use (crypto/rand)
	enc, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
	msg := []byte("split across calls")
	ct := make([]byte, len(msg))
	enc.XORKeyStream(ct[:5], msg[:5])
	enc.XORKeyStream(ct[5:], msg[5:])

	dec, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
	dec.XORKeyStream(ct, ct)
	fmt.Printf("%s\n", ct)
	// Output: split across calls
}

// HChaCha20 derives a subkey from a key and a 16-byte nonce; the values
// are the test vector of draft-irtf-cfrg-xchacha, section 2.2.1.
func ExampleHChaCha20() {
	key, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	nonce, _ := hex.DecodeString("000000090000004a0000000031415927")
	subkey, err := chacha20.HChaCha20(key, nonce)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", subkey)
	// Output: 82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc
}
