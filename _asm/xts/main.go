// Command xts generates xts/xts_amd64.s: the AES-XTS kernels for three vector
// widths from one generator parameterised by width.
//
//   - 16 bytes (XMM: AES-NI and PCLMULQDQ in VEX encodings, needs AVX),
//   - 32 bytes (YMM: VAES and VPCLMULQDQ with AVX2),
//   - 64 bytes (ZMM: VAES and VPCLMULQDQ with AVX-512; all round keys stay
//     in Z16..Z30).
//
// One kernel call is one sector: it encrypts the tweak under k2, runs every
// whole block and does the ciphertext stealing of IEEE 1619 for a final
// partial block. The round keys come as aes passes them to its own kernels
// (modes.AESRoundKeys): right-aligned in a 240-byte table, the last at
// offset 224, decryption keys for the equivalent inverse cipher.
//
// The tweaks of a batch live in vector registers, block j's tweak in the
// lane of block j: a vector of lanes L holds T*x^j .. T*x^(j+L-1) (tweaks
// are little-endian polynomials over GF(2) modulo x^128+x^7+x^2+x+1). A
// batch of nv vectors moves each tweak vector on by x^(nv*L), all of them
// in parallel: a shift of each 128-bit lane and one carry-less multiply of
// the bits shifted out by x^7+x^2+x+1 (on the 512-bit path a rotation by
// one dword and a multiply of the dword that wrapped around: see
// advanceFolded). The tweak goes into the first
// round's key addition (data ^ tweak ^ key0) and into the last round's key
// (AESENCLAST with key_last ^ tweak). The 512-bit and 128-bit paths keep
// the tweak registers as tweak ^ key_last (foldLast), so that the last
// round takes them as its key with no XOR, and XTS costs one XOR per vector
// over ECB besides the tweak update.
//
// What bounds the 512-bit path on Zen 5 (measured; docs/xts-limits.md): a
// sector's first batch waits for the tweak's own encryption, 10-14
// dependent rounds (about 10 ns for AES-128, each extra round another
// 1 ns), which nothing in the call can overlap. A sector that ends with a
// whole batch ends it in two AES chains (lastBatch), and the next call's
// tweak rounds run beside them, which takes back about half of that. Each
// batch's tweak update costs VPCLMULQDQ on the AES units (ECB alone keeps
// both busy: any vector operation added to the loop costs something); it is
// skipped after a sector's last batch and runs inside the others, two
// registers between each two of their middle rounds, with their last-round
// keys kept in a stack frame, where it costs little.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// width is a vector width in bytes.
type width = vec.Width

const (
	w128 = vec.W128
	w256 = vec.W256
	w512 = vec.W512
)

// at returns register r at width w (the same physical register).
func at(w width, r VecPhysical) VecPhysical { return w.Reg(int(r.PhysicalIndex())) }

// kernel emits one TEXT symbol: one direction at one width.
type kernel struct {
	w   width // the main loop's width
	nv  int   // vectors in flight in the main loop
	dec bool

	// General-purpose registers.
	keys, keys2, rounds, dst, src, blocks, partial, k0, tmp, tweakLo, tweakHi GPPhysical

	states, tweaks []VecPhysical // nv each, at width w
	keyReg         VecPhysical   // the 256-bit path's broadcast round key
	temps          []VecPhysical // scratch, at width w
	roundKeys      vec.RoundKeys
	labels         vec.Labels

	// foldLast: the tweak registers hold tweak ^ last round key, and the
	// first key operand is first key ^ last key (see cipherWithTweaks).
	// step then holds what moves such a register on by a batch: a frame
	// slot (tweakFrame's on the 512-bit path).
	foldLast bool
	step     Op

	// The 128-bit path, with eight states and eight tweak registers in
	// its 16, keeps what the 512-bit path holds in registers in a frame
	// block at frame: slot 0 first ^ last key, slot 14 the last key, slot
	// 15 the step (slot j is j*16 bytes in). The round keys are memory
	// operands from the caller's table.
	frame GPPhysical

	// The 512-bit path's main loop, on a batch that more of the sector
	// follows, stores the tweak registers to the 64-byte aligned block at
	// tweakFrame (slot i, 64 bytes each, for vector i) and moves them on
	// to the next batch between the middle rounds (roundsWithUpdate), and
	// takes the last round's keys from the block (lastFromFrame). Slot 8
	// holds the step.
	tweakFrame    GPPhysical
	lastFromFrame bool
}

