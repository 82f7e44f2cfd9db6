package poly1305

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xpoly "golang.org/x/crypto/poly1305" //nolint:staticcheck // the reference
)

// TestMain prints which paths ran and which this CPU or mask rules out.
func TestMain(m *testing.M) {
	code := m.Run()
	var ran, not []string
	for _, p := range Paths() {
		switch {
		case !p.Built():
			not = append(not, p.String()+" (not in this build)")
		case !p.Available():
			var lacks []cpu.Feature
			for _, f := range p.Requires() {
				if !cpu.Has(f) {
					lacks = append(lacks, f)
				}
			}
			not = append(not, fmt.Sprintf("%s (lacks %v)", p, lacks))
		default:
			ran = append(ran, p.String())
		}
	}
	fmt.Printf("poly1305 paths run: %s; not runnable here: %s\n", strings.Join(ran, ", "), strings.Join(not, ", "))
	os.Exit(testkit.Summarize(code, "poly1305"))
}

// forEachPath runs f for every path, skipping (with the reason) those this
// build or CPU cannot run.
func forEachPath(t *testing.T, f func(t *testing.T, p Path)) {
	for _, p := range Paths() {
		t.Run(p.String(), func(t *testing.T) {
			if !p.Built() {
				t.Skipf("%s is not in this build", p)
			}
			if !p.Available() {
				t.Skipf("%s needs %v, which this CPU lacks or SIMDCRYPT_CPU masks", p, p.Requires())
			}
			f(t, p)
		})
	}
}

type vector struct{ key, msg, tag string }

// RFC 8439 section 2.5.2 and Appendix A.3 (test vectors 1, 4 to 11).
var vectors = []vector{
	{ // §2.5.2
		"85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
		fmt.Sprintf("%x", "Cryptographic Forum Research Group"),
		"a8061dc1305136c6c22b8baf0c0127a9",
	},
	{ // A.3 #1
		strings.Repeat("00", 32), strings.Repeat("00", 64), strings.Repeat("00", 16),
	},
	{ // A.3 #4
		"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
		fmt.Sprintf("%x", "'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n"+
			"All mimsy were the borogoves,\nAnd the mome raths outgrabe."),
		"4541669a7eaaee61e708dc7cbcc5eb62",
	},
	{ // A.3 #5: h reaches p exactly after the final reduction
		"02" + strings.Repeat("00", 31), strings.Repeat("ff", 16), "03" + strings.Repeat("00", 15),
	},
	{ // A.3 #6: s makes the final addition carry out of 128 bits
		"02" + strings.Repeat("00", 15) + strings.Repeat("ff", 16), "02" + strings.Repeat("00", 15),
		"03" + strings.Repeat("00", 15),
	},
	{ // A.3 #7
		"01" + strings.Repeat("00", 31),
		strings.Repeat("ff", 16) + "f0" + strings.Repeat("ff", 15) + "11" + strings.Repeat("00", 15),
		"05" + strings.Repeat("00", 15),
	},
	{ // A.3 #8
		"01" + strings.Repeat("00", 31),
		strings.Repeat("ff", 16) + "fb" + strings.Repeat("fe", 15) + strings.Repeat("01", 16),
		strings.Repeat("00", 16),
	},
	{ // A.3 #9
		"02" + strings.Repeat("00", 31), "fd" + strings.Repeat("ff", 15), "fa" + strings.Repeat("ff", 15),
	},
	{ // A.3 #10
		"0100000000000000040000000000000000000000000000000000000000000000",
		"e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000000000000000000001000000000000000000000000000000",
		"14000000000000005500000000000000",
	},
	{ // A.3 #11
		"0100000000000000040000000000000000000000000000000000000000000000",
		"e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000",
		"13000000000000000000000000000000",
	},
}

func TestVectors(t *testing.T) {
	forEachPath(t, func(t *testing.T, p Path) {
		for i, v := range vectors {
			key := (*[32]byte)(testkit.Hex(v.key))
			msg, want := testkit.Hex(v.msg), testkit.Hex(v.tag)
			var got [16]byte
			SumOn(&got, msg, key, p)
			if !bytes.Equal(got[:], want) {
				t.Errorf("vector %d: tag %x, want %x", i, got, want)
			}
			// Byte by byte through Write, and Sum twice.
			m := NewOn(key, p)
			for j := range msg {
				m.Write(msg[j : j+1])
			}
			if s1, s2 := m.Sum(nil), m.Sum(nil); !bytes.Equal(s1, want) || !bytes.Equal(s2, want) {
				t.Errorf("vector %d: streamed tags %x, %x, want %x", i, s1, s2, want)
			}
			m = NewOn(key, p)
			m.Write(msg)
			if !m.Verify(want) {
				t.Errorf("vector %d: Verify rejected the right tag", i)
			}
			want[0] ^= 1
			if Verify((*[16]byte)(want), msg, key) {
				t.Errorf("vector %d: Verify accepted a wrong tag", i)
			}
		}
	})
}

