package ecb_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/ecb"
)

// ECB over AES-128 with the vectors of NIST SP 800-38A, F.1.1 and F.1.2.
// Each block is encrypted alone, so equal plaintext blocks give equal
// ciphertext blocks: use it where a format demands it.
func ExampleNewEncrypter() {
	key, _ := hex.DecodeString("2b7e151628aed2a6abf7158809cf4f3c")
	block, err := aes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	plaintext, _ := hex.DecodeString("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
	ciphertext := make([]byte, len(plaintext))
	ecb.NewEncrypter(block).CryptBlocks(ciphertext, plaintext)
	fmt.Printf("%x\n", ciphertext)

	back := make([]byte, len(ciphertext))
	ecb.NewDecrypter(block).CryptBlocks(back, ciphertext)
	fmt.Println(hex.EncodeToString(back) == hex.EncodeToString(plaintext))
	// Output:
	// 3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf
	// true
}
