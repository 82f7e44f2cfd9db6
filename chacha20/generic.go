package chacha20

import (
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/chachacore"
)

// xorBlocksGeneric is the portable kernel: it XORs len(src)/64 whole blocks
// of keystream into dst and advances state[12] by as many.
func xorBlocksGeneric(state *[16]uint32, dst, src []byte) {
	s := *state
	// Columns 1..3 of the first round do not involve the counter: compute
	// them once per call, not once per block.
	p1, p5, p9, p13 := chachacore.QuarterRound(s[1], s[5], s[9], s[13])
	p2, p6, p10, p14 := chachacore.QuarterRound(s[2], s[6], s[10], s[14])
	p3, p7, p11, p15 := chachacore.QuarterRound(s[3], s[7], s[11], s[15])
	for len(src) >= blockSize && len(dst) >= blockSize {
		x0, x4, x8, x12 := chachacore.QuarterRound(s[0], s[4], s[8], s[12])
		x0, x5, x10, x15 := chachacore.QuarterRound(x0, p5, p10, p15)
		x1, x6, x11, x12 := chachacore.QuarterRound(p1, p6, p11, x12)
		x2, x7, x8, x13 := chachacore.QuarterRound(p2, p7, x8, p13)
		x3, x4, x9, x14 := chachacore.QuarterRound(p3, x4, p9, p14)
		for range 9 {
			x0, x4, x8, x12 = chachacore.QuarterRound(x0, x4, x8, x12)
			x1, x5, x9, x13 = chachacore.QuarterRound(x1, x5, x9, x13)
			x2, x6, x10, x14 = chachacore.QuarterRound(x2, x6, x10, x14)
			x3, x7, x11, x15 = chachacore.QuarterRound(x3, x7, x11, x15)

			x0, x5, x10, x15 = chachacore.QuarterRound(x0, x5, x10, x15)
			x1, x6, x11, x12 = chachacore.QuarterRound(x1, x6, x11, x12)
			x2, x7, x8, x13 = chachacore.QuarterRound(x2, x7, x8, x13)
			x3, x4, x9, x14 = chachacore.QuarterRound(x3, x4, x9, x14)
		}
		d, in := dst[:blockSize:blockSize], src[:blockSize:blockSize]
		for i, x := range [16]uint32{x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15} {
			k := x + s[i]
			binary.LittleEndian.PutUint32(d[4*i:], binary.LittleEndian.Uint32(in[4*i:])^k)
		}
		s[12]++
		dst, src = dst[blockSize:], src[blockSize:]
	}
	state[12] = s[12]
}
