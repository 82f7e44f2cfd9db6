// Command chacha20 generates chacha20/chacha20_amd64.s: the ChaCha20
// whole-block kernels of the ssse3, avx2, avx512 and avx512vl paths.
//
// Bulk data runs word-sliced: each vector register holds one state word of w
// blocks (word i of block j in lane j), so the rounds need no shuffles; a
// 4x4 dword transpose within 128-bit lanes, then (for 8 and 16 lanes) a
// 128-bit-lane transpose, turns words back into contiguous blocks before the
// XOR with the input. The same quarter-round code serves all three widths:
// 4 blocks in XMM with legacy SSE (ssse3), 8 in YMM with VEX (avx2), 16 in
// ZMM with EVEX (avx512); only the instruction forms, the register plan (16
// or 32 registers) and the rotation helper (PSHUFB and shift-or, or VPROLD)
// differ.
//
// Long inputs run two independent sets at once on every path: on Zen 5
// every simple vector instruction has a latency of two cycles, so one
// set's four quarter-round chains leave the four vector pipes half idle.
// With 16 registers (ssse3, avx2: two sets of 4 or 8 blocks) the 32 words
// live in the frame and spill.go's allocator keeps the ones in use in
// registers; see docs/chacha20-limits.md for the measurements.
//
// AVX-512 runs two 16-block sets at once (32 blocks, all 32 registers); the
// same code on YMM (kernelVL: AVX-512VL, two sets of 8) serves CPUs that
// slow down on 512-bit registers, as OpenSSL's avx512vl path does.
// One set's quarter rounds are four dependent chains, rejoined every round,
// and a third of their operations (VPROLD) can only use port 0 on Intel
// cores: one set leaves a vector port idle about one cycle in six; two
// interleaved sets fill it (8% faster on Emerald Rapids, measured). The
// first round's columns 1..3 do not involve the counter, so they are
// computed once per call and read from the frame.
//
// Below a full batch the kernels switch to row layout (rows): each register
// holds one row of a block per 128-bit lane, so a few blocks cost about one
// block's latency rather than a whole word-sliced batch. Two interleaved
// register sets while they fill up, then (where a register holds several
// blocks) one more two-set batch storing only the blocks left, or (ssse3,
// one block per register) one set for the last block: every kernel takes
// any whole number of blocks.
//
// VPTERNLOGD finds no use: in ChaCha20 every XOR follows an addition that
// feeds it, so no three-input boolean function occurs, and VPROLD already
// replaces the shift-shift-or rotation where a ternary OR could have merged.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// isa is the instruction encoding a kernel may use.
type isa = vec.Enc

const (
	sse  = vec.SSE  // legacy SSE/SSSE3: two operands, 16 XMM registers
	vex  = vec.VEX  // AVX2: three operands, 16 registers
	evex = vec.EVEX // AVX-512 (F+VL): 32 registers, VPROLD, embedded broadcast
)

var (
	rowCtr   Mem             // 128-bit lane L = {L, 0, 0, 0}: row layout block offsets
	iotaData Mem             // dwords 0..31: lane j of the counter row gets counter+j
	rotMasks vec.RotateMasks // PSHUFB controls rotating each dword left by 8 and 16
)

func main() {
	ConstraintExpr("amd64,!purego")

	var iota [32]uint32
	for i := range iota {
		iota[i] = uint32(i)
	}
	iotaData = vec.Dwords("chacha20_iota", 4*len(iota), iota[:]...)
	rowCtr = GLOBL("chacha20_rowctr", RODATA|NOPTR)
	for l := 0; l < 8; l++ {
		DATA(16*l, U32(l))
		DATA(16*l+4, U32(0))
		DATA(16*l+8, U64(0))
	}
	rotMasks = vec.RotateMasks{
		By16: vec.RotateDwordsMask("chacha20_rot16", 2, 32),
		By8:  vec.RotateDwordsMask("chacha20_rot8", 1, 32),
	}

	kernel("xorBlocksSSSE3", sse, []step{{word: 8}, {word: 4}, {sets: 2}, {sets: 1}},
		"xorBlocksSSSE3 XORs len(src)/64 keystream blocks into dst (8 at a time as two sets of 4, then 4, then 2 and 1 in row layout) and advances state[12]; len(src) must be a multiple of 64.")
	kernel("xorBlocksAVX2", vex, []step{{word: 16}, {word: 8}, {sets: 2}},
		"xorBlocksAVX2 XORs len(src)/64 keystream blocks into dst (16 at a time as two sets of 8, then 8, then 4 in row layout and the last 1 to 3 in one row batch) and advances state[12]; len(src) must be a multiple of 64.")
	kernel("xorBlocksAVX512", evex, []step{{word: 32}, {word: 16}, {sets: 2}},
		"xorBlocksAVX512 XORs len(src)/64 keystream blocks into dst (32 at a time, then 16, then 8 in row layout and the last 1 to 7 in one row batch) and advances state[12]; len(src) must be a multiple of 64.")
	kernelVL("xorBlocksAVX512VL", evex, true, []step{{word: 16}, {word: 8}, {sets: 2}},
		"xorBlocksAVX512VL XORs len(src)/64 keystream blocks into dst (16 at a time in YMM, then 8, then 4 in row layout and the last 1 to 3 in one row batch) and advances state[12]; len(src) must be a multiple of 64.")
	Generate()
}

