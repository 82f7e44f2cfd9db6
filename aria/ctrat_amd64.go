//go:build amd64 && !purego

package aria

import (
	"encoding/binary"
	"math/bits"
)

// CTRFrom is CTR from counter *iv + blocks, modulo 2^128 (modes.CTRFrom),
// for XORKeyStreamAt. The kernels take the counter as words, so the sum
// goes to them in registers: no counter block in memory at all.
func (k *slicedKernels) CTRFrom(dst, src []byte, iv *[BlockSize]byte, blocks uint64) {
	lo, carry := bits.Add64(binary.BigEndian.Uint64(iv[8:]), blocks, 0)
	k.ctr(dst, src, binary.BigEndian.Uint64(iv[:8])+carry, lo)
}
