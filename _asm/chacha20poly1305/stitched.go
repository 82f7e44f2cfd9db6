package main

// The stitched kernels of the avx2-stitched path: ChaCha20 eight blocks
// (512 bytes) per batch, word-sliced in YMM as in the chacha20 package's
// avx2 kernel, with one-block Poly1305 steps in 64-bit limbs (MULX) spread
// through the rounds. ChaCha20 keeps the vector ports busy and leaves the
// integer ports idle; the Poly1305 steps fill them, so a batch costs little
// more than its keystream alone.
//
// openAVX2 authenticates each batch's ciphertext while it computes the
// batch's keystream (the steps all finish before the batch's output is
// stored, so dst may be src). sealAVX2 cannot authenticate ciphertext it
// has not yet written: its first batch runs without steps, and each later
// batch authenticates the previous batch's output (starting a little into
// the rounds, see delayPct); the caller absorbs the last batch's output,
// or hands it to sealTailAVX2, one batch (the message's tail, through a
// buffer) whose steps read a separate pointer. Without a previous batch,
// one batch of sealAVX2 is plain keystream: the Go side's tails and short
// messages use it so.
//
// The layout of the word-sliced batch (register plan, c words rotating
// through two registers and the frame, output by pairs of 4-word groups)
// repeats the chacha20 generator's avx2 kernel: that generator is a
// command of its own, and the stitched batch needs its own emission anyway
// (one hook per vector instruction for the interleaving).
//
// On Zen 5 under avx512=off a batch is bound by the ChaCha20 vector chain,
// not by the Poly1305 steps: every AVX2 integer operation there has a
// latency of 2 cycles (measured: VPADDD, VPXOR, VPSHUFB, VPSLLD, VPSHUFD
// alike, in XMM and YMM), so a round's four independent quarter rounds (14
// dependent operations each) take about 28 cycles, and sixteen registers
// hold no second set of eight blocks to run beside them. Measured at
// 16 KiB: keystream-only batches about 2700 MB/s, Open's stitched batches
// about 2650, Seal's about 2450 (the chacha20 package's avx2 path about
// 2650); the one-block MULX step alone about 16.6 cycles (3.5 GB/s).
//
// The rounds are unrolled (ten double rounds per batch, no round counter),
// which leaves enough general-purpose registers for the Poly1305 state, its
// three temporaries and RDX beside the four pointers and counts.

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// Offsets in st, the Go side's stitchState: its ChaCha20 input state
// (16 words), then h, then r.
const (
	offH = 64 // h0, h1, h2
	offR = 88 // r0, r1, s1 = r1 + r1/4
)

var (
	stIota  Mem
	stRot   vec.RotateMasks
	stAVX2  = vec.ISA{W: vec.W256, Enc: vec.VEX, Elem: 32}
	columns = [4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}
	diags   = [4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}}
)

// delayPct is the share of sealAVX2's rounds (in vector instructions) that
// runs before the first Poly1305 step. Its steps read the previous batch's
// output, stored just before; loaded at once, those reads stall on the
// stores (measured on Zen 5 with no delay: Seal at half Open's speed), so
// the steps start once the stores have left, and run closer together.
const delayPct = 15

