// Package catalog is the read-only list of every code path of every cipher
// in this module, and the one list of the operations they offer. Each cipher
// package builds its paths here once, at package initialisation, through
// NewTable; the tests, fuzzers, `simdcrypt cpu` and `simdcrypt speed` read
// them back with Ciphers, For and Lookup. It is data: key setup never reads
// it. A cipher's key setup asks only its own Table, which holds the choice
// made by the pure function Choose and makes it again only when the CPU
// mask changes (cpu.Generation).
//
// Only code inside this module can import the package, so the catalogue is
// exported to the module's tests and tool and to no user. Users read a
// cipher's choice through the public package dispatch.
//
// # Adding a package (gcm, chacha20poly1305, xts, ...)
//
//  1. New operations go into the Op constants and one group below (AEADOps
//     and XTSOps are there already), nowhere else. A new kind of
//     constructor is one more field beside NewAEAD and one line in add
//     (NewAEADOver for GCM over the caller's block, NewXTS for XTS,
//     NewAuthenticator for Poly1305).
//  2. Write one constructor per path (for an AEAD: func(key []byte)
//     (cipher.AEAD, error)); a path that hands the work to the standard
//     library sets Stdlib.
//  3. List the paths best first, the portable one last, each a Path with
//     Name, Requires, Wide if it runs 512-bit vectors, Kernels for
//     operations that borrow another path's kernel, Notes and the
//     constructor; amd64 files add theirs through a function that returns
//     nil on other builds (see aes.asmPaths).
//  4. var paths = catalog.NewTable("gcm", entries...), the entries made by
//     AEADPath (or BlockPath, or Entry{Path, Impl} for another Impl type);
//     the exported constructor calls paths.Chosen().
//  5. Tests: TestMain calls testkit.Main(m, "gcm") and the suites range over
//     catalog.For("gcm"). `simdcrypt cpu` lists the paths by itself; `speed`
//     needs one measuring function per new group of operations.
package catalog

