// Command gcm generates gcm/gcm_amd64.s: AES-GCM with counter mode and
// GHASH stitched in one loop, and a standalone GHASH, at three vector
// widths from one set of generator functions:
//
//   - 16 bytes (XMM, AES-NI and PCLMULQDQ, VEX encodings: needs AVX),
//   - 32 bytes (YMM, VAES and VPCLMULQDQ with AVX2, VEX encodings only, so
//     16 registers and no VPTERNLOGQ: Zen 3 and Alder Lake run it),
//   - 64 bytes (ZMM, VAES and VPCLMULQDQ with AVX-512: round keys resident
//     in Z16..Z30, three-way XORs through VPTERNLOGQ).
//
// GHASH works in POLYVAL's representation (see gcm/polyval.go): blocks are
// byte-reversed on load, and the product of a block and a power of the key
// is a Montgomery product, reduced by two carry-less multiplications by
// x^63 + x^62 + x^57. The key's powers h^32..h^1 are computed at key setup;
// a batch of b blocks multiplies its first block (plus the running state)
// by h^b and its last by h^1 and adds the unreduced 256-bit products,
// each by Karatsuba (three multiplications, the middle operand of the key
// precomputed), so one reduction serves the whole batch.
//
// Counter blocks are kept byte-reversed, so that the big-endian 32-bit
// counter is the first dword of each lane: VPADDD then wraps it modulo 2^32
// exactly as GCM's inc32 does, with no carry into the nonce.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// width is a vector width in bytes.
type width int

const (
	w128 width = 16
	w256 width = 32
	w512 width = 64
)

func (w width) blocks() int { return int(w) / 16 }

// v is vector register i at width w (vec's register files).
func (w width) v(i int) VecPhysical { return vec.Width(w).Reg(i) }

// Offsets in the hashKey structure of gcm/polyval.go.
const (
	numPowers = 64
	powOffset = 0              // pow[i] = h^(numPowers-i)
	karOffset = 16 * numPowers // kar[i] = Karatsuba middle operand of pow[i]
)

// kernel is one TEXT symbol's generator state.
type kernel struct {
	w    width // the kernel's widest width
	nv   int   // vectors per batch of the main loop
	kind string

	// General-purpose registers.
	keys, rounds, hk, dst, src, n, ctrp, yp, k0, tp GPPhysical

	// nr is the number of AES rounds the code being emitted runs, or 0
	// when it branches on the rounds register (every key size in one copy).
	nr int

	// The fast counters of the 256-bit kernels: the frame holding the K
	// pair, the next base and the last dword of the K block in the
	// second slot.
	frame  Mem
	kc, ku GPPhysical

	// The 256-bit fast path's register plan (see enterAligned): gtmp is
	// ghashPair's scratch register (the key register elsewhere, free
	// only between rounds), mask the byte-reversal mask (nil: a memory
	// operand) and acc, when set, the frame slot that holds the running
	// GHASH state in place of its register.
	gtmp VecPhysical
	mask VecPhysical
	acc  *Mem

	labels int
}

// Vector register plan (index v, at any width): states 0..7, ctr 8, lo 9,
// mi 10, hi 11, acc 12, GHASH temporaries 13 and 14, and 15 the round key
// being applied. That is all sixteen VEX registers: on the 128- and
// 256-bit paths each round key is loaded once per batch into register 15
// (eight memory operands per round would make the loads, not the AES
// units, the limit), and the byte-swap mask is a memory operand. The
// 512-bit path keeps the round keys in Z16..Z30 (16 = the first key, 16+j
// = slot j) and the mask in Z31.
func (k *kernel) reg(w width, name string) VecPhysical {
	i := map[string]int{"ctr": 8, "lo": 9, "mi": 10, "hi": 11, "acc": 12, "t0": 13, "t1": 14, "key": 15}[name]
	return w.v(i)
}

// accOp returns the running GHASH state as an operand at width w: its
// register, or its frame slot on the 256-bit fast path.
func (k *kernel) accOp(w width) Op {
	if k.acc != nil {
		return *k.acc
	}
	return k.reg(w, "acc")
}

func (k *kernel) label(what string) string {
	k.labels++
	return fmt.Sprintf("%s_%s_%d", k.kind, what, k.labels)
}

func (k *kernel) evex() bool { return k.w == w512 }

func isReg(op Op) bool {
	_, ok := op.(VecPhysical)
	return ok
}

func isHigh(op Op) bool {
	r, ok := op.(VecPhysical)
	return ok && r.PhysicalIndex() >= 16
}

// xor sets dst = a ^ b (b may be memory).
func (k *kernel) xor(w width, a, b, dst Op) {
	if w == w512 || isHigh(a) || isHigh(b) || isHigh(dst) {
		VPXORQ(b, a, dst)
	} else {
		VPXOR(b, a, dst)
	}
}

// xor3 sets dst ^= a ^ b, in one VPTERNLOGQ where AVX-512 is at hand.
func (k *kernel) xor3(w width, a, b, dst Op) {
	if k.evex() {
		VPTERNLOGQ(Imm(0x96), b, a, dst)
		return
	}
	k.xor(w, a, dst, dst)
	k.xor(w, b, dst, dst)
}

func (k *kernel) load(w width, m, dst Op) {
	if w == w512 || isHigh(dst) {
		VMOVDQU64(m, dst)
	} else {
		VMOVDQU(m, dst)
	}
}

func (k *kernel) store(w width, src, m Op) {
	if w == w512 || isHigh(src) {
		VMOVDQU64(src, m)
	} else {
		VMOVDQU(src, m)
	}
}

// bswap returns the byte-reversal mask as an operand at width w.
func (k *kernel) bswap(w width) Op {
	if k.w == w512 {
		return w.v(31)
	}
	if k.mask != nil {
		return w.v(int(k.mask.PhysicalIndex()))
	}
	return bswapMask
}

func (k *kernel) shuffle(w width, src, dst Op) { VPSHUFB(k.bswap(w), src, dst) }

// clmul sets dst = the imm-selected 64x64 carry-less product of a and b
// (b may be memory).
func clmul(imm uint64, b, a, dst Op) { VPCLMULQDQ(Imm(imm), b, a, dst) }

// ---- AES ----

// key returns an operand holding round-key slot j (0 meaning the first
// key, at k0) at width w, loading it into the key register on the
// narrower paths.
func (k *kernel) key(w width, j int) Op {
	if k.w == w512 {
		return w.v(16 + j)
	}
	m := Mem{Base: k.keys, Disp: 16 * j}
	if j == 0 {
		m = Mem{Base: k.k0}
	}
	r := k.reg(w, "key")
	if w == w256 {
		VBROADCASTI128(m, r)
	} else {
		VMOVDQU(m, r)
	}
	return r
}

// firstKey sets k.k0 to the slot of the first round key: keys +
// 16*(14-rounds).
func (k *kernel) firstKey() {
	MOVQ(k.rounds, k.k0)
	NEGQ(k.k0)
	SHLQ(Imm(4), k.k0)
	LEAQ(Mem{Base: k.keys, Index: k.k0, Scale: 1, Disp: 16 * 14}, k.k0)
}

// gwork returns the stitched GHASH instructions of slot r of a batch (see
// stitch for the slots).
type gwork func(r int) []gop

