// Command cbcmb generates aes/cbcmulti_amd64.s: multi-buffer AES-CBC
// encryption, which runs many independent CBC chains at once.
//
// One CBC chain is bound by latency: each block waits for the previous
// one's ten or more rounds. Independent chains have no such wait, so one
// generator function, parameterised by vector width, keeps eight vector
// registers of chaining states in flight, each 128-bit lane a different
// chain (one round key broadcast to every lane):
//
//   - 16 bytes (XMM, AES-NI, legacy SSE encodings): 8 chains,
//   - 32 bytes (YMM, VAES with AVX2): 16 chains,
//   - 64 bytes (ZMM, VAES with AVX-512): 32 chains.
//
// Each kernel advances every lane by the same number of blocks. A lane's
// block comes from its own source pointer, so it is gathered into its lane
// with an insert, and the ciphertext goes back out with an extract; the
// states stay in registers from the first block to the last. The Go driver
// (aes/cbcmulti_amd64.go) assigns messages to lanes and parks idle lanes on
// scratch memory.
//
// Round keys come right-aligned in a 240-byte table, as for the other AES
// kernels: the last at offset 224, key i of an r-round cipher at
// 16*(14-r+i).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// width is the vector width in bytes.
type width int

const (
	w128 width = 16
	w256 width = 32
	w512 width = 64
)

// lanes is the number of 128-bit lanes, one chain each, per register.
func (w width) lanes() int { return int(w) / 16 }

func (w width) v(i int) VecPhysical {
	switch w {
	case w128:
		return []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}[i]
	case w256:
		return []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}[i]
	}
	return []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
}

// x is the XMM register under vector register i.
func x(i int) VecPhysical {
	return []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}[i]
}

const (
	states = 8 // registers of chaining states

	// Offsets in the lane table (aes.cbcLanes): source pointers, then
	// destination pointers, then chaining values, for up to 32 lanes.
	srcOff = 0
	dstOff = 8 * 32
	ivOff  = 16 * 32
)

