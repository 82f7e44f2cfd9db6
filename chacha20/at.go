package chacha20

// streamEnd is the length of one key and nonce's keystream: 2^32 blocks.
const streamEnd = blockSize << 32

// XORKeyStreamAt XORs src with the keystream that starts offset bytes into
// the stream and writes the result to dst. Offset 0 is the first byte of
// block 0, where a new Cipher starts: SetCounter and XORKeyStream move
// neither it nor are moved by it. It reads only the key and nonce, so it may
// run on any number of goroutines at once, and next to XORKeyStream; ranges
// that overlap in dst are the caller's race. Offsets need not be multiples
// of the block size. It panics where dst is shorter than src, where dst and
// src overlap inexactly, and where the range would pass block 2^32-1.
func (c *Cipher) XORKeyStreamAt(dst, src []byte, offset uint64) {
	if len(src) == 0 {
		return
	}
	checkBuffers(dst, src)
	dst = dst[:len(src)]
	if offset > streamEnd || uint64(len(src)) > streamEnd-offset {
		panic("chacha20: counter overflow")
	}

	// A private cipher on the stack, pinned to c's path, with the counter at
	// offset's block. Word 12 of c.state is not read: XORKeyStream may be
	// writing it.
	var k Cipher
	k.path = c.path
	copy(k.state[:12], c.state[:12])
	copy(k.state[13:], c.state[13:])
	k.state[12] = uint32(offset / blockSize)

	if skip := int(offset % blockSize); skip != 0 {
		// The head: the rest of offset's block, worked in buf.
		n := copy(k.buf[skip:blockSize], src)
		k.xorBlocks(k.buf[:blockSize], k.buf[:blockSize])
		copy(dst, k.buf[skip:skip+n])
		dst, src = dst[n:], src[n:]
	}

	// As XORKeyStream: whole blocks straight through the kernel, and with a
	// partial block at the end, the last few blocks and it in one call
	// through buf.
	k.xorFrom(dst, src)
}
