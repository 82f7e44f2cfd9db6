// Command aria generates aria/aria_amd64.s: byte-sliced ARIA kernels for
// 64 blocks in ZMM registers (EVEX, AVX-512 and GFNI), 32 blocks in YMM
// registers (VEX, AVX2, and GFNI, VAES, or AES-NI on each half) and 16
// blocks in XMM registers (VEX, GFNI or AES-NI), all from one
// width-parameterised generator, and one-block kernels for CBC encryption
// and short ECB and CTR tails (single.go).
//
// # Layout
//
// The state of W blocks (W = vector bytes) lives in 16 vectors, "byte
// slices": slice i holds byte i of every block. In that form ARIA's round
// is lane-wise work with no shuffles:
//
//   - round-key addition XORs slice i with key byte i broadcast;
//   - each S-box is one or two GF2P8AFFINE(INV)QB instructions per slice
//     (or AESENCLAST/AESDECLAST plus nibble look-ups, see sboxAESNI);
//   - the diffusion layer A factors (checked in aria's tests through the
//     kernels) as W∘P∘W∘M over the four 4-slice words T0..T3, where M
//     replaces each byte of a word by the XOR of the other three, W does
//     the same across the words (T0' = T0⊕T1⊕T2, T1' = T0⊕T2⊕T3,
//     T2' = T0⊕T1⊕T3, T3' = T1⊕T2⊕T3) and P permutes bytes inside T1, T2
//     and T3 — a renaming of registers that costs nothing.
//
// Each "XOR of three of four" takes six two-operand XORs (and a
// temporary) on AVX2. AVX-512 does not use the factorisation: A's outputs
// are pairwise XORs of eight four-byte sums (plus one byte they share; see
// diffuseQuads), which with VPTERNLOGQ and the next round's key added in
// the same instructions (partly through the quads, see keyPlan) makes a
// round 24 GFNI instructions and 41 XOR or ternary-logic ones: 65 for 64
// blocks (W∘P∘W∘M took 56, and its longer dependency chains cost more than
// the count: the quads were 29% faster, keys in quads 2-4% more).
//
// Going in and out of byte slices is a 16×16 byte transpose inside each
// 128-bit lane: a 4×4 dword transpose in groups of four registers, a 4×4
// byte transpose inside every dword group (one PSHUFB), and a 4×4 dword
// transpose across the groups. Blocks end up in a lane order of the
// transpose's choosing, which the inverse transpose undoes.
// AVX-512 does the same transpose as four rounds of unpacks, bytes to
// quadwords (toSlicesUnpack): 64 shuffles instead of 80, about 3% faster.
//
// # Registers
//
// AVX-512 has 32 registers: 16 slices, temporaries and the S-box matrices
// stay resident. AVX2 and the XMM form have 16, all needed by the slices,
// so a small allocator spills the slice least in the way to the stack when
// a temporary is needed, and reloads it when its turn comes. The allocator
// tracks which register holds which slice, so the renamings above are free.
//
// # Kernels
//
// Each kernel does exactly one batch of W blocks; Go code loops and
// handles tails. ECB runs the rounds with the encryption or decryption
// round keys (ARIA's decryption is the same network with other keys). CBC
// decryption XORs the previous ciphertext re-read from src, storing from
// the last vector down so that it also works in place. CTR builds its
// counter blocks directly as byte slices (see ctr). The code for 12, 14
// and 16 rounds shares the first 11 rounds and branches after them.
//
// Round keys come expanded: every key byte repeated in a uint32, so that
// AVX-512 XORs it with an embedded broadcast and AVX2 with VPBROADCASTD;
// the AES-NI and VAES kernels take it repeated over a whole XMM vector (the
// XMM kernel XORs it from memory, the YMM ones broadcast its first uint32).
package main