// frameSlot returns slot j of the frame key table.
func (k *kernel) frameSlot(j int) Mem { return Mem{Base: k.frame, Disp: j * int(k.w)} }

func (k *kernel) label(what string) string { return k.labels.New(what) }

// evex reports whether the kernel uses the EVEX encodings of AVX-512 (the
// 512-bit kernel, also on its narrower tails, whose keys sit in X16..X31).
func (k *kernel) evex() bool { return k.w == w512 }

// isa is the kernel's encoding: EVEX for all of the 512-bit kernel (its
// narrower tails name the keys in X16..X31), VEX otherwise.
func (k *kernel) isa() vec.ISA {
	if k.evex() {
		return vec.ISA{W: k.w, Enc: vec.EVEX}
	}
	return vec.ISA{W: k.w, Enc: vec.VEX}
}

func (k *kernel) load(m Mem, dst VecPhysical)  { k.isa().Load(m, dst) }
func (k *kernel) store(src VecPhysical, m Mem) { k.isa().Store(src, m) }
func (k *kernel) move(src, dst VecPhysical)    { k.isa().Copy(src, dst) }
func (k *kernel) xor(a, b Op, dst VecPhysical) { k.isa().Xor(a, b, dst) }

// cipherWithTweaks ciphers states that hold input blocks, each under the
// tweak vector beside it: state = AES(state ^ tweak) ^ tweak, with the first
// XOR folded into the first key addition and the second into the last round
// key.
//
// With foldLast the tweak registers hold u = tweak ^ last key and the
// first-key register first ^ last key: the first addition is still one
// three-way XOR (block ^ u ^ (first ^ last)), and u is the last round's key
// as it stands, which saves the XOR per vector before AESENCLAST.
func (k *kernel) cipherWithTweaks(w width, states, tweaks []VecPhysical) {
	k0 := k.roundKeys.FirstKey(k.isa().At(w))
	for i, s := range states {
		if k.evex() {
			VPTERNLOGQ(Imm(0x96), k0, tweaks[i], s) // s ^= tweak ^ key0
		} else {
			VPXOR(tweaks[i], s, s)
			VPXOR(k0, s, s)
		}
	}
	if k.lastFromFrame {
		k.roundsWithUpdate(w, states)
	} else {
		k.roundKeys.MiddleRounds(k.isa().At(w), k.rounds, &k.labels, states, k.dec)
	}
	if k.foldLast {
		for i, s := range states {
			var key Op = tweaks[i]
			if k.lastFromFrame {
				key = k.tweakSlot(i)
			}
			k.isa().At(w).AESLastRound(k.dec, key, s)
		}
		return
	}
	last := k.roundKeys.Slot(k.isa().At(w), 14)
	t := at(w, k.temps[0])
	for i, s := range states {
		k.xor(last, tweaks[i], t)
		if k.dec {
			VAESDECLAST(t, s, s)
		} else {
			VAESENCLAST(t, s, s)
		}
	}
}

// batch ciphers len(tweaks) vectors of width w from src to dst.
func (k *kernel) batch(w width, tweaks []VecPhysical) {
	k.batchWith(w, len(tweaks), func(states []VecPhysical) { k.cipherWithTweaks(w, states, tweaks) })
}

// batchWith loads n vectors from src into the state registers, ciphers
// them (cipher) and stores them to dst.
func (k *kernel) batchWith(w width, n int, cipher func(states []VecPhysical)) {
	states := make([]VecPhysical, n)
	for i := range states {
		states[i] = at(w, k.states[i])
		k.load(Mem{Base: k.src, Disp: i * int(w)}, states[i])
	}
	cipher(states)
	for i, s := range states {
		k.store(s, Mem{Base: k.dst, Disp: i * int(w)})
	}
}

// mulX sets dst = src * x^n in each 128-bit lane, for 0 < n < 64, with two
// scratch registers (t2 unused when n is a multiple of 8). dst may be src.
//
// Bytes shift whole: the top n/8 bytes, moved to the bottom, times
// x^7+x^2+x+1 (x^128 reduced) fold back in. Otherwise the 64-bit halves
// shift, the low half's carry moves up a half, and the high half's is
// folded back likewise.
func (k *kernel) mulX(w width, src, dst, t1, t2 VecPhysical, n int) {
	k.mulXPlus(w, src, dst, t1, t2, n, nil)
}