func stitchedData() {
	// Lanes 0..15: the one-set kernels read the first eight, the wide
	// kernels' second set the last eight. (64 bytes: see docs/prefetch.md
	// on where the linker puts the read-only tables.)
	stIota = vec.Dwords("cp_iota16", 64, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
	stRot = vec.RotateMasks{
		By16: vec.RotateDwordsMask("cp_rot16", 2, 32),
		By8:  vec.RotateDwordsMask("cp_rot8", 1, 32),
	}
}

// sk is one stitched kernel while it is emitted.
type sk struct {
	st, dst, src, n GPVirtual
	h               [3]GPVirtual
	t               [3]GPVirtual
	spill           Mem
	creg            map[int]int
	// queue holds the scalar instructions still to be emitted in this
	// batch's rounds; tick emits its share after each vector instruction.
	queue    []func()
	ticks    int // vector instructions of one batch's rounds (counted)
	tick     int // vector instructions emitted so far in this batch
	emitted  int // scalar instructions emitted so far in this batch
	delay    int // vector instructions before the first scalar one
	counting bool
	seal     bool // the steps read output just stored (see delayPct)
	// rows: the one-call kernels' batch in row layout instead (see
	// onerows.go); its zero value is the word-sliced YMM batch.
	rows oneBatch
	// put, if set, takes output's (and rowsInPlace's) 32-byte pieces
	// (keystream in r, off its offset) instead of the XOR of src into dst.
	put func(r Op, off int)
	// putStart, with put, runs after the batch's rounds, before its pieces.
	putStart func()
	// extra: two more blocks in YMM rows beside the word-sliced batch,
	// whose d words then live in the frame (ten.go).
	extra *rowPair
	// rot: the rotation masks the rounds read, copied to the frame (see
	// frameMasks).
	rot vec.RotateMasks
}

// frameMasks copies the rotation masks to the frame, where the rounds
// read them (k.rot). Read from the read-only data instead, every one of
// those loads waits behind any store still in flight whose address
// matches the mask's in its low 12 bits (a 4 KiB alias): the kernels
// store to the frame, st and dst throughout, so whether they alias
// depended on where the linker put the masks (measured on Zen 5 under
// avx512=off, the same kernels in two builds: Open of 544 bytes 0.94x
// and 0.77x x/crypto). A copy in the frame lies within 4 KiB of the
// frame's and st's stores, so it never aliases with them.
func (k *sk) frameMasks() { k.masksAt(AllocLocal(64)) }

// masksAt copies the rotation masks to the 64 bytes at m, where the
// rounds then read them.
func (k *sk) masksAt(m Mem) {
	VMOVDQU(stRot.By16, y(regT))
	VMOVDQU(y(regT), m)
	VMOVDQU(stRot.By8, y(regT))
	VMOVDQU(y(regT), m.Offset(32))
	k.rot = vec.RotateMasks{By16: m, By8: m.Offset(32)}
}

// rWord is word i of r0, r1, s1 in st.
func (k *sk) rWord(i int) Mem { return Mem{Base: k.st, Disp: offR + 8*i} }

// rWords is r0, r1, s1 in st.
func (k *sk) rWords() [3]Mem { return words3(Mem{Base: k.st, Disp: offR}) }

const (
	regC0 = 12 // two of the c words (8..11) at a time; the others in spill
	regT  = 14 // rotation temporary
)

func y(i int) VecPhysical { return stAVX2.Reg(i) }

func (k *sk) word(i int) VecPhysical {
	switch {
	case i < 8:
		return y(i)
	case i >= 12:
		return y(i - 4)
	}
	r, ok := k.creg[i]
	if !ok {
		panic(fmt.Sprintf("word %d not in a register", i))
	}
	return y(r)
}

func (k *sk) slot(i int) Mem      { return k.spill.Offset(32 * (i - 8)) }
func (k *sk) stateWord(i int) Mem { return Mem{Base: k.st, Disp: 4 * i} }

// vop emits one vector instruction of the rounds and the scalar
// instructions due after it.
func (k *sk) vop(f func()) {
	if k.counting {
		k.ticks++
		return
	}
	f()
	if k.ticks == 0 {
		return
	}
	total := len(k.queue) + k.emitted
	k.tick++
	due := max(0, (k.tick-k.delay)*total/(k.ticks-k.delay))
	for k.emitted < due && len(k.queue) > 0 {
		k.queue[0]()
		k.queue = k.queue[1:]
		k.emitted++
	}
}

func (k *sk) flush() {
	for _, f := range k.queue {
		f()
	}
	k.queue = nil
}

func stitched(name string, seal bool) { stitchedLoop(name, seal, seal) }

// stitchedLoop is stitched with a choice, for Seal, of the plain first
// batch (plainFirst) or none: sealNextAVX2 continues after sealFirstAVX2,
// its first batch absorbing the 512 bytes before dst.
func stitchedLoop(name string, seal, plainFirst bool) {
	TEXT(name, NOSPLIT, "func(st *[14]uint64, dst, src []byte)")
	Pragma("noescape")
	switch {
	case seal && !plainFirst:
		Doc(name+" encrypts src, whose length must be a non-zero multiple of 512, into dst",
			"and absorbs into st.h the 512 bytes before dst and every 512-byte batch of",
			"dst but the last, each block with 2^128 added; st.x[12] advances.")
	case seal:
		Doc(name+" encrypts src, whose length must be a non-zero multiple of 512, into dst",
			"and absorbs into st.h every 512-byte batch of dst but the last (the",
			"caller absorbs that), each block with 2^128 added; st.x[12] advances.")
	default:
		Doc(name+" absorbs src, whose length must be a non-zero multiple of 512, into",
			"st.h (each block with 2^128 added) and decrypts it into dst; st.x[12]",
			"advances.")
	}
	k := newSK(seal)

	if plainFirst {
		Comment("The first batch: nothing written yet to authenticate.")
		k.batch(nil)
		k.advance()
		JZ(LabelRef(name + "_done"))
	}
	Label(name + "_loop")
	macBase := Mem{Base: k.src}
	if seal {
		macBase = Mem{Base: k.dst, Disp: -512}
	}
	k.batch(&macBase)
	k.advance()
	JNZ(LabelRef(name + "_loop"))
	Label(name + "_done")
	for i := range k.h {
		MOVQ(k.h[i], Mem{Base: k.st, Disp: offH + 8*i})
	}
	stAVX2.Return()
}

// newSK loads the pointers and h and counts a batch's vector instructions.
func newSK(seal bool) *sk {
	k := &sk{seal: seal}
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	k.dst = Load(Param("dst").Base(), GP64()).(GPVirtual)
	k.src = Load(Param("src").Base(), GP64()).(GPVirtual)
	k.n = Load(Param("src").Len(), GP64()).(GPVirtual)
	k.spill = AllocLocal(4 * 32)
	k.frameMasks()
	for i := range k.h {
		k.h[i] = GP64()
		MOVQ(Mem{Base: k.st, Disp: offH + 8*i}, k.h[i])
	}
	for i := range k.t {
		k.t[i] = GP64()
	}
	k.countRounds()
	return k
}

// stitchedTail emits sealTailAVX2: one batch whose Poly1305 steps read a
// separate 512 bytes, the output of sealAVX2's last batch, so that Seal's
// tail (run through a buffer) absorbs that batch instead of leaving it to
// unstitched code.
func stitchedTail(name string) {
	vec.Leaf(name, "func(st *[14]uint64, dst, src []byte, mac *[512]byte)", name+" encrypts the 512 bytes of src into dst (one batch) and absorbs mac",
		"into st.h (each block with 2^128 added); st.x[12] advances.")
	k := newSK(true)
	m := Load(Param("mac"), GP64())
	k.batch(&Mem{Base: m})
	for i := range k.h {
		MOVQ(k.h[i], Mem{Base: k.st, Disp: offH + 8*i})
	}
	stAVX2.Return()
}

// advance moves the pointers past a batch; the flags say whether bytes
// are left.
func (k *sk) advance() {
	ADDQ(U32(512), k.dst)
	ADDQ(U32(512), k.src)
	SUBQ(U32(512), k.n)
}

// batch emits one 8-block batch, with the 32 Poly1305 steps over the 512
// bytes at mac (if any) spread through its rounds.
func (k *sk) batch(mac *Mem) {
	k.queue, k.tick, k.emitted, k.delay = nil, 0, 0, 0
	if mac != nil && k.seal {
		k.delay = k.ticks * delayPct / 100
	}
	if mac != nil {
		for j := 0; j < 32; j++ {
			k.polyStep(mac.Offset(16 * j))
		}
	}
	k.loadState()
	k.rounds()
	k.output()
	ADDL(U8(8), k.stateWord(12))
}

// loadState broadcasts the 16 state words (lane j = block j).
func (k *sk) loadState() {
	k.creg = map[int]int{8: regC0, 9: regC0 + 1}
	for i := 0; i < 16; i++ {
		switch {
		case i == 12:
			k.counterRow(k.word(12))
		case i == 10 || i == 11:
			VPBROADCASTD(k.stateWord(i), y(regT))
			VMOVDQU(y(regT), k.slot(i))
		default:
			VPBROADCASTD(k.stateWord(i), k.word(i))
		}
	}
}

// rounds emits the ten double rounds with the queued scalar instructions
// spread through them, and whatever of the queue is left after them.
func (k *sk) rounds() {
	for range 10 {
		k.doubleRound()
	}
	k.flush()
}

// stitchedFirst emits sealFirstAVX2: sealAVX2's first batch (no Poly1305
// steps to run) with ChaCha20 block 0 computed meanwhile in scalar
// registers, its first 32 bytes (the MAC key) stored to key. This saves
// the separate block 0 computation a Seal needs before its MAC can start
// (about 90 ns in portable Go on Zen 5). The pointers are reloaded after
// the rounds, leaving 13 registers for state words during them (BP stays
// out of use); words 8, 9 and 10 live in the frame, at most one per
// quarter round, so the four chains lengthen alike.
func stitchedFirst(name string) {
	vec.Leaf(name, "func(st *[14]uint64, dst, src []byte, key *[32]byte)", name+" encrypts the first 512 bytes of src into dst (blocks st.x[12]",
		"on) and writes the first 32 bytes of the block before them (block 0:",
		"the MAC key) to key; st.x[12] advances.")
	k := &sk{seal: true}
	x := k.queueBlockZero("Block 0 in scalar registers: the state with the counter one less.")
	k.loadState()
	k.rounds()

	Comment("Block 0's first 32 bytes: words 0..7 plus the input state.")
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	kp := Load(Param("key"), GP64())
	for i := 0; i < 8; i++ {
		ADDL(k.stateWord(i), x[i])
		MOVL(x[i], Mem{Base: kp, Disp: 4 * i})
	}
	k.dst = Load(Param("dst").Base(), GP64()).(GPVirtual)
	k.src = Load(Param("src").Base(), GP64()).(GPVirtual)
	k.output()
	ADDL(U8(8), k.stateWord(12))
	stAVX2.Return()
}

func (k *sk) counterRow(dst VecPhysical) {
	VPBROADCASTD(k.stateWord(12), dst)
	VPADDD(stIota, dst, dst)
}

// polyStep queues h = (h + block at m + 2^128)·r, partially reduced: the
// same arithmetic as the poly1305 generator's mulStep (r1's multiple of 4
// folds the 2^128 terms through s1 = r1 + r1/4), written for three
// temporaries, h0 and h1 once they are consumed, and RDX.
func (k *sk) polyStep(m Mem) { k.polyStepHi(m, U8(1)) }

// polyStepHi is polyStep adding hi·2^128 (hi 0 or 1, an immediate or a
// quadword in memory) instead of 2^128.
func (k *sk) polyStepHi(m Mem, hi Op) { k.polyStepWords(m, m.Offset(8), hi) }

// polyStepWords is polyStepHi with the block's two quadwords w0 and w1
// taken from wherever they are (registers or memory): chain.stepOps on
// k.h and k.t.
func (k *sk) polyStepWords(w0, w1, hi Op) {
	c := chain{h: k.h, t: k.t}
	k.queue = append(k.queue, c.stepOps(w0, w1, hi, k.rWords())...)
}

func (k *sk) add(src, dst VecPhysical) { k.vop(func() { VPADDD(src, dst, dst) }) }
func (k *sk) xor(src, dst VecPhysical) { k.vop(func() { VPXOR(src, dst, dst) }) }

func (k *sk) rotate(bits int, regs ...VecPhysical) {
	for _, r := range regs {
		r := r
		switch bits {
		case 16:
			k.vop(func() { VPSHUFB(k.rot.By16, r, r) })
		case 8:
			k.vop(func() { VPSHUFB(k.rot.By8, r, r) })
		default:
			k.vop(func() { VPSLLD(U8(bits), r, y(regT)) })
			k.vop(func() { VPSRLD(U8(32-bits), r, r) })
			k.vop(func() { VPOR(y(regT), r, r) })
		}
	}
}

// quarterRounds runs the quarter round on two groups of words, step by
// step across them.
func (k *sk) quarterRounds(groups ...[4]int) {
	for _, rot := range [][2]int{{16, 12}, {8, 7}} {
		k.addXorRotate(groups, 0, 1, 3, rot[0]) // a += b; d ^= a; d <<<= 16 or 8
		k.addXorRotate(groups, 2, 3, 1, rot[1]) // c += d; b ^= c; b <<<= 12 or 7
	}
}

// addXorRotate is one of the quarter round's four steps on every group q:
// q[x] += q[y]; q[z] ^= q[x]; then q[z] <<<= bits, group after group.
func (k *sk) addXorRotate(groups [][4]int, x, y, z, bits int) {
	if k.extra != nil {
		k.addXorRotateMem(groups, y, z, bits)
		if !k.counting {
			k.extra.step(z == 1)
		}
		return
	}
	var rot []VecPhysical
	for _, q := range groups {
		k.add(k.word(q[y]), k.word(q[x]))
		k.xor(k.word(q[x]), k.word(q[z]))
		rot = append(rot, k.word(q[z]))
	}
	k.rotate(bits, rot...)
}

// swapC moves c words out of and into the two c registers.
func (k *sk) swapC(out, in [2]int) {
	for j, i := range out {
		r := k.word(i)
		k.vop(func() { VMOVDQU(r, k.slot(i)) })
		delete(k.creg, i)
		k.creg[in[j]] = regC0 + j
		r2, m := k.word(in[j]), k.slot(in[j])
		k.vop(func() { VMOVDQU(m, r2) })
	}
}

// doubleRound: the column round's second pair and the diagonal round's
// first pair both use c words 10 and 11, so two swaps suffice.
func (k *sk) doubleRound() {
	if k.extra != nil && !k.counting {
		k.extra.start(k.rot)
		defer k.extra.finish()
	}
	k.quarterRounds(columns[0], columns[1])
	k.swapC([2]int{8, 9}, [2]int{10, 11})
	k.quarterRounds(columns[2], columns[3])
	k.quarterRounds(diags[0], diags[1])
	k.swapC([2]int{10, 11}, [2]int{8, 9})
	k.quarterRounds(diags[2], diags[3])
}

// output adds the input state back, transposes the words into blocks and
// XORs them into dst, as the chacha20 avx2 kernel's outputGroups does:
// pairs of 4-word groups, at most 14 registers live.
func (k *sk) output() {
	VMOVDQU(k.word(8), k.slot(8))
	VMOVDQU(k.word(9), k.slot(9))
	k.creg = map[int]int{}
	pool := []VecPhysical{y(12), y(13), y(14), y(15)}
	regsOf := func(g int) [4]VecPhysical {
		var rs [4]VecPhysical
		for j := 0; j < 4; j++ {
			i := 4*g + j
			if g == 2 {
				rs[j] = pool[0]
				pool = pool[1:]
				VMOVDQU(k.slot(i), rs[j])
			} else {
				rs[j] = k.word(i)
			}
		}
		return rs
	}
	group := func(g int, rs [4]VecPhysical) [4]VecPhysical {
		t0, t1 := pool[0], pool[1]
		for j := 0; j < 4; j++ {
			i := 4*g + j
			if i == 12 {
				k.counterRow(t0)
			} else {
				VPBROADCASTD(k.stateWord(i), t0)
			}
			VPADDD(t0, rs[j], rs[j])
		}
		res, free := vec.TransposeDwords4(rs[0], rs[1], rs[2], rs[3], t0, t1)
		pool = append(free[:], pool[2:]...)
		return res
	}
	store := func(r VecPhysical, off int) {
		if k.put != nil {
			k.put(r, off)
			return
		}
		VPXOR(Mem{Base: k.src, Disp: off}, r, r)
		VMOVDQU(r, Mem{Base: k.dst, Disp: off})
	}
	for p := 0; p < 2; p++ {
		lo := group(2*p, regsOf(2*p))
		hi := group(2*p+1, regsOf(2*p+1))
		for j := 0; j < 4; j++ {
			t := pool[0]
			VPERM2I128(U8(0x20), hi[j], lo[j], t)     // block j, words 8p..8p+7
			VPERM2I128(U8(0x31), hi[j], lo[j], lo[j]) // block j+4
			store(t, 64*j+32*p)
			store(lo[j], 64*(j+4)+32*p)
		}
		pool = append(pool, lo[:]...)
		pool = append(pool, hi[:]...)
	}
}

// scalarState loads the 16 ChaCha20 state words, word i from in(i), into
// general registers and, for the first inMem (at most 3) of words 8, 9 and
// 10, the frame at words: at most one word per quarter round lives in
// memory, so no chain of a round carries two.
func scalarState(in func(i int) Op, words Mem, inMem int) [16]Op {
	var x [16]Op
	for i := range x {
		if i >= 8 && i < 8+inMem {
			m := words.Offset(4 * (i - 8))
			t := GP32()
			MOVL(in(i), t)
			MOVL(t, m)
			x[i] = m
			continue
		}
		r := GP32()
		MOVL(in(i), r)
		x[i] = r
	}
	return x
}

// scalarRounds emits, through emit, ChaCha20's twenty rounds on x: one
// block in scalar registers, its four quarter rounds side by side.
func scalarRounds(x *[16]Op, emit func(func())) {
	for range 10 {
		scalarDoubleRound(x, emit)
	}
}

// scalarDoubleRound emits, through emit, one double round on x.
func scalarDoubleRound(x *[16]Op, emit func(func())) {
	for _, groups := range [][4][4]int{columns, diags} {
		// step emits one operation for each of the four quarter rounds.
		step := func(op func(g [4]int)) {
			for _, g := range groups {
				emit(func() { op(g) })
			}
		}
		for _, rot := range [][2]int{{16, 12}, {8, 7}} {
			step(func(g [4]int) { ADDL(x[g[1]], x[g[0]]) })
			step(func(g [4]int) { XORL(x[g[0]], x[g[3]]) })
			step(func(g [4]int) { ROLL(U8(rot[0]), x[g[3]]) })
			step(func(g [4]int) { ADDL(x[g[3]], x[g[2]]) })
			step(func(g [4]int) { XORL(x[g[2]], x[g[1]]) })
			step(func(g [4]int) { ROLL(U8(rot[1]), x[g[1]]) })
		}
	}
}

// rolledRounds emits a batch's ten double rounds as a loop (a tenth of the
// code: the unrolled kernels' code outgrows the op cache), iter queuing
// the scalar instructions of one iteration, spread through its rounds.
func (k *sk) rolledRounds(label string, iter func()) { k.rolledRoundsN(label, 10, iter) }

// rolledRoundsN is rolledRounds for n of the batch's double rounds.
func (k *sk) rolledRoundsN(label string, n int, iter func()) {
	cnt := AllocLocal(8)
	MOVQ(U32(n), cnt)
	k.rolledLoop(label, cnt, iter)
}

// rolledLoop emits one double round of a batch as a loop run cnt times
// (a quadword in the frame, not zero), iter queuing the scalar
// instructions of one iteration, spread through its rounds.
func (k *sk) rolledLoop(label string, cnt Mem, iter func()) {
	all := k.ticks
	k.ticks /= 10
	k.roundLoop(label, cnt, iter, k.doubleRound)
	k.ticks = all
}

// roundLoop emits a loop run cnt times (a quadword in the frame, not
// zero) of round, whose vector instructions k.ticks counts, with the
// scalar instructions iter queues spread through each iteration.
func (k *sk) roundLoop(label string, cnt Mem, iter, round func()) {
	Label(label)
	k.queue, k.tick, k.emitted, k.delay = nil, 0, 0, 0
	iter()
	round()
	k.flush()
	DECQ(cnt)
	JNZ(LabelRef(label))
}

// stitchedOpenFour emits openFourAVX2 (on a fourState): sealTwoKernel's
// Open of up to four batches (Open of two batches is openTwoDirectAVX2's,
// opentwo.go).
func stitchedOpenFour(name string) { sealTwoKernel(name, 4, false, false) }

// stitchedSealTwoDirect emits sealTwoDirectAVX2 (batches 2) or
// sealFourDirectAVX2: sealTwoKernel's Seal, reading the plaintext and
// writing the ciphertext itself, on a directState, as sealDirectAVX2 does.
//
// Tried for sealTwoDirectAVX2 and dropped: blocks 9 and 10 in YMM rows
// beside the first batch and the second from block 11, so that the second
// batch's rounds absorb 40 MAC blocks and at most 24 and the lengths are
// left for after them (13 serial steps at 1 KiB instead of 17). The rows
// cost the first batch more than the four steps save. Measured on Zen 5
// under avx512=off, Seal with 13 bytes of additional data, best of 4000
// calls, median over 16 placements of the message, at six stack depths
// (ns, this kernel -> the rows with the first batch as sealTenDirectAVX2's,
// block 0 in its first half and r^2..r^21 in its second, the 40 blocks in
// two chains of 20 -> the rows with this first batch, the 40 blocks in one
// chain): 768 bytes 423-437 -> 445-459 -> 485-498, 1024 461-473 -> 481-495
// -> 522-535 (x/crypto 451 and 545).
//
// Also tried and dropped, for 641 to 1024 bytes (sealWideDirectAVX2): the
// two batches as two word-sliced sets whose rounds overlap, set 0 alone for
// five double rounds (block 0 beside them), both sets for five in the wide
// kernels' spilled form (the powers of r beside them), set 1 alone for five
// with set 0's MAC beside them in two chains, then set 1's output and MAC as
// here. The kernel alone was quicker (Zen 5, avx512=off, best of many calls:
// 768 bytes 380-396 ns against 400-418, 1 KiB 415-443 against 435-444), but
// whole Seal calls only about 2% on average, their time depending on where
// the kernel's 12 KB of code landed against the Go code of the Seal path
// (the kernel called from elsewhere stayed quick): over six builds differing
// in an unused test function, median per call, 768 bytes 419-442 -> 397-448
// ns, 1 KiB 452-469 -> 431-485; in the package's benchmark over four others,
// best ns/op, 768 bytes 443-457 -> 427-468, 1 KiB 484-503 -> 473-495; and in
// the build of the branch with it, 768 bytes 445 -> 456 and 1 KiB 489 -> 518
// (x/crypto 480-485 and 582-592). And before it: both sets for all ten
// double rounds, then the whole MAC (66 steps at 1 KiB) in three chains
// after them: the rounds about 280 ns against 340, the steps after them
// about 130 ns (about 7.5 cycles a step, the multiplications the limit),
// kernel alone 444 ns against 447.
func stitchedSealTwoDirect(name string, batches int) { sealTwoKernel(name, batches, true, false) }

// stitchedSealTwoRows emits sealEighteenDirectAVX2: sealTwoDirectAVX2 with
// blocks 17 and 18 in YMM rows beside the second batch (ten.go), for
// 1025 to 1152 bytes, which sealFourDirectAVX2 ran as three batches.
func stitchedSealTwoRows(name string) { sealTwoKernel(name, 2, true, true) }

// stitchedThreeRows emits sealThreeDirectAVX2 or openThreeAVX2 (direct):
// three batches with blocks 25 and 26 in YMM rows beside the first, for
// 1537 to 1664 bytes, which the four-batch kernels ran as four (Seal
// writes the rows' ciphertext with the first batch's, Open keeps their
// keystream in the frame as openEighteenAVX2 does).
func stitchedThreeRows(name string, direct bool) { sealTwoKernel(name, 3, direct, true) }

// stitchedOpenTwoRows emits openEighteenAVX2, the same for Open on a
// fourState: the rows go beside the first batch (the second's rounds
// carry the first batch's MAC steps), their keystream waits in the frame
// until the MAC has read their ciphertext (after the second batch's,
// which their plaintext follows in the buffer).
func stitchedOpenTwoRows(name string) { sealTwoKernel(name, 2, false, true) }

// sealTwoKernel emits a kernel of 513 to 1024 bytes in one call (batches
// 2), two word-sliced batches, with no Go code between the parts and the
// MAC in general registers throughout. Each batch's rounds run as a loop
// of double rounds: unrolled (as the one-batch kernels then were), the
// kernel was 28 KB of code and ran from the decoders, not the op cache (measured on Zen 5
// under avx512=off, kernel alone at 1 KiB: about 590 ns unrolled, 465
// rolled). The first batch's iterations each run a double round of block 0
// (the MAC key) in general registers; after it come the key, the
// additional data's step and the first batch's output. The second batch's
// iterations each run three MAC steps over the first batch's ciphertext
// and two steps of the powers of r (a chain of their own, sharing the
// temporaries: the steps are emitted whole, and renaming keeps the chains
// apart). Its own ciphertext and the lengths follow in two chains
// (twoChains, directChains).
//
// With batches 4 it takes 513 to 2048 bytes: the batches after the second
// in a loop (moreBatches); with batches 3, 1537 to 1664 bytes.
//
// With extra, two more blocks run in YMM rows beside one batch (ten.go),
// 128 bytes more: Seal of two batches has them beside the second, the
// other kernels beside the first; they are the message's last blocks, 17
// and 18 or 25 and 26 (rowsFirst: how far the first of them lies past the
// counter of the batch they run beside).
//
// With direct, it is Seal on a directState (see stitchedSealDirect);
// without, Open's kernel over a fourState's buffer: the
// same MAC over the ciphertext, which stays where it is while the
// plaintext goes one batch before it (the first batch's to the MAC
// input's blocks 0 to 31, unused here), each batch's output stored once
// its MAC steps have read the batch before. The caller compares the tag.
func sealTwoKernel(name string, batches int, direct, extra bool) {
	open := !direct
	most := batches * batchBytes
	// With extra, two more blocks in YMM rows: beside the second of two
	// batches in Seal, else beside the first (after the last batch's blocks).
	rowsFirst, rowsLess := 0, 0
	least, blocks := batchBytes+1, fmt.Sprintf("up to %d word-sliced batches", batches)
	if extra {
		least = most + 1 // the callers' range: the rows hold the last blocks
		blocks = fmt.Sprintf("%d word-sliced batches and two blocks in YMM rows", batches)
		most += 128
		rowsLess = 128
		rowsFirst = 8 * batches
		if direct && batches == 2 {
			rowsFirst = 8
		}
	}
	size, nOff := ofEnd, ofN
	// Not NOSPLIT: the frame (powers, spill area, masks) outgrows what a
	// function may take without a stack check.
	if direct {
		TEXT(name, 0, fmt.Sprintf("func(st *[%d]byte, dst, src []byte)", sdEnd))
		Pragma("noescape")
		Doc(name+fmt.Sprintf(" encrypts src (%d to %d bytes) into dst with the blocks", least, most),
			fmt.Sprintf("(%s) from st.x[12] on, all but its last n mod 32", blocks),
			"bytes, whose ciphertext replaces them in st's tail (zero-padded), and",
			"writes the tag of the additional data's block (2^128 bit from st), the",
			"ciphertext zero-padded and the lengths' block.")
		vec.PCAlign(64)
	} else {
		TEXT(name, 0, fmt.Sprintf("func(st *[%d]byte)", size))
		Pragma("noescape")
		Doc(name+fmt.Sprintf(" decrypts the first n bytes (%d to %d) of st's buffer with the", least, most),
			fmt.Sprintf("blocks (%s) from st.x[12] on, writes the", blocks),
			"tag of MAC block 32 (2^128 bit from hi[32]), the ciphertext zero-padded",
			"and block 33, and leaves the plaintext's first 512 bytes in MAC blocks",
			"0 to 31, the rest at the buffer's start.")
	}
	k := &sk{}
	x, in := k.twoStart(extra)
	k.loadState()
	var ks Mem // Open with extra: the rows' keystream, until the MAC has read their ciphertext
	if extra && rowsFirst > 8 {
		k.extra = &rowPair{first: rowsFirst}
		k.storeDWords()
		if open {
			ks = AllocLocal(128)
		}
	}
	k.rolledRounds(name+"_b1", func() { scalarDoubleRound(&x, func(f func()) { k.queue = append(k.queue, f) }) })
	k.macKeyFrom(&x, in, ooS)
	maxJ := 21 // r^2..r^21 from ten iterations of two steps
	if extra {
		maxJ = 23 // two more steps after them
	}
	rf := AllocLocal(24)
	pw := AllocLocal(24 * (maxJ + 1))
	a, p := k.macStart(rf, pw)
	r := words3(rf)
	adBlock, adHi := Mem{Base: k.st, Disp: ooMAC + 16*(openSteps-2)}, Mem{Base: k.st, Disp: ooHi + 8*(openSteps-2)}
	if direct {
		adBlock, adHi = Mem{Base: k.st, Disp: sdAD}, Mem{Base: k.st, Disp: sdHi}
	}
	for _, f := range a.stepOps(adBlock, adBlock.Offset(8), adHi, r) {
		f()
	}
	buf := GP64().(GPVirtual)
	var delta Mem // direct: src - dst, for the source of the batches after the first
	if direct {
		Load(Param("dst").Base(), buf)
		k.dst = buf
		k.src = Load(Param("src").Base(), GP64()).(GPVirtual)
		delta = AllocLocal(8)
		t := GP64()
		MOVQ(k.src, t)
		SUBQ(buf, t)
		MOVQ(t, delta)
	} else {
		LEAQ(Mem{Base: k.st, Disp: ooBuf}, buf)
		k.dst, k.src = buf, buf
	}
	if open {
		Comment("Open: the plaintext goes elsewhere, the ciphertext stays for the MAC.")
		k.dst = GP64().(GPVirtual)
		LEAQ(Mem{Base: k.st, Disp: ooMAC}, k.dst)
	}
	if k.extra != nil {
		// The rows' pieces, off from 512 on, are blocks rowsFirst+1 on.
		at := 64*rowsFirst - batchBytes
		if open {
			k.put = func(r Op, off int) { VMOVDQU(r, ks.Offset(off-batchBytes)) }
		} else {
			n := Load(Param("src").Len(), GP64()).(GPVirtual)
			k.put = func(r Op, off int) { k.putPiece(name+"_r", n, r, off+at) }
		}
		k.rowsOutput()
		k.put, k.extra = nil, nil
	}
	k.output()

	Comment("The second batch: three MAC steps and two powers per double round.")
	ADDL(U8(8), k.stateWord(12))
	pwp := GP64().(GPVirtual)
	LEAQ(pw.Offset(48), pwp)
	pc := chain{h: p, t: a.t}
	k.loadState()
	if extra && rowsFirst == 8 {
		k.extra = &rowPair{first: 8}
		k.storeDWords()
	}
	k.rolledRounds(name+"_b2", func() {
		q := func(f func()) { k.queue = append(k.queue, f) }
		for j := range 2 {
			k.queue = append(k.queue, pc.stepOps(nil, nil, nil, r)...)
			q(func() {
				for i := range 3 {
					MOVQ(p[i], Mem{Base: pwp, Disp: 24*j + 8*i})
				}
			})
		}
		q(func() { ADDQ(U8(48), pwp) })
		k.queueSteps(a, r, buf, 3)
	})
	for j := 0; j < maxJ-21; j++ {
		for _, f := range pc.stepOps(nil, nil, nil, r) {
			f()
		}
		for i := range 3 {
			MOVQ(p[i], Mem{Base: pwp, Disp: 24*j + 8*i})
		}
	}
	k.batchTail(a, r, buf, open, name+"_b2", delta)
	k.extra = nil
	if batches > 2 {
		k.moreBatches(name, buf, r, nOff, open, delta, rowsLess)
	}
	if direct {
		k.directChains(name, buf, k.directRem(buf), rf, pw, true)
	} else {
		k.twoChains(name, buf, rf, pw, nOff, batchBytes)
		if open && extra {
			Comment("The rows' plaintext after the last batch's, their keystream wiped.")
			z := y(15)
			VPXOR(z, z, z)
			for i := range 4 {
				t := y(regT)
				VMOVDQU(ks.Offset(32*i), t)
				VPXOR(Mem{Base: k.st, Disp: ooBuf + 64*rowsFirst + 32*i}, t, t)
				VMOVDQU(t, Mem{Base: k.st, Disp: ooBuf + 64*rowsFirst - batchBytes + 32*i})
				VMOVDQU(z, ks.Offset(32*i))
			}
		}
	}
	stAVX2.Return()
}

// twoStart starts a sealTwoKernel kernel: st, the frame's spill area (with
// extra, for the d words of a second batch too) and masks, the batch's
// instructions counted, and block 0 (the state with the counter one less)
// loaded in general registers and three words in the frame; it returns the
// block's words and where the state's words are.
func (k *sk) twoStart(extra bool) ([16]Op, func(i int) Op) {
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	k.spill = AllocLocal(4 * 32)
	if extra {
		k.spill = AllocLocal(8 * 32)
	}
	k.frameMasks()
	words := AllocLocal(16)
	k.countRounds()
	in := func(i int) Op { return k.stateWord(i) }
	x := scalarState(in, words, 3)
	DECL(x[12])
	return x, in
}

// macStart, after the MAC key, copies r0, r1, s1 to rf, starts the chain
// (k.h, k.t: a zero accumulator and its temporaries) and the powers of r:
// pw's first two entries r^0 = 1 and r^1, and p holding r^1 for the steps
// that continue the table.
func (k *sk) macStart(rf, pw Mem) (chain, [3]GPVirtual) {
	r := words3(rf)
	a := k.macChain(rf)
	var p [3]GPVirtual
	for i := range p {
		p[i] = GP64().(GPVirtual)
	}
	MOVQ(U32(1), p[0])
	MOVQ(p[0], pw)
	XORL(p[2].As32(), p[2].As32())
	MOVQ(p[2], pw.Offset(8))
	MOVQ(p[2], pw.Offset(16))
	for i := range 3 {
		MOVQ(r[i], p[i])
		if i < 2 {
			MOVQ(p[i], pw.Offset(24+8*i))
		}
	}
	XORL(p[2].As32(), p[2].As32())
	MOVQ(p[2], pw.Offset(40))
	return a, p
}

// macChain, after the MAC key, copies r0, r1, s1 to rf and starts the
// chain k.h, k.t: a zero accumulator and its temporaries.
func (k *sk) macChain(rf Mem) chain {
	r := words3(rf)
	a := newChain()
	for i := range 3 {
		MOVQ(k.rWord(i), a.t[i])
		MOVQ(a.t[i], r[i])
		XORQ(a.h[i], a.h[i])
	}
	k.h, k.t = a.h, a.t
	return a
}

// queueSteps queues, for one double round, n MAC steps of chain a over
// the blocks at buf and moves buf past them: in a batch after the first,
// three over the previous batch's output (ten double rounds absorb 30 of
// its 32 blocks).
func (k *sk) queueSteps(a chain, r [3]Mem, buf GPVirtual, n int) {
	for j := range n {
		k.queue = append(k.queue, stepAt(a, buf, j, r)...)
	}
	k.queue = append(k.queue, func() { ADDQ(U8(16*n), buf) })
}

// batchTail absorbs the two MAC blocks the rounds left (see queueSteps),
// moves buf on to this batch's output and emits that output: in place for
// Seal, the plaintext a batch behind buf for Open, and through putPiece for
// a direct kernel (delta set; label names the site).
func (k *sk) batchTail(a chain, r [3]Mem, buf GPVirtual, open bool, label string, delta Mem) {
	for j := range 2 {
		for _, f := range a.stepOps(Mem{Base: buf, Disp: 16 * j}, Mem{Base: buf, Disp: 16*j + 8}, U8(1), r) {
			f()
		}
	}
	ADDQ(U8(32), buf)
	k.dst, k.src = buf, buf
	if open {
		k.dst = GP64().(GPVirtual)
		LEAQ(Mem{Base: buf, Disp: -batchBytes}, k.dst)
	}
	if delta.Base != nil {
		k.directOutput(label, buf, delta)
	} else {
		k.output()
	}
}

// directRem returns the message's bytes from buf on, in a direct kernel
// (its output at dst).
func (k *sk) directRem(buf GPVirtual) GPVirtual {
	rem := Load(Param("src").Len(), GP64()).(GPVirtual)
	dst := Load(Param("dst").Base(), GP64())
	ADDQ(dst, rem)
	SUBQ(buf, rem)
	return rem
}

// directOutput emits the output of a direct kernel's batch at buf in dst,
// its source at buf plus delta, through putPiece; label names the site.
func (k *sk) directOutput(label string, buf GPVirtual, delta Mem) {
	k.dst = buf
	k.src = GP64().(GPVirtual)
	MOVQ(delta, k.src)
	ADDQ(buf, k.src)
	rem := k.directRem(buf)
	k.put = func(r Op, off int) { k.putPiece(label, rem, r, off) }
	if k.extra != nil {
		k.rowsOutput()
	}
	k.output()
	k.put = nil
}

// moreBatches emits sealFour*'s and openFourAVX2's batches after the second, as many as the
// message needs: each absorbs the one before it (buf, its output) beside
// its rounds, and moves buf on to its own output. The message's length in
// st at nOff then counts from buf on, plus a batch (twoChains skips one).
func (k *sk) moreBatches(name string, buf GPVirtual, r [3]Mem, nOff int, open bool, delta Mem, less int) {
	direct := delta.Base != nil
	a := chain{h: k.h, t: k.t}
	cnt := AllocLocal(8)
	n := GP64()
	if direct {
		Load(Param("src").Len(), n)
	} else {
		MOVQ(Mem{Base: k.st, Disp: nOff}, n)
	}
	ADDQ(U32(batchBytes-1-less), n) // less: the bytes the rows beside the first batch take
	SHRQ(U8(9), n)
	SUBQ(U8(2), n)
	MOVQ(n, cnt)
	JZ(LabelRef(name + "_last"))
	Label(name + "_more")
	ADDL(U8(8), k.stateWord(12))
	k.loadState()
	k.rolledRounds(name+"_bn", func() { k.queueSteps(a, r, buf, 3) })
	k.batchTail(a, r, buf, open, name+"_bn", delta)
	DECQ(cnt)
	JNZ(LabelRef(name + "_more"))
	if direct {
		Label(name + "_last")
		return
	}
	Comment("The length from the last batch on, plus the batch twoChains skips.")
	MOVQ(Mem{Base: k.st, Disp: nOff}, n)
	ADDQ(k.st, n)
	SUBQ(buf, n)
	ADDQ(U32(ooBuf+batchBytes), n)
	MOVQ(n, Mem{Base: k.st, Disp: nOff})
	Label(name + "_last")
}

// block0Scalar emits a kernel computing the first 32 bytes of keystream
// block 0 (the MAC key) in general registers: a single block's rounds in
// row-layout vectors are one chain of dependent vector operations (two
// cycles each on Zen 5), while the scalar code runs the four columns side
// by side at one cycle per operation.
func block0Scalar(name string) {
	vec.Leaf(name, "func(out *[32]byte, key *[32]byte, nonce *[12]byte)", name+" writes the first 32 bytes of ChaCha20 keystream block 0 for key",
		"and nonce to out.")
	words := AllocLocal(16) // three words, the frame kept 8-byte aligned
	sigma := []uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}
	key := Load(Param("key"), GP64())
	nonce := Load(Param("nonce"), GP64())
	in := func(i int) Op {
		switch {
		case i < 4:
			return U32(sigma[i])
		case i < 12:
			return Mem{Base: key, Disp: 4 * (i - 4)}
		case i == 12:
			return U32(0)
		}
		return Mem{Base: nonce, Disp: 4 * (i - 13)}
	}
	x := scalarState(in, words, 2)
	scalarRounds(&x, func(f func()) { f() })
	key = Load(Param("key"), GP64())
	out := Load(Param("out"), GP64())
	for i := 0; i < 8; i++ {
		if i < 4 {
			ADDL(U32(sigma[i]), x[i])
		} else {
			ADDL(Mem{Base: key, Disp: 4 * (i - 4)}, x[i])
		}
		MOVL(x[i], Mem{Base: out, Disp: 4 * i})
	}
	RET()
}

