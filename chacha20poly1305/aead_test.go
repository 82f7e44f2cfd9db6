package chacha20poly1305

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xcp "golang.org/x/crypto/chacha20poly1305"
)

// TestMain prints which paths ran and which this CPU or mask rules out.
func TestMain(m *testing.M) {
	testkit.Main(m, "chacha20poly1305", "xchacha20poly1305")
}

// forEachPath runs f for every path of this build, skipping (with the
// reason) those the CPU lacks or the mask rules out.
func forEachPath(t *testing.T, f func(t *testing.T, name string)) {
	t.Helper()
	for _, p := range paths {
		t.Run(p.Name, func(t *testing.T) {
			if !p.Available() {
				t.Skipf("%s needs %v, which this CPU lacks or SIMDCRYPT_CPU masks", p.Name, p.Requires)
			}
			f(t, p.Name)
		})
	}
}

// pair is one of our AEADs beside x/crypto's for the same key.
func pair(t testing.TB, name string, key []byte, x bool) (ours, ref cipher.AEAD) {
	var err error
	ours, err = newOn(name, key, x)
	if err != nil {
		t.Fatal(err)
	}
	if x {
		ref, err = xcp.NewX(key)
	} else {
		ref, err = xcp.New(key)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ours, ref
}

func TestAPI(t *testing.T) {
	for _, x := range []bool{false, true} {
		newF, xNew := New, xcp.New
		if x {
			newF, xNew = NewX, xcp.NewX
		}
		for _, n := range []int{0, 16, 31, 33, 64} {
			_, err := newF(make([]byte, n))
			_, xerr := xNew(make([]byte, n))
			if err == nil || xerr == nil || err.Error() != xerr.Error() {
				t.Errorf("x=%v key of %d bytes: error %v, x/crypto %v", x, n, err, xerr)
			}
		}
		a, err := newF(make([]byte, KeySize))
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := xNew(make([]byte, KeySize))
		if a.NonceSize() != ref.NonceSize() || a.Overhead() != ref.Overhead() {
			t.Errorf("x=%v: sizes %d/%d, x/crypto %d/%d", x, a.NonceSize(), a.Overhead(), ref.NonceSize(), ref.Overhead())
		}
		nonce := make([]byte, a.NonceSize())
		// Same panics, same messages.
		for _, bad := range []int{0, a.NonceSize() - 1, a.NonceSize() + 1} {
			checkSamePanic(t, "Seal short nonce", func(b cipher.AEAD) { b.Seal(nil, make([]byte, bad), nil, nil) }, a, ref)
			checkSamePanic(t, "Open short nonce", func(b cipher.AEAD) { b.Open(nil, make([]byte, bad), make([]byte, 16), nil) }, a, ref)
		}
		buf := make([]byte, 100)
		checkSamePanic(t, "inexact overlap Seal", func(b cipher.AEAD) { b.Seal(buf[:0], nonce, buf[1:50], nil) }, a, ref)
		checkSamePanic(t, "AD overlap Seal", func(b cipher.AEAD) { b.Seal(buf[:0], nonce, buf[60:70], buf[:10]) }, a, ref)
		sealed := ref.Seal(nil, nonce, make([]byte, 40), nil)
		copy(buf[1:], sealed)
		checkSamePanic(t, "inexact overlap Open", func(b cipher.AEAD) { b.Open(buf[:0], nonce, buf[1:1+len(sealed)], nil) }, a, ref)
		// Short ciphertexts fail with x/crypto's error.
		for n := range 16 {
			_, err := a.Open(nil, nonce, make([]byte, n), nil)
			_, xerr := ref.Open(nil, nonce, make([]byte, n), nil)
			if err == nil || err.Error() != xerr.Error() {
				t.Errorf("Open of %d bytes: %v, x/crypto %v", n, err, xerr)
			}
		}
	}
}

// checkSamePanic requires f to panic alike on ours and x/crypto's.
func checkSamePanic(t *testing.T, what string, f func(cipher.AEAD), ours, ref cipher.AEAD) {
	t.Helper()
	got, want := panicValue(func() { f(ours) }), panicValue(func() { f(ref) })
	if want == nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: panic %v, x/crypto %v", what, got, want)
	}
}

