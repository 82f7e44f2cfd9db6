// Package vec is the vocabulary the avo generators under _asm share: vector
// width, instruction encoding, registers, the moves, logic and arithmetic
// whose instruction changes with those two, round-key loading, read-only
// constants, tails and the small pieces of a kernel's prologue and epilogue.
// It emits nothing by itself; every function writes into avo's current
// TEXT or data section as the build package's own functions do.
//
// # Width and encoding
//
// A Width is a vector size in bytes (W128, W256, W512): it picks the
// register file (Width.Reg: X, Y or Z) and counts 16-byte blocks and 32-bit
// lanes. An ISA is a width together with the encoding a piece of code may
// use (Enc: SSE, VEX or EVEX) and the element size of EVEX moves and logic
// (ISA.Elem), which only show in masked code and in the text of the
// generated file. Generators write one function parameterised by an ISA
// for all their widths, and the ISA's methods pick the instruction:
//
//	isa.Load(m, x)       MOVOU, VMOVDQU or VMOVDQU64/VMOVDQU32
//	isa.Xor(a, b, dst)   PXOR (with the moves two operands need), VPXOR or VPXORQ/VPXORD
//	isa.BroadcastLane(m, x)  one 16-byte block into every 128-bit lane
//
// VEX code that names a register 16..31 (the narrower tails of a 512-bit
// kernel use the low lanes of its resident registers) gets the EVEX form
// automatically; SSE code gets the legacy two-operand forms, which run on
// every x86-64 CPU with the right extensions, AVX or not.
//
// # Registers
//
// Width.Reg and Width.Regs return physical registers 0..31; a generator
// keeps its register plan (which numbers hold state, keys, temporaries) as
// named constants or a table per width (the aes generator's regPlan) and
// asks the width for the register. Pool is a free list
// of physical registers for generators that allocate as they emit.
//
// # Keys, constants, tails, prologue
//
//   - RoundKeys: 16-byte round keys either resident in registers (loaded
//     once per call, broadcast to the width), broadcast into a scratch
//     register when used, or read from the table by 128-bit VEX code; AES's
//     right-aligned table (first key at 16*(14-rounds)) is expressed by its
//     First pointer. RoundKeys.MiddleRounds runs slots 1..13 with one branch
//     on the round count; ISA.AESRound and AESLastRound pick AESENC/AESDEC
//     (legacy or VEX/EVEX) and their last-round forms.
//   - Constants: Qwords and Dwords (RODATA repeated to a size, so that every
//     width reads a prefix), ByteReverse (the PSHUFB control that turns a
//     16-byte block around: big-endian counters, GHASH's byte order),
//     RotateDwordsMask (rotations by whole bytes as PSHUFB).
//   - Tails: Halving runs the narrower widths' code on what is left after
//     the main loop (w/2, w/4 ... 16 bytes), the way the AES kernels end
//     without masked moves; TailMask, LoadMasked and StoreMasked are the
//     AVX-512 opmask form for byte-granular tails; CopyTail moves up to 63
//     bytes with scalar moves for the paths without opmasks (bounce through
//     a stack block).
//   - LoadParam puts an argument into a physical register (LoadArgs the
//     leading ones, in order), AlignedLocal gives a frame block aligned for
//     vector spills, Labels numbers labels, and ISA.Return ends a kernel
//     (VZEROUPPER where the code used VEX or EVEX registers).
//
// # Moving a generator onto it
//
// The aes, aria, chacha20 and xts generators use it; moving each onto it left
// its output unchanged. The GHASH and Poly1305 generators can follow step by
// step, running go generate after each step and checking that the .s file
// does not change (git status --porcelain stays empty):
//
//   - a private X/Y/Z register table and width type: Width and Width.Reg;
//   - "evex ? VMOVDQU64 : VMOVDQU", "evex ? VPXORQ : VPXOR", "VMOVDQA64 :
//     VMOVDQA": an ISA (EVEX for all code of a 512-bit kernel, its narrower
//     tails included, since they name registers 16..31; VEX otherwise) and
//     its Load, Store, Xor and Copy;
//   - AES round keys in a right-aligned table (XTS, the CTR half of GCM):
//     RoundKeys{Table: keys, First: k0, Resident: 16 on the 512-bit path
//     (else -1), Scratch: the key register, Direct128: true where 128-bit
//     VEX code reads keys straight from the table}, LoadResident(isa, 1, 14)
//     in the prologue, FirstKey, MiddleRounds and Slot(isa, 14) in a batch;
//   - loadParam and a label counter: LoadParam (LoadArgs) and Labels;
//   - GHASH's byte order: ByteReverse; reduction constants and per-lane
//     tables: Qwords (64 bytes, so every width reads a prefix);
//   - byte-granular tails (GCM's last partial block, XTS stealing, Poly1305
//     padding): TailMask with LoadMasked/StoreMasked on AVX-512, CopyTail
//     through a stack block elsewhere.
//
// What only one generator needs (AES's CTR constants, ARIA's byte-slice
// allocator, ChaCha20's transposes, GF(2^128) multiplication) stays in that
// generator until a second one needs it; then it moves here.
package vec

