package impl

import (
	"crypto/cipher"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

func kernels(key []byte) (modes.Kernels, error) { return nil, nil }

func TestChoose(t *testing.T) {
	const c = "test-cipher"
	avoid := ""
	Register(&Impl{Cipher: c, Name: "portable", NewKernels: kernels})
	Register(&Impl{Cipher: c, Name: "wide", Requires: []cpu.Feature{cpu.AVX512}, NewKernels: kernels,
		Avoid: func() string { return avoid }})
	Register(&Impl{Cipher: c, Name: "wide-variant", Requires: []cpu.Feature{cpu.AVX2}, NewKernels: kernels, Variant: true})
	Register(&Impl{Cipher: c, Name: "narrow", Requires: []cpu.Feature{cpu.AVX2}, NewKernels: kernels})

	if got := len(For(c)); got != 4 {
		t.Fatalf("For returned %d implementations", got)
	}
	expect := func(want string) {
		t.Helper()
		got, why := Choose(c)
		if got.Name != want {
			t.Errorf("Choose = %s (%s), want %s", got.Name, why, want)
		}
	}
	restore, _ := cpu.SetMask("all=off")
	expect("portable")
	restore()
	if !cpu.Has(cpu.AVX2) {
		t.Skip("this CPU lacks AVX2: only the portable choice can be checked")
	}
	restore, _ = cpu.SetMask("avx512=off")
	expect("narrow")
	restore()
	if !cpu.Has(cpu.AVX512) {
		t.Skip("this CPU lacks AVX-512: the wide choice and Avoid cannot be checked")
	}
	expect("wide")
	avoid = "downclocks"
	got, why := Choose(c)
	if got.Name != "narrow" || !strings.Contains(why, "downclocks") {
		t.Errorf("with Avoid: Choose = %s (%s)", got.Name, why)
	}
}

func TestRegisterRejects(t *testing.T) {
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", what)
			}
		}()
		f()
	}
	mustPanic("no constructor", func() { Register(&Impl{Cipher: "x", Name: "a"}) })
	mustPanic("two constructors", func() {
		Register(&Impl{Cipher: "x", Name: "b", NewKernels: kernels,
			NewStream: func(key, nonce []byte) (cipher.Stream, error) { return nil, nil }})
	})
	Register(&Impl{Cipher: "x", Name: "c", NewKernels: kernels})
	mustPanic("duplicate", func() { Register(&Impl{Cipher: "x", Name: "c", NewKernels: kernels}) })
}

func TestKernelFor(t *testing.T) {
	i := &Impl{Name: "wide", Kernel: map[Op]string{CBCEncrypt: "narrow"}, NewKernels: kernels}
	if i.KernelFor(CBCEncrypt) != "narrow" || i.KernelFor(CTR) != "wide" {
		t.Error("KernelFor ignores the Kernel map")
	}
	if len(i.Ops()) != len(BlockOps) {
		t.Error("a block cipher path must offer every block operation")
	}
}
