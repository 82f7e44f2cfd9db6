package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// BenchmarkCBCEncryptMulti compares CBCEncryptMulti with one CBC encrypter
// per message on every path (see testkit.BenchCBCMulti):
//
//	go test -run - -bench CBCEncryptMulti ./aes/
func BenchmarkCBCEncryptMulti(b *testing.B) {
	testkit.BenchCBCMulti(b, cipherName, NewCBCEncrypter, CBCEncryptMulti)
}
