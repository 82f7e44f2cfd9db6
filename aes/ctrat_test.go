package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestXORKeyStreamAt checks random access into the CTR keystream on every
// path and key size.
func TestXORKeyStreamAt(t *testing.T) {
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		for _, key := range [][]byte{key128, key192, key256} {
			b, err := i.NewBlock(key)
			if err != nil {
				t.Fatal(err)
			}
			testkit.CheckCTRAt(t, b)
		}
	})
}