import (
	"crypto/cipher"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// Op is one operation of a cipher: the unit the tests, `cpu` and `speed`
// list. This is the only list of them.
type Op string

const (
	ECBEncrypt Op = "ecb-encrypt"
	ECBDecrypt Op = "ecb-decrypt"
	CBCEncrypt Op = "cbc-encrypt"
	CBCDecrypt Op = "cbc-decrypt"
	CTR        Op = "ctr"
	Stream     Op = "stream" // XORKeyStream of a stream cipher
	Seal       Op = "seal"   // AEAD encryption
	Open       Op = "open"   // AEAD decryption and verification
	XTSEncrypt Op = "xts-encrypt"
	XTSDecrypt Op = "xts-decrypt"
	MAC        Op = "mac" // a one-time authenticator's tag over a message
)

// The operation groups a kind of cipher offers.
var (
	BlockOps  = []Op{ECBEncrypt, ECBDecrypt, CBCEncrypt, CBCDecrypt, CTR}
	StreamOps = []Op{Stream}
	AEADOps   = []Op{Seal, Open}
	XTSOps    = []Op{XTSEncrypt, XTSDecrypt}
	MACOps    = []Op{MAC}
)

// Path describes one code path of one cipher.
type Path struct {
	Cipher   string        // "aes", "aria", "chacha20", ...
	Name     string        // "vaes512", "gfni-avx2", "generic", ...
	Requires []cpu.Feature // all must be usable (detected, not masked)

	// Wide marks a path that runs 512-bit vectors: dispatch passes over it
	// while cpu.Prefer256 is usable.
	Wide bool

	// VariantOf names the path this one varies for measurement only (the
	// same kernels without software prefetch, say): tests and `speed` run
	// it, dispatch never picks it.
	VariantOf string

	// Stdlib marks a path that hands the work to the standard library or
	// x/crypto.
	Stdlib bool

	// Ops are the operations the path offers (one of the groups above).
	Ops []Op

	// Kernels names, per operation, another path whose kernel this one runs
	// (CBC encryption, a serial chain, runs the 128-bit kernel on every AES
	// path). Operations not listed run this path's own.
	Kernels map[Op]string

	// Notes is free text for `simdcrypt cpu`: what the path does and when.
	Notes string

	// Exactly one constructor is set, by the kind of cipher. They build an
	// instance pinned to this path, whatever dispatch would choose.
	NewBlock  func(key []byte) (cipher.Block, error)
	NewStream func(key, nonce []byte) (cipher.Stream, error)
	NewAEAD   func(key []byte) (cipher.AEAD, error)
	// NewAEADOver is for a mode that runs over the caller's block (GCM, as
	// crypto/cipher.NewGCM): 12-byte nonces, 16-byte tags. It fails where
	// the path does not serve that block (another module's, say).
	NewAEADOver func(b cipher.Block) (cipher.AEAD, error)
	// NewXTS is for XTS, as x/crypto/xts.NewCipher: the caller's block
	// constructor and a double-length key.
	NewXTS func(cipherFunc func([]byte) (cipher.Block, error), key []byte) (Sectors, error)
	// NewAuthenticator is for a one-time MAC (Poly1305, as
	// x/crypto/poly1305.New).
	NewAuthenticator func(key *[32]byte) Authenticator
}

// Authenticator is a one-time MAC: the methods of x/crypto/poly1305.MAC
// that write a message and append its tag.
type Authenticator interface {
	Write(p []byte) (int, error)
	Sum(b []byte) []byte
}

// Sectors is an XTS cipher: the methods of x/crypto/xts.Cipher.
type Sectors interface {
	Encrypt(ciphertext, plaintext []byte, sectorNum uint64)
	Decrypt(plaintext, ciphertext []byte, sectorNum uint64)
}

// KernelFor returns the name of the path whose kernel runs op.
func (p *Path) KernelFor(op Op) string {
	if k, ok := p.Kernels[op]; ok {
		return k
	}
	return p.Name
}

// Available reports whether the CPU can run the path under the current mask.
func (p *Path) Available() bool { return cpu.HasAll(p.Requires...) }

// Missing returns the required features that are absent or masked.
func (p *Path) Missing() []cpu.Feature { return cpu.Missing(p.Requires...) }

// Cipher is one cipher's entry in the catalogue.
type Cipher struct {
	Name  string
	Paths []*Path // preference order: the order Choose walks

	// choice reports the cipher's current dispatch choice.
	choice func() (*Path, string)
}

// Chosen returns the path the cipher's key setup takes now, and why.
func (c *Cipher) Chosen() (*Path, string) { return c.choice() }

var (
	mu      sync.RWMutex
	ciphers []*Cipher
)

// add enters a cipher into the catalogue; NewTable calls it.
func add(c *Cipher) {
	names := map[string]bool{}
	for _, p := range c.Paths {
		if p.Cipher != c.Name || names[p.Name] {
			panic("catalog: path " + p.Cipher + "/" + p.Name + " misfiled or repeated in " + c.Name)
		}
		names[p.Name] = true
		kinds := 0
		for _, set := range []bool{p.NewBlock != nil, p.NewStream != nil, p.NewAEAD != nil, p.NewAEADOver != nil, p.NewXTS != nil, p.NewAuthenticator != nil} {
			if set {
				kinds++
			}
		}
		if kinds != 1 || len(p.Ops) == 0 {
			panic("catalog: " + c.Name + "/" + p.Name + " must set exactly one constructor and its operations")
		}
	}
	if last := c.Paths[len(c.Paths)-1]; len(last.Requires) != 0 {
		panic("catalog: " + c.Name + " must end with a portable path that requires nothing")
	}
	mu.Lock()
	defer mu.Unlock()
	if slices.ContainsFunc(ciphers, func(o *Cipher) bool { return o.Name == c.Name }) {
		panic("catalog: cipher " + c.Name + " entered twice")
	}
	ciphers = append(ciphers, c)
}

// Ciphers returns every cipher linked into the program, by name.
func Ciphers() []*Cipher {
	mu.RLock()
	defer mu.RUnlock()
	return slices.SortedFunc(slices.Values(ciphers), func(a, b *Cipher) int { return strings.Compare(a.Name, b.Name) })
}

// Get returns the named cipher's entry.
func Get(name string) (*Cipher, bool) {
	mu.RLock()
	defer mu.RUnlock()
	for _, c := range ciphers {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// For returns the paths of the named cipher in preference order, or nil.
func For(cipherName string) []*Path {
	if c, ok := Get(cipherName); ok {
		return slices.Clone(c.Paths)
	}
	return nil
}

// Lookup finds a path by cipher and name.
func Lookup(cipherName, name string) (*Path, bool) {
	for _, p := range For(cipherName) {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// MustLookup is Lookup for tests and tools that name a path they know exists.
func MustLookup(cipherName, name string) *Path {
	p, ok := Lookup(cipherName, name)
	if !ok {
		panic(fmt.Sprintf("catalog: no path %s/%s", cipherName, name))
	}
	return p
}
