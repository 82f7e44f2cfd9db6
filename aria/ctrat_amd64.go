//go:build amd64 && !purego

package aria

// CTRFrom is CTR from the counter whose big-endian halves are hi and lo
// (modes.CTRFrom), for XORKeyStreamAt. The kernels take the counter as
// words too: no counter block in memory at all.
func (k *slicedKernels) CTRFrom(dst, src []byte, hi, lo uint64) {
	k.ctr(dst, src, hi, lo)
}
