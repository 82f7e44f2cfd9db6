//go:build amd64 && !purego

package aes

// CTRFrom is CTR from counter *iv + blocks (modes.CTRFrom), for
// XORKeyStreamAt: the counter block lives on this stack, as the kernels do
// not keep the pointer, and the entry point ctrFrom forms it on the way to
// the kernel, which saves the call a separate addition would cost (a
// sixth of a 64-byte call).
func (k *asmKernels) CTRFrom(dst, src []byte, iv *[BlockSize]byte, blocks uint64) {
	if n := len(src) / BlockSize; n > 0 {
		var ctr [BlockSize]byte
		ctrFrom(&k.enc, k.rounds, &dst[0], &src[0], n, k.prefetch, &ctr, k.widthFor(n), iv, blocks)
	}
}
