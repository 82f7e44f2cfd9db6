package chacha20

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xchacha "golang.org/x/crypto/chacha20"
)

func xcryptoStream(key, nonce []byte) (cipher.Stream, error) {
	return xchacha.NewUnauthenticatedCipher(key, nonce)
}

// TestStreamSuite runs the shared stream-cipher suite on every path:
// differential against generic and x/crypto for every length 0..4096,
// counters at the 32-bit end, random splits, misuse, guard pages and
// concurrent use.
func TestMain(m *testing.M) { testkit.Main(m, "chacha20") }

func TestStreamSuite(t *testing.T) {
	testkit.RunStreamCipher(t, testkit.StreamSpec{
		Cipher:     "chacha20",
		KeySize:    KeySize,
		NonceSizes: []int{NonceSize, NonceSizeX},
		BlockSize:  blockSize,
		Reference:  xcryptoStream,
		MaxLen:     4096,
	})
}

// TestOffsets tries every source and destination offset 0..63 at lengths
// around the batch edges of every kernel width (4, 8, 16 and 32 blocks).
func TestOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	key, nonce := testkit.RandBytes(r, KeySize), testkit.RandBytes(r, NonceSize)
	lengths := []int{1, 63, 64, 65, 191, 255, 256, 257, 511, 512, 513, 767, 1023, 1024, 1025, 1535, 1792, 2047, 2048, 2049, 3071, 3073, 4159}
	src := testkit.RandBytes(r, 4159)
	ref, _ := xchacha.NewUnauthenticatedCipher(key, nonce)
	want := make([]byte, len(src))
	ref.XORKeyStream(want, src)
	srcBuf, dstBuf := make([]byte, len(src)+64), make([]byte, len(src)+64)
	forEachPath(t, func(t *testing.T, p path) {
		for _, n := range lengths {
			for so := 0; so < 64; so++ {
				for do := 0; do < 64; do += 1 + 6*(n&1) {
					in, out := srcBuf[so:so+n], dstBuf[do:do+n]
					copy(in, src)
					c, _ := newCipher(key, nonce, p)
					c.XORKeyStream(out, in)
					if !bytes.Equal(out, want[:n]) {
						t.Fatalf("len %d src offset %d dst offset %d: mismatch", n, so, do)
					}
				}
			}
		}
	})
}

// TestAgainstXCryptoOps drives each path, x/crypto and streamModel (the
// specification) through the same random sequence of XORs and SetCounter
// jumps (forward, within and before the current block, near 2^32), and
// checks that each path matches the model exactly: output and panics,
// message included.
//
// x/crypto is checked against the model too. Where it buffers one block at
// a time (its portable code, as on amd64) it must agree. Where it buffers
// four (its arm64, ppc64x, s390x and loong64 assembly) it does not always:
// a call that leaves a partial block when the counter is 2^32-4 makes the
// last four blocks at once and lets its counter wrap to 0 without setting
// its overflow flag, so a later call returns block 0's keystream again
// (keystream reuse) instead of panicking, and SetCounter accepts values
// below the position. This package follows RFC 8439 there and panics; the
// test logs each such divergence of x/crypto and stops comparing with it
// for that trial.
func TestAgainstXCryptoOps(t *testing.T) {
	// x/crypto has its 4-block assembly exactly where this build has the
	// stdlib path (the same build constraints).
	xcryptoBuffersOneBlock := !haveStdlib
	forEachPath(t, func(t *testing.T, p path) {
		r := rand.New(rand.NewPCG(3, uint64(p)))
		diverged := 0
		for trial := range 300 {
			key := testkit.RandBytes(r, KeySize)
			nonce := testkit.RandBytes(r, []int{NonceSize, NonceSizeX}[trial%2])
			ours, _ := newCipher(key, nonce, p)
			ref, _ := xchacha.NewUnauthenticatedCipher(key, nonce)
			mKey, mNonce := key, nonce
			if len(nonce) == NonceSizeX {
				// The model runs the IETF cipher under XChaCha20's subkey.
				mKey, _ = xchacha.HChaCha20(key, nonce[:16])
				mNonce = append(make([]byte, 4), nonce[16:]...)
			}
			model := &streamModel{key: mKey, nonce: mNonce}
			refAgrees := true
			var pos uint32 // a counter value near where the stream is
			if trial%3 == 0 {
				pos = 1<<32 - 1 - uint32(r.IntN(40))
				ours.SetCounter(pos)
				ref.SetCounter(pos)
				model.SetCounter(pos)
			}
			for op := range 30 {
				var got, want, xc string
				var what string
				switch r.IntN(4) {
				case 0:
					c := pos + uint32(r.IntN(5)) - 2 // may be a rollback
					what = fmt.Sprintf("SetCounter(%d)", c)
					got = testkit.PanicMessage(func() { ours.SetCounter(c) })
					xc = testkit.PanicMessage(func() { ref.SetCounter(c) })
					want = model.SetCounter(c)
					if want == "" {
						pos = c
					}
				default:
					n := r.IntN(300)
					if r.IntN(4) == 0 {
						n = r.IntN(2000)
					}
					what = fmt.Sprintf("XORKeyStream of %d bytes", n)
					src := testkit.RandBytes(r, n)
					a, b := make([]byte, n), make([]byte, n)
					got = testkit.PanicMessage(func() { ours.XORKeyStream(a, src) })
					xc = testkit.PanicMessage(func() { ref.XORKeyStream(b, src) })
					var exp []byte
					exp, want = model.XORKeyStream(src)
					if want == "" && got == "" && !bytes.Equal(a, exp) {
						t.Fatalf("trial %d op %d: %s differs from the specification", trial, op, what)
					}
					if refAgrees && want == "" && xc == "" && !bytes.Equal(b, exp) {
						xc = "(different keystream)"
					}
					pos += uint32(n / 64)
				}
				if got != want {
					t.Fatalf("trial %d op %d: %s: panic %q, want %q", trial, op, what, got, want)
				}
				if refAgrees && xc != want {
					if xcryptoBuffersOneBlock {
						t.Fatalf("trial %d op %d: %s: x/crypto panics %q, the specification %q: the model is wrong", trial, op, what, xc, want)
					}
					refAgrees = false
					diverged++
					if diverged <= 3 {
						t.Logf("trial %d op %d: %s: x/crypto on %s gives %q where RFC 8439 requires %q (its 4-block buffer let the counter wrap)", trial, op, what, runtime.GOARCH, xc, want)
					}
				}
				if want != "" {
					break
				}
			}
		}
		if diverged > 0 {
			t.Logf("x/crypto on %s diverged from the specification in %d of 300 trials; this path followed the specification in all", runtime.GOARCH, diverged)
		}
	})
}

