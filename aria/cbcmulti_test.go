package aria

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestCBCEncryptMulti checks the batch against one-at-a-time CBC on the
// portable path, on every path and key size.
func TestCBCEncryptMulti(t *testing.T) {
	generic := catalog.MustLookup(cipherName, "generic")
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		for _, n := range []int{16, 24, 32} {
			key := make([]byte, n)
			for j := range key {
				key[j] = byte(j*5 + 1)
			}
			b, err := i.NewBlock(key)
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := generic.NewBlock(key)
			testkit.CheckCBCMulti(t, b, ref, CBCEncryptMulti)
		}
	})
}
