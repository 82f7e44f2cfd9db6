// Command aes generates aes/aes_amd64.s: the AES bulk kernels (ECB, CBC and
// CTR) for three vector widths from one set of generator functions.
//
//   - 16 bytes (XMM, AES-NI with legacy SSE encodings: needs AESNI and SSSE3),
//   - 32 bytes (YMM, VAES with AVX2),
//   - 64 bytes (ZMM, VAES with AVX-512: all round keys stay in Z16..Z30).
//
// The 16- and 32-byte kernels get TEXT symbols with suffix AESNI and
// VAES256; the 64-byte kernel is the entry point Go calls (encryptBlocks,
// decryptBlocks, cbcDecrypt, ctr), which takes the width as a last argument
// and jumps to the narrower kernels first (see entryPrologue).
// Every kernel takes the software prefetch distance as an argument (0: no
// prefetch), so that one kernel serves both the dispatched paths and the
// no-prefetch comparison paths (docs/prefetch.md has the measurements). CBC
// encryption is a serial chain that gains nothing from wide vectors; one
// XMM kernel serves all paths.
//
// Round keys are passed right-aligned in a 240-byte table: the last round
// key always sits at offset 224 and key i of an r-round cipher at
// 16*(14-r+i). The middle rounds are then at fixed offsets whatever the key
// size, and one branch on the round count per batch picks how many of them
// to run. Unused leading slots are zero, so the 512-bit path loads all 15
// slots into registers unconditionally.
package main

