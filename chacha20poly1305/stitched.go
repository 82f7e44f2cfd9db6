package chacha20poly1305

import (
	"unsafe"

	"github.com/simdcrypt/simdcrypt/chacha20"
	"github.com/simdcrypt/simdcrypt/internal/poly1305"
)

// The avx2-stitched path runs ChaCha20 and Poly1305 in one loop, 512 bytes
// per batch (sealAVX2, openAVX2; see _asm/chacha20poly1305/stitched.go):
// the Poly1305 steps are scalar and use the integer ports, which the
// vector ChaCha20 rounds leave idle. Whatever is left after the whole
// batches (and Seal's last batch, whose ciphertext the kernel writes last)
// goes through the MAC's scalar code and the chacha20 package.

// batch is the stitched kernels' unit.
const batch = 512

// stitchState is what the kernels read and update; its layout is fixed by
// the generator's offsets.
type stitchState struct {
	x [16]uint32 // ChaCha20 input state; x[12] counts blocks
	h [3]uint64  // Poly1305 accumulator
	r [3]uint64  // r0, r1, s1 = r1 + r1/4
}

func (st *stitchState) words() *[14]uint64 { return (*[14]uint64)(unsafe.Pointer(st)) }

// stitchSetup keys mac from block 0, absorbs the padded additional data
// and loads st for block 1. mac runs on the avx2 path: Seal's last batch
// (which no later batch can stitch) is long enough for its vector code.
func stitchSetup(st *stitchState, mac *poly1305.MAC, key *[KeySize]byte, nonce12 *[NonceSize]byte, ad []byte) {
	var mk [32]byte
	macKey(&mk, key, nonce12[:])
	mac.Init(&mk, poly1305.AVX2)
	clear(mk[:])
	mac.Write(ad)
	pad(mac, len(ad))
	var tail [16]byte
	tail[0] = 1 // the counter of block 1, then the nonce
	copy(tail[4:], nonce12[:])
	initState(&st.x, key, &tail)
	h, r := mac.Scalar()
	st.h, st.r = *h, *r
}

// stitchTail XORs the keystream from block st.x[12] on into dst.
func stitchTail(st *stitchState, dst, src []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	s, _ := chacha20.NewUnauthenticatedCipher(key[:], nonce12[:])
	s.SetCounter(st.x[12])
	s.XORKeyStream(dst, src)
}

// sealStitched is Seal for len(plaintext) >= batch.
func sealStitched(ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	var st stitchState
	var mac poly1305.MAC
	stitchSetup(&st, &mac, key, nonce12, ad)
	full := len(plaintext) &^ (batch - 1)
	sealAVX2(st.words(), ciphertext[:full], plaintext[:full])
	h, _ := mac.Scalar()
	*h = st.h
	mac.WriteBlocks(ciphertext[full-batch : full])
	if full < len(plaintext) {
		stitchTail(&st, ciphertext[full:], plaintext[full:], key, nonce12)
		mac.Write(ciphertext[full:])
	}
	clear(st.x[:])
	finish(&mac, len(ad), len(plaintext))
	mac.Sum(tag[:0])
}

// openStitched decrypts ciphertext (len >= batch) into out and reports
// whether tag is right; the caller clears out if not.
func openStitched(out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	var st stitchState
	var mac poly1305.MAC
	stitchSetup(&st, &mac, key, nonce12, ad)
	full := len(ciphertext) &^ (batch - 1)
	openAVX2(st.words(), out[:full], ciphertext[:full])
	h, _ := mac.Scalar()
	*h = st.h
	if full < len(ciphertext) {
		// Authenticated before the plaintext overwrites it (in place).
		mac.Write(ciphertext[full:])
		stitchTail(&st, out[full:], ciphertext[full:], key, nonce12)
	}
	clear(st.x[:])
	finish(&mac, len(ad), len(ciphertext))
	return mac.Verify(tag)
}