// Offsets in the Go side's openState (chacha20poly1305/stitched.go): a
// stitchState (r at offR, written by the kernel), then s and the tag
// (written), the 2^128 bit and the words of each MAC block, and the
// ciphertext, decrypted in place.
const (
	ooS   = 112
	ooTag = 128
	ooHi  = 144
	ooMAC = ooHi + 8*openSteps
	ooBuf = ooMAC + 16*openSteps
	ooN   = ooBuf + 512 + 16 // uint64: the message's length (sealOne*), after the buffer's 16 bytes of slack
	ooEnd = ooN + 8
)

// batchBytes is a word-sliced batch's length.
const batchBytes = 512

// Offsets in the Go side's fourState: openState's up to the buffer, which
// holds four batches.
const (
	ofN   = ooBuf + 4*batchBytes + 16
	ofEnd = ofN + 8
)

// openSteps is the number of MAC blocks openState holds: a message of up
// to 512 bytes (32 blocks), one block of additional data and the lengths.
const openSteps = 34

// stitchedOpenOne emits a row-layout openOne kernel (openOne10Y2,
// openOne18Y4, openOne10Z4, openOne18Z4: steps, the MAC blocks it absorbs,
// fits the shorter messages; the word-sliced batch's Open is
// openDirectAVX2, stitchedRolled's): Open of a message of up to b's
// blocks in one batch while the general registers
// compute block 0 (as in sealFirstAVX2), take the MAC key from it and run
// the MAC's Poly1305 steps and the tag: Open's MAC input exists before the
// keystream does, so nothing of it waits for the vector chain. The MAC
// input is right-aligned in openSteps blocks; the blocks before it are
// zero without the 2^128 bit, which leaves the accumulator at zero.
func stitchedOpenOne(name string, steps int, b oneBatch) {
	vec.Leaf(name, fmt.Sprintf("func(st *[%d]byte)", ooEnd), name+fmt.Sprintf(" writes the tag of the last %d blocks of st's MAC input", steps),
		"(each block i with hi[i]·2^128 added) under the MAC key from ChaCha20",
		fmt.Sprintf("block st.x[12]-1, and decrypts the first %d bytes of st's buffer in", 64*b.n()),
		fmt.Sprintf("place with the %s from st.x[12] on.", b))
	k := newOneSK(b)
	q := func(f func()) { k.queue = append(k.queue, f) }
	for j := openSteps - steps; j < openSteps; j++ {
		k.polyStepHi(Mem{Base: k.st, Disp: ooMAC + 16*j}, Mem{Base: k.st, Disp: ooHi + 8*j})
	}
	q(func() { k.finishAt(ooS, ooTag) })
	k.batchInPlace()
	stAVX2.Return()
}

