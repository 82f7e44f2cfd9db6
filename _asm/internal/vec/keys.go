package vec

import (
	. "github.com/mmcloughlin/avo/build"
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
//
// EntryAlign, when not zero, pads the round walk's entry labels (see
// RoundSlotsAligned) to that many bytes.
type RoundKeys struct {
	Table, First GPPhysical
	Resident     int
	Scratch      int
	Direct128    bool
	EntryAlign   uint64
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

// AESRound applies one AES round with key to state s in place: AESENC, or
// AESDEC for the equivalent inverse cipher (decryption keys); legacy forms
// in SSE code.
func (i ISA) AESRound(dec bool, key, s Op) { i.aesRound(middleRound, dec, key, s) }

// AESLastRound is AESRound for the last round (AESENCLAST, AESDECLAST).
func (i ISA) AESLastRound(dec bool, key, s Op) { i.aesRound(lastRound, dec, key, s) }

// aesRoundForms spells one kind of AES round: the legacy SSE and the VEX or
// EVEX instruction, each for encryption and for decryption.
type aesRoundForms struct {
	enc, dec       func(key, s Op)
	vexEnc, vexDec func(key, s, dst Op)
}

var (
	middleRound = aesRoundForms{AESENC, AESDEC, VAESENC, VAESDEC}
	lastRound   = aesRoundForms{AESENCLAST, AESDECLAST, VAESENCLAST, VAESDECLAST}
)

func (i ISA) aesRound(f aesRoundForms, dec bool, key, s Op) {
	switch {
	case i.Enc == SSE && dec:
		f.dec(key, s)
	case i.Enc == SSE:
		f.enc(key, s)
	case dec:
		f.vexDec(key, s, s)
	default:
		f.vexEnc(key, s, s)
	}
}

// MiddleRounds applies slots 1..13 of a right-aligned AES table (10, 12 or
// 14 rounds, the value in register rounds) to the states, which already
// hold block ^ first key: one branch on the round count per batch skips the
// slots a shorter key leaves empty (AES-128 starts at slot 5, AES-192 at
// slot 3). Each slot is fetched once (Slot) and applied to every state
// before the next, so the states' rounds interleave. The last round, slot
// 14, is the caller's: it often folds data into the key first.
func (k RoundKeys) MiddleRounds(isa ISA, rounds GPPhysical, l *Labels, states []VecPhysical, dec bool) {
	k.MiddleRoundsThen(isa, rounds, l, states, dec, nil)
}

// MiddleRoundsThen is MiddleRounds with after, when not nil, called after
// each slot's rounds with the slot's index j (1..13), for work stitched
// between the rounds.
func (k RoundKeys) MiddleRoundsThen(isa ISA, rounds GPPhysical, l *Labels, states []VecPhysical, dec bool, after func(j int)) {
	l10, l12 := l.New("rounds10"), l.New("rounds12")
	RoundSlotsAligned(rounds, l10, l12, k.EntryAlign, func(j int) {
		key := k.Slot(isa, j)
		for _, s := range states {
			isa.AESRound(dec, key, s)
		}
		if after != nil {
			after(j)
		}
	})
}

// RoundSlots emits the walk over slots 1..13 of a right-aligned AES table
// that MiddleRounds describes: one branch on the round count in register
// rounds jumps to label l12 (placed before slot 3, AES-192) or l10 (before
// slot 5, AES-128), and slot(j) emits slot j's round.
func RoundSlots(rounds GPPhysical, l10, l12 string, slot func(j int)) {
	RoundSlotsAligned(rounds, l10, l12, 0, slot)
}

// RoundSlotsAligned is RoundSlots with each entry label padded to an
// align-byte boundary (none for 0). The labels are taken branches' targets
// for AES-128 and AES-192: a target whose first instruction (a 6-byte
// VAESENC) straddles a 64-byte fetch block costs a cycle each time, which
// is felt in the one- and two-vector batches of 64- and 128-byte calls.
// Aligning to 8 bytes keeps any instruction of up to 8 bytes inside one
// block, and the padding is at most one NOP on the fall-through path.
func RoundSlotsAligned(rounds GPPhysical, l10, l12 string, align uint64, slot func(j int)) {
	CMPQ(rounds, Imm(12))
	JB(LabelRef(l10))
	JE(LabelRef(l12))
	entry := map[int]string{3: l12, 5: l10}
	for j := 1; j <= 13; j++ {
		if l, ok := entry[j]; ok {
			if align > 0 {
				PCAlign(align)
			}
			Label(l)
		}
		slot(j)
	}
}