// aesRounds runs the whole cipher on states that hold counter blocks.
// gh, when set, is the stitched GHASH work: where the code runs every key
// size its slots 0..8 follow the nine middle rounds that every key size
// runs; where it runs one key size (k.nr) slot 0 comes before round 1 and
// slot r+1 after middle round r, or, on a plan with fine, slots 1 on
// spread over the AES instructions of all the middle rounds (see
// chunkedRounds). The carry-less multiplications then
// come a round ahead of the AES instructions beside which they run, older
// in program order: the scheduler, picking the oldest ready instruction,
// starts them first among the vector pipes they compete for with AES (on
// Zen 5 a multiplication does not take an AES slot, but it takes three of
// the four vector pipes' issue slots: docs/aes-limits.md, "GCM on Zen 5";
// there the GHASH of AES-128 is the limit). lastXor[i] (memory) is folded
// into the last round of state i.
func (k *kernel) aesRounds(w width, states []VecPhysical, gh gwork, lastXor []Op, lastTemp VecPhysical) {
	k0 := k.key(w, 0)
	for _, s := range states {
		k.xor(w, s, k0, s)
	}
	k.aesRounds1(w, states, gh, lastXor, lastTemp)
}

// aesRounds1 is aesRounds on states that already hold counter blocks XOR
// the first round key.
func (k *kernel) aesRounds1(w width, states []VecPhysical, gh gwork, lastXor []Op, lastTemp VecPhysical) {
	slot := func(r int) []gop {
		if gh == nil {
			return nil
		}
		return gh(r)
	}
	round := func(j int) {
		key := k.key(w, j)
		for _, s := range states {
			VAESENC(key, s, s)
		}
	}
	switch first := 15 - k.nr; {
	case k.nr == 0:
		l10, l12 := k.label("r10"), k.label("r12")
		vec.RoundSlots(k.rounds, l10, l12, func(j int) {
			round(j)
			if j >= 5 {
				emit(slot(j - 5))
			}
		})
	default:
		emit(slot(0))
		if k.fine() {
			k.chunkedRounds(w, states, first, slot)
			break
		}
		for j := first; j <= 13; j++ {
			round(j)
			emit(slot(j - first + 1))
		}
	}
	key := k.key(w, 14)
	for i, s := range states {
		if lastXor == nil {
			VAESENCLAST(key, s, s)
			continue
		}
		// The key is in a register on every path: one XOR, its data
		// operand straight from memory.
		k.xor(w, key, lastXor[i], lastTemp)
		VAESENCLAST(lastTemp, s, s)
	}
}

// mulRuns splits ops into runs that each end in a carry-less
// multiplication, and the steps after the last one.
func mulRuns(ops []gop) [][]gop {
	var runs [][]gop
	start := 0
	for i, op := range ops {
		if op.mul {
			runs = append(runs, ops[start:i+1])
			start = i + 1
		}
	}
	if start < len(ops) {
		runs = append(runs, ops[start:])
	}
	return runs
}

// chunkedRounds emits the middle rounds first..13 on a plan with fine
// placement, their GHASH work (slots 1 on) spread evenly over all the
// rounds' AES instructions rather than slot by slot within each round, in
// runs that each end in a carry-less multiplication (mulRuns): the
// multiplications come at even distances, each right after the steps
// before it (the previous product's addition, loads, shuffles). On Zen 5
// (docs/aes-limits.md, "GCM on Zen 5") where the other instructions sit
// among the AES ones decides several cycles per 16 blocks, well beyond
// their issue slots: the loops copied out of the kernel measured, round
// by round / in runs of four steps / of three / these runs, AES-128
// 61.3 / 62.7 / 59.9 / 59.2-59.4, AES-192 64.4 / 65.8 / 63.5 / 63.0-63.2,
// AES-256 67.6 / 67.3-67.7 / 67.4 / 67.2-67.4 (runs of 1, 2, 5, 6 and 8
// steps, shifted runs, and runs counted in instructions measured worse).
func (k *kernel) chunkedRounds(w width, states []VecPhysical, first int, slot func(int) []gop) {
	var ops []gop
	for r := 1; r <= 14-first; r++ {
		ops = append(ops, slot(r)...)
	}
	runs := mulRuns(ops)
	n := (14 - first) * len(states)
	placed, a := 0, 0
	for j := first; j <= 13; j++ {
		key := k.key(w, j)
		for _, s := range states {
			VAESENC(key, s, s)
			a++
			for ; placed < a*len(runs)/n; placed++ {
				emit(runs[placed])
			}
		}
	}
}

// counters fills states with the next counter blocks.
func (k *kernel) counters(w width, states []VecPhysical) {
	ctr := k.reg(w, "ctr")
	for _, s := range states {
		k.shuffle(w, ctr, s)
		VPADDD(stepConst[w.blocks()], ctr, ctr)
	}
}

// counterPlan fills a batch's states with counter blocks ready for round 1
// and advances the counter by one batch.
type counterPlan func(states []VecPhysical)

// whitened is the general counterPlan: byte-reversed counters from the ctr
// register, then the first round key.
func (k *kernel) whitened(states []VecPhysical) {
	k.counters(k.w, states)
	k0 := k.key(k.w, 0)
	for _, s := range states {
		k.xor(k.w, s, k0, s)
	}
}

// The 256-bit kernels' fast counters. When a batch's first counter is 2
// modulo 16 (a 96-bit nonce starts at 2), its sixteen counters are base+2
// .. base+17 with base a multiple of 16: fourteen of them differ from base
// only in the low four bits, which carry nothing, and the last two
// likewise from base+16. So each counter block XOR the first round key is
// K(base) or K(base+16) XOR a constant nibble in its last byte, where K(b)
// is the block of counter b XOR the first key. Both K blocks live in the
// frame; general-purpose instructions write the next batch's pair while
// this one runs, and a state costs one XOR (the batch two broadcast loads)
// where the general plan spends a shuffle, an add and an XOR. The counter
// register is not needed until the tail, which finds it rebuilt from kc
// (see enterAligned and leaveAligned).
const (
	kSlot0    = 0  // K(base)
	kSlot1    = 16 // K(base+16)
	ctrSlot   = 32 // the counter register while the fast path runs
	accSlot   = 64 // the GHASH state while the fast path runs
	frameSize = 96
)

// ctrNibbles is the constant of state i, lanes in order: 2+2i, 3+2i for
// i < 7 and 0, 1 (over K(base+16)) for the last.
func ctrNibbles(i int) (uint64, uint64) {
	if i == 7 {
		return 0, 1 << 56
	}
	return uint64(2+2*i) << 56, uint64(3+2*i) << 56
}

// alignedSetup writes the first batch's K pair and jumps to generic unless
// the first counter is 2 modulo 16. It sets kc to base+16 and ku to the
// last dword of K(base+16).
func (k *kernel) alignedSetup(generic string) {
	t, kb := k.reg(w128, "t0"), k.reg(w128, "t1")
	c := k.kc.As32()
	MOVL(Mem{Base: k.ctrp, Disp: 12}, c)
	BSWAPL(c)
	// The first block's counter is J0's plus one: base = J0's - 1.
	DECL(c)
	TESTL(U32(15), c)
	JNZ(LabelRef(generic))
	k.loadCounter(t)
	VPXOR(Mem{Base: k.k0}, t, t)
	// Each K block is built whole in a register and stored in one piece:
	// the first batch's 16-byte loads of a block stored in two parts
	// (as the loop's slots are, a batch ahead) would wait for them to
	// reach the cache.
	for _, slot := range []int{kSlot0, kSlot1} {
		if slot == kSlot1 {
			ADDL(Imm(16), c)
		}
		k.kWord()
		VPINSRD(Imm(3), k.ku.As32(), t, kb)
		VMOVDQU(kb, k.frame.Offset(slot))
	}
}

