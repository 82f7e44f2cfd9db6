//go:build amd64 && !purego

package chacha20

import (
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// asmPaths lists the assembly paths best first: that order is dispatch
// preference. avx512 is Wide: where the CPU prefers 256-bit vectors
// (512-bit registers lower the whole core's clock on Skylake-SP and the Ice
// Lake generation, costing the surrounding code more than ChaCha20 gains),
// avx512vl keeps AVX-512's rotations and 32 registers on 256-bit vectors.
func asmPaths() []catalog.Entry[path] {
	return []catalog.Entry[path]{
		streamPath(pathAVX512, []cpu.Feature{cpu.AVX512}, true,
			"32 blocks per batch, two interleaved sets of 16 in ZMM, VPROLD rotations; then 16; under 16 blocks, row layout (4 blocks per ZMM), so short inputs pay one block's latency"),
		streamPath(pathAVX512VL, []cpu.Feature{cpu.AVX512}, false,
			"16 blocks per batch, two interleaved sets of 8 in YMM with AVX-512VL (VPROLD, 32 registers), no 512-bit registers; under 8 blocks, the avx2 row layout"),
		streamPath(pathAVX2, []cpu.Feature{cpu.AVX2}, false,
			"16 blocks per batch, two interleaved sets of 8 in YMM with the state spilled to the frame, PSHUFB rotations by 8 and 16; then 8; under 8 blocks, row layout (2 blocks per YMM)"),
		streamPath(pathSSSE3, []cpu.Feature{cpu.SSSE3}, false,
			"8 blocks per batch, two interleaved sets of 4 in XMM with the state spilled to the frame, PSHUFB rotations by 8 and 16; then 4; under 4 blocks, row layout (1 block per XMM)"),
	}
}

// xorBlocks runs the cipher's pinned kernel over whole blocks, through the
// switch _asm/callswitch generates into kernels_amd64.go. A single block
// runs the portable kernel instead: one block in vector registers is a
// chain of dependent vector instructions, two cycles each on Zen 5, where
// the scalar code's are one (about 100 ns against 160 to 190 for a 64-byte
// call there; see docs/chacha20-limits.md).
func (c *Cipher) xorBlocks(dst, src []byte) {
	if len(src) == blockSize {
		xorBlocksGeneric(&c.state, dst, src)
		return
	}
	c.path.xorBlocks(&c.state, dst, src)
}