// mulXPlus is mulX with plus, when not nil, XORed into the result (for
// whole-byte n on the 512-bit path, in the same three-way XOR).
func (k *kernel) mulXPlus(w width, src, dst, t1, t2 VecPhysical, n int, plus Op) {
	if n%8 == 0 {
		VPSRLDQ(Imm(uint64(16-n/8)), src, t1)
		VPSLLDQ(Imm(uint64(n/8)), src, dst)
		VPCLMULQDQ(Imm(0x00), polyConst, t1, t1)
		if plus != nil && k.evex() {
			VPTERNLOGQ(Imm(0x96), plus, t1, dst)
			return
		}
		if plus != nil {
			VPXOR(t1, dst, dst)
			VPXOR(plus, dst, dst)
			return
		}
		k.xor(t1, dst, dst)
		return
	}
	if plus != nil {
		panic("xts: mulXPlus only for whole bytes")
	}
	VPSRLQ(Imm(uint64(64-n)), src, t1)
	VPSLLQ(Imm(uint64(n)), src, dst)
	VPSLLDQ(Imm(8), t1, t2)
	VPCLMULQDQ(Imm(0x01), polyConst, t1, t1) // high half's carry * poly
	k.xor3(t1, t2, dst)
}

// xor3 sets dst ^= a ^ b.
func (k *kernel) xor3(a, b, dst VecPhysical) {
	if k.evex() {
		VPTERNLOGQ(Imm(0x96), a, b, dst)
		return
	}
	VPXOR(a, dst, dst)
	VPXOR(b, dst, dst)
}

// encryptTweak sets x = AES-encrypt(k2, tweakLo | tweakHi<<64), reading
// k2's round keys from memory (the data key's may already fill the key
// registers). The tweak never comes as one 16-byte load: of what the
// caller just stored in 8-byte halves, it would wait for the stores to
// retire, at the head of the chain every block waits on. Two 8-byte loads
// into the vector register (the 128-bit kernel) or through the general
// registers (the 256- and 512-bit kernels, where that measured better:
// 1-2 ns per 4 KiB call on vaes512, in either order in one binary).
func (k *kernel) encryptTweak(x VecPhysical) {
	if k.foldLast && !k.evex() {
		// Straight from the argument slots: each 8-byte load forwards
		// from the caller's store, and no general-to-vector move sits on
		// the path. (This once measured 1-3% faster at 512 bytes on
		// vaes512; with its present first batch the general registers
		// win there. aesni keeps this form, not measured again.)
		lo, err := Param("tweakLo").Resolve()
		if err != nil {
			panic(err)
		}
		hi, err := Param("tweakHi").Resolve()
		if err != nil {
			panic(err)
		}
		VMOVQ(lo.Addr, x)
		VPINSRQ(Imm(1), hi.Addr, x, x)
	} else {
		MOVQ(k.tweakLo, x)
		VPINSRQ(Imm(1), k.tweakHi, x, x)
	}
	VPXOR(Mem{Base: k.keys2, Index: k.tmp, Scale: 1}, x, x) // tmp = 16*(14-rounds)
	tweakKeys := vec.RoundKeys{Table: k.keys2, Resident: -1, Direct128: true}
	tweakKeys.MiddleRounds(k.isa().At(w128), k.rounds, &k.labels, []VecPhysical{x}, false)
	VAESENCLAST(Mem{Base: k.keys2, Disp: 16 * 14}, x, x)
}

// initTweaks fills the tweak vectors from T in the low lane of tweaks[0]:
// vector i holds T*x^(i*L) .. T*x^(i*L+L-1).
func (k *kernel) initTweaks() {
	w, L := k.w, k.w.Blocks()
	v0 := k.tweaks[0]
	t1, t2 := k.states[0], k.states[1] // free before the first batch
	if L > 1 {
		// Every lane gets T, then lane l is multiplied by x^l: per-lane
		// shift counts, the carries handled as in mulX.
		if w == w256 {
			VPERMQ(Imm(0x44), v0, v0)
		} else {
			VSHUFI64X2(Imm(0), v0, v0, v0)
		}
		VPSRLVQ(laneShr, v0, t1)
		VPSLLVQ(laneShl, v0, v0)
		VPSLLDQ(Imm(8), t1, t2)
		VPCLMULQDQ(Imm(0x01), polyConst, t1, t1)
		k.xor3(t1, t2, v0)
	}
	for i := 1; i < k.nv; i++ {
		k.mulX(w, v0, k.tweaks[i], t1, t2, i*L)
	}
}

