// Package poly1305 implements the Poly1305 one-time authenticator of
// RFC 8439 with the API of golang.org/x/crypto/poly1305, on the fastest
// code path this CPU offers (see internal/poly1305; SIMDCRYPT_CPU masks
// paths as everywhere in simdcrypt).
//
// Poly1305 is a one-time authenticator: a key must never authenticate two
// messages. Most users want an AEAD such as chacha20poly1305 instead.
package poly1305

import "github.com/simdcrypt/simdcrypt/internal/poly1305"

// TagSize is the size, in bytes, of a poly1305 authenticator.
const TagSize = 16

// Sum generates an authenticator for msg using a one-time key and puts the
// 16-byte result into out. Authenticating two different messages with the
// same key allows an attacker to forge messages at will.
func Sum(out *[TagSize]byte, m []byte, key *[32]byte) { poly1305.Sum(out, m, key) }

// Verify returns true if mac is a valid authenticator for m with the given
// key, comparing in constant time.
func Verify(mac *[TagSize]byte, m []byte, key *[32]byte) bool { return poly1305.Verify(mac, m, key) }

// New returns a new MAC computing an authentication tag of all data written
// to it with the given key. This allows writing the message progressively
// instead of passing it as a single slice. Common users should use the Sum
// function instead.
//
// The key must be unique for each message, as authenticating two different
// messages with the same key allows an attacker to forge messages at will.
func New(key *[32]byte) *MAC { return &MAC{m: *poly1305.New(key)} }

// MAC is an io.Writer computing an authentication tag of the data written
// to it. MAC cannot be used like common hash.Hash implementations, because
// using a poly1305 key twice breaks its security. Therefore writing data to
// a running MAC after calling Sum or Verify causes it to panic.
type MAC struct{ m poly1305.MAC }

// Size returns the number of bytes Sum will return.
func (h *MAC) Size() int { return TagSize }

// Write adds more data to the running message authentication code. It
// never returns an error. It must not be called after the first call of
// Sum or Verify.
func (h *MAC) Write(p []byte) (n int, err error) { return h.m.Write(p) }

// Sum computes the authenticator of all data written to the message
// authentication code.
func (h *MAC) Sum(b []byte) []byte { return h.m.Sum(b) }

// Verify returns whether the authenticator of all data written to the
// message authentication code matches the expected value.
func (h *MAC) Verify(expected []byte) bool { return h.m.Verify(expected) }
