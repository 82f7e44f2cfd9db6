package chacha20poly1305

import (
	"encoding/binary"
	"unsafe"

	"github.com/simdcrypt/simdcrypt/internal/chachacore"
	"github.com/simdcrypt/simdcrypt/internal/poly1305"
	"github.com/simdcrypt/simdcrypt/internal/tags"
)

// The avx2-stitched path runs ChaCha20 and Poly1305 in one loop, 512 bytes
// per batch (sealAVX2, openAVX2; see _asm/chacha20poly1305/stitched.go):
// the Poly1305 steps are scalar and use the integer ports, which the
// vector ChaCha20 rounds leave idle. Seal's first batch has no ciphertext
// to absorb yet and computes block 0 (the MAC key) in scalar registers
// instead (sealFirstAVX2; sealNextAVX2 continues); its last whole batch,
// whose ciphertext the kernel writes last, is absorbed by the tail's batch
// (sealTailAVX2) or, without a tail, by macBatchAVX2: two independent
// Poly1305 chains of 16 blocks, h = A·r^16 + B (measured on Zen 5 under
// avx512=off, kernel alone: about 115 ns against 195 for the avx2
// Poly1305 path with its powers).
//
// Longer messages run most of their batches two sets of eight blocks at a
// time (openWideAVX2, sealWideAVX2; see _asm/chacha20poly1305/wide.go):
// one set's rounds are latency bound on Zen 5, two sets fill the vector
// pipes (measured there under avx512=off, kernels alone: 1024 bytes of
// Open in about 300 ns against 370 as two one-set batches, Seal 290
// against 350-370). Seal's wide batches each absorb the one before, so the
// last of them leaves 1024 bytes: the last whole batch (sealLastAVX2)
// absorbs them in two chains beside its rounds. From six batches on only:
// below, the two more calls cost what the wide batches save.
//
// Everything shorter than a batch (a message's tail, or a message up to
// smallMax bytes) also takes one whole batch of sealAVX2, which without a
// previous batch computes only keystream, on a stack buffer: eight blocks
// word-sliced cost about what the chacha20 package's row layout takes for
// four (measured on Zen 5: about 160 ns against 150 ns, plus the stream's
// set-up), and a message of up to smallMax bytes gets its MAC key from
// the same batch (block 0 in the buffer's first 64 bytes). With up to 16
// bytes of additional data such a message takes one kernel call instead
// (openOne, sealOne): block 0 in general registers beside the batch, then
// the MAC there too (Open: the whole MAC during the rounds; Seal: the
// additional data during them, the ciphertext after), with no Go code
// between the parts (measured on Zen 5 at 256 bytes: Open's call about
// 250 ns against 385 for the two passes).
//
// Seal and Open of oneMax+1 to fourMax bytes with up to 16 bytes of
// additional data take one call too (sealTwo, openTwo): one batch with two
// more blocks in YMM rows beside it (up to tenMax bytes), or two to four
// batches, with their rounds in loops of double rounds, the MAC in general
// registers throughout; Seal's one-batch kernel of 257 to oneMax bytes
// (sealDirectAVX2) rolls its rounds the same way. The
// unrolled kernels above are about 12 KB of code a batch, which on Zen 5
// runs from the decoders rather than the op cache: at 1 KiB the three calls
// sealFirstAVX2, sealNextAVX2 and macBatchAVX2 with Go between them cost
// about 0.9x x/crypto, the same work unrolled in one call no less, rolled
// about 1.1x.

// batch is the stitched kernels' unit.
const batch = 512

// smallMax is the longest message whose MAC key and keystream come from
// one batch starting at block 0.
const smallMax = batch - 64

// stitchState is what the kernels read and update; its layout is fixed by
// the generator's offsets.
type stitchState struct {
	x [16]uint32 // ChaCha20 input state; x[12] counts blocks
	h [3]uint64  // Poly1305 accumulator
	r [3]uint64  // r0, r1, s1 = r1 + r1/4
}

func (st *stitchState) words() *[14]uint64 { return (*[14]uint64)(unsafe.Pointer(st)) }

// init loads the ChaCha20 state for key, nonce12 and block counter ctr.
func (st *stitchState) init(key *[KeySize]byte, nonce12 *[NonceSize]byte, ctr uint32) {
	var tail [16]byte
	binary.LittleEndian.PutUint32(tail[:4], ctr)
	copy(tail[4:], nonce12[:])
	chachacore.InitState(&st.x, key, &tail)
}