// fillFrame sets k.frame to a 64-byte aligned block of buf and fills it
// (see kernel.frame): slot 0 first ^ last key, slot 14 the last key, slot
// 15 last*x^per ^ last. The states are free; this runs beside the tweak's
// encryption.
func (k *kernel) fillFrame(buf Mem, per int) {
	w, isa := k.w, k.isa()
	LEAQ(buf, k.frame)
	ADDQ(U32(63), k.frame)
	ANDQ(I32(-64), k.frame)
	first, last, step, t1, t2 := k.states[0], k.states[1], k.states[2], k.states[3], k.states[4]
	isa.BroadcastLane(Mem{Base: k.k0}, first)
	isa.BroadcastLane(k.roundKeys.Mem(14), last)
	k.xor(last, first, first)
	k.store(first, k.frameSlot(0))
	k.store(last, k.frameSlot(14))
	k.mulX(w, last, step, t1, t2, per)
	k.xor(last, step, step)
	k.store(step, k.frameSlot(15))
}

// initFoldedTweaks fills the tweak vectors of a foldLast kernel from T in
// the low lane of tweaks[0]: vector i holds T*x^s ^ last key in lane l,
// s = i*L+l. Each vector comes from T broadcast in one step, not from the
// vector before it, and vector 0 first: the first batch waits on this.
//
// T*x^s (s < 64) is T rotated left by s bits within its lane, with the s
// bits that wrapped around from the top, c, also multiplied by
// x^7+x^2+x (x^128 = x^7+x^2+x+1, and the rotation already added c*1).
// One funnel shift per 64-bit half does the rotation (VPSHLDVQ, the
// halves' other halves from a swapped copy), a shift isolates c in the
// high half, and one carry-less multiply gives c*(x^7+x^2+x). This leaves
// one VPCLMULQDQ per vector on the AES units, and measured 1-1.5 ns per
// call faster than shifting both halves and moving the carries with byte
// shifts (VPSLLDQ, which takes AES issue slots too).
func (k *kernel) initFoldedTweaks() {
	w := k.w
	last := k.roundKeys.Slot(k.isa(), 14)
	b, swapped := k.temps[0], k.states[k.nv-1] // free until the step and the first batch
	VSHUFI64X2(Imm(0), k.tweaks[0], k.tweaks[0], b)
	VPSHUFD(Imm(0x4e), b, swapped)
	for i, tv := range k.tweaks {
		c := k.states[i%(k.nv-1)]
		VMOVDQA64(b, tv)
		VPSHLDVQ(laneShl.Offset(i*int(w)), swapped, tv) // T rotated left by s
		VPSRLVQ(laneShr.Offset(i*int(w)), b, c)         // high half: c
		VPCLMULQDQ(Imm(0x01), polyFold, c, c)
		VPTERNLOGQ(Imm(0x96), last, c, tv)
	}
}

// advanceFolded moves a folded tweak register u = t ^ last on by a batch
// of 32 blocks: u*x^32 ^ step, with step = last*x^32 ^ last. Within each
// lane, t*x^32 is t rotated left by one dword (VPSHUFD) with the dword d
// that wrapped around also multiplied by x^7+x^2+x: d isolated by a
// zero-masked VPSHUFD (K2 holds dword 0 of each lane), one carry-less
// multiply. Four instructions, one of them (VPCLMULQDQ) on the AES units;
// the byte shifts of mulX would be two more there. It runs inside a batch
// (roundsWithUpdate), with temps[0] as its one temporary and the step from
// the tweak frame.
func (k *kernel) advanceFolded(tv VecPhysical) {
	d := k.temps[0]
	VPSHUFD_Z(Imm(0xff), tv, K2, d)
	VPSHUFD(Imm(0x93), tv, tv)
	VPCLMULQDQ(Imm(0x00), polyFold, d, d)
	VPTERNLOGQ(Imm(0x96), k.step, d, tv)
}

// tweakSlot returns slot i of the 512-bit path's tweak frame.
func (k *kernel) tweakSlot(i int) Mem { return Mem{Base: k.tweakFrame, Disp: i * int(k.w)} }

// firstUpdateSlot is the middle round after which roundsWithUpdate moves the
// first tweak registers on; updatesPerSlot of them follow each round from
// there. Slot 6 is the second round of AES-128, so every key size runs all
// updates inside its rounds.
const firstUpdateSlot, updatesPerSlot = 6, 2

