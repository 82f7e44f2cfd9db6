package aes

import (
	"bytes"
	"crypto/cipher"
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

// BenchmarkCBCEncryptMultiKeys compares, on every path, 64 messages of 4
// KiB under one key (CBCEncryptMulti) with the same messages each under a
// key of its own (CBCEncryptMultiKeys), taking turns; each reports its
// fastest turn (shared-MB/s, keyed-MB/s) and keyed/shared (ratio):
//
//	go test -run - -bench CBCEncryptMultiKeys ./aes/
func BenchmarkCBCEncryptMultiKeys(b *testing.B) {
	const messages, size = 64, 4 << 10
	for _, i := range testkit.Paths(cipherName) {
		b.Run(i.Name, func(b *testing.B) {
			if !i.Available() {
				b.Skipf("%s needs %v", i.Name, i.Missing())
			}
			shared, _ := i.NewBlock(key128)
			blocks := make([]cipher.Block, messages)
			jobs := make([]CBCJob, messages)
			for n := range jobs {
				buf := make([]byte, size)
				jobs[n] = CBCJob{Dst: buf, Src: buf}
				key := bytes.Clone(key128)
				key[0] = byte(n)
				blocks[n], _ = i.NewBlock(key)
			}
			testkit.TakeTurns(b, messages*size, "shared", func() { CBCEncryptMulti(shared, jobs) },
				"keyed", func() { CBCEncryptMultiKeys(blocks, jobs) }, "ratio")
		})
	}
}
