//go:build amd64 && !purego

package xts_test

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	"github.com/simdcrypt/simdcrypt/xts"
)

// TestDispatchByUarch: 512-bit VAES where it runs at full clock, 256-bit
// VAES where 512-bit vectors slow the core down.
func TestDispatchByUarch(t *testing.T) {
	if !cpu.HasAll(cpu.VAES, cpu.VPCLMULQDQ, cpu.AVX512, cpu.AVX512VBMI2, cpu.SSSE3) {
		t.Skip("needs VAES, VPCLMULQDQ, AVX-512 with VBMI2, and SSSE3")
	}
	for _, c := range []struct{ vendor, uarch, want string }{
		{"AuthenticAMD", "Zen 5", "vaes512"},
		{"GenuineIntel", "Sapphire Rapids", "vaes512"},
		{"GenuineIntel", "Ice Lake-SP", "vaes256"},
	} {
		restore := cpu.PretendUarch(c.vendor, c.uarch)
		x, err := xts.NewCipher(aes.NewCipher, make([]byte, 32))
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if x.Impl() != c.want {
			t.Errorf("%s: dispatch chose %s, want %s", c.uarch, x.Impl(), c.want)
		}
	}
}

// TestDispatchMasks: SIMDCRYPT_CPU-style masks move dispatch down the table.
func TestDispatchMasks(t *testing.T) {
	for _, c := range []struct{ mask, want string }{
		{"avx512=off", "vaes256"},
		{"vaes=off", "aesni"},
		{"all=off", "generic"},
	} {
		restore := testkit.Mask(t, c.mask)
		x, err := xts.NewCipher(aes.NewCipher, make([]byte, 32))
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if !cpu.HasAll(cpu.AESNI, cpu.PCLMULQDQ, cpu.AVX) && c.want == "aesni" {
			continue
		}
		if x.Impl() != c.want && cpu.Has(cpu.VAES) {
			t.Errorf("mask %s: dispatch chose %s, want %s", c.mask, x.Impl(), c.want)
		}
	}
}
