package aria

// The key schedule runs three rounds of the cipher on key material. Through
// the S-box tables those rounds would index memory by key bytes, leaking
// them through the cache even on the accelerated paths, whose bulk kernels
// are constant-time. So key setup computes the S-boxes arithmetically
// instead, eight bytes at a time in a uint64, in the affine form the GFNI
// kernels use (sbox_test.go derives it):
//
//	SB1(x) = M1·x⁻¹ ⊕ 0x63    SB3(x) = (M1⁻¹·x ⊕ 0x05)⁻¹
//	SB2(x) = M2·x⁻¹ ⊕ 0xe2    SB4(x) = (M2⁻¹·x ⊕ 0x2c)⁻¹
//
// The inverse is x²⁵⁴ by a fixed chain of multiplications without branches.
// Both layers SL1 and SL2 apply SB1, SB2 to one pair of bytes in each
// 4-byte group and SB3, SB4 to the other pair, so one word carries the SB1
// and SB2 bytes (alternating lanes), another the SB3 and SB4 bytes.

// The matrices as GF2P8AFFINEQB operands: output bit i of a byte is the
// parity of the input AND byte 7-i of the operand.
const (
	matrixSB1    = 0xf1e3c78f1f3e7cf8 // M1, the AES affine map
	matrixSB2    = 0xeafcb7c3c273c66f // M2 = B·Q³ (Q squares)
	matrixSB1Inv = 0xa44992254a942952 // M1⁻¹
	matrixSB2Inv = 0x186450c737d6bdc9 // M2⁻¹
)

const (
	lanes       = 0x0101010101010101 // bit 0 of every byte
	evenLanes   = 0x0001000100010001 // bit 0 of bytes 0, 2, 4, 6
	oddLanes    = evenLanes << 8
	highBits    = 0x8080808080808080
	fwdConst    = evenLanes*0x63 | oddLanes*0xe2 // SB1 in even lanes, SB2 in odd
	preInvConst = evenLanes*0x05 | oddLanes*0x2c // SB3 in even lanes, SB4 in odd
)

// fwdRows and preInvRows hold row i of each lane's matrix in every byte:
// M1 or M1⁻¹ in even lanes, M2 or M2⁻¹ in odd ones.
var fwdRows, preInvRows = laneRows(matrixSB1, matrixSB2), laneRows(matrixSB1Inv, matrixSB2Inv)

func laneRows(even, odd uint64) (r [8]uint64) {
	for i := range r {
		r[i] = evenLanes*(even>>(8*(7-i))&0xff) | oddLanes*(odd>>(8*(7-i))&0xff)
	}
	return r
}

// mulX8 multiplies each byte by x modulo x⁸+x⁴+x³+x+1.
func mulX8(a uint64) uint64 { return (a&^highBits)<<1 ^ (a>>7&lanes)*0x1b }

// mul8x2 multiplies the eight bytes of a by those of b in GF(2⁸), and c by
// d: two independent chains interleaved, which the CPU overlaps.
func mul8x2(a, b, c, d uint64) (ab, cd uint64) {
	for range 8 {
		ab ^= a & ((b & lanes) * 0xff)
		cd ^= c & ((d & lanes) * 0xff)
		a, c = mulX8(a), mulX8(c)
		b >>= 1
		d >>= 1
	}
	return ab, cd
}

// inv8x2 inverts each byte of x and of y in GF(2⁸) (0 stays 0) as x²⁵⁴.
func inv8x2(x, y uint64) (uint64, uint64) {
	x2, y2 := mul8x2(x, x, y, y)
	x3, y3 := mul8x2(x2, x, y2, y)
	x6, y6 := mul8x2(x3, x3, y3, y3)
	x12, y12 := mul8x2(x6, x6, y6, y6)
	x15, y15 := mul8x2(x12, x3, y12, y3)
	x30, y30 := mul8x2(x15, x15, y15, y15)
	x60, y60 := mul8x2(x30, x30, y30, y30)
	x120, y120 := mul8x2(x60, x60, y60, y60)
	x240, y240 := mul8x2(x120, x120, y120, y120)
	x252, y252 := mul8x2(x240, x12, y240, y12)
	return mul8x2(x252, x2, y252, y2)
}

// affine8 applies each lane's matrix (rows as laneRows gives them).
func affine8(rows *[8]uint64, x uint64) uint64 {
	var y uint64
	for i, row := range rows {
		t := x & row
		t ^= t >> 4
		t ^= t >> 2
		t ^= t >> 1
		y |= (t & lanes) << i
	}
	return y
}

// substKey is substOdd (SL1) when odd, else substEven (SL2), without table
// look-ups. odd is public: it is the round number's parity.
func substKey(x block, odd bool) block {
	// SL1 puts SB1, SB2 at bytes 0, 1 of each group; SL2 at bytes 2, 3.
	fwd, rev := 0, 2
	if !odd {
		fwd, rev = 2, 0
	}
	var f, r uint64
	for g := range 4 {
		f |= uint64(x[4*g+fwd])<<(16*g) | uint64(x[4*g+fwd+1])<<(16*g+8)
		r |= uint64(x[4*g+rev])<<(16*g) | uint64(x[4*g+rev+1])<<(16*g+8)
	}
	f, r = inv8x2(f, affine8(&preInvRows, r)^preInvConst)
	f = affine8(&fwdRows, f) ^ fwdConst
	for g := range 4 {
		x[4*g+fwd], x[4*g+fwd+1] = byte(f>>(16*g)), byte(f>>(16*g+8))
		x[4*g+rev], x[4*g+rev+1] = byte(r>>(16*g)), byte(r>>(16*g+8))
	}
	return x
}
