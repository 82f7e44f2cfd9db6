package gcm_test

import (
	"fmt"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/gcm"
)

// AES-128-GCM with test case 2 of the GCM specification (McGrew and
// Viega): zero key, zero 96-bit nonce, one zero block. Seal appends the
// 16-byte tag.
func ExampleNew() {
	block, err := aes.NewCipher(make([]byte, 16))
	if err != nil {
		panic(err)
	}
	aead, err := gcm.New(block)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, aead.NonceSize())
	sealed := aead.Seal(nil, nonce, make([]byte, 16), nil)
	fmt.Printf("%x\n", sealed[:16])
	fmt.Printf("%x\n", sealed[16:])

	sealed[20] ^= 1
	if _, err := aead.Open(nil, nonce, sealed, nil); err != nil {
		fmt.Println("tampered:", err)
	}
	// Output:
	// 0388dace60b6a392f328c2b971b2fe78
	// ab6e47d42cec13bdf53a67b21257bddf
	// tampered: cipher: message authentication failed
}

// NewWithRandomNonce draws the nonce itself and puts it in front of the
// ciphertext, so the caller cannot reuse one by mistake.
func ExampleNewWithRandomNonce() {
	block, _ := aes.NewCipher(make([]byte, 32))
	aead, err := gcm.NewWithRandomNonce(block)
	if err != nil {
		panic(err)
	}
	sealed := aead.Seal(nil, nil, []byte("attack at dawn"), []byte("header"))
	opened, err := aead.Open(nil, nil, sealed, []byte("header"))
	fmt.Println(len(sealed), string(opened), err)
	// Output: 42 attack at dawn <nil>
}
