package vec

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// AddCounter128 adds the 64-bit addend to the 128-bit value hi:lo (native
// byte order: a big-endian counter block's halves after BSWAPQ), modulo
// 2^128, and writes the sum as a big-endian counter block to dst with one
// 16-byte store, from which a CTR kernel's 16-byte load of it can be
// forwarded. It clobbers hi, lo, X0 and X1.
func AddCounter128(hi, lo, addend GPPhysical, dst Mem) {
	ADDQ(addend, lo)
	ADCQ(U8(0), hi)
	BSWAPQ(hi)
	BSWAPQ(lo)
	MOVQ(hi, X0)
	MOVQ(lo, X1)
	PUNPCKLQDQ(X1, X0)
	MOVOU(X0, dst)
}
