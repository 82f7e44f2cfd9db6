package main

// The fused kernels of messages up to 64 bytes with up to 16 bytes of
// additional data (sealShort, openShort, and sealShortVL, openShortVL
// with VPROLD where AVX-512 may run; on Zen 5 their Lead versions, below):
// one call computes keystream block 1 and block 0 (the MAC key), and the
// Poly1305 steps that need only the key run beside the rounds: Open's
// whole MAC, Seal's additional data. Seal then XORs the message, absorbs
// the ciphertext and the lengths and finishes the tag.
//
// Block 1's rounds are one chain of dependent vector operations, of two
// cycles each on Zen 5 (one on Zen 3 and 4 and Intel's cores; a rotation
// by 12 or 7 is two of them in AVX2): about 14 ns per double round in YMM
// rows there. In general registers a block takes about 7.4 (block0 alone:
// 74 ns), two interleaved ones about 14 (an experiment with both blocks
// in general registers, words a and c in the frame: 141 to 150 ns against
// 140 for keystream2AVX2): the integer units have room for one block
// beside the vector chain, not for two. So on Zen 5 block 1's first lead
// double rounds run in general registers on their own (sealShortLead,
// openShortLead, sealShortLeadVL, openShortLeadVL), then the YMM rows
// (blocks 0 and 1, one per lane; the low lane's result unused) take its
// state from the frame for the rest while block 0 and the MAC steps run
// in general registers beside them. Measured on Zen 5 in one test binary
// (best of 3000 runs of 40 calls of Seal or Open at 64 bytes with 13
// bytes of additional data, round-robin over the variants; x/crypto 210
// and 212 ns), lead 0 to 8:
//
//	VEX rows   Seal 219 206 197 190 175 163 170 176 182 ns
//	           Open 203 189 181 174 166 172 178 185 192
//	EVEX rows  Seal 192 185 179 172 156 162 169 175 183 (VPROLD: one operation)
//	           Open 179 169 164 159 166 172 179 186 192
//
// Open's general registers carry six MAC steps besides block 0, Seal's
// one, so Open's best lead is shorter; at 16 bytes the same leads are
// best. Where vector operations take one cycle, the rows are about as fast
// as general registers and a lead would only add to the general
// registers' share (block 0 and the MAC), so other CPUs take lead 0 (not
// measured: only Zen 5 was at hand). The VEX rows keep their rotation
// masks in registers, so the rounds load nothing (from the read-only data
// such loads can wait behind the frame's stores where the addresses alias,
// see frameMasks). In six code layouts (a test-only function of 0 to
// 1.5 KiB before the kernels; best of 1200 runs of 20 calls each), the
// kernel before this (lead 0, masks from memory) ran Seal at 64 bytes at
// 1.00 to 1.31x x/crypto (1.01 in four), Open 1.15 to 1.31x, for reasons
// not found; sealShortLeadVL at 1.40 to 1.50x, openShortLeadVL 1.49 to
// 1.50x, and under avx512=off sealShortLead 1.42 to 1.43x, openShortLead
// 1.42 to 1.43x.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// Offsets in the Go side's shortState (chacha20poly1305/short.go); r sits
// at offR, as in stitchState, for polyStep.
const (
	soKey   = 0   // [32]byte
	soNonce = 32  // [12]byte
	soNCT   = 44  // uint32: Seal's ciphertext blocks (0..4)
	soS     = 48  // [2]uint64: s, written by the kernel
	soTag   = 64  // [16]byte, written by the kernel
	soLen   = 80  // uint64: the message's length (0..64)
	soHi    = 112 // [6]uint64: the 2^128 bit of each MAC block (Open)
	soMAC   = 160 // [6][16]byte: the MAC input (see short.go)
	soMsg   = 256 // [64]byte: the message in, the result out
)

var sigmaWords = [4]uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}

