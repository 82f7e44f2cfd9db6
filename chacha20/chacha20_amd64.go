//go:build amd64 && !purego

package chacha20

import "github.com/simdcrypt/simdcrypt/internal/cpu"

// Registered best first: that order is dispatch preference.
func init() {
	register(pathAVX512, []cpu.Feature{cpu.AVX512}, avoidAVX512,
		"32 blocks per batch, two interleaved sets of 16 in ZMM, VPROLD rotations; then 16; under 16 blocks, row layout (4 blocks per ZMM), so short inputs pay one block's latency")
	register(pathAVX512VL, []cpu.Feature{cpu.AVX512}, nil,
		"16 blocks per batch, two interleaved sets of 8 in YMM with AVX-512VL (VPROLD, 32 registers), no 512-bit registers; under 8 blocks, the avx2 row layout")
	register(pathAVX2, []cpu.Feature{cpu.AVX2}, nil,
		"8 blocks per batch in YMM, PSHUFB rotations by 8 and 16; under 8 blocks, row layout (2 blocks per YMM)")
	register(pathSSSE3, []cpu.Feature{cpu.SSSE3}, nil,
		"4 blocks per batch in XMM, PSHUFB rotations by 8 and 16; under 4 blocks, row layout (1 block per XMM)")
}

// avoidAVX512 passes over 512-bit registers where using them lowers the
// clock for the whole core (Skylake-SP, the Ice Lake generation), which
// costs the surrounding code more than ChaCha20 gains; avx512vl then keeps
// AVX-512's rotations and 32 registers on 256-bit vectors.
func avoidAVX512() string {
	if cpu.WideVectorsDownclock() {
		return "512-bit registers lower this CPU's clock"
	}
	return ""
}

// xorBlocks runs the cipher's pinned kernel over whole blocks.
func (c *Cipher) xorBlocks(dst, src []byte) {
	switch c.path {
	case pathAVX512:
		xorBlocksAVX512(&c.state, dst, src)
	case pathAVX512VL:
		xorBlocksAVX512VL(&c.state, dst, src)
	case pathAVX2:
		xorBlocksAVX2(&c.state, dst, src)
	case pathSSSE3:
		xorBlocksSSSE3(&c.state, dst, src)
	default:
		xorBlocksGeneric(&c.state, dst, src)
	}
}
