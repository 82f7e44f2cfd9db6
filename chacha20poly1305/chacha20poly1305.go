// Package chacha20poly1305 implements the ChaCha20-Poly1305 AEAD of RFC 8439
// and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha), with the API of
// golang.org/x/crypto/chacha20poly1305 name for name, so that switching is
// an import-path change: the same constants, constructors, errors and
// panics.
//
// On AVX2 CPUs without AVX-512 (or under SIMDCRYPT_CPU=avx512=off) the
// avx2-stitched path runs ChaCha20 and Poly1305 in one loop: scalar MULX
// Poly1305 steps interleaved with the AVX2 ChaCha20 rounds, 512 bytes per
// batch (see stitched.go). There the two passes of the other paths cannot
// win: their sum, about 1.8 cycles/byte on Zen 5, is slower than
// x/crypto's own stitched kernel.
//
// The other paths take the keystream from this module's chacha20 package
// (its own path dispatch) and the authenticator from internal/poly1305,
// whose path is chosen when the AEAD is created (see paths.go). Both run
// over the message in chunks small enough to stay in the L1 cache: Seal
// encrypts a chunk and then authenticates the ciphertext while it is still
// cached, Open authenticates a chunk and then decrypts it. On AVX-512
// CPUs (512-bit ChaCha20, IFMA Poly1305) the two passes reach about 90% of
// the sum of the two kernels' separate speeds: on Zen 5 about 2.4 times
// the avx2-stitched path at 16 KiB, which therefore ranks after ifma.
//
// Short messages take a path of their own (see shortMax; up to 64 bytes on
// the AVX2 keystream with a MULX MAC, one fused kernel call: short.go).
// Up to oneMax bytes with a block of additional data at most, one kernel
// call computes block 0 and the MAC in general registers beside the
// keystream (sealOne, openOne: stitched.go), from 65 bytes on ahead of the
// short path (measured on Zen 5 at 96 to 192 bytes, ratio to x/crypto:
// Open 0.93 -> 1.05..1.11 under avx512=off, 1.05 -> 1.15..1.23 on ifma;
// Seal on ifma 1.04 -> 1.12..1.14); on the ifma path messages up
// to midMax bytes past those take the keystream and block 0 from one call
// (mid.go), and on the avx2-stitched path Seal and Open up to fourMax
// bytes run in one call of one batch with two more blocks beside it (up
// to tenMax bytes), or of two to four batches (sealTwo, openTwo in
// stitched.go). Longer ones get the MAC key from block 0 computed by the block0
// kernel (see block0.go), except where the avx2-stitched kernels compute it
// alongside other work.
package chacha20poly1305

import (
	"crypto/cipher"
	"crypto/fips140"
	"crypto/subtle"
	"encoding/binary"
	"errors"

	"github.com/simdcrypt/simdcrypt/chacha20"
	"github.com/simdcrypt/simdcrypt/internal/alias"
	"github.com/simdcrypt/simdcrypt/internal/chachacore"
	"github.com/simdcrypt/simdcrypt/internal/poly1305"
	"github.com/simdcrypt/simdcrypt/internal/tags"
)

const (
	// KeySize is the size of the key used by this AEAD, in bytes.
	KeySize = 32

	// NonceSize is the size of the nonce used with the standard variant of
	// this AEAD, in bytes. It is too short to be chosen at random if one
	// key seals more than about 2^32 messages.
	NonceSize = 12

	// NonceSizeX is the size of the nonce used with the XChaCha20-Poly1305
	// variant of this AEAD, in bytes.
	NonceSizeX = 24

	// Overhead is the size of the Poly1305 authentication tag, and the
	// difference between a ciphertext length and its plaintext.
	Overhead = 16
)

var errOpen = errors.New("chacha20poly1305: message authentication failed")

// aead is ChaCha20-Poly1305 (nonceSize 12) or XChaCha20-Poly1305 (24): the
// chacha20 package derives XChaCha20's subkey itself from a 24-byte nonce.
type aead struct {
	key       [KeySize]byte
	nonceSize int
	mac       poly1305.Path
	// stitched: messages past the short path take the stitched kernels
	// (see stitched.go); mac then serves only the short path.
	stitched bool
	path     string // the path's name, for the tests
	// ks4: the kernel short messages take (see keystreamShort), decided
	// when the AEAD is created.
	ks4 ks4Kernel
	// fused: messages up to fusedMax bytes take this version of the fused
	// kernels (see short.go): AVX2 keystream and a MULX MAC; fusedNone:
	// none.
	fused fusedKernel
	// one: messages past the short path up to oneMax bytes, with up to
	// oneAD bytes of additional data, take one kernel call (sealOne,
	// openOne in stitched.go) from these layouts; nil: none.
	one []oneLayout
	// mid: messages past those up to midMax bytes take keystream8 to 20 (see
	// mid.go), where AVX-512 may run.
	mid bool
}