import (
	"flag"
	"fmt"
	"go/format"
	"math/bits"
	"os"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// GF2P8AFFINEQB matrix operands and constants; aria/sbox_test.go derives
// the same values from RFC 5794's definitions and rebuilds the S-box tables
// from them.
const (
	matSB1    = 0xf1e3c78f1f3e7cf8 // A, SB1(x) = A·x⁻¹ ⊕ 0x63
	matSB2    = 0xeafcb7c3c273c66f // B·Q³, SB2(x) = B·x²⁴⁷ ⊕ 0xe2
	matSB1Inv = 0xa44992254a942952 // A⁻¹, SB3(x) = (A⁻¹x ⊕ 0x05)⁻¹
	matSB2Inv = 0x186450c737d6bdc9 // (B·Q³)⁻¹, SB4(x) = ((BQ³)⁻¹x ⊕ 0x2c)⁻¹
	matIdent  = 0x0102040810204080
	cSB1      = 0x63
	cSB2      = 0xe2
	cSB3Pre   = 0x05
	cSB4Pre   = 0x2c
)

// gfniApply multiplies x by the matrix in GF2P8AFFINEQB operand form:
// output bit i is the parity of x AND byte 7-i of q.
func gfniApply(q uint64, x byte) byte {
	var y byte
	for i := 0; i < 8; i++ {
		row := byte(q >> (8 * (7 - i)))
		y |= byte(bits.OnesCount8(row&x)&1) << i
	}
	return y
}

// affineTables derives the nibble tables of the AES-NI kernel. With
// inv(x) = A⁻¹(SB1(x) ⊕ 0x63), SB2(x) = M·inv(x) ⊕ 0xe2 (M = B·Q³) becomes
// L(SB1(x)) with L(y) = M·A⁻¹·y ⊕ (M·A⁻¹·0x63 ⊕ 0xe2), and SB4 = SB3∘L⁻¹.
// An affine byte map is f(b) = f_lo(b&15) ⊕ f_hi(b>>4) with the constant
// in f_lo; each table is returned as two qwords, entry n in byte n.
func affineTables() (post, pre [2][2]uint64) {
	lin := func(y byte) byte { return gfniApply(matSB2, gfniApply(matSB1Inv, y)) }
	c := lin(cSB1) ^ cSB2
	var inv [256]byte
	for y := 0; y < 256; y++ {
		inv[lin(byte(y))^c] = byte(y)
	}
	for n := 0; n < 16; n++ {
		sh := uint(8 * (n % 8))
		post[0][n/8] |= uint64(lin(byte(n))^c) << sh
		post[1][n/8] |= uint64(lin(byte(n<<4))) << sh
		pre[0][n/8] |= uint64(inv[n]) << sh
		pre[1][n/8] |= uint64(inv[n<<4]^inv[0]) << sh
	}
	return post, pre
}

// width is one kernel family's width and encoding: EVEX (AVX-512: 32
// registers, VPTERNLOGQ, embedded broadcast) at 512 bits, VEX at 256 and
// 128; aesni makes the S-boxes AES round instructions instead of GFNI: at
// the full width (AES-NI on XMM, VAES on YMM), or with halves on YMM
// through the XMM instructions of AES-NI (CPUs with AVX2 but no VAES).
type width struct {
	vec.ISA
	aesni  bool
	halves bool
}

// attr: the AVX-512 kernels need no stack and are NOSPLIT; the others
// spill to a frame too large for the no-split limit.
func (w width) attr() attr.Attribute {
	if w.evex() {
		return NOSPLIT
	}
	return 0
}

func (w width) evex() bool  { return w.Enc == vec.EVEX }
func (w width) bytes() int  { return w.W.Bytes() }
func (w width) blocks() int { return w.W.Bytes() } // blocks per batch: one per byte of a slice
func (w width) lanes() int  { return w.W.Blocks() }

// Read-only constants, 64 bytes each so that every width reads a prefix.
var (
	constSB1, constSB2, constSB1Inv, constSB2Inv, constIdent Mem
	constByteTranspose                                       Mem
	constSplat                                               [16]Mem
	constCTRIndex                                            map[int]Mem
	constCTRCarry, constCTRPrepBytes                         Mem

	constShiftRows2, constZero, constNibbleMask                  Mem
	constSB2PostLo, constSB2PostHi, constSB4PreLo, constSB4PreHi Mem
)

// qwords emits a 64-byte constant of qs repeated.
func qwords(name string, qs ...uint64) Mem { return vec.Qwords(name, 64, qs...) }

func constants() {
	constSB1 = qwords("ariaMatSB1", matSB1)
	constSB2 = qwords("ariaMatSB2", matSB2)
	constSB1Inv = qwords("ariaMatSB1Inv", matSB1Inv)
	constSB2Inv = qwords("ariaMatSB2Inv", matSB2Inv)
	constIdent = qwords("ariaMatIdentity", matIdent)
	// Byte k of each 16-byte lane takes byte 4(k mod 4) + k/4: a 4×4 byte
	// transpose inside every group of four dwords.
	constByteTranspose = qwords("ariaByteTranspose", 0x0d0905010c080400, 0x0f0b07030e0a0602)
	// constSplat[j] repeats byte j of each lane over the lane.
	for j := range constSplat {
		constSplat[j] = qwords(fmt.Sprintf("ariaSplat%d", j), 0x0101010101010101*uint64(j))
	}
	// constCTRIndex[lanes]: byte q of lane l holds q·lanes+l, the index of
	// the block there in byte-sliced order.
	constCTRIndex = map[int]Mem{}
	for _, lanes := range []int{1, 2, 4} {
		var q [8]uint64
		for l := 0; l < 4; l++ {
			for b := 0; b < 16; b++ {
				q[(16*l+b)/8] |= uint64(b*lanes+l%lanes) << (8 * (b % 8))
			}
		}
		constCTRIndex[lanes] = qwords(fmt.Sprintf("ariaCTRIndex%d", lanes), q[:]...)
	}
	// (0, 256) in each lane: (low, low+256) from low.
	constCTRCarry = qwords("ariaCTRCarry", 0, 256)
	// Byte 7-s of a qword in each byte of uint32 s, s = 0..3 in the low
	// 128-bit lane and 4..7 in the high one.
	constCTRPrepBytes = qwords("ariaCTRPrepBytes", 0x0606060607070707, 0x0404040405050505, 0x0202020203030303, 0x0000000001010101)
	// AES ShiftRows applied twice, as a PSHUFB control on a 16-byte state
	// (byte 4c+r is row r of column c; ShiftRows takes byte i from
	// i+4(i mod 4)): row r rotated by 2r, its own inverse.
	var sr2 [2]uint64
	for i := 0; i < 16; i++ {
		sr := func(j int) int { return (j + 4*(j%4)) % 16 }
		sr2[i/8] |= uint64(sr(sr(i))) << (8 * (i % 8))
	}
	constShiftRows2 = qwords("ariaShiftRows2", sr2[0], sr2[1])
	constZero = qwords("ariaZero", 0)
	constNibbleMask = qwords("ariaNibbleMask", 0x0f0f0f0f0f0f0f0f)
	post, pre := affineTables()
	constSB2PostLo = qwords("ariaSB2PostLo", post[0][0], post[0][1])
	constSB2PostHi = qwords("ariaSB2PostHi", post[1][0], post[1][1])
	constSB4PreLo = qwords("ariaSB4PreLo", pre[0][0], pre[0][1])
	constSB4PreHi = qwords("ariaSB4PreHi", pre[1][0], pre[1][1])
}

// slices tracks where each of the 16 byte slices (or, during the
// transposes, the 16 loaded vectors) lives: in a register, or spilled to
// its stack cell.
type slices struct {
	w        width
	reg      [16]reg.VecPhysical
	resident [16]bool
	home     [16]int // spill cell of the slot; a permutation of 0..15
	free     *vec.Pool
	spill    Mem
	mats     [5]Op // SB1, SB2, SB1⁻¹, SB2⁻¹, identity: registers or memory
	xpose    Op    // byte-transpose shuffle
	// gap, when set, is called at gapCount points with every slice
	// resident and the state as it is there: 0 before the first round and
	// r+1 after round r of the first 11 (those every key size runs). The
	// work of a stitched kernel goes there. (A point after the last round,
	// among the output transpose's shuffles, measured slower.)
	gap func(s *slices, p int)
}

func newSlices(w width) *slices {
	s := &slices{w: w}
	for i := range s.home {
		s.home[i] = i
	}
	pool := 16
	if w.evex() {
		// Z25..Z31 hold the constants; Z0..Z24 are the pool.
		pool = 25
		for i, c := range []Mem{constSB1, constSB2, constSB1Inv, constSB2Inv, constIdent} {
			r := w.Reg(26 + i)
			VPBROADCASTQ(c, r)
			s.mats[i] = r
		}
		w.Load(constByteTranspose, w.Reg(25))
		s.xpose = w.Reg(25)
	} else {
		s.spill = AllocLocal(16 * w.bytes())
		for i, c := range []Mem{constSB1, constSB2, constSB1Inv, constSB2Inv, constIdent} {
			s.mats[i] = c
		}
		s.xpose = constByteTranspose
	}
	s.free = vec.NewPool()
	for i := pool - 1; i >= 0; i-- {
		s.free.Put(w.Reg(i))
	}
	return s
}

func (s *slices) clone() *slices {
	c := *s
	c.free = s.free.Clone()
	return &c
}

func (s *slices) cell(i int) Mem { return s.spill.Offset(s.home[i] * s.w.bytes()) }

// alloc returns a free register, spilling a resident slot outside keep
// when there is none.
func (s *slices) alloc(keep ...int) reg.VecPhysical {
	if r, ok := s.free.Get(); ok {
		return r
	}
	// Spill the resident slot furthest from the ones in use, in a fixed
	// order so that output is deterministic.
	for d := 15; d >= 0; d-- {
		for i := 0; i < 16; i++ {
			if !s.resident[i] || contains(keep, i) || distance(i, keep) != d {
				continue
			}
			s.mov(s.reg[i], s.cell(i))
			s.resident[i] = false
			return s.reg[i]
		}
	}
	panic("aria generator: no register to spill")
}

func distance(i int, keep []int) int {
	d := 16
	for _, k := range keep {
		d = min(d, (i-k+16)%16)
	}
	return d
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func (s *slices) release(r reg.VecPhysical) { s.free.Put(r) }

// need makes the slots resident, reloading spilled ones.
func (s *slices) need(idx ...int) {
	for _, i := range idx {
		if !s.resident[i] {
			r := s.alloc(idx...)
			s.mov(s.cell(i), r)
			s.reg[i], s.resident[i] = r, true
		}
	}
}

// set makes r the register of slot i.
func (s *slices) set(i int, r reg.VecPhysical) { s.reg[i], s.resident[i] = r, true }

func (s *slices) mov(src, dst Op)  { s.w.Mov(src, dst) }
func (s *slices) xor(a, b, dst Op) { s.w.Xor(a, b, dst) }

// permute renames slots: new slot i is old slot from[i].
func (s *slices) permute(from [16]int) {
	old := *s
	for i, f := range from {
		s.reg[i], s.resident[i], s.home[i] = old.reg[f], old.resident[f], old.home[f]
	}
}

// threeOfFour replaces slots a, b, c, d (x0..x3) by y0..y3 with
// yk = XOR of the three x other than xk, and returns the registers now
// holding y0..y3 so the caller can assign them to slots.
//
// With VPTERNLOGQ it takes four instructions and no temporary, each output
// recovering the input it overwrote from the outputs before it:
// y0 = x1⊕x2⊕x3 over x1, y2 = x2⊕x0⊕y0 over x2, y3 = x3⊕x0⊕y0 over x3,
// y1 = x0⊕y2⊕y3 over x0. With two-operand XORs it takes six and one
// temporary: t = x1⊕x2 gives y3 = x0⊕t and y0 = x3⊕t, then t = y3⊕y0 =
// x0⊕x3 gives y1 = x2⊕t and y2 = x1⊕t.
func (s *slices) threeOfFour(a, b, c, d int) [4]reg.VecPhysical {
	s.need(a, b, c, d)
	x0, x1, x2, x3 := s.reg[a], s.reg[b], s.reg[c], s.reg[d]
	if s.w.evex() {
		VPTERNLOGQ(U8(0x96), x3, x2, x1) // y0
		VPTERNLOGQ(U8(0x96), x1, x0, x2) // y2
		VPTERNLOGQ(U8(0x96), x1, x0, x3) // y3
		VPTERNLOGQ(U8(0x96), x3, x2, x0) // y1
		return [4]reg.VecPhysical{x1, x0, x2, x3}
	}
	t := s.alloc(a, b, c, d)
	s.xor(x2, x1, t) // t = x1⊕x2
	s.xor(t, x0, x0) // x0 = x0⊕x1⊕x2 = y3
	s.xor(t, x3, x3) // x3 = x1⊕x2⊕x3 = y0
	s.xor(x3, x0, t) // t = x0⊕x3
	s.xor(t, x2, x2) // y1
	s.xor(t, x1, x1) // y2
	s.release(t)
	return [4]reg.VecPhysical{x3, x2, x1, x0}
}

// addKey XORs slot i with byte i of round key r. The GFNI kernels take each
// key byte repeated in a uint32 and broadcast it; the AES-NI kernel takes
// it repeated over 16 bytes and XORs from memory.
func (s *slices) addKey(rk reg.Register, r, i int) {
	s.need(i)
	k := Mem{Base: rk, Disp: 4 * (16*r + i)}
	if s.w.aesni {
		k.Disp *= 4
		if s.w.W == vec.W128 {
			s.xor(k, s.reg[i], s.reg[i])
			return
		}
	}
	if s.w.evex() {
		VPXORD_BCST(k, s.reg[i], s.reg[i])
		return
	}
	t := s.alloc(i)
	s.w.BroadcastDword(k, t)
	s.xor(t, s.reg[i], s.reg[i])
	s.release(t)
}

// sbox applies SB1..SB4 (kind 0..3) to slot i. The AES-NI S-boxes also
// add their round instruction's key operand, key.
func (s *slices) sbox(i, kind int, key Mem) {
	if s.w.aesni {
		s.sboxAESNI(i, kind, key)
		return
	}
	s.need(i)
	x := s.reg[i]
	switch kind {
	case 0:
		VGF2P8AFFINEINVQB(U8(cSB1), s.mats[0], x, x)
	case 1:
		VGF2P8AFFINEINVQB(U8(cSB2), s.mats[1], x, x)
	case 2:
		VGF2P8AFFINEQB(U8(cSB3Pre), s.mats[2], x, x)
		VGF2P8AFFINEINVQB(U8(0), s.mats[4], x, x)
	case 3:
		VGF2P8AFFINEQB(U8(cSB4Pre), s.mats[3], x, x)
		VGF2P8AFFINEINVQB(U8(0), s.mats[4], x, x)
	}
}

// sboxAESNI computes the S-boxes with the AES round instructions:
// AESENCLAST is SubBytes (SB1) after ShiftRows, AESDECLAST is InvSubBytes
// (SB3) after InvShiftRows, each followed by the XOR of its key operand.
// That operand adds the next round key for free: the AES-NI kernels take,
// for round r's substitution, A(key r+1) (the last one: the last key
// itself), which the diffusion layer turns into key r+1, and where SB2's
// affine map L follows the instruction, that through L's linear part
// inverted (aria's foldAESKeys); only the first round adds its key itself. SB2 = L∘SB1 and SB4 = SB3∘L⁻¹ for
// an affine map L (derived in affineTables), applied as two 16-entry nibble
// look-ups with PSHUFB on constant tables: nothing indexes memory by data.
//
// In byte-sliced form the 16 bytes of a 128-bit lane are 16 different
// blocks, so the row shifts only reorder blocks, and that is harmless as
// long as every slice gets the same order. AESENCLAST's ShiftRows (SR) is
// left alone; before AESDECLAST a PSHUFB by SR² makes its InvShiftRows come
// out as SR too. Every slice goes through one S-box a round, so after n
// rounds all of them are in the block order SR^n: the identity for 12 and
// 16 rounds (SR has order 4), and SR² for 14, which the last round undoes
// (see unshift). That halves the shuffles of the substitution layer.
//
// halves runs each YMM register through the XMM instructions lane by lane
// (the VEX forms zero the upper lane, which VINSERTI128 then refills).
func (s *slices) sboxAESNI(i, kind int, key Mem) {
	s.need(i)
	x := s.reg[i]
	round := func(f func(k, x, dst Op)) {
		switch {
		case s.w.W == vec.W128:
			f(key, x, x)
		case !s.w.halves:
			t := s.alloc(i)
			VBROADCASTI128(key, t)
			f(t, x, x)
			s.release(t)
		default:
			t := s.alloc(i)
			VEXTRACTI128(U8(1), x, t.AsX())
			f(key, x.AsX(), x.AsX())
			f(key, t.AsX(), t.AsX())
			VINSERTI128(U8(1), t.AsX(), x, x)
			s.release(t)
		}
	}
	enc := func(k, x, dst Op) { VAESENCLAST(k, x, dst) }
	dec := func(k, x, dst Op) { VAESDECLAST(k, x, dst) }
	switch kind {
	case 0, 1:
		round(enc)
		if kind == 1 {
			s.nibbleAffine(i, constSB2PostLo, constSB2PostHi)
		}
	case 2, 3:
		if kind == 3 {
			s.nibbleAffine(i, constSB4PreLo, constSB4PreHi)
		}
		VPSHUFB(constShiftRows2, x, x)
		round(dec)
	}
}

// unshift puts the blocks of every slot back in order after n rounds of
// sboxAESNI, which leave them in the order SR^n.
func (s *slices) unshift(n int) {
	switch n % 4 {
	case 0:
		return
	case 2:
		for i := 0; i < 16; i++ {
			s.need(i)
			VPSHUFB(constShiftRows2, s.reg[i], s.reg[i])
		}
	default:
		panic("aria generator: odd round count")
	}
}

// nibbleAffine replaces each byte b of slot i by lo[b&15] ⊕ hi[b>>4].
func (s *slices) nibbleAffine(i int, lo, hi Mem) {
	x := s.reg[i]
	t, u := s.alloc(i), s.alloc(i)
	emitNibbleAffine(x, x, t, u, lo, hi)
	s.release(u)
	s.release(t)
}

// emitNibbleAffine sets dst to lo[b&15] ⊕ hi[b>>4] for each byte b of src
// (dst may be src), through two PSHUFB look-ups in registers; t and u are
// scratch. The sliced kernels and the one-block kernel both use it.
func emitNibbleAffine(src, dst, t, u reg.Register, lo, hi Mem) {
	VPAND(constNibbleMask, src, t)
	VPSRLW(U8(4), src, dst)
	VPAND(constNibbleMask, dst, dst)
	VMOVDQU(lo, u)
	VPSHUFB(t, u, t)
	VMOVDQU(hi, u)
	VPSHUFB(dst, u, dst)
	VPXOR(t, dst, dst)
}

// substitute is key addition and the substitution layer: SL1 (SB1, SB2,
// SB3, SB4 repeated) in odd rounds, SL2 (SB3, SB4, SB1, SB2) in even ones,
// for the slots given (all when none are). r counts rounds from 0, so SL1
// is for even r. keyed says the previous round's diffusion already added
// the key.
func (s *slices) substitute(rk reg.Register, r int, keyed bool, slots ...int) {
	if len(slots) == 0 {
		slots = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	}
	for _, i := range slots {
		if !keyed {
			s.addKey(rk, r, i)
		}
		kind := i % 4
		if r%2 == 1 {
			kind ^= 2
		}
		s.sbox(i, kind, Mem{Base: rk, Disp: 16 * (16*(r+1) + i)})
	}
}

// diffuse is ARIA's diffusion layer A = W∘P∘W∘M. On AVX-512 it also adds
// the next round's key r (see wordMixKeyed). then, when not nil, is called
// with the four slots each group of the last W completes: the caller
// substitutes them for the next round right there, so that in program
// order the next round's GFNI work (port 0 only on Intel) sits among this
// round's XORs instead of after all of them, and the two overlap.
func (s *slices) diffuse(rk reg.Register, r int, then func(slots ...int)) {
	if s.w.evex() {
		s.diffuseQuads(rk, r, then)
		return
	}
	// M: inside each word, each byte becomes the XOR of the other three.
	for w := 0; w < 4; w++ {
		y := s.threeOfFour(4*w, 4*w+1, 4*w+2, 4*w+3)
		for k := 0; k < 4; k++ {
			s.reg[4*w+k] = y[k]
		}
	}
	s.wordMix([]int{0, 1, 2, 3}, nil)
	// P: T1 swaps bytes in pairs, T2 swaps halves, T3 reverses.
	s.permute([16]int{0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12})
	// The next round's slow S-boxes (SB3 and SB4, two dependent GFNI
	// instructions) sit at byte positions 2, 3 of each word in odd rounds
	// (SL1) and 0, 1 in even ones; the last W makes them first, which
	// shortens the round's critical path.
	order := []int{2, 3, 0, 1}
	if r%2 == 1 {
		order = []int{0, 1, 2, 3}
	}
	if s.w.evex() {
		s.wordMixKeyed(rk, r, order, then)
	} else {
		s.wordMix(order, then)
	}
}

// diffusionQuads are the eight sets of four input bytes (one from each
// word) that ARIA's diffusion layer A uses as a whole: every output byte i
// is the XOR of two of them, diffusionOutputs[i][0] and [1], which share
// exactly one byte, diffusionOutputs[i][2], so that byte has to be added
// back. Each input byte is in two quads and is the shared byte of one
// output. checkDiffusion verifies this against A's rows (RFC 5794 2.4.3).
var (
	diffusionQuads   = [8][4]int{{0, 5, 11, 14}, {0, 7, 10, 13}, {1, 4, 10, 15}, {1, 6, 11, 12}, {2, 5, 8, 15}, {2, 7, 9, 12}, {3, 4, 9, 14}, {3, 6, 8, 13}}
	diffusionOutputs = [16][3]int{{6, 7, 3}, {4, 5, 2}, {2, 3, 1}, {0, 1, 0}, {0, 4, 5}, {2, 6, 4}, {1, 5, 7}, {3, 7, 6}, {1, 2, 10}, {0, 3, 11}, {4, 7, 8}, {5, 6, 9}, {3, 5, 12}, {1, 7, 13}, {0, 6, 14}, {2, 4, 15}}
)

// checkDiffusion panics unless the quads rebuild A, whose row i lists the
// seven input bytes of output byte i.
func checkDiffusion() {
	rows := [16][7]int{
		{3, 4, 6, 8, 9, 13, 14}, {2, 5, 7, 8, 9, 12, 15}, {1, 4, 6, 10, 11, 12, 15}, {0, 5, 7, 10, 11, 13, 14},
		{0, 2, 5, 8, 11, 14, 15}, {1, 3, 4, 9, 10, 14, 15}, {0, 2, 7, 9, 10, 12, 13}, {1, 3, 6, 8, 11, 12, 13},
		{0, 1, 4, 7, 10, 13, 15}, {0, 1, 5, 6, 11, 12, 14}, {2, 3, 5, 6, 8, 13, 15}, {2, 3, 4, 7, 9, 12, 14},
		{1, 2, 6, 7, 9, 11, 12}, {0, 3, 6, 7, 8, 10, 13}, {0, 3, 4, 5, 9, 11, 14}, {1, 2, 4, 5, 8, 10, 15},
	}
	mask := func(xs ...int) (m uint16) {
		for _, x := range xs {
			m ^= 1 << x
		}
		return m
	}
	for i, o := range diffusionOutputs {
		got := mask(diffusionQuads[o[0]][:]...) ^ mask(diffusionQuads[o[1]][:]...) ^ mask(o[2])
		if got != mask(rows[i][:]...) {
			panic(fmt.Sprintf("aria generator: diffusion output %d: quads give %016b", i, got))
		}
	}
}

// keyPlan says where diffuseQuads adds a diffused round's key. An output
// whose quads carry keys κa, κb gets κa ⊕ κb for nothing; it is "keyless"
// (one VPTERNLOGQ: its shared byte and both quads) when that is its key
// byte, and otherwise adds d = k ⊕ κa ⊕ κb itself (two instructions, as
// without keys in quads). Keyless outputs must form a forest in the graph
// whose nodes are the quads and whose edges are the outputs: a spanning
// tree from quad 0 makes seven of them keyless, with κ0 = 0 and each other
// quad's κ fixed by the output joining it to its parent. A quad with a key
// is a copy and two VPTERNLOGQ (the copy is a renaming on current Intel and
// AMD cores), one without one XOR and one VPTERNLOGQ, so a round's
// diffusion and key take 16 + 7 + 2·9 = 41 instructions.
//
// The kernels take for each diffused round 16 values: slot i is d_i for a
// keyed output i, and for a keyless one the κ of the quad it joins to the
// tree. mask[i] lists the round-key bytes XORed into slot i; aria's Go code
// applies it (keymix_amd64.go, written from mask by -keymix).
type keyPlan struct {
	keyless [16]bool
	quadKey [8]int // slot holding the quad's κ, or -1
	mask    [16]uint16
}

var plan = func() (p keyPlan) {
	var kappa [8]uint16
	seen := [8]bool{true}
	p.quadKey = [8]int{-1, -1, -1, -1, -1, -1, -1, -1}
	for queue := []int{0}; len(queue) > 0; queue = queue[1:] {
		a := queue[0]
		for i, o := range diffusionOutputs {
			b := -1
			switch a {
			case o[0]:
				b = o[1]
			case o[1]:
				b = o[0]
			}
			if b < 0 || seen[b] {
				continue
			}
			seen[b], p.keyless[i], p.quadKey[b] = true, true, i
			kappa[b] = kappa[a] ^ 1<<i
			p.mask[i] = kappa[b]
			queue = append(queue, b)
		}
	}
	for i, o := range diffusionOutputs {
		if !p.keyless[i] {
			p.mask[i] = 1<<i ^ kappa[o[0]] ^ kappa[o[1]]
		}
	}
	return p
}()

// writeKeyMix writes the Go table of plan.mask for package pkg.
func writeKeyMix(path, pkg string) {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by command: go run ./aria -keymix. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "//go:build amd64 && !purego\n\npackage %s\n\n", pkg)
	fmt.Fprintf(&b, "// diffusionKeyMasks: for each round key added inside the diffusion layer\n")
	fmt.Fprintf(&b, "// by the AVX-512 kernels, slot i takes the XOR of the key bytes whose bits\n")
	fmt.Fprintf(&b, "// are set in diffusionKeyMasks[i] (see keyPlan in _asm/aria).\n")
	fmt.Fprintf(&b, "var diffusionKeyMasks = [16]uint16{")
	for i, m := range plan.mask {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%#04x", m)
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		panic(err)
	}
}

// diffuseQuads is A followed by the addition of round key r, for AVX-512,
// through the quads: each quad is one XOR and one VPTERNLOGQ, or a copy and
// two VPTERNLOGQ when it carries a key (16); each output is its shared
// byte, one quad and its key byte in one VPTERNLOGD with embedded
// broadcast, then the other quad, or one VPTERNLOGQ when keyless (25): 41
// instructions, against 56 for W∘P∘W∘M with the key (the round keys come
// laid out by keyPlan for this). The outputs land in the registers of their
// shared bytes, each free once its quads are built; the quads need eight
// registers besides the 16 slices. Outputs whose next S-box is the slow
// one (two GFNI instructions) come first, as in wordMixKeyed.
func (s *slices) diffuseQuads(rk reg.Register, r int, then func(slots ...int)) {
	var x [16]reg.VecPhysical
	for i := range x {
		s.need(i)
		x[i] = s.reg[i]
	}
	key := func(i int) Mem { return Mem{Base: rk, Disp: 4 * (16*r + i)} }
	var quad [8]reg.VecPhysical
	var uses [8]int
	for j, q := range diffusionQuads {
		t := s.alloc()
		if k := plan.quadKey[j]; k >= 0 {
			s.w.Copy(x[q[0]], t)
			VPTERNLOGQ(U8(0x96), x[q[2]], x[q[1]], t)
			VPTERNLOGD_BCST(U8(0x96), key(k), x[q[3]], t)
		} else {
			VPXORQ(x[q[1]], x[q[0]], t)
			VPTERNLOGQ(U8(0x96), x[q[3]], x[q[2]], t)
		}
		quad[j] = t
	}
	var order []int
	for _, slow := range []bool{true, false} {
		for i := 0; i < 16; i++ {
			kind := i % 4
			if r%2 == 1 {
				kind ^= 2
			}
			if (kind >= 2) == slow {
				order = append(order, i)
			}
		}
	}
	for _, i := range order {
		o := diffusionOutputs[i]
		y := x[o[2]]
		if plan.keyless[i] {
			VPTERNLOGQ(U8(0x96), quad[o[1]], quad[o[0]], y)
		} else {
			VPTERNLOGD_BCST(U8(0x96), key(i), quad[o[0]], y)
			VPXORQ(quad[o[1]], y, y)
		}
		for _, j := range o[:2] {
			if uses[j]++; uses[j] == 4 {
				s.release(quad[j])
			}
		}
		s.set(i, y)
		if then != nil {
			then(i)
		}
	}
}

// wordMixKeyed is W followed by the addition of round key r, for AVX-512:
// with t = T1⊕T2 and u = T0⊕T3 each output is one register and two more
// terms, t or u and its key byte, so a VPTERNLOGD with the key byte as an
// embedded broadcast gives it: six instructions for the four outputs and
// their keys, against eight for the four-instruction W and four key XORs.
func (s *slices) wordMixKeyed(rk reg.Register, r int, order []int, then func(slots ...int)) {
	key := func(i int) Mem { return Mem{Base: rk, Disp: 4 * (16*r + i)} }
	for _, j := range order {
		a, b, c, d := j, 4+j, 8+j, 12+j
		s.need(a, b, c, d)
		x0, x1, x2, x3 := s.reg[a], s.reg[b], s.reg[c], s.reg[d]
		t, u := s.alloc(a, b, c, d), s.alloc(a, b, c, d)
		VPXORQ(x2, x1, t)                        // T1⊕T2
		VPXORQ(x3, x0, u)                        // T0⊕T3
		VPTERNLOGD_BCST(U8(0x96), key(a), t, x0) // T0' = T0⊕T1⊕T2
		VPTERNLOGD_BCST(U8(0x96), key(d), t, x3) // T3' = T1⊕T2⊕T3
		VPTERNLOGD_BCST(U8(0x96), key(b), u, x2) // T1' = T0⊕T2⊕T3
		VPTERNLOGD_BCST(U8(0x96), key(c), u, x1) // T2' = T0⊕T1⊕T3
		s.reg[a], s.reg[b], s.reg[c], s.reg[d] = x0, x2, x1, x3
		s.release(u)
		s.release(t)
		if then != nil {
			then(a, b, c, d)
		}
	}
}

// wordMix is W: at each byte position j, T0..T3 become T0⊕T1⊕T2,
// T0⊕T2⊕T3, T0⊕T1⊕T3, T1⊕T2⊕T3, which are y3, y1, y2, y0 of threeOfFour.
func (s *slices) wordMix(order []int, then func(slots ...int)) {
	for _, j := range order {
		y := s.threeOfFour(j, 4+j, 8+j, 12+j)
		s.reg[j], s.reg[4+j], s.reg[8+j], s.reg[12+j] = y[3], y[1], y[2], y[0]
		if then != nil {
			then(j, 4+j, 8+j, 12+j)
		}
	}
}

// transpose4 transposes the dwords of slots a, b, c, d within each 128-bit
// lane (slot a's dword k and slot k's dword 0 trade places, and so on).
func (s *slices) transpose4(a, b, c, d int) {
	s.need(a, b, c, d)
	r0, r1, r2, r3 := s.reg[a], s.reg[b], s.reg[c], s.reg[d]
	t0 := s.alloc(a, b, c, d)
	t1 := s.alloc(a, b, c, d)
	VPUNPCKLDQ(r1, r0, t0) // r0.0 r1.0 r0.1 r1.1
	VPUNPCKHDQ(r1, r0, t1) // r0.2 r1.2 r0.3 r1.3
	VPUNPCKLDQ(r3, r2, r0) // r2.0 r3.0 r2.1 r3.1
	VPUNPCKHDQ(r3, r2, r1) // r2.2 r3.2 r2.3 r3.3
	VPUNPCKLQDQ(r0, t0, r2)
	VPUNPCKHQDQ(r0, t0, r3)
	VPUNPCKLQDQ(r1, t1, t0)
	VPUNPCKHQDQ(r1, t1, r0)
	s.set(a, r2)
	s.set(b, r3)
	s.set(c, t0)
	s.set(d, r0)
	s.release(r1)
	s.release(t1)
}

// Slot 4a+b holds slice 4b+a after the transpose steps, and vice versa.
var sliceOrder = [16]int{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}

// toSlices turns 16 loaded vectors (slot i = bytes i·W..) into byte
// slices, calling then with each word's four slices as soon as they are
// complete, so the first round's substitution (GFNI, port 0) overlaps the
// transpose (shuffles, port 5).
func (s *slices) toSlices(then func(slots ...int)) {
	if s.w.evex() {
		s.toSlicesUnpack(then)
		return
	}
	for a := 0; a < 4; a++ {
		s.transpose4(4*a, 4*a+1, 4*a+2, 4*a+3)
		for b := 0; b < 4; b++ {
			s.need(4*a + b)
			VPSHUFB(s.xpose, s.reg[4*a+b], s.reg[4*a+b])
		}
	}
	// Renamed first: the last step's group b, old slots b, 4+b, 8+b and
	// 12+b, becomes word b, slices 4b..4b+3.
	s.permute(sliceOrder)
	for b := 0; b < 4; b++ {
		s.transpose4(4*b, 4*b+1, 4*b+2, 4*b+3)
		then(4*b, 4*b+1, 4*b+2, 4*b+3)
	}
}

// bitReversed[i] is i with its four bits in reverse order.
var bitReversed = [16]int{0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15}

// unpacks[size] are the low and high unpack instructions for units of
// 1<<size bytes.
var unpacks = [4][2]func(ops ...Op){
	{VPUNPCKLBW, VPUNPCKHBW},
	{VPUNPCKLWD, VPUNPCKHWD},
	{VPUNPCKLDQ, VPUNPCKHDQ},
	{VPUNPCKLQDQ, VPUNPCKHQDQ},
}

// unpack interleaves slots lo and hi in units of 1<<size bytes within each
// 128-bit lane: the low halves' units go to lo, the high halves' to hi, lo's
// unit first in each pair.
func (s *slices) unpack(size, lo, hi int) {
	s.need(lo, hi)
	a, b := s.reg[lo], s.reg[hi]
	t := s.alloc(lo, hi)
	low, high := unpacks[size][0], unpacks[size][1]
	low(b, a, t)
	high(b, a, a)
	s.set(lo, t)
	s.set(hi, a)
	s.release(b)
}

// toSlicesUnpack is toSlices for AVX-512 in 64 instead of 80 shuffles: four
// rounds of unpacks, bytes to quadwords, the one with units of 1<<k bytes
// pairing the slots whose numbers differ in bit k. Byte j of a 128-bit lane
// of slot i ends up in slot bitReversed[j], at byte i: the blocks are in the
// same lane order as toSlices leaves them (and ctr expects).
//
// After the byte unpacks, the positions whose numbers share their lowest
// bits form independent groups for the remaining rounds; finishing one
// group before the next makes the first four slices ready after 32
// shuffles instead of 50 (round by round), so the first round's
// substitution starts earlier: ECB about 2.5% faster.
func (s *slices) toSlicesUnpack(then func(slots ...int)) {
	for i := 0; i < 16; i += 2 {
		s.unpack(0, i, i+1)
	}
	// Renamed first: position p lives in slot bitReversed[p] from here on.
	s.permute(bitReversed)
	var group func(size, low int)
	group = func(size, low int) {
		if size == 4 {
			return
		}
		mask := 1<<size - 1
		for p := 0; p < 16; p++ {
			if p&mask == low && p>>size&1 == 0 {
				lo, hi := bitReversed[p], bitReversed[p|1<<size]
				s.unpack(size, lo, hi)
				if size == 3 {
					then(lo, hi)
				}
			}
		}
		group(size+1, low)
		group(size+1, low|1<<size)
	}
	group(1, 0)
	group(1, 1)
}

// fromSlicesUnpack inverts toSlicesUnpack: the same unpacks with the
// pairing bits in reverse order, on the slices in bit-reversed order.
func (s *slices) fromSlicesUnpack() {
	s.permute(bitReversed)
	for size := 0; size < 4; size++ {
		bit := 3 - size
		for i := 0; i < 16; i++ {
			if i>>bit&1 == 0 {
				s.unpack(size, i, i|1<<bit)
			}
		}
	}
}

// fromSlices is the inverse of toSlices: slot i becomes output vector i.
func (s *slices) fromSlices() {
	if s.w.evex() {
		s.fromSlicesUnpack()
		return
	}
	s.permute(sliceOrder)
	for b := 0; b < 4; b++ {
		s.transpose4(b, 4+b, 8+b, 12+b)
	}
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			s.need(4*a + b)
			VPSHUFB(s.xpose, s.reg[4*a+b], s.reg[4*a+b])
		}
		s.transpose4(4*a, 4*a+1, 4*a+2, 4*a+3)
	}
}

