// Package dispatch is the public control over which code path simdcrypt's
// ciphers run: mask CPU features as SIMDCRYPT_CPU does, and read the path
// each cipher chose and why.
//
// It is one small package rather than a function in every cipher package
// (aes.Name and aria.Name used to be that) so that the cipher packages keep
// the shape of crypto/aes and x/crypto/chacha20, ciphers added later need
// no new API, and a program that never asks pays nothing: key setup reads
// its cipher's cached choice, not this package.
//
// Masks. SIMDCRYPT_CPU, read once at start-up, holds comma-separated
// "name=off" entries: aesni, pclmulqdq, ssse3, avx, avx2, avx512, vaes,
// vpclmulqdq, gfni, bmi2, adx, avx512ifma, avx512vbmi2, prefer256, or all.
// Masking a feature also masks those built on it (avx=off takes away avx2,
// avx512, vaes, ...). prefer256 is a property, not an instruction set: the
// per-microarchitecture table sets it where 512-bit vectors lower the clock
// (Skylake-SP, the Ice Lake generation), and every cipher then passes over
// its 512-bit paths; prefer256=off lets them run. A mistyped entry does not
// stop the program: the library ignores it and EnvError reports it (and
// `simdcrypt cpu` prints it as a warning). SetMask applies a mask at run
// time and refuses unknown entries.
//
// Ciphers choose when a key is set up (NewCipher, NewUnauthenticatedCipher,
// gcm.New, xts.NewCipher, chacha20poly1305.New), so a mask applies to
// ciphers created after it.
package dispatch

import (
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// SetMask replaces the feature mask with spec (SIMDCRYPT_CPU syntax; ""
// masks nothing) and returns a function that restores the previous mask.
// An unknown entry makes it return an error naming it and change nothing.
// The mask is process-wide: meant for tests, benchmarks and start-up code.
func SetMask(spec string) (restore func(), err error) { return cpu.SetMask(spec) }

// Mask returns the mask in force, in SIMDCRYPT_CPU syntax.
func Mask() string { return cpu.MaskSpec() }

// EnvError returns an error naming the entries of SIMDCRYPT_CPU that were
// ignored at start-up because they are not "name=off" for a known name, or
// nil.
func EnvError() error { return cpu.EnvError() }

// Chosen returns the code path the named cipher ("aes", "aria",
// "chacha20", "gcm", "xts", "chacha20poly1305", "xchacha20poly1305") runs
// for keys (or, for gcm and xts, blocks of this module) set up now under
// the current mask, and a
// sentence saying why. ok is false if no such cipher is linked into the
// program: import the cipher's package first.
func Chosen(cipherName string) (path, why string, ok bool) {
	c, found := catalog.Get(cipherName)
	if !found {
		return "", "", false
	}
	p, why := c.Chosen()
	return p.Name, why, true
}

// Paths returns the names of the named cipher's code paths, best first, or
// nil if no such cipher is linked into the program.
func Paths(cipherName string) []string {
	var names []string
	for _, p := range catalog.For(cipherName) {
		names = append(names, p.Name)
	}
	return names
}