import (
	"fmt"

	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Width is a vector width in bytes.
type Width int

const (
	W128 Width = 16
	W256 Width = 32
	W512 Width = 64
)

// Widths lists the widths from widest to narrowest.
var Widths = []Width{W512, W256, W128}

func (w Width) Bytes() int   { return int(w) }
func (w Width) Bits() int    { return 8 * int(w) }
func (w Width) Blocks() int  { return int(w) / 16 } // 16-byte blocks (128-bit lanes)
func (w Width) Lanes32() int { return int(w) / 4 }  // 32-bit lanes
func (w Width) Half() Width  { return w / 2 }

func (w Width) String() string { return fmt.Sprintf("%d-bit", w.Bits()) }

var (
	xregs = [32]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15,
		X16, X17, X18, X19, X20, X21, X22, X23, X24, X25, X26, X27, X28, X29, X30, X31}
	yregs = [32]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15,
		Y16, Y17, Y18, Y19, Y20, Y21, Y22, Y23, Y24, Y25, Y26, Y27, Y28, Y29, Y30, Y31}
	zregs = [32]VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
)

// Reg returns vector register i (0..31) at width w: Xi, Yi or Zi.
func (w Width) Reg(i int) VecPhysical {
	switch w {
	case W128:
		return xregs[i]
	case W256:
		return yregs[i]
	case W512:
		return zregs[i]
	}
	panic(fmt.Sprintf("vec: no registers of %d bytes", int(w)))
}

// Regs returns registers first..first+n-1 at width w.
func (w Width) Regs(first, n int) []VecPhysical {
	rs := make([]VecPhysical, n)
	for i := range rs {
		rs[i] = w.Reg(first + i)
	}
	return rs
}

// IsHigh reports whether op is one of the vector registers 16..31, which
// only EVEX encodings reach.
func IsHigh(op Op) bool {
	r, ok := op.(VecPhysical)
	return ok && r.PhysicalIndex() >= 16
}

// IsReg reports whether op is a vector register (physical or virtual).
func IsReg(op Op) bool {
	_, ok := op.(Vec)
	return ok
}

// Enc is the instruction encoding a piece of code may use.
type Enc int

const (
	SSE  Enc = iota // legacy SSE..SSE4.1 forms: two operands, destination read; 16 XMM registers
	VEX             // AVX/AVX2: three operands, 16 registers (EVEX forms where a register is 16..31)
	EVEX            // AVX-512 (F, VL, BW): 32 registers, opmasks, embedded broadcast
)

func (e Enc) String() string { return [...]string{"SSE", "VEX", "EVEX"}[e] }

// ISA is the width and encoding one piece of generated code runs at.
type ISA struct {
	W   Width
	Enc Enc
	// Elem is the element size in bits (32 or 64) of the EVEX moves and
	// bitwise operations (VMOVDQU32/64, VPXORD/Q): equal without a mask,
	// so it is the generator's choice of spelling; 0 means 64.
	Elem int
}

// Reg returns register i at the ISA's width.
func (i ISA) Reg(n int) VecPhysical { return i.W.Reg(n) }

// At returns the same encoding choice at another width.
func (i ISA) At(w Width) ISA { i.W = w; return i }

// evex reports whether an instruction with these operands needs the EVEX
// form: the encoding is EVEX, or VEX code names a register 16..31.
func (i ISA) evex(ops ...Op) bool {
	if i.Enc == EVEX {
		return true
	}
	if i.Enc == VEX {
		for _, op := range ops {
			if IsHigh(op) {
				return true
			}
		}
	}
	return false
}

func (i ISA) elem32() bool { return i.Elem == 32 }