var p1305 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))

// refSum is Poly1305 straight from the RFC's definition, in math/big.
func refSum(msg []byte, key *[32]byte) [16]byte {
	le := func(b []byte) *big.Int {
		r := make([]byte, len(b))
		for i := range b {
			r[len(b)-1-i] = b[i]
		}
		return new(big.Int).SetBytes(r)
	}
	rb := append([]byte(nil), key[:16]...)
	for _, i := range []int{3, 7, 11, 15} {
		rb[i] &= 15
	}
	for _, i := range []int{4, 8, 12} {
		rb[i] &= 252
	}
	r, s := le(rb), le(key[16:])
	acc := new(big.Int)
	for len(msg) > 0 {
		n := min(16, len(msg))
		block := append(append([]byte(nil), msg[:n]...), 1)
		acc.Add(acc, le(block))
		acc.Mul(acc, r)
		acc.Mod(acc, p1305)
		msg = msg[n:]
	}
	acc.Add(acc, s)
	var out [16]byte
	b := acc.Bytes()
	for i := 0; i < 16 && i < len(b); i++ {
		out[i] = b[len(b)-1-i]
	}
	return out
}

// edgeKeys are r and s at their extremes: r with every bit clamping keeps,
// s all ones, r = 0 and 1.
func edgeKeys() [][32]byte {
	var keys [][32]byte
	var k [32]byte
	for i := range k {
		k[i] = 0xff
	}
	keys = append(keys, k)
	k = [32]byte{}
	keys = append(keys, k)
	k[0] = 1
	keys = append(keys, k)
	for i := 16; i < 32; i++ {
		k[i] = 0xff
	}
	keys = append(keys, k)
	return keys
}

// edgeMessages drive the accumulator near 2^130-5 and put carries at every
// limb boundary: blocks of all ones, of p's low bytes, and single bits at
// positions around 26, 44, 52, 64, 88 and 128.
func edgeMessages() [][]byte {
	var msgs [][]byte
	ones := bytes.Repeat([]byte{0xff}, 16)
	pLow := append([]byte{0xfb}, bytes.Repeat([]byte{0xff}, 15)...)
	pNext := append([]byte{0xfa}, bytes.Repeat([]byte{0xff}, 15)...)
	for _, n := range []int{1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65} {
		msgs = append(msgs, bytes.Repeat(ones, n), bytes.Repeat(pLow, n), bytes.Repeat(pNext, n))
	}
	for _, bit := range []int{25, 26, 27, 43, 44, 45, 51, 52, 53, 63, 64, 65, 87, 88, 89, 103, 104, 127} {
		b := make([]byte, 16)
		for i := 0; i <= bit; i++ { // bits 0..bit set: a carry runs into bit+1
			b[i/8] |= 1 << (i % 8)
		}
		for _, n := range []int{1, 8, 16, 17, 40} {
			msgs = append(msgs, bytes.Repeat(b, n))
		}
	}
	return msgs
}

func TestEdgeCases(t *testing.T) {
	forEachPath(t, func(t *testing.T, p Path) {
		for _, key := range edgeKeys() {
			for _, msg := range edgeMessages() {
				for _, cut := range []int{0, 1, 15} { // also partial last blocks
					m := msg[:len(msg)-min(cut, len(msg))]
					var got [16]byte
					SumOn(&got, m, &key, p)
					if want := refSum(m, &key); got != want {
						t.Fatalf("key %x, %d-byte message %x...: tag %x, want %x", key, len(m), m[:min(16, len(m))], got, want)
					}
				}
			}
		}
	})
}