// The helpers below keep their 512-byte buffers out of the callers' frames:
// with one in sealStitched's frame, sealAVX2 ran 20% slower at 16 KiB on
// Zen 5 (the stack moved against the data: its spill slots alias the
// output at 4 KiB strides, we suppose).

// xorBatch XORs the keystream from block st.x[12] on into dst (at most a
// batch) with one batch of sealAVX2 through a buffer.
//
//go:noinline
func xorBatch(st *stitchState, dst, src []byte) {
	var buf [batch]byte
	copy(buf[:], src)
	sealAVX2(st.words(), buf[:], buf[:])
	copy(dst, buf[:len(src)])
	clear(buf[:])
}

// sealTail encrypts the tail (under a batch) after Seal's whole batches
// with one batch that also absorbs the last whole batch, last[:batch]
// (whose ciphertext is followed by the tail's in last).
//
//go:noinline
func sealTail(st *stitchState, last, tail []byte) {
	var buf [batch]byte
	copy(buf[:], tail)
	sealTailAVX2(st.words(), buf[:], buf[:], (*[batch]byte)(last))
	copy(last[batch:], buf[:len(tail)])
	clear(buf[:])
}

// stitchSetup keys mac from block 0, absorbs the padded additional data
// and loads st for block 1. mac runs on the avx2 path: Seal's last batch
// (which no later batch can stitch) is long enough for its vector code.
func stitchSetup(st *stitchState, mac *poly1305.MAC, key *[KeySize]byte, nonce12 *[NonceSize]byte, ad []byte) {
	var mk [32]byte
	macKey(&mk, key, nonce12[:])
	keyMAC(mac, &mk, poly1305.AVX2, ad)
	st.init(key, nonce12, 1)
	h, r := mac.Scalar()
	st.h, st.r = *h, *r
}

// small runs one batch from block 0 over msg (at most smallMax bytes) in
// buf, keys mac from block 0 and absorbs the padded additional data;
// buf[64:64+len(msg)] holds msg XOR the keystream.
func small(buf *[batch]byte, mac *poly1305.MAC, msg, ad []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	var st stitchState
	st.init(key, nonce12, 0)
	copy(buf[64:], msg)
	sealAVX2(st.words(), buf[:], buf[:])
	clear(st.x[:])
	keyMAC(mac, (*[32]byte)(buf[:32]), poly1305.AVX2, ad)
}

// sealStitched is Seal on the avx2-stitched path.
func sealStitched(ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	if len(plaintext) <= smallMax {
		sealSmall(ciphertext, plaintext, ad, tag, key, nonce12)
		return
	}
	var st stitchState
	var mac poly1305.MAC
	full := len(plaintext) &^ (batch - 1)
	if full == 0 {
		stitchSetup(&st, &mac, key, nonce12, ad)
		xorBatch(&st, ciphertext, plaintext)
		mac.Write(ciphertext)
	} else {
		// The first batch computes block 0 (the MAC key) in its idle
		// scalar registers; the next absorbs the first.
		st.init(key, nonce12, 1)
		var mk [32]byte
		sealFirstAVX2(st.words(), ciphertext[:batch], plaintext[:batch], &mk)
		mac.Init(&mk, poly1305.AVX2)
		clear(mk[:])
		mac.Write(ad)
		pad(&mac, len(ad))
		h, r := mac.Scalar()
		st.h, st.r = *h, *r
		switch last := full - batch; {
		case full >= 6*batch:
			// Between the first and the last batch, batches of two sets
			// of eight blocks (sealWideAVX2), after one of one set if
			// their number is odd; the last (sealLastAVX2) absorbs the
			// wide kernel's last 1024 bytes.
			next := batch
			if (last-batch)&batch != 0 {
				sealNextAVX2(st.words(), ciphertext[batch:2*batch], plaintext[batch:2*batch])
				next = 2 * batch
			}
			sealWideAVX2(st.words(), ciphertext[next:last], plaintext[next:last])
			sealLastAVX2(st.words(), ciphertext[last:full], plaintext[last:full])
		case full > batch:
			sealNextAVX2(st.words(), ciphertext[batch:full], plaintext[batch:full])
		}
		if full < len(plaintext) {
			// The tail's batch absorbs the last whole batch.
			sealTail(&st, ciphertext[full-batch:], plaintext[full:])
			*h = st.h
			mac.Write(ciphertext[full:])
		} else {
			// Two independent chains over the last batch.
			macBatchAVX2(st.words(), (*[batch]byte)(ciphertext[full-batch:]))
			*h = st.h
		}
	}
	clear(st.x[:])
	finish(&mac, len(ad), len(plaintext))
	mac.Sum(tag[:0])
}