// newOneSK starts a one-call kernel on an openState (openOne*, sealOne*;
// sealDirectY4 on a directState): it counts the batch's vector instructions and queues block
// 0 in general registers (the state with the counter one less), the MAC
// key from it and a zero accumulator.
func newOneSK(b oneBatch) *sk {
	k := &sk{rows: b}
	x := k.queueBlockZero("Block 0 in general registers: the state with the counter one less.")
	k.queueMACKey(&x, func(i int) Op { return k.stateWord(i) }, ooS)
	return k
}

// queueBlockZero starts a kernel that computes ChaCha20 block 0 (the
// state with the counter one less) in general registers beside its batch:
// it loads st, reserves the spill area and the block's three words kept in
// the frame, counts the batch's vector instructions and queues the block's
// rounds. It returns the block's words.
func (k *sk) queueBlockZero(comment string) [16]Op {
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	k.spill = AllocLocal(4 * 32)
	if k.extra != nil {
		k.spill = AllocLocal(8 * 32) // the d words too
	}
	k.frameMasks()
	words := AllocLocal(16) // three words, the frame kept 8-byte aligned
	k.countRounds()

	Comment(comment)
	x := scalarState(func(i int) Op { return k.stateWord(i) }, words, 3)
	DECL(x[12])
	k.queue, k.tick, k.emitted, k.delay = nil, 0, 0, 0
	scalarRounds(&x, func(f func()) { k.queue = append(k.queue, f) })
	return x
}

