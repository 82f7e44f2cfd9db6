package vec

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Tails: what is left after a kernel's main loop, less than one vector.
//
// Halving is how the AES kernels end: narrower vectors, w/2 down to 16
// bytes, each at most once. It needs no mask and no byte granularity, and
// unlike a masked move it never makes the next call's load of the same
// bytes wait for a failed store forwarding (in-place encryption of
// consecutive messages does that) nor takes an assist near an unmapped
// page. Byte-granular tails (GHASH and Poly1305 padding, XTS ciphertext
// stealing, a final partial CTR block) use the AVX-512 opmask moves
// (TailMask, LoadMasked, StoreMasked), or CopyTail into a zeroed stack
// block and a whole-vector operation on it where there are no opmasks.

// Halving emits, for tw = w/2, w/4, ... 16 bytes, a step that runs body(tw)
// when n (counted in units of unit bytes) covers tw, followed, except at
// the last step, by advance(tw), which moves the pointers and n on.
func Halving(w Width, n Op, unit int, l *Labels, body, advance func(tw Width)) {
	for tw := w / 2; tw >= W128; tw /= 2 {
		next := l.New("tail")
		CMPQ(n, Imm(uint64(tw.Bytes()/unit)))
		JB(LabelRef(next))
		body(tw)
		if tw > W128 {
			advance(tw)
		}
		Label(next)
	}
}

// TailMask sets opmask k to the low n bits (n the bytes left, 0..64; 64 or
// more sets all), through the general register t. Needs BMI2 and
// AVX512BW.
func TailMask(n, t GPPhysical, k Register) {
	MOVQ(I32(-1), t)
	BZHIQ(n, t, t)
	KMOVQ(t, k)
}

// LoadMasked loads the bytes of m that opmask k selects into dst and zeroes
// the others; masked-off bytes are not read, so no fault past the end of a
// buffer.
func LoadMasked(m Mem, k, dst Op) { VMOVDQU8_Z(m, k, dst) }

// StoreMasked stores the bytes of src that opmask k selects to m.
func StoreMasked(src, k Op, m Mem) { VMOVDQU8(src, k, m) }

// CopyTail copies n mod 64 bytes from src to dst with scalar moves, the
// largest pieces first (32, 16, 8, 4, 2 and 1 bytes as the bits of n
// say), for paths without opmasks: copy a tail into a zeroed stack block,
// work on the whole block, copy the result back. It advances src and dst
// and clobbers t; n is public (a length), so the branches leak nothing.
func CopyTail(dst, src, n, t GPPhysical, l *Labels) {
	for size := 32; size >= 1; size /= 2 {
		skip := l.New(fmt.Sprintf("copy%d", size))
		TESTQ(U32(size), n)
		JZ(LabelRef(skip))
		for off := 0; off < size; off += 8 {
			piece := min(8, size-off)
			s, d := Mem{Base: src, Disp: off}, Mem{Base: dst, Disp: off}
			switch piece {
			case 8:
				MOVQ(s, t)
				MOVQ(t, d)
			case 4:
				MOVL(s, t.As32())
				MOVL(t.As32(), d)
			case 2:
				MOVW(s, t.As16())
				MOVW(t.As16(), d)
			case 1:
				MOVB(s, t.As8())
				MOVB(t.As8(), d)
			}
		}
		ADDQ(U32(size), src)
		ADDQ(U32(size), dst)
		Label(skip)
	}
}