// cipher emits the rounds for 12, 14 or 16 rounds, chosen by the value in
// rounds, and calls finish (the kernel's epilogue, ending in RET) once for
// each, with the slot state it leaves.
//
// first produces the byte slices and calls sub with each group of them as
// they become ready, for the first round's substitution.
func cipher(s *slices, rk, rounds reg.Register, name string, first func(sub func(slots ...int)), finish func(*slices)) {
	// Each round's diffusion substitutes for the next round as it goes, so
	// only the first round substitutes on its own. On AVX-512 the
	// diffusion also adds the next round's key.
	round := func(r int) {
		Commentf("Round %d", r+1)
		if r == 0 {
			first(func(slots ...int) { s.substitute(rk, 0, false, slots...) })
		}
		s.diffuse(rk, r+1, func(slots ...int) {
			s.substitute(rk, r+1, s.w.evex() || s.w.aesni, slots...)
		})
		if s.gap != nil && r < 11 {
			s.gap(s, r+1)
		}
	}
	last := func(n int) {
		Commentf("Round %d (last): key %d added and substituted by round %d", n, n, n-1)
		for i := 0; i < 16; i++ {
			if !s.w.aesni { // the AES-NI S-boxes added it
				s.addKey(rk, n, i)
			}
		}
		if s.w.aesni {
			s.unshift(n)
		}
		s.fromSlices()
		finish(s)
	}
	if s.gap != nil {
		s.gap(s, 0)
	}
	for r := 0; r < 11; r++ {
		round(r)
	}
	for _, n := range []int{12, 14} {
		more := fmt.Sprintf("%s_more%d", name, n)
		CMPQ(rounds, U8(n))
		JNE(LabelRef(more))
		saved := s.clone()
		last(n)
		s = saved
		Label(more)
		round(n - 1)
		round(n)
	}
	last(16)
}