// kWord sets ku to the last dword of K(kc).
func (k *kernel) kWord() {
	c, u := k.kc.As32(), k.ku.As32()
	MOVL(c, u)
	BSWAPL(u)
	XORL(Mem{Base: k.k0, Disp: 12}, u)
}

// nextK writes the last dword of K(kc) to the second slot, leaving it in
// ku.
func (k *kernel) nextK() {
	k.kWord()
	MOVL(k.ku.As32(), k.frame.Offset(kSlot1+12))
}

// aligned is the counterPlan of the 256-bit kernels' fast path (see
// alignedSetup).
func (k *kernel) aligned(states []VecPhysical) {
	// K(base) goes once into the key register, free until round 1, and
	// each state but the last is one XOR from it.
	key := k.reg(k.w, "key")
	VBROADCASTI128(k.frame.Offset(kSlot0), key)
	for i, s := range states {
		src := key
		if i == 7 {
			VBROADCASTI128(k.frame.Offset(kSlot1), s)
			src = s
		}
		VPXOR(ctrNibbleConst.Offset(32*i), src, s)
	}
	// The next batch's pair: K(base+16) moves down, K(base+32) comes in.
	MOVL(k.ku.As32(), k.frame.Offset(kSlot0+12))
	ADDL(Imm(16), k.kc.As32())
	k.nextK()
}

// enterAligned switches to the fast path's register plan: the counter
// register and the GHASH state go to the frame, the counter's register
// becomes ghashPair's scratch (so that the GHASH work may go between the
// AES instructions of a round, see aesRounds) and the state's holds the
// byte-reversal mask.
func (k *kernel) enterAligned() {
	ctr, acc := k.reg(k.w, "ctr"), k.reg(k.w, "acc")
	VMOVDQU(ctr, k.frame.Offset(ctrSlot))
	VMOVDQU(acc, k.frame.Offset(accSlot))
	VBROADCASTI128(bswapMask, acc)
	slot := k.frame.Offset(accSlot)
	k.gtmp, k.mask, k.acc = ctr, acc, &slot
}

// leaveAligned restores the general plan: the GHASH state from its slot,
// and the counter register from its own, advanced by the blocks the fast
// path ran: lane 0 is at the next block's counter, kc-14 (kc is base+16
// of the batch that did not run), and lane 1 one past it. The advance is
// added in a vector register (both lanes' first dword), so that no load
// reads the frame over a fresh narrower store.
func (k *kernel) leaveAligned() {
	k.gtmp, k.mask, k.acc = nil, nil, nil
	ctr, t := k.reg(k.w, "ctr"), k.reg(k.w, "t0")
	c := k.ku.As32()
	MOVL(k.kc.As32(), c)
	SUBL(Imm(14), c)
	SUBL(k.frame.Offset(ctrSlot), c)
	VMOVD(c, t.AsX())
	VINSERTI128(Imm(1), t.AsX(), t, t)
	VPADDD(k.frame.Offset(ctrSlot), t, ctr)
	VMOVDQU(k.frame.Offset(accSlot), k.reg(k.w, "acc"))
}

// ---- GHASH ----

// full returns r at the kernel's full width: products computed at a
// narrower width (whose upper lanes the VEX or EVEX write zeroed) are added
// into the full-width accumulators, which a narrow XOR would truncate.
func (k *kernel) full(r VecPhysical) VecPhysical { return k.w.v(int(r.PhysicalIndex())) }

// ghashVector returns the instructions, one closure each, that multiply the
// data vector at m (w wide) by the powers at powBase+powOff and add the
// products into lo, mi and hi (set rather than added when first). withAcc
// folds the running state (acc, upper lanes zero) into the vector first.
func (k *kernel) ghashVector(w width, m Op, powBase GPPhysical, powOff int, first, withAcc bool, t [2]VecPhysical) []gop {
	lo, mi, hi := k.reg(k.w, "lo"), k.reg(k.w, "mi"), k.reg(k.w, "hi")
	d, p := t[0], t[1]
	pow := Mem{Base: powBase, Disp: powOffset + powOff}
	kar := Mem{Base: powBase, Disp: karOffset + powOff}
	ops := []gop{
		step(func() { k.load(w, m, d) }),
		step(func() { k.shuffle(w, d, d) }),
	}
	if isReg(m) {
		ops = []gop{step(func() { k.shuffle(w, m, d) })}
	}
	if withAcc {
		ops = append(ops, step(func() { k.xor(w, d, k.accOp(w), d) }))
	}
	// p is first the Karatsuba middle operand d.lo ^ d.hi, then each
	// product in turn: two temporaries per vector.
	ops = append(ops,
		step(func() { VPSHUFD(Imm(0x4e), d, p) }),
		step(func() { k.xor(w, p, d, p) }),
	)
	if first {
		// Only ever at the kernel's full width.
		return append(ops,
			mulStep(0x00, kar, p, mi),
			mulStep(0x00, pow, d, lo),
			mulStep(0x11, pow, d, hi),
		)
	}
	return append(ops,
		mulStep(0x00, kar, p, p),
		step(func() { k.xor(k.w, k.full(p), mi, mi) }),
		mulStep(0x00, pow, d, p),
		step(func() { k.xor(k.w, k.full(p), lo, lo) }),
		mulStep(0x11, pow, d, p),
		step(func() { k.xor(k.w, k.full(p), hi, hi) }),
	)
}

// ghashHalf is one data vector of a ghashPair: where it is, the offset of
// its powers, and whether the running state goes into it.
type ghashHalf struct {
	m      Op
	powOff int
	acc    bool
}

