// Package impl is the one registry of cipher implementations. Each cipher
// package registers its code paths here at init; key setup dispatches
// through Choose, and the tests, fuzzers, `simdcrypt cpu` and `simdcrypt
// speed` all walk the same list, so no path can be left out of any of them.
//
// Importing internal/impl/all registers every cipher.
package impl

import (
	"crypto/cipher"
	"fmt"
	"slices"
	"sync"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// Impl is one implementation (code path) of one cipher.
type Impl struct {
	Cipher   string        // family: "aes", "aria", "chacha20"
	Name     string        // "generic", "aesni", "vaes512", "avx2", ...
	Requires []cpu.Feature // all must be usable (detected, not masked)

	// Exactly one constructor is set, by the kind of cipher.
	// NewKernels serves 128-bit block ciphers (through internal/modes).
	NewKernels func(key []byte) (modes.Kernels, error)
	// NewStream serves stream ciphers; nonce sizes are the cipher's own.
	NewStream func(key, nonce []byte) (cipher.Stream, error)

	// Variant marks a path that exists for comparison only (for example a
	// kernel without software prefetch): tests and speed run it, dispatch
	// never picks it.
	Variant bool

	// Avoid, when set, returns why dispatch should pass over this path on
	// the running CPU although it works there ("" to accept it): the
	// per-microarchitecture preference table.
	Avoid func() string

	// Kernel names, per operation, a path whose kernel this one borrows, for
	// `simdcrypt cpu` (for example CBC encryption, a serial chain, runs the
	// 128-bit kernel on every path). Operations not listed run this path's own.
	Kernel map[Op]string

	// Notes is free text for `simdcrypt cpu` (what the path is for).
	Notes string
}

// Op is one operation of a cipher.
type Op string

const (
	ECBEncrypt Op = "ecb-encrypt"
	ECBDecrypt Op = "ecb-decrypt"
	CBCEncrypt Op = "cbc-encrypt"
	CBCDecrypt Op = "cbc-decrypt"
	CTR        Op = "ctr"
	Stream     Op = "stream"
)

// BlockOps are the operations of every 128-bit block cipher.
var BlockOps = []Op{ECBEncrypt, ECBDecrypt, CBCEncrypt, CBCDecrypt, CTR}

// Ops returns the operations the implementation offers.
func (i *Impl) Ops() []Op {
	if i.NewKernels != nil {
		return BlockOps
	}
	return []Op{Stream}
}

// KernelFor returns the name of the path whose kernel runs op.
func (i *Impl) KernelFor(op Op) string {
	if k, ok := i.Kernel[op]; ok {
		return k
	}
	return i.Name
}

// NewBlock returns a cipher.Block that runs this path under key, with the
// block-mode hooks of internal/modes. It serves 128-bit block ciphers only.
func (i *Impl) NewBlock(key []byte) (cipher.Block, error) {
	k, err := i.NewKernels(key)
	if err != nil {
		return nil, err
	}
	return modes.NewBlock(k, i.Cipher, i.Name), nil
}

// Available reports whether the CPU can run the path under the current mask.
func (i *Impl) Available() bool { return cpu.HasAll(i.Requires...) }

// Missing returns the required features that are absent or masked.
func (i *Impl) Missing() []cpu.Feature {
	var m []cpu.Feature
	for _, f := range i.Requires {
		if !cpu.Has(f) {
			m = append(m, f)
		}
	}
	return m
}

var (
	mu       sync.RWMutex
	registry = map[string][]*Impl{}
	order    []string
)

// Register adds an implementation. Cipher packages call it from init, best
// path first: that order is dispatch preference. The portable path must
// have no requirements so that some path always runs.
func Register(i *Impl) {
	if (i.NewKernels == nil) == (i.NewStream == nil) {
		panic("impl: " + i.Cipher + "/" + i.Name + " must set exactly one constructor")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := lookup(i.Cipher, i.Name); dup {
		panic("impl: duplicate registration of " + i.Cipher + "/" + i.Name)
	}
	if _, seen := registry[i.Cipher]; !seen {
		order = append(order, i.Cipher)
	}
	// Kept in preference order (see For) here, once, rather than sorted on
	// every Choose: key setup calls Choose each time.
	all := append(registry[i.Cipher], i)
	slices.SortStableFunc(all, func(a, b *Impl) int {
		return boolInt(len(a.Requires) == 0) - boolInt(len(b.Requires) == 0)
	})
	registry[i.Cipher] = all
}

// Ciphers returns the registered cipher families in registration order.
func Ciphers() []string {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(order)
}

// For returns every implementation of cipher in preference order:
// accelerated paths in registration order, then the portable ones, so that
// the order in which a package's files register does not matter for them.
func For(cipherName string) []*Impl {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(registry[cipherName])
}

// Lookup finds an implementation by cipher and name.
func Lookup(cipherName, name string) (*Impl, bool) {
	mu.RLock()
	defer mu.RUnlock()
	return lookup(cipherName, name)
}

func lookup(cipherName, name string) (*Impl, bool) {
	for _, i := range registry[cipherName] {
		if i.Name == name {
			return i, true
		}
	}
	return nil, false
}

// Choose returns the implementation dispatch picks for cipher on this CPU
// under the current mask, and a sentence saying why.
func Choose(cipherName string) (*Impl, string) {
	var avoided []string
	var fallback *Impl
	mu.RLock()
	defer mu.RUnlock()
	for _, i := range registry[cipherName] {
		if i.Variant || !i.Available() {
			continue
		}
		if i.Avoid != nil {
			if why := i.Avoid(); why != "" {
				avoided = append(avoided, i.Name+": "+why)
				if fallback == nil {
					fallback = i
				}
				continue
			}
		}
		reason := "widest path this CPU offers"
		if len(avoided) > 0 {
			reason = fmt.Sprintf("passed over %v", avoided)
		}
		if len(i.Requires) == 0 {
			reason = "portable Go: no faster path is usable"
			if len(avoided) > 0 {
				reason += fmt.Sprintf(" (passed over %v)", avoided)
			}
		}
		return i, reason
	}
	if fallback != nil {
		return fallback, "only usable path, although " + avoided[0]
	}
	panic("impl: no usable implementation of " + cipherName)
}

// MustLookup is Lookup for tests and tools that name a path they know exists.
func MustLookup(cipherName, name string) *Impl {
	i, ok := Lookup(cipherName, name)
	if !ok {
		panic(fmt.Sprintf("impl: no implementation %s/%s", cipherName, name))
	}
	return i
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
