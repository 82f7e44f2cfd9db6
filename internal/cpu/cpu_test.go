package cpu

import (
	"runtime"
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
	if _, err := SetMask("avx3=off"); err == nil {
		t.Fatal("SetMask accepted an unknown feature")
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
			if Detected(f) {
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
