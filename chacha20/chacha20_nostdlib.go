//go:build !((arm64 || ppc64 || ppc64le || s390x || loong64) && gc && !purego)

package chacha20

import "github.com/simdcrypt/simdcrypt/internal/catalog"

// haveStdlib is false: x/crypto has no assembly for this build (or, on
// amd64, simdcrypt's own kernels serve), so there is no "stdlib" path.
const haveStdlib = false

func stdlibPaths() []catalog.Entry[path] { return nil }

func xorBlocksStdlib(state *[16]uint32, dst, src []byte) {
	panic("chacha20: no stdlib path in this build")
}