// gen holds what one kernel's code needs while it is emitted.
type gen struct {
	isa   isa
	w     int // blocks per batch
	lanes int // 32-bit lanes per register: 4, 8 or 16 (XMM, YMM, ZMM)
	// vl: the evex kernel works on YMM (AVX-512VL) and its short path
	// in vex row layout.
	vl    bool
	state GPVirtual
	dst   GPVirtual
	src   GPVirtual
	n     GPVirtual // bytes left
	spill Mem       // sse/vex: home of state words 8..11 while out of registers
	creg  map[int]int
	label int
	// pre, for the AVX-512 word-sliced batches, holds the first column
	// round's quarter rounds on columns 1..3, which do not involve the
	// counter: they are computed once per call (precomputeColumns), kept in
	// the frame and read as memory operands by every batch.
	pre   [][4]Op
	frame GPVirtual // evex: 64-byte aligned scratch (pre, then spills)
	// ctrOff and outOff place a 16-block set inside a wider batch: its
	// first lane's counter offset and its first output byte.
	ctrOff, outOff int
}

// Layout of the evex frame, in 64-byte vectors from g.frame.
const (
	framePre   = 0  // 12 vectors: columns 1..3 after the first round
	frameSpill = 12 // 4 vectors: words of the second set while the first is written
	frameVecs  = 16
)

// step is one kind of batch a kernel runs while enough input remains:
// word-sliced with word blocks, or row layout with sets register sets.
type step struct{ word, sets int }

// perReg is how many blocks one register holds in row layout: one per
// 128-bit lane.
func (g *gen) perReg() int {
	switch g.isa {
	case sse:
		return 1
	case vex:
		return 2
	}
	return 4
}

func (g *gen) blocks(s step) int {
	if s.word > 0 {
		return s.word
	}
	return s.sets * g.perReg()
}

// vecLanes is the lanes of the kernel's word-sliced registers.
func (g *gen) vecLanes() int {
	switch {
	case g.isa == sse:
		return 4
	case g.isa == vex || g.vl:
		return 8
	}
	return 16
}

// kernel emits one TEXT symbol running the steps in order, each while
// enough input remains, then, where a register holds more than one block,
// a last row batch for the blocks left (partial): so every kernel takes any
// whole number of blocks.
func kernel(name string, is isa, steps []step, doc string) { kernelVL(name, is, false, steps, doc) }

// kernelVL is kernel with a choice, for evex, of YMM registers (vl).
func kernelVL(name string, is isa, vl bool, steps []step, doc string) {
	flags := NOSPLIT
	if is != sse {
		// The frame (1 KiB) is over the 800 bytes a NOSPLIT chain may use.
		flags = 0
	}
	TEXT(name, flags, "func(state *[16]uint32, dst, src []byte)")
	Pragma("noescape")
	Doc(doc)
	g := &gen{isa: is, vl: vl}
	g.state = Load(Param("state"), GP64()).(GPVirtual)
	g.dst = Load(Param("dst").Base(), GP64()).(GPVirtual)
	g.src = Load(Param("src").Base(), GP64()).(GPVirtual)
	g.n = Load(Param("src").Len(), GP64()).(GPVirtual)
	if is != evex {
		// Home slots of two sets' 32 words (batch2); one set keeps its
		// c words in set 0's.
		g.lanes = g.vecLanes()
		g.frame = vec.AlignedLocal(32*4*g.lanes, 32)
		g.spill = g.home(8)
	}
	label := func(k int) string {
		if k == len(steps) {
			return "partial"
		}
		return fmt.Sprintf("step%d", k)
	}
	if is == evex {
		g.frame = vec.AlignedLocal(64*frameVecs, 64)
		first := 0 // the first row-layout step
		for steps[first].word > 0 {
			first++
		}
		g.precomputeColumns(label(first))
	}
	for k, s := range steps {
		if g.vl && s.word == 0 {
			// VEX row layout: no wider form gains on a few blocks. (Set
			// before the batch size is taken: two VEX sets are 4 blocks.)
			g.isa = vex
		}
		n := 64 * g.blocks(s)
		Label(label(k))
		CMPQ(g.n, U32(n))
		JB(LabelRef(label(k + 1)))
		if s.word > 0 {
			g.w = s.word
			g.lanes = g.vecLanes()
			g.batch()
		} else {
			g.rows(s.sets, false)
		}
		ADDQ(U32(n), g.dst)
		ADDQ(U32(n), g.src)
		SUBQ(U32(n), g.n)
		JMP(LabelRef(label(k)))
	}
	Label("partial")
	if g.vl {
		g.isa = vex
	}
	if g.perReg() > 1 {
		// Fewer blocks than the last step's batch: one batch of as many
		// sets, storing only the blocks left (a single latency).
		TESTQ(g.n, g.n)
		JZ(LabelRef("done"))
		g.rows(steps[len(steps)-1].sets, true)
	}
	Label("done")
	g.isa = is
	g.v().Return()
}

