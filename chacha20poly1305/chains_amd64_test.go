//go:build amd64 && !purego

package chacha20poly1305

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestMulAdd130 checks the arithmetic that combines sealOne*'s two
// Poly1305 chains (h·r^J + B) against math/big: values at and around
// 2^130-5, limbs of all ones (carries across every word), the largest
// partially reduced inputs (third word 4), and random ones.
func TestMulAdd130(t *testing.T) {
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))
	toBig := func(v [3]uint64) *big.Int {
		x := new(big.Int).SetUint64(v[2])
		x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(v[1]))
		return x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(v[0]))
	}
	const ones = ^uint64(0)
	edges := [][3]uint64{
		{0, 0, 0}, {1, 0, 0}, {ones, 0, 0}, {0, 1, 0}, {ones, ones, 0},
		{ones - 5, ones, 3}, {ones - 4, ones, 3}, {ones - 3, ones, 3}, {ones, ones, 3}, // p-1, p, p+1, 2^130-1
		{0, 0, 4}, {4, 0, 4}, {ones, ones, 4}, {0x0ffffffc0fffffff, 0x0ffffffc0ffffffc, 0},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	vals := append([][3]uint64{}, edges...)
	for range 200 {
		vals = append(vals, [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64N(5)})
	}
	check := func(h, q, b [3]uint64) {
		t.Helper()
		got := h
		mulAdd130(&got, &q, &b)
		want := new(big.Int).Mul(toBig(h), toBig(q))
		want.Add(want, toBig(b)).Mod(want, p)
		if got[2] > 4 || new(big.Int).Mod(toBig(got), p).Cmp(want) != 0 {
			t.Fatalf("h=%x p=%x b=%x: got %x, want %x mod p with third word at most 4", h, q, b, got, want)
		}
	}
	for _, h := range edges {
		for _, q := range edges {
			for _, b := range edges {
				check(h, q, b)
			}
		}
	}
	for i := 0; i+2 < len(vals); i++ {
		check(vals[i], vals[i+1], vals[i+2])
	}
}

// TestFusedKernels runs every version of the fused kernels (sealShort
// and openShort, with VPROLD where AVX-512 may run, each with and without
// the lead in general registers), whichever dispatch takes, against
// x/crypto at every message length up to fusedMax and every additional
// data length up to fusedAD, under several keys, for both nonce sizes,
// and rejects a flipped bit of the sealed message.
func TestFusedKernels(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		for k := fusedAVX2; k <= fusedLeadVL; k++ {
			if (k == fusedVL || k == fusedLeadVL) && !cpu.Has(cpu.AVX512) {
				continue
			}
			for _, x := range []bool{false, true} {
				rng := rand.New(rand.NewPCG(19, uint64(len(name))))
				store := testkit.RandBytes(rng, fusedMax+fusedAD+64)
				for range 3 {
					ours, ref := pair(t, name, testkit.RandBytes(rng, KeySize), x)
					a := ours.(*aead)
					if a.fused == fusedNone {
						t.Skipf("%s takes no fused kernel here", name)
					}
					a.fused = k
					for n := 0; n <= fusedMax; n++ {
						for adLen := 0; adLen <= fusedAD; adLen++ {
							off := (n + adLen) % 64
							nonce := testkit.RandBytes(rng, ours.NonceSize())
							plain, ad := store[off:off+n], store[fusedMax+64:][:adLen]
							checkOne(t, ours, ref, nonce, plain, ad, off)
							sealed := ours.Seal(nil, nonce, plain, ad)
							bit := rng.IntN(8 * len(sealed))
							sealed[bit/8] ^= 1 << (bit % 8)
							if _, err := ours.Open(nil, nonce, sealed, ad); err == nil {
								t.Fatalf("kernels %d len %d ad %d: bit %d flipped, Open accepted", k, n, adLen, bit)
							}
						}
					}
				}
			}
		}
	})
}