// shortKernel emits sealShort (seal) or openShort, block 1's first lead
// double rounds in general registers, the rest in YMM rows of isa (lead
// 0: all of them).
func shortKernel(name string, seal bool, lead int, isa vec.ISA, sigma, lanes, mask Mem) {
	TEXT(name, NOSPLIT, "func(st *[320]byte)")
	Pragma("noescape")
	if seal {
		Doc(name+" encrypts st's message (up to 64 bytes) in place and writes",
			"its tag; the MAC input holds the padded additional data (block 0,",
			"2^128 bit from hi[0]) and the length block (block 5), and gets the",
			"ciphertext in blocks 1 to 4.")
	} else {
		Doc(name+" writes the tag of st's MAC input (six blocks, each with",
			"hi[i]·2^128 added) and decrypts st's message in place.")
	}
	k := &sk{}
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	inAt := func(ctr uint32) func(i int) Op {
		return func(i int) Op {
			switch {
			case i < 4:
				return U32(sigmaWords[i])
			case i < 12:
				return Mem{Base: k.st, Disp: soKey + 4*(i-4)}
			case i == 12:
				return U32(ctr)
			}
			return Mem{Base: k.st, Disp: soNonce + 4*(i-13)}
		}
	}
	words := AllocLocal(16)
	var state Mem
	if lead > 0 {
		state = AllocLocal(64)
		Comment(fmt.Sprintf("Block 1's first %d double rounds in general registers, its state to the frame.", lead))
		x1 := scalarState(inAt(1), words, 3)
		for range lead {
			scalarDoubleRound(&x1, func(f func()) { f() })
		}
		for i, w := range x1 {
			if m, ok := w.(Mem); ok {
				t := GP32()
				MOVL(m, t)
				w = t
			}
			MOVL(w, state.Offset(4*i))
		}
	}
	nonce := GP64()
	LEAQ(Mem{Base: k.st, Disp: soNonce}, nonce)
	rs := newRows(isa, 2, k.st, nonce.(GPVirtual), sigma, lanes, nil)
	if lead > 0 {
		Comment("The rows continue from that state in both lanes; the input rows stay for the final addition.")
		for j, r := range []VecVirtual{rs.a[0], rs.b[0], rs.c[0], rs.d[0]} {
			VBROADCASTI128(state.Offset(16*j), r)
		}
	}
	if isa.Enc == vec.VEX {
		Comment("The rotation masks in registers: no load in the rounds waits behind a store to the frame.")
		by16, by8 := YMM(), YMM()
		VMOVDQU(stRot.By16, by16)
		VMOVDQU(stRot.By8, by8)
		rs.rot = vec.RotateMasks{By16: by16, By8: by8}
	}

	k.counting = true
	for range 10 - lead {
		rs.doubleRound(k.vop)
	}
	k.counting = false

	Comment("Block 0 in general registers, the Poly1305 key from it.")
	in := inAt(0)
	x := scalarState(in, words, 3)
	k.queue, k.tick, k.emitted, k.delay = nil, 0, 0, 0
	q := func(f func()) { k.queue = append(k.queue, f) }
	scalarRounds(&x, q)
	k.queueMACKey(&x, in, soS)
	if seal {
		k.polyStepHi(Mem{Base: k.st, Disp: soMAC}, Mem{Base: k.st, Disp: soHi})
	} else {
		for j := 0; j < 6; j++ {
			k.polyStepHi(Mem{Base: k.st, Disp: soMAC + 16*j}, Mem{Base: k.st, Disp: soHi + 8*j})
		}
		q(func() { k.finish() })
	}

	for range 10 - lead {
		rs.doubleRound(k.vop)
	}
	k.flush()
	rs.addInput()

	Comment("Keystream block 1: the high lanes.")
	lo, hi := YMM(), YMM()
	VPERM2I128(U8(0x31), rs.b[0], rs.a[0], lo)
	VPERM2I128(U8(0x31), rs.d[0], rs.c[0], hi)
	if !seal {
		for i, r := range []VecVirtual{lo, hi} {
			VPXOR(Mem{Base: k.st, Disp: soMsg + 32*i}, r, r)
			VMOVDQU(r, Mem{Base: k.st, Disp: soMsg + 32*i})
		}
		isa.Return()
		return
	}
	Comment("The keystream past the message's length is masked off: the MAC pads with zeros.")
	m := GP64()
	LEAQ(mask, m)
	n := GP64()
	MOVQ(Mem{Base: k.st, Disp: soLen}, n)
	SUBQ(n, m)
	for i, r := range []VecVirtual{lo, hi} {
		VPAND(Mem{Base: m, Disp: 64 + 32*i}, r, r)
		VPXOR(Mem{Base: k.st, Disp: soMsg + 32*i}, r, r)
		VMOVDQU(r, Mem{Base: k.st, Disp: soMsg + 32*i})
		VMOVDQU(r, Mem{Base: k.st, Disp: soMAC + 16 + 32*i})
	}
	Comment("The ciphertext blocks, taken from the registers, then the lengths.")
	cnt := GP32()
	MOVL(Mem{Base: k.st, Disp: soNCT}, cnt)
	for j := 0; j < 4; j++ {
		CMPL(cnt, U8(j+1))
		JB(LabelRef(name + "_lengths"))
		x := lo.AsX()
		if j >= 2 {
			x = hi.AsX()
		}
		if j%2 == 1 {
			VEXTRACTI128(U8(1), []VecVirtual{lo, hi}[j/2], x)
		}
		w0, w1 := GP64(), GP64()
		VMOVQ(x, w0)
		VPEXTRQ(U8(1), x, w1)
		k.polyStepWords(w0, w1, U8(1))
		k.flush()
	}
	Label(name + "_lengths")
	k.polyStep(Mem{Base: k.st, Disp: soMAC + 80})
	k.flush()
	k.finish()
	isa.Return()
}

