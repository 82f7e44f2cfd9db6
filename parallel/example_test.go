package parallel_test

import (
	"bytes"
	"crypto/cipher"
	"fmt"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/parallel"
)

// A large buffer encrypted with AES-CTR on every core gives the same
// ciphertext as one serial call.
func ExampleXORKeyStream() {
	key := []byte("an example key!!") // use a random key in practice
	iv := make([]byte, aes.BlockSize) // and a fresh IV per message
	block, err := aes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	plaintext := bytes.Repeat([]byte("sixteen bytes..."), 1<<16) // 1 MiB

	stream, err := aes.NewCTR(block, iv)
	if err != nil {
		panic(err)
	}
	ciphertext := make([]byte, len(plaintext))
	parallel.XORKeyStream(stream.(parallel.SeekableStream), ciphertext, plaintext, 0, 0)

	serial := make([]byte, len(plaintext))
	cipher.NewCTR(block, iv).XORKeyStream(serial, plaintext)
	fmt.Println(bytes.Equal(ciphertext, serial))
	// Output: true
}
