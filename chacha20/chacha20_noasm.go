//go:build !amd64 || purego

package chacha20

// xorBlocks runs the portable kernel: no other path exists on this build.
func (c *Cipher) xorBlocks(dst, src []byte) {
	xorBlocksGeneric(&c.state, dst, src)
}