// roundsWithUpdate runs the middle rounds of a batch that more of the
// sector follows, and moves the tweak registers on to the next batch
// (advanceFolded) in pairs between them: each pair is stored to the tweak
// frame for the batch's last round, then advanced after round
// firstUpdateSlot, the next pair after the round after it, and so on. Spread
// so, the update's VPCLMULQDQ take AES issue slots a few at a time beside
// the rounds; all of it ahead of the rounds (in program order) took them at
// once and held the batch's first rounds back. Same-run ratios to ECB at
// 4 KiB rose by 0.03-0.04 (AES-128) and 0.03 (AES-256) (docs/xts-limits.md).
func (k *kernel) roundsWithUpdate(w width, states []VecPhysical) {
	k.roundKeys.MiddleRoundsThen(k.isa().At(w), k.rounds, &k.labels, states, k.dec, func(j int) {
		for q := 0; q < updatesPerSlot; q++ {
			i := (j-firstUpdateSlot)*updatesPerSlot + q
			if j >= firstUpdateSlot && i < len(k.tweaks) {
				k.store(k.tweaks[i], k.tweakSlot(i))
				k.advanceFolded(k.tweaks[i])
			}
		}
	})
}

// lastBatchLead is how many vectors of a sector's last batch run first
// (lastBatch); the rest start when the first of them is done.
const lastBatchLead = 6

// lastBatch ciphers the 512-bit path's last batch of a sector that ends
// with it: lastBatchLead vectors, then the others, whose tweak registers
// take a false dependency on the first vector's result (a VPTERNLOGQ that
// passes them through), so that they run after the leading ones. The call
// then ends with two AES chains instead of eight, which leave most AES issue
// slots free for the next call's tweak encryption, ten to fourteen dependent
// rounds that every block of its sector waits on. With eight chains at the
// end it ran, as far as the timings tell, only after them (older rounds
// issue first). Same-run ratios to ECB rose by 0.02 (AES-128) and 0.01
// (AES-256) at 4 KiB and by 0.015-0.03 at 512 bytes; leads of 4, 5 and 7,
// and tails chained in turn (6+1+1, 4+2+2), measured worse. A caller that
// waits for the end of one sector before it starts the next pays for the
// later start instead: 10-14 ns more per call (docs/xts-limits.md).
func (k *kernel) lastBatch() {
	w := k.w
	k.batchWith(w, k.nv, func(states []VecPhysical) {
		k.cipherWithTweaks(w, states[:lastBatchLead], k.tweaks[:lastBatchLead])
		for _, tv := range k.tweaks[lastBatchLead:] {
			VPTERNLOGQ(Imm(0xf0), states[0], states[0], tv) // tv unchanged, after states[0]
		}
		k.cipherWithTweaks(w, states[lastBatchLead:], k.tweaks[lastBatchLead:])
	})
}

// advance moves src and dst on by nBytes and counts its blocks off
// k.blocks.
func (k *kernel) advance(nBytes int) {
	ADDQ(U32(nBytes), k.src)
	ADDQ(U32(nBytes), k.dst)
	SUBQ(U32(nBytes/16), k.blocks)
}

