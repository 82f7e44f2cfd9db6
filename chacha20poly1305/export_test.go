package chacha20poly1305

import "crypto/cipher"

// pathNames lists every path this build has, best first.
func pathNames() []string {
	var ns []string
	for _, p := range paths {
		ns = append(ns, p.Name)
	}
	return ns
}

// newOn returns the AEAD (x: XChaCha20-Poly1305) pinned to the named path:
// the test hook that forces a path whatever dispatch would choose.
func newOn(name string, key []byte, x bool) (cipher.AEAD, error) {
	for _, p := range paths {
		if p.Name == name {
			if x {
				return p.NewX(key)
			}
			return p.New(key)
		}
	}
	panic("no path " + name)
}

func pathByName(name string) *path {
	for _, p := range paths {
		if p.Name == name {
			return p
		}
	}
	return nil
}