func vecMem(base reg.Register, w width, i int) Mem {
	return Mem{Base: base, Disp: i * w.bytes()}
}

func kernelName(kind string, w width) string {
	if w.aesni && w.W == vec.W256 && !w.halves {
		return fmt.Sprintf("aria%s%dVAES", kind, w.blocks())
	}
	if w.aesni {
		return fmt.Sprintf("aria%s%dAESNI", kind, w.blocks())
	}
	return fmt.Sprintf("aria%s%d", kind, w.blocks())
}

func arraySig(w width) string { return fmt.Sprintf("*[%d]byte", 16*w.blocks()) }

// loadBatch returns the slices of a batch whose 16 vectors it loads from
// src, vector i into slice i.
func loadBatch(w width, src reg.Register) *slices {
	s := newSlices(w)
	for i := 0; i < 16; i++ {
		r := s.alloc(i)
		s.mov(vecMem(src, w, i), r)
		s.set(i, r)
	}
	return s
}

// ecb emits aria<ECB><blocks>: one batch with the given round keys.
func ecb(w width) {
	name := kernelName("ECB", w)
	TEXT(name, w.attr(), fmt.Sprintf("func(rk *uint32, rounds int, dst, src %s)", arraySig(w)))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s encrypts or decrypts %d blocks with expanded round keys rk.", name, w.blocks()))
	rk, rounds := Load(Param("rk"), GP64()), Load(Param("rounds"), GP64())
	dst, src := Load(Param("dst"), GP64()), Load(Param("src"), GP64())
	s := loadBatch(w, src)
	cipher(s, rk, rounds, name, s.toSlices, func(s *slices) {
		for i := 0; i < 16; i++ {
			s.need(i)
			s.mov(s.reg[i], vecMem(dst, w, i))
		}
		w.Return()
	})
}

