package vec

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Operands follow avo (Go assembler) order: sources first, destination
// last. SSE forms compute in place, so where the destination is not a
// source the methods copy first, and they panic where that would clobber a
// source (the generator has to pick another destination).

// Load moves a vector from memory or a register into a register; Store
// moves one to memory. Both are unaligned moves: SSE MOVOU, VEX VMOVDQU,
// EVEX VMOVDQU64 (or 32).
func (i ISA) Load(src, dst Op) { i.Mov(src, dst) }

// Store writes register src to memory m.
func (i ISA) Store(src, m Op) { i.Mov(src, m) }

// Mov is an unaligned vector move between any two operands.
func (i ISA) Mov(src, dst Op) { i.move(unalignedMove, src, dst) }

// Copy copies register src to register dst in the aligned forms (MOVO,
// VMOVDQA, VMOVDQA64/32): between registers they are the same operation as
// the unaligned ones, and the spelling says no memory is involved.
func (i ISA) Copy(src, dst Op) { i.move(alignedMove, src, dst) }

// moveForms spells one vector move in each encoding: SSE, VEX, and EVEX
// with 32- or 64-bit elements (whose avo forms take an optional mask).
type moveForms struct {
	sse, vex       func(src, dst Op)
	evex32, evex64 func(ops ...Op)
}

var (
	unalignedMove = moveForms{MOVOU, VMOVDQU, VMOVDQU32, VMOVDQU64}
	alignedMove   = moveForms{MOVO, VMOVDQA, VMOVDQA32, VMOVDQA64}
)

// move emits the form of f that i's encoding and the operands need (EVEX
// only where a register or element size demands it).
func (i ISA) move(f moveForms, src, dst Op) {
	switch {
	case i.Enc == SSE:
		f.sse(src, dst)
	case !i.evex(src, dst):
		f.vex(src, dst)
	case i.elem32():
		f.evex32(src, dst)
	default:
		f.evex64(src, dst)
	}
}

// Xor sets dst = a ^ b. In SSE a memory operand goes through MOVOU first
// (PXOR would demand alignment), and dst must not be b then.
func (i ISA) Xor(a, b, dst Op) {
	switch {
	case i.Enc != SSE && !i.evex(a, b, dst):
		VPXOR(a, b, dst)
	case i.Enc != SSE && i.elem32():
		VPXORD(a, b, dst)
	case i.Enc != SSE:
		VPXORQ(a, b, dst)
	case dst == b && IsReg(a):
		PXOR(a, dst)
	case dst == a && IsReg(b):
		PXOR(b, dst)
	case IsReg(a) && IsReg(b):
		MOVO(b, dst)
		PXOR(a, dst)
	default:
		if dst == b {
			panic("vec: Xor: SSE memory operand with dst == b")
		}
		MOVOU(a, dst)
		PXOR(b, dst)
	}
}

// twoOperand emits an SSE instruction op(x, dst) computing dst = x op y,
// copying y into dst first when they differ.
func twoOperand(op func(x, dst Op), x, y, dst Op) {
	if y != dst {
		if dst == x {
			panic("vec: SSE form with dst == x != y")
		}
		MOVO(y, dst)
	}
	op(x, dst)
}

// Add32 sets dst = x + y in 32-bit lanes (PADDL, VPADDD).
func (i ISA) Add32(x, y, dst Op) {
	if i.Enc == SSE {
		twoOperand(func(x, dst Op) { PADDL(x, dst) }, x, y, dst)
		return
	}
	VPADDD(x, y, dst)
}

// Add64 sets dst = x + y in 64-bit lanes (PADDQ, VPADDQ).
func (i ISA) Add64(x, y, dst Op) {
	if i.Enc == SSE {
		twoOperand(func(x, dst Op) { PADDQ(x, dst) }, x, y, dst)
		return
	}
	VPADDQ(x, y, dst)
}

// Shuffle sets dst = PSHUFB(src, mask): byte j of each 128-bit lane takes
// the byte of src the mask names (or zero where its top bit is set). In
// SSE the mask must be a register or an aligned memory operand.
func (i ISA) Shuffle(mask, src, dst Op) {
	if i.Enc != SSE {
		VPSHUFB(mask, src, dst)
		return
	}
	if src != dst {
		MOVO(src, dst)
	}
	PSHUFB(mask, dst)
}

