//go:build amd64 && !purego

package poly1305

import (
	"math/big"
	"testing"
)

// TestPowersIFMA checks the assembly's table against powers of r computed
// with math/big: each entry's limbs must be in range and represent the
// right power modulo p, and the s limbs must be 20 times theirs.
func TestPowersIFMA(t *testing.T) {
	if !IFMA.Available() {
		t.Skip("ifma not available")
	}
	keys := edgeKeys()
	for i := range 20 {
		var k [32]byte
		for j := range k {
			k[j] = byte(i*31 + j*7)
		}
		keys = append(keys, k)
	}
	for _, k := range keys {
		var st state
		st.init(&k)
		var pw powers
		powersIFMA((*[90]uint64)(&pw), &st.r)
		r := new(big.Int).Lsh(new(big.Int).SetUint64(st.r[1]), 64)
		r.Add(r, new(big.Int).SetUint64(st.r[0]))
		check := func(what string, limbs [5]uint64, exp int) {
			if limbs[0] >= 1<<45 || limbs[1] >= 1<<45 || limbs[2] >= 1<<43 ||
				limbs[3] != 20*limbs[1] || limbs[4] != 20*limbs[2] {
				t.Fatalf("key %x %s: limbs %x out of range or s wrong", k, what, limbs)
			}
			v := new(big.Int).SetUint64(limbs[2])
			v.Lsh(v, 44).Add(v, new(big.Int).SetUint64(limbs[1]))
			v.Lsh(v, 44).Add(v, new(big.Int).SetUint64(limbs[0]))
			want := new(big.Int).Exp(r, big.NewInt(int64(exp)), p1305)
			if v.Mod(v, p1305).Cmp(want) != 0 {
				t.Fatalf("key %x %s: not r^%d", k, what, exp)
			}
		}
		lane := func(base, l int) [5]uint64 {
			var x [5]uint64
			for i := range x {
				x[i] = pw[base+8*i+l]
			}
			return x
		}
		for l, blk := range ifmaOrder {
			check("lastB", lane(0, l), 8-blk)
			check("lastA", lane(45, l), 16-blk)
		}
		check("step8", [5]uint64(pw[40:45]), 8)
		check("step16", [5]uint64(pw[85:90]), 16)
	}
}