// Register plan. v(0..7): chaining states. v(8..14): the next source
// blocks, gathered lane by lane. 128/256 bits: v(15) holds the round key
// being applied, broadcast from the table once per round. 512 bits: Z16..Z30
// hold all 15 key slots and Z31 the first (whitening) key.
func gen(w width, suffix string) {
	name := "cbcEncryptLanes" + suffix
	TEXT(name, NOSPLIT, "func(keys *[240]byte, rounds int, lanes *byte, n int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s CBC-encrypts n blocks (n > 0) on each of %d lanes: lane i reads src[i], writes dst[i] and chains from and back to iv[i].", name, states*w.lanes()))
	keys, rounds, tab, n := GP64(), GP64(), GP64(), GP64()
	Load(Param("keys"), keys)
	Load(Param("rounds"), rounds)
	Load(Param("lanes"), tab)
	Load(Param("n"), n)
	first := GP64() // the whitening key: keys + 224 - 16*rounds
	MOVQ(rounds, first)
	SHLQ(U8(4), first)
	NEGQ(first)
	LEAQ(Mem{Base: keys, Index: first, Scale: 1, Disp: 224}, first)
	off, ptr := GP64(), GP64()

	if w == w512 {
		for s := 0; s < 15; s++ {
			VBROADCASTI32X4(Mem{Base: keys, Disp: 16 * s}, w.v(16+s))
		}
		VBROADCASTI32X4(Mem{Base: first}, w.v(31))
	}

	// gather fills register r from the 128-bit blocks at the lanes' base
	// pointers (at table offset base) plus off; scatter is its inverse.
	lane := func(r, l int) int { return r*w.lanes() + l }
	gather := func(base, r int, dst VecPhysical, xdst VecPhysical) {
		for l := 0; l < w.lanes(); l++ {
			MOVQ(Mem{Base: tab, Disp: base + 8*lane(r, l)}, ptr)
			m := Mem{Base: ptr, Index: off, Scale: 1}
			switch {
			case l == 0 && w == w128:
				MOVOU(m, dst)
			case l == 0:
				VMOVDQU(m, xdst) // zeroes the rest of the register
			case w == w256:
				VINSERTI128(U8(l), m, dst, dst)
			default:
				VINSERTI32X4(U8(l), m, dst, dst)
			}
		}
	}
	scatter := func(base, r int) {
		for l := 0; l < w.lanes(); l++ {
			MOVQ(Mem{Base: tab, Disp: base + 8*lane(r, l)}, ptr)
			m := Mem{Base: ptr, Index: off, Scale: 1}
			switch {
			case l == 0 && w == w128:
				MOVOU(w.v(r), m)
			case l == 0:
				VMOVDQU(x(r), m)
			case w == w256:
				VEXTRACTI128(U8(l), w.v(r), m)
			default:
				VEXTRACTI32X4(U8(l), w.v(r), m)
			}
		}
	}

	// The chaining values come in from iv[i], 16 bytes apart.
	for r := 0; r < states; r++ {
		for l := 0; l < w.lanes(); l++ {
			m := Mem{Base: tab, Disp: ivOff + 16*lane(r, l)}
			switch {
			case l == 0 && w == w128:
				MOVOU(m, w.v(r))
			case l == 0:
				VMOVDQU(m, x(r))
			case w == w256:
				VINSERTI128(U8(l), m, w.v(r), w.v(r))
			default:
				VINSERTI32X4(U8(l), m, w.v(r), w.v(r))
			}
		}
	}

	xor := func(a, b VecPhysical) {
		switch w {
		case w128:
			PXOR(a, b)
		case w256:
			VPXOR(a, b, b)
		default:
			VPXORQ(a, b, b)
		}
	}
	key := w.v(15)
	loadKey := func(m Mem) {
		if w == w128 {
			MOVOU(m, key)
		} else {
			VBROADCASTI128(m, key)
		}
	}
	// round applies key slot s (or the whitening key when s < 0) to every
	// state.
	round := func(s int, last bool) {
		k := key
		switch {
		case w == w512 && s >= 0:
			k = w.v(16 + s)
		case w == w512:
			k = w.v(31)
		case s >= 0:
			loadKey(Mem{Base: keys, Disp: 16 * s})
		default:
			loadKey(Mem{Base: first})
		}
		for r := 0; r < states; r++ {
			switch {
			case s < 0:
				xor(k, w.v(r))
			case w == w128 && last:
				AESENCLAST(k, w.v(r))
			case w == w128:
				AESENC(k, w.v(r))
			case last:
				VAESENCLAST(k, w.v(r), w.v(r))
			default:
				VAESENC(k, w.v(r), w.v(r))
			}
		}
	}

	XORQ(off, off)
	Label(name + "_block")
	for r := 0; r < states; r++ {
		t := 8 + r%7
		gather(srcOff, r, w.v(t), x(t))
		xor(w.v(t), w.v(r))
	}
	round(-1, false)
	// Rounds on the fixed slots: 1..4 only for the longer keys.
	CMPQ(rounds, U8(12))
	JB(LabelRef(name + "_r10"))
	JE(LabelRef(name + "_r12"))
	round(1, false)
	round(2, false)
	Label(name + "_r12")
	round(3, false)
	round(4, false)
	Label(name + "_r10")
	for s := 5; s < 14; s++ {
		round(s, false)
	}
	round(14, true)
	for r := 0; r < states; r++ {
		scatter(dstOff, r)
	}
	ADDQ(U8(16), off)
	DECQ(n)
	JNZ(LabelRef(name + "_block"))

	// The last ciphertext blocks are the chaining values for the next call.
	for r := 0; r < states; r++ {
		for l := 0; l < w.lanes(); l++ {
			m := Mem{Base: tab, Disp: ivOff + 16*lane(r, l)}
			switch {
			case l == 0 && w == w128:
				MOVOU(w.v(r), m)
			case l == 0:
				VMOVDQU(x(r), m)
			case w == w256:
				VEXTRACTI128(U8(l), w.v(r), m)
			default:
				VEXTRACTI32X4(U8(l), w.v(r), m)
			}
		}
	}
	if w != w128 {
		VZEROUPPER()
	}
	RET()
}

func main() {
	ConstraintExpr("amd64,!purego")
	gen(w128, "AESNI")
	gen(w256, "VAES256")
	gen(w512, "VAES512")
	Generate()
}