// v is the encoding at the batch width: g.lanes 32-bit lanes. EVEX moves
// and logic are spelled with 32-bit elements, the words of ChaCha20.
func (g *gen) v() vec.ISA {
	return vec.ISA{W: vec.Width(4 * g.lanes), Enc: g.isa, Elem: 32}
}

// r returns physical register i at the batch width.
func (g *gen) r(i int) Register { return g.v().Reg(i) }

// Register plan. evex: state word i lives in register i for the whole batch,
// 16..31 are temporaries. sse/vex have only 16 registers: words 0..7 in 0..7,
// words 12..15 in 8..11, and two of the four c words (8..11) at a time in
// 12 and 13 (the others in g.spill); 14 and 15 are temporaries.
const (
	regC0 = 12
	tmpA  = 14
)

func (g *gen) word(i int) Register {
	if g.isa == evex {
		return g.r(i)
	}
	switch {
	case i < 8:
		return g.r(i)
	case i >= 12:
		return g.r(i - 4)
	}
	r, ok := g.creg[i]
	if !ok {
		panic(fmt.Sprintf("state word %d not in a register", i))
	}
	return g.r(r)
}

func (g *gen) tmp() Register {
	if g.isa == evex {
		return g.r(16)
	}
	return g.r(tmpA)
}

func (g *gen) spillSlot(i int) Mem { return g.spill.Offset((i - 8) * 4 * g.w) }

func (g *gen) stateWord(i int) Mem { return Mem{Base: g.state, Disp: 4 * i} }

// Instruction forms by encoding. Two-operand sse forms compute dst op= src.

func (g *gen) add(src Op, dst Register) { g.add3(src, dst, dst) }
func (g *gen) xor(src Op, dst Register) { g.xor3(src, dst, dst) }

// add3 and xor3 compute dst = x op y.
func (g *gen) add3(x Op, y, dst Register) { g.v().Add32(x, y, dst) }
func (g *gen) xor3(x Op, y, dst Register) { g.v().Xor(x, y, dst) }
func (g *gen) mov(src, dst Op)            { g.v().Mov(src, dst) }

// broadcast fills every lane of dst with 32-bit word i of the state.
func (g *gen) broadcast(i int, dst Register) { g.v().BroadcastDword(g.stateWord(i), dst) }

// counterRow sets dst to this batch's block counters: state[12] + lane.
func (g *gen) counterRow(dst, tmp Register) {
	g.broadcast(12, dst)
	if g.isa == sse {
		MOVOU(iotaData.Offset(4*g.ctrOff), tmp) // legacy SSE memory operands must be aligned
		PADDL(tmp, dst)
		return
	}
	VPADDD(iotaData.Offset(4*g.ctrOff), dst, dst)
}

// rotate rotates every dword of each register left by bits: VPROLD on
// AVX-512, one PSHUFB for whole bytes before it, otherwise shift-shift-or
// through the temporary register.
func (g *gen) rotate(bits int, regs ...Register) { g.v().Rol32(bits, rotMasks, g.tmp(), regs...) }

// quarterRounds runs the quarter round on each (a, b, c, d) group of state
// words, step by step across the groups so independent chains interleave.
func (g *gen) quarterRounds(groups ...[4]int) {
	var regs [][4]Register
	for _, q := range groups {
		regs = append(regs, [4]Register{g.word(q[0]), g.word(q[1]), g.word(q[2]), g.word(q[3])})
	}
	g.quarterRoundRegs(regs)
}

