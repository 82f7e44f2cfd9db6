// Package gcmpaths hands the simdcrypt command's cpu and speed tools the gcm
// package's dispatch table and a constructor pinned to one path, without
// widening gcm's public API, which matches crypto/cipher's GCM constructors
// name for name. Importing package gcm fills it in.
package gcmpaths

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// Path is one row of gcm's dispatch table, preferred first.
type Path struct {
	Name     string
	Requires []cpu.Feature
	// Avoid, when set, says why dispatch passes over the path on this CPU
	// although it runs ("" to take it).
	Avoid func() string
	Notes string
}

var (
	// Paths is the dispatch table.
	Paths []Path
	// NewOnPath is gcm's constructor pinned to the named path, with any
	// nonce size (0 for NewWithRandomNonce's AEAD) and tag size 12..16; it
	// fails where the path cannot run (the CPU lacks a feature, or the
	// block is not one the path serves: the assembly paths take this
	// module's blocks, stdlib only AES blocks that run on crypto/aes).
	NewOnPath func(path string, b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error)
	// Impl names the path behind an AEAD that package gcm returned.
	Impl func(a cipher.AEAD) string
)
