package testkit

import (
	"bytes"
	"crypto/cipher"
	"math/rand/v2"
	"sync"
	"testing"
)

// StreamAt is a stream with random access: XORKeyStreamAt XORs the
// keystream found offset bytes into the stream, leaving the position of
// XORKeyStream alone.
type StreamAt interface {
	cipher.Stream
	XORKeyStreamAt(dst, src []byte, offset uint64)
}

// CheckStreamAt tests XORKeyStreamAt of the streams newStream returns (each
// call a fresh stream over the same key and IV) against their own serial
// XORKeyStream: every offset and length near the start, random ranges
// further in, in place, with the serial position elsewhere, on disjoint
// ranges from many goroutines at once, misuse, and against guard pages.
// blockSize is the keystream block: lengths and offsets cluster around its
// multiples.
func CheckStreamAt(t *testing.T, blockSize int, newStream func() StreamAt) {
	t.Helper()
	const streamLen = 1<<14 + 123
	ks := make([]byte, streamLen)
	newStream().XORKeyStream(ks, ks)
	r := rand.New(rand.NewPCG(uint64(blockSize), 16))
	st := newStream()

	check := func(what string, off, n int, inPlace bool) {
		t.Helper()
		src := RandBytes(r, n)
		want := make([]byte, n)
		for i := range want {
			want[i] = src[i] ^ ks[off+i]
		}
		dst := make([]byte, n)
		if inPlace {
			dst = append([]byte(nil), src...)
			src = dst
		}
		st.XORKeyStreamAt(dst, src, uint64(off))
		if !bytes.Equal(dst, want) {
			t.Fatalf("%s: offset %d, %d bytes (in place %v): differs from the serial stream at byte %d", what, off, n, inPlace, diffAt(dst, want))
		}
	}
	t.Run("Edges", func(t *testing.T) {
		for off := 0; off <= 3*blockSize; off++ {
			for n := 0; n <= 9*blockSize+1; n += 1 + n/5 {
				check("edges", off, n, off%3 == 0)
			}
		}
	})
	t.Run("Random", func(t *testing.T) {
		for range 300 {
			n := r.IntN(2000)
			if r.IntN(4) == 0 {
				n = r.IntN(streamLen)
			}
			off := r.IntN(streamLen - n + 1)
			if r.IntN(3) == 0 {
				off &^= blockSize - 1
			}
			check("random", off, n, r.IntN(2) == 0)
		}
	})
	t.Run("PositionUntouched", func(t *testing.T) {
		s := newStream()
		got := make([]byte, 3000)
		s.XORKeyStream(got[:77], got[:77])
		junk := make([]byte, 500)
		s.XORKeyStreamAt(junk, junk, 1000)
		s.XORKeyStreamAt(junk[:3], junk[:3], 5)
		s.XORKeyStream(got[77:], got[77:])
		if !bytes.Equal(got, ks[:len(got)]) {
			t.Fatalf("XORKeyStream after XORKeyStreamAt differs at byte %d", diffAt(got, ks[:len(got)]))
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		// Disjoint ranges of one buffer from many goroutines on one
		// stream, while another goroutine runs the stream's serial
		// XORKeyStream: under -race this checks that XORKeyStreamAt
		// writes nothing shared.
		s := newStream()
		buf := make([]byte, streamLen)
		var wg sync.WaitGroup
		const workers = 16
		for w := range workers {
			wg.Go(func() {
				for off := w * 97; off < streamLen; off += workers * 97 {
					end := min(off+97, streamLen)
					s.XORKeyStreamAt(buf[off:end], buf[off:end], uint64(off))
				}
			})
		}
		serial := make([]byte, 4096)
		wg.Go(func() {
			for i := 0; i < len(serial); i += 100 {
				s.XORKeyStream(serial[i:min(i+100, len(serial))], serial[i:min(i+100, len(serial))])
			}
		})
		wg.Wait()
		if !bytes.Equal(buf, ks) {
			t.Fatalf("concurrent XORKeyStreamAt differs at byte %d", diffAt(buf, ks))
		}
		if !bytes.Equal(serial, ks[:len(serial)]) {
			t.Fatalf("XORKeyStream next to XORKeyStreamAt differs at byte %d", diffAt(serial, ks[:len(serial)]))
		}
	})
	t.Run("Misuse", func(t *testing.T) {
		buf := make([]byte, 100)
		MustPanic(t, "short dst", func() { st.XORKeyStreamAt(buf[:10], buf[20:31], 0) })
		MustPanic(t, "inexact overlap", func() { st.XORKeyStreamAt(buf[1:50], buf[:49], 3) })
		st.XORKeyStreamAt(buf[:0], buf[:0], 0) // empty is fine
	})
	t.Run("GuardPages", func(t *testing.T) {
		for _, n := range []int{1, blockSize - 1, blockSize + 1, 4*blockSize + 3, 33*blockSize - 5} {
			for _, off := range []int{0, 1, blockSize - 1, 5 * blockSize} {
				for _, atEnd := range []bool{true, false} {
					src, freeSrc, ok := Guarded(n, atEnd)
					if !ok {
						t.Skip("no guard pages on this system")
					}
					dst, freeDst, _ := Guarded(n, !atEnd)
					for i := range src {
						src[i] = byte(i)
					}
					st.XORKeyStreamAt(dst, src, uint64(off))
					for i := range dst {
						if dst[i] != byte(i)^ks[off+i] {
							t.Fatalf("guarded %d bytes at offset %d: wrong byte %d", n, off, i)
						}
					}
					st.XORKeyStreamAt(src, src, uint64(off))
					if !bytes.Equal(src, dst) {
						t.Fatalf("guarded %d bytes at offset %d in place: differs", n, off)
					}
					freeSrc()
					freeDst()
				}
			}
		}
	})
}

// diffAt returns the index of the first byte where a and b differ, or -1.
func diffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