func panicValue(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// TestDifferential compares each path with x/crypto over every message
// length up to 2048 (600 with -short), every source offset mod 64, AD
// lengths up to 600, sealing in place, into fresh memory and appending to a
// prefix, and opening all three back.
func TestDifferential(t *testing.T) {
	maxLen, step := 2048, 1
	if testing.Short() {
		maxLen, step = 700, 3
	}
	forEachPath(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			key := testkit.RandBytes(rng, KeySize)
			ours, ref := pair(t, name, key, x)
			store := testkit.RandBytes(rng, maxLen+64+600+64)
			for n := 0; n <= maxLen; n += step {
				off := (n * 7) % 64
				adLen := (n * 13) % 601
				plain := store[off : off+n]
				ad := store[maxLen+64 : maxLen+64+adLen]
				nonce := testkit.RandBytes(rng, ours.NonceSize())
				checkOne(t, ours, ref, nonce, plain, ad, off)
			}
			// Every AD length with a few message lengths, every offset.
			for adLen := 0; adLen <= 600; adLen += step {
				nonce := testkit.RandBytes(rng, ours.NonceSize())
				checkOne(t, ours, ref, nonce, store[:adLen%97], store[maxLen+64:][:adLen], 0)
			}
			for off := range 64 {
				nonce := testkit.RandBytes(rng, ours.NonceSize())
				checkOne(t, ours, ref, nonce, store[off:off+300+off], store[:off], off)
			}
		}
	})
}

// TestSmallAD covers every message length up to 2048 bytes with the short
// additional data the fused, one-call and openFirstAVX2 kernels take (up to
// 16 bytes), and just past it, where TestDifferential's AD lengths rarely
// fall: every edge of the one-call kernels (64, 128, 256, 512, tenMax,
// twoMax, eighteenMax, 3*batch, threeMax, fourMax) with the lengths around it.
func TestSmallAD(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		rng := rand.New(rand.NewPCG(13, uint64(len(name))))
		ours, ref := pair(t, name, testkit.RandBytes(rng, KeySize), false)
		const maxLen = fourMax
		store := testkit.RandBytes(rng, maxLen+64+17)
		for n := 0; n <= maxLen; n++ {
			off := (n * 5) % 64
			for _, adLen := range []int{0, 1, 13, 16, 17} {
				nonce := testkit.RandBytes(rng, ours.NonceSize())
				checkOne(t, ours, ref, nonce, store[off:off+n], store[maxLen+64:][:adLen], off)
			}
		}
	})
}

// TestSealOneChains runs the one-call kernels' lengths (193..512 bytes,
// and the direct and multi-batch kernels' up to 2048, whose chains cover
// the last batch; openDirectAVX2's and openTenAVX2's cover all of the
// ciphertext) where their MAC's block count L (ciphertext blocks after the
// stitched ones, plus the lengths) is even and odd, at the edges of the
// row and word-sliced batches, under many keys: the kernels split the
// blocks into two Poly1305 chains and combine them with r^floor(L/2).
func TestSealOneChains(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		rng := rand.New(rand.NewPCG(17, uint64(len(name))))
		store := testkit.RandBytes(rng, 2048+16)
		for range 40 {
			ours, ref := pair(t, name, testkit.RandBytes(rng, KeySize), false)
			for _, n := range []int{193, 208, 209, 240, 256, 257, 272, 496, 497, 511, 512,
				513, 528, 529, 544, 545, 576, 577, 608, 639, 640, 641, 767, 768, 1007, 1008, 1009, 1023, 1024,
				1025, 1040, 1041, 1120, 1151, 1152, 1153, 1535, 1536, 1537, 1552, 1600, 1663, 1664, 1665, 2032, 2033, 2047, 2048} {
				for _, adLen := range []int{0, 16} {
					nonce := testkit.RandBytes(rng, ours.NonceSize())
					checkOne(t, ours, ref, nonce, store[:n], store[2048:][:adLen], 0)
				}
			}
		}
	})
}

