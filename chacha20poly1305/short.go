package chacha20poly1305

import (
	"encoding/binary"
	"unsafe"

	"github.com/simdcrypt/simdcrypt/internal/tags"
)

// Messages up to fusedMax bytes with up to fusedAD bytes of additional
// data take one fused kernel call where the keystream kernel is AVX2's
// and the MAC the scalar MULX code (see _asm/chacha20poly1305/short.go
// and chooseFused): keystream block 1 in YMM rows (on Zen 5 after its
// first double rounds in general registers) while block 0 (the MAC key)
// and the MAC steps that need only the key run in general registers
// beside them, then the rest of the MAC and the tag, with no Go code
// between the parts.
const (
	fusedMax = 64
	fusedAD  = 16
)

// shortState is the fused kernels' argument; its layout is fixed by the
// generator's offsets (so* in _asm/chacha20poly1305/short.go).
type shortState struct {
	key   [KeySize]byte
	nonce [NonceSize]byte
	nct   uint32    // Seal: ciphertext blocks
	s     [2]uint64 // written by the kernel
	tag   [Overhead]byte
	n     uint64    // the message's length
	r     [3]uint64 // written by the kernel: r0, r1, s1
	hi    [6]uint64 // Open: the 2^128 bit of each MAC block
	mac   [6][16]byte
	msg   [fusedMax]byte
}

// The generator's offsets.
var _ = [1]struct{}{}[unsafe.Offsetof(shortState{}.r)-88+unsafe.Offsetof(shortState{}.mac)-160+unsafe.Offsetof(shortState{}.msg)-256+unsafe.Sizeof(shortState{})-320]

func (st *shortState) words() *[320]byte { return (*[320]byte)(unsafe.Pointer(st)) }

func (st *shortState) init(key *[KeySize]byte, nonce12 *[NonceSize]byte, msg []byte, adLen int) {
	st.key, st.nonce = *key, *nonce12
	st.n = uint64(len(msg))
	copy(st.msg[:], msg)
	binary.LittleEndian.PutUint64(st.mac[5][:8], uint64(adLen))
	binary.LittleEndian.PutUint64(st.mac[5][8:], uint64(len(msg)))
}

// fusedKernel names a version of the fused kernels (chosen by
// chooseFused): sealShort and openShort, VL their VPROLD versions, Lead
// those with the lead of block 1's rounds in general registers. They are
// called directly, not through function values, under which st would
// escape to the heap.
type fusedKernel uint8

const (
	fusedNone fusedKernel = iota
	fusedAVX2
	fusedVL
	fusedLead
	fusedLeadVL
)

// sealFused is Seal for a message of up to fusedMax bytes and up to
// fusedAD bytes of additional data, through k.
func sealFused(k fusedKernel, ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	var st shortState
	st.init(key, nonce12, plaintext, len(ad))
	// Block 0 of the MAC input: the additional data, or a zero block
	// without the 2^128 bit, which leaves the accumulator at zero.
	copy(st.mac[0][:], ad)
	if len(ad) > 0 {
		st.hi[0] = 1
	}
	st.nct = uint32((len(plaintext) + 15) / 16)
	k.call(true, st.words())
	copy(ciphertext, st.msg[:len(plaintext)])
	copyTag(tag, &st.tag)
	clear(st.words()[:])
}

// openFused is Open for a message of up to fusedMax bytes and up to
// fusedAD bytes of additional data, through k: it writes the plaintext to
// out only if tag is right.
func openFused(k fusedKernel, out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	var st shortState
	st.init(key, nonce12, ciphertext, len(ad))
	putOpenMAC(st.mac[:], st.hi[:], ad, ciphertext)
	k.call(false, st.words())
	ok := tags.Equal(&st.tag, tag)
	if ok {
		copy(out, st.msg[:len(ciphertext)])
	}
	clear(st.words()[:])
	return ok
}

// copyTag copies a kernel's tag, which it stores as two quadwords, to dst
// as two quadwords: a load of all 16 bytes at once waits until both
// stores have left (no store forwarding), about 4 ns of a 64-byte Seal on
// Zen 5.
func copyTag(dst, src *[Overhead]byte) {
	binary.LittleEndian.PutUint64(dst[:8], binary.LittleEndian.Uint64(src[:8]))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
}

// putOpenMAC lays out Open's MAC input for the one-call kernels so that it
// ends at the last block of mac, which holds the lengths: the additional
// data (one block at most), then the ciphertext, each block with its 2^128
// bit in hi, the lengths block's included. The zero blocks before the
// input, without that bit, leave the accumulator at zero, so a kernel may
// absorb more blocks than the input has. It returns the index of the
// ciphertext's first block.
func putOpenMAC(mac [][16]byte, hi []uint64, ad, ciphertext []byte) int {
	last := len(mac) - 1
	ct := last - (len(ciphertext)+15)/16
	copy(unsafe.Slice(&mac[ct][0], 16*(last-ct)), ciphertext)
	first := ct
	if len(ad) > 0 {
		first--
		copy(mac[first][:], ad)
	}
	for j := first; j <= last; j++ {
		hi[j] = 1
	}
	return ct
}