// cbcDecrypt emits aria<CBCDecrypt><blocks>: one batch of CBC decryption
// chained from *iv. It leaves *iv alone: the caller keeps the chaining value.
func cbcDecrypt(w width) {
	name := kernelName("CBCDecrypt", w)
	TEXT(name, w.attr(), fmt.Sprintf("func(rk *uint32, rounds int, dst, src %s, iv *[16]byte)", arraySig(w)))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s CBC-decrypts %d blocks with decryption round keys rk, chaining from *iv.", name, w.blocks()),
		"It works in place: each vector's previous ciphertext is read before any store can overwrite it.")
	rk, rounds := Load(Param("rk"), GP64()), Load(Param("rounds"), GP64())
	dst, src := Load(Param("dst"), GP64()), Load(Param("src"), GP64())
	iv := Load(Param("iv"), GP64())
	s := loadBatch(w, src)
	cipher(s, rk, rounds, name, s.toSlices, func(s *slices) {
		// Vector i's previous ciphertext starts 16 bytes before it; stores
		// go from the top so that none overwrites ciphertext still unread.
		for i := 15; i >= 1; i-- {
			s.need(i)
			s.xor(Mem{Base: src, Disp: i*w.bytes() - 16}, s.reg[i], s.reg[i])
			s.mov(s.reg[i], vecMem(dst, w, i))
			s.resident[i] = false
			s.release(s.reg[i])
		}
		s.need(0)
		x := s.reg[0]
		switch w.bytes() {
		case 16:
			s.xor(Mem{Base: iv}, x, x)
		case 32:
			t := s.alloc(0)
			VMOVDQU(Mem{Base: iv}, t.AsX())
			VINSERTI128(U8(1), Mem{Base: src}, t, t)
			s.xor(t, x, x)
		case 64:
			t, u := s.alloc(0), s.alloc(0)
			w.BroadcastLane(Mem{Base: iv}, t)
			w.Load(Mem{Base: src}, u)
			VALIGNQ(U8(6), t, u, t) // iv, then the first 48 bytes of src
			s.xor(t, x, x)
		}
		s.mov(x, vecMem(dst, w, 0))
		w.Return()
	})
}