// TestLong covers messages of many 512-byte batches (the stitched kernels'
// unit) with and without a tail, beyond TestDifferential's lengths: odd
// and even numbers of them (the wide kernels take two at a time).
func TestLong(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		rng := rand.New(rand.NewPCG(11, uint64(len(name))))
		ours, ref := pair(t, name, testkit.RandBytes(rng, KeySize), false)
		store := testkit.RandBytes(rng, 64<<10+1024)
		for i, n := range []int{2560, 3072 + 1, 4096, 4096 + 1, 4608, 8192 - 16, 16 << 10, 16<<10 + 100, 64<<10 + 17} {
			off := (i * 19) % 64
			nonce := testkit.RandBytes(rng, ours.NonceSize())
			checkOne(t, ours, ref, nonce, store[off:off+n], store[64<<10+64:][:i*37], off)
		}
	})
}

func checkOne(t *testing.T, ours, ref cipher.AEAD, nonce, plain, ad []byte, off int) {
	t.Helper()
	want := ref.Seal(nil, nonce, plain, ad)
	got := ours.Seal(nil, nonce, plain, ad)
	if !bytes.Equal(got, want) {
		t.Fatalf("len %d ad %d: Seal differs from x/crypto", len(plain), len(ad))
	}
	// Appending to a prefix, output at an odd offset.
	prefix := []byte("prefix-bytes")[:off%12]
	got = ours.Seal(append([]byte(nil), prefix...), nonce, plain, ad)
	if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("len %d ad %d: Seal appending to a prefix differs", len(plain), len(ad))
	}
	// In place, source at offset off within its buffer.
	buf := make([]byte, off+len(plain)+Overhead)
	copy(buf[off:], plain)
	got = ours.Seal(buf[off:off], nonce, buf[off:off+len(plain)], ad)
	if !bytes.Equal(got, want) {
		t.Fatalf("len %d ad %d: Seal in place differs", len(plain), len(ad))
	}
	// Open: fresh, appending, in place.
	p, err := ours.Open(nil, nonce, want, ad)
	if err != nil || !bytes.Equal(p, plain) {
		t.Fatalf("len %d ad %d: Open: %v", len(plain), len(ad), err)
	}
	p, err = ours.Open(append([]byte(nil), prefix...), nonce, want, ad)
	if err != nil || !bytes.Equal(p[len(prefix):], plain) || !bytes.Equal(p[:len(prefix)], prefix) {
		t.Fatalf("len %d ad %d: Open appending: %v", len(plain), len(ad), err)
	}
	copy(buf[off:], want)
	p, err = ours.Open(buf[off:off], nonce, buf[off:off+len(want)], ad)
	if err != nil || !bytes.Equal(p, plain) {
		t.Fatalf("len %d ad %d: Open in place: %v", len(plain), len(ad), err)
	}
}

