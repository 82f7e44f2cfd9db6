//go:build amd64 && !purego

package aes

// CTRFrom is CTR from the counter whose big-endian halves are hi and lo
// (modes.CTRFrom), for XORKeyStreamAt: the ctrFrom kernels build the
// counter in registers from the two words, so no counter block is stored
// for them to load first.
func (k *asmKernels) CTRFrom(dst, src []byte, hi, lo uint64) {
	if n := len(src) / BlockSize; n > 0 {
		ctrFrom(&k.enc, k.rounds, &dst[0], &src[0], n, k.prefetch, hi, lo, k.widthFor(n))
	}
}
