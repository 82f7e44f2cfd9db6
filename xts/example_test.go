package xts_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/xts"
)

// XTS-AES-128 with test vector 1 of IEEE 1619 (all-zero key, sector 0, 32
// zero bytes). The key is two AES keys: data key, then tweak key.
func ExampleNewCipher() {
	c, err := xts.NewCipher(aes.NewCipher, make([]byte, 32))
	if err != nil {
		panic(err)
	}
	sector := make([]byte, 32)
	c.Encrypt(sector, sector, 0)
	fmt.Printf("%x\n", sector)
	// Output: 917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e
}

// A sector that is not a whole number of blocks is encrypted with
// ciphertext stealing: the ciphertext has the plaintext's length. The
// sector number is the tweak, so equal sectors at different places differ.
func ExampleCipher_Decrypt() {
	key, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f" + "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
	c, err := xts.NewCipher(aes.NewCipher, key)
	if err != nil {
		panic(err)
	}
	plaintext := []byte("a sector of 21 bytes.")
	ciphertext := make([]byte, len(plaintext))
	c.Encrypt(ciphertext, plaintext, 7)

	back := make([]byte, len(ciphertext))
	c.Decrypt(back, ciphertext, 7)
	fmt.Println(len(ciphertext), string(back))
	// Output: 21 a sector of 21 bytes.
}
