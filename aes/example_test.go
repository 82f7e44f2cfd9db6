package aes_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/aes"
)

// One block with the AES-128 key of FIPS 197, appendix C.1.
func ExampleNewCipher() {
	block := must(aes.NewCipher(mustHex("000102030405060708090a0b0c0d0e0f")))
	dst := make([]byte, aes.BlockSize)
	block.Encrypt(dst, mustHex("00112233445566778899aabbccddeeff"))
	fmt.Printf("%x\n", dst)
	// Output: 69c4e0d86a7b0430d8cdb78070b4c55a
}

// CTR mode with the key, counter and first block of NIST SP 800-38A, F.5.1.
// Decryption is the same call on the ciphertext.
func ExampleNewCTR() {
	block := must(aes.NewCipher(mustHex("2b7e151628aed2a6abf7158809cf4f3c")))
	stream := must(aes.NewCTR(block, mustHex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")))
	plaintext := mustHex("6bc1bee22e409f96e93d7e117393172a")
	ciphertext := make([]byte, len(plaintext))
	stream.XORKeyStream(ciphertext, plaintext)
	fmt.Printf("%x\n", ciphertext)
	// Output: 874d6191b620e3261bef6864990db6ce
}

// CBC encryption and decryption with the vectors of NIST SP 800-38A, F.2.1.
// CBC works on whole blocks: padding is the caller's. Decryption may work
// in place.
func ExampleNewCBCEncrypter() {
	block := must(aes.NewCipher(mustHex("2b7e151628aed2a6abf7158809cf4f3c")))
	iv := mustHex("000102030405060708090a0b0c0d0e0f")
	plaintext := mustHex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")

	ciphertext := make([]byte, len(plaintext))
	must(aes.NewCBCEncrypter(block, iv)).CryptBlocks(ciphertext, plaintext)
	fmt.Printf("%x\n", ciphertext)

	must(aes.NewCBCDecrypter(block, iv)).CryptBlocks(ciphertext, ciphertext)
	fmt.Printf("%x\n", ciphertext)
	// Output:
	// 7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2
	// 6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51
}

// A key that is not 16, 24 or 32 bytes is an error, not a panic.
func ExampleKeySizeError() {
	_, err := aes.NewCipher(make([]byte, 20))
	fmt.Println(err)
	// Output: simdcrypt/aes: invalid key size 20 (want 16, 24 or 32 bytes)
}

// must returns v, or panics with err: the examples' inputs are constants
// that cannot fail.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mustHex(s string) []byte { return must(hex.DecodeString(s)) }
