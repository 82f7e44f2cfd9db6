package testkit

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// StreamSpec describes a stream cipher to RunStreamCipher.
type StreamSpec struct {
	Cipher     string
	KeySize    int
	NonceSizes []int
	BlockSize  int // keystream block size, for lengths around batch edges
	// Reference is an independent implementation (x/crypto for ChaCha20).
	// When nil, the registered "generic" path serves as the reference.
	Reference func(key, nonce []byte) (cipher.Stream, error)
	MaxLen    int // differential lengths run 0..MaxLen
}

// counterSetter is the optional SetCounter method of ChaCha20-style streams.
type counterSetter interface{ SetCounter(uint32) }

// RunStreamCipher tests every registered implementation of the cipher.
func RunStreamCipher(t *testing.T, spec StreamSpec) {
	s := streamSuite{StreamSpec: spec, generic: mustGeneric(t, spec.Cipher), reference: spec.Reference}
	if s.reference == nil {
		s.reference = s.generic.NewStream
	}
	runSuite(t, spec.Cipher, s)
}

// streamSuite is RunStreamCipher's battery: the spec, the generic path and
// the reference.
type streamSuite struct {
	StreamSpec
	generic   *catalog.Path
	reference func(key, nonce []byte) (cipher.Stream, error)
}

// noAllocs checks that XORKeyStream allocates nothing.
func (s streamSuite) noAllocs(t *testing.T, i *catalog.Path) {
	st, _ := i.NewStream(make([]byte, s.KeySize), make([]byte, s.NonceSizes[0]))
	buf := make([]byte, 4096+7)
	for _, n := range []int{1, 64, 100, 1024, len(buf)} {
		if a := testing.AllocsPerRun(20, func() { st.XORKeyStream(buf[:n], buf[:n]) }); a != 0 {
			t.Errorf("XORKeyStream of %d bytes: %v allocations per call", n, a)
		}
	}
}

func (s streamSuite) sizes(t *testing.T, i *catalog.Path) {
	for k := 0; k <= 64; k++ {
		for _, n := range []int{0, 8, 12, 16, 24, 32} {
			_, err := i.NewStream(make([]byte, k), make([]byte, n))
			valid := k == s.KeySize && slices.Contains(s.NonceSizes, n)
			if valid != (err == nil) {
				t.Errorf("key %d nonce %d: err = %v", k, n, err)
			}
		}
	}
}

func xorAll(t testing.TB, newStream func(key, nonce []byte) (cipher.Stream, error), key, nonce, src []byte) []byte {
	t.Helper()
	st, err := newStream(key, nonce)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, len(src))
	st.XORKeyStream(out, src)
	return out
}

func (s streamSuite) differential(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(11, uint64(len(i.Name))))
	src := RandBytes(r, s.MaxLen)
	srcBuf := make([]byte, s.MaxLen+64)
	dstBuf := make([]byte, s.MaxLen+65)
	for _, ns := range s.NonceSizes {
		key, nonce := RandBytes(r, s.KeySize), RandBytes(r, ns)
		refOut := xorAll(t, s.reference, key, nonce, src)
		if g := xorAll(t, s.generic.NewStream, key, nonce, src); !bytes.Equal(g, refOut) {
			t.Fatalf("nonce %d: generic differs from reference", ns)
		}
		for n := 0; n <= s.MaxLen; n++ {
			so, do := n%64, (n*13+7)%64
			in := srcBuf[so : so+n]
			copy(in, src[:n])
			dst := dstBuf[do : do+n]
			dstBuf[do+n] = 0xa5
			st, _ := i.NewStream(key, nonce)
			st.XORKeyStream(dst, in)
			if !bytes.Equal(dst, refOut[:n]) {
				t.Fatalf("nonce %d len %d (offsets %d,%d): mismatch", ns, n, so, do)
			}
			if dstBuf[do+n] != 0xa5 {
				t.Fatalf("nonce %d len %d: wrote past the end of dst", ns, n)
			}
			st, _ = i.NewStream(key, nonce)
			st.XORKeyStream(in, in)
			if !bytes.Equal(in, refOut[:n]) {
				t.Fatalf("nonce %d len %d in place: mismatch", ns, n)
			}
		}
	}
}

