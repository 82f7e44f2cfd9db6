//go:build !amd64 || purego

package chacha20

import "github.com/simdcrypt/simdcrypt/internal/catalog"

// asmPaths has no simdcrypt assembly here: only x/crypto's, where this
// build has it (stdlibPaths), then the portable path.
func asmPaths() []catalog.Entry[path] { return stdlibPaths() }

// xorBlocks runs the pinned path: x/crypto's assembly where this build has
// it, else the portable kernel.
func (c *Cipher) xorBlocks(dst, src []byte) {
	if haveStdlib && c.path == pathStdlib {
		xorBlocksStdlib(&c.state, dst, src)
		return
	}
	xorBlocksGeneric(&c.state, dst, src)
}