// ghashPair is ghashVector for two full-width vectors on the 256-bit path,
// whose Karatsuba middle operands share one register: per lane, a's in the
// low word and b's in the high word, from one XOR of two blends of the
// data instead of a shuffle and an XOR each. The key's middle operands
// hold the value in both words, so imm 0x00 picks a's and 0x11 b's. The
// products go through gtemp: on the general plan the key register, free
// between a round's AES instructions and the next round's key load, so
// each use of it is one closure, which stitch never splits across a round.
func (k *kernel) ghashPair(a, b ghashHalf, first bool) []gop {
	w := k.w
	lo, mi, hi, key := k.reg(w, "lo"), k.reg(w, "mi"), k.reg(w, "hi"), k.gtemp()
	t := k.temps(w)
	var ops []gop
	for i, h := range []ghashHalf{a, b} {
		d := t[i]
		ops = append(ops, step(func() { k.load(w, h.m, d) }), step(func() { k.shuffle(w, d, d) }))
		if h.acc {
			ops = append(ops, step(func() { k.xor(w, d, k.accOp(w), d) }))
		}
	}
	// product returns a product's instructions: its multiplication, and
	// its addition into acc unless set; one closure where key is the key
	// register, whose use must not be split across rounds.
	product := func(imm uint64, m Op, d, acc VecPhysical, set bool) []gop {
		if set {
			return []gop{mulStep(imm, m, d, acc)}
		}
		mul, add := mulStep(imm, m, d, key), step(func() { k.xor(w, key, acc, acc) })
		if k.fine() {
			return []gop{mul, add}
		}
		return []gop{{func() { mul.f(); add.f() }, true}}
	}
	pow := func(h ghashHalf) Mem { return Mem{Base: k.hk, Disp: powOffset + h.powOff} }
	kar := func(h ghashHalf) Mem { return Mem{Base: k.hk, Disp: karOffset + h.powOff} }
	ops = append(ops, product(0x00, pow(a), t[0], lo, first)...)
	ops = append(ops, product(0x11, pow(a), t[0], hi, first)...)
	ops = append(ops, product(0x00, pow(b), t[1], lo, false)...)
	ops = append(ops, product(0x11, pow(b), t[1], hi, false)...)
	ops = append(ops,
		step(func() {
			// key = a.hi | b.lo, t0 = a.lo | b.hi, then their XOR.
			VPALIGNR(Imm(8), t[0], t[1], key)
			VPBLENDD(Imm(0xcc), t[1], t[0], t[0])
			k.xor(w, t[0], key, t[0])
		}),
	)
	if first {
		ops = append(ops, mulStep(0x00, kar(a), t[0], mi))
	} else {
		ops = append(ops, mulStep(0x00, kar(a), t[0], t[1]), step(func() { k.xor(w, t[1], mi, mi) }))
	}
	return append(ops, mulStep(0x11, kar(b), t[0], t[1]), step(func() { k.xor(w, t[1], mi, mi) }))
}

// gtemp is ghashPair's scratch register: gtmp where the plan names one,
// else the key register.
func (k *kernel) gtemp() VecPhysical {
	if k.gtmp != nil {
		return k.gtmp
	}
	return k.reg(k.w, "key")
}

// fine reports whether the GHASH work may go between the AES instructions
// of a round: where its scratch register is not the key register.
func (k *kernel) fine() bool { return k.gtmp != nil }

// reduceOps returns the instructions that finish Karatsuba, reduce lo, mi
// and hi lane by lane, and add the lanes into acc.
func (k *kernel) reduceOps() []gop {
	w := k.w
	lo, mi, hi, acc := k.reg(w, "lo"), k.reg(w, "mi"), k.reg(w, "hi"), k.reg(w128, "acc")
	t := k.reg(w, "t1")
	ops := []gop{
		// The Karatsuba middle term still holds lo and hi.
		step(func() { k.xor3(w, lo, hi, mi) }),
		// Clear the lowest 64 bits: add lo.L times the field polynomial,
		// whose x^128 term moves lo.L up by 128 bits (the swap) and whose
		// low terms are lo.L * (x^63 + x^62 + x^57) one word up.
		mulStep(0x10, gfPoly, lo, t),
		step(func() { VPSHUFD(Imm(0x4e), lo, lo) }),
		step(func() { k.xor3(w, lo, t, mi) }),
		// The same for the next 64 bits, now at the bottom of mi.
		mulStep(0x10, gfPoly, mi, t),
		step(func() { VPSHUFD(Imm(0x4e), mi, mi) }),
		step(func() { k.xor3(w, mi, t, hi) }),
	}
	switch w {
	case w512:
		ty, hy := k.reg(w256, "t1"), k.reg(w256, "hi")
		tx, hx := k.reg(w128, "t1"), k.reg(w128, "hi")
		ops = append(ops,
			step(func() { VEXTRACTI64X4(Imm(1), hi, ty) }),
			step(func() { VPXOR(ty, hy, hy) }),
			step(func() { VEXTRACTI128(Imm(1), hy, tx) }),
			step(func() { VPXOR(tx, hx, acc) }),
		)
	case w256:
		tx, hx := k.reg(w128, "t1"), k.reg(w128, "hi")
		ops = append(ops, step(func() { VEXTRACTI128(Imm(1), hi, tx) }))
		if k.acc != nil {
			// The VEX write zeroes the upper lane, which the frame
			// slot keeps (the state is XORed in at full width).
			ops = append(ops, step(func() {
				VPXOR(tx, hx, tx)
				VMOVDQU(k.reg(w256, "t1"), *k.acc)
			}))
		} else {
			ops = append(ops, step(func() { VPXOR(tx, hx, acc) }))
		}
	default:
		ops = append(ops, step(func() { VMOVDQA(hi, acc) }))
	}
	return ops
}

// temps returns the two GHASH temporaries at width w.
func (k *kernel) temps(w width) [2]VecPhysical {
	return [2]VecPhysical{k.reg(w, "t0"), k.reg(w, "t1")}
}

// batchGHASH returns the instructions that hash one batch of nv vectors at
// base+disp into acc.
func (k *kernel) batchGHASH(base GPPhysical, disp int) []gop {
	return k.groupGHASH(1, base, disp)[0]
}

// group is the number of batches whose GHASH shares one reduction in the
// 256-bit path's loops: 64 blocks, as many as there are key powers. Against
// pairs of batches (32 blocks) the copied loops measured, cycles per 16
// blocks on Zen 5: AES-128 59.05 -> 57.45, AES-192 62.9 -> 61.5, AES-256
// 67.15 -> 66.1 (two carry-less multiplications and ten other instructions
// fewer per 64 blocks).
const group = 4

// lagBlocks is the length from which Seal's 256-bit loop hashes each
// batch's ciphertext two batches later (see sealPairs): below it the
// extra batch of AES alone and of GHASH alone costs more than the loop
// saves (Zen 5, where the two cross between 2 and 8 KiB).
const lagBlocks = 256

// groupGHASH returns the instructions that hash g batches, g*nv vectors at
// base+disp, into acc with one reduction, as g lists: batch b's rounds
// carry list b, whole vectors (a vector's temporaries do not survive a
// batch's last round), the last list ending in the reduction.
func (k *kernel) groupGHASH(g int, base GPPhysical, disp int) [][]gop {
	w := k.w
	nv := g * k.nv
	bpi := nv * w.blocks()
	out := make([][]gop, g)
	var prev ghashHalf
	for i := 1; i <= nv; i++ {
		// A single batch takes its first vector, the one that takes in
		// the running state, last: the other seven need nothing from the
		// previous batch, so they overlap its reduction instead of
		// waiting for it. A group (pairs of vectors) keeps each batch's
		// vectors in that batch's list, so that a batch's ciphertext is
		// read before its plaintext may overwrite it, and likewise takes
		// the first batch's first pair last in its list.
		j := i % nv
		if g > 1 {
			j = i - 1
			if j < k.nv {
				j = (j + 2) % k.nv
			}
		}
		m := Mem{Base: base, Disp: disp + j*int(w)}
		powOff := 16*(numPowers-bpi) + j*int(w)
		b := (i - 1) / k.nv
		if w == w256 {
			// Vectors go in pairs (see ghashPair): this is the first
			// of one when i is odd.
			if i%2 == 1 {
				prev = ghashHalf{m, powOff, j == 0}
				continue
			}
			out[b] = append(out[b], k.ghashPair(prev, ghashHalf{m, powOff, j == 0}, i == 2)...)
			continue
		}
		out[b] = append(out[b], k.ghashVector(w, m, k.hk, powOff, i == 1, j == 0, k.temps(w))...)
	}
	out[g-1] = append(out[g-1], k.reduceOps()...)
	return out
}

