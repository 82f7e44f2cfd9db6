package modes

import (
	"encoding/binary"
	"math/bits"

	"github.com/simdcrypt/simdcrypt/internal/alias"
)

// ctr is CTR mode with a 128-bit big-endian counter that wraps modulo 2^128,
// exactly as crypto/cipher.NewCTR counts. Like crypto/aes, it refuses to
// produce more than 2^64 bytes of keystream.
type ctr struct {
	b      *Block
	next   [BlockSize]byte // counter of the next keystream block to make
	ks     [BlockSize]byte // keystream of the previous block, partly used
	ksUsed int             // bytes of ks already used; BlockSize when none is left
	total  uint64          // bytes of keystream handed out so far

	ivHi, ivLo uint64  // the first counter block's big-endian halves: XORKeyStreamAt counts from them
	from       CTRFrom // the kernels, where they take the counter by value (ctrat.go)
}

var zeroBlock [BlockSize]byte

func newCTR(b *Block, iv []byte) *ctr {
	c := &ctr{b: b, ksUsed: BlockSize}
	copy(c.next[:], iv)
	c.ivHi, c.ivLo = binary.BigEndian.Uint64(iv[:8]), binary.BigEndian.Uint64(iv[8:])
	c.from, _ = b.k.(CTRFrom)
	return c
}

func (c *ctr) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		c.b.misuse("output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		c.b.misuse("invalid buffer overlap")
	}
	total, carry := bits.Add64(c.total, uint64(len(src)), 0)
	if carry != 0 {
		c.b.misuse("counter overflow: more than 2^64 bytes of keystream from one IV")
	}
	c.total = total

	if c.ksUsed == BlockSize && len(src)%BlockSize == 0 && len(src) > 0 {
		// Fast path for whole blocks with no keystream left over and no
		// wrap of the counter's low half: straight to the kernel. It saves
		// a third of a 16-byte call (measured on the AES paths).
		lo := binary.BigEndian.Uint64(c.next[8:])
		if lo+uint64(len(src)/BlockSize) > lo {
			c.b.k.CTR(dst, src, &c.next)
			return
		}
	}
	if c.ksUsed < BlockSize {
		n := xorBytes(dst, src, c.ks[c.ksUsed:])
		c.ksUsed += n
		dst, src = dst[n:], src[n:]
	}
	if whole := len(src) &^ (BlockSize - 1); whole > 0 {
		c.blocks(dst[:whole], src[:whole])
		dst, src = dst[whole:], src[whole:]
	}
	if len(src) > 0 {
		c.blocks(c.ks[:], zeroBlock[:])
		c.ksUsed = xorBytes(dst, src, c.ks[:])
	}
}

// blocks runs the kernel over whole blocks from the stream's counter.
func (c *ctr) blocks(dst, src []byte) { ctrBlocks(c.b.k, dst, src, &c.next) }

// xorBytes sets dst[i] = src[i] ^ ks[i] for the shortest of the three and
// returns how many bytes it did.
func xorBytes(dst, src, ks []byte) int {
	n := min(len(dst), len(src), len(ks))
	for i := range n {
		dst[i] = src[i] ^ ks[i]
	}
	return n
}
