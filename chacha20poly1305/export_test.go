package chacha20poly1305

import "crypto/cipher"

// newOn returns the AEAD (x: XChaCha20-Poly1305) pinned to the named path:
// the test hook that forces a path whatever dispatch would choose. It
// fails where the path cannot run here.
func newOn(name string, key []byte, x bool) (cipher.AEAD, error) { return newOnPath(name, key, x) }
