package gcm

import (
	"crypto/cipher"
	"fmt"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// newPath builds the AEAD of one named path, whether or not dispatch would
// choose it, so that the tests reach every path the CPU can run.
func newPath(name string, b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	for _, p := range paths {
		if p.Name != name {
			continue
		}
		if !cpu.HasAll(p.Requires...) {
			return nil, fmt.Errorf("path %s needs %v", name, p.Requires)
		}
		a := p.New(b, nonceSize, tagSize)
		if a == nil {
			return nil, fmt.Errorf("path %s does not serve %T", name, b)
		}
		return a, nil
	}
	return nil, fmt.Errorf("no path %s", name)
}

// pathOf names the path behind an AEAD from this package.
func pathOf(a cipher.AEAD) string {
	switch a := a.(type) {
	case *aead:
		return a.path
	case *randomNonceAEAD:
		return a.g.path
	}
	return "stdlib"
}

// randomNonceMode is the nonce size that asks a path for NewWithRandomNonce.
const randomNonceMode = randomNonce
