package testkit

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// suite is the battery RunBlockCipher and RunStreamCipher run on every
// registered path of a cipher, one subtest a method.
type suite interface {
	sizes(t *testing.T, i *catalog.Path)        // accepted and refused key (and nonce) sizes
	differential(t *testing.T, i *catalog.Path) // every length and offset against generic and the reference
	counters(t *testing.T, i *catalog.Path)     // counter wrap-arounds
	split(t *testing.T, i *catalog.Path)        // a call cut into pieces equals it whole
	misuse(t *testing.T, i *catalog.Path)       // bad arguments panic
	guardPages(t *testing.T, i *catalog.Path)   // buffers flush against unmapped pages
	concurrent(t *testing.T, i *catalog.Path)   // one key from many goroutines
	noAllocs(t *testing.T, i *catalog.Path)     // no heap on the hot path
}

// check is one named subtest of a suite.
type check struct {
	name string
	run  func(t *testing.T, i *catalog.Path)
}

// runSuite runs s's battery, then the extra checks, as subtests on every
// path of cipherName.
func runSuite(t *testing.T, cipherName string, s suite, extra ...check) {
	checks := append([]check{
		{"Sizes", s.sizes},
		{"Differential", s.differential},
		{"Counters", s.counters},
		{"Split", s.split},
		{"Misuse", s.misuse},
		{"GuardPages", s.guardPages},
		{"Concurrent", s.concurrent},
		{"NoAllocs", s.noAllocs},
	}, extra...)
	ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		for _, c := range checks {
			t.Run(c.name, func(t *testing.T) { c.run(t, i) })
		}
	})
}
