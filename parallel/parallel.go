// Package parallel runs a stream cipher over one large buffer on several
// goroutines at once. Stream ciphers with random access into their
// keystream (CTR mode, ChaCha20) can encrypt each part of a buffer
// independently; this package splits the buffer, hands the parts to
// goroutines and returns when all are done. The output is the same as one
// serial call.
package parallel

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/simdcrypt/simdcrypt/internal/alias"
)

// SeekableStream is a stream cipher with random access into its keystream.
// XORKeyStreamAt XORs src with the keystream starting offset bytes into the
// stream, writes the result to dst and leaves the stream's own position (if
// it has one) alone. It must be safe to call from several goroutines at once
// on disjoint ranges.
//
// The CTR streams of simdcrypt's aes and aria packages (from their NewCTR,
// and from crypto/cipher.NewCTR over their blocks) and *chacha20.Cipher
// implement it.
type SeekableStream interface {
	XORKeyStreamAt(dst, src []byte, offset uint64)
}

// MinPartSize is the smallest part XORKeyStream hands to a goroutine of its
// own: below it starting a goroutine costs a noticeable share of the work.
// Buffers shorter than two parts run on the calling goroutine alone.
//
// It is also the size of the pieces the goroutines take: rather than one
// fixed share each, every goroutine takes the next piece not yet taken
// until none is left, so that on a shared machine a goroutine that loses
// its core for a while leaves its work to the others instead of holding
// up the call. It is a multiple of 64 bytes, so every piece but the last
// is a whole number of keystream blocks (16 bytes for CTR, 64 for
// ChaCha20) and no block is computed twice.
const MinPartSize = 256 << 10

// XORKeyStream XORs src with s's keystream starting offset bytes into the
// stream and writes the result to dst, as s.XORKeyStreamAt(dst, src,
// offset) would, using up to workers goroutines (the calling one among
// them). workers <= 0 means runtime.GOMAXPROCS(0). Buffers too short to
// split (see MinPartSize) run on the calling goroutine without starting
// any other.
//
// dst must be at least as long as src, and dst and src must overlap
// entirely or not at all; XORKeyStream panics otherwise, and where s panics
// for the range (one that runs past the end of its keystream), before
// writing anything.
func XORKeyStream(s SeekableStream, dst, src []byte, offset uint64, workers int) {
	if len(dst) < len(src) {
		panic("parallel: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("parallel: invalid buffer overlap")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parts := min(workers, len(src)/MinPartSize)
	if parts <= 1 {
		s.XORKeyStreamAt(dst, src, offset)
		return
	}

	// Let s reject the range here, on the caller's goroutine and before
	// any part is written: a range that is valid up to its last byte is
	// valid everywhere. The probe writes only to a scratch byte.
	var probe [1]byte
	s.XORKeyStreamAt(probe[:], probe[:], offset+uint64(len(src)-1))

	var (
		wg      sync.WaitGroup
		next    atomic.Int64 // the start of the next piece to take
		mu      sync.Mutex
		failure any
	)
	// The pieces run as the caller's own code would: with its
	// debug.SetPanicOnFault setting (a caller reading a mapped file turns
	// a fault into a panic it can recover), and with panics carried back
	// to it, after every piece has stopped writing, rather than ending the
	// program from another goroutine.
	panicOnFault := debug.SetPanicOnFault(true)
	debug.SetPanicOnFault(panicOnFault)
	piece := func(start, end int) {
		defer func() {
			if r := recover(); r != nil {
				mu.Lock()
				failure = r
				mu.Unlock()
			}
		}()
		s.XORKeyStreamAt(dst[start:end], src[start:end], offset+uint64(start))
	}
	take := func() {
		for {
			start := int(next.Add(MinPartSize)) - MinPartSize
			if start >= len(src) {
				return
			}
			piece(start, min(start+MinPartSize, len(src)))
		}
	}
	for range parts - 1 {
		wg.Go(func() {
			debug.SetPanicOnFault(panicOnFault)
			take()
		})
	}
	take()
	wg.Wait()
	if failure != nil {
		panic(failure)
	}
}