// quarterRoundRegs is the quarter round on (a, b, c, d) register groups,
// step by step across the groups so independent chains interleave; shared
// by the word-sliced batches and the row-layout short path.
func (g *gen) quarterRoundRegs(groups [][4]Register) {
	g.halfRound(groups, 16, 12)
	g.halfRound(groups, 8, 7)
}

// halfRound is one half of the quarter round: a += b, d ^= a, d <<<= rd,
// c += d, b ^= c, b <<<= rb.
func (g *gen) halfRound(groups [][4]Register, rd, rb int) {
	a, b, c, d := col(groups, 0), col(groups, 1), col(groups, 2), col(groups, 3)
	for k := range groups {
		g.add(b[k], a[k])
		g.xor(a[k], d[k])
	}
	g.rotate(rd, d...)
	for k := range groups {
		g.add(d[k], c[k])
		g.xor(c[k], b[k])
	}
	g.rotate(rb, b...)
}

// setWords returns the registers of words q of evex set s (registers
// 16s..16s+15).
func (g *gen) setWords(s int, q [4]int) [4]Register {
	return [4]Register{g.r(16*s + q[0]), g.r(16*s + q[1]), g.r(16*s + q[2]), g.r(16*s + q[3])}
}

// col returns word k of each group.
func col(gs [][4]Register, k int) []Register {
	var rs []Register
	for _, q := range gs {
		rs = append(rs, q[k])
	}
	return rs
}

// swapC moves state words out of and into the two c registers.
func (g *gen) swapC(out, in [2]int) {
	for k, i := range out {
		g.mov(g.word(i), g.spillSlot(i))
		delete(g.creg, i)
		g.creg[in[k]] = regC0 + k
		g.mov(g.spillSlot(in[k]), g.word(in[k]))
	}
}

var (
	columns   = [4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}
	diagonals = [4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}}
)

// doubleRound emits one column round and one diagonal round. evex runs
// g.w/g.lanes sets of g.lanes blocks, set s in registers 16s..16s+15, their
// quarter rounds interleaved. With 16 registers (sse, vex) the c words rotate
// through two registers: the column round's second half and the diagonal
// round's first half both use words 10 and 11, so one swap before and one
// after them suffices.
func (g *gen) doubleRound() {
	if g.isa == evex {
		var cg, dg [][4]Register
		for s := 0; s < g.w/g.lanes; s++ {
			for k := range columns {
				cg = append(cg, g.setWords(s, columns[k]))
				dg = append(dg, g.setWords(s, diagonals[k]))
			}
		}
		g.quarterRoundRegs(cg)
		g.quarterRoundRegs(dg)
		return
	}
	g.quarterRounds(columns[0], columns[1]) // c words 8, 9
	g.swapC([2]int{8, 9}, [2]int{10, 11})
	g.quarterRounds(columns[2], columns[3])     // 10, 11
	g.quarterRounds(diagonals[0], diagonals[1]) // 10, 11
	g.swapC([2]int{10, 11}, [2]int{8, 9})
	g.quarterRounds(diagonals[2], diagonals[3]) // 8, 9
}

// batch emits the keystream generation and XOR of g.w blocks at dst/src.
func (g *gen) batch() {
	g.label++
	if g.isa == evex {
		g.batchPrecomputed(g.w / g.lanes)
		return
	}
	if g.w == 2*g.lanes {
		g.batch2()
		return
	}
	// Load the state, one word per register (lane j = block j).
	g.creg = map[int]int{8: regC0, 9: regC0 + 1}
	for i := 0; i < 16; i++ {
		switch {
		case i == 12:
			g.counterRow(g.word(12), g.tmp())
		case g.isa != evex && (i == 10 || i == 11):
			g.broadcast(i, g.tmp())
			g.mov(g.tmp(), g.spillSlot(i))
		default:
			g.broadcast(i, g.word(i))
		}
	}

	g.roundLoop(10)
	g.finish()
}

func (g *gen) roundLoop(n int) {
	rounds := GP32()
	MOVL(U32(n), rounds)
	loop := fmt.Sprintf("rounds%d_%d", g.w, g.label)
	Label(loop)
	g.doubleRound()
	DECL(rounds)
	JNZ(LabelRef(loop))
}

