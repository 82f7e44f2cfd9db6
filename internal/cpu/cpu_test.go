package cpu

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestParseMask(t *testing.T) {
	bits, unk := parseMask(" avx2=off, VAES=OFF,bogus=off,gfni=on,,ssse3")
	if bits != 1<<AVX2|1<<VAES {
		t.Errorf("bits = %b", bits)
	}
	if len(unk) != 3 {
		t.Errorf("unknown = %q, want three entries", unk)
	}
	bits, _ = parseMask("all=off")
	for _, f := range All() {
		if bits&(1<<f) == 0 {
			t.Errorf("all=off left %v", f)
		}
	}
}

func TestMaskImplies(t *testing.T) {
	restore, err := SetMask("avx=off")
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	for _, f := range []Feature{AVX, AVX2, AVX512, VAES, GFNI, VPCLMULQDQ} {
		if Has(f) {
			t.Errorf("avx=off left %v usable", f)
		}
		if !Masked(f) {
			t.Errorf("Masked(%v) = false under avx=off", f)
		}
	}
	if Masked(AESNI) || Masked(SSSE3) {
		t.Errorf("avx=off masked a legacy-encoded feature")
	}
}

func TestSetMaskRejectsUnknown(t *testing.T) {
	gen, before := Generation(), MaskSpec()
	_, err := SetMask("avx2=off,avx51=off")
	var me *MaskError
	if !errors.As(err, &me) || len(me.Entries) != 1 || !strings.Contains(err.Error(), `"avx51=off"`) {
		t.Fatalf("SetMask(avx51=off): err = %v, want a MaskError naming the entry", err)
	}
	if MaskSpec() != before || Generation() != gen {
		t.Error("a rejected mask changed the mask in force")
	}
}

// TestBMI2WithoutAVX: BMI2 and ADX work on general-purpose registers, so
// masking the vector state leaves them usable; IFMA goes with AVX-512.
func TestBMI2WithoutAVX(t *testing.T) {
	restore, err := SetMask("avx=off")
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	if Masked(BMI2) || Masked(ADX) {
		t.Error("avx=off masked BMI2 or ADX")
	}
	if Has(BMI2) != Detected(BMI2) || Has(ADX) != Detected(ADX) {
		t.Error("avx=off changed whether BMI2 or ADX is usable")
	}
	if !Masked(AVX512IFMA) {
		t.Error("avx=off left AVX512IFMA unmasked")
	}
}

func TestGenerationMoves(t *testing.T) {
	g0 := Generation()
	restore, _ := SetMask("gfni=off")
	g1 := Generation()
	restore()
	g2 := Generation()
	undo := PretendUarch("GenuineIntel", "Ice Lake-SP")
	g3 := Generation()
	undo()
	if !(g0 < g1 && g1 < g2 && g2 < g3 && g3 < Generation()) {
		t.Errorf("generations %d %d %d %d %d do not increase", g0, g1, g2, g3, Generation())
	}
}

// TestPrefer256 checks the property against the table and that the mask
// takes it away like a feature.
func TestPrefer256(t *testing.T) {
	unmask, _ := SetMask("") // whatever SIMDCRYPT_CPU says
	defer unmask()
	for _, c := range []struct {
		vendor, uarch string
		want          bool
	}{
		{"GenuineIntel", "Ice Lake-SP", true},
		{"GenuineIntel", "Skylake-SP", true},
		{"GenuineIntel", "Sapphire Rapids", false},
		{"AuthenticAMD", "Zen 4", false},
		{"AuthenticAMD", "Zen 5", false},
	} {
		restore := PretendUarch(c.vendor, c.uarch)
		got, why := Has(Prefer256), Prefer256Reason()
		if c.want {
			masked, _ := SetMask("prefer256=off")
			if Has(Prefer256) {
				t.Errorf("%s: prefer256=off left the property set", c.uarch)
			}
			masked()
		}
		restore()
		if got != c.want || (why != "") != c.want || c.want && !strings.Contains(why, c.uarch) {
			t.Errorf("%s: Has(Prefer256) = %v (%q), want %v", c.uarch, got, why, c.want)
		}
	}
}

func TestRestore(t *testing.T) {
	before := MaskSpec()
	restore, err := SetMask("all=off")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range All() {
		if Has(f) {
			t.Errorf("all=off left %v usable", f)
		}
	}
	restore()
	if got := MaskSpec(); got != before {
		t.Errorf("after restore mask = %q, want %q", got, before)
	}
}

func TestDetectionConsistent(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		for _, f := range All() {
			if Detected(f) && f != Stdlib { // Stdlib is set everywhere
				t.Errorf("%v detected on %s", f, runtime.GOARCH)
			}
		}
		return
	}
	// Whatever the CPU, the implications CPUID promises must hold.
	if Detected(AVX512) && !Detected(AVX2) {
		t.Error("AVX-512 without AVX2")
	}
	if Detected(AVX2) && !Detected(AVX) {
		t.Error("AVX2 without AVX")
	}
	if Detected(AVX512IFMA) && !Detected(AVX512) {
		t.Log("AVX512IFMA without the AVX-512 group: IFMA stays unusable")
	}
	t.Logf("%+v", CPU())
}

func TestUarch(t *testing.T) {
	for _, c := range []struct {
		vendor        string
		family, model int
		want          string
	}{
		{"GenuineIntel", 6, 0xcf, "Emerald Rapids"},
		{"GenuineIntel", 6, 0x55, "Skylake-SP"},
		{"AuthenticAMD", 0x19, 0x61, "Zen 4"},
		{"AuthenticAMD", 0x19, 0x21, "Zen 3"},
		{"AuthenticAMD", 0x1a, 0x44, "Zen 5"},
		{"GenuineIntel", 15, 1, ""},
	} {
		if got := uarchName(c.vendor, c.family, c.model); got != c.want {
			t.Errorf("uarchName(%s, %#x, %#x) = %q, want %q", c.vendor, c.family, c.model, got, c.want)
		}
	}
}