// gop is one step of the GHASH work that a stitched batch places among
// its AES instructions: its instructions, and whether they include a
// carry-less multiplication (see chunkedRounds).
type gop struct {
	f   func()
	mul bool
}

// step is a gop without a multiplication.
func step(f func()) gop { return gop{f: f} }

// mulStep is the gop of one carry-less multiplication.
func mulStep(imm uint64, b, a, dst Op) gop {
	return gop{func() { clmul(imm, b, a, dst) }, true}
}

func emit(ops []gop) {
	for _, op := range ops {
		op.f()
	}
}

// share returns the slot r of n equal slots of ops, in order.
func share(ops []gop, r, n int) []gop {
	return ops[r*len(ops)/n : (r+1)*len(ops)/n]
}

// stitch splits a batch's GHASH work ops into the slots aesRounds places:
// where the code runs one key size, nr equal slots (the set-up and each of
// the nr-1 middle rounds), so that the carry-less multiplications, the
// scarcer unit, are never crowded into part of the batch; with the key
// size unknown, the nine middle rounds that every key size runs.
func (k *kernel) stitch(ops []gop) gwork {
	n := k.nr
	if n == 0 {
		n = 9
	}
	return func(r int) []gop { return share(ops, r, n) }
}

// tailGHASH hashes the n (< one batch) blocks at p into acc with one
// reduction (whole vectors, then single blocks, or on the 512-bit path one
// masked vector): the first block takes h^n, so the powers start at pow[16-n].
// It advances p and clobbers n and tp.
func (k *kernel) tailGHASH(p, n GPPhysical) {
	done := k.label("tailghash_done")
	TESTQ(n, n)
	JZ(LabelRef(done))
	for _, name := range []string{"lo", "mi", "hi"} {
		r := k.reg(k.w, name)
		k.xor(k.w, r, r, r)
	}
	MOVQ(n, k.tp)
	NEGQ(k.tp)
	SHLQ(Imm(4), k.tp)
	LEAQ(Mem{Base: k.hk, Index: k.tp, Scale: 1, Disp: 16 * numPowers}, k.tp)
	acc := k.reg(k.w, "acc")
	for w := k.w; w >= w128; w /= 2 {
		if w != k.w && w != w128 {
			continue // the loop at full width leaves fewer than one vector
		}
		if w != k.w && k.w == w512 {
			// One to three blocks left: one vector, loaded under a mask
			// with the lanes past the end zeroed (their products vanish,
			// whatever the powers loaded beside them).
			skip := k.label("tailghash_nomask")
			TESTQ(n, n)
			JZ(LabelRef(skip))
			k.tailMask(n)
			d := k.reg(w512, "t0")
			VMOVDQU64_Z(Mem{Base: p}, K1, d)
			emit(k.ghashVector(w512, d, k.tp, 0, false, true, k.temps(w512)))
			Label(skip)
			break
		}
		top, next := k.label("tailghash"), k.label("tailghash_next")
		Label(top)
		CMPQ(n, Imm(uint64(w.blocks())))
		JB(LabelRef(next))
		emit(k.ghashVector(w, Mem{Base: p}, k.tp, 0, false, true, k.temps(w)))
		k.xor(k.w, acc, acc, acc)
		ADDQ(Imm(uint64(w)), p)
		ADDQ(Imm(uint64(w)), k.tp)
		SUBQ(Imm(uint64(w.blocks())), n)
		JMP(LabelRef(top))
		Label(next)
	}
	emit(k.reduceOps())
	Label(done)
}

// tailCTR runs counter mode over the remaining n (< one batch) blocks:
// whole vectors, then single blocks (one masked vector on the 512-bit
// path).
func (k *kernel) tailCTR() {
	for w := k.w; w >= w128; w /= 2 {
		if w != k.w && w != w128 {
			continue
		}
		if w != k.w && k.w == w512 {
			k.maskedCTR()
			break
		}
		top, next := k.label("tailctr"), k.label("tailctr_next")
		s := w.v(0)
		Label(top)
		CMPQ(k.n, Imm(uint64(w.blocks())))
		JB(LabelRef(next))
		k.counters(w, []VecPhysical{s})
		k.aesRounds(w, []VecPhysical{s}, nil, []Op{Mem{Base: k.src}}, k.reg(w, "t0"))
		k.store(w, s, Mem{Base: k.dst})
		ADDQ(Imm(uint64(w)), k.src)
		ADDQ(Imm(uint64(w)), k.dst)
		SUBQ(Imm(uint64(w.blocks())), k.n)
		JMP(LabelRef(top))
		Label(next)
	}
}

// tailMask sets K1 to select the 64-bit lanes of the n (1..3) blocks left.
// It borrows yp, which the epilogue loads again.
func (k *kernel) tailMask(n GPPhysical) {
	LEAQ(tailMasks, k.yp)
	KMOVB(Mem{Base: k.yp, Index: n, Scale: 1}, K1)
}

// maskedCTR finishes counter mode on the 512-bit path: the one to three
// blocks left in one vector, loaded and stored under a mask, so that no
// byte past the buffers is touched.
func (k *kernel) maskedCTR() {
	skip := k.label("tailctr_nomask")
	TESTQ(k.n, k.n)
	JZ(LabelRef(skip))
	k.tailMask(k.n)
	s, x := vec.W512.Reg(0), k.reg(w512, "t1")
	ctr := k.reg(w512, "ctr")
	k.shuffle(w512, ctr, s)
	// The counter after the tail is lane 0's plus n.
	t := k.reg(w128, "t1")
	VMOVD(k.n.As32(), t)
	VPADDD(t, ctr.AsX(), ctr.AsX())
	VMOVDQU64_Z(Mem{Base: k.src}, K1, x)
	k.aesRounds(w512, []VecPhysical{s}, nil, []Op{x}, k.reg(w512, "t0"))
	VMOVDQU64(s, K1, Mem{Base: k.dst})
	Label(skip)
}

// stitchedBatch emits one batch off bytes past src and dst: its counters
// under ctr, the AES rounds with gh (when set) stitched in, the last round
// folding in the data, and the store.
func (k *kernel) stitchedBatch(ctr counterPlan, off int, gh []gop) {
	states := make([]VecPhysical, k.nv)
	xs := make([]Op, k.nv)
	for i := range states {
		states[i] = k.w.v(i)
		xs[i] = Mem{Base: k.src, Disp: off + i*int(k.w)}
	}
	ctr(states)
	var work gwork
	if gh != nil {
		work = k.stitch(gh)
	}
	k.aesRounds1(k.w, states, work, xs, k.lastTemp())
	for i, s := range states {
		k.store(k.w, s, Mem{Base: k.dst, Disp: off + i*int(k.w)})
	}
}

// advance moves src and dst on by blocks and counts them off n.
func (k *kernel) advance(blocks int) {
	ADDQ(U32(16*blocks), k.src)
	ADDQ(U32(16*blocks), k.dst)
	SUBQ(Imm(uint64(blocks)), k.n)
}

var suffix = map[width]string{w128: "AESNI", w256: "VAES256", w512: "VAES512"}