func (g *gen) finish() {
	if g.isa == evex {
		g.outputSets()
	} else {
		g.mov(g.word(8), g.spillSlot(8))
		g.mov(g.word(9), g.spillSlot(9))
		g.creg = map[int]int{}
		g.outputGroups()
	}
	ADDL(U32(g.w), g.stateWord(12))
}

// feedForward adds the input state word i back to register r.
func (g *gen) feedForward(i int, r, tmp, spare Register) {
	switch {
	case i == 12:
		g.counterRow(tmp, spare)
		g.add(tmp, r)
	case g.isa == evex:
		VPADDD_BCST(g.stateWord(i), r, r)
	default:
		g.broadcast(i, tmp)
		g.add(tmp, r)
	}
}

// transpose4 transposes the dwords of four registers within each 128-bit
// lane: afterwards result k, lane L, holds the four words of register group
// that belonged to block 4L+k. It needs two free registers; it returns the
// results and the two registers left free.
func (g *gen) transpose4(a, b, c, d, t0, t1 Register) (res [4]Register, free [2]Register) {
	if g.isa == sse {
		// unpack interleaves the low halves of x and y into lo (x's unit
		// first) and their high halves into x.
		unpack := func(low, high func(y, dst Op), x, y, lo Register) {
			MOVOU(x, lo)
			low(y, lo)
			high(y, x)
		}
		unpack(PUNPCKLLQ, PUNPCKHLQ, a, b, t0)    // t0: a0 b0 a1 b1; a: a2 b2 a3 b3
		unpack(PUNPCKLLQ, PUNPCKHLQ, c, d, t1)    // t1: c0 d0 c1 d1; c: c2 d2 c3 d3
		unpack(PUNPCKLQDQ, PUNPCKHQDQ, t0, t1, b) // b: a0 b0 c0 d0; t0: a1 b1 c1 d1
		unpack(PUNPCKLQDQ, PUNPCKHQDQ, a, c, d)   // d: a2 b2 c2 d2; a: a3 b3 c3 d3
		return [4]Register{b, t0, d, a}, [2]Register{t1, c}
	}
	return vec.TransposeDwords4(a, b, c, d, t0, t1)
}

// xorStore XORs r with 16*w/4 bytes of src at off and stores them to dst.
func (g *gen) xorStore(r, tmp Register, off int) {
	off += g.outOff
	in := Mem{Base: g.src, Disp: off}
	out := Mem{Base: g.dst, Disp: off}
	if g.isa == sse {
		MOVOU(in, tmp)
		PXOR(tmp, r)
	} else {
		g.xor(in, r)
	}
	g.mov(r, out)
}

// group finishes state words 4k..4k+3 (feed-forward and transpose) using the
// free registers in pool; it returns the transposed registers.
func (g *gen) group(k int, regs [4]Register, pool *[]Register) [4]Register {
	t0, t1 := (*pool)[0], (*pool)[1]
	for j := 0; j < 4; j++ {
		g.feedForward(4*k+j, regs[j], t0, t1)
	}
	res, free := g.transpose4(regs[0], regs[1], regs[2], regs[3], t0, t1)
	*pool = append([]Register{free[0], free[1]}, (*pool)[2:]...)
	return res
}

// groupRegs returns the registers of words 4k..4k+3, loading c words.
func (g *gen) groupRegs(k int, pool *[]Register) [4]Register {
	var regs [4]Register
	for j := 0; j < 4; j++ {
		i := 4*k + j
		if k == 2 {
			regs[j] = (*pool)[0]
			*pool = (*pool)[1:]
			g.mov(g.spillSlot(i), regs[j])
		} else {
			regs[j] = g.word(i)
		}
	}
	return regs
}

// outputGroups writes the batch with 16 registers: group by group (w=4) or
// pair of groups by pair (w=8), so at most 14 registers are live.
func (g *gen) outputGroups() {
	pool := []Register{g.r(12), g.r(13), g.r(14), g.r(15)}
	if g.w == 4 {
		for k := 0; k < 4; k++ {
			res := g.group(k, g.groupRegs(k, &pool), &pool)
			for j := 0; j < 4; j++ {
				g.xorStore(res[j], pool[0], 64*j+16*k)
			}
			pool = append(pool, res[:]...)
		}
		return
	}
	// w == 8, VEX only: lane 0 of a result is block j, lane 1 block j+4.
	for p := 0; p < 2; p++ {
		lo := g.group(2*p, g.groupRegs(2*p, &pool), &pool)
		hi := g.group(2*p+1, g.groupRegs(2*p+1, &pool), &pool)
		for j := 0; j < 4; j++ {
			t := pool[0]
			VPERM2I128(U8(0x20), hi[j], lo[j], t)     // block j, words 8p..8p+7
			VPERM2I128(U8(0x31), hi[j], lo[j], lo[j]) // block j+4
			g.xorStore(t, nil, 64*j+32*p)
			g.xorStore(lo[j], nil, 64*(j+4)+32*p)
		}
		pool = append(pool, lo[:]...)
		pool = append(pool, hi[:]...)
	}
}