// stitchedSealOne emits a sealOne kernel (sealOneZ4, sealOneZ8):
// Seal of a message of up to b's blocks in one call, through st's buffer.
// Block 0, the MAC key, the additional data's step and the powers
// r^1..r^maxJ of the MAC key run in general registers beside the batch; the ciphertext's steps and the lengths' follow the batch's output
// in two independent chains (see twoChains), then their combination and
// the tag.
func stitchedSealOne(name string, b oneBatch) {
	vec.Leaf(name, fmt.Sprintf("func(st *[%d]byte)", ooEnd), name+fmt.Sprintf(" encrypts the first n bytes (at most %d) of st's buffer in place", 64*b.n()),
		fmt.Sprintf("with the %s from st.x[12] on and absorbs: MAC block 32", b),
		"(2^128 bit from hi[32]), the ciphertext zero-padded, block 33, and writes",
		"the tag.")
	k := newOneSK(b)
	k.polyStepHi(Mem{Base: k.st, Disp: ooMAC + 16*(openSteps-2)}, Mem{Base: k.st, Disp: ooHi + 8*(openSteps-2)})
	maxJ := 2 * b.n() // half of the at most 4n+1 blocks after the batch
	rf := AllocLocal(24)
	pw := AllocLocal(24 * (maxJ + 1))
	k.queuePowers(rf, pw, maxJ)
	buf := k.batchInPlace()
	k.twoChains(name, buf, rf, pw, ooN, 0)
	stAVX2.Return()
}

