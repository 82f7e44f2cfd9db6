// Command chacha20poly1305 generates chacha20poly1305/chacha20poly1305_amd64.s:
// the keystream kernel of the AEAD's short-message path, and the stitched
// ChaCha20 and Poly1305 kernels of the avx2-stitched path (stitched.go).
//
// A short message (up to three blocks) needs keystream blocks 0 (the MAC
// key) to 3. The chacha20 package computes them in one call as well, but
// its general entry (cipher set-up, dispatch, the stream's bookkeeping)
// costs about 5% of a 64-byte Seal (measured on Zen 5); this kernel takes
// the key and nonce directly and always writes exactly four blocks. Four
// blocks cost what one does (about 105 ns on Zen 5, the same in YMM with
// two, and with VPSHUFB for the byte rotations): the rounds are one chain
// of dependent operations.
//
// Row layout: each ZMM register holds one row of the 4×4 state for four
// blocks, one block per 128-bit lane (counters 0..3), so a double round is
// the quarter round on the columns, a rotation of rows b, c, d within each
// lane (VPSHUFD) to bring the diagonals into columns, the quarter round
// again and the rotation back. Rotations are VPROLD.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")

	sigma := GLOBL("cp_sigma", RODATA|NOPTR)
	for i, w := range []uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574} {
		DATA(4*i, U32(w))
	}
	lanes := GLOBL("cp_lanectr", RODATA|NOPTR)
	for l := 0; l < 4; l++ {
		DATA(16*l, U32(uint32(l)))
		DATA(16*l+4, U32(0))
		DATA(16*l+8, U64(0))
	}

	TEXT("keystream4", NOSPLIT, "func(ks *[256]byte, key *[32]byte, nonce *[12]byte)")
	Pragma("noescape")
	Doc("keystream4 writes ChaCha20 keystream blocks 0 to 3 for key and nonce to ks.")
	ks := Load(Param("ks"), GP64())
	key := Load(Param("key"), GP64())
	nonce := Load(Param("nonce"), GP64())

	a, b, c, d := ZMM(), ZMM(), ZMM(), ZMM()
	VBROADCASTI32X4(sigma, a)
	VBROADCASTI32X4(Mem{Base: key}, b)
	VBROADCASTI32X4(Mem{Base: key, Disp: 16}, c)
	Comment("Row d: counter 0 and the nonce, the lane number added to the counter.")
	x := XMM()
	VMOVD(Mem{Base: nonce}, x) // zero-extends; the counter word is set below
	VPSLLDQ(U8(4), x, x)       // [0, n0, 0, 0]
	VPINSRQ(U8(1), Mem{Base: nonce, Disp: 4}, x, x)
	VSHUFI32X4(U8(0), x.AsZ(), x.AsZ(), d)
	VPADDD(lanes, d, d)

	a0, b0, c0, d0 := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQA64(a, a0)
	VMOVDQA64(b, b0)
	VMOVDQA64(c, c0)
	VMOVDQA64(d, d0)

	n := GP64()
	MOVL(U32(10), n.As32())
	Label("ks4_loop")
	quarter := func() {
		VPADDD(b, a, a)
		VPXORD(a, d, d)
		VPROLD(U8(16), d, d)
		VPADDD(d, c, c)
		VPXORD(c, b, b)
		VPROLD(U8(12), b, b)
		VPADDD(b, a, a)
		VPXORD(a, d, d)
		VPROLD(U8(8), d, d)
		VPADDD(d, c, c)
		VPXORD(c, b, b)
		VPROLD(U8(7), b, b)
	}
	quarter()
	Comment("Diagonals into columns: row b by one word, c by two, d by three.")
	VPSHUFD(U8(0x39), b, b)
	VPSHUFD(U8(0x4e), c, c)
	VPSHUFD(U8(0x93), d, d)
	quarter()
	VPSHUFD(U8(0x93), b, b)
	VPSHUFD(U8(0x4e), c, c)
	VPSHUFD(U8(0x39), d, d)
	DECL(n.As32())
	JNZ(LabelRef("ks4_loop"))

	VPADDD(a0, a, a)
	VPADDD(b0, b, b)
	VPADDD(c0, c, c)
	VPADDD(d0, d, d)

	Comment("Rows to blocks: block L is lane L of a, b, c and d.")
	ab01, cd01, ab23, cd23 := ZMM(), ZMM(), ZMM(), ZMM()
	VSHUFI32X4(U8(0x44), b, a, ab01) // a0 a1 b0 b1
	VSHUFI32X4(U8(0x44), d, c, cd01) // c0 c1 d0 d1
	VSHUFI32X4(U8(0xee), b, a, ab23) // a2 a3 b2 b3
	VSHUFI32X4(U8(0xee), d, c, cd23) // c2 c3 d2 d3
	for i, src := range [][2]VecVirtual{{ab01, cd01}, {ab01, cd01}, {ab23, cd23}, {ab23, cd23}} {
		imm := U8(0x88) // lanes 0 and 2 of each: a_L b_L c_L d_L for the even block
		if i%2 == 1 {
			imm = U8(0xdd)
		}
		out := ZMM()
		VSHUFI32X4(imm, src[1], src[0], out)
		VMOVDQU64(out, Mem{Base: ks, Disp: 64 * i})
	}
	VZEROUPPER()
	RET()

	stitchedData()
	stitched("sealAVX2", true)
	stitched("openAVX2", false)
	Generate()
}