// counters starts just below the 32-bit block counter's end and
// checks output and the overflow panic against the reference.
func (s streamSuite) counters(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(12, 12))
	key, nonce := RandBytes(r, s.KeySize), RandBytes(r, s.NonceSizes[0])
	probe, _ := i.NewStream(key, nonce)
	if _, ok := probe.(counterSetter); !ok {
		t.Skipf("%s streams have no SetCounter", s.Cipher)
	}
	src := RandBytes(r, 40*s.BlockSize)
	for _, left := range []uint32{1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33} {
		for _, n := range []int{1, s.BlockSize, int(left) * s.BlockSize, int(left)*s.BlockSize + 1, len(src)} {
			ours, _ := i.NewStream(key, nonce)
			ref, _ := s.reference(key, nonce)
			ours.(counterSetter).SetCounter(-left)
			ref.(counterSetter).SetCounter(-left)
			got, want := make([]byte, n), make([]byte, n)
			gotPanic := panics(func() { ours.XORKeyStream(got, src[:n]) })
			wantPanic := panics(func() { ref.XORKeyStream(want, src[:n]) })
			if gotPanic != wantPanic {
				t.Fatalf("%d blocks left, len %d: panic = %v, reference panic = %v", left, n, gotPanic, wantPanic)
			}
			if !wantPanic && !bytes.Equal(got, want) {
				t.Fatalf("%d blocks left, len %d: mismatch", left, n)
			}
		}
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

func (s streamSuite) split(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(13, 13))
	for trial := 0; trial < 50; trial++ {
		key, nonce := RandBytes(r, s.KeySize), RandBytes(r, s.NonceSizes[trial%len(s.NonceSizes)])
		n := r.IntN(5000)
		src := RandBytes(r, n)
		whole := xorAll(t, i.NewStream, key, nonce, src)
		st, _ := i.NewStream(key, nonce)
		got := make([]byte, n)
		for off := 0; off < n; {
			m := min(n-off, r.IntN(3*s.BlockSize+1))
			if r.IntN(3) == 0 {
				m = min(n-off, r.IntN(9))
			}
			st.XORKeyStream(got[off:off+m], src[off:off+m])
			off += m
		}
		if !bytes.Equal(got, whole) {
			t.Fatalf("len %d: pieces differ from one call", n)
		}
	}
}

func (s streamSuite) misuse(t *testing.T, i *catalog.Path) {
	buf := make([]byte, 300)
	st, _ := i.NewStream(make([]byte, s.KeySize), make([]byte, s.NonceSizes[0]))
	MustPanic(t, "inexact overlap", func() { st.XORKeyStream(buf[1:201], buf[:200]) })
	MustPanic(t, "short dst", func() { st.XORKeyStream(buf[:10], buf[100:200]) })
}

func (s streamSuite) guardPages(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(14, 14))
	key, nonce := RandBytes(r, s.KeySize), RandBytes(r, s.NonceSizes[0])
	eachGuarded(t, false, func(src, dst []byte) {
		n := len(src)
		data := RandBytes(r, n)
		copy(src, data)
		want := xorAll(t, s.reference, key, nonce, data)
		st, _ := i.NewStream(key, nonce)
		st.XORKeyStream(dst, src)
		if !bytes.Equal(dst, want) {
			t.Fatalf("len %d guarded: mismatch", n)
		}
		st, _ = i.NewStream(key, nonce)
		st.XORKeyStream(src, src)
		if !bytes.Equal(src, want) {
			t.Fatalf("len %d guarded in place: mismatch", n)
		}
	})
}

// concurrent runs independent streams of one implementation on
// many goroutines: kernels must keep no shared mutable state.
func (s streamSuite) concurrent(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(15, 15))
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := 0; g < 8; g++ {
		key, nonce := RandBytes(r, s.KeySize), RandBytes(r, s.NonceSizes[g%len(s.NonceSizes)])
		src := RandBytes(r, 4096+g*s.BlockSize+g)
		want := xorAll(t, s.reference, key, nonce, src)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := 0; rep < 20; rep++ {
				st, _ := i.NewStream(key, nonce)
				got := make([]byte, len(src))
				st.XORKeyStream(got, src)
				if !bytes.Equal(got, want) {
					errs <- fmt.Sprintf("goroutine %d: mismatch", g)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