// chain is a Poly1305 accumulator and the three temporaries of its step.
type chain struct{ h, t [3]GPVirtual }

func newChain() chain {
	var c chain
	for i := range c.h {
		c.h[i], c.t[i] = GP64().(GPVirtual), GP64().(GPVirtual)
	}
	return c
}

// stepOps returns the instructions of h = (h + w0 + w1·2^64 + hi·2^128)·r
// (without the addition where w0 is nil), partially reduced, with r0, r1
// and s1 = r1 + r1/4 at r: six registers and RDX, so that two chains fit
// beside the pointers.
func (c chain) stepOps(w0, w1, hi Op, r [3]Mem) []func() {
	h0, h1, h2 := c.h[0], c.h[1], c.h[2]
	t0, t1, t2 := c.t[0], c.t[1], c.t[2]
	var ops []func()
	q := func(f func()) { ops = append(ops, f) }
	if w0 != nil {
		q(func() { ADDQ(w0, h0) })
		q(func() { ADCQ(w1, h1) })
		q(func() { ADCQ(hi, h2) })
	}
	q(func() { MOVQ(h0, RDX) })
	q(func() { MULXQ(r[0], t0, t1) })
	q(func() { MULXQ(r[1], h0, t2) })
	q(func() { ADDQ(h0, t1) })
	q(func() { ADCQ(U8(0), t2) })
	q(func() { MOVQ(h1, RDX) })
	q(func() { MULXQ(r[0], h0, h1) })
	q(func() { ADDQ(h0, t1) })
	q(func() { ADCQ(h1, t2) })
	q(func() { MULXQ(r[2], h0, h1) })
	q(func() { ADDQ(h0, t0) })
	q(func() { ADCQ(h1, t1) })
	q(func() { ADCQ(U8(0), t2) })
	q(func() { MOVQ(h2, h0) })
	q(func() { IMULQ(r[2], h0) })
	q(func() { IMULQ(r[0], h2) })
	q(func() { ADDQ(h0, t1) })
	q(func() { ADCQ(h2, t2) })
	q(func() { MOVQ(t2, h2) })
	q(func() { ANDQ(U8(3), h2) })
	q(func() { MOVQ(t2, h1) })
	q(func() { SHRQ(U8(2), h1) })
	q(func() { ANDQ(I8(-4), t2) })
	q(func() { ADDQ(h1, t2) })
	q(func() { ADDQ(t2, t0) })
	q(func() { ADCQ(U8(0), t1) })
	q(func() { ADCQ(U8(0), h2) })
	q(func() { MOVQ(t0, h0) })
	q(func() { MOVQ(t1, h1) })
	return ops
}

// words3 is the three quadwords at m.
func words3(m Mem) [3]Mem { return [3]Mem{m, m.Offset(8), m.Offset(16)} }

// queuePowers queues, after the MAC key, its words r0, r1, s1 copied to rf
// and the table pw of r^j for j = 0..maxJ (three words each, r^0 = 1).
func (k *sk) queuePowers(rf, pw Mem, maxJ int) {
	q := func(f func()) { k.queue = append(k.queue, f) }
	r := words3(rf)
	c := newChain()
	q(func() {
		for i := range 3 {
			MOVQ(k.rWord(i), c.t[i])
			MOVQ(c.t[i], r[i])
		}
		MOVQ(U32(1), c.t[0])
		MOVQ(c.t[0], pw)
		XORL(c.h[2].As32(), c.h[2].As32())
		MOVQ(c.h[2], pw.Offset(8))
		MOVQ(c.h[2], pw.Offset(16))
		MOVQ(r[0], c.h[0])
		MOVQ(r[1], c.h[1])
	})
	store := func(j int) {
		q(func() {
			for i := range 3 {
				MOVQ(c.h[i], pw.Offset(24*j+8*i))
			}
		})
	}
	store(1)
	for j := 2; j <= maxJ; j++ {
		k.queue = append(k.queue, c.stepOps(nil, nil, nil, r)...)
		store(j)
	}
}

