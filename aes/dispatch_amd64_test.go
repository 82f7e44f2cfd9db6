//go:build amd64 && !purego

package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/impl"
)

// TestDispatchByUarch checks the per-microarchitecture choice: 512-bit VAES
// where it runs at full clock, 256-bit VAES where 512-bit registers slow
// the core down.
func TestDispatchByUarch(t *testing.T) {
	if !cpu.HasAll(cpu.VAES, cpu.AVX512) {
		t.Skip("needs VAES and AVX-512")
	}
	for _, c := range []struct{ vendor, uarch, want string }{
		{"GenuineIntel", "Sapphire Rapids", "vaes512"},
		{"AuthenticAMD", "Zen 5", "vaes512"},
		{"GenuineIntel", "Ice Lake-SP", "vaes256"},
		{"GenuineIntel", "Skylake-SP", "vaes256"},
	} {
		restore := cpu.PretendUarch(c.vendor, c.uarch)
		i, why := impl.Choose(Name)
		restore()
		if i.Name != c.want {
			t.Errorf("%s: dispatch chose %s (%s), want %s", c.uarch, i.Name, why, c.want)
		}
	}
}
