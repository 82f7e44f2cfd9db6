// Package xtspaths hands the simdcrypt command's cpu and speed tools the xts
// package's dispatch table and a constructor pinned to one path, without
// widening xts's public API, which matches x/crypto/xts name for name.
// Importing package xts fills it in.
package xtspaths

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// Path is one row of xts's dispatch table, preferred first.
type Path struct {
	Name     string
	Requires []cpu.Feature
	// Avoid, when set, says why dispatch passes over the path on this CPU
	// although it runs ("" to take it).
	Avoid func() string
	Notes string
}

// Sector is an XTS cipher as package xts returns it.
type Sector interface {
	Encrypt(ciphertext, plaintext []byte, sectorNum uint64)
	Decrypt(plaintext, ciphertext []byte, sectorNum uint64)
	Impl() string
}

var (
	// Paths is the dispatch table.
	Paths []Path
	// NewOnPath is xts.NewCipher pinned to the named path; it fails where
	// the path cannot run (the CPU lacks a feature, or the blocks are not
	// this module's AES for an assembly path).
	NewOnPath func(path string, cipherFunc func([]byte) (cipher.Block, error), key []byte) (Sector, error)
)