//go:noinline
func sealSmall(ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	var buf [batch]byte
	var mac poly1305.MAC
	small(&buf, &mac, plaintext, ad, key, nonce12)
	copy(ciphertext, buf[64:])
	clear(buf[:])
	mac.Write(ciphertext)
	finish(&mac, len(ad), len(plaintext))
	mac.Sum(tag[:0])
}

// openStitched is Open on the avx2-stitched path: it decrypts ciphertext
// into out and reports whether tag is right; the caller clears out if not.
func openStitched(out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	if len(ciphertext) <= smallMax {
		return openSmall(out, ciphertext, ad, tag, key, nonce12)
	}
	var st stitchState
	var mac poly1305.MAC
	stitchSetup(&st, &mac, key, nonce12, ad)
	full := len(ciphertext) &^ (batch - 1)
	if full > 0 {
		// Two sets of eight blocks a batch while 1024 bytes are left.
		wide := full &^ (2*batch - 1)
		if wide > 0 {
			openWideAVX2(st.words(), out[:wide], ciphertext[:wide])
		}
		if wide < full {
			openAVX2(st.words(), out[wide:full], ciphertext[wide:full])
		}
		h, _ := mac.Scalar()
		*h = st.h
	}
	if full < len(ciphertext) {
		// Authenticated before the plaintext overwrites it (in place).
		mac.Write(ciphertext[full:])
		xorBatch(&st, out[full:], ciphertext[full:])
	}
	clear(st.x[:])
	finish(&mac, len(ad), len(ciphertext))
	return mac.Verify(tag)
}

// openSmall writes the plaintext only once the tag is verified.
//
//go:noinline
func openSmall(out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	var buf [batch]byte
	var mac poly1305.MAC
	small(&buf, &mac, ciphertext, ad, key, nonce12)
	mac.Write(ciphertext)
	finish(&mac, len(ad), len(ciphertext))
	ok := mac.Verify(tag)
	if ok {
		copy(out, buf[64:])
	}
	clear(buf[:])
	return ok
}

// oneAD is the most additional data openOne and sealOne take: one block.
const oneAD = 16

// oneMax is the longest message the one-call kernels take: their batch
// holds blocks 1 to 8 (block 0 runs in general registers).
const oneMax = batch

// openSteps is the number of MAC blocks openState holds: up to oneMax
// bytes of message, oneAD of additional data and the lengths.
const openSteps = oneMax/16 + 2

// openState is the argument of every openOne* and sealOne* kernel (each
// layout's, see oneLayout); its layout is fixed by the generator's offsets
// (oo* in _asm/chacha20poly1305/stitched.go).
type openState struct {
	oneHead
	buf [batch + 16]byte // the message in, the result out; sealOne* writes 16 zero bytes after it
	n   uint64           // sealOne*: the message's length
}

// keyHead is what the one-call and direct kernels' states hold first.
type keyHead struct {
	stitchState                // x: blocks 1 on; r, written by the kernel
	s           [2]uint64      // written by the kernel
	tag         [Overhead]byte // written by the kernel
}

// clear wipes the key material; the callers wipe their buffers.
func (st *keyHead) clear() {
	clear(st.x[:])
	clear(st.r[:])
	clear(st.s[:])
}

// oneHead is what the one-call kernels' states hold before the buffer.
type oneHead struct {
	keyHead
	hi  [openSteps]uint64   // the 2^128 bit of each MAC block
	mac [openSteps][16]byte // the MAC input, right-aligned
}

// fourState is openFourAVX2's, openThreeAVX2's and openEighteenAVX2's: a
// buffer for four batches.
type fourState struct {
	oneHead
	buf [4*batch + 16]byte
	n   uint64
}