// twoChains absorbs, after the batch, the ciphertext's L-1 blocks at buf
// (zero-padded) and the lengths (copied after them) in two chains: with
// J = floor(L/2), chain A continues k.h over the first L-J blocks and chain
// B starts from zero over the last J, both multiplying by r. Horner's sum
// over all L blocks is then A·r^J + B (r^J from pw), and the tag follows.
//
// skip is how many bytes of the message lie before buf, absorbed already;
// the message's length is at nOff in st (ooN in an openState, ofN in a
// fourState).
func (k *sk) twoChains(name string, buf GPVirtual, rf, pw Mem, nOff, skip int) {
	Comment("Zeros after the ciphertext (the MAC pads with them), then the lengths.")
	n := GP64()
	MOVQ(Mem{Base: k.st, Disp: nOff}, n)
	if skip > 0 {
		SUBQ(U32(skip), n)
	}
	z := XMM()
	VPXOR(z, z, z)
	VMOVDQU(z, Mem{Base: buf, Index: n, Scale: 1})
	ADDQ(U8(15), n)
	ANDQ(I8(-16), n)
	VMOVDQU(Mem{Base: k.st, Disp: ooMAC + 16*(openSteps-1)}, z)
	VMOVDQU(z, Mem{Base: buf, Index: n, Scale: 1})
	Comment("L = n/16 + 1 blocks: J for chain B, one more for A if L is odd.")
	SHRQ(U8(4), n)
	INCQ(n)
	jj := GP64()
	MOVQ(n, jj)
	SHRQ(U8(1), jj)
	pf := powerAt(pw, jj)
	cnt := AllocLocal(8)
	MOVQ(jj, cnt)
	r := words3(rf)
	a := chain{h: k.h, t: k.t}
	b := newChain()
	for i := range b.h {
		XORQ(b.h[i], b.h[i])
	}
	TESTL(U32(1), n.As32())
	JZ(LabelRef(name + "_even"))
	for _, f := range a.stepOps(Mem{Base: buf}, Mem{Base: buf, Disp: 8}, U8(1), r) {
		f()
	}
	ADDQ(U8(16), buf)
	Label(name + "_even")
	off := GP64()
	SHLQ(U8(4), jj)
	MOVQ(jj, off)
	CMPQ(cnt, U8(0))
	JE(LabelRef(name + "_done"))
	Label(name + "_loop")
	sa := a.stepOps(Mem{Base: buf}, Mem{Base: buf, Disp: 8}, U8(1), r)
	sb := b.stepOps(Mem{Base: buf, Index: off, Scale: 1}, Mem{Base: buf, Index: off, Scale: 1, Disp: 8}, U8(1), r)
	// One step after the other: both use RDX, and the out-of-order core
	// overlaps the two independent chains anyway.
	for _, f := range append(sa, sb...) {
		f()
	}
	ADDQ(U8(16), buf)
	DECQ(cnt)
	JNZ(LabelRef(name + "_loop"))
	Label(name + "_done")
	mulAdd(a.h, words3(pf), []Op{b.h[0], b.h[1], b.h[2]})
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	k.h = a.h
	k.finishAt(ooS, ooTag)
}

// powerAt copies r^j from the table pw (three words per power, see
// queuePowers) to a frame slot of its own and returns that.
func powerAt(pw Mem, j GPVirtual) Mem {
	pOff := GP64()
	LEAQ(Mem{Base: j, Index: j, Scale: 2}, pOff)
	pf := AllocLocal(24)
	for i := range 3 {
		t := GP64()
		MOVQ(pw.Idx(pOff, 8).Offset(8*i), t)
		MOVQ(t, pf.Offset(8*i))
	}
	return pf
}

// mulAdd sets h = h·p + b (b nil: zero) modulo 2^130-5, partially reduced (third limb at
// most 4), for h, p and b with third limbs at most 4: the schoolbook
// product in five words, the bits from 2^130 up folded back (times 5),
// then b added and the top folded once more.
func mulAdd(h [3]GPVirtual, p [3]Mem, b []Op) {
	Comment("h·P in five words w0..w4.")
	w := [5]GPVirtual{}
	for i := range w {
		w[i] = GP64().(GPVirtual)
	}
	x, y := GP64(), GP64()
	XORL(w[4].As32(), w[4].As32())
	MOVQ(h[0], RDX)
	MULXQ(p[0], w[0], w[1])
	MULXQ(p[1], x, w[2])
	ADDQ(x, w[1])
	MULXQ(p[2], x, w[3])
	ADCQ(x, w[2])
	ADCQ(U8(0), w[3])
	// addAt adds the product hi:lo at word i, carrying to w4.
	addAt := func(i int, lo, hi Op) {
		ADDQ(lo, w[i])
		ADCQ(hi, w[i+1])
		for j := i + 2; j < 5; j++ {
			ADCQ(U8(0), w[j])
		}
	}
	MOVQ(h[1], RDX)
	for j := range 3 {
		MULXQ(p[j], x, y)
		addAt(1+j, x, y)
	}
	MOVQ(h[2], RDX)
	MULXQ(p[0], x, y)
	addAt(2, x, y)
	MULXQ(p[1], x, y)
	addAt(3, x, y)
	IMULQ(p[2], RDX) // both at most 4
	ADDQ(RDX, w[4])
	Comment("The low 130 bits plus 4·(w >> 130) plus (w >> 130).")
	MOVQ(w[2], h[2])
	ANDQ(U8(3), h[2])
	ANDQ(I8(-4), w[2])
	ADDQ(w[2], w[0])
	ADCQ(w[3], w[1])
	ADCQ(w[4], h[2])
	SHRQ(U8(2), w[3], w[2])
	SHRQ(U8(2), w[4], w[3])
	SHRQ(U8(2), w[4])
	ADDQ(w[2], w[0])
	ADCQ(w[3], w[1])
	ADCQ(w[4], h[2])
	Comment("Plus b, and the bits from 2^130 up folded once more.")
	if b != nil {
		ADDQ(b[0], w[0])
		ADCQ(b[1], w[1])
		ADCQ(b[2], h[2])
	}
	MOVQ(h[2], x)
	SHRQ(U8(2), x)
	ANDQ(U8(3), h[2])
	LEAQ(Mem{Base: x, Index: x, Scale: 4}, x)
	ADDQ(x, w[0])
	ADCQ(U8(0), w[1])
	ADCQ(U8(0), h[2])
	MOVQ(w[0], h[0])
	MOVQ(w[1], h[1])
}

// countRounds counts the vector instructions of a batch's rounds (k.ticks)
// without emitting them.
func (k *sk) countRounds() {
	if k.rows.blocks > 0 {
		k.ticks = k.rows.ticks()
		return
	}
	k.counting = true
	k.creg = map[int]int{8: regC0, 9: regC0 + 1}
	for range 10 {
		k.doubleRound()
	}
	k.counting = false
}

// queueMACKey queues, after block 0's rounds on x, the MAC key from it
// (macKeyFrom) and a zero accumulator, and allocates the step temporaries.
func (k *sk) queueMACKey(x *[16]Op, in func(i int) Op, sOff int) {
	q := func(f func()) { k.queue = append(k.queue, f) }
	q(func() { k.macKeyFrom(x, in, sOff) })
	for i := range k.h {
		k.h[i] = GP64()
		h := k.h[i]
		q(func() { XORQ(h, h) })
	}
	for i := range k.t {
		k.t[i] = GP64()
	}
}

// batchInPlace emits the batch (with the queued scalar instructions) over
// the openState's buffer, in place, and returns the buffer's address; with
// k.put, through that instead (and returns nil).
func (k *sk) batchInPlace() GPVirtual {
	if k.rows.blocks > 0 {
		return k.rowsInPlace()
	}
	k.loadState()
	k.rounds()
	if k.put != nil {
		k.putStart()
		k.output()
		return nil
	}
	buf := GP64().(GPVirtual)
	LEAQ(Mem{Base: k.st, Disp: ooBuf}, buf)
	k.dst, k.src = buf, buf
	k.output()
	return buf
}

// mulAddKernel emits mulAdd130: mulAdd alone, for the tests.
func mulAddKernel(name string) {
	vec.Leaf(name, "func(h, p, b *[3]uint64)", name+" sets h = h·p + b modulo 2^130-5, partially reduced (h[2] at most",
		"4), for h, p and b with their third words at most 4 (the arithmetic",
		"sealOne* combine their two Poly1305 chains with).")
	hp := Load(Param("h"), GP64())
	pp := Load(Param("p"), GP64())
	bp := Load(Param("b"), GP64())
	var h, b [3]GPVirtual
	for i := range 3 {
		h[i], b[i] = GP64().(GPVirtual), GP64().(GPVirtual)
		MOVQ(Mem{Base: hp, Disp: 8 * i}, h[i])
		MOVQ(Mem{Base: bp, Disp: 8 * i}, b[i])
	}
	mulAdd(h, words3(Mem{Base: pp}), []Op{b[0], b[1], b[2]})
	hp = Load(Param("h"), GP64())
	for i := range 3 {
		MOVQ(h[i], Mem{Base: hp, Disp: 8 * i})
	}
	RET()
}

