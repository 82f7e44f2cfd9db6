package gcm

import (
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestPowers checks the key powers every path's set-up computes against
// the portable multiplication, and the portable multiplication against the
// bit-serial reference of SP 800-38D.
func TestPowers(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for range 50 {
		var z [16]byte
		copy(z[:], testkit.RandBytes(r, 16))
		want := newHashKey(&z)
		want.powersGeneric()
		for kind := range ghashKind(4) {
			got := newHashKey(&z)
			got.powers(kind)
			if got.pow[0] == ([16]byte{}) {
				continue // this build has no such kind: nothing filled in
			}
			if got.pow != want.pow || got.kar != want.kar {
				t.Fatalf("GHASH kind %d: powers differ from the portable computation", kind)
			}
		}
		// Every row is H^k in the key's form, byte-reversed and times x:
		// row 30 is H·H so.
		ref := gfMulRef(z, z)
		if got := get(&want.pow[numPowers-2]); got != load(ref[:]).mulX() {
			t.Fatalf("h^2 row = %x, want H·H = %x in POLYVAL form", want.pow[numPowers-2], ref)
		}
	}
}