// TestFlippedBit rejects every single-bit change of ciphertext, tag, AD and
// nonce, and leaves no plaintext in dst: the failed Open zeroes exactly the
// bytes it would have returned, and leaves a prefix it appends to, and the
// bytes past the output, as they were.
func TestFlippedBit(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		for _, x := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(3, 4))
			ours, _ := pair(t, name, testkit.RandBytes(rng, KeySize), x)
			// Up to 16 bytes of AD, 65..2048 bytes take the one-call Open:
			// one size in each kernel's range (openOne10Y2 100, openOne18Y4
			// 200, openDirectAVX2 300, openTenAVX2 600 and 640, openTwoDirectAVX2
			// 700, openEighteenAVX2 1100, openFourAVX2 1500 and 2048,
			// openThreeAVX2 1600); the direct kernels (257..640) write dst
			// before the tag is checked. With more AD, 1024 and 3077 bytes
			// take openWideAVX2 (3077: then openAVX2 and a tail).
			sizes := [][2]int{{0, 21}, {1, 21}, {63, 21}, {64, 21}, {100, 16}, {200, 0}, {300, 21}, {300, 13}, {600, 16}, {640, 0}, {1025, 21}, {700, 13}, {1100, 16}, {1500, 13}, {1600, 1}, {2048, 0}, {1024, 21}, {3077, 17}}
			if testing.Short() {
				sizes = [][2]int{{0, 21}, {17, 21}, {100, 16}, {300, 21}, {300, 13}, {600, 13}}
			}
			for _, size := range sizes {
				n := size[0]
				plain, ad := testkit.RandBytes(rng, n), testkit.RandBytes(rng, size[1])
				nonce := testkit.RandBytes(rng, ours.NonceSize())
				sealed := ours.Seal(nil, nonce, plain, ad)
				for _, field := range [][]byte{sealed, ad, nonce} {
					for bit := range 8 * len(field) {
						field[bit/8] ^= 1 << (bit % 8)
						// Into fresh memory, or appending to a prefix
						// (every other bit): dst is 0xa5 all through.
						pre := 3 * (bit % 2)
						dst := bytes.Repeat([]byte{0xa5}, pre+len(sealed)+32)
						out, err := ours.Open(dst[:pre], nonce, sealed, ad)
						field[bit/8] ^= 1 << (bit % 8)
						if err == nil || out != nil {
							t.Fatalf("len %d: flipped bit %d accepted", n, bit)
						}
						if !bytes.Equal(dst[pre:pre+n], make([]byte, n)) {
							t.Fatalf("len %d prefix %d: failed Open left data in dst", n, pre)
						}
						if !allA5(dst[:pre]) || !allA5(dst[pre+n:]) {
							t.Fatalf("len %d prefix %d: failed Open wrote outside its output", n, pre)
						}
					}
				}
				// In place: the failed Open zeroes the buffer it decrypted
				// into, and leaves the tag after it alone.
				sealed[0] ^= 1
				if n > 0 {
					tag := bytes.Clone(sealed[n:])
					if _, err := ours.Open(sealed[:0], nonce, sealed, ad); err == nil || !bytes.Equal(sealed[:n], make([]byte, n)) {
						t.Fatalf("len %d: failed in-place Open left data", n)
					}
					if !bytes.Equal(sealed[n:], tag) {
						t.Fatalf("len %d: failed in-place Open wrote over the tag", n)
					}
				}
			}
		}
	})
}

// allA5 reports whether b is all TestFlippedBit's filler byte 0xa5.
func allA5(b []byte) bool { return bytes.Count(b, []byte{0xa5}) == len(b) }

// TestGuardPages seals and opens with every buffer flush against
// unreadable pages, on both sides: lengths across the paths with additional
// data of n%61 bytes, and around every edge of the one-call kernels with
// the up to 16 bytes they take, opening into fresh memory and in place, and
// failing an Open (flipped tag) into fresh memory.
func TestGuardPages(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		ours, ref := pair(t, name, make([]byte, KeySize), false)
		nonce := make([]byte, NonceSize)
		for _, n := range []int{0, 1, 15, 16, 63, 64, 65, 255, 256, 300, 448, 449, 512, 513, 700, 959, 1024, 1300, 2000, 2496, 4097, 8192 + 17} {
			guardedRoundTrip(t, ours, ref, nonce, n, n%61)
		}
		for _, edge := range []int{64, 128, 256, oneMax, tenMax, twoMax, eighteenMax, 3 * batch, threeMax, fourMax} {
			for _, n := range []int{edge - 17, edge - 1, edge, edge + 1, edge + 31} {
				for _, adLen := range []int{0, 16} {
					guardedRoundTrip(t, ours, ref, nonce, n, adLen)
				}
			}
		}
	})
}