// ctr emits aria<CTR><blocks>: XORs src with the encryption of counter
// blocks ctr, ctr+1, ... ctr+blocks-1, with *ctr = {high, low, low+256}
// halves as native integers and no wrap of the low half within the batch
// (the caller ensures it). The caller advances the counter.
//
// The counter blocks are built directly as byte slices, with no transpose:
// slice s (0..7) is byte s of the big-endian high half, the same in every
// block; slice 15 is the low byte of low plus the block's index; slices
// 8..14 are bytes of low, or of low+256 in the blocks where that addition
// carried out of the low byte (the index never exceeds 255). A block's
// index at byte q of 128-bit lane l is q·lanes+l, the order the transpose
// out of byte slices puts blocks in.
func ctr(w width) { ctrKernel(w, false) }

// ctrKernel emits ctr's kernel, or with stitched (AVX-512 only) its
// GCM form aria<CTRGHASH><blocks>, which also folds a batch of GHASH input
// into a running state between the rounds (see ghash.go).
func ctrKernel(w width, stitched bool) {
	name := kernelName("CTR", w)
	sig := fmt.Sprintf("func(rk *uint32, rounds int, dst, src %s, ctr *[7]uint64", arraySig(w))
	if stitched {
		name = kernelName("CTRGHASH", w)
		sig += fmt.Sprintf(", hk *byte, y *[16]byte, gsrc %s", arraySig(w))
	}
	TEXT(name, w.attr(), sig+")")
	Pragma("noescape")
	doc := []string{fmt.Sprintf("%s XORs %d blocks of src with the keystream of counter *ctr (high, low, low+256) onwards.", name, w.blocks())}
	if w.evex() {
		doc = append(doc, "ctr[3:7] holds what ariaCTRPrep put there for this key and high half.")
	}
	if stitched {
		doc = append(doc, ghashDoc...)
	}
	Doc(doc...)
	rk, rounds := Load(Param("rk"), GP64()), Load(Param("rounds"), GP64())
	dst, src := Load(Param("dst"), GP64()), Load(Param("src"), GP64())
	ctrp := Load(Param("ctr"), GP64())
	s := newSlices(w)
	if stitched {
		s.gap = newGHASHStitch(s).gap
	}
	lane := w.BroadcastLane
	// hl = (high, low) and lc = (low, low+256) in every lane; byte j of
	// either is splat by a PSHUFB with constSplat[j].
	hl, lc := s.alloc(), s.alloc()
	if w.bytes() >= 32 {
		// The caller has just stored the low half: a 16-byte load over it
		// and a neighbour would wait for the store to retire instead of
		// taking its value from the store buffer (about 10% of a batch
		// measured), so the halves come as 8-byte loads, and low+256 is
		// added here.
		low := s.alloc()
		VPBROADCASTQ(Mem{Base: ctrp}, hl)
		VPBROADCASTQ(Mem{Base: ctrp, Disp: 8}, low)
		VPADDQ(constCTRCarry, low, lc)
		VPUNPCKLQDQ(low, hl, hl)
		s.release(low)
	} else {
		lane(Mem{Base: ctrp}, hl)
		lane(Mem{Base: ctrp, Disp: 8}, lc)
	}
	low := s.alloc()
	VPSHUFB(constSplat[8], hl, low)
	VPADDB(constCTRIndex[w.lanes()], low, low)
	var noCarry reg.VecPhysical
	if w.evex() {
		VPCMPUB(U8(1), constCTRIndex[w.lanes()], low, reg.K1) // carried: low byte < index
	} else {
		noCarry = s.alloc()
		VPMAXUB(constCTRIndex[w.lanes()], low, noCarry)
		VPCMPEQB(low, noCarry, noCarry)
	}
	for sl := 8; sl <= 14; sl++ {
		j := 15 - sl // byte of the native low half
		x := s.alloc()
		VPSHUFB(constSplat[8+j], hl, x)
		if w.evex() {
			VPSHUFB(constSplat[8+j], lc, reg.K1, x)
		} else {
			t := s.alloc()
			VPSHUFB(constSplat[8+j], lc, t)
			VPBLENDVB(noCarry, x, t, x)
			s.release(t)
		}
		s.set(sl, x)
	}
	s.set(15, low)
	s.release(lc)
	if !w.evex() {
		s.release(noCarry)
	}
	firstRound := func(sub func(slots ...int)) { sub() }
	if w.evex() {
		// Slices 0..7, the high half, are the same in every batch of a
		// call, and so is the first round's key addition and substitution
		// on them: ariaCTRPrep did it once, each byte in a uint32.
		for sl := 0; sl < 8; sl++ {
			x := hl
			if sl < 7 {
				x = s.alloc()
			}
			VPBROADCASTD(Mem{Base: ctrp, Disp: 24 + 4*sl}, x)
			s.set(sl, x)
		}
		firstRound = func(sub func(slots ...int)) { sub(8, 9, 10, 11, 12, 13, 14, 15) }
	} else {
		for sl := 0; sl < 8; sl++ {
			x := hl
			if sl < 7 {
				x = s.alloc()
			}
			VPSHUFB(constSplat[7-sl], hl, x)
			s.set(sl, x)
		}
	}
	cipher(s, rk, rounds, name, firstRound, func(s *slices) {
		for i := 0; i < 16; i++ {
			s.need(i)
			s.xor(vecMem(src, w, i), s.reg[i], s.reg[i])
			s.mov(s.reg[i], vecMem(dst, w, i))
		}
		w.Return()
	})
}

