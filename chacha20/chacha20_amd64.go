//go:build amd64 && !purego

package chacha20

// xorBlocks runs the cipher's pinned kernel over whole granules.
func (c *Cipher) xorBlocks(dst, src []byte) {
	xorBlocksGeneric(&c.state, dst, src)
}