func TestErrorsAndPanics(t *testing.T) {
	for _, k := range []int{0, 16, 31, 33} {
		if _, err := NewUnauthenticatedCipher(make([]byte, k), make([]byte, NonceSize)); err == nil {
			t.Errorf("accepted a %d-byte key", k)
		}
	}
	for _, n := range []int{0, 8, 11, 13, 16, 23, 25} {
		c, err := NewUnauthenticatedCipher(make([]byte, KeySize), make([]byte, n))
		if err == nil || c != nil {
			t.Errorf("nonce %d: got %v, %v; want nil and an error", n, c, err)
		}
	}
	c, _ := NewUnauthenticatedCipher(make([]byte, KeySize), make([]byte, NonceSize))
	ref, _ := xchacha.NewUnauthenticatedCipher(make([]byte, KeySize), make([]byte, NonceSize))
	buf := make([]byte, 300)
	for _, f := range []struct {
		name string
		call func(s interface{ XORKeyStream(d, s []byte) })
	}{
		{"short dst", func(s interface{ XORKeyStream(d, s []byte) }) { s.XORKeyStream(buf[:10], buf[100:200]) }},
		{"inexact overlap", func(s interface{ XORKeyStream(d, s []byte) }) { s.XORKeyStream(buf[1:201], buf[:200]) }},
	} {
		got, want := testkit.PanicMessage(func() { f.call(c) }), testkit.PanicMessage(func() { f.call(ref) })
		if got == "" || got != want {
			t.Errorf("%s: panic %q, x/crypto %q", f.name, got, want)
		}
	}
	// Exactly reaching block 2^32-1 is allowed; one byte more is not.
	c.SetCounter(1<<32 - 1)
	c.XORKeyStream(buf[:10], buf[:10])
	c.XORKeyStream(buf[:54], buf[:54])
	if msg := testkit.PanicMessage(func() { c.XORKeyStream(buf[:1], buf[:1]) }); msg != "chacha20: counter overflow" {
		t.Errorf("past the last block: panic %q", msg)
	}
	if msg := testkit.PanicMessage(func() { c.SetCounter(1<<32 - 1) }); msg != "chacha20: SetCounter attempted to rollback counter" {
		t.Errorf("SetCounter after overflow: panic %q", msg)
	}
}

// TestDispatch checks that dispatch picks the widest path and that every
// SIMDCRYPT_CPU mask falls back to the next one.
func TestDispatch(t *testing.T) {
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	for _, mask := range []string{"", "avx512=off", "avx512=off,avx2=off", "avx512=off,avx2=off,ssse3=off", "all=off", "avx2=off"} {
		restore := testkit.Mask(t, mask)
		want, why := paths.Path()
		c, _ := NewUnauthenticatedCipher(key, nonce)
		got := pathNames[c.path]
		var expect string
		switch {
		case cpu.Has(cpu.AVX512) && !cpu.Has(cpu.Prefer256):
			expect = "avx512"
		case cpu.Has(cpu.AVX512):
			expect = "avx512vl"
		case cpu.Has(cpu.AVX2):
			expect = "avx2"
		case cpu.Has(cpu.SSSE3):
			expect = "ssse3"
		default:
			expect = "generic"
		}
		if pathNames[pathByName(want.Name)] != got || (!purego && got != expect) {
			t.Errorf("mask %q: cipher uses %s, registry chose %s (%s), expected %s", mask, got, want.Name, why, expect)
		}
		t.Logf("mask %q: %s (%s)", mask, got, why)
		// The chosen path must still produce the RFC keystream.
		checkVector(t, c.path, "A.1 #1 under mask "+mask, key, nonce, 0, make([]byte, 64), unhex(vectors[2].cipher))
		restore()
	}
}