// outputSets writes a word-sliced batch of one or two sets of g.lanes
// blocks. With two, all 32 registers hold state, so four words of the second set wait in
// the frame while the first is written with their registers as temporaries.
func (g *gen) outputSets() {
	var words [2][16]Register
	sets := g.w / g.lanes
	for set := 0; set < sets; set++ {
		for i := range words[set] {
			words[set][i] = g.r(16*set + i)
		}
	}
	if sets == 1 {
		var pool []Register
		for i := 16; i < 32; i++ {
			pool = append(pool, g.r(i))
		}
		g.outputWords(words[0], pool)
		return
	}
	spilled := []int{12, 13, 14, 15}
	var pool []Register
	for k, i := range spilled {
		g.mov(words[1][i], g.frameVec(frameSpill+k))
		pool = append(pool, words[1][i])
	}
	g.outputWords(words[0], pool)
	// The first set's registers are free now.
	for k, i := range spilled {
		words[1][i] = g.r(k)
		g.mov(g.frameVec(frameSpill+k), words[1][i])
	}
	pool = nil
	for i := len(spilled); i < 16; i++ {
		pool = append(pool, g.r(i))
	}
	g.ctrOff, g.outOff = g.lanes, 64*g.lanes
	g.outputWords(words[1], pool)
	g.ctrOff, g.outOff = 0, 0
}

func (g *gen) frameVec(k int) Mem { return Mem{Base: g.frame, Disp: 64 * k} }

// outputWords writes one set of g.lanes blocks whose word i is in
// words[i], using at least four free registers from pool: the four groups
// transposed in lanes, then 128-bit lanes gathered into whole blocks.
func (g *gen) outputWords(words [16]Register, pool []Register) {
	var res [4][4]Register
	for k := 0; k < 4; k++ {
		res[k] = g.group(k, [4]Register{words[4*k], words[4*k+1], words[4*k+2], words[4*k+3]}, &pool)
	}
	// Result j of group k holds, in 128-bit lane L, words 4k..4k+3 of block
	// j+4L: a transpose of lanes across the groups gathers each block.
	if g.lanes == 8 {
		t := pool[0]
		for j := 0; j < 4; j++ {
			for p := 0; p < 2; p++ {
				lo, hi := res[2*p][j], res[2*p+1][j]
				// VPERM2I128 has no EVEX form for registers 16..31.
				VSHUFI32X4(U8(0x0), hi, lo, t)  // block j, words 8p..8p+7
				VSHUFI32X4(U8(0x3), hi, lo, lo) // block j+4
				g.xorStore(t, nil, 64*j+32*p)
				g.xorStore(lo, nil, 64*(j+4)+32*p)
			}
		}
		return
	}
	t0, t1, t2, t3 := pool[0], pool[1], pool[2], pool[3]
	for j := 0; j < 4; j++ {
		g0, g1, g2, g3 := res[0][j], res[1][j], res[2][j], res[3][j]
		VSHUFI32X4(U8(0x44), g1, g0, t0) // g0.0 g0.1 g1.0 g1.1
		VSHUFI32X4(U8(0xee), g1, g0, t1) // g0.2 g0.3 g1.2 g1.3
		VSHUFI32X4(U8(0x44), g3, g2, t2) // g2.0 g2.1 g3.0 g3.1
		VSHUFI32X4(U8(0xee), g3, g2, t3) // g2.2 g2.3 g3.2 g3.3
		VSHUFI32X4(U8(0x88), t2, t0, g0) // block j
		VSHUFI32X4(U8(0xdd), t2, t0, g1) // block j+4
		VSHUFI32X4(U8(0x88), t3, t1, g2) // block j+8
		VSHUFI32X4(U8(0xdd), t3, t1, g3) // block j+12
		for L, r := range []Register{g0, g1, g2, g3} {
			g.xorStore(r, nil, 64*(j+4*L))
		}
	}
}

