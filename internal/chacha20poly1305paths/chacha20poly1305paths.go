// Package chacha20poly1305paths hands the simdcrypt command's cpu and speed
// tools the chacha20poly1305 package's dispatch table and constructors
// pinned to one path, without widening that package's public API, which
// matches x/crypto/chacha20poly1305 name for name. Importing package
// chacha20poly1305 fills it in.
package chacha20poly1305paths

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// Path is one row of the dispatch table, preferred first. A path is named
// for its Poly1305 code; the ChaCha20 keystream takes the chacha20
// package's own dispatch under the same feature mask.
type Path struct {
	Name     string
	Requires []cpu.Feature
	Notes    string
}

var (
	// Paths is the dispatch table.
	Paths []Path
	// NewOnPath is chacha20poly1305.New, or NewX when x is set, pinned to
	// the named path; it fails where the path cannot run here.
	NewOnPath func(path string, key []byte, x bool) (cipher.AEAD, error)
)