import (
	"fmt"
	"math/bits"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// regPlan is a kernel's register allocation table: which vector registers
// (numbers, at any width) hold what.
type regPlan struct {
	states int    // vectors per batch of the main loop, in registers 0..states-1
	key    int    // the round key being applied, broadcast from the table (16-register paths)
	keys   int    // first resident round key (see vec.RoundKeys), or -1
	mode   [3]int // CTR: bswap, base, step (-1: from memory); CBC: carry, prev0
	temps  []int  // temporaries, used round robin
}

// Register plans by kernel width.
//
// 128/256-bit paths (16 registers): states 0..11, the round key being
// applied in 12 (broadcast from the table once per round and batch, a
// load-port operation beside twelve AES instructions), the mode's state in
// 13..14 and one temporary in 15.
//
// 512-bit path (32 registers): states Z0..Z11; Z16 holds the first round
// key (slot 14-rounds, which the pointer k0 names) and Z16+j slot j of the
// right-aligned table for j = 1..14, all loaded once per call; Z12..Z14
// hold the mode's state and Z15 and Z31 are the temporaries. Its narrower
// tails use the low lanes of the same registers (EVEX encodings reach
// X16..X31).
//
// Twelve states on every path: Zen 5 issues two AES round instructions per
// cycle at any width with latency 4, so eight must be in flight at every
// moment; batches of exactly eight leave no slack at a batch's boundary.
// With eight, the 512-bit CTR and CBC decryption loops ran in two steady
// states, one 5% slower than the other, switching between them from call to
// call (same binary, same buffers; ECB stayed in the fast one), which a
// median over timings shows and the fastest slice hides (docs/aes-limits.md).
//
// Mode registers: CTR keeps the byte-reversal shuffle (bswap), the
// counters of the next vector with lanes byte-reversed (base, little
// endian) and the per-lane increment by one vector's blocks (step); CBC
// decryption keeps the previous ciphertext block in every lane (carry) and
// the chaining input of a batch's first vector (prev0).
var plans = map[vec.Width]regPlan{
	vec.W128: {states: 12, key: 12, keys: -1, mode: [3]int{13, 14, -1}, temps: []int{15}},
	vec.W256: {states: 12, key: 12, keys: -1, mode: [3]int{13, 14, -1}, temps: []int{15}},
	vec.W512: {states: 12, key: -1, keys: 16, mode: [3]int{12, 13, 14}, temps: []int{15, 31}},
}

// Indices into regPlan.mode.
const (
	regBswap = 0
	regBase  = 1
	regStep  = 2
	regCarry = 0
	regPrev0 = 1
)

// kernel emits one TEXT symbol.
type kernel struct {
	w    vec.Width // widest width of the kernel
	mode string    // "ecbenc", "ecbdec", "cbcdec", "ctr"

	plan regPlan

	keys, rounds, dst, src, n, k0, arg, prefetch GPPhysical
	roundKeys                                    vec.RoundKeys
	labels                                       vec.Labels
}

func (k *kernel) label(what string) string { return k.labels.New(what) }

func (k *kernel) dec() bool { return k.mode == "ecbdec" || k.mode == "cbcdec" }

// isa is the encoding of the kernel's code at width w. The 128-bit kernel
// uses legacy SSE encodings (two operands, destination first in Intel
// order) so that it runs on every AES-NI CPU, AVX or not. The narrower
// tails of the wider kernels keep VEX forms (EVEX where they name the
// 512-bit kernel's registers 16..31).
func (k *kernel) isa(w vec.Width) vec.ISA {
	switch {
	case k.w == vec.W128:
		return vec.ISA{W: w, Enc: vec.SSE}
	case w == vec.W512:
		return vec.ISA{W: w, Enc: vec.EVEX}
	}
	return vec.ISA{W: w, Enc: vec.VEX}
}

// temp returns the i-th temporary (round robin) at width w.
func (k *kernel) temp(w vec.Width, i int) VecPhysical {
	return w.Reg(k.plan.temps[i%len(k.plan.temps)])
}

// modeReg returns mode register r (regBswap...) at width w.
func (k *kernel) modeReg(w vec.Width, r int) VecPhysical { return w.Reg(k.plan.mode[r]) }

// cipherRounds runs rounds 1..r on states that already hold block^key0. The last
// round key is XORed with lastXor[i] first when that is given (folding the
// data XOR of CTR and CBC decryption into AESENCLAST).
func (k *kernel) cipherRounds(w vec.Width, states []VecPhysical, lastXor []Op) {
	isa := k.isa(w)
	k.roundKeys.MiddleRounds(isa, k.rounds, &k.labels, states, k.dec())
	key := k.roundKeys.Slot(isa, 14)
	for i, s := range states {
		if lastXor == nil || lastXor[i] == nil {
			isa.AESLastRound(k.dec(), key, s)
			continue
		}
		t := k.temp(w, i)
		isa.Xor(lastXor[i], key, t)
		isa.AESLastRound(k.dec(), t, s)
	}
}

// batch processes nv vectors at width w.
func (k *kernel) batch(w vec.Width, nv int) {
	isa := k.isa(w)
	states := w.Regs(0, nv)
	src := func(i int) Mem { return Mem{Base: k.src, Disp: i * int(w)} }
	dst := func(i int) Mem { return Mem{Base: k.dst, Disp: i * int(w)} }

	if nv == k.plan.states {
		// Software prefetch of the source the given distance ahead of this
		// batch; lines past the end of the buffer are harmless to prefetch.
		// Distance 0 skips it (one predicted branch per batch).
		skip := k.label("noprefetch")
		TESTQ(k.prefetch, k.prefetch)
		JZ(LabelRef(skip))
		for off := 0; off < nv*int(w); off += 64 {
			PREFETCHT0(Mem{Base: k.src, Index: k.prefetch, Scale: 1, Disp: off})
		}
		Label(skip)
	}

	var lastXor []Op
	switch k.mode {
	case "ecbenc", "ecbdec":
		k0 := k.roundKeys.FirstKey(isa)
		for i, s := range states {
			isa.Xor(src(i), k0, s)
		}
	case "cbcdec":
		carry, prev0 := k.modeReg(w, regCarry), k.modeReg(w, regPrev0)
		lastXor = make([]Op, nv)
		// The first vector's chaining input is the carried block followed
		// by its own blocks but the last; the other vectors read theirs
		// from the source 16 bytes back, which is still intact because
		// every load of a batch comes before its first store.
		d0 := k.temp(w, 0)
		isa.Load(src(0), d0)
		switch w {
		case vec.W128:
			isa.Copy(carry, prev0)
		case vec.W256:
			VPERM2I128(Imm(0x21), d0, carry, prev0)
		default:
			VALIGNQ(Imm(6), carry, d0, prev0)
		}
		lastXor[0] = prev0
		for i := 1; i < nv; i++ {
			lastXor[i] = Mem{Base: k.src, Disp: i*int(w) - 16}
		}
		isa.BroadcastLane(Mem{Base: k.src, Disp: nv*int(w) - 16}, carry)
		k0 := k.roundKeys.FirstKey(isa)
		isa.Xor(d0, k0, states[0])
		for i := 1; i < nv; i++ {
			isa.Xor(src(i), k0, states[i])
		}
	case "ctr":
		bswap, base := k.modeReg(w, regBswap), k.modeReg(w, regBase)
		// The main loops keep the step in a register where the plan has
		// room; the narrower tails of a wider kernel add their own,
		// smaller step from memory (legacy SSE through a temporary: its
		// memory operands must be aligned).
		var step Op
		switch {
		case w == k.w && k.plan.mode[regStep] >= 0:
			step = k.modeReg(w, regStep)
		case isa.Enc == vec.SSE:
			step = k.temp(w, 0)
			isa.Load(stepConst[w.Blocks()], step)
		default:
			step = stepConst[w.Blocks()]
		}
		for _, s := range states {
			isa.Shuffle(bswap, base, s)
			isa.Add64(step, base, base)
		}
		k0 := k.roundKeys.FirstKey(isa)
		for _, s := range states {
			isa.Xor(s, k0, s)
		}
		lastXor = make([]Op, nv)
		for i := range states {
			lastXor[i] = src(i)
		}
	}

	k.cipherRounds(w, states, lastXor)

	for i, s := range states {
		isa.Store(s, dst(i))
	}
}

// step runs one batch of nv vectors at width w when at least that many
// blocks remain. Below the main loop of 2*nv vectors or more, fewer than
// 2*nv vectors are left at each power of two, so its batch runs at most
// once: as a loop it cost every short call a jump back and a second test
// per size it ran (a 64-byte call on the 512-bit path: 2 of its 9 taken
// branches).
func (k *kernel) step(w vec.Width, nv int) {
	skip := k.label("skip")
	CMPQ(k.n, Imm(uint64(nv*w.Blocks())))
	JB(LabelRef(skip))
	k.batch(w, nv)
	k.advance(w, nv)
	Label(skip)
}

// advance moves src and dst past nv vectors at width w and counts their
// blocks off n.
func (k *kernel) advance(w vec.Width, nv int) {
	ADDQ(U32(nv*int(w)), k.src)
	ADDQ(U32(nv*int(w)), k.dst)
	SUBQ(Imm(uint64(nv*w.Blocks())), k.n)
}

// loopThen repeats batches of nv vectors at width w while at least that
// many blocks remain, with then emitted after the loop's own test at its
// top, with the loop's top label; the batches then loop back below it, so
// then runs once each time the loop is entered at top. With alignExit the code
// after the loop starts on a 64-byte boundary (see genKernel).
func (k *kernel) loopThen(w vec.Width, nv int, alignExit bool, then func(top string)) {
	top, done := k.label("loop"), k.label("done")
	per := nv * w.Blocks()
	Label(top)
	CMPQ(k.n, Imm(uint64(per)))
	JB(LabelRef(done))
	body := top
	if then != nil {
		// then runs once per entry at top, not once per batch: the
		// batches loop back to body and test only their own count.
		then(top)
		body = k.label("body")
		Label(body)
	}
	k.batch(w, nv)
	k.advance(w, nv)
	if then != nil {
		CMPQ(k.n, Imm(uint64(per)))
		JAE(LabelRef(body))
		JMP(LabelRef(done))
	} else {
		JMP(LabelRef(top))
	}
	if alignExit {
		// Padding after the JMP: never executed.
		vec.PCAlign(64)
	}
	Label(done)
}

var widthSuffix = map[vec.Width]string{vec.W128: "AESNI", vec.W256: "VAES256", vec.W512: "VAES512"}

var modeName = map[string]string{"ecbenc": "encryptBlocks", "ecbdec": "decryptBlocks", "cbcdec": "cbcDecrypt", "ctr": "ctr", "ctrfrom": "ctrFrom"}

var modeDoc = map[string]string{
	"ecbenc": "encrypts n blocks from src to dst (ECB).",
	"ecbdec": "decrypts n blocks from src to dst (ECB).",
	"cbcdec": "decrypts n blocks in CBC mode chaining from *iv; it does not update *iv.",
	"ctr":    "XORs n blocks of src with the keystream of big-endian counters *ctr, *ctr+1, ... into dst and advances *ctr by n; only the low 64 bits count.",
	// The counter heads the chain of AES rounds: built in registers from
	// words, it starts the rounds about 4 cycles sooner than a counter
	// block the caller stores for the kernel to load, a sixth of a 64-byte
	// call (XORKeyStreamAt at 64 B: 0.86x the serial stream that way).
	"ctrfrom": "XORs n blocks of src with the keystream of big-endian counters c, c+1, ... into dst, where c's big-endian halves are hi and lo; only the low 64 bits count.",
}

func genKernel(w vec.Width, mode string) {
	// from: the ctr kernel for XORKeyStreamAt (mode "ctrfrom"), which takes
	// the counter as two words instead of a pointer and leaves no counter
	// behind.
	from := mode == "ctrfrom"
	k := &kernel{w: w, mode: mode,
		keys: RAX, rounds: RBX, dst: RDI, src: RSI, n: RCX, k0: RDX, arg: R8, prefetch: R9, plan: plans[w]}
	// The 512-bit path keeps every round key in Z16..Z30; the others
	// broadcast each into the key register as a round needs it.
	// Entry labels on 8-byte boundaries (see vec.RoundSlotsAligned): a
	// 64-byte AES-128 call jumped to a VAESENC at byte 60 of a fetch block.
	// Not in the ctr kernels: padded, their 512-bit AES-128 loop measured
	// 0.5-2% slower at 16 KiB on Zen 5 (0.0801-0.0816 against 0.0800-0.0803
	// c/B over five interleaved runs of each build), and less steady. The
	// ctrfrom kernels keep it: unpadded too, the code after them moved and
	// ARIA-192/256 CTR at 256 bytes measured 4-7% slower in two 20-round
	// runs against the fd43c59 build (docs/prefetch.md, code placement).
	var entryAlign uint64 = 8
	if mode == "ctr" {
		entryAlign = 0
	}
	k.roundKeys = vec.RoundKeys{Table: k.keys, First: k.k0, Resident: k.plan.keys, Scratch: k.plan.key, EntryAlign: entryAlign}
	isa := k.isa(w)
	name := modeName[mode] + widthSuffix[w]
	sig := "func(keys *[240]byte, rounds int, dst, src *byte, n, prefetch int)"
	switch mode {
	case "cbcdec":
		sig = "func(keys *[240]byte, rounds int, dst, src *byte, n, prefetch int, iv *[16]byte)"
	case "ctr":
		sig = "func(keys *[240]byte, rounds int, dst, src *byte, n, prefetch int, ctr *[16]byte)"
	case "ctrfrom":
		sig = "func(keys *[240]byte, rounds int, dst, src *byte, n, prefetch int, hi, lo uint64)"
	}
	// The widest kernel is also the entry point Go calls (see
	// entryPrologue): its own width falls through the tests into it.
	entry := w == widest
	if entry {
		name = modeName[mode]
		sig = strings.TrimSuffix(sig, ")") + ", width int)"
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	if entry {
		Doc(fmt.Sprintf("%s runs the kernel of the given vector width (16, 32 or 64 bytes): it %s It prefetches the source prefetch bytes ahead (0: not at all).", name, modeDoc[mode]))
		entryPrologue(k.keys)
	} else {
		Doc(fmt.Sprintf("%s %s It runs %d-bit vectors and prefetches the source prefetch bytes ahead (0: not at all).", name, modeDoc[mode], 8*int(w)))
	}
	if from {
		mode, k.mode = "ctr", "ctr" // the same kernel but for its counter
	}
	vec.LoadArgs(k.keys, k.rounds, k.dst, k.src, k.n, k.prefetch)
	// k0 = keys + 16*(14-rounds), the slot of the first round key.
	MOVQ(k.rounds, k.k0)
	NEGQ(k.k0)
	SHLQ(Imm(4), k.k0)
	LEAQ(Mem{Base: k.keys, Index: k.k0, Scale: 1, Disp: 16 * 14}, k.k0)

	if k.roundKeys.Resident >= 0 {
		k.roundKeys.LoadResident(isa, 1, 14)
	}
	switch mode {
	case "cbcdec":
		vec.LoadParam("iv", k.arg)
		isa.BroadcastLane(Mem{Base: k.arg}, k.modeReg(w, regCarry))
	case "ctr":
		bswap, base := k.modeReg(w, regBswap), k.modeReg(w, regBase)
		isa.BroadcastLane(bswapMask, bswap)
		if from {
			k.counterFromWords(w)
		} else {
			vec.LoadParam("ctr", k.arg)
			isa.BroadcastLane(Mem{Base: k.arg}, base)
			isa.Shuffle(bswap, base, base)
		}
		if w != vec.W128 {
			// Lane i counts from ctr+i.
			isa.Add64(laneOffsets, base, base)
		}
		if k.plan.mode[regStep] >= 0 {
			isa.BroadcastLane(stepConst[w.Blocks()], k.modeReg(w, regStep))
		}
	}

	// The main loop, then loops of each power of two below it. Where the
	// main batch is not a power of two (12 vectors), it runs out of line
	// (after the RET) and only while 20 or more vectors remain, entered
	// from the 8-vector loop's entry: a message shorter than 8 vectors
	// runs exactly the instructions it ran with 8 states, one of 8 to 19
	// passes one untaken branch, and a long one ends with one or two
	// batches of 8.
	var wide func()
	p := 1 << (bits.Len(uint(k.plan.states)) - 1)
	// Calls shorter than the main batch (every call of 16 to 256 bytes on
	// the 512-bit path) jump over the main loop to the code after it, the
	// narrower steps and the tail, which starts on a 64-byte boundary
	// (PCALIGN also aligns the function so): where it fell otherwise moved
	// with the bytes before it and with where the linker put the kernel.
	// Measured in one process against fd43c59's kernels on Zen 5 (48
	// random placements of the key schedules, 64-byte calls): with every
	// function of both on a 64-byte boundary (-funcalign=64), ECB
	// encryption 0.974 -> 1.008 of the old speed and CTR 0.972 -> 0.986
	// with AES-128, ECB decryption unchanged at 0.97; with fd43c59's
	// kernels where its own binary has them (32 mod 64), ECB 0.99-1.06
	// and CTR 0.99-1.02 of the old speed. CBC decryption did worse aligned
	// so (0.94-0.97 against 0.97-0.99, and 4% behind at 256 bytes either
	// way): it keeps the unaligned layout. Differences of 2-3% come and go
	// between runs here; docs/prefetch.md has the figures.
	align := k.mode != "cbcdec"
	if p == k.plan.states {
		k.loopThen(w, p, align, nil)
	} else {
		// The test for the wide loop sits at the p-vector loop's entry,
		// after its own test: below p vectors a call runs exactly the old
		// code. The wide loop returns to that entry.
		wideLoop := k.label("wide")
		least := uint64((k.plan.states + p) * w.Blocks())
		k.loopThen(w, p, align, func(top string) {
			CMPQ(k.n, Imm(least))
			JAE(LabelRef(wideLoop))
			wide = func() {
				nv := k.plan.states
				Label(wideLoop)
				k.batch(w, nv)
				k.advance(w, nv)
				CMPQ(k.n, Imm(least))
				JAE(LabelRef(wideLoop))
				JMP(LabelRef(top))
			}
		})
	}
	for nv := p / 2; nv >= 1; nv /= 2 {
		k.step(w, nv)
	}

	// The last vector's worth, less than one full vector, in halves:
	// narrower steps rather than masked loads and stores, which cost a
	// failed store forwarding whenever the next call reads what this one
	// wrote (in-place encryption of consecutive messages does) and an
	// assist near unmapped pages.
	vec.Halving(w, k.n, 16, &k.labels, func(tw vec.Width) { k.batch(tw, 1) }, func(tw vec.Width) {
		ADDQ(U32(int(tw)), k.src)
		ADDQ(U32(int(tw)), k.dst)
		SUBQ(Imm(uint64(tw.Blocks())), k.n)
	})
	if mode == "ctr" && !from {
		// Lane 0 of the counter vector has advanced by exactly n. One
		// 16-byte store (rather than the caller's 8-byte update) lets the
		// next call's 16-byte load of the counter forward from it instead
		// of stalling until the store retires.
		x, isa := k.temp(vec.W128, 0), k.isa(vec.W128)
		isa.Shuffle(k.modeReg(vec.W128, regBswap), k.modeReg(vec.W128, regBase), x)
		isa.Store(x, Mem{Base: k.arg})
	}
	isa.Return()
	if wide != nil {
		wide()
	}
	if entry {
		entryJumps(name)
	}
}

// counterFromWords sets every lane of the counter register to the
// little-endian 128-bit counter (the byte-reversed big-endian block) whose
// halves are the parameters hi and lo: lo in the low quadword, as the
// kernel's per-lane additions want it.
func (k *kernel) counterFromWords(w vec.Width) {
	lo, hi := k.arg, R10
	vec.LoadParam("lo", lo)
	vec.LoadParam("hi", hi)
	xb, xt := k.modeReg(vec.W128, regBase), k.temp(vec.W128, 0)
	if k.isa(w).Enc == vec.SSE {
		MOVQ(lo, xb)
		MOVQ(hi, xt)
		PUNPCKLQDQ(xt, xb)
		return
	}
	VMOVQ(lo, xb)
	VMOVQ(hi, xt)
	VPUNPCKLQDQ(xt, xb, xb)
	switch base := k.modeReg(w, regBase); w {
	case vec.W256:
		VINSERTI128(Imm(1), xb, base, base)
	case vec.W512:
		VSHUFI64X2(Imm(0), base, base, base)
	}
}

// genCBCEncrypt emits the serial CBC encryption kernel: one chain, one block
// at a time, so the AES latency is the whole cost. The plaintext XOR is
// folded into the last round of the previous block,
//
//	x[i+1] = aesenclast(klast ^ p[i+1] ^ k0, s[i]) = c[i] ^ p[i+1] ^ k0,
//
// which takes the XOR off the chain; c[i] = x[i+1] ^ p[i+1] ^ k0 is recovered
// beside it. One loop per key size keeps the round keys in registers
// (AES-256 reloads its first two middle keys each block: 16 XMM registers
// are one short, and the loads leave the chain alone). Legacy SSE
// encodings, like the other 128-bit kernels.
func genCBCEncrypt() {
	TEXT("cbcEncryptAESNI", NOSPLIT, "func(keys *[240]byte, rounds int, dst, src *byte, n int, iv *[16]byte)")
	Pragma("noescape")
	Doc("cbcEncryptAESNI encrypts n >= 1 blocks in CBC mode chaining from *iv and leaves the last ciphertext block in *iv.")
	keys, rounds, dst, src, n, iv := RAX, RBX, RDI, RSI, RCX, R8
	vec.LoadArgs(keys, rounds, dst, src, n, iv)
	x, u, t, k0, klast := X0, X1, X2, X3, X4
	MOVOU(Mem{Base: keys, Disp: 16 * 14}, klast)

	CMPQ(rounds, Imm(12))
	JB(LabelRef("cbcenc_10"))
	JE(LabelRef("cbcenc_12"))
	cbcEncryptLoop("cbcenc_14", keys, iv, dst, src, n, x, u, t, k0, klast, 14)
	Label("cbcenc_12")
	cbcEncryptLoop("cbcenc_12", keys, iv, dst, src, n, x, u, t, k0, klast, 12)
	Label("cbcenc_10")
	cbcEncryptLoop("cbcenc_10", keys, iv, dst, src, n, x, u, t, k0, klast, 10)
}

func cbcEncryptLoop(prefix string, keys, iv, dst, src, n GPPhysical, x, u, t, k0, klast VecPhysical, rounds int) {
	first := 14 - rounds
	MOVOU(Mem{Base: keys, Disp: 16 * first}, k0)
	// Middle key slot j lives in X(j+2) for j >= 3; slots 1 and 2 (AES-256
	// only) are loaded into u and t, free at that point of the loop.
	for j := first + 1; j <= 13; j++ {
		if j >= 3 {
			MOVOU(Mem{Base: keys, Disp: 16 * j}, vec.W128.Reg(j+2))
		}
	}
	MOVOU(Mem{Base: iv}, x)
	MOVOU(Mem{Base: src}, u)
	PXOR(u, x)
	PXOR(k0, x)
	loop, last := prefix+"_loop", prefix+"_last"
	Label(loop)
	for j := first + 1; j <= 13; j++ {
		switch j {
		case 1:
			MOVOU(Mem{Base: keys, Disp: 16}, u)
			AESENC(u, x)
		case 2:
			MOVOU(Mem{Base: keys, Disp: 32}, t)
			AESENC(t, x)
		default:
			AESENC(vec.W128.Reg(j+2), x)
		}
	}
	CMPQ(n, Imm(1))
	JE(LabelRef(last))
	MOVOU(Mem{Base: src, Disp: 16}, u)
	PXOR(k0, u)
	MOVO(u, t)
	PXOR(klast, t)
	AESENCLAST(t, x)
	MOVO(x, t)
	PXOR(u, t)
	MOVOU(t, Mem{Base: dst})
	ADDQ(Imm(16), src)
	ADDQ(Imm(16), dst)
	DECQ(n)
	JMP(LabelRef(loop))
	Label(last)
	AESENCLAST(klast, x)
	MOVOU(x, Mem{Base: dst})
	MOVOU(x, Mem{Base: iv})
	RET()
}

// genExpandKey emits expandKeyAESNI, the whole key schedule on the AES
// unit (AESKEYGENASSIST for the S-box steps, AESIMC for the decryption
// keys): constant-time, since the portable path's tables are indexed by key
// bytes, and about as fast as the standard library's key setup. It writes
// the right-aligned tables the kernels read: encryption key i at
// 16*(14-rounds+i); decryption key i is encryption key rounds-i, with
// InvMixColumns applied to all but the first and last (the equivalent
// inverse cipher).
func genExpandKey() {
	TEXT("expandKeyAESNI", NOSPLIT, "func(key *byte, rounds int, enc, dec *[240]byte)")
	Pragma("noescape")
	Doc("expandKeyAESNI expands the 16-, 24- or 32-byte key at key (rounds 10, 12 or 14) into enc and dec.")
	key, rounds, enc, dec, off := RSI, RCX, RDI, RDX, RAX
	vec.LoadArgs(key, rounds, enc, dec)
	// off = 16*(14-rounds) - 16*14; enc then points at the first key's slot.
	MOVQ(rounds, off)
	NEGQ(off)
	SHLQ(Imm(4), off)
	LEAQ(Mem{Base: enc, Index: off, Scale: 1, Disp: 16 * 14}, enc)
	rcon := []uint64{0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36}
	x1, x2, x3, x4 := X1, X2, X3, X4
	// prefixXor turns the words (a, b, c, d) of x into (a, a^b, a^b^c,
	// a^b^c^d), X5 as scratch; lanes 2 stops after (a, a^b).
	prefixXor := func(x VecPhysical, lanes int) {
		MOVO(x, X5)
		for i := 1; i < lanes; i++ {
			PSLLDQ(Imm(4), X5)
			PXOR(X5, x)
		}
	}
	// step derives four words of x from the previous ones: word sel of
	// AESKEYGENASSIST(from, rcon), broadcast, XORed into the prefix XOR of
	// x; it stores them at enc+disp.
	step := func(rcon uint64, from VecPhysical, sel uint64, x VecPhysical, disp int) {
		AESKEYGENASSIST(Imm(rcon), from, x2)
		PSHUFD(Imm(sel), x2, x2)
		prefixXor(x, 4)
		PXOR(x2, x)
		MOVOU(x, Mem{Base: enc, Disp: disp})
	}
	// copyKey loads the key's first 16 bytes into x1 and the rest into x3
	// (moved by moveRest: MOVOU for 16 bytes, MOVQ for 8, nil for none),
	// and stores both as the schedule's first words.
	copyKey := func(moveRest func(src, dst Op)) {
		MOVOU(Mem{Base: key}, x1)
		if moveRest != nil {
			moveRest(Mem{Base: key, Disp: 16}, x3)
		}
		MOVOU(x1, Mem{Base: enc})
		if moveRest != nil {
			moveRest(x3, Mem{Base: enc, Disp: 16})
		}
	}
	CMPQ(rounds, Imm(12))
	JB(LabelRef("expand_128"))
	JE(LabelRef("expand_192"))

	// AES-256: two 4-word halves, the second half's step without RotWord
	// and round constant.
	copyKey(MOVOU)
	for i := 1; i <= 7; i++ {
		step(rcon[i-1], x3, 0xff, x1, 32*i)
		if i < 7 {
			step(0, x1, 0xaa, x3, 32*i+16)
		}
	}
	JMP(LabelRef("expand_dec"))

	// AES-192: groups of six words, stored as four and two; the last group
	// needs only its first four.
	Label("expand_192")
	copyKey(MOVQ)
	for i := 1; i <= 8; i++ {
		step(rcon[i-1], x3, 0x55, x1, 24*i)
		if i == 8 {
			break
		}
		PSHUFD(Imm(0xff), x1, x4)
		prefixXor(x3, 2)
		PXOR(x4, x3)
		MOVQ(x3, Mem{Base: enc, Disp: 24*i + 16})
	}
	JMP(LabelRef("expand_dec"))

	Label("expand_128")
	copyKey(nil)
	for i := 1; i <= 10; i++ {
		step(rcon[i-1], x1, 0xff, x1, 16*i)
	}

	// Decryption keys: dec's first slot (the same offset as enc's) takes
	// the last encryption key, and so on backwards.
	Label("expand_dec")
	src, dst := RSI, RDX
	LEAQ(Mem{Base: dec, Index: off, Scale: 1, Disp: 16 * 14}, dst)
	MOVQ(enc, src)
	SUBQ(off, src) // enc + 16*rounds: the last key
	MOVOU(Mem{Base: src}, X0)
	MOVOU(X0, Mem{Base: dst})
	DECQ(rounds)
	Label("expand_dec_loop")
	SUBQ(Imm(16), src)
	ADDQ(Imm(16), dst)
	MOVOU(Mem{Base: src}, X0) // legacy encodings fault on unaligned memory operands
	AESIMC(X0, X0)
	MOVOU(X0, Mem{Base: dst})
	DECQ(rounds)
	JNZ(LabelRef("expand_dec_loop"))
	MOVOU(Mem{Base: src, Disp: -16}, X0)
	MOVOU(X0, Mem{Base: dst, Disp: 16})
	RET()
}

// widest is the width whose kernel is the entry point of its operation.
const widest = vec.W512

// The entry point Go calls per operation (encryptBlocks, ...) takes the
// kernel's arguments plus the vector width in bytes (16, 32 or 64) and is
// the widest kernel itself, prefixed by tests of the width that jump
// to the narrower kernels: the default path on a CPU with 512-bit vectors
// runs two untaken branches more than a direct call, the others two taken
// branches (a test, then a jump). The narrower kernels find their arguments where
// the entry point received them, the width being last. An entry point of
// its own that jumped to every width cost the 512-bit path two taken
// branches per call, 3-5% of a 64-byte call on Zen 5; a switch in Go
// costs a call more than either (about 1.4 ns).
//
// entryPrologue emits those tests (with scratch, before the kernel loads
// it with the first argument); entryJumps, after the kernel's code, the
// jumps they go to (Go's assembler has no conditional jump to a symbol).
func entryPrologue(scratch GPPhysical) {
	vec.LoadParam("width", scratch)
	for _, w := range []vec.Width{vec.W128, vec.W256} {
		CMPQ(scratch, Imm(uint64(w)))
		JE(LabelRef(widthSuffix[w]))
	}
}

func entryJumps(name string) {
	for _, w := range []vec.Width{vec.W128, vec.W256} {
		Label(widthSuffix[w])
		tailJump(name + widthSuffix[w])
	}
}

// tailJump emits JMP to the function fn of this package. avo's JMP takes
// only labels of the same function; an instruction built by hand, marked
// terminal, passes its checks.
func tailJump(fn string) {
	Instruction(&ir.Instruction{Opcode: "JMP", Operands: []Op{NewDataAddr(Symbol{Name: "·" + fn}, 0)}, IsTerminal: true})
}

var (
	bswapMask   Mem
	laneOffsets Mem
	stepConst   = map[int]Mem{}
)

func genConstants() {
	bswapMask = vec.ByteReverse("bswapMask")
	laneOffsets = vec.Qwords("laneOffsets", 64, 0, 0, 1, 0, 2, 0, 3, 0)
	for _, b := range []int{1, 2, 4} {
		// Replicated in every lane so that any width can add it from memory.
		stepConst[b] = vec.Qwords(fmt.Sprintf("step%d", b), 64, uint64(b), 0)
	}
}

func main() {
	ConstraintExpr("amd64,!purego")
	genConstants()
	for _, w := range []vec.Width{vec.W128, vec.W256, vec.W512} {
		for _, mode := range []string{"ecbenc", "ecbdec", "cbcdec", "ctr", "ctrfrom"} {
			genKernel(w, mode)
		}
	}
	genCBCEncrypt()
	genExpandKey()
	Generate()
}