// rows is the short-input path: each register holds one row (four words)
// of perReg blocks, one block per 128-bit lane, so a batch costs about the
// latency of one block's rounds rather than a word-sliced batch; sets are
// interleaved to hide that latency. For the diagonal round rows a, c, d
// turn within each lane (PSHUFD) so that lane word k holds a[k-1], c[k+1]
// and d[k+2] beside b[k], and back after it: b, the last word a quarter
// round makes and the first the next one needs, never waits for a shuffle
// (rotating b, c, d instead put one shuffle latency on every round's
// dependency chain). With partial, the batch is the last one, for the
// g.n/64 blocks left (fewer than sets*perReg): it advances the counter by
// that many, loads and stores only those blocks and jumps to done.
func (g *gen) rows(sets int, partial bool) {
	g.label++
	per := g.perReg()
	g.w = 4 * per
	g.lanes = g.w
	// Registers: set k rows in 4k..4k+3; original rows a, b, c in
	// 4*sets..+2, set k's original d row in 4*sets+3+k.
	orig := 4 * sets
	row := func(k, r int) Register { return g.r(4*k + r) }
	load := g.v().BroadcastLane // sse: one block per register, the row itself
	for r := 0; r < 3; r++ {
		load(g.stateWord(4*r), g.r(orig+r))
	}
	for k := 0; k < sets; k++ {
		d := g.r(orig + 3 + k)
		load(g.stateWord(12), d)
		if off := rowCtr.Offset(16 * per * k); g.isa == sse {
			if k > 0 {
				MOVOU(off, g.tmp()) // legacy SSE memory operands must be aligned
				PADDL(g.tmp(), d)
			}
		} else {
			VPADDD(off, d, d)
		}
		for r := 0; r < 3; r++ {
			g.mov(g.r(orig+r), row(k, r))
		}
		g.mov(d, row(k, 3))
	}

	var groups [][4]Register
	for k := 0; k < sets; k++ {
		groups = append(groups, [4]Register{row(k, 0), row(k, 1), row(k, 2), row(k, 3)})
	}
	shuffle := func(a, c, d byte) {
		for k := 0; k < sets; k++ {
			for _, x := range [3]struct {
				r   int
				imm byte
			}{{0, a}, {2, c}, {3, d}} {
				g.v().ShuffleDwords(x.imm, row(k, x.r), row(k, x.r))
			}
		}
	}
	rounds := GP32()
	MOVL(U32(10), rounds)
	loop := fmt.Sprintf("rowrounds%d_%d", sets, g.label)
	Label(loop)
	g.quarterRoundRegs(groups)
	shuffle(0x93, 0x39, 0x4e) // lane word k of a, c, d <- word k-1, k+1, k+2
	g.quarterRoundRegs(groups)
	shuffle(0x39, 0x93, 0x4e)
	DECL(rounds)
	JNZ(LabelRef(loop))

	for k := 0; k < sets; k++ {
		for r := 0; r < 3; r++ {
			g.add(g.r(orig+r), row(k, r))
		}
		g.add(g.r(orig+3+k), row(k, 3))
	}
	if partial {
		left := GP64()
		MOVQ(g.n, left)
		SHRQ(U8(6), left)
		ADDL(left.As32(), g.stateWord(12))
	}
	// Gather lanes into blocks; temporaries are the original-row registers
	// (sse, vex) or 16.. (evex).
	t := func(i int) Register {
		if g.isa == evex {
			return g.r(16 + i)
		}
		return g.r(orig + i)
	}
	// stop ends a partial batch before block j when no more are left.
	stop := func(j int) {
		if partial && j > 0 {
			CMPQ(g.n, U32(64*j))
			JBE(LabelRef("done"))
		}
	}
	for k := 0; k < sets; k++ {
		a, b, c, d := row(k, 0), row(k, 1), row(k, 2), row(k, 3)
		base := 64 * per * k
		stop(per * k)
		switch g.isa {
		case sse:
			for j, r := range []Register{a, b, c, d} {
				g.xorStore(r, t(0), base+16*j)
			}
		case vex:
			VPERM2I128(U8(0x20), b, a, t(0)) // block 0, bytes 0..31
			VPERM2I128(U8(0x20), d, c, t(1)) // block 0, bytes 32..63
			g.xorStore(t(0), nil, base)
			g.xorStore(t(1), nil, base+32)
			stop(per*k + 1)
			VPERM2I128(U8(0x31), b, a, a) // block 1, bytes 0..31
			VPERM2I128(U8(0x31), d, c, c) // block 1, bytes 32..63
			g.xorStore(a, nil, base+64)
			g.xorStore(c, nil, base+96)
		default:
			VSHUFI32X4(U8(0x44), b, a, t(0)) // a.0 a.1 b.0 b.1
			VSHUFI32X4(U8(0xee), b, a, t(1)) // a.2 a.3 b.2 b.3
			VSHUFI32X4(U8(0x44), d, c, t(2)) // c.0 c.1 d.0 d.1
			VSHUFI32X4(U8(0xee), d, c, t(3)) // c.2 c.3 d.2 d.3
			VSHUFI32X4(U8(0x88), t(2), t(0), a)
			VSHUFI32X4(U8(0xdd), t(2), t(0), b)
			VSHUFI32X4(U8(0x88), t(3), t(1), c)
			VSHUFI32X4(U8(0xdd), t(3), t(1), d)
			for j, r := range []Register{a, b, c, d} {
				stop(per*k + j)
				g.xorStore(r, nil, base+64*j)
			}
		}
	}
	if partial {
		JMP(LabelRef("done"))
		return
	}
	ADDL(U32(per*sets), g.stateWord(12))
}