// steal ciphers the last whole block (at src) and the partial block after
// it, of `partial` bytes, with ciphertext stealing. ta is the last whole
// block's tweak in the order of the sector; the partial block's is ta*x.
// Encryption ciphers the whole block under ta first, decryption under ta*x
// (IEEE 1619 5.3.2, 5.4.2); either way the first `partial` bytes of that
// result become the final partial block, and the partial input padded with
// the result's remaining bytes is ciphered under the other tweak into the
// whole block's place.
func (k *kernel) steal(ta VecPhysical) {
	tb := at(w128, k.tweaks[1])
	if k.foldLast {
		// Back to plain tweaks for the doubling, then both folded again.
		last := k.roundKeys.Slot(k.isa().At(w128), 14)
		k.xor(last, ta, ta)
		k.mulX(w128, ta, tb, X1, X2, 1)
		k.xor(last, ta, ta)
		k.xor(last, tb, tb)
	} else {
		k.mulX(w128, ta, tb, X1, X2, 1) // the states are free
	}
	first, second := ta, tb
	if k.dec {
		first, second = tb, ta
	}
	a, pad := X0, X3
	one := func(s, tweak VecPhysical) {
		k.cipherWithTweaks(w128, []VecPhysical{s}, []VecPhysical{tweak})
	}
	k.load(Mem{Base: k.src}, a)
	if k.evex() {
		// The partial block through a byte mask of its length: the
		// padded block is the result with the input merged over its
		// first bytes, and the result's first bytes are stored as they
		// stand. The load precedes the store for in-place calls.
		one(a, first)
		MOVL(U32(1), k.tmp.As32())
		SHLL(CL, k.tmp.As32()) // partial is CX
		DECL(k.tmp.As32())
		KMOVQ(k.tmp, K1)
		VMOVDQA64(a, pad)
		VMOVDQU8(Mem{Base: k.src, Disp: 16}, K1, pad)
		VMOVDQU8(a, K1, Mem{Base: k.dst, Disp: 16})
	} else {
		// Without byte masks the partial block is read and written as the
		// last 16 bytes of the sector, which overlap the whole block, and
		// moved into place with shuffles from a sliding window of
		// ctsPermute (PSHUFB zeroes a byte whose index has its top bit
		// set; BLENDVB picks by that bit).
		tail, mask, out := X1, X2, X4
		k.load(Mem{Base: k.src, Index: k.partial, Scale: 1}, tail) // src+partial+16 is the end
		one(a, first)
		// mask[i] = i+16-partial for i < partial, top bit set after:
		// shuffling the tail by it brings the partial input to the front.
		LEAQ(ctsPermute.Offset(32), k.tmp)
		SUBQ(k.partial, k.tmp)
		VMOVDQU(Mem{Base: k.tmp}, mask)
		VPSHUFB(mask, tail, tail)
		VPBLENDVB(mask, a, tail, pad)
		// Shifting the result up by 16-partial bytes puts its first
		// `partial` bytes at the end of a store that ends with the sector;
		// the bytes before them land in the whole block's place, which
		// the last store overwrites.
		LEAQ(ctsPermute, k.tmp)
		VMOVDQU(Mem{Base: k.tmp, Index: k.partial, Scale: 1}, mask)
		VPSHUFB(mask, a, out)
		k.store(out, Mem{Base: k.dst, Index: k.partial, Scale: 1})
	}
	one(pad, second)
	k.store(pad, Mem{Base: k.dst})
}

var widthSuffix = map[width]string{w128: "AESNI", w256: "VAES256", w512: "VAES512"}

// vectorsInFlight per width: the 512-bit path has 32 registers, enough for
// eight states, eight tweak vectors and all round keys. Eight are the
// least that keeps two AES units of latency 4 busy: the 128-bit path has
// eight states and eight tweak registers in its 16 and reads every key
// from memory. The 256-bit path stays at six (a broadcast key register
// and temporaries beside them): eight with its keys as 32-byte memory
// operands from a frame table measured 3% slower for AES-128 and 3% faster
// for AES-256, so it was not kept.
var vectorsInFlight = map[width]int{w128: 8, w256: 6, w512: 8}

