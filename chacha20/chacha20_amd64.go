//go:build amd64 && !purego

package chacha20

import "github.com/simdcrypt/simdcrypt/internal/cpu"

// Registered best first: that order is dispatch preference.
func init() {
	register(pathAVX512, []cpu.Feature{cpu.AVX512}, avoidAVX512,
		"16 blocks per batch in ZMM with VPROLD; 8 (YMM) and 4 (XMM) for the rest, so short inputs pay for 4 blocks, not 16")
	register(pathAVX2, []cpu.Feature{cpu.AVX2}, nil,
		"8 blocks per batch in YMM, then 4 in XMM; PSHUFB rotations by 8 and 16")
	register(pathSSSE3, []cpu.Feature{cpu.SSSE3}, nil,
		"4 blocks per batch in XMM; PSHUFB rotations by 8 and 16")
}

// avoidAVX512 passes over 512-bit registers where using them lowers the
// clock for the whole core (Skylake-SP), which costs the surrounding code
// more than ChaCha20 gains.
func avoidAVX512() string {
	if cpu.WideVectorsDownclock() {
		return "512-bit registers lower this CPU's clock"
	}
	return ""
}

// xorBlocks runs the cipher's pinned kernel over whole granules (multiples
// of 4 blocks for the vector paths, of 1 block for portable Go).
func (c *Cipher) xorBlocks(dst, src []byte) {
	switch c.path {
	case pathAVX512:
		xorBlocksAVX512(&c.state, dst, src)
	case pathAVX2:
		xorBlocksAVX2(&c.state, dst, src)
	case pathSSSE3:
		xorBlocksSSSE3(&c.state, dst, src)
	default:
		xorBlocksGeneric(&c.state, dst, src)
	}
}