// The generator's offsets.
var _ = [1]struct{}{}[unsafe.Offsetof(openState{}.s)-112+unsafe.Offsetof(openState{}.hi)-144+unsafe.Offsetof(openState{}.buf)-960+unsafe.Sizeof(openState{})-1496+
	unsafe.Offsetof(fourState{}.buf)-960+unsafe.Sizeof(fourState{})-3032]

// twoMax and fourMax are the longest messages sealTwo takes with two
// batches' buffer, and with four.
const (
	twoMax  = 2 * batch
	fourMax = 4 * batch
)

// tenMax is the longest message sealTenDirectAVX2 and openTenAVX2 take:
// blocks 1 to 10, eight word-sliced and two in YMM rows beside them in
// about one batch's time.
const tenMax = batch + 128

// eighteenMax is the longest message sealEighteenDirectAVX2 and
// openEighteenAVX2 take: blocks 1 to 18 (named by their count, as the Ten
// kernels), two batches and blocks 17 and 18 in YMM rows beside one of
// them. threeMax is sealThreeDirectAVX2's and openThreeAVX2's (named by
// their batches, as the Two and Four kernels): three batches, blocks 25
// and 26 beside the first.
const (
	eighteenMax = twoMax + 128
	threeMax    = 3*batch + 128
)

// oneLayout names the batch layout of a set of one-call kernels (openOne*,
// sealOne*; see oneLayouts).
type oneLayout uint8

const (
	oneSliced oneLayout = iota // eight blocks word-sliced in YMM
	oneY4                      // four blocks in row layout, YMM
	oneZ4                      // four blocks in row layout, ZMM
	oneZ8                      // eight blocks in row layout, ZMM (Seal; Open takes openDirect)
)

// max is the longest message a layout's kernels take.
func (l oneLayout) max() int {
	if l == oneY4 || l == oneZ4 {
		return 256
	}
	return oneMax
}

// oneFor returns the first layout in ones that takes a message of n bytes.
func oneFor(ones []oneLayout, n int) oneLayout {
	for _, l := range ones {
		if n <= l.max() {
			return l
		}
	}
	panic("chacha20poly1305: no one-call kernel for the length")
}

// openOne is Open for a message of up to oneMax bytes with up to 16 bytes
// of additional data: one kernel call from ones computes the MAC key, the
// tag and the keystream together. It writes the plaintext to out only if
// tag is right, but past 256 bytes on the word-sliced or ZMM eight-block
// layouts, which take openDirect (it writes the plaintext first; the
// caller clears out if tag is wrong).
//
//go:noinline
func openOne(ones []oneLayout, out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	l := oneFor(ones, len(ciphertext))
	if l == oneSliced || l == oneZ8 {
		return openDirect(out, ciphertext, ad, tag, key, nonce12)
	}
	var st openState
	st.init(key, nonce12, 1)
	i := putOpenMAC(st.mac[:], st.hi[:], ad, ciphertext)
	st.lengths(len(ad), len(ciphertext))
	copy(st.buf[:], ciphertext)
	openOneCall(l, openSteps-i+1, (*[1496]byte)(unsafe.Pointer(&st)))
	ok := tags.Equal(&st.tag, tag)
	if ok {
		copy(out, st.buf[:len(ciphertext)])
	}
	st.clear()
	clear(st.buf[:])
	return ok
}

// directState is the direct kernels' argument (sealDirect*, seal*DirectAVX2,
// openDirectAVX2, openTenAVX2); its layout is fixed by the generator's
// offsets (sd* in _asm/chacha20poly1305/stitched.go).
type directState struct {
	keyHead
	ad   [16]byte // the additional data's MAC block
	lens [16]byte // the lengths' MAC block
	tail [32]byte // the message's last n mod 32 bytes in; their output out
	adHi uint64   // the additional data block's 2^128 bit
}

var _ = [1]struct{}{}[unsafe.Offsetof(directState{}.ad)-144+unsafe.Offsetof(directState{}.adHi)-208+unsafe.Sizeof(directState{})-216]

