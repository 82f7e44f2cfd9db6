package aria_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/aria"
)

// One block with the 128-bit example of RFC 5794, appendix A.1, there and
// back.
func ExampleNewCipher() {
	block := must(aria.NewCipher(mustHex("000102030405060708090a0b0c0d0e0f")))
	buf := mustHex("00112233445566778899aabbccddeeff")
	block.Encrypt(buf, buf)
	fmt.Printf("%x\n", buf)
	block.Decrypt(buf, buf)
	fmt.Printf("%x\n", buf)
	// Output:
	// d718fbd6ab644c739da95f3be6451778
	// 00112233445566778899aabbccddeeff
}

// ARIA-128 in CTR mode, as `openssl enc -aria-128-ctr -K 000102...0f -iv
// 00000000000000000000000000000001` computes it; decryption is the same call.
func ExampleNewCTR() {
	block := must(aria.NewCipher(mustHex("000102030405060708090a0b0c0d0e0f")))
	stream := must(aria.NewCTR(block, mustHex("00000000000000000000000000000001")))
	ciphertext := make([]byte, 21)
	stream.XORKeyStream(ciphertext, []byte("attack at dawn, 06:00"))
	fmt.Printf("%x\n", ciphertext)
	// Output: c79747a221175445721dcede62d5297baae89e4fbc
}

// ARIA-256 CBC encryption then decryption, both in place (the ciphertext is
// what `openssl enc -aria-256-cbc -nopad` gives); CBC works on whole
// blocks, so padding is the caller's.
func ExampleNewCBCEncrypter() {
	block := must(aria.NewCipher(mustHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")))
	iv := mustHex("0f0e0d0c0b0a09080706050403020100")
	buf := []byte("exactly 32 bytes, two blocks....")
	enc, dec := must(aria.NewCBCEncrypter(block, iv)), must(aria.NewCBCDecrypter(block, iv))
	enc.CryptBlocks(buf, buf)
	fmt.Printf("%x\n", buf)
	dec.CryptBlocks(buf, buf)
	fmt.Printf("%s\n", buf)
	// Output:
	// 0748a5d21ec37ae367812e942e07fc63202277cbbf7736cc6de932ec4847b519
	// exactly 32 bytes, two blocks....
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