// New returns a ChaCha20-Poly1305 AEAD that uses the given 256-bit key.
func New(key []byte) (cipher.AEAD, error) {
	return newAEAD(key, NonceSize, table.Chosen())
}

// NewX returns a XChaCha20-Poly1305 AEAD that uses the given 256-bit key.
//
// XChaCha20-Poly1305 is a ChaCha20-Poly1305 variant that takes a longer nonce,
// suitable to be generated randomly without risk of collisions. It should be
// preferred when nonce uniqueness cannot be trivially ensured, or whenever
// nonces are randomly generated.
func NewX(key []byte) (cipher.AEAD, error) {
	return newAEAD(key, NonceSizeX, tableX.Chosen())
}

func newAEAD(key []byte, nonceSize int, p *path) (cipher.AEAD, error) {
	if fips140.Enforced() {
		return nil, errors.New("chacha20poly1305: use of ChaCha20Poly1305 is not allowed in FIPS 140-only mode")
	}
	if len(key) != KeySize {
		return nil, errors.New("chacha20poly1305: bad key length")
	}
	a := &aead{nonceSize: nonceSize, mac: p.mac, stitched: p.stitched, path: p.Name, ks4: chooseKS4()}
	if haveKeystream4AVX2() && p.mac != poly1305.Generic && poly1305.MULX.Available() {
		a.fused = chooseFused()
	}
	a.one = p.oneCall()
	a.mid = p.mac == poly1305.IFMA && a.ks4 == ks4ZMM
	copy(a.key[:], key)
	return a, nil
}

func (a *aead) NonceSize() int { return a.nonceSize }

func (a *aead) Overhead() int { return Overhead }

// sealChunks encrypts plaintext, longer than a chunk, into ciphertext a
// chunk at a time, each authenticated right after, with one set of the
// MAC's powers of r for all of them (in this frame: a callee's, so that
// messages of one chunk do not clear it).
func sealChunks(s *chacha20.Cipher, mac *poly1305.MAC, ciphertext, plaintext []byte) {
	var pw poly1305.Powers
	for len(plaintext) > 0 {
		n := min(len(plaintext), chunk)
		s.XORKeyStream(ciphertext[:n], plaintext[:n])
		mac.WriteKeeping(ciphertext[:n], &pw)
		plaintext, ciphertext = plaintext[n:], ciphertext[n:]
	}
}

// openChunks is sealChunks for Open: each chunk of ciphertext is
// authenticated before its plaintext goes to out.
func openChunks(s *chacha20.Cipher, mac *poly1305.MAC, out, ciphertext []byte) {
	var pw poly1305.Powers
	for len(ciphertext) > 0 {
		n := min(len(ciphertext), chunk)
		mac.WriteKeeping(ciphertext[:n], &pw)
		s.XORKeyStream(out[:n], ciphertext[:n])
		out, ciphertext = out[n:], ciphertext[n:]
	}
}

// chunk is how much Seal encrypts before authenticating it (and Open
// authenticates before decrypting): a multiple of the ChaCha20 block, small
// enough that the ciphertext is still in L1 when the second pass reads it.
const chunk = 8 << 10

func (a *aead) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != a.nonceSize {
		panic("chacha20poly1305: bad nonce length passed to Seal")
	}
	// The 32-bit block counter starts at 1 (block 0 makes the MAC key).
	if uint64(len(plaintext)) > (1<<38)-64 {
		panic("chacha20poly1305: plaintext too large")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+Overhead)
	if alias.InexactOverlap(out, plaintext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}
	ciphertext, tag := out[:len(plaintext)], out[len(plaintext):]

	key, nonce12 := a.derive(nonce)
	if a.fused != fusedNone && len(plaintext) <= fusedMax && len(additionalData) <= fusedAD {
		sealFused(a.fused, ciphertext, plaintext, additionalData, (*[Overhead]byte)(tag), &key, &nonce12)
		return ret
	}
	if a.one != nil && len(plaintext) <= oneMax && len(additionalData) <= oneAD {
		sealOne(a.one, ciphertext, plaintext, additionalData, (*[Overhead]byte)(tag), &key, &nonce12)
		return ret
	}
	if len(plaintext) <= shortMax && len(additionalData) <= shortAD {
		var ks [64 + shortMax]byte
		a.keystreamShort(&ks, len(plaintext), &key, &nonce12)
		subtle.XORBytes(ciphertext, plaintext, ks[64:])
		a.tagShort((*[Overhead]byte)(tag), &ks, additionalData, ciphertext)
		return ret
	}
	if a.stitched && len(plaintext) <= fourMax && len(additionalData) <= oneAD {
		sealTwo(ciphertext, plaintext, additionalData, (*[Overhead]byte)(tag), &key, &nonce12)
		return ret
	}
	if a.midTakes(len(plaintext)) {
		a.sealMid(ciphertext, plaintext, additionalData, (*[Overhead]byte)(tag), &key, &nonce12)
		return ret
	}
	if a.stitched {
		sealStitched(ciphertext, plaintext, additionalData, (*[Overhead]byte)(tag), &key, &nonce12)
		return ret
	}

	s, _ := chacha20.NewUnauthenticatedCipher(key[:], nonce12[:])
	var mac poly1305.MAC
	a.setup(s, &mac, &key, nonce12[:], additionalData)
	if len(plaintext) > chunk {
		sealChunks(s, &mac, ciphertext, plaintext)
	} else {
		s.XORKeyStream(ciphertext, plaintext)
		mac.Write(ciphertext)
	}
	finish(&mac, len(additionalData), len(out)-Overhead)
	mac.Sum(tag[:0])
	return ret
}