// sealDirect is sealOne on layout l, oneSliced (257 to oneMax bytes) or
// oneY4, and sealTwo: the direct kernel (see sealDirectCall) reads the
// plaintext and writes the ciphertext itself, but for the last
// len(plaintext) mod 32 bytes, which go through st.tail.
//
//go:noinline
func sealDirect(l oneLayout, ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	var st directState
	full := st.prepare(ad, plaintext, key, nonce12)
	sealDirectCall(l, &st, ciphertext, plaintext)
	copy(ciphertext[full:], st.tail[:])
	copyTag(tag, &st.tag)
	st.clear()
}

// prepare loads st for a direct kernel over msg: the ChaCha20 state from
// block 1, the MAC blocks of ad (one at most) and of the lengths, and
// msg's last len(msg) mod 32 bytes in the tail, from full on (returned).
func (st *directState) prepare(ad, msg []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) (full int) {
	st.init(key, nonce12, 1)
	if len(ad) > 0 {
		copy(st.ad[:], ad)
		st.adHi = 1
	}
	lengthsBlock(&st.lens, len(ad), len(msg))
	full = len(msg) &^ 31
	copy(st.tail[:], msg[full:])
	return full
}

// sealOne is Seal for a message of up to oneMax bytes with up to 16 bytes
// of additional data: one kernel call from ones.
//
//go:noinline
func sealOne(ones []oneLayout, ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	l := oneFor(ones, len(plaintext))
	if l == oneSliced || l == oneY4 {
		sealDirect(l, ciphertext, plaintext, ad, tag, key, nonce12)
		return
	}
	var st openState
	st.sealInput(ad, len(plaintext), key, nonce12)
	copy(st.buf[:], plaintext)
	st.n = uint64(len(plaintext))
	sealOneCall(l, (*[1496]byte)(unsafe.Pointer(&st)))
	copy(ciphertext, st.buf[:len(plaintext)])
	copyTag(tag, &st.tag)
	st.clear()
	clear(st.buf[:])
}

// sealTwo is Seal on the avx2-stitched path for a message of oneMax+1 to
// fourMax bytes with up to 16 bytes of additional data: one call of
// sealTenDirectAVX2 (up to tenMax bytes: one batch with two more blocks
// beside it), sealTwoDirectAVX2 (up to twoMax), sealEighteenDirectAVX2 (up
// to eighteenMax: two batches, two more blocks beside the second),
// sealThreeDirectAVX2 (3*batch+1 to threeMax: three batches, two more
// blocks beside the first) or sealFourDirectAVX2, the batches with the
// MAC beside and after them (measured on Zen 5 under avx512=off,
// same run: 1 KiB about 1.3x the three stitched calls with their Go code
// between, 768 bytes about 1.45x; reading and writing the caller's memory
// instead of a buffer, 576 bytes to 2 KiB 4-9% more, medians over 16
// placements of the message). sealTenDirectAVX2 and openTenAVX2 against
// sealTwoDirectAVX2 and openTwoAVX2 at 544 to 640 bytes, measured on Zen 5
// under avx512=off side by side in one process (three builds, six
// placements each): Seal 10-20% quicker, Open 8-25%;
// sealEighteenDirectAVX2 against sealFourDirectAVX2's three batches at 1025 to 1152 bytes, ratio
// to x/crypto about 1.0x -> 1.0-1.2x (two builds alternated).
//
//go:noinline
func sealTwo(ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	sealDirect(oneSliced, ciphertext, plaintext, ad, tag, key, nonce12)
}

// openTwo is Open on the avx2-stitched path for a message of oneMax+1 to
// fourMax bytes with up to 16 bytes of additional data: one call of
// openTenAVX2 or openTwoDirectAVX2 (up to tenMax and twoMax bytes,
// through openDirect), openEighteenAVX2 (up to eighteenMax: two batches,
// two more blocks beside the first), openThreeAVX2 (3*batch+1 to threeMax:
// three batches, two more blocks beside the first) or openFourAVX2 (see
// sealTwo). It writes the plaintext to out only if tag is right, but for
// openDirect, which writes it first (the caller clears out if tag is
// wrong).
//
// openTwoDirectAVX2 runs all of its MAC beside its second batch's rounds
// (_asm/chacha20poly1305/opentwo.go) and takes the message where it is;
// it replaced openTwoAVX2, two batches over a buffer in its state with the
// second batch's MAC after them (measured on Zen 5 under avx512=off, ratio
// to x/crypto in one run, Open of 768 bytes and 1 KiB: that kernel 1.23x
// and 1.18x; with the MAC beside the rounds, still on the buffer, 1.41x
// and 1.25x; direct, 1.40-1.6x and 1.4-1.56x, the spread from one
// placement of the frame to another, see openTwoPad in the generator).
//
//go:noinline
func openTwo(out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	if len(ciphertext) <= twoMax {
		return openDirect(out, ciphertext, ad, tag, key, nonce12)
	}
	var st fourState
	n := len(ciphertext)
	// Direct calls in a switch, not a kernel chosen as a func value: an
	// indirect call would move st (3 KB) to the heap.
	return st.openVia(func() {
		p := (*[3032]byte)(unsafe.Pointer(&st))
		switch {
		case n > 3*batch && n <= threeMax:
			openThreeAVX2(p)
		case n <= eighteenMax:
			openEighteenAVX2(p)
		default:
			openFourAVX2(p)
		}
	}, st.buf[:], &st.n, out, ciphertext, ad, tag, key, nonce12)
}

