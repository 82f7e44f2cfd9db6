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
//
// The keyed kernels (cbcEncryptLanesKeyed...) give every lane its own key:
// instead of one broadcast round key per round, each of the eight state
// registers takes its round key from a table laid out as the registers
// are, slot j (right-aligned as above) of register r at (8*j+r)*width
// bytes, each 128-bit lane of that vector the round key of the lane's own
// message. The key is an operand of AESENC straight from memory (through
// a scratch register in SSE code, whose memory operands must be aligned),
// one load per AESENC; the driver aligns the table to 64 bytes, as a
// vector of keys split across two cache lines halves the speed. All lanes
// run the same number of rounds.
package main

import (
	"fmt"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

const (
	states = 8 // registers of chaining states

	// Offsets in the lane table (aes.cbcLanes): source pointers, then
	// destination pointers, then chaining values, for up to 32 lanes.
	srcOff = 0
	dstOff = 8 * 32
	ivOff  = 16 * 32
)

// Register plan. Vector registers 0..7: chaining states; 8..14: the next
// source blocks, gathered lane by lane; 15: the round key being applied on
// the 128- and 256-bit paths, broadcast from the table once per round. The
// 512-bit path keeps all round keys resident in 16..30.
const (
	tempReg     = 8
	scratchReg  = 15
	residentReg = 16
)

// General registers: the arguments, the first round key's address, the
// byte offset of the current block in every message, and a lane's pointer.
var (
	keys, rounds, tab, n = RAX, RBX, RDI, RCX
	first, off, ptr      = RDX, RSI, R8
)

// gen writes the kernel for one ISA: 8 registers of chains, each of its
// 128-bit lanes a message; keyed gives each lane its own key.
func gen(isa vec.ISA, suffix string, keyed bool) {
	name, keyDoc := "cbcEncryptLanes"+suffix, " (keys: a right-aligned 240-byte schedule)"
	if keyed {
		name, keyDoc = "cbcEncryptLanesKeyed"+suffix, ", under its own key in the lane-sliced table keys"
	}
	lanes := isa.W.Blocks()
	width := int(isa.W) // bytes
	TEXT(name, NOSPLIT, "func(keys *byte, rounds int, lanes *byte, n int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s CBC-encrypts n blocks (n > 0) on each of %d lanes: lane i reads src[i], writes dst[i] and chains from and back to iv[i]%s.", name, states*lanes, keyDoc))
	vec.LoadArgs(keys, rounds, tab, n)
	// The right-aligned table's first key: keys + 224 - 16*rounds, or in
	// the lane-sliced table keys + (14 - rounds)*8*width.
	slotBytes := 16
	if keyed {
		slotBytes = states * width
	}
	MOVQ(rounds, first)
	SHLQ(U8(bits.TrailingZeros(uint(slotBytes))), first)
	NEGQ(first)
	LEAQ(Mem{Base: keys, Index: first, Scale: 1, Disp: 14 * slotBytes}, first)
	rk := vec.RoundKeys{Table: keys, First: first, Resident: -1, Scratch: scratchReg}
	if isa.W == vec.W512 && !keyed {
		rk.Resident = residentReg
		rk.LoadResident(isa, 1, 14)
	}
	// key returns the operand holding slot j's key for state register r
	// (the first key where j < 0).
	key := func(j, r int) Op {
		m := Mem{Base: keys, Disp: (states*j + r) * width}
		if j < 0 {
			m = Mem{Base: first, Disp: r * width}
		}
		if isa.Enc != vec.SSE {
			return m
		}
		MOVOU(m, isa.Reg(scratchReg))
		return isa.Reg(scratchReg)
	}
	var labels vec.Labels
	st := isa.W.Regs(0, states)
	x := vec.W128.Reg

	// insert puts the 16 bytes at m into lane l of register r (lane 0
	// through the XMM form, which clears the rest); extract is its inverse.
	insert := func(l int, m Mem, r int) {
		switch {
		case l == 0:
			isa.At(vec.W128).Load(m, x(r))
		case isa.W == vec.W256:
			VINSERTI128(U8(l), m, isa.Reg(r), isa.Reg(r))
		default:
			VINSERTI32X4(U8(l), m, isa.Reg(r), isa.Reg(r))
		}
	}
	extract := func(l int, r int, m Mem) {
		switch {
		case l == 0:
			isa.At(vec.W128).Store(x(r), m)
		case isa.W == vec.W256:
			VEXTRACTI128(U8(l), isa.Reg(r), m)
		default:
			VEXTRACTI32X4(U8(l), isa.Reg(r), m)
		}
	}
	lane := func(r, l int) int { return r*lanes + l }
	// block is the current block of the message in lane i, whose pointer
	// sits at table offset base.
	block := func(base, i int) Mem {
		MOVQ(Mem{Base: tab, Disp: base + 8*i}, ptr)
		return Mem{Base: ptr, Index: off, Scale: 1}
	}

	// The chaining values come in from iv[i], 16 bytes apart.
	for r := range states {
		for l := range lanes {
			insert(l, Mem{Base: tab, Disp: ivOff + 16*lane(r, l)}, r)
		}
	}
	XORQ(off, off)
	loop := labels.New("block")
	Label(loop)
	for r := range states {
		t := tempReg + r%7
		for l := range lanes {
			insert(l, block(srcOff, lane(r, l)), t)
		}
		isa.Xor(isa.Reg(t), st[r], st[r])
	}
	if keyed {
		for r, s := range st {
			isa.Xor(key(-1, r), s, s)
		}
		vec.RoundSlots(rounds, labels.New("rounds10"), labels.New("rounds12"), func(j int) {
			for r, s := range st {
				isa.AESRound(false, key(j, r), s)
			}
		})
		for r, s := range st {
			isa.AESLastRound(false, key(14, r), s)
		}
	} else {
		k0 := rk.FirstKey(isa)
		for _, s := range st {
			isa.Xor(k0, s, s)
		}
		rk.MiddleRounds(isa, rounds, &labels, st, false)
		last := rk.Slot(isa, 14)
		for _, s := range st {
			isa.AESLastRound(false, last, s)
		}
	}
	for r := range states {
		for l := range lanes {
			extract(l, r, block(dstOff, lane(r, l)))
		}
	}
	ADDQ(U8(16), off)
	DECQ(n)
	JNZ(LabelRef(loop))

	// The last ciphertext blocks are the chaining values for the next call.
	for r := range states {
		for l := range lanes {
			extract(l, r, Mem{Base: tab, Disp: ivOff + 16*lane(r, l)})
		}
	}
	isa.Return()
}

func main() {
	ConstraintExpr("amd64,!purego")
	for _, keyed := range []bool{false, true} {
		gen(vec.ISA{W: vec.W128, Enc: vec.SSE}, "AESNI", keyed)
		gen(vec.ISA{W: vec.W256, Enc: vec.VEX}, "VAES256", keyed)
		gen(vec.ISA{W: vec.W512, Enc: vec.EVEX}, "VAES512", keyed)
	}
	Generate()
}