// macBatch emits macBatchAVX2: the 32 Poly1305 steps over one batch of
// Seal's output that no stitched batch absorbs (its last), as two
// independent chains of 16 blocks: A from st.h over the first 256 bytes,
// B from zero over the rest, h = A·r^16 + B. r^16 (r·r, then three
// squarings in mulAdd) does not depend on the chains, so the core runs it
// beside their first steps.
func macBatch(name string) {
	vec.Leaf(name, "func(st *[14]uint64, msg *[512]byte)", name+" absorbs msg into st.h (each block with 2^128 added).")
	st := Load(Param("st"), GP64())
	m := Load(Param("msg"), GP64()).(GPVirtual)
	rf, pf, cnt := AllocLocal(24), AllocLocal(24), AllocLocal(8)
	r := words3(rf)
	for i := range 3 {
		t := GP64()
		MOVQ(Mem{Base: st, Disp: offR + 8*i}, t)
		MOVQ(t, r[i])
	}
	whole(powerItems(r, pf, 16))()
	p := words3(pf)
	a, b := newChain(), newChain()
	for i := range 3 {
		MOVQ(Mem{Base: st, Disp: offH + 8*i}, a.h[i])
		XORQ(b.h[i], b.h[i])
	}
	MOVQ(U32(16), cnt)
	Label(name + "_loop")
	sa := a.stepOps(Mem{Base: m}, Mem{Base: m, Disp: 8}, U8(1), r)
	sb := b.stepOps(Mem{Base: m, Disp: 256}, Mem{Base: m, Disp: 264}, U8(1), r)
	for _, f := range append(sa, sb...) {
		f()
	}
	ADDQ(U8(16), m)
	DECQ(cnt)
	JNZ(LabelRef(name + "_loop"))
	mulAdd(a.h, p, []Op{b.h[0], b.h[1], b.h[2]})
	st = Load(Param("st"), GP64())
	for i := range 3 {
		MOVQ(a.h[i], Mem{Base: st, Disp: offH + 8*i})
	}
	RET()
}

// Offsets in the Go side's directState (chacha20poly1305/stitched.go), the
// state of sealDirectAVX2: a stitchState, s and the tag (written), the
// additional data's MAC block, the lengths', the message's last n mod 32
// bytes (zero-padded; the kernel leaves their ciphertext there), and the
// additional data's 2^128 bit.
const (
	sdAD   = 144
	sdLens = 160
	sdTail = 176
	sdHi   = 208
	sdEnd  = 216
)

// cpMask is cp_mask: 64 bytes of ones, then 64 of zeros.
var cpMask Mem

// stitchedSealDirect emits sealDirectY4 (lay: four blocks in YMM rows, up
// to 256 bytes) or sealDirectY2 (two, up to 128; the word-sliced batch's
// sealDirectAVX2 is stitchedRolled's): Seal in one call as
// stitchedSealOne's kernels, but reading the message from src and writing the
// ciphertext to dst itself, so that the Go side neither copies the message
// through a buffer nor zeroes one (measured on Zen 5 under avx512=off: that
// Go code around the kernel (then sealOneAVX2) took about a fifth of a 448-byte Seal; x/crypto
// spends about a thirtieth outside its assembly). The batch's 32-byte
// pieces wholly inside the message go from src to dst; the piece the
// message ends in takes the tail from st instead and goes back there,
// masked to the message (the Go side copies it out); pieces past the
// message are dropped. The MAC then runs in two chains as in twoChains:
// A over the first half of the whole pieces' blocks at dst, B over the
// second half, the tail's blocks and the lengths, h = A·r^J + B with J B's
// step count.
func stitchedSealDirect(name string, lay oneBatch) {
	directText(name, lay, NOSPLIT)
	// The kernel on a 64-byte boundary, which fixes where its code falls
	// in the core's 64-byte fetch blocks: measured on Zen 5 under
	// avx512=off, sealDirectAVX2 ran Seal of 320 to 512 bytes about 20%
	// slower with its MAC loop 11 bytes later (two instructions more
	// before it), and as slow with the loop itself on a 64-byte boundary.
	vec.PCAlign(64)
	k := newOneSK(lay)
	k.polyStepHi(Mem{Base: k.st, Disp: sdAD}, Mem{Base: k.st, Disp: sdHi})
	maxJ := 2*lay.n() + 3 // B: half the batch's 32-byte pieces, two tail blocks and the lengths
	rf := AllocLocal(24)
	pw := AllocLocal(24 * (maxJ + 1))
	k.queuePowers(rf, pw, maxJ)
	var n GPVirtual
	k.putStart = func() {
		k.st = Load(Param("st"), GP64()).(GPVirtual)
		k.src = Load(Param("src").Base(), GP64()).(GPVirtual)
		k.dst = Load(Param("dst").Base(), GP64()).(GPVirtual)
		n = Load(Param("src").Len(), GP64()).(GPVirtual)
	}
	k.put = func(r Op, off int) { k.putPiece(name, n, r, off) }
	k.batchInPlace()
	k.put = nil

	k.directChains(name, k.dst, n, rf, pw, false)
	stAVX2.Return()
}

// directText starts a direct Seal kernel (on a directState) of layout lay
// with its header and doc.
func directText(name string, lay oneBatch, flags attr.Attribute) {
	TEXT(name, flags, fmt.Sprintf("func(st *[%d]byte, dst, src []byte)", sdEnd))
	Pragma("noescape")
	Doc(name+fmt.Sprintf(" encrypts src (up to %d bytes) into dst with the %s", 64*lay.n(), lay),
		"from st.x[12] on, all but its last n mod 32 bytes, whose ciphertext",
		"replaces them in st's tail (zero-padded), and writes the tag of the",
		"additional data's block (2^128 bit from st), the ciphertext zero-padded",
		"and the lengths' block.")
}

// putPiece is the output hook of a direct kernel's batch (see
// stitchedSealDirect) for the 32-byte piece of keystream r at off, rem the
// message's bytes from the batch on: a piece wholly inside the message goes
// from k.src to k.dst, the one it ends in takes the tail from st and goes
// back there masked, the rest are dropped. label names the emission site.
func (k *sk) putPiece(label string, rem GPVirtual, r Op, off int) {
	part, done := fmt.Sprintf("%s_part%d", label, off), fmt.Sprintf("%s_put%d", label, off)
	CMPQ(rem, U32(off+32))
	JB(LabelRef(part))
	VPXOR(Mem{Base: k.src, Disp: off}, r, r)
	VMOVDQU(r, Mem{Base: k.dst, Disp: off})
	JMP(LabelRef(done))
	Label(part)
	CMPQ(rem, U32(off))
	JBE(LabelRef(done))
	Comment("The piece the message ends in: rem-off bytes of the mask's ones.")
	p := GP64()
	LEAQ(cpMask.Offset(64+off), p)
	SUBQ(rem, p)
	VPXOR(Mem{Base: k.st, Disp: sdTail}, r, r)
	VPAND(Mem{Base: p}, r, r)
	VMOVDQU(r, Mem{Base: k.st, Disp: sdTail})
	Label(done)
}

// directChains absorbs, after a direct kernel's last batch, its ciphertext
// (rem bytes, 1 to 512: the whole 32-byte pieces at buf, the rest in st's
// tail) and the lengths' block in two chains: A continues k.h over the
// first half of the whole pieces' blocks, B starts from zero over the
// second half, the tail's blocks and the lengths, h = A·r^J + B with J B's
// step count (r^J from pw), and the tag follows.
//
// With short (rem may be under 32: no whole piece), it tests for that
// before the loop; the one-batch kernels, which never see it, leave the
// test out (see stitchedSealDirect on where their code falls).
func (k *sk) directChains(name string, buf, rem GPVirtual, rf, pw Mem, short bool) {
	Comment("J = rem/32 (B's blocks at buf) + the tail's blocks + 1 (the lengths).")
	half := GP64()
	MOVQ(rem, half)
	SHRQ(U8(5), half)
	tb := GP64()
	MOVQ(rem, tb)
	ANDQ(U8(31), tb)
	ADDQ(U8(15), tb)
	SHRQ(U8(4), tb)
	jj := GP64()
	LEAQ(Mem{Base: half, Index: tb, Scale: 1, Disp: 1}, jj)
	pf := powerAt(pw, jj)
	tbs := AllocLocal(8)
	MOVQ(tb, tbs)
	cnt := AllocLocal(8)
	MOVQ(half, cnt)
	off := GP64()
	MOVQ(half, off)
	SHLQ(U8(4), off)
	r := words3(rf)
	a := chain{h: k.h, t: k.t}
	b := newChain()
	for i := range b.h {
		XORQ(b.h[i], b.h[i])
	}
	step := func(c chain, m Mem, hi Op) {
		for _, f := range c.stepOps(m, m.Offset(8), hi, r) {
			f()
		}
	}
	if short {
		CMPQ(cnt, U8(0))
		JE(LabelRef(name + "_tail"))
	}
	Label(name + "_loop")
	step(a, Mem{Base: buf}, U8(1))
	step(b, Mem{Base: buf, Index: off, Scale: 1}, U8(1))
	ADDQ(U8(16), buf)
	DECQ(cnt)
	JNZ(LabelRef(name + "_loop"))
	if short {
		Label(name + "_tail")
	}
	Comment("B goes on over the tail's blocks (none to two) and the lengths.")
	st := Load(Param("st"), GP64()).(GPVirtual)
	CMPQ(tbs, U8(0))
	JE(LabelRef(name + "_lens"))
	step(b, Mem{Base: st, Disp: sdTail}, U8(1))
	CMPQ(tbs, U8(1))
	JE(LabelRef(name + "_lens"))
	step(b, Mem{Base: st, Disp: sdTail + 16}, U8(1))
	Label(name + "_lens")
	step(b, Mem{Base: st, Disp: sdLens}, U8(1))
	mulAdd(a.h, words3(pf), []Op{b.h[0], b.h[1], b.h[2]})
	k.st = Load(Param("st"), GP64()).(GPVirtual)
	k.h = a.h
	k.finishAt(ooS, ooTag)
}
