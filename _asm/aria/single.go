package main

import (
	"fmt"
	stdslices "slices"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// CBC encryption is a serial chain: each block needs the previous one's
// ciphertext, so the byte-sliced kernels cannot help, and its speed is the
// latency of one block's rounds. The one-block kernels below keep the block
// whole in one XMM register (GFNI and AES-NI forms); the same code, on
// several registers or wider ones at once, also runs the last few blocks
// of ECB and CTR requests, where a 16-block byte-sliced batch would mostly
// compute padding. The diffusion layer is gathers (PSHUFB) from the
// registers holding the S-box outputs and a tree of XORs whose order
// follows the instructions' latencies, with the next round key as one more
// leaf; nothing blends.

// diffusionMatrix returns A as row sets: a[i] has bit j when output byte i
// includes input byte j. It is built from the same W∘P∘W∘M factorisation
// the wide kernels run, applied to each unit vector.
func diffusionMatrix() [16]uint16 {
	apply := func(x [16]uint16) [16]uint16 {
		m := func(x [16]uint16, idx func(g, k int) int) [16]uint16 {
			var y [16]uint16
			for g := 0; g < 4; g++ {
				var s uint16
				for k := 0; k < 4; k++ {
					s ^= x[idx(g, k)]
				}
				for k := 0; k < 4; k++ {
					y[idx(g, k)] = s ^ x[idx(g, k)]
				}
			}
			return y
		}
		inWord := func(g, k int) int { return 4*g + k }
		acrossWords := func(g, k int) int { return g + 4*k }
		wordMix := func(x [16]uint16) [16]uint16 {
			y := m(x, acrossWords) // y(T_k) = XOR of the other three words
			// W's outputs: T0' = y3, T1' = y1, T2' = y2, T3' = y0.
			var z [16]uint16
			for j := 0; j < 4; j++ {
				z[j], z[4+j], z[8+j], z[12+j] = y[12+j], y[4+j], y[8+j], y[j]
			}
			return z
		}
		x = m(x, inWord)
		x = wordMix(x)
		perm := [16]int{0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12}
		var p [16]uint16
		for i, f := range perm {
			p[i] = x[f]
		}
		return wordMix(p)
	}
	var unit [16]uint16
	for j := range unit {
		unit[j] = 1 << j
	}
	return apply(unit)
}

// # The one-block AES-NI kernels
//
// ariaCBCEncrypt1AESNI and ariaECB1AESNI (ariaECB1VAES on YMM) keep the
// block in its natural order and never blend: per round
//
//	e  = AESENCLAST(x)       SB1 of every byte, the bytes in ShiftRows order
//	d3 = AESDECLAST(x)       SB3, in InvShiftRows order
//	b  = Llin(e)             SB2 = L∘SB1 without L's constant (nibble look-ups)
//	d4 = AESDECLAST(L⁻¹(x))  SB4 = SB3∘L⁻¹
//
// and the diffusion layer gathers each output's seven inputs from whichever
// of the four holds their S-box, with the row shifts folded into the PSHUFB
// masks, and XORs them with the next round key in a tree scheduled by
// latency. The paths through L⁻¹ or Llin are the long ones (an AES round
// and a nibble map); the other two are summed while those run. L's
// constant, left out of b, goes into the next round key through A
// (oneBlockKeysAESNI in aria).

// aesGathers returns, for round parity r, the PSHUFB masks gathering A's
// inputs of S-box type t from the register that holds them: in ShiftRows
// order for SB1 and SB2 (AESENCLAST), InvShiftRows order for SB3 and SB4.
// identity gathers each output's own byte instead (the last round).
func aesGathers(name string, r, t int, identity bool) []Mem {
	a := diffusionMatrix()
	sr := func(j int) int { return (j + 4*(j%4)) % 16 }
	isr := func(j int) int { return (j + 16 - 4*(j%4)) % 16 }
	var perms [][16]int
	for o := 0; o < 16; o++ {
		k := 0
		for j := 0; j < 16; j++ {
			in := a[o]>>j&1 == 1
			if identity {
				in = j == o
			}
			if !in || sboxType(r, j) != t {
				continue
			}
			at := isr(j) // e[i] = S(x[SR[i]]): source j sits at ISR[j]
			if t >= 2 {
				at = sr(j) // d[i] = S⁻¹(x[ISR[i]])
			}
			perms = setGather(perms, k, o, at)
			k++
		}
	}
	return gatherMasks(name, perms)
}

type oneAES struct {
	gathers [2][4][]Mem // [parity][S-box type]: diffusion
	final   [2][4][]Mem // the last round: each byte from its S-box's register
	linLo   Mem         // Llin's low-nibble table (L without its constant)
}

func oneAESConstants() oneAES {
	var c oneAES
	for r := 0; r < 2; r++ {
		for t := 0; t < 4; t++ {
			c.gathers[r][t] = aesGathers(fmt.Sprintf("ariaOneAES%d_%d_", r, t), r, t, false)
			c.final[r][t] = aesGathers(fmt.Sprintf("ariaOneAESLast%d_%d_", r, t), r, t, true)
		}
	}
	post, _ := affineTables()
	// The low table holds L's constant in every entry (it is L(0)); the
	// high table is linear already.
	c0 := byte(post[0][0])
	var lo [2]uint64
	for n := 0; n < 16; n++ {
		v := byte(post[0][n/8]>>(8*(n%8))) ^ c0
		lo[n/8] |= uint64(v) << (8 * (n % 8))
	}
	c.linLo = qwords("ariaSB2LinLo", lo[0], lo[1])
	return c
}

// oneBlockAESNI emits ariaCBCEncrypt1AESNI (chain, XMM) or ariaECB1AESNI
// (XMM) / ariaECB1VAES (YMM): blocks through the rounds above with round
// keys from oneBlockKeysAESNI; ECB runs ways registers of width w at a
// time (one block per 128-bit lane), their rounds one after the other so
// that out-of-order execution overlaps the chains, then one by one.
func oneBlockAESNI(c oneAES, chain bool, w vec.Width, ways int) {
	ecbName := "ariaECB1AESNI"
	if w == vec.W256 {
		ecbName = "ariaECB1VAES"
	}
	name, f := openOneBlock(ecbName, "ariaCBCEncrypt1AESNI", "oneBlockKeysAESNI", chain, ways*w.Blocks())
	var ivp reg.Register
	var prev reg.VecVirtual
	if chain {
		ivp = Load(Param("iv"), GP64())
		prev = XMM()
		VMOVDQU(Mem{Base: ivp}, prev)
	}
	label := func(s string) string { return name + "_" + s }
	f.prev, f.label = prev, label

	step := func(sw vec.Width, ways int, tag string) {
		isa := vec.ISA{W: sw, Enc: vec.VEX}
		x := make([]reg.VecVirtual, ways)
		for j := range x {
			x[j] = vregOf(sw)
		}
		nibble := func(src reg.VecVirtual, lo, hi Mem) reg.VecVirtual {
			t, u, d := vregOf(sw), vregOf(sw), vregOf(sw)
			emitNibbleAffine(src, d, t, u, lo, hi)
			return d
		}
		round := func(x reg.VecVirtual, par int, k Mem, last bool) {
			e, d3 := vregOf(sw), vregOf(sw)
			VAESENCLAST(constZero, x, e)
			VAESDECLAST(constZero, x, d3)
			d4 := nibble(x, constSB4PreLo, constSB4PreHi)
			VAESDECLAST(constZero, d4, d4)
			b := nibble(e, c.linLo, constSB2PostHi)
			kv := vregOf(sw)
			isa.BroadcastLane(k, kv)
			vs, ready := []reg.VecVirtual{kv}, []int{0}
			ms := c.gathers[par]
			if last {
				ms = c.final[par]
			}
			const latAES, latNibble = 4, 8
			for t, src := range []reg.VecVirtual{e, b, d3, d4} {
				at := latAES
				if t == 1 || t == 3 {
					at += latNibble
				}
				for _, m := range ms[t] {
					g := vregOf(sw)
					VPSHUFB(m, src, g)
					vs, ready = append(vs, g), append(ready, at+latShuffle)
				}
			}
			sum, _ := xorTree(isa, vs, ready, false)
			isa.Copy(sum, x)
		}
		f.loop(isa, tag, x, round,
			func(m Mem, kv, xj reg.VecVirtual) { isa.Xor(m, kv, xj) },
			func(xj reg.VecVirtual, m Mem) { isa.Store(xj, m) })
	}
	for _, st := range tailSteps(w, ways) {
		step(st.w, st.ways, st.tag)
	}
	if chain {
		VMOVDQU(prev, Mem{Base: ivp})
	}
	vec.ISA{W: w, Enc: vec.VEX}.Return()
}

// # The one-block GFNI kernels
//
// ariaCBCEncrypt1 and ariaECB1 keep the block in a layout of the XMM
// register that gives every 64-bit lane one matrix per S-box step: lane 0
// holds the bytes at even positions (those whose S-box is SB1 or SB3; which
// of the two alternates with the round), lane 1 the odd ones (SB2 or SB4).
// GF2P8AFFINE takes one matrix per 64-bit lane, so a round's substitution
// is three instructions and two dependent steps:
//
//	a = (A | M)·x⁻¹          SB1 in lane 0, SB2 in lane 1 (without constants)
//	p = (A⁻¹ | M⁻¹)·x, then p⁻¹  SB3 in lane 0, SB4 in lane 1
//
// in parallel, where each byte uses whichever of a and p its S-box type
// picks. The affine constants go into the round keys (oneBlockKeys in
// aria): SB3's and SB4's inner constants as the key byte XORed with
// SB3⁻¹(0) = 0x63 or SB4⁻¹(0) = 0xe2, SB1's and SB2's outer constants
// through the diffusion layer into the next round's key.
//
// The diffusion layer never blends a and p: each output byte is the XOR of
// seven input bytes, and the PSHUFBs that gather them read a for the bytes
// whose S-box was SB1 or SB2 and p for the others, the rest zeroed by the
// mask's top bit (as many gathers from each as the most inputs of one
// output it serves: a PSHUFB may repeat a byte). The round key and
// the gathers from a, which is ready three cycles before p, are summed
// first, so that the tree after p is as shallow as the number of its
// gathers allows: a round is two GF2P8AFFINE steps, one PSHUFB and two or
// three XORs on the critical path.

// oneLayout[l] is the natural byte position held at layout byte l.
var oneLayout = func() (l [16]int) {
	for i := 0; i < 8; i++ {
		l[i], l[8+i] = 2*i, 2*i+1
	}
	return l
}()

// sboxType is the S-box (0..3 for SB1..SB4) of natural byte i in round r
// (from 0): SL1 in even r, SL2 in odd r.
func sboxType(r, i int) int {
	t := i % 4
	if r%2 == 1 {
		t ^= 2
	}
	return t
}

// gathers returns the PSHUFB masks (in the layout) that collect, for every
// output byte of A, the input bytes of round parity r whose S-box type is in
// types: the XOR over the masks' shuffles of the source is that part of A.
func gathers(name string, r int, forward bool) []Mem {
	a := diffusionMatrix()
	var pos [16]int
	for l, i := range oneLayout {
		pos[i] = l
	}
	var adj [16]uint16
	for lo, o := range oneLayout {
		for j := 0; j < 16; j++ {
			if a[o]>>j&1 == 1 && (sboxType(r, j) < 2) == forward {
				adj[lo] |= 1 << pos[j]
			}
		}
	}
	// A PSHUFB may send one input to many outputs but gives each output
	// one input: gather k takes each output's k-th input in the set.
	var perms [][16]int
	for o := range adj {
		k := 0
		for i := 0; i < 16; i++ {
			if adj[o]>>i&1 == 0 {
				continue
			}
			perms = setGather(perms, k, o, i)
			k++
		}
	}
	return gatherMasks(name, perms)
}

// layoutMask returns the PSHUFB control putting byte perm[l] at l.
func layoutMask(name string, perm [16]int) Mem {
	var q [2]uint64
	for l, i := range perm {
		q[l/8] |= uint64(i) << (8 * (l % 8))
	}
	return qwords(name, q[0], q[1])
}

type oneGFNI struct {
	toLayout, fromLayout Mem
	post, pre            Mem
	fwd, inv             [2][]Mem // gathers by round parity
	inverse              [2]Mem   // VPBLENDVB: layout bytes whose S-box is SB3 or SB4
}

func oneGFNIConstants() oneGFNI {
	var c oneGFNI
	var from [16]int
	for l, i := range oneLayout {
		from[i] = l
	}
	c.toLayout = layoutMask("ariaOneToLayout", oneLayout)
	c.fromLayout = layoutMask("ariaOneFromLayout", from)
	c.post = qwords("ariaOnePost", matSB1, matSB2)
	c.pre = qwords("ariaOnePre", matSB1Inv, matSB2Inv)
	for r := 0; r < 2; r++ {
		c.fwd[r] = gathers(fmt.Sprintf("ariaOneFwd%d_", r), r, true)
		c.inv[r] = gathers(fmt.Sprintf("ariaOneInv%d_", r), r, false)
		var q [2]uint64
		for l, i := range oneLayout {
			if sboxType(r, i) >= 2 {
				q[l/8] |= 0xff << (8 * (l % 8))
			}
		}
		c.inverse[r] = qwords(fmt.Sprintf("ariaOneInverse%d", r), q[0], q[1])
	}
	return c
}

// Latencies in cycles measured on Zen 5 (and close on other cores) that
// the XOR trees of the one-block kernels schedule by.
const (
	latGF      = 3 // GF2P8AFFINEQB, GF2P8AFFINEINVQB
	latShuffle = 2 // PSHUFB
	latXor     = 2 // PXOR, VPTERNLOGQ
)

// xorTree XORs the values into one, always combining the ones that are
// ready first (ready holds each one's cycle estimate), two at a time with
// VPXOR or, with ternary, three with VPTERNLOGQ: with equal latencies,
// combining the earliest first gives the earliest sum. It returns the
// register of the sum (one of vs, reused) and its ready time.
func xorTree(isa vec.ISA, vs []reg.VecVirtual, ready []int, ternary bool) (reg.VecVirtual, int) {
	vs, ready = append([]reg.VecVirtual(nil), vs...), append([]int(nil), ready...)
	for len(vs) > 1 {
		n := 2
		if ternary && len(vs) >= 3 {
			n = 3
		}
		// The n earliest, in program order among equals.
		var pick []int
		for len(pick) < n {
			best := -1
			for k := range vs {
				if stdslices.Contains(pick, k) {
					continue
				}
				if best < 0 || ready[k] < ready[best] {
					best = k
				}
			}
			pick = append(pick, best)
		}
		stdslices.Sort(pick)
		d := pick[0]
		at := 0
		for _, k := range pick {
			at = max(at, ready[k])
		}
		if n == 3 {
			VPTERNLOGQ(U8(0x96), vs[pick[2]], vs[pick[1]], vs[d])
		} else {
			isa.Xor(vs[pick[1]], vs[d], vs[d])
		}
		ready[d] = at + latXor
		for _, k := range stdslices.Backward(pick[1:]) {
			vs = stdslices.Delete(vs, k, k+1)
			ready = stdslices.Delete(ready, k, k+1)
		}
	}
	return vs[0], ready[0]
}

// vregOf allocates a virtual register of width w.
func vregOf(w vec.Width) reg.VecVirtual {
	switch w {
	case vec.W256:
		return YMM()
	case vec.W512:
		return ZMM()
	}
	return XMM()
}

// asWidth returns the view of a virtual register at width w.
func asWidth(r reg.VecVirtual, w vec.Width) reg.VecVirtual {
	switch w {
	case vec.W128:
		return r.AsX().(reg.VecVirtual)
	case vec.W256:
		return r.AsY().(reg.VecVirtual)
	}
	return r.AsZ().(reg.VecVirtual)
}

type tailStep struct {
	w    vec.Width
	ways int
	tag  string
}

// tailSteps lists the loops of a one-block kernel: ways registers of width
// w, then half as many blocks at a time down to one, so that what is left
// after the main loop runs as few serial chains as possible.
func tailSteps(w vec.Width, ways int) []tailStep {
	var steps []tailStep
	for blocks := ways * w.Blocks(); blocks >= 1; blocks /= 2 {
		sw := min(w, vec.Width(16*blocks))
		steps = append(steps, tailStep{sw, blocks / sw.Blocks(), fmt.Sprintf("by%d", blocks)})
	}
	return steps
}

// oneBlockGFNI emits ariaCBCEncrypt1 (chain) or ariaECB1: blocks through
// the layout above, with round keys from oneBlockKeys. evex (the ...AVX512
// kernels) sums the diffusion's terms three at a time with VPTERNLOGQ: two
// levels after the last gathers instead of three.
//
// CBC encryption is one block at a time. ECB has independent blocks, and
// its main loop runs ways registers of width w (one block per 128-bit
// lane), their rounds emitted one after the other so that out-of-order
// execution overlaps the chains; what is left goes one block at a time.
func oneBlockGFNI(c oneGFNI, chain, evex bool, w vec.Width, ways int) {
	suffix := ""
	if evex {
		suffix = "AVX512"
	}
	name, f := openOneBlock("ariaECB1"+suffix, "ariaCBCEncrypt1"+suffix, "oneBlockKeys", chain, ways*w.Blocks())
	enc := vec.VEX
	if evex {
		enc = vec.EVEX
	}
	var ivp reg.Register
	var prev reg.VecVirtual // the previous ciphertext block, in the layout
	wide := vec.ISA{W: w, Enc: enc}
	postW, preW, identW := vregOf(w), vregOf(w), vregOf(w)
	wide.Load(c.post, postW)
	wide.Load(c.pre, preW)
	wide.Load(constIdent, identW)
	if chain {
		ivp = Load(Param("iv"), GP64())
		prev = XMM()
		VMOVDQU(Mem{Base: ivp}, prev)
		VPSHUFB(c.toLayout, prev, prev)
	}
	label := func(s string) string { return name + "_" + s }
	f.prev, f.label = prev, label

	// step emits a loop over ways registers of width sw while n covers them.
	step := func(sw vec.Width, ways int, tag string) {
		isa := vec.ISA{W: sw, Enc: enc}
		post, pre, ident := asWidth(postW, sw), asWidth(preW, sw), asWidth(identW, sw)
		x := make([]reg.VecVirtual, ways)
		for j := range x {
			x[j] = vregOf(sw)
		}
		// round r's substitution on x (keyed), then A and key k if more.
		round := func(x reg.VecVirtual, par int, k Mem, last bool) {
			a, p := vregOf(sw), vregOf(sw)
			VGF2P8AFFINEINVQB(U8(0), post, x, a)
			VGF2P8AFFINEQB(U8(0), pre, x, p)
			VGF2P8AFFINEINVQB(U8(0), ident, p, p)
			kv := vregOf(sw)
			isa.BroadcastLane(k, kv)
			if last {
				if evex {
					isa.Load(c.inverse[par], x)
					VPTERNLOGQ(U8(0xca), a, p, x) // x ? p : a
				} else {
					m := vregOf(sw)
					isa.Load(c.inverse[par], m)
					VPBLENDVB(m, p, a, x)
				}
				isa.Xor(kv, x, x)
				return
			}
			vs, ready := []reg.VecVirtual{kv}, []int{0}
			gather := func(ms []Mem, src reg.VecVirtual, at int) {
				for _, m := range ms {
					t := vregOf(sw)
					VPSHUFB(m, src, t)
					vs, ready = append(vs, t), append(ready, at+latShuffle)
				}
			}
			gather(c.fwd[par], a, latGF)
			gather(c.inv[par], p, 2*latGF)
			sum, _ := xorTree(isa, vs, ready, evex)
			isa.Copy(sum, x)
		}
		f.loop(isa, tag, x, round,
			func(m Mem, kv, xj reg.VecVirtual) {
				isa.Load(m, xj)
				VPSHUFB(c.toLayout, xj, xj)
				isa.Xor(kv, xj, xj)
			},
			func(xj reg.VecVirtual, m Mem) {
				VPSHUFB(c.fromLayout, xj, xj)
				isa.Store(xj, m)
			})
	}
	for _, st := range tailSteps(w, ways) {
		step(st.w, st.ways, st.tag)
	}
	if chain {
		VPSHUFB(c.fromLayout, prev, prev)
		VMOVDQU(prev, Mem{Base: ivp})
	}
	wide.Return()
}

// openOneBlock opens a one-block kernel, ecbName or, chaining, cbcName,
// whose round keys are laid out by keysFn and whose main loop takes
// perCall blocks, and loads its arguments into the frame it returns.
func openOneBlock(ecbName, cbcName, keysFn string, chain bool, perCall int) (string, oneBlockFrame) {
	name := ecbName
	sig := "func(rk *[272]byte, rounds int, dst, src []byte)"
	doc := []string{name + " encrypts or decrypts len(src)/16 blocks with round keys",
		fmt.Sprintf("rk laid out by %s, %d at a time, then one by one. len(dst) >= len(src).", keysFn, perCall)}
	if chain {
		name = cbcName
		sig = "func(rk *[272]byte, rounds int, dst, src []byte, iv *[16]byte)"
		doc = []string{name + " CBC-encrypts len(src)/16 blocks one at a time with",
			"round keys rk laid out by " + keysFn + ", chaining from *iv and",
			"leaving the last ciphertext block there. len(dst) >= len(src)."}
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(doc...)
	return name, oneBlockFrame{
		rk:     Load(Param("rk"), GP64()),
		rounds: Load(Param("rounds"), GP64()),
		dst:    Load(Param("dst").Base(), GP64()),
		src:    Load(Param("src").Base(), GP64()),
		n:      Load(Param("src").Len(), GP64()),
		chain:  chain,
	}
}

// oneBlockFrame is what the one-block kernels' loops share: the arguments,
// the CBC chaining value (prev, when chain) and the label namer.
type oneBlockFrame struct {
	rk, rounds, dst, src, n reg.Register
	chain                   bool
	prev                    reg.VecVirtual
	label                   func(string) string
}

// loop emits one step's loop over the registers x of isa's width while n
// covers them: load XORs in the first round key (load(m, kv, xj) puts the
// block at m, keyed with kv, in xj), chaining XORs prev in, the rounds
// run in pairs (rounds 0..rounds-3) by round and then rounds-2 and the
// last, and store writes each result (store(xj, m)) after chaining copies
// it to prev.
func (f oneBlockFrame) loop(isa vec.ISA, tag string, x []reg.VecVirtual,
	round func(x reg.VecVirtual, par int, k Mem, last bool),
	load func(m Mem, kv, xj reg.VecVirtual), store func(xj reg.VecVirtual, m Mem)) {
	sw, label := isa.W, f.label
	bytes := len(x) * sw.Bytes()
	Label(label(tag))
	CMPQ(f.n, U32(bytes))
	JB(LabelRef(label(tag + "_done")))
	kv := vregOf(sw)
	isa.BroadcastLane(Mem{Base: f.rk}, kv)
	for j, xj := range x {
		load(Mem{Base: f.src, Disp: j * sw.Bytes()}, kv, xj)
		if f.chain {
			isa.Xor(f.prev, xj, xj)
		}
	}
	k := GP64()
	MOVQ(f.rk, k)
	pairs := GP64()
	MOVQ(f.rounds, pairs)
	SUBQ(U8(2), pairs)
	SHRQ(U8(1), pairs)
	Label(label(tag + "_pair"))
	for par := 0; par < 2; par++ {
		for _, xj := range x {
			round(xj, par, Mem{Base: k, Disp: 16 * (1 + par)}, false)
		}
	}
	ADDQ(U8(32), k)
	DECQ(pairs)
	JNZ(LabelRef(label(tag + "_pair")))
	for par := 0; par < 2; par++ {
		for _, xj := range x {
			round(xj, par, Mem{Base: k, Disp: 16 * (1 + par)}, par == 1)
		}
	}
	for j, xj := range x {
		if f.chain {
			isa.Copy(xj, f.prev)
		}
		store(xj, Mem{Base: f.dst, Disp: j * sw.Bytes()})
	}
	ADDQ(U32(bytes), f.src)
	ADDQ(U32(bytes), f.dst)
	SUBQ(U32(bytes), f.n)
	JMP(LabelRef(label(tag)))
	Label(label(tag + "_done"))
}

// setGather makes input i output o's source in gather k (perms[k]), adding
// gathers, every output unset (-1), as k needs.
func setGather(perms [][16]int, k, o, i int) [][16]int {
	if k == len(perms) {
		perms = append(perms, [16]int{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1})
	}
	perms[k][o] = i
	return perms
}

// gatherMasks emits each gather's PSHUFB control as name0, name1, ...:
// byte o takes input perms[k][o], or zero (0x80) where unset.
func gatherMasks(name string, perms [][16]int) []Mem {
	var ms []Mem
	for k, p := range perms {
		var q [2]uint64
		for o, i := range p {
			b := uint64(0x80)
			if i >= 0 {
				b = uint64(i)
			}
			q[o/8] |= b << (8 * (o % 8))
		}
		ms = append(ms, qwords(fmt.Sprintf("%s%d", name, k), q[0], q[1]))
	}
	return ms
}
