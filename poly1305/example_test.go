package poly1305_test

import (
	"encoding/hex"
	"fmt"

	"github.com/simdcrypt/simdcrypt/poly1305"
)

// The example of RFC 8439, section 2.5.2. A Poly1305 key authenticates one
// message only; chacha20poly1305 derives a fresh one for every nonce.
func ExampleSum() {
	k, _ := hex.DecodeString("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
	key := (*[32]byte)(k)
	msg := []byte("Cryptographic Forum Research Group")
	var tag [poly1305.TagSize]byte
	poly1305.Sum(&tag, msg, key)
	fmt.Printf("%x\n", tag)
	fmt.Println(poly1305.Verify(&tag, msg, key))
	// Output:
	// a8061dc1305136c6c22b8baf0c0127a9
	// true
}

// The MAC takes the message in pieces of any size.
func ExampleNew() {
	k, _ := hex.DecodeString("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
	m := poly1305.New((*[32]byte)(k))
	m.Write([]byte("Cryptographic Forum"))
	m.Write([]byte(" Research Group"))
	fmt.Printf("%x\n", m.Sum(nil))
	// Output: a8061dc1305136c6c22b8baf0c0127a9
}