// TestDifferential compares every path with x/crypto and math/big over
// every length up to 2048 (vector steps, their tails and the threshold at
// which vector paths start) and every split of the writes.
func TestDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	maxLen := 2048
	if testing.Short() {
		maxLen = 600
	}
	forEachPath(t, func(t *testing.T, p Path) {
		buf := testkit.RandBytes(rng, maxLen+64)
		for n := 0; n <= maxLen; n++ {
			var key [32]byte
			copy(key[:], testkit.RandBytes(rng, 32))
			off := n % 64
			msg := buf[off : off+n]
			var got, want [16]byte
			SumOn(&got, msg, &key, p)
			xpoly.Sum(&want, msg, &key)
			if got != want {
				t.Fatalf("len %d: tag %x, x/crypto %x", n, got, want)
			}
			if n < 300 {
				if ref := refSum(msg, &key); ref != want {
					t.Fatalf("len %d: x/crypto and math/big disagree", n)
				}
			}
			// Split writes.
			m := NewOn(&key, p)
			k := rng.IntN(n + 1)
			m.Write(msg[:k])
			m.Write(msg[k:])
			if !m.Verify(want[:]) {
				t.Fatalf("len %d split at %d: tag differs", n, k)
			}
			// Three writes sharing kept powers: the later long writes
			// must use the powers the first one computed, not zeros.
			var pw Powers
			m = NewOn(&key, p)
			k1, k2 := rng.IntN(n+1), rng.IntN(n+1)
			k1, k2 = min(k1, k2), max(k1, k2)
			m.WriteKeeping(msg[:k1], &pw)
			m.WriteKeeping(msg[k1:k2], &pw)
			m.WriteKeeping(msg[k2:], &pw)
			if !m.Verify(want[:]) {
				t.Fatalf("len %d kept powers, split at %d and %d: tag differs", n, k1, k2)
			}
		}
	})
}

// TestGuardPages runs each path on messages flush against unreadable pages.
func TestGuardPages(t *testing.T) {
	forEachPath(t, func(t *testing.T, p Path) {
		for _, n := range []int{0, 1, 15, 16, 17, 127, 128, 255, 256, 257, 383, 384, 1000, 1024, 2047} {
			for _, atEnd := range []bool{false, true} {
				buf, free, ok := testkit.Guarded(n, atEnd)
				if !ok {
					t.Skip("guard pages unavailable")
				}
				for i := range buf {
					buf[i] = byte(i * 7)
				}
				var key [32]byte
				key[0], key[17] = 9, 3
				var got, want [16]byte
				SumOn(&got, buf, &key, p)
				xpoly.Sum(&want, buf, &key)
				free()
				if got != want {
					t.Fatalf("len %d atEnd %v: tag differs", n, atEnd)
				}
			}
		}
	})
}

func TestWriteAfterSumPanics(t *testing.T) {
	m := New(new([32]byte))
	m.Sum(nil)
	testkit.MustPanic(t, "Write after Sum", func() { m.Write([]byte{1}) })
}

func TestNoAllocs(t *testing.T) {
	msg := make([]byte, 1000)
	var key [32]byte
	var tag [16]byte
	forEachPath(t, func(t *testing.T, p Path) {
		if n := testing.AllocsPerRun(10, func() { SumOn(&tag, msg, &key, p) }); n != 0 {
			t.Errorf("SumOn allocates %v times", n)
		}
	})
}

func FuzzSum(f *testing.F) {
	f.Add(make([]byte, 32), []byte("hello"))
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 300))
	f.Fuzz(func(t *testing.T, key, msg []byte) {
		key = append(key[:len(key):len(key)], make([]byte, 32)...)[:32] // any length works
		var want [16]byte
		xpoly.Sum(&want, msg, (*[32]byte)(key))
		for _, p := range Paths() {
			if !p.Available() {
				continue
			}
			var got [16]byte
			SumOn(&got, msg, (*[32]byte)(key), p)
			if got != want {
				t.Fatalf("%s: tag %x, x/crypto %x", p, got, want)
			}
		}
	})
}

// TestCatalogue: the catalogue lists the built paths in order, each
// constructor pinned to its path, and dispatch follows the Wide rule.
func TestCatalogue(t *testing.T) {
	var built []string
	for _, p := range Paths() {
		if p.Built() {
			built = append(built, p.String())
		}
	}
	var listed []string
	key := new([32]byte)
	key[0] = 1
	for _, cp := range testkit.Paths("poly1305") {
		listed = append(listed, cp.Name)
		if !cp.Available() {
			continue
		}
		m := cp.NewAuthenticator(key)
		m.Write([]byte("catalogue"))
		var want [TagSize]byte
		Sum(&want, []byte("catalogue"), key)
		if got := m.Sum(nil); string(got) != string(want[:]) || m.(*MAC).path.String() != cp.Name {
			t.Errorf("%s: tag %x, want %x", cp.Name, got, want)
		}
	}
	if strings.Join(listed, " ") != strings.Join(built, " ") {
		t.Errorf("catalogue lists %v, build has %v", listed, built)
	}
	want := Generic
	for _, p := range Paths() {
		if p.Available() && !(p == IFMA && cpu.Has(cpu.Prefer256)) {
			want = p
			break
		}
	}
	if got := Chosen(); got != want {
		t.Errorf("Chosen() = %s, want %s", got, want)
	}
}
