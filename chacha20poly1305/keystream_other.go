//go:build !amd64 || purego

package chacha20poly1305

// haveKeystream4 is false: the kernel exists only on amd64.
func haveKeystream4() bool { return false }

// haveKeystream4AVX2 is false: the kernel exists only on amd64.
func haveKeystream4AVX2() bool { return false }

func keystream4AVX2(ks *[256]byte, key *[32]byte, nonce *[12]byte) {
	panic("chacha20poly1305: keystream4AVX2 without assembly")
}

func keystream2AVX2(ks *[256]byte, key *[32]byte, nonce *[12]byte) {
	panic("chacha20poly1305: keystream2AVX2 without assembly")
}

func keystream4(ks *[256]byte, key *[32]byte, nonce *[12]byte) {
	panic("chacha20poly1305: keystream4 without assembly")
}

// macKey writes the first 32 bytes of block 0 for key and a 12-byte nonce
// (see block0.go).
func macKey(out *[32]byte, key *[KeySize]byte, nonce []byte) { macKeyGeneric(out, key, nonce) }

// stitchedBuilt: the stitched kernels exist only on amd64.
const stitchedBuilt = false

func sealAVX2(st *[14]uint64, dst, src []byte) {
	panic("chacha20poly1305: sealAVX2 without assembly")
}

func sealTailAVX2(st *[14]uint64, dst, src []byte, mac *[512]byte) {
	panic("chacha20poly1305: sealTailAVX2 without assembly")
}

func macBatchAVX2(st *[14]uint64, msg *[512]byte) {
	panic("chacha20poly1305: macBatchAVX2 without assembly")
}

func sealFirstAVX2(st *[14]uint64, dst, src []byte, key *[32]byte) {
	panic("chacha20poly1305: sealFirstAVX2 without assembly")
}

func sealNextAVX2(st *[14]uint64, dst, src []byte) {
	panic("chacha20poly1305: sealNextAVX2 without assembly")
}

func openAVX2(st *[14]uint64, dst, src []byte) {
	panic("chacha20poly1305: openAVX2 without assembly")
}

func openWideAVX2(st *[14]uint64, dst, src []byte) {
	panic("chacha20poly1305: openWideAVX2 without assembly")
}

func sealWideAVX2(st *[14]uint64, dst, src []byte) {
	panic("chacha20poly1305: sealWideAVX2 without assembly")
}

func sealLastAVX2(st *[14]uint64, dst, src []byte) {
	panic("chacha20poly1305: sealLastAVX2 without assembly")
}

func midKeystream(ks *[64 * 20]byte, n int, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	panic("chacha20poly1305: midKeystream without assembly")
}

// chooseFused: the fused kernels exist only on amd64.
func chooseFused() fusedKernel { return fusedNone }

func (k fusedKernel) call(seal bool, st *[320]byte) {
	panic("chacha20poly1305: fused kernel without assembly")
}

// oneLayouts: no one-call kernels without assembly.
func oneLayouts(zmm bool) []oneLayout { return nil }

func openFourAVX2(st *[3032]byte) { panic("chacha20poly1305: openFourAVX2 without assembly") }

func openEighteenAVX2(st *[3032]byte) { panic("chacha20poly1305: openEighteenAVX2 without assembly") }

func openThreeAVX2(st *[3032]byte) { panic("chacha20poly1305: openThreeAVX2 without assembly") }

func openOneCall(l oneLayout, steps int, st *[1496]byte) {
	panic("chacha20poly1305: openOneCall without assembly")
}

func sealOneCall(l oneLayout, st *[1496]byte) {
	panic("chacha20poly1305: sealOneCall without assembly")
}

func sealDirectCall(l oneLayout, st *directState, dst, src []byte) {
	panic("chacha20poly1305: sealDirectCall without assembly")
}

func openDirectCall(st *directState, dst, src []byte) {
	panic("chacha20poly1305: openDirectCall without assembly")
}

func xorAt(dst, src []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte, ctr uint32) {
	panic("chacha20poly1305: xorAt without assembly")
}

func midXOR(mk *[32]byte, dst, src []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	panic("chacha20poly1305: midXOR without assembly")
}
