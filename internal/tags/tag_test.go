package tags

import (
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestEqual checks the tag comparison at every tag size: equal tags match
// whatever lies past the size in the expected block, and a flip of any bit
// of the tag is rejected.
func TestEqual(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for size := 8; size <= 16; size++ {
		var want [16]byte
		copy(want[:], testkit.RandBytes(r, 16))
		tag := append([]byte(nil), want[:size]...)
		if !Equal(&want, tag) {
			t.Fatalf("size %d: equal tags rejected", size)
		}
		for bit := range 8 * size {
			tag[bit/8] ^= 1 << (bit % 8)
			if Equal(&want, tag) {
				t.Fatalf("size %d: bit %d flipped accepted", size, bit)
			}
			tag[bit/8] ^= 1 << (bit % 8)
		}
	}
}
