//go:build !amd64 || purego

package gcm

import "github.com/simdcrypt/simdcrypt/internal/modes"

// stitcherFor: no stitched kernels off amd64.
func stitcherFor(modes.Kernels, ghashKind) stitcher { return nil }

func (k *kernelsBackend) stitched(dst, src []byte, c, y [16]byte, _ bool) ([]byte, []byte, [16]byte, [16]byte) {
	return dst, src, c, y
}

func oneBlockKind(kind ghashKind) ghashKind { return kind }