func genKernel(w width, dec bool) {
	k := &kernel{w: w, nv: vectorsInFlight[w], dec: dec,
		keys: RAX, keys2: R10, rounds: RBX, dst: RDI, src: RSI, blocks: RDX, partial: RCX,
		k0: R8, tmp: R9, tweakLo: R11, tweakHi: R12}
	for i := 0; i < k.nv; i++ {
		k.states = append(k.states, w.Reg(i))
		k.tweaks = append(k.tweaks, w.Reg(k.nv+i))
	}
	switch {
	case k.evex():
		k.foldLast = true
		k.temps = []VecPhysical{Z31}
		k.tweakFrame = R13
		k.step = k.tweakSlot(8)
	case k.nv == 8:
		k.foldLast = true
		k.frame = R13
		k.step = k.frameSlot(15)
	default:
		k.keyReg = w.Reg(2 * k.nv)
		for i := 2*k.nv + 1; i < 16; i++ {
			k.temps = append(k.temps, w.Reg(i))
		}
	}

	// The 512-bit path keeps the round keys in Z16..Z30; 128-bit VEX code
	// reads them from the caller's table, the 256-bit path from the frame
	// table (see frame). On the 16-register paths the first key operand is
	// the frame's slot 0.
	k.roundKeys = vec.RoundKeys{Table: k.keys, First: k.k0, Resident: -1, Direct128: true}
	if k.evex() {
		k.roundKeys.Resident = 16
	} else if k.frame != nil {
		k.roundKeys.First = k.frame
	} else {
		k.roundKeys.Scratch = int(k.keyReg.PhysicalIndex())
	}

	dir, verb := "Encrypt", "encrypts"
	if dec {
		dir, verb = "Decrypt", "decrypts"
	}
	name := "xts" + dir + widthSuffix[w]
	TEXT(name, NOSPLIT, "func(keys, keys2 *[240]byte, rounds int, dst, src *byte, n int, tweakLo, tweakHi uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s %s one sector of n >= 16 bytes from src to dst in XTS mode with %d-bit vectors, "+
		"ciphertext stealing a final partial block. keys are the data key's %s round keys and keys2 the tweak key's "+
		"encryption keys (right-aligned tables); tweakLo and tweakHi are the tweak before its encryption, little endian.", name, verb, 8*int(w), map[bool]string{false: "encryption", true: "decryption"}[dec]))
	for _, p := range []struct {
		name string
		r    GPPhysical
	}{{"keys", k.keys}, {"keys2", k.keys2}, {"rounds", k.rounds}, {"dst", k.dst}, {"src", k.src},
		{"n", k.blocks}} {
		vec.LoadParam(p.name, p.r)
	}
	if !k.foldLast || k.evex() {
		vec.LoadParam("tweakLo", k.tweakLo)
		vec.LoadParam("tweakHi", k.tweakHi)
	}
	// Whole blocks, and the partial block's length. With a partial block,
	// the last whole block is left to the stealing.
	MOVQ(k.blocks, k.partial)
	SHRQ(Imm(4), k.blocks)
	ANDQ(Imm(15), k.partial)
	whole := k.label("whole")
	JZ(LabelRef(whole)) // flags of the AND: no partial block
	DECQ(k.blocks)
	Label(whole)
	// tmp = 16*(14-rounds), the offset of the first round key; k0 its address.
	MOVQ(U32(14), k.tmp)
	SUBQ(k.rounds, k.tmp)
	SHLQ(Imm(4), k.tmp)
	LEAQ(Mem{Base: k.keys, Index: k.tmp, Scale: 1}, k.k0)

	var frameBuf Mem
	if k.frame != nil {
		frameBuf = AllocLocal(16*int(w) + 64)
	}
	if k.tweakFrame != nil {
		buf := AllocLocal(9*int(w) + 64)
		LEAQ(buf, k.tweakFrame)
		ADDQ(U32(63), k.tweakFrame)
		ANDQ(I32(-64), k.tweakFrame)
	}
	k.encryptTweak(at(w128, k.tweaks[0]))
	if k.evex() {
		k.roundKeys.LoadResident(k.isa(), 1, 14)
	}
	L := w.Blocks()
	per := k.nv * L
	switch {
	case !k.foldLast:
		k.initTweaks()
	case k.frame != nil:
		k.fillFrame(frameBuf, per)
		k.initTweaks()
		for _, tv := range k.tweaks {
			k.xor(k.frameSlot(14), tv, tv)
		}
	default:
		if per != 32 {
			panic("xts: advanceFolded moves tweaks by 32 blocks")
		}
		MOVL(U32(0x1111), k.tmp.As32()) // dword 0 of each lane, for advanceFolded
		KMOVW(k.tmp.As32(), K2)
		k.initFoldedTweaks()
		// first ^ last key, and step = last*x^per ^ last: a folded
		// register u = t ^ last moves on as u*x^per ^ step. Off the
		// tweak's path: the keys were loaded beside its encryption.
		last := k.roundKeys.Slot(k.isa(), 14)
		first := k.roundKeys.FirstKey(k.isa()).(VecPhysical)
		k.xor(last, first, first)
		step := k.states[2]
		k.mulX(w, last.(VecPhysical), step, k.states[0], k.states[1], per)
		k.xor(last, step, step)
		k.store(step, k.step.(Mem))
	}

	// Main loop: nv vectors per batch, every tweak vector then moved on by
	// x^(nv*L) unless the sector ends there (the update costs issue slots
	// the next call's start could use).
	top, done, ret := k.label("loop"), k.label("loopdone"), k.label("ret")
	Label(top)
	CMPQ(k.blocks, U32(per))
	JB(LabelRef(done))
	switch {
	case k.evex():
		// A batch that more of the sector follows moves the tweak
		// registers on during its rounds (roundsWithUpdate) and takes the
		// last round's keys from the frame; the sector's last batch keeps
		// them in the registers (the store and reload would lengthen a
		// one-batch sector's path). Same-run ratios to ECB at 4 KiB rose
		// by 0.013 (AES-128) and 0.017 (AES-256) over the update after
		// the batch (docs/xts-limits.md). The batch starts on a 64-byte
		// boundary (PCALIGN also aligns the function so): placement moved
		// its figures by 1-3% between builds.
		pipe := k.label("pipe")
		JNE(LabelRef(pipe)) // flags of the CMPQ: more than a batch left
		TESTQ(k.partial, k.partial)
		JNZ(LabelRef(pipe))
		k.lastBatch()
		JMP(LabelRef(ret))
		// Padding after the JMP: never executed.
		vec.PCAlign(64)
		Label(pipe)
		k.lastFromFrame = true
		k.batch(w, k.tweaks)
		k.lastFromFrame = false
		k.advance(k.nv * int(w))
	case !k.foldLast:
		// The 256-bit path as measured best there: the update in line
		// (skipping it after the last batch bought nothing at six
		// vectors).
		k.batch(w, k.tweaks)
		for _, tv := range k.tweaks {
			k.mulX(w, tv, tv, k.temps[0], k.temps[1], per)
		}
		k.advance(k.nv * int(w))
	default:
		k.batch(w, k.tweaks)
		k.advance(k.nv * int(w))
		more := k.label("more")
		JNZ(LabelRef(more))
		TESTQ(k.partial, k.partial)
		JZ(LabelRef(ret))
		Label(more)
		for i, tv := range k.tweaks {
			// The states are free until the next batch's loads.
			k.mulXPlus(w, tv, tv, k.states[i], nil, per, k.step)
		}
	}
	JMP(LabelRef(top))
	Label(done)

	// Fewer than nv whole vectors remain: one at a time, under the tweak
	// vectors in order, shifting them down after each.
	top, done = k.label("single"), k.label("singledone")
	Label(top)
	CMPQ(k.blocks, U32(L))
	JB(LabelRef(done))
	k.batch(w, k.tweaks[:1])
	for i := 0; i+1 < k.nv; i++ {
		k.move(k.tweaks[i+1], k.tweaks[i])
	}
	k.advance(int(w))
	JMP(LabelRef(top))
	Label(done)

	// Fewer than L whole blocks remain: halves of a vector, the tweaks of
	// each taken from the bottom of tweaks[0], whose upper half then moves
	// down.
	cur := k.tweaks[0]
	for tw := w / 2; tw >= w128; tw /= 2 {
		skip := k.label("half")
		CMPQ(k.blocks, U32(tw.Blocks()))
		JB(LabelRef(skip))
		k.batch(tw, []VecPhysical{at(tw, cur)})
		if tw == w256 {
			VEXTRACTI64X4(Imm(1), at(w512, cur), at(w256, cur))
		} else {
			VEXTRACTI128(Imm(1), at(w256, cur), at(w128, cur))
		}
		k.advance(int(tw))
		Label(skip)
	}

	// The low lane of tweaks[0] now holds the next block's tweak.
	finish := k.label("finish")
	CMPQ(k.partial, Imm(0))
	JE(LabelRef(finish))
	k.steal(at(w128, cur))
	Label(finish)
	Label(ret)
	if w != w128 {
		VZEROUPPER()
	}
	RET()
}

