package parallel_test

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/chacha20"
	"github.com/simdcrypt/simdcrypt/parallel"
)

// fakeStream is a cheap keystream (each byte a hash of its offset) that
// counts the parts it is called for and panics past its end.
type fakeStream struct {
	end   uint64
	calls atomic.Int32
}

func ks(off uint64) byte { return byte((off * 0x9e3779b97f4a7c15) >> 56) }

func (f *fakeStream) XORKeyStreamAt(dst, src []byte, offset uint64) {
	if offset+uint64(len(src)) > f.end {
		panic("fake: past the end")
	}
	if len(src) > 1 { // not XORKeyStream's one-byte probe of the range
		f.calls.Add(1)
	}
	for i := range src {
		dst[i] = src[i] ^ ks(offset+uint64(i))
	}
}

// sizes are every length to 300, then lengths around the split points up
// to a few MiB.
func sizes() []int {
	var s []int
	for n := 0; n <= 300; n++ {
		s = append(s, n)
	}
	for _, m := range []int{1, 2, 3, 5, 9, 16} {
		for _, d := range []int{-65, -1, 0, 1, 63, 4097} {
			s = append(s, m*parallel.MinPartSize+d)
		}
	}
	return s
}

// pieces is the number of XORKeyStreamAt calls fakeStream counts for n
// bytes on workers goroutines: one where n is too short for two parts,
// else one per piece (but a last piece of one byte, which it takes for
// the probe).
func pieces(n, workers int) int {
	if min(workers, n/parallel.MinPartSize) <= 1 {
		return 1
	}
	if n%parallel.MinPartSize == 1 {
		n--
	}
	return (n + parallel.MinPartSize - 1) / parallel.MinPartSize
}

func TestAgainstSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]byte, 16*parallel.MinPartSize+4097)
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	dst := make([]byte, len(src))
	for _, n := range sizes() {
		for workers := 1; workers <= 64; workers++ {
			if n > 3*parallel.MinPartSize && workers != 1 && workers != 2 && workers != 7 && workers != 64 {
				continue // keep the run short: the large sizes take a sample of worker counts
			}
			off := r.Uint64N(1 << 40)
			f := &fakeStream{end: 1 << 41}
			clear(dst[:n])
			parallel.XORKeyStream(f, dst[:n], src[:n], off, workers)
			for i := range n {
				if dst[i] != src[i]^ks(off+uint64(i)) {
					t.Fatalf("%d bytes, %d workers: wrong byte %d", n, workers, i)
				}
			}
			want := int32(pieces(n, workers))
			if n <= 1 {
				want = 0 // uncounted
			}
			if f.calls.Load() != want {
				t.Fatalf("%d bytes, %d workers: %d parts, want %d", n, workers, f.calls.Load(), want)
			}
		}
	}
}

func TestInPlaceAndDefaultWorkers(t *testing.T) {
	n := 5*parallel.MinPartSize + 77
	buf := make([]byte, n)
	f := &fakeStream{end: 1 << 41}
	parallel.XORKeyStream(f, buf, buf, 3, 0)
	for i := range buf {
		if buf[i] != ks(3+uint64(i)) {
			t.Fatalf("wrong byte %d", i)
		}
	}
	if want := int32(pieces(n, runtime.GOMAXPROCS(0))); f.calls.Load() != want {
		t.Errorf("default workers: %d parts, want %d", f.calls.Load(), want)
	}
}

func TestMisuse(t *testing.T) {
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", what)
			}
		}()
		f()
	}
	big := make([]byte, 4*parallel.MinPartSize)
	f := &fakeStream{end: uint64(len(big)) + 10}
	mustPanic("short dst", func() { parallel.XORKeyStream(f, big[:10], big[:11], 0, 4) })
	mustPanic("inexact overlap", func() { parallel.XORKeyStream(f, big[1:], big[:len(big)-1], 0, 4) })
	out := make([]byte, len(big))
	mustPanic("past the end", func() { parallel.XORKeyStream(f, out, big, 11, 4) })
	if f.calls.Load() != 0 || !bytes.Equal(out, make([]byte, len(out))) {
		t.Errorf("a range past the end wrote output before panicking")
	}
}

// panicky panics for one range in the middle of the buffer, which the
// probe of the last byte does not see.
type panicky struct{ fakeStream }

func (p *panicky) XORKeyStreamAt(dst, src []byte, offset uint64) {
	if offset == 2*parallel.MinPartSize {
		panic("panicky")
	}
	p.fakeStream.XORKeyStreamAt(dst, src, offset)
}

// TestPanicCarriedBack checks that a panic in a part's goroutine reaches
// the caller, where it can be recovered.
func TestPanicCarriedBack(t *testing.T) {
	buf := make([]byte, 4*parallel.MinPartSize)
	defer func() {
		if r := recover(); r != "panicky" {
			t.Errorf("recovered %v, want the part's panic", r)
		}
	}()
	parallel.XORKeyStream(&panicky{fakeStream{end: 1 << 40}}, buf, buf, 0, 4)
}

// TestRealCiphers runs AES-CTR and ChaCha20 through XORKeyStream against
// their serial XORKeyStream.
func TestRealCiphers(t *testing.T) {
	block, _ := aes.NewCipher(make([]byte, 16))
	iv := bytes.Repeat([]byte{0xff}, 16) // the counter wraps 2^128 at once
	key, nonce := make([]byte, chacha20.KeySize), make([]byte, chacha20.NonceSize)
	streams := map[string]func() cipher.Stream{
		"aes-ctr":  func() cipher.Stream { return cipher.NewCTR(block, iv) },
		"chacha20": func() cipher.Stream { c, _ := chacha20.NewUnauthenticatedCipher(key, nonce); return c },
	}
	src := make([]byte, 3*parallel.MinPartSize+1000)
	for i := range src {
		src[i] = byte(i * 7)
	}
	for name, mk := range streams {
		want := make([]byte, len(src))
		mk().XORKeyStream(want, src)
		for _, n := range []int{0, 100, 2*parallel.MinPartSize + 5, len(src)} {
			for _, workers := range []int{1, 2, 3, 64} {
				t.Run(fmt.Sprintf("%s/%d/%d", name, n, workers), func(t *testing.T) {
					got := make([]byte, n)
					parallel.XORKeyStream(mk().(parallel.SeekableStream), got, src[:n], 0, workers)
					if !bytes.Equal(got, want[:n]) {
						t.Fatal("differs from the serial stream")
					}
				})
			}
		}
	}
}