// openDirect is Open of 257 to twoMax bytes with up to 16 bytes of
// additional data on the direct kernels (openDirectCall: openDirectAVX2,
// the word-sliced batch, past oneMax openTenAVX2, two more blocks beside
// it, past tenMax openTwoDirectAVX2, two batches): the kernel absorbs the ciphertext where it is and then writes the
// plaintext to out itself, but for the last len(ciphertext) mod 32 bytes,
// which go through st.tail and reach out only with the tag right. It
// writes out before the tag is checked: the caller clears out if the tag
// is wrong, as x/crypto does.
//
// openOne's and openTwo's kernels take the message through a buffer in
// their state instead (1.5 or 2 KB to zero, two copies in, one out).
// Measured on Zen 5 under avx512=off, the Go code around the word-sliced
// openOne kernel this replaced (openOneAVX2) took about 90 ns of a
// 320-byte Open of about 340; side by side in one process, ratio to
// x/crypto at 288 to 512 bytes 0.75-1.14x -> 0.79-1.42x. The ifma path,
// whose one-call kernels are ZMM rows, takes it too instead of its
// eight-block openOne34Z8 (ratio to x/crypto, same build switched by an
// environment variable: 288 bytes 0.90-0.99x -> 1.06-1.07x, 320
// 0.99-1.05x -> 1.08-1.09x, 352 about even; in other builds, two
// alternated, 384 to 512 bytes 1.21-1.27x -> 1.38-1.41x, openOne34Z8's
// speed there varying with the build, 1.2x to 1.46x).
//
//go:noinline
func openDirect(out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	var st directState
	full := st.prepare(ad, ciphertext, key, nonce12)
	openDirectCall(&st, out, ciphertext)
	ok := tags.Equal(&st.tag, tag)
	if ok {
		copy(out[full:], st.tail[:])
	}
	st.clear()
	clear(st.tail[:])
	return ok
}

// openVia runs an Open kernel on the state st heads: the
// plaintext's first batch comes back in st.mac, the rest at buf's start.
func (st *oneHead) openVia(kernel func(), buf []byte, n *uint64, out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	st.sealInput(ad, len(ciphertext), key, nonce12)
	copy(buf, ciphertext)
	*n = uint64(len(ciphertext))
	kernel()
	ok := tags.Equal(&st.tag, tag)
	first := unsafe.Slice(&st.mac[0][0], batch)
	if ok {
		copy(out, first)
		copy(out[batch:], buf[:len(ciphertext)-batch])
	}
	st.clear()
	clear(first)
	clear(buf[:len(ciphertext)]) // the plaintext and the keystream past it
	return ok
}

// sealInput loads the ChaCha20 state from block 1 and the MAC blocks Seal's
// one-call kernels read: the additional data (one block at most) and the
// lengths, for a message of n bytes.
func (st *oneHead) sealInput(ad []byte, n int, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	st.init(key, nonce12, 1)
	if len(ad) > 0 {
		copy(st.mac[openSteps-2][:], ad)
		st.hi[openSteps-2] = 1
	}
	st.lengths(len(ad), n)
}

// lengths writes the MAC's last block.
func (st *oneHead) lengths(adLen, msgLen int) {
	lengthsBlock(&st.mac[openSteps-1], adLen, msgLen)
	st.hi[openSteps-1] = 1
}