func newKernel(w width, kind string) *kernel {
	return &kernel{w: w, nv: 8, kind: kind + suffix[w],
		keys: RAX, rounds: RBX, hk: R8, dst: RDI, src: RSI, n: RCX, ctrp: R9, yp: R10, k0: R11, tp: R12,
		kc: R13, ku: RDX}
}

// prologue loads the arguments, the keys (512-bit path) and the constants.
func (k *kernel) prologue(aes bool) {
	if aes && k.w == w256 {
		k.frame = AllocLocal(frameSize)
	}
	if aes {
		k.loadKeys()
		vec.LoadParam("dst", k.dst)
		vec.LoadParam("ctr", k.ctrp)
	}
	vec.LoadParam("hk", k.hk)
	vec.LoadParam("src", k.src)
	vec.LoadParam("n", k.n)
	vec.LoadParam("y", k.yp)
	if k.w == w512 {
		VBROADCASTI32X4(bswapMask, k.bswap(w512))
	}
	VMOVDQU(Mem{Base: k.yp}, k.reg(w128, "acc"))
	if !aes {
		return
	}
	k.firstKey()
	if k.w == w512 {
		VBROADCASTI32X4(Mem{Base: k.k0}, vec.W512.Reg(16))
		for j := 1; j <= 14; j++ {
			VBROADCASTI32X4(Mem{Base: k.keys, Disp: 16 * j}, vec.W512.Reg(16+j))
		}
	}
	ctr := k.reg(k.w, "ctr")
	k.loadCounter(k.reg(w128, "ctr"))
	switch k.w {
	case w512:
		VSHUFI64X2(Imm(0), ctr, ctr, ctr)
	case w256:
		VINSERTI128(Imm(1), ctr.AsX(), ctr, ctr)
	}
	k.shuffle(k.w, ctr, ctr)
	// *ctr is J0, whose successor encrypts the first block; lane i counts
	// from there plus i.
	VPADDD(stepConst[1], ctr, ctr)
	if k.w != w128 {
		VPADDD(laneOffsets, ctr, ctr)
	}
}

// tagMask writes E_K(J0) to *mask, J0 being *ctr on entry: the tag's mask,
// one AES chain that gcm's finishAESNI used to run after the kernel. The
// 256-bit kernels run it just before the tail's GHASH (see
// tailGHASHMask), the others in the epilogue: on Zen 5 the 128- and 512-bit
// kernels measured 1-2% slower at 1 and 16 KiB with it before the tail's
// GHASH, and the 512-bit one 2-3% slower at 1 KiB with it in the prologue,
// beside the first batch (as was the 256-bit one).
func (k *kernel) tagMask() {
	m := k.reg(w128, "lo")
	k.loadCounter(m)
	k.aesRounds(w128, []VecPhysical{m}, nil, nil, nil)
	vec.LoadParam("mask", k.tp)
	VMOVDQU(m, Mem{Base: k.tp})
}

// tailGHASHMask emits the 256-bit kernels' tagMask, before the tail's
// GHASH: there its rounds find the AES units idle, or nearly (the last
// batch's last rounds), and the tag does not wait for them after the
// kernel.
func (k *kernel) tailGHASHMask() {
	if k.w == w256 {
		k.tagMask()
	}
}

// loadCounter loads *ctr into x in two eight-byte halves: the caller
// writes J0 so (gcm's start), and a 16-byte load of two fresh 8-byte stores
// would wait for them to reach the cache.
func (k *kernel) loadCounter(x VecPhysical) {
	VMOVQ(Mem{Base: k.ctrp}, x)
	VPINSRQ(Imm(1), Mem{Base: k.ctrp, Disp: 8}, x, x)
}

func (k *kernel) epilogue(aes bool) {
	if aes && k.w != w256 {
		k.tagMask()
	}
	vec.LoadParam("y", k.yp)
	VMOVDQU(k.reg(w128, "acc"), Mem{Base: k.yp})
	if aes {
		t := k.reg(w128, "t0")
		k.shuffle(w128, k.reg(w128, "ctr"), t)
		VMOVDQU(t, Mem{Base: k.ctrp})
	}
	VZEROUPPER()
	RET()
}

// The kernels take the first counter block J0 in *ctr and leave there the
// counter block after the last one used: a final partial block's. They
// write E_K(J0) to *mask.
const sealSig = "func(keys *byte, rounds int, hk *byte, dst, src *byte, n int, ctr, y, mask *[16]byte)"

// newStitched opens the stitched kernel kind at width w (doc follows its
// name) through its prologue.
func newStitched(w width, kind, doc string) *kernel {
	k := newKernel(w, kind)
	k.text(sealSig, k.kind+doc, k.batchDoc())
	k.prologue(true)
	return k
}

// genSeal emits the stitched encryption: each batch's AES rounds carry the
// GHASH of the previous batch's ciphertext, read back from dst.
func genSeal(w width) {
	k := newStitched(w, "seal", " encrypts n blocks from src to dst in counter mode from *ctr+1 (32-bit counter) and folds the ciphertext into the GHASH state *y (POLYVAL form) under the key powers at hk; it leaves the next counter block in *ctr, updates *y and writes E_K(J0), the tag's mask, to *mask.")
	tail := k.label("tail")
	CMPQ(k.n, Imm(uint64(k.nv*w.blocks())))
	JB(LabelRef(tail))
	k.keySizes(tail, func() { k.withCounterPlans(tail, k.sealLoop) })
	Label(tail)
	// The tail's ciphertext is hashed after it is written: remember where.
	start, count := R13, RDX
	MOVQ(k.dst, start)
	MOVQ(k.n, count)
	k.tailCTR()
	k.tailGHASHMask()
	k.tailGHASH(start, count)
	k.epilogue(true)
}

// batchDoc describes the stitched batches of a kernel.
func (k *kernel) batchDoc() string {
	doc := fmt.Sprintf("It runs %d-bit vectors, %d blocks per stitched batch", 8*int(k.w), k.nv*k.w.blocks())
	if k.w == w256 {
		doc += fmt.Sprintf(", groups of %d batches (%d blocks) per GHASH reduction (then a pair and a single batch), two vectors' Karatsuba middle operands from one XOR, one loop per key size with the GHASH shared over all its rounds, and counters from general-purpose code when a batch starts at 2 modulo 16, the GHASH work then going between the AES instructions of each round", group, group*k.nv*k.w.blocks())
	}
	return doc + "."
}

// sealLoop emits Seal's batches under counter plan ctr: a first batch of
// AES alone, the stitched batches, each carrying the GHASH of the one
// before, and the last batch's GHASH. The 256-bit path goes by groups of
// batches (see sealPairs).
func (k *kernel) sealLoop(ctr counterPlan) {
	if k.w == w256 {
		k.sealPairs(ctr)
		return
	}
	bpi := k.nv * k.w.blocks()
	loop, last := k.label("loop"), k.label("last")
	k.stitchedBatch(ctr, 0, nil)
	k.advance(bpi)
	Label(loop)
	CMPQ(k.n, Imm(uint64(bpi)))
	JB(LabelRef(last))
	k.stitchedBatch(ctr, 0, k.batchGHASH(k.dst, -bpi*16))
	k.advance(bpi)
	JMP(LabelRef(loop))
	Label(last)
	emit(k.batchGHASH(k.dst, -bpi*16))
}