// guardedRoundTrip is TestGuardPages for an n-byte message and adLen bytes
// of additional data, each buffer flush against a guard page at one end
// and then the other.
func guardedRoundTrip(t *testing.T, ours, ref cipher.AEAD, nonce []byte, n, adLen int) {
	t.Helper()
	for _, atEnd := range []bool{false, true} {
		src, freeSrc, ok := testkit.Guarded(n, atEnd)
		if !ok {
			t.Skip("guard pages unavailable")
		}
		ad, freeAD, _ := testkit.Guarded(adLen, atEnd)
		dst, freeDst, _ := testkit.Guarded(n+Overhead, atEnd)
		plain, freePlain, _ := testkit.Guarded(n, atEnd)
		for i := range src {
			src[i] = byte(i)
		}
		want := ref.Seal(nil, nonce, src, ad)
		got := ours.Seal(dst[:0], nonce, src, ad)
		if !bytes.Equal(got, want) {
			t.Fatalf("len %d ad %d: Seal differs", n, adLen)
		}
		p, err := ours.Open(plain[:0], nonce, dst, ad)
		if err != nil || !bytes.Equal(p, src) {
			t.Fatalf("len %d ad %d: Open: %v", n, adLen, err)
		}
		dst[n] ^= 1
		if _, err := ours.Open(plain[:0], nonce, dst, ad); err == nil || !bytes.Equal(plain, make([]byte, n)) {
			t.Fatalf("len %d ad %d: failed Open accepted or left data", n, adLen)
		}
		dst[n] ^= 1
		p, err = ours.Open(dst[:0], nonce, dst, ad)
		if err != nil || !bytes.Equal(p, src) {
			t.Fatalf("len %d ad %d: Open in place: %v", n, adLen, err)
		}
		freeSrc()
		freeAD()
		freeDst()
		freePlain()
	}
}

func TestWycheproof(t *testing.T) {
	for _, f := range []struct {
		file string
		x    bool
	}{{"chacha20_poly1305_test.json", false}, {"xchacha20_poly1305_test.json", true}} {
		t.Run(f.file, func(t *testing.T) {
			tests := testkit.ReadWycheproof(t, testkit.SharedPath(t, "wycheproof/testvectors_v1/"+f.file))
			forEachPath(t, func(t *testing.T, name string) {
				valid, invalid := 0, 0
				for _, tc := range tests {
					key, iv, aad, msg := tc.Key, tc.IV, tc.Aad, tc.Msg
					sealed := append(append([]byte(nil), tc.Ct...), tc.Tag...)
					a, err := newOn(name, key, f.x)
					if err != nil {
						t.Fatalf("tcId %d: %v", tc.TcID, err)
					}
					if len(iv) != a.NonceSize() {
						// The API panics on other nonce sizes, as x/crypto's does.
						if tc.Result != "invalid" || panicValue(func() { a.Open(nil, iv, sealed, aad) }) == nil {
							t.Errorf("tcId %d: %d-byte nonce not refused", tc.TcID, len(iv))
						}
						invalid++
						continue
					}
					p, err := a.Open(nil, iv, sealed, aad)
					switch tc.Result {
					case "valid":
						if err != nil || !bytes.Equal(p, msg) {
							t.Errorf("tcId %d (%s): Open: %v", tc.TcID, tc.Comment, err)
						}
						if got := a.Seal(nil, iv, msg, aad); !bytes.Equal(got, sealed) {
							t.Errorf("tcId %d (%s): Seal differs", tc.TcID, tc.Comment)
						}
						valid++
					case "invalid":
						if err == nil {
							t.Errorf("tcId %d (%s): accepted", tc.TcID, tc.Comment)
						}
						invalid++
					default:
						t.Fatalf("tcId %d: result %q", tc.TcID, tc.Result)
					}
				}
				if valid == 0 || invalid == 0 {
					t.Fatalf("%d valid, %d invalid records", valid, invalid)
				}
			})
		})
	}
}

