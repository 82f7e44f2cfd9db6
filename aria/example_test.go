package aria_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/aria"
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// One block with the 128-bit example of RFC 5794, appendix A.1.
func ExampleNewCipher() {
	block, err := aria.NewCipher(mustHex("000102030405060708090a0b0c0d0e0f"))
	if err != nil {
		panic(err)
	}
	dst := make([]byte, aria.BlockSize)
	block.Encrypt(dst, mustHex("00112233445566778899aabbccddeeff"))
	fmt.Printf("%x\n", dst)
	// Output: d718fbd6ab644c739da95f3be6451778
}

// ARIA-128 in CTR mode, as `openssl enc -aria-128-ctr -K 000102...0f -iv
// 00000000000000000000000000000001` computes it; decryption is the same call.
func ExampleNewCTR() {
	block, err := aria.NewCipher(mustHex("000102030405060708090a0b0c0d0e0f"))
	if err != nil {
		panic(err)
	}
	stream, err := aria.NewCTR(block, mustHex("00000000000000000000000000000001"))
	if err != nil {
		panic(err)
	}
	ciphertext := make([]byte, 21)
	stream.XORKeyStream(ciphertext, []byte("attack at dawn, 06:00"))
	fmt.Printf("%x\n", ciphertext)
	// Output: c79747a221175445721dcede62d5297baae89e4fbc
}

// ARIA-256 CBC encryption then decryption (the ciphertext is what `openssl
// enc -aria-256-cbc -nopad` gives); CBC works on whole blocks, so padding
// is the caller's.
func ExampleNewCBCEncrypter() {
	block, err := aria.NewCipher(mustHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
	if err != nil {
		panic(err)
	}
	iv := mustHex("0f0e0d0c0b0a09080706050403020100")
	plaintext := []byte("exactly 32 bytes, two blocks....")
	enc, err := aria.NewCBCEncrypter(block, iv)
	if err != nil {
		panic(err)
	}
	ciphertext := make([]byte, len(plaintext))
	enc.CryptBlocks(ciphertext, plaintext)
	fmt.Printf("%x\n", ciphertext)

	dec, err := aria.NewCBCDecrypter(block, iv)
	if err != nil {
		panic(err)
	}
	dec.CryptBlocks(ciphertext, ciphertext)
	fmt.Printf("%s\n", ciphertext)
	// Output:
	// 0748a5d21ec37ae367812e942e07fc63202277cbbf7736cc6de932ec4847b519
	// exactly 32 bytes, two blocks....
}
