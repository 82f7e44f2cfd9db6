//go:build !amd64 || purego

package modes

import (
	"encoding/binary"
	"math/bits"
)

// AddCounter sets *dst to the 128-bit big-endian *iv plus blocks, modulo
// 2^128.
func AddCounter(dst, iv *[BlockSize]byte, blocks uint64) {
	lo, carry := bits.Add64(binary.BigEndian.Uint64(iv[8:]), blocks, 0)
	binary.BigEndian.PutUint64(dst[:8], binary.BigEndian.Uint64(iv[:8])+carry)
	binary.BigEndian.PutUint64(dst[8:], lo)
}