// finish reduces h below p, adds s and stores the tag.
func (k *sk) finish() { k.finishAt(soS, soTag) }

// finishAt is finish with s and the tag at the offsets sOff and tagOff in st.
func (k *sk) finishAt(sOff, tagOff int) {
	h0, h1, h2 := k.h[0], k.h[1], k.h[2]
	t0, t1 := k.t[0], k.t[1]
	MOVQ(h0, t0)
	MOVQ(h1, t1)
	SUBQ(I8(-5), t0)
	SBBQ(I8(-1), t1)
	SBBQ(U8(3), h2)
	Comment("No borrow: h >= p, so h - p is the reduced value.")
	CMOVQCC(t0, h0)
	CMOVQCC(t1, h1)
	ADDQ(Mem{Base: k.st, Disp: sOff}, h0)
	ADCQ(Mem{Base: k.st, Disp: sOff + 8}, h1)
	MOVQ(h0, Mem{Base: k.st, Disp: tagOff})
	MOVQ(h1, Mem{Base: k.st, Disp: tagOff + 8})
}

// macKeyFrom adds the input words in(i) to block 0's words 0..7 in x and
// stores the Poly1305 key from them: r0, r1 (clamped) and s1 = r1 + r1/4
// at offR in st, s at sOff.
func (k *sk) macKeyFrom(x *[16]Op, in func(i int) Op, sOff int) {
	var w [8]GPVirtual
	for i := range w {
		w[i] = x[i].(GPVirtual)
		ADDL(in(i), w[i])
	}
	pack := func(lo, hi GPVirtual, clamp uint64, off int) GPVirtual {
		SHLQ(U8(32), hi.As64())
		ORQ(hi.As64(), lo.As64())
		if clamp != 0 {
			t := GP64()
			MOVQ(U64(clamp), t)
			ANDQ(t, lo.As64())
		}
		MOVQ(lo.As64(), Mem{Base: k.st, Disp: off})
		return lo
	}
	pack(w[0], w[1], 0x0ffffffc0fffffff, offR)
	r1 := pack(w[2], w[3], 0x0ffffffc0ffffffc, offR+8)
	MOVQ(r1.As64(), w[3].As64()) // s1 = r1 + r1/4
	SHRQ(U8(2), w[3].As64())
	ADDQ(r1.As64(), w[3].As64())
	MOVQ(w[3].As64(), Mem{Base: k.st, Disp: offR + 16})
	pack(w[4], w[5], 0, sOff)
	pack(w[6], w[7], 0, sOff+8)
}