// ctrPrep emits ariaCTRPrep, which does the first round's key addition and
// substitution on the counter's high half once per call for ariaCTR64.
func ctrPrep() {
	TEXT("ariaCTRPrep", NOSPLIT, "func(rk *uint32, ctr *[7]uint64)")
	Pragma("noescape")
	Doc("ariaCTRPrep stores in ctr[3:7], as eight uint32, the bytes of the big-endian",
		"high half ctr[0] XORed with the first round key rk and substituted",
		"(SB1, SB2, SB3, SB4, SB1, ...), each byte repeated four times.")
	rk, ctrp := Load(Param("rk"), GP64()), Load(Param("ctr"), GP64())
	x, t := YMM(), YMM()
	y := [4]reg.VecVirtual{YMM(), YMM(), YMM(), YMM()}
	VPBROADCASTQ(Mem{Base: ctrp}, x)
	// uint32 s takes byte 7-s of the native uint64: big-endian byte s.
	VPSHUFB(constCTRPrepBytes, x, x)
	VPXOR(Mem{Base: rk}, x, x)
	VGF2P8AFFINEINVQB(U8(cSB1), constSB1, x, y[0])
	VGF2P8AFFINEINVQB(U8(cSB2), constSB2, x, y[1])
	VGF2P8AFFINEQB(U8(cSB3Pre), constSB1Inv, x, t)
	VGF2P8AFFINEINVQB(U8(0), constIdent, t, y[2])
	VGF2P8AFFINEQB(U8(cSB4Pre), constSB2Inv, x, t)
	VGF2P8AFFINEINVQB(U8(0), constIdent, t, y[3])
	// uint32 s takes S-box s mod 4.
	VPBLENDD(U8(0x22), y[1], y[0], y[0])
	VPBLENDD(U8(0x44), y[2], y[0], y[0])
	VPBLENDD(U8(0x88), y[3], y[0], y[0])
	VMOVDQU(y[0], Mem{Base: ctrp, Disp: 24})
	VZEROUPPER()
	RET()
}

