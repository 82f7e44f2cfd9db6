package aria

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestXORKeyStreamAt checks random access into the CTR keystream on every
// path and key size.
func TestXORKeyStreamAt(t *testing.T) {
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		for _, n := range []int{16, 24, 32} {
			key := make([]byte, n)
			for j := range key {
				key[j] = byte(j * 7)
			}
			b, err := i.NewBlock(key)
			if err != nil {
				t.Fatal(err)
			}
			testkit.CheckCTRAt(t, b)
		}
	})
}