// sealPairs emits Seal's loop for n >= 16 blocks with groups of batches
// under one GHASH reduction (see sealLagged): from lagBlocks on, each
// batch hashes the ciphertext of the batch two before it, so that its
// loads never wait for the stores of the batch just finished, at the cost
// of a batch more of AES alone at the start and of GHASH alone at the end.
func (k *kernel) sealPairs(ctr counterPlan) {
	short, done := k.label("pairshort"), k.label("pairdone")
	CMPQ(k.n, U32(lagBlocks))
	JB(LabelRef(short))
	k.sealLagged(ctr, 2)
	JMP(LabelRef(done))
	Label(short)
	k.sealLagged(ctr, 1)
	Label(done)
}

// sealLagged emits sealPairs' loop for n >= lag batches, each batch
// hashing the ciphertext of the batch lag before it: lag batches of AES
// alone, then stitched groups of batches (the last batch of each also
// reducing), then a stitched pair and a single stitched batch where that
// many batches remain, and the GHASH of the last lag batches.
func (k *kernel) sealLagged(ctr counterPlan, lag int) {
	bpi := k.nv * k.w.blocks()
	size := bpi * 16
	loop, rest, fin := k.label("pairloop"), k.label("pairrest"), k.label("pairfin")
	for b := range lag {
		k.stitchedBatch(ctr, b*size, nil)
	}
	k.advance(lag * bpi)
	Label(loop)
	k.groups(ctr, group, k.dst, -lag*size, rest)
	JMP(LabelRef(loop))
	Label(rest)
	k.groups(ctr, 2, k.dst, -lag*size, "")
	k.groups(ctr, 1, k.dst, -lag*size, fin)
	Label(fin)
	for _, ops := range k.groupGHASH(lag, k.dst, -lag*size) {
		emit(ops)
	}
}

// groups emits g stitched batches whose GHASH, of the g batches at
// base+disp, shares one reduction, run when g batches or more remain; else
// it jumps to skip, or past them where skip is "".
func (k *kernel) groups(ctr counterPlan, g int, base GPPhysical, disp int, skip string) {
	bpi := k.nv * k.w.blocks()
	past := skip
	if skip == "" {
		past = k.label("skip")
	}
	CMPQ(k.n, Imm(uint64(g*bpi)))
	JB(LabelRef(past))
	gh := k.groupGHASH(g, base, disp)
	for b := range g {
		k.stitchedBatch(ctr, b*bpi*16, gh[b])
	}
	k.advance(g * bpi)
	if skip == "" {
		Label(past)
	}
}

// openLoop emits Open's stitched batches under counter plan ctr: on the
// 256-bit path groups of batches under one reduction, then a pair, then
// single batches.
func (k *kernel) openLoop(ctr counterPlan) {
	bpi := k.nv * k.w.blocks()
	loop, done := k.label("loop"), k.label("loopdone")
	if k.w == w256 {
		loop4, pair := k.label("loop4"), k.label("pair")
		Label(loop4)
		k.groups(ctr, group, k.src, 0, pair)
		JMP(LabelRef(loop4))
		Label(pair)
		k.groups(ctr, 2, k.src, 0, "")
	}
	Label(loop)
	CMPQ(k.n, Imm(uint64(bpi)))
	JB(LabelRef(done))
	k.stitchedBatch(ctr, 0, k.batchGHASH(k.src, 0))
	k.advance(bpi)
	JMP(LabelRef(loop))
	Label(done)
}

// keySizes emits body once for each AES key size on the 256-bit path, each
// copy knowing its rounds (k.nr) so that GHASH is shared over all of them
// (see stitch); the copies but the last end in a jump to tail. Other widths
// emit body once, for every key size.
func (k *kernel) keySizes(tail string, body func()) {
	if k.w != w256 {
		body()
		return
	}
	l10, l12 := k.label("aes128"), k.label("aes192")
	CMPQ(k.rounds, Imm(12))
	JB(LabelRef(l10))
	JE(LabelRef(l12))
	for _, nr := range []int{14, 12, 10} {
		switch nr {
		case 12:
			Label(l12)
		case 10:
			Label(l10)
		}
		k.nr = nr
		body()
		if nr != 10 {
			JMP(LabelRef(tail))
		}
	}
	k.nr = 0
}

// withCounterPlans emits body under the general counter plan, preceded on
// the 256-bit path by the fast plan's copy when the first counter allows
// it (see alignedSetup); both continue at tail.
func (k *kernel) withCounterPlans(tail string, body func(counterPlan)) {
	if k.w == w256 {
		generic := k.label("generic")
		k.alignedSetup(generic)
		k.enterAligned()
		body(k.aligned)
		k.leaveAligned()
		JMP(LabelRef(tail))
		Label(generic)
	}
	body(k.whitened)
}

// genOpen emits the stitched decryption: each batch's AES rounds carry the
// GHASH of the same batch's ciphertext, loaded before any store.
func genOpen(w width) {
	k := newStitched(w, "open", " folds n blocks of ciphertext at src into the GHASH state *y (POLYVAL form) under the key powers at hk and decrypts them to dst in counter mode from *ctr+1 (32-bit counter); it leaves the next counter block in *ctr, updates *y and writes E_K(J0), the tag's mask, to *mask.")
	tail := k.label("tail")
	k.keySizes(tail, func() { k.withCounterPlans(tail, k.openLoop) })
	Label(tail)
	k.tailGHASHMask()
	start, count := R13, RDX
	MOVQ(k.src, start)
	MOVQ(k.n, count)
	k.tailGHASH(start, count)
	k.tailCTR()
	k.epilogue(true)
}

// lastTemp is the register the last round's key-and-data XOR goes through;
// the GHASH work is done by then.
func (k *kernel) lastTemp() VecPhysical {
	return k.reg(k.w, "t0")
}

// genGHASH emits the standalone GHASH (additional data, and ARIA-GCM's
// second pass).
func genGHASH(w width) {
	k := newKernel(w, "ghash")
	k.text("func(hk *byte, y *[16]byte, src *byte, n int)",
		k.kind+" folds n blocks at src into the GHASH state *y (POLYVAL form) under the key powers at hk.",
		fmt.Sprintf("It runs %d-bit vectors, %d blocks per reduction.", 8*int(w), k.nv*w.blocks()))
	k.prologue(false)
	bpi := k.nv * w.blocks()
	loop, tail := k.label("loop"), k.label("tail")
	Label(loop)
	CMPQ(k.n, Imm(uint64(bpi)))
	JB(LabelRef(tail))
	emit(k.batchGHASH(k.src, 0))
	ADDQ(U32(bpi*16), k.src)
	SUBQ(Imm(uint64(bpi)), k.n)
	JMP(LabelRef(loop))
	Label(tail)
	k.tailGHASH(k.src, k.n)
	k.epilogue(false)
}

// text opens kernel k.kind with signature sig: NOSPLIT, arguments that do
// not escape, and doc.
func (k *kernel) text(sig string, doc ...string) {
	TEXT(k.kind, NOSPLIT, sig)
	Pragma("noescape")
	Doc(doc...)
}

// newAESNIKernel opens the one-block XMM kernel name+"AESNI"; doc follows
// its name.
func newAESNIKernel(name, sig, doc string) *kernel {
	k := newKernel(w128, name)
	k.kind = name + "AESNI"
	k.text(sig, k.kind+doc)
	return k
}