// TestDispatchDownclock checks that on a CPU that prefers 256-bit vectors
// dispatch keeps AVX-512 on YMM (avx512vl), and that the path still produces
// the RFC keystream.
func TestDispatchDownclock(t *testing.T) {
	if purego || !cpu.Has(cpu.AVX512) {
		t.Skip("needs AVX-512 kernels")
	}
	testkit.CheckPrefer256(t, "chacha20", "avx512", "avx512vl")
	defer cpu.PretendUarch("GenuineIntel", "Skylake-SP")()
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	c, _ := NewUnauthenticatedCipher(key, nonce)
	checkVector(t, c.path, "A.1 #1 on Skylake-SP", key, nonce, 0, make([]byte, 64), unhex(vectors[2].cipher))
}

// FuzzXORKeyStream runs every path against the specification model, whose
// keystream comes from x/crypto (see streamModel), over a counter, the
// data and a split of it into two calls.
func FuzzXORKeyStream(f *testing.F) {
	f.Add(make([]byte, KeySize), make([]byte, NonceSize), uint32(0), []byte("hello"), uint16(3))
	f.Add(make([]byte, KeySize), make([]byte, NonceSizeX), uint32(1<<32-3), make([]byte, 300), uint16(70))
	f.Add(make([]byte, KeySize), make([]byte, NonceSize), uint32(1<<32-4), make([]byte, 4*64+64), uint16(10))
	f.Fuzz(func(t *testing.T, key, nonce []byte, counter uint32, data []byte, split uint16) {
		if len(key) != KeySize || (len(nonce) != NonceSize && len(nonce) != NonceSizeX) {
			return
		}
		mKey, mNonce := key, nonce
		if len(nonce) == NonceSizeX {
			mKey, _ = xchacha.HChaCha20(key, nonce[:16])
			mNonce = append(make([]byte, 4), nonce[16:]...)
		}
		s := min(int(split), len(data))
		model := &streamModel{key: mKey, nonce: mNonce}
		model.SetCounter(counter)
		want0, wantPanic := model.XORKeyStream(data[:s])
		var want1 []byte
		if wantPanic == "" {
			want1, wantPanic = model.XORKeyStream(data[s:])
		}
		want := append(want0, want1...)
		for _, i := range testkit.Paths("chacha20") {
			if !i.Available() {
				continue
			}
			c, err := newCipher(key, nonce, pathByName(i.Name))
			if err != nil {
				t.Fatal(err)
			}
			c.SetCounter(counter)
			got := make([]byte, len(data))
			gotPanic := testkit.PanicMessage(func() {
				c.XORKeyStream(got[:s], data[:s])
				c.XORKeyStream(got[s:], data[s:])
			})
			if gotPanic != wantPanic || (wantPanic == "" && !bytes.Equal(got, want)) {
				t.Fatalf("%s: differs from the specification and x/crypto's keystream (panic %q vs %q)", i.Name, gotPanic, wantPanic)
			}
		}
	})
}

// TestCounterEndNoWrap pins down the case where x/crypto's four-block
// assembly (arm64, ppc64x, s390x, loong64) lets the counter wrap: a partial
// block at counter 2^32-4, the rest of the last four blocks, then one more
// block. RFC 8439 allows no block past 2^32-1, so every path must panic on
// the last call, and SetCounter must refuse to go back. What x/crypto does
// on this GOARCH is logged.
func TestCounterEndNoWrap(t *testing.T) {
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	run := func(c interface {
		SetCounter(uint32)
		XORKeyStream(dst, src []byte)
	}) (more, back string) {
		c.SetCounter(1<<32 - 4)
		buf := make([]byte, 4*blockSize)
		c.XORKeyStream(buf[:10], buf[:10])
		c.XORKeyStream(buf[10:], buf[10:])
		more = testkit.PanicMessage(func() { c.XORKeyStream(buf[:blockSize], buf[:blockSize]) })
		back = testkit.PanicMessage(func() { c.SetCounter(5) })
		return more, back
	}
	forEachPath(t, func(t *testing.T, p path) {
		c, _ := newCipher(key, nonce, p)
		more, back := run(c)
		if more != overflowPanic || back != rollbackPanic {
			t.Errorf("past block 2^32-1: panics %q and %q, want %q and %q", more, back, overflowPanic, rollbackPanic)
		}
	})
	ref, _ := xchacha.NewUnauthenticatedCipher(key, nonce)
	more, back := run(ref)
	if more == overflowPanic && back == rollbackPanic {
		t.Logf("x/crypto on %s agrees (it buffers one block here)", runtime.GOARCH)
	} else {
		t.Logf("x/crypto on %s wraps: one more block panics %q, SetCounter(5) panics %q (RFC 8439: no block past 2^32-1)", runtime.GOARCH, more, back)
	}
}