func main() {
	keyMix := flag.String("keymix", "", "write the Go table of the AVX-512 kernels' round-key layout to this file")
	ConstraintExpr("amd64,!purego")
	checkDiffusion()
	constants()
	for _, w := range []width{
		{ISA: vec.ISA{W: vec.W512, Enc: vec.EVEX}},
		{ISA: vec.ISA{W: vec.W256, Enc: vec.VEX}},
		{ISA: vec.ISA{W: vec.W128, Enc: vec.VEX}},
		{ISA: vec.ISA{W: vec.W256, Enc: vec.VEX}, aesni: true},
		{ISA: vec.ISA{W: vec.W256, Enc: vec.VEX}, aesni: true, halves: true},
		{ISA: vec.ISA{W: vec.W128, Enc: vec.VEX}, aesni: true},
	} {
		ecb(w)
		cbcDecrypt(w)
		ctr(w)
	}
	ctrKernel(width{ISA: vec.ISA{W: vec.W512, Enc: vec.EVEX}}, true)
	ctrPrep()
	aes := oneAESConstants()
	oneBlockAESNI(aes, true, vec.W128, 1)
	oneBlockAESNI(aes, false, vec.W128, 4)
	oneBlockAESNI(aes, false, vec.W256, 2)
	gf := oneGFNIConstants()
	oneBlockGFNI(gf, true, false, vec.W128, 1)
	oneBlockGFNI(gf, false, false, vec.W256, 2)
	oneBlockGFNI(gf, true, true, vec.W128, 1)
	oneBlockGFNI(gf, false, true, vec.W512, 1)
	Generate()
	if *keyMix != "" {
		writeKeyMix(*keyMix, "aria")
	}
}
