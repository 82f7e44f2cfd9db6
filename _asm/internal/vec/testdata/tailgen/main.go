// Command tailgen emits two small kernels around vec's byte-granular tail
// helpers, which no shipped kernel uses yet, so that vec's tests can
// assemble and run them.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

func main() {
	ConstraintExpr("amd64")

	TEXT("copyTail", NOSPLIT, "func(dst, src *byte, n int)")
	Pragma("noescape")
	Doc("copyTail copies n mod 64 bytes from src to dst.")
	vec.LoadArgs(RDI, RSI, RCX)
	var l vec.Labels
	vec.CopyTail(RDI, RSI, RCX, RAX, &l)
	RET()

	TEXT("copyMasked", NOSPLIT, "func(dst, src *byte, n int)")
	Pragma("noescape")
	Doc("copyMasked copies min(n, 64) bytes from src to dst with one masked load and store.")
	vec.LoadArgs(RDI, RSI, RCX)
	vec.TailMask(RCX, RAX, K1)
	vec.LoadMasked(Mem{Base: RSI}, K1, Z0)
	vec.StoreMasked(Z0, K1, Mem{Base: RDI})
	vec.ISA{W: vec.W512, Enc: vec.EVEX}.Return()

	Generate()
}
