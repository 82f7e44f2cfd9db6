//go:build !amd64 || purego

package chacha20

import "github.com/simdcrypt/simdcrypt/internal/catalog"

// asmPaths is empty: without amd64 assembly only the portable path runs.
func asmPaths() []catalog.Entry[path] { return nil }

// xorBlocks runs the portable kernel: no other path exists on this build.
func (c *Cipher) xorBlocks(dst, src []byte) {
	xorBlocksGeneric(&c.state, dst, src)
}