func (a *aead) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != a.nonceSize {
		panic("chacha20poly1305: bad nonce length passed to Open")
	}
	if len(ciphertext) < Overhead {
		return nil, errOpen
	}
	if uint64(len(ciphertext)) > (1<<38)-48 {
		panic("chacha20poly1305: ciphertext too large")
	}
	tag := ciphertext[len(ciphertext)-Overhead:]
	ciphertext = ciphertext[:len(ciphertext)-Overhead]
	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	if alias.InexactOverlap(out, ciphertext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}

	key, nonce12 := a.derive(nonce)
	if a.fused != fusedNone && len(ciphertext) <= fusedMax && len(additionalData) <= fusedAD {
		if !openFused(a.fused, out, ciphertext, additionalData, tag, &key, &nonce12) {
			clear(out) // as x/crypto does, though nothing was decrypted
			return nil, errOpen
		}
		return ret, nil
	}
	if a.one != nil && len(ciphertext) <= oneMax && len(additionalData) <= oneAD {
		if !openOne(a.one, out, ciphertext, additionalData, tag, &key, &nonce12) {
			clear(out)
			return nil, errOpen
		}
		return ret, nil
	}
	if len(ciphertext) <= shortMax && len(additionalData) <= shortAD {
		var ks [64 + shortMax]byte
		a.keystreamShort(&ks, len(ciphertext), &key, &nonce12)
		var want [Overhead]byte
		a.tagShort(&want, &ks, additionalData, ciphertext)
		if !tags.Equal(&want, tag) {
			clear(ks[:])
			clear(out) // as x/crypto does, though nothing was decrypted
			return nil, errOpen
		}
		subtle.XORBytes(out, ciphertext, ks[64:])
		return ret, nil
	}
	if a.stitched && len(ciphertext) <= fourMax && len(additionalData) <= oneAD {
		if !openTwo(out, ciphertext, additionalData, tag, &key, &nonce12) {
			clear(out)
			return nil, errOpen
		}
		return ret, nil
	}
	if a.midTakes(len(ciphertext)) {
		if !a.openMid(out, ciphertext, additionalData, tag, &key, &nonce12) {
			clear(out)
			return nil, errOpen
		}
		return ret, nil
	}
	if a.stitched {
		if !openStitched(out, ciphertext, additionalData, tag, &key, &nonce12) {
			clear(out)
			return nil, errOpen
		}
		return ret, nil
	}

	s, _ := chacha20.NewUnauthenticatedCipher(key[:], nonce12[:])
	var mac poly1305.MAC
	a.setup(s, &mac, &key, nonce12[:], additionalData)
	// The ciphertext is authenticated before the plaintext overwrites it
	// (out and ciphertext may be the same memory).
	if len(ciphertext) > chunk {
		openChunks(s, &mac, out, ciphertext)
	} else {
		mac.Write(ciphertext)
		s.XORKeyStream(out, ciphertext)
	}
	finish(&mac, len(additionalData), len(out))
	if !mac.Verify(tag) {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// Short messages (up to shortMax bytes, with up to shortAD bytes of
// additional data) take one keystream call for block 0 (the MAC key) and
// the message together: the vector paths compute up to four blocks in
// about the latency of one (row layout), so this halves a short message's
// ChaCha20 time. The MAC input (padded AD, padded ciphertext, lengths) is
// then assembled in one buffer and hashed in one call on the scalar code.
// Longer messages gain nothing from the joint call, as their keystream
// runs in wide batches; copying it through a buffer cost more (measured:
// 1 KiB Seal 12% slower with a 16-block joint call). Where the one-call
// kernels run (a.one), they take messages past the fused call's with up to
// oneAD bytes of additional data first, leaving this path the longer
// additional data.
const (
	shortMax = 3 * 64
	shortAD  = 64
)

// ks4Kernel names this package's own short-message keystream kernels.
type ks4Kernel uint8

const (
	ks4Package ks4Kernel = iota // none: the chacha20 package
	ks4ZMM                      // keystream4
	ks4YMM                      // keystream4AVX2
)

func chooseKS4() ks4Kernel {
	switch {
	case haveKeystream4():
		return ks4ZMM
	case haveKeystream4AVX2():
		return ks4YMM
	}
	return ks4Package
}

// keystreamShort writes keystream blocks 0 to 3 (at least those an n-byte
// message needs): with this package's
// kernel where the AEAD may use one, else through the chacha20 package (one
// call for all four blocks: its kernels compute them in one go anyway, and
// a whole number of batches skips the stream's leftover buffer).
func (a *aead) keystreamShort(ks *[64 + shortMax]byte, n int, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	switch a.ks4 {
	case ks4ZMM:
		keystream4(ks, key, nonce12)
		return
	case ks4YMM:
		if n <= 64 {
			keystream2AVX2((*[256]byte)(ks), key, nonce12)
			return
		}
		keystream4AVX2(ks, key, nonce12)
		return
	}
	s, _ := chacha20.NewUnauthenticatedCipher(key[:], nonce12[:])
	s.XORKeyStream(ks[:], ks[:])
}

// tagShort computes the tag of a short message from block 0's keystream in
// ks, then wipes that key.
func (a *aead) tagShort(tag *[Overhead]byte, ks *[64 + shortMax]byte, ad, ct []byte) {
	var buf [shortAD + shortMax + 16]byte
	n := copy(buf[:], ad)
	n = (n + 15) &^ 15
	n += copy(buf[n:], ct)
	n = (n + 15) &^ 15
	lengthsBlock((*[16]byte)(buf[n:n+16]), len(ad), len(ct))
	poly1305.SumBlocks(tag, buf[:n+16], (*[32]byte)(ks[:32]), a.mac)
	clear(ks[:32])
}

// derive returns the ChaCha20 key and 12-byte nonce for a message:
// XChaCha20's HChaCha20 subkey and the nonce's last 8 bytes after 4 zero
// bytes (draft-irtf-cfrg-xchacha section 2.3), or the AEAD's own.
func (a *aead) derive(nonce []byte) (key [KeySize]byte, nonce12 [NonceSize]byte) {
	if a.nonceSize == NonceSizeX {
		chachacore.HChaCha20(&key, &a.key, (*[16]byte)(nonce[:16]))
		copy(nonce12[4:], nonce[16:24])
		return key, nonce12
	}
	// A conversion, not copy: copy's memmove stores the 12 bytes as two
	// overlapping quadwords, and the caller's first load of nonce12 then
	// waits for both (no store forwarding): about 5 ns of a 64-byte Seal
	// on Zen 5. Seal and Open have checked the nonce's length.
	return a.key, [NonceSize]byte(nonce)
}

// setup keys mac with the first 32 bytes of keystream block 0 (see
// block0.go), moves s to block 1, and absorbs the padded additional data.
func (a *aead) setup(s *chacha20.Cipher, mac *poly1305.MAC, key *[KeySize]byte, nonce12, additionalData []byte) {
	var macKeyBytes [32]byte
	macKey(&macKeyBytes, key, nonce12)
	keyMAC(mac, &macKeyBytes, a.mac, additionalData)
	s.SetCounter(1)
}

// keyMAC keys mac on path p with mk, wipes mk and absorbs the padded
// additional data ad.
func keyMAC(mac *poly1305.MAC, mk *[32]byte, p poly1305.Path, ad []byte) {
	mac.Init(mk, p)
	clear(mk[:])
	mac.Write(ad)
	pad(mac, len(ad))
}

// finish pads the ciphertext and absorbs the two lengths.
func finish(mac *poly1305.MAC, adLen, ctLen int) {
	pad(mac, ctLen)
	var lengths [16]byte
	lengthsBlock(&lengths, adLen, ctLen)
	mac.Write(lengths[:])
}

// lengthsBlock writes the MAC's last block to b: the additional data's
// length and the message's, little-endian.
func lengthsBlock(b *[16]byte, adLen, msgLen int) {
	binary.LittleEndian.PutUint64(b[:8], uint64(adLen))
	binary.LittleEndian.PutUint64(b[8:], uint64(msgLen))
}

// pad writes the zeros that complete a field of length n to 16 bytes.
func pad(mac *poly1305.MAC, n int) {
	if r := n % 16; r != 0 {
		var zeros [16]byte
		mac.Write(zeros[:16-r])
	}
}