// loadKeys loads the keys and rounds arguments.
func (k *kernel) loadKeys() {
	vec.LoadParam("keys", k.keys)
	vec.LoadParam("rounds", k.rounds)
}

// genEncryptBlock emits the one-block AES encryption that GCM needs for the
// tag mask and a final partial block.
func genEncryptBlock() {
	k := newAESNIKernel("encryptBlock", "func(keys *[240]byte, rounds int, dst, src *[16]byte)",
		" encrypts one block (VEX encodings).")
	vec.LoadArgs(k.keys, k.rounds, k.dst, k.src)
	k.firstKey()
	VMOVDQU(Mem{Base: k.src}, X0)
	k.aesRounds(w128, []VecPhysical{X0}, nil, nil, nil)
	VMOVDQU(X0, Mem{Base: k.dst})
	RET()
}

// genFinish emits the end of every AES-GCM message: the length block folded
// into the GHASH state, and the tag, GHASH byte order XOR E_K(J0), which
// the stitched kernel has left in *tag.
func genFinish() {
	k := newAESNIKernel("finish", "func(hk *byte, y *[16]byte, adBits, textBits uint64, tag *[16]byte)",
		" folds the length block into *y and writes the full 16-byte tag over its mask E_K(J0) at *tag (VEX encodings, PCLMULQDQ).")
	adBits, textBits := R13, RDX
	vec.LoadArgs(k.hk, k.yp, adBits, textBits, k.dst)
	// The length block's big-endian words are adBits and textBits.
	k.foldWords(adBits, textBits)
	acc := k.reg(w128, "acc")
	VPSHUFB(bswapMask, acc, acc)
	VPXOR(Mem{Base: k.dst}, acc, acc)
	VMOVDQU(acc, Mem{Base: k.dst})
	RET()
}

// foldWords folds into acc the state at yp plus the block whose big-endian
// words are hi (bytes 0..7) and lo (bytes 8..15), times h^1.
func (k *kernel) foldWords(hi, lo GPPhysical) {
	// Byte-reversed, the block is lo in the low word and hi in the high
	// word: already in POLYVAL order.
	d, d2 := k.reg(w128, "t0"), k.reg(w128, "t1")
	VMOVQ(lo, d2)
	VPINSRQ(Imm(1), hi, d2, d2)
	VPXOR(Mem{Base: k.yp}, d2, d)
	h1 := 16 * (numPowers - 1)
	k.mulReduce1(d, d2, Mem{Base: k.hk, Disp: powOffset + h1}, Mem{Base: k.hk, Disp: karOffset + h1})
}

// genGHASHWords emits the one-block GHASH of a block passed in two
// registers: a partial block (additional data, a message's last bytes)
// assembled from its bytes in general-purpose code never goes through a
// 16-byte load of narrower fresh stores.
func genGHASHWords() {
	k := newAESNIKernel("ghashWords", "func(hk *byte, y *[16]byte, hi, lo uint64)",
		" folds the block whose big-endian words are hi (bytes 0..7) and lo (bytes 8..15) into the GHASH state *y (POLYVAL form) under the key powers at hk (VEX encodings, PCLMULQDQ).")
	hi, lo := R13, RDX
	vec.LoadArgs(k.hk, k.yp, hi, lo)
	k.foldWords(hi, lo)
	VMOVDQU(k.reg(w128, "acc"), Mem{Base: k.yp})
	RET()
}

// mulReduce1 multiplies the one block d by a key power h (hkar, its
// Karatsuba middle operand) and reduces the product into acc; t is scratch
// for d's folded halves.
func (k *kernel) mulReduce1(d, t VecPhysical, h, hkar Op) {
	lo, mi, hi := k.reg(w128, "lo"), k.reg(w128, "mi"), k.reg(w128, "hi")
	VPSHUFD(Imm(0x4e), d, t)
	VPXOR(d, t, t)
	clmul(0x00, h, d, lo)
	clmul(0x11, h, d, hi)
	clmul(0x00, hkar, t, mi)
	emit(k.reduceOps())
}

// genPowers emits the key setup: the powers h^2..h^32 of the GHASH key, and
// every power's Karatsuba middle operand, from h^1 already in the table.
func genPowers() {
	k := newAESNIKernel("powers", "func(hk *byte)",
		" fills in the key powers at hk from h^1, the last row of pow (VEX encodings, PCLMULQDQ).")
	vec.LoadParam("hk", k.hk)
	h, hkar, p, d2 := X0, X1, k.reg(w128, "acc"), k.reg(w128, "t0")
	last := 16 * (numPowers - 1)
	VMOVDQU(Mem{Base: k.hk, Disp: powOffset + last}, h)
	VPSHUFD(Imm(0x4e), h, hkar)
	VPXOR(h, hkar, hkar)
	VMOVDQU(hkar, Mem{Base: k.hk, Disp: karOffset + last})
	VMOVDQA(h, p)
	MOVQ(U32(last-16), k.tp)
	Label("powers_loop")
	k.mulReduce1(p, d2, h, hkar) // into acc, which is p
	VMOVDQU(p, Mem{Base: k.hk, Index: k.tp, Scale: 1, Disp: powOffset})
	VPSHUFD(Imm(0x4e), p, d2)
	VPXOR(p, d2, d2)
	VMOVDQU(d2, Mem{Base: k.hk, Index: k.tp, Scale: 1, Disp: karOffset})
	SUBQ(Imm(16), k.tp)
	JNS(LabelRef("powers_loop"))
	RET()
}

var (
	bswapMask, gfPoly, laneOffsets, tailMasks, ctrNibbleConst Mem
	stepConst                                                 = map[int]Mem{}
)

// genConstants emits the constants, 64 bytes each so that any width can
// take them as memory operands.
func genConstants() {
	bswapMask = vec.Qwords("gcmBswapMask", 64, 0x08090a0b0c0d0e0f, 0x0001020304050607)
	// x^63 + x^62 + x^57 in each lane's high word (the reduction selects it).
	gfPoly = vec.Qwords("gcmPoly", 64, 0, 0xc200000000000000)
	laneOffsets = vec.Qwords("gcmLaneOffsets", 64, 0, 0, 1, 0, 2, 0, 3, 0)
	// K1 for a tail of n = 0..3 blocks: two 64-bit lanes per block.
	tailMasks = GLOBL("gcmTailMasks", RODATA|NOPTR)
	DATA(0, U32(0x3f0f0300))
	var nib []uint64
	for i := range 8 {
		lo, hi := ctrNibbles(i)
		nib = append(nib, 0, lo, 0, hi)
	}
	ctrNibbleConst = vec.Qwords("gcmCtrNibbles", 8*32, nib...)
	for _, b := range []int{1, 2, 4, 16} {
		m := vec.Qwords(fmt.Sprintf("gcmStep%d", b), 64, uint64(b), 0)
		stepConst[b] = m
	}
}

func main() {
	ConstraintExpr("amd64,!purego")
	genConstants()
	for _, w := range []width{w128, w256, w512} {
		genSeal(w)
		genOpen(w)
		genGHASH(w)
	}
	genEncryptBlock()
	genFinish()
	genGHASHWords()
	genPowers()
	Generate()
}
