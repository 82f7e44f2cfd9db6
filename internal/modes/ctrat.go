package modes

import (
	"encoding/binary"
	"math/bits"
	"sync"

	"github.com/simdcrypt/simdcrypt/internal/alias"
)

// XORKeyStreamAt XORs src with the keystream that starts offset bytes into
// the stream (offset 0 is the first byte of the IV's block) and writes the
// result to dst. It neither reads nor moves the position XORKeyStream keeps,
// so it may run on any number of goroutines at once, and next to
// XORKeyStream; ranges that overlap in dst are the caller's race. Offsets
// need not be block-aligned. Like XORKeyStream it panics where dst is
// shorter than src, where dst and src overlap inexactly, and where the range
// runs past the 2^64-1 bytes of keystream one IV gives.
func (c *ctr) XORKeyStreamAt(dst, src []byte, offset uint64) {
	if len(dst) < len(src) {
		c.b.misuse("output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		c.b.misuse("invalid buffer overlap")
	}
	if _, carry := bits.Add64(offset, uint64(len(src)), 0); carry != 0 {
		c.b.misuse("counter overflow: more than 2^64 bytes of keystream from one IV")
	}
	if len(src) == 0 {
		return
	}

	// Whole blocks with no wrap of the counter's low half go straight to
	// the kernel, as in XORKeyStream's fast path, with the counter iv +
	// offset/16 as two words in registers.
	lo, carry := bits.Add64(c.ivLo, offset/BlockSize, 0)
	direct := offset%BlockSize == 0 && len(src)%BlockSize == 0 && lo+uint64(len(src)/BlockSize) > lo
	if direct && c.from != nil {
		c.from.CTRFrom(dst, src, c.ivHi+carry, lo)
		return
	}
	c.xorAtBuffered(dst, src, offset, c.ivHi+carry, lo, direct)
}

// xorAtBuffered is XORKeyStreamAt's path through a counter block of its
// own: offsets or lengths that are not whole blocks, kernels without
// CTRFrom, and a wrap of the counter's low half. A function of its own, so
// that the fast path above carries none of its frame (the deferred pool
// return spilled every register before the first test). hi and lo are the
// halves of the counter of the block holding offset: iv + offset/16, modulo
// 2^128 as XORKeyStream counts.
func (c *ctr) xorAtBuffered(dst, src []byte, offset, hi, lo uint64, direct bool) {
	w := atPool.Get().(*atWork)
	defer atPool.Put(w)
	binary.BigEndian.PutUint64(w.ctr[:8], hi)
	binary.BigEndian.PutUint64(w.ctr[8:], lo)
	if direct {
		c.b.k.CTR(dst, src, &w.ctr)
		return
	}
	if skip := int(offset % BlockSize); skip != 0 {
		ctrBlocks(c.b.k, w.ks[:], zeroBlock[:], &w.ctr)
		n := xorBytes(dst, src, w.ks[skip:])
		dst, src = dst[n:], src[n:]
	}
	if whole := len(src) &^ (BlockSize - 1); whole > 0 {
		ctrBlocks(c.b.k, dst[:whole], src[:whole], &w.ctr)
		dst, src = dst[whole:], src[whole:]
	}
	if len(src) > 0 {
		ctrBlocks(c.b.k, w.ks[:], zeroBlock[:], &w.ctr)
		xorBytes(dst, src, w.ks[:])
	}
}

// ctrBlocks runs k's CTR kernel over whole blocks from counter *ctr,
// splitting the work where the low 64 bits of the counter wrap (the kernels
// count in 64-bit lanes) and carrying into the high half there.
func ctrBlocks(k Kernels, dst, src []byte, ctr *[BlockSize]byte) {
	for len(src) > 0 {
		n := len(src)
		lo := binary.BigEndian.Uint64(ctr[8:])
		if left := -lo; lo != 0 && uint64(n/BlockSize) > left {
			n = int(left) * BlockSize
		}
		k.CTR(dst[:n], src[:n], ctr)
		if binary.BigEndian.Uint64(ctr[8:]) == 0 {
			hi := binary.BigEndian.Uint64(ctr[:8])
			binary.BigEndian.PutUint64(ctr[:8], hi+1)
		}
		dst, src = dst[n:], src[n:]
	}
}

// CTRFrom is implemented by kernels that can form the counter block
// themselves: CTR as in Kernels from the counter whose big-endian halves
// are hi and lo (as numbers). XORKeyStreamAt uses it for whole blocks,
// which then need no counter block in memory (one passed to kernels
// reached through an interface would move to the heap). The counter comes
// as words, not as iv and a block count to add, because it heads the
// chain of AES rounds: loading iv through a pointer and adding there cost
// the 64-byte call about 4 cycles of latency (0.86x the serial stream on
// vaes512).
type CTRFrom interface {
	CTRFrom(dst, src []byte, hi, lo uint64)
}

// atWork is XORKeyStreamAt's counter block and keystream block. It cannot
// live on XORKeyStreamAt's stack: the kernels are reached through an
// interface, so escape analysis moves anything passed to them to the heap,
// and an allocation per call would cost a short call half its speed. A
// per-P pool serves concurrent callers without atomic operations; it still
// costs a 64-byte AES call about its own time, so whole blocks avoid it
// where the kernels implement CTRFrom.
type atWork struct {
	ctr [BlockSize]byte
	ks  [BlockSize]byte
}

var atPool = sync.Pool{New: func() any { return new(atWork) }}
