// Package chacha20 implements the ChaCha20 and XChaCha20 stream ciphers of
// RFC 8439 and draft-irtf-cfrg-xchacha, with the API of
// golang.org/x/crypto/chacha20 so that switching is an import-path change.
//
// Code paths, one chosen when a cipher is created:
//
//	avx512    32 blocks per batch: two interleaved sets of 16 in ZMM (VPROLD)
//	avx512vl  16 blocks per batch: two sets of 8 in YMM (AVX-512VL: VPROLD,
//	          32 registers), for CPUs that prefer 256-bit vectors
//	avx2      16 blocks per batch: two interleaved sets of 8 in YMM, the
//	          state spilled to the frame (16 registers); then 8
//	ssse3     8 blocks per batch: two interleaved sets of 4 in XMM, the
//	          same way; then 4
//	stdlib    off amd64, where golang.org/x/crypto/chacha20 has assembly
//	          (arm64, ppc64, ppc64le, s390x, loong64): delegates to it
//	generic   portable Go, one block at a time
//
// Dispatch: the paths are listed best first in one table (paths, built from
// this file and chacha20_amd64.go). A new cipher takes the first path whose
// CPU features are usable, passing over avx512 where the CPU prefers 256-bit
// vectors (internal/cpu's per-microarchitecture table). The choice is made
// once and made again only when the feature mask changes, so creating a
// cipher per message takes no lock and looks nothing up. SIMDCRYPT_CPU and
// the dispatch package mask features (avx512=off, avx2=off, ssse3=off,
// prefer256=off); dispatch.Chosen("chacha20") tells which path runs.
//
// Below a full batch the vector paths switch to row layout (one block per
// 128-bit lane), so short inputs pay about one block's latency, not a batch.
//
// This file owns the API and every check (sizes, overlap, counter overflow,
// leftover keystream). Each code path supplies only a kernel that XORs whole
// 64-byte blocks and advances the block counter; see xorBlocks.
package chacha20

