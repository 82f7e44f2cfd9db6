//go:build amd64 && !purego

package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestCBCEncryptMultiKernels checks that each hardware path reaches its
// own multi-buffer kernel (not the one-chain fallback) and says which ran.
func TestCBCEncryptMultiKernels(t *testing.T) {
	want := map[string]int{"aesni": 8, "vaes256": 16, "vaes512": 32}
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		b, _ := i.NewBlock(key128)
		k, _, _, ok := laneKernelFor(b)
		if i.Name == "generic" {
			if ok {
				t.Errorf("the portable path has a multi-buffer kernel")
			}
			return
		}
		base := i.Name
		if i.VariantOf != "" {
			base = i.VariantOf
		}
		if !ok || k.lanes() != want[base] {
			t.Errorf("%s: multi-buffer kernel with %d lanes (found %v), want %d", i.Name, k.lanes(), ok, want[base])
		}
	})
}

// TestCBCEncryptMultiNoAllocs checks that the lane table stays on the
// stack.
func TestCBCEncryptMultiNoAllocs(t *testing.T) {
	b, _ := NewCipher(key128)
	jobs := make([]CBCJob, 40)
	for i := range jobs {
		buf := make([]byte, 256)
		jobs[i] = CBCJob{Dst: buf, Src: buf}
	}
	if a := testing.AllocsPerRun(10, func() { CBCEncryptMulti(b, jobs) }); a != 0 {
		t.Errorf("CBCEncryptMulti: %v allocations per call", a)
	}
}
