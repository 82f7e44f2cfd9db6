package main

// The one-call kernels with the batch in row layout (rows, main.go)
// instead of eight word-sliced blocks: for messages of up to four blocks
// in YMM (two sets of two blocks, no transposition, half the word-sliced
// batch's vector work) and, where AVX-512 runs, up to eight blocks in ZMM
// (VPROLD rotations, two sets of four blocks side by side). Either way the
// general registers compute block 0, the MAC key and the MAC beside the
// rounds as in the word-sliced kernels (newOneSK): only the batch's
// emission differs.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/simdcrypt/simdcrypt/_asm/internal/vec"
)

// cpLanes is cp_lanectr: lane l's block number l in a row-d counter word,
// for l up to 27 (the rows of ten.go beside the first of three batches
// take 24 and 25; see main).
var cpLanes Mem

// oneBatch is the batch of a one-call kernel: blocks in row layout at
// isa's width, or (blocks 0) the eight word-sliced YMM blocks.
type oneBatch struct {
	isa    vec.ISA
	blocks int
	extra  int // word-sliced: two more blocks in YMM rows beside (ten.go)
}

var sliced = oneBatch{}

// n is the number of blocks the batch computes.
func (b oneBatch) n() int {
	if b.blocks == 0 {
		return 8 + b.extra
	}
	return b.blocks
}

func (b oneBatch) String() string {
	switch {
	case b.blocks == 0 && b.extra > 0:
		return "eight blocks word-sliced in YMM and two in YMM rows"
	case b.blocks == 0:
		return "eight blocks (word-sliced in YMM)"
	}
	return fmt.Sprintf("%d blocks (row layout in %d-bit registers)", b.blocks, b.isa.W.Bits())
}

// ticks is the number of vector instructions of the rows' twenty rounds
// through vop: per double round and set, two quarter rounds of twelve and
// two shuffles of three rows.
func (b oneBatch) ticks() int { return 10 * 30 * b.blocks / b.isa.W.Blocks() }

// rowsInPlace emits the row-layout batch over the openState's buffer from
// block st.x[12] on, with the queued scalar instructions spread through
// its rounds, and returns the buffer's address (with k.put, the pieces go
// there instead, and it returns nil).
func (k *sk) rowsInPlace() GPVirtual {
	b := k.rows
	r := loadRows(b.isa, b.blocks, Mem{Base: k.st}, Mem{Base: k.st, Disp: 16}, Mem{Base: k.st, Disp: 32}, cpLanes,
		func(newReg func() VecVirtual) VecVirtual {
			d := newReg()
			b.isa.BroadcastLane(Mem{Base: k.st, Disp: 48}, d)
			return d
		})
	if b.isa.W == vec.W256 {
		r.rot = k.rot
	}
	for range 10 {
		r.doubleRound(k.vop)
	}
	k.flush()
	r.addInput()
	if k.put != nil {
		k.putStart()
		r.toBlocks(func(v VecVirtual, off int) { k.put(v, off) })
		return nil
	}
	buf := GP64().(GPVirtual)
	LEAQ(Mem{Base: k.st, Disp: ooBuf}, buf)
	r.toBlocks(func(v VecVirtual, off int) {
		m := Mem{Base: buf, Disp: off}
		b.isa.Xor(m, v, v)
		if b.isa.W == vec.W256 {
			VMOVDQU(v, m)
		} else {
			VMOVDQU64(v, m)
		}
	})
	return buf
}

// oneRowsKernels emits the row-layout one-call kernels: in ZMM four
// blocks (messages up to 256 bytes) and eight (Seal up to 512), in YMM
// four (Open up to 256 bytes) and two (Open up to 128).
func oneRowsKernels(zmm, ymm vec.ISA) {
	for _, k := range []struct {
		suffix string
		b      oneBatch
		opens  []int // the openOne variants' step counts
	}{
		{"Z4", oneBatch{isa: zmm, blocks: 4}, []int{10, 18}},
		{"Z8", oneBatch{isa: zmm, blocks: 8}, nil}, // Open: openDirectAVX2
		{"Y4", oneBatch{isa: ymm, blocks: 4}, []int{18}},
		// Up to 128 bytes (blocks 1 and 2), one set of rows: measured on Zen
		// 5 under avx512=off, same build, ratio to x/crypto at 65 to 128
		// bytes, Open 1.02-1.08x (openOne10Y4) -> 1.08-1.15x.
		{"Y2", oneBatch{isa: ymm, blocks: 2}, []int{10}},
	} {
		for _, steps := range k.opens {
			stitchedOpenOne(fmt.Sprintf("openOne%d%s", steps, k.suffix), steps, k.b)
		}
		if k.b.isa.W == vec.W512 { // YMM: sealDirectY4 and sealDirectY2 instead
			stitchedSealOne("sealOne"+k.suffix, k.b)
		}
	}
}
