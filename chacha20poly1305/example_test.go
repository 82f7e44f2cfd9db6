package chacha20poly1305_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/chacha20poly1305"
)

// The AEAD example of RFC 8439, section 2.8.2: Seal appends the 16-byte
// tag; Open checks it and returns the plaintext, or an error and nothing.
func ExampleNew() {
	key, _ := hex.DecodeString("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
	nonce, _ := hex.DecodeString("070000004041424344454647")
	aad, _ := hex.DecodeString("50515253c0c1c2c3c4c5c6c7")
	plaintext := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")

	aead, err := chacha20poly1305.New(key)
	if err != nil {
		panic(err)
	}
	sealed := aead.Seal(nil, nonce, plaintext, aad)
	fmt.Printf("ciphertext starts %x\n", sealed[:16])
	fmt.Printf("tag %x\n", sealed[len(sealed)-aead.Overhead():])

	opened, err := aead.Open(nil, nonce, sealed, aad)
	fmt.Println(err == nil && string(opened) == string(plaintext))

	sealed[0] ^= 1 // any change is detected
	_, err = aead.Open(nil, nonce, sealed, aad)
	fmt.Println(err)
	// Output:
	// ciphertext starts d31a8d34648e60db7b86afbc53ef7ec2
	// tag 1ae10b594f09e26a7e902ecbd0600691
	// true
	// chacha20poly1305: message authentication failed
}

// XChaCha20-Poly1305 takes 24-byte nonces, long enough to pick at random
// for every message under one key.
func ExampleNewX() {
	key := make([]byte, chacha20poly1305.KeySize)
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, aead.NonceSize()) // from crypto/rand in real use
	sealed := aead.Seal(nil, nonce, []byte("hello"), nil)
	opened, err := aead.Open(nil, nonce, sealed, nil)
	fmt.Println(aead.NonceSize(), len(sealed), string(opened), err)
	// Output: 24 21 hello <nil>
}