var (
	polyConst, polyFold, laneShl, laneShr, ctsPermute Mem
)

func genConstants() {
	// x^7+x^2+x+1 in the low half of every 128-bit lane: x^128 reduced.
	polyConst = vec.Qwords("xtsPoly", 64, 0x87, 0)
	// x^7+x^2+x: the reduction of a part that a rotation has already
	// wrapped around to the bottom (the +1 of x^128's remainder).
	polyFold = vec.Qwords("xtsPolyFold", 64, 0x86, 0)
	// Lane l of the first tweak vector is T*x^l: shift counts per 64-bit
	// half for the product and for the carries out of each half.
	// The tables go on for the eight vectors of the 512-bit path's first
	// batch: qword i belongs to block i/2 of the sector.
	laneShl = GLOBL("xtsLaneShl", RODATA|NOPTR)
	for i := 0; i < 64; i++ {
		DATA(8*i, U64(uint64(i/2)))
	}
	laneShr = GLOBL("xtsLaneShr", RODATA|NOPTR)
	for i := 0; i < 64; i++ {
		DATA(8*i, U64(uint64(64-i/2)))
	}
	// ctsPermute: 16 bytes of 0x80, the indices 0..15, 16 bytes of 0x80;
	// a 16-byte window of it at offset o moves bytes by o-16 places.
	ctsPermute = GLOBL("xtsCTSPermute", RODATA|NOPTR)
	for i := 0; i < 48; i++ {
		b := byte(0x80)
		if i >= 16 && i < 32 {
			b = byte(i - 16)
		}
		DATA(i, U8(b))
	}
}

func main() {
	ConstraintExpr("amd64,!purego")
	genConstants()
	for _, w := range []width{w512, w256, w128} {
		genKernel(w, false)
		genKernel(w, true)
	}
	Generate()
}
