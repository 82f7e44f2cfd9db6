//go:build amd64 && !purego

package aria

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestDispatchByUarch checks that ARIA, like every cipher, passes over its
// 512-bit path where the CPU prefers 256-bit vectors.
func TestDispatchByUarch(t *testing.T) {
	testkit.CheckPrefer256(t, cipherName, "gfni-avx512", "gfni-avx2")
}

// TestDispatchMasks checks the order in which dispatch prefers the paths
// (gfni-avx512, gfni-avx2, vaes-avx2, aesni-avx2, aesni-avx, generic) under
// SIMDCRYPT_CPU-style masks that remove them one by one, each mask naming
// the path it should leave; the expected path follows from the features
// this CPU has (and its 256-bit preference), so the test assumes no
// particular host. Each chosen path must still give RFC 5794's first
// answer.
func TestDispatchMasks(t *testing.T) {
	paths := []struct {
		name string
		need []cpu.Feature
	}{
		{"gfni-avx512", []cpu.Feature{cpu.GFNI, cpu.AVX512}},
		{"gfni-avx2", []cpu.Feature{cpu.GFNI, cpu.AVX2}},
		{"vaes-avx2", []cpu.Feature{cpu.VAES, cpu.AVX2}},
		{"aesni-avx2", []cpu.Feature{cpu.AESNI, cpu.AVX2}},
		{"aesni-avx", []cpu.Feature{cpu.AESNI, cpu.AVX}},
		{"generic", nil},
	}
	v := coreVectors[0]
	for _, mask := range []string{"", "avx512=off", "gfni=off", "gfni=off,vaes=off", "gfni=off,avx2=off", "all=off"} {
		restore := testkit.Mask(t, mask)
		want := ""
		for _, p := range paths {
			if p.name == "gfni-avx512" && cpu.Has(cpu.Prefer256) {
				continue
			}
			if cpu.HasAll(p.need...) {
				want = p.name
				break
			}
		}
		b, err := NewCipher(v.Key)
		if err != nil {
			restore()
			t.Fatal(err)
		}
		got := b.(interface{ Impl() string }).Impl()
		out := make([]byte, BlockSize)
		b.Encrypt(out, v.Plaintext)
		restore()
		if got != want {
			t.Errorf("mask %q: dispatch chose %s, want %s", mask, got, want)
		}
		if string(out) != string(v.Ciphertext) {
			t.Errorf("mask %q: %s: RFC 5794 A.1 gives %x", mask, got, out)
		}
		t.Logf("mask %q: %s", mask, got)
	}
}
