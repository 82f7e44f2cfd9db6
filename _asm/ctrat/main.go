// Command ctrat generates internal/modes/ctrat_amd64.s: the counter
// arithmetic of XORKeyStreamAt.
//
// The CTR kernels load the counter block with one 16-byte load. Computed in
// Go, iv + blocks would reach memory as two 8-byte stores, which the load
// cannot be forwarded from: it waits for both stores to reach the cache,
// which on Zen 5 costs a 64-byte AES call about as much as its rounds. Here
// the sum is formed in registers and written with one 16-byte store.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

func genAddCounter() {
	TEXT("AddCounter", NOSPLIT, "func(dst, iv *[16]byte, blocks uint64)")
	Pragma("noescape")
	Doc("AddCounter sets *dst to the 128-bit big-endian *iv plus blocks, modulo 2^128, with one 16-byte store.")
	dst, iv, blocks, hi, lo := RDI, RSI, RCX, RAX, RBX
	vec.LoadArgs(dst, iv, blocks)
	MOVQ(Mem{Base: iv}, hi)
	MOVQ(Mem{Base: iv, Disp: 8}, lo)
	BSWAPQ(hi)
	BSWAPQ(lo)
	vec.AddCounter128(hi, lo, blocks, Mem{Base: dst})
	RET()
}

func main() {
	ConstraintExpr("amd64,!purego")
	genAddCounter()
	Generate()
}
