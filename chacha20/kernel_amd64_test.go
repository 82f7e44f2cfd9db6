//go:build amd64 && !purego

package chacha20

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestKernels calls each assembly kernel directly for every block count up
// to 40 (every batch width, the row-layout short paths and their partial
// last batch) and longer counts mixing the widest batches with the
// narrower ones, with a counter that wraps inside the call, and checks the
// output against the portable kernel, the counter advance, and that nothing
// past dst changed.
func TestKernels(t *testing.T) {
	kernels := []struct {
		name    string
		feature cpu.Feature
		f       func(*[16]uint32, []byte, []byte)
	}{
		{"ssse3", cpu.SSSE3, xorBlocksSSSE3},
		{"avx2", cpu.AVX2, xorBlocksAVX2},
		{"avx512", cpu.AVX512, xorBlocksAVX512},
		{"avx512vl", cpu.AVX512, xorBlocksAVX512VL},
	}
	var counts []int
	for n := 1; n <= 40; n++ {
		counts = append(counts, n)
	}
	counts = append(counts, 47, 48, 49, 63, 64, 65, 80, 97, 111)
	r := rand.New(rand.NewPCG(5, 5))
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			if !cpu.Has(k.feature) {
				t.Skipf("%s kernel not run: CPU lacks or mask hides %v", k.name, k.feature)
			}
			for _, blocks := range counts {
				for _, start := range []uint32{0, 1<<32 - 5} {
					var st [16]uint32
					for i := range st {
						st[i] = r.Uint32()
					}
					st[12] = start
					ref := st
					src := testkit.RandBytes(r, 64*blocks)
					want := make([]byte, len(src))
					xorBlocksGeneric(&ref, want, src)
					dst := bytes.Repeat([]byte{0xa5}, len(src)+64)
					k.f(&st, dst[:len(src)], src)
					if !bytes.Equal(dst[:len(src)], want) {
						t.Fatalf("%d blocks from counter %#x: output differs from generic", blocks, start)
					}
					if st != ref {
						t.Fatalf("%d blocks from counter %#x: state %v, want %v", blocks, start, st, ref)
					}
					if !bytes.Equal(dst[len(src):], bytes.Repeat([]byte{0xa5}, 64)) {
						t.Fatalf("%d blocks: wrote past dst", blocks)
					}
				}
			}
		})
	}
}
