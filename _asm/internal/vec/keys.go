package vec

import (
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// RoundKeys is a table of 16-byte round keys in memory and where a kernel
// keeps them while it runs. Slot j is at 16*j(Table). First points at the
// slot of the first round key: the same as Table for a table that starts
// with it, or Table + 16*(14-rounds) for AES's right-aligned tables, where
// the last key is always slot 14 and the middle rounds sit at fixed offsets
// whatever the key size.
//
// With Resident >= 0 the keys live in registers for the whole call: slot j
// in register Resident+j, the first key in Resident itself (LoadResident
// fills them). Otherwise every use broadcasts the key into register
// Scratch, a load-port operation beside the vector work that uses it.
//
// Direct128 lets VEX and EVEX code at 128 bits use a non-resident key
// straight from the table as a memory operand (they take unaligned ones),
// with no broadcast into Scratch.
type RoundKeys struct {
	Table, First GPPhysical
	Resident     int
	Scratch      int
	Direct128    bool
}

// direct reports whether isa reads non-resident keys from memory.
func (k RoundKeys) direct(isa ISA) bool {
	return k.Direct128 && isa.W == W128 && isa.Enc != SSE
}

// Mem returns slot j's place in memory.
func (k RoundKeys) Mem(j int) Mem { return Mem{Base: k.Table, Disp: 16 * j} }

// LoadResident broadcasts slots from..to into their registers at isa's
// width, then the first key into register Resident.
func (k RoundKeys) LoadResident(isa ISA, from, to int) {
	for j := from; j <= to; j++ {
		isa.BroadcastLane(k.Mem(j), isa.Reg(k.Resident+j))
	}
	isa.BroadcastLane(Mem{Base: k.First}, isa.Reg(k.Resident))
}

// Slot returns an operand holding slot j at isa's width: its resident
// register (narrower widths use its low lanes), or the scratch register
// after a broadcast.
func (k RoundKeys) Slot(isa ISA, j int) Op {
	if k.Resident >= 0 {
		return isa.Reg(k.Resident + j)
	}
	if k.direct(isa) {
		return k.Mem(j)
	}
	r := isa.Reg(k.Scratch)
	isa.BroadcastLane(k.Mem(j), r)
	return r
}

// FirstKey returns an operand holding the first round key at isa's width.
func (k RoundKeys) FirstKey(isa ISA) Op {
	if k.Resident >= 0 {
		return isa.Reg(k.Resident)
	}
	if k.direct(isa) {
		return Mem{Base: k.First}
	}
	r := isa.Reg(k.Scratch)
	isa.BroadcastLane(Mem{Base: k.First}, r)
	return r
}
