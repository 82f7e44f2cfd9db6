//go:build amd64 && !purego

package aes

import "github.com/simdcrypt/simdcrypt/internal/modes"

// CTRFrom is CTR from counter *iv + blocks (modes.CTRFrom), for
// XORKeyStreamAt: the counter block lives on this stack, as the kernels do
// not keep the pointer.
func (k *asmKernels) CTRFrom(dst, src []byte, iv *[BlockSize]byte, blocks uint64) {
	var ctr [BlockSize]byte
	modes.AddCounter(&ctr, iv, blocks)
	k.CTR(dst, src, &ctr)
}