import (
	"crypto/cipher"
	"encoding/binary"
	"errors"

	"github.com/simdcrypt/simdcrypt/internal/alias"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/chachacore"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

const (
	// KeySize is the size of the key, in bytes.
	KeySize = 32

	// NonceSize is the size of the RFC 8439 nonce, in bytes. Too short to be
	// chosen at random when one key encrypts more than about 2^32 messages.
	NonceSize = 12

	// NonceSizeX is the size of the XChaCha20 nonce, in bytes.
	NonceSizeX = 24
)

const blockSize = 64

// The constant first row of the state: "expand 32-byte k".
const (
	sigma0 uint32 = 0x61707865
	sigma1 uint32 = 0x3320646e
	sigma2 uint32 = 0x79622d32
	sigma3 uint32 = 0x6b206574
)

// Cipher is a stateful instance of ChaCha20 or XChaCha20 for one key and
// nonce. It implements cipher.Stream.
type Cipher struct {
	// state is the block function's input: 4 constant words, 8 key words,
	// the block counter (word 12) and 3 nonce words. Kernels read it and
	// advance word 12 by the number of blocks they process.
	state [16]uint32

	// buf[pos:pos+len] is keystream left over from the last, partial block
	// of the previous call; len < blockSize always, so (as in x/crypto on
	// amd64) the counter in state[12] already counts that block. It holds
	// that one block: the tail of a call is worked in a buffer of the
	// call's own (see xorFrom), since a Cipher, made per message under
	// x/crypto's API (the nonce comes with the key), costs in proportion to
	// its size: on Zen 5 (a KVM guest) Go 1.26 spent about 0.7 ns per byte
	// of a short-lived allocation.
	buf [blockSize]byte
	pos int
	len int

	// overflow is set once the block with counter 2^32-1 was generated:
	// further keystream beyond buf's leftover would repeat the counter.
	overflow bool

	// path is the code path the cipher was pinned to at creation.
	path path
}

var _ cipher.Stream = (*Cipher)(nil)

// NewUnauthenticatedCipher returns a ChaCha20 cipher for a 32-byte key and a
// 12-byte nonce, or an XChaCha20 cipher for a 24-byte nonce. It returns an
// error for any other length. The fastest code path this CPU offers (under
// the SIMDCRYPT_CPU mask) is chosen now.
//
// ChaCha20 is unauthenticated: attackers can flip plaintext bits unseen.
// Prefer an AEAD such as ChaCha20-Poly1305 unless building one.
func NewUnauthenticatedCipher(key, nonce []byte) (*Cipher, error) {
	// Small enough to inline, so a caller that keeps the cipher local (as
	// an AEAD does per message) keeps it off the heap.
	c := &Cipher{}
	return c.init(key, nonce, pathChosen)
}

// newCipher returns a cipher pinned to one code path, for the catalogue.
func newCipher(key, nonce []byte, p path) (*Cipher, error) {
	c := &Cipher{}
	return c.init(key, nonce, p)
}

// init sets c up and returns it, or nil and an error.
func (c *Cipher) init(key, nonce []byte, p path) (*Cipher, error) {
	if len(key) != KeySize {
		return nil, errors.New("chacha20: wrong key size")
	}
	var subkey [KeySize]byte
	switch len(nonce) {
	case NonceSize:
	case NonceSizeX:
		// XChaCha20: HChaCha20 mixes the first 16 nonce bytes into a
		// subkey; the last 8 become the low 8 bytes of an IETF nonce whose
		// first 4 bytes are zero (draft-irtf-cfrg-xchacha, section 2.3).
		chachacore.HChaCha20(&subkey, (*[KeySize]byte)(key), (*[16]byte)(nonce[:16]))
		key = subkey[:]
		var n [NonceSize]byte
		copy(n[4:], nonce[16:24])
		nonce = n[:]
	default:
		return nil, errors.New("chacha20: wrong nonce size")
	}
	c.state = [16]uint32{sigma0, sigma1, sigma2, sigma3}
	for i := range 8 {
		c.state[4+i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	for i := range 3 {
		c.state[13+i] = binary.LittleEndian.Uint32(nonce[4*i:])
	}
	clear(subkey[:]) // XChaCha20's subkey now lives in c.state only
	if p == pathChosen {
		p = paths.Chosen()
	}
	c.path = p
	return c, nil
}

// SetCounter sets the block counter: the next XORKeyStream behaves as if
// 64*counter bytes had been processed so far. It panics if counter is
// below the current position (counter reuse), as x/crypto does.
//
// Near the end of the counter space this package follows RFC 8439 on every
// path: the counter never wraps, and XORKeyStream panics rather than make
// a block past 2^32-1. golang.org/x/crypto/chacha20 (v0.59) does not on
// arm64, ppc64x, s390x and loong64, where its assembly buffers four blocks:
// a call that leaves a partial block with the counter at 2^32-4 makes
// blocks 2^32-4 to 2^32-1 at once and lets its counter wrap to 0 without
// noting the overflow, so the next call returns block 0's keystream again
// and SetCounter accepts earlier values. The two therefore differ there;
// this package is the one that keeps keystream from repeating (see
// TestCounterEndNoWrap).
func (c *Cipher) SetCounter(counter uint32) {
	// Leftover keystream belongs to a block the counter already counts, so
	// the current position is state[12] itself.
	if c.overflow || counter < c.state[12] {
		panic("chacha20: SetCounter attempted to rollback counter")
	}
	c.state[12] = counter
	c.len = 0
}

// XORKeyStream XORs each byte of src with the next keystream byte and
// writes the result to dst. dst and src must overlap entirely or not at
// all; dst must be at least as long as src. Successive calls continue the
// same keystream. It panics when the keystream would pass block 2^32-1.
func (c *Cipher) XORKeyStream(dst, src []byte) {
	if len(src) == 0 {
		return
	}
	checkBuffers(dst, src)
	dst = dst[:len(src)]

	if c.len != 0 {
		ks := c.buf[c.pos : c.pos+c.len]
		n := min(len(ks), len(src))
		for i := range n {
			dst[i] = src[i] ^ ks[i]
		}
		c.pos += n
		c.len -= n
		dst, src = dst[n:], src[n:]
		if len(src) == 0 {
			return
		}
	}

	// Panic before producing anything if the counter would wrap; remember
	// when this call ends exactly on the last block.
	numBlocks := (uint64(len(src)) + blockSize - 1) / blockSize
	if c.overflow || uint64(c.state[12])+numBlocks > 1<<32 {
		panic("chacha20: counter overflow")
	} else if uint64(c.state[12])+numBlocks == 1<<32 {
		c.overflow = true
	}

	// The last block is only partly used where src ends inside it: the
	// rest of it stays in buf for the next call.
	if pos, left := c.xorFrom(dst, src); left > 0 {
		c.pos, c.len = pos, left
	}
}

// xorFrom XORs src with the keystream from c's counter into dst. Whole
// blocks go straight through the kernel (every kernel takes any whole
// number of blocks). With a partial block at the end, the last few blocks
// (under four) and it go through a buffer in one kernel call instead: one
// short batch rather than two. Blocks past those needed are never
// computed. The partial block's keystream goes to c.buf, and xorFrom
// returns where its unused part starts there and its length (0 when src
// ends on a block boundary).
func (c *Cipher) xorFrom(dst, src []byte) (pos, left int) {
	full := len(src)
	if len(src)%blockSize != 0 {
		full = len(src) &^ (tailBuf - 1)
	}
	if full > 0 {
		c.xorBlocks(dst[:full], src[:full])
		dst, src = dst[full:], src[full:]
	}
	if len(src) == 0 {
		return 0, 0
	}
	var tail [tailBuf]byte
	used := (len(src) + blockSize - 1) / blockSize
	n := copy(tail[:], src)
	c.xorBlocks(tail[:used*blockSize], tail[:used*blockSize])
	copy(dst, tail[:n])
	last := (used - 1) * blockSize
	copy(c.buf[:], tail[last:used*blockSize])
	clear(tail[:used*blockSize])
	return n - last, used*blockSize - n
}

// HChaCha20 derives a 32-byte subkey from a 32-byte key and a 16-byte
// nonce with the ChaCha20 core, as XChaCha20 does. It returns an error for
// other lengths.
func HChaCha20(key, nonce []byte) ([]byte, error) {
	if len(key) != KeySize {
		return nil, errors.New("chacha20: wrong HChaCha20 key size")
	}
	if len(nonce) != 16 {
		return nil, errors.New("chacha20: wrong HChaCha20 nonce size")
	}
	out := make([]byte, 32)
	chachacore.HChaCha20((*[32]byte)(out), (*[KeySize]byte)(key), (*[16]byte)(nonce))
	return out, nil
}

// path names a code path. Every build knows all names; the architecture
// files list the paths they can run and supply xorBlocks.
type path uint8

const (
	pathGeneric path = iota
	pathSSSE3
	pathAVX2
	pathAVX512
	pathAVX512VL
	pathStdlib // x/crypto's assembly where simdcrypt has none (chacha20_stdlib.go)

	// pathChosen asks init to take the path dispatch prefers.
	pathChosen path = 255
)

var pathNames = [...]string{
	pathGeneric:  "generic",
	pathSSSE3:    "ssse3",
	pathAVX2:     "avx2",
	pathAVX512:   "avx512",
	pathAVX512VL: "avx512vl",
	pathStdlib:   "stdlib",
}

// tailBuf holds the end of a call that has a partial block: fewer than four
// whole blocks and the partial one.
const tailBuf = 4 * blockSize

// paths is the dispatch table: every path best first, each with the path
// value a new cipher is pinned to. It is built in init because the paths'
// constructors lead back to it (newCipher, init, paths.Chosen).
var paths *catalog.Table[path]

func init() {
	paths = catalog.NewTable("chacha20", append(asmPaths(),
		streamPath(pathGeneric, nil, false, "portable Go, one block at a time"))...)
}

// streamPath describes path p for the table; its NewStream returns a
// *Cipher pinned to p.
func streamPath(p path, requires []cpu.Feature, wide bool, notes string) catalog.Entry[path] {
	return catalog.Entry[path]{Impl: p, Path: &catalog.Path{
		Cipher: "chacha20", Name: pathNames[p], Requires: requires, Wide: wide,
		Ops: catalog.StreamOps, Notes: notes,
		NewStream: func(key, nonce []byte) (cipher.Stream, error) {
			c, err := newCipher(key, nonce, p)
			if err != nil {
				return nil, err // not a typed nil inside the interface
			}
			return c, nil
		},
	}}
}

// checkBuffers panics, as x/crypto does, where dst is shorter than src or
// dst[:len(src)] and src overlap inexactly.
func checkBuffers(dst, src []byte) {
	if len(dst) < len(src) {
		panic("chacha20: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("chacha20: invalid buffer overlap")
	}
}