// ShuffleDwords permutes the 32-bit words of each 128-bit lane by imm
// (PSHUFD, VPSHUFD).
func (i ISA) ShuffleDwords(imm uint8, src, dst Op) {
	if i.Enc == SSE {
		PSHUFD(U8(imm), src, dst)
		return
	}
	VPSHUFD(U8(imm), src, dst)
}

// BroadcastLane loads one 16-byte block from m into every 128-bit lane of
// dst: MOVOU or VMOVDQU at 128 bits, VBROADCASTI128 at 256, VBROADCASTI32X4
// at 512 (and for EVEX registers at 256).
func (i ISA) BroadcastLane(m, dst Op) {
	switch {
	case i.Enc == SSE:
		MOVOU(m, dst)
	case i.W == W128:
		i.Mov(m, dst)
	case i.W == W256 && !i.evex(dst):
		VBROADCASTI128(m, dst)
	default:
		VBROADCASTI32X4(m, dst)
	}
}

// BroadcastDword fills every 32-bit lane of dst with the word at m
// (SSE: MOVD and PSHUFD, otherwise VPBROADCASTD).
func (i ISA) BroadcastDword(m, dst Op) {
	if i.Enc == SSE {
		MOVD(m, dst)
		PSHUFD(U8(0), dst, dst)
		return
	}
	VPBROADCASTD(m, dst)
}

// RotateMasks are the PSHUFB controls (RotateDwordsMask) Rol32 uses for
// rotations by 8 and 16 bits where there is no VPROLD: in memory, or
// loaded into registers.
type RotateMasks struct{ By8, By16 Op }

// Rol32 rotates every 32-bit lane of each register left by bits: VPROLD
// with EVEX, one PSHUFB for whole bytes, otherwise shift, shift and OR
// through the temporary t. SSE loads the mask into t first (legacy memory
// operands must be aligned).
func (i ISA) Rol32(bits int, masks RotateMasks, t Register, regs ...Register) {
	switch {
	case i.Enc == EVEX:
		for _, r := range regs {
			VPROLD(U8(bits), r, r)
		}
	case bits%8 == 0:
		mask := masks.By16
		if bits == 8 {
			mask = masks.By8
		}
		if i.Enc == SSE {
			MOVOU(mask, t)
			for _, r := range regs {
				PSHUFB(t, r)
			}
		} else {
			for _, r := range regs {
				VPSHUFB(mask, r, r)
			}
		}
	case i.Enc == SSE:
		for _, r := range regs {
			MOVOU(r, t)
			PSLLL(U8(bits), r)
			PSRLL(U8(32-bits), t)
			POR(t, r)
		}
	default:
		for _, r := range regs {
			VPSLLD(U8(bits), r, t)
			VPSRLD(U8(32-bits), r, r)
			VPOR(t, r, r)
		}
	}
}

// Return ends a kernel: VZEROUPPER unless the code is SSE only (it avoids
// the penalty of dirty upper halves in the caller's SSE code), then RET.
func (i ISA) Return() {
	i.ZeroUpper()
	RET()
}

// ZeroUpper emits VZEROUPPER unless the code is SSE only.
func (i ISA) ZeroUpper() {
	if i.Enc != SSE {
		VZEROUPPER()
	}
}

// TransposeDwords4 transposes the dwords of a, b, c, d within each 128-bit
// lane (VEX or EVEX forms): afterwards res[k], lane L, holds dword k of a,
// b, c and d's lane L. It takes two free registers t0, t1 and returns the
// results and the two registers left free.
func TransposeDwords4[R Op](a, b, c, d, t0, t1 R) (res [4]R, free [2]R) {
	VPUNPCKLDQ(b, a, t0)
	VPUNPCKHDQ(b, a, a)
	VPUNPCKLDQ(d, c, t1)
	VPUNPCKHDQ(d, c, c)
	VPUNPCKLQDQ(t1, t0, b)
	VPUNPCKHQDQ(t1, t0, t0)
	VPUNPCKLQDQ(c, a, d)
	VPUNPCKHQDQ(c, a, a)
	return [4]R{b, t0, d, a}, [2]R{t1, c}
}

// PCAlign emits the assembler's PCALIGN directive: padding up to the next
// n-byte boundary (n a power of two), which also aligns the function to n.
func PCAlign(n uint64) {
	Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []Op{Imm(n)}})
}