func TestDispatch(t *testing.T) {
	if len(paths) == 0 || paths[len(paths)-1].Name != "generic" || len(paths[len(paths)-1].Requires) != 0 {
		t.Fatal("the last path must be generic and need nothing")
	}
	a, _ := New(make([]byte, KeySize))
	var first string
	for _, p := range paths {
		if p.Available() && !(p.wide && cpu.Has(cpu.Prefer256)) {
			first = p.Name
			break
		}
	}
	if got := a.(*aead).path; got != first {
		t.Errorf("New runs %s, first available path is %s", got, first)
	}
	for _, name := range []string{"chacha20poly1305", "xchacha20poly1305"} {
		if c, ok := catalog.Get(name); !ok {
			t.Errorf("%s is not in the catalogue", name)
		} else if p, why := c.Chosen(); p.Name != first {
			t.Errorf("%s: catalogue chose %s (%s), want %s", name, p.Name, why, first)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		a, _ := newOn(name, make([]byte, KeySize), false)
		buf := make([]byte, 1024+Overhead)
		nonce := make([]byte, NonceSize)
		n := testing.AllocsPerRun(10, func() {
			s := a.Seal(buf[:0], nonce, buf[:1024], nil)
			a.Open(s[:0], nonce, s, nil)
		})
		if n != 0 {
			t.Errorf("Seal and Open allocate %v times", n)
		}
	})
}

func FuzzAEAD(f *testing.F) {
	f.Add(make([]byte, 32), make([]byte, 24), []byte("plain"), []byte("ad"), false)
	f.Add(make([]byte, 32), make([]byte, 24), make([]byte, 700), []byte(""), true)
	f.Fuzz(func(t *testing.T, key, nonce, plain, ad []byte, x bool) {
		// Any input length works: key and nonce are cut or zero-padded.
		key = append(key[:len(key):len(key)], make([]byte, KeySize)...)[:KeySize]
		nonce = append(nonce[:len(nonce):len(nonce)], make([]byte, NonceSizeX)...)[:NonceSizeX]
		for _, p := range paths {
			if !p.Available() {
				continue
			}
			ours, ref := pair(t, p.Name, key, x)
			n := nonce[:ours.NonceSize()]
			want := ref.Seal(nil, n, plain, ad)
			if got := ours.Seal(nil, n, plain, ad); !bytes.Equal(got, want) {
				t.Fatalf("%s: Seal differs", p.Name)
			}
			if got, err := ours.Open(nil, n, want, ad); err != nil || !bytes.Equal(got, plain) {
				t.Fatalf("%s: Open: %v", p.Name, err)
			}
			want[len(want)-1] ^= 0x80
			if _, err := ours.Open(nil, n, want, ad); err == nil {
				t.Fatalf("%s: forged tag accepted", p.Name)
			}
		}
	})
}

// TestCatalogue checks the catalogue's two ciphers against the table.
func TestCatalogue(t *testing.T) {
	for _, c := range []struct {
		name  string
		nonce int
	}{{"chacha20poly1305", NonceSize}, {"xchacha20poly1305", NonceSizeX}} {
		cat := testkit.Paths(c.name)
		if len(cat) != len(paths) {
			t.Fatalf("%s: %d paths in the catalogue, %d in the table", c.name, len(cat), len(paths))
		}
		for i, p := range cat {
			if p.Name != paths[i].Name || p.Available() != paths[i].Available() {
				t.Errorf("%s row %d: %s, table %s", c.name, i, p.Name, paths[i].Name)
			}
			if !p.Available() {
				continue
			}
			a, err := p.NewAEAD(make([]byte, KeySize))
			if err != nil || a.NonceSize() != c.nonce || a.(*aead).path != p.Name {
				t.Errorf("%s/%s: NewAEAD = %v, %v", c.name, p.Name, a, err)
			}
		}
	}
}