// precomputeColumns computes columns 1..3 of the first round for 16 blocks
// into the frame: their words (constants, key, nonce) are the same in every
// batch of a call. 36 of a 16-block batch's ~1040 vector operations. skip
// is where a call too short for word-sliced batches goes.
func (g *gen) precomputeColumns(skip string) {
	g.w = g.vecLanes()
	g.lanes = g.w
	CMPQ(g.n, U32(64*g.w))
	JB(LabelRef(skip))
	var regs [][4]Register
	for k, q := range columns[1:] {
		var r [4]Register
		for j := range r {
			r[j] = g.r(4*k + j)
			g.broadcast(q[j], r[j])
		}
		regs = append(regs, r)
	}
	g.quarterRoundRegs(regs)
	g.pre = nil
	for k := range regs {
		var m [4]Op
		for j := range m {
			m[j] = g.frameVec(framePre + 4*k + j)
			g.mov(regs[k][j], m[j])
		}
		g.pre = append(g.pre, m)
	}
}

// batchPrecomputed is the evex word-sliced batch of sets sets of g.lanes
// blocks (set s in registers 16s..16s+15, interleaved so that twice the
// independent chains fill the vector ports): column 0 of the first round, the first diagonal
// round reading columns 1..3 from g.pre, then nine double rounds in a loop
// (unrolled, 13 KB more code, measured no faster).
func (g *gen) batchPrecomputed(sets int) {
	var groups [][4]Register
	for s := 0; s < sets; s++ {
		w := g.setWords(s, columns[0])
		for j, i := range columns[0] {
			if i == 12 {
				g.ctrOff = g.lanes * s
				g.counterRow(w[j], nil)
				g.ctrOff = 0
			} else {
				g.broadcast(i, w[j])
			}
		}
		groups = append(groups, w)
	}
	g.quarterRoundRegs(groups)
	// Where each word of the state lives after the first column round.
	src := func(s, i int) Op {
		if i%4 == 0 {
			return g.r(16*s + i)
		}
		return g.pre[i%4-1][i/4]
	}
	var dgroups [][4]Register
	var from [][4]Op
	for s := 0; s < sets; s++ {
		for _, q := range diagonals {
			dgroups = append(dgroups, g.setWords(s, q))
			from = append(from, [4]Op{src(s, q[0]), src(s, q[1]), src(s, q[2]), src(s, q[3])})
		}
	}
	g.quarterRoundFromOps(dgroups, from)
	g.roundLoop(9)
	g.finish()
}

// quarterRoundFromOps is quarterRoundRegs for evex with inputs that may be
// memory operands (from) and results in groups: each input word is read once, by the first operation
// that updates it (an addition whose two inputs are both in memory loads
// one of them first).
func (g *gen) quarterRoundFromOps(groups [][4]Register, from [][4]Op) {
	for k, q := range groups {
		a, b, c, d := q[0], q[1], q[2], q[3]
		a0, b0, c0, d0 := from[k][0], from[k][1], from[k][2], from[k][3]
		switch ra, ok := a0.(Register); {
		case ok:
			VPADDD(b0, ra, a)
		default:
			if rb, ok := b0.(Register); ok {
				VPADDD(a0, rb, a)
			} else {
				VMOVDQU32(a0, a)
				VPADDD(b0, a, a)
			}
		}
		VPXORD(d0, a, d)
		VPROLD(U8(16), d, d)
		VPADDD(c0, d, c)
		VPXORD(b0, c, b)
		VPROLD(U8(12), b, b)
	}
	g.halfRound(groups, 8, 7)
}
