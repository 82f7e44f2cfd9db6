package testkit

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/simdcrypt/simdcrypt/ecb"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// BlockVector is a known answer for one mode of a 128-bit block cipher.
type BlockVector struct {
	Name                           string
	Mode                           string // "ecb", "cbc" or "ctr"
	Key, IV, Plaintext, Ciphertext []byte
}

// BlockSpec describes a 128-bit block cipher to RunBlockCipher.
type BlockSpec struct {
	Cipher   string // registry name, e.g. "aes"
	KeySizes []int  // valid key sizes in bytes
	// Reference is an independent implementation (crypto/aes for AES). When
	// nil, the registered "generic" path serves as the reference.
	Reference func(key []byte) (cipher.Block, error)
	Vectors   []BlockVector
}

// Op is one block operation of the catalogue, run through the public
// crypto/cipher interfaces exactly as a user would call them.
type Op struct {
	Name  catalog.Op
	Whole bool // input must be whole blocks
	// New starts the operation on b with iv and returns its crypt function.
	New func(b cipher.Block, iv []byte) func(dst, src []byte)
	ref func(b cipher.Block, iv, src []byte) []byte
}

// BlockOps drive catalog.BlockOps, in that order (TestBlockOpsMatchCatalogue).
var BlockOps = []Op{
	{catalog.ECBEncrypt, true,
		func(b cipher.Block, _ []byte) func(dst, src []byte) { return ecb.NewEncrypter(b).CryptBlocks },
		func(b cipher.Block, _, src []byte) []byte { return refECB(b, false, src) }},
	{catalog.ECBDecrypt, true,
		func(b cipher.Block, _ []byte) func(dst, src []byte) { return ecb.NewDecrypter(b).CryptBlocks },
		func(b cipher.Block, _, src []byte) []byte { return refECB(b, true, src) }},
	{catalog.CBCEncrypt, true,
		func(b cipher.Block, iv []byte) func(dst, src []byte) {
			return cipher.NewCBCEncrypter(b, iv).CryptBlocks
		},
		func(b cipher.Block, iv, src []byte) []byte { return refCBC(b, false, iv, src) }},
	{catalog.CBCDecrypt, true,
		func(b cipher.Block, iv []byte) func(dst, src []byte) {
			return cipher.NewCBCDecrypter(b, iv).CryptBlocks
		},
		func(b cipher.Block, iv, src []byte) []byte { return refCBC(b, true, iv, src) }},
	{catalog.CTR, false,
		func(b cipher.Block, iv []byte) func(dst, src []byte) { return cipher.NewCTR(b, iv).XORKeyStream },
		func(b cipher.Block, iv, src []byte) []byte { return refCTR(b, iv, src) }},
}

// RandBytes returns n deterministic pseudo-random bytes.
func RandBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// ForEachImpl runs f as a subtest for every registered implementation of
// the cipher; the ones this CPU cannot run (or SIMDCRYPT_CPU masks) are
// skipped with the features they need, never left out unmentioned.
func ForEachImpl(t *testing.T, cipherName string, f func(t *testing.T, i *catalog.Path)) {
	t.Helper()
	all := Paths(cipherName)
	if len(all) == 0 {
		t.Fatalf("no implementation of %s registered", cipherName)
	}
	for _, i := range all {
		t.Run(i.Name, func(t *testing.T) {
			if !i.Available() {
				t.Skipf("%s/%s not tested here: needs %v, which this CPU lacks or SIMDCRYPT_CPU masks", cipherName, i.Name, i.Missing())
			}
			f(t, i)
		})
	}
}

// RunBlockCipher tests every registered implementation of the cipher.
func RunBlockCipher(t *testing.T, spec BlockSpec) {
	s := blockSuite{BlockSpec: spec, generic: mustGeneric(t, spec.Cipher), reference: spec.Reference}
	if s.reference == nil {
		s.reference = func(key []byte) (cipher.Block, error) { return s.generic.NewBlock(key) }
	}
	runSuite(t, spec.Cipher, s, check{"KnownAnswers", s.knownAnswers}, check{"SetIV", s.setIV})
}

// blockSuite is RunBlockCipher's battery: the spec, the generic path and
// the reference.
type blockSuite struct {
	BlockSpec
	generic   *catalog.Path
	reference func(key []byte) (cipher.Block, error)
}

func (s blockSuite) sizes(t *testing.T, i *catalog.Path) {
	for n := 0; n <= 64; n++ {
		_, err := i.NewBlock(make([]byte, n))
		if valid := slices.Contains(s.KeySizes, n); valid != (err == nil) {
			t.Errorf("key of %d bytes: err = %v", n, err)
		}
	}
}

func (s blockSuite) knownAnswers(t *testing.T, i *catalog.Path) {
	if len(s.Vectors) == 0 {
		t.Fatal("no typed-in vectors for " + s.Cipher)
	}
	for _, v := range s.Vectors {
		CheckVector(t, i, v)
	}
}

// CheckVector runs one known answer in both directions through implementation i.
func CheckVector(t testing.TB, i *catalog.Path, v BlockVector) {
	t.Helper()
	b, err := i.NewBlock(v.Key)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	var enc, dec Op
	switch v.Mode {
	case "ecb":
		enc, dec = BlockOps[0], BlockOps[1]
	case "cbc":
		enc, dec = BlockOps[2], BlockOps[3]
	case "ctr":
		enc, dec = BlockOps[4], BlockOps[4]
	default:
		t.Fatalf("%s: unknown mode %q", v.Name, v.Mode)
	}
	got := make([]byte, len(v.Plaintext))
	enc.New(b, v.IV)(got, v.Plaintext)
	if !bytes.Equal(got, v.Ciphertext) {
		t.Errorf("%s %s encrypt:\n got %x\nwant %x", i.Name, v.Name, got, v.Ciphertext)
	}
	dec.New(b, v.IV)(got, v.Ciphertext)
	if !bytes.Equal(got, v.Plaintext) {
		t.Errorf("%s %s decrypt:\n got %x\nwant %x", i.Name, v.Name, got, v.Plaintext)
	}
}

// differential compares every length 0..2048 (whole blocks where the
// mode needs them), with source and destination offsets that between them
// take every value 0..63, out of place and in place, against the generic
// path and the reference.
func (s blockSuite) differential(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(1, uint64(len(i.Name))))
	const maxLen = 2048
	for _, ks := range s.KeySizes {
		key := RandBytes(r, ks)
		iv := RandBytes(r, 16)
		b, err := i.NewBlock(key)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := s.generic.NewBlock(key)
		ref, err := s.reference(key)
		if err != nil {
			t.Fatal(err)
		}
		src := RandBytes(r, maxLen)
		srcBuf := make([]byte, maxLen+64)
		dstBuf := make([]byte, maxLen+64)
		for _, op := range BlockOps {
			step := 1
			if op.Whole {
				step = 16
			}
			for n := 0; n <= maxLen; n += step {
				want := op.ref(ref, iv, src[:n])
				viaGeneric := make([]byte, n)
				op.New(g, iv)(viaGeneric, src[:n])
				if !bytes.Equal(viaGeneric, want) {
					t.Fatalf("key %d %s len %d: generic differs from reference", ks, op.Name, n)
				}
				so, do := n%64, (n*13+7)%64
				if n == 1024 {
					// Every offset pair for one length, src and dst apart.
					for so = 0; so < 64; so++ {
						checkOne(t, op, b, iv, srcBuf[so:so+n], dstBuf[(so*7)%64:], src[:n], want, ks)
					}
					continue
				}
				checkOne(t, op, b, iv, srcBuf[so:so+n], dstBuf[do:], src[:n], want, ks)
				// In place.
				inPlace := srcBuf[so : so+n]
				copy(inPlace, src[:n])
				op.New(b, iv)(inPlace, inPlace)
				if !bytes.Equal(inPlace, want) {
					t.Fatalf("key %d %s len %d offset %d in place: mismatch", ks, op.Name, n, so)
				}
			}
		}
	}
}

func checkOne(t *testing.T, op Op, b cipher.Block, iv, srcAt, dstBuf, src, want []byte, ks int) {
	t.Helper()
	copy(srcAt, src)
	// Poison the byte after the output to catch overlong writes.
	dst := dstBuf[:len(src)]
	if len(dstBuf) > len(src) {
		dstBuf[len(src)] = 0xa5
	}
	op.New(b, iv)(dst, srcAt)
	if !bytes.Equal(dst, want) {
		t.Fatalf("key %d %s len %d: mismatch\n got %x\nwant %x", ks, op.Name, len(src),
			firstDiff(dst, want), firstDiff(want, dst))
	}
	if len(dstBuf) > len(src) && dstBuf[len(src)] != 0xa5 {
		t.Fatalf("key %d %s len %d: wrote past the end of dst", ks, op.Name, len(src))
	}
	if !bytes.Equal(srcAt, src) {
		t.Fatalf("key %d %s len %d: modified src", ks, op.Name, len(src))
	}
}

func firstDiff(a, b []byte) []byte {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return a[i&^15 : min(len(a), i&^15+32)]
		}
	}
	return nil
}

// counters starts CTR just below the points where 32, 64 and 128 bits
// of counter carry, with lengths that cross them mid-batch.
func (s blockSuite) counters(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(2, 2))
	key := RandBytes(r, s.KeySizes[0])
	b, _ := i.NewBlock(key)
	ref, _ := s.reference(key)
	src := RandBytes(r, 4096+7)
	for _, edge := range []struct {
		name   string
		hi, lo uint64
	}{
		{"2^32", 0x0123456789abcdef, 1<<32 - 1},
		{"2^64", 0x0123456789abcdef, 1<<64 - 1},
		{"2^128", 1<<64 - 1, 1<<64 - 1},
	} {
		for below := uint64(0); below < 70; below += 1 + below/4 {
			iv := make([]byte, 16)
			binary.BigEndian.PutUint64(iv, edge.hi)
			binary.BigEndian.PutUint64(iv[8:], edge.lo-below)
			for _, n := range []int{16 * int(below+1), 16*int(below+1) + 5, 1024, len(src)} {
				n = min(n, len(src))
				want := refCTR(ref, iv, src[:n])
				got := make([]byte, n)
				cipher.NewCTR(b, iv).XORKeyStream(got, src[:n])
				if !bytes.Equal(got, want) {
					t.Fatalf("counter %d below %s, len %d: mismatch", below+1, edge.name, n)
				}
				// The exported constructor too.
				st, err := modes.NewCTR(b, iv)
				if err != nil {
					t.Fatal(err)
				}
				st.XORKeyStream(got, src[:n])
				if !bytes.Equal(got, want) {
					t.Fatalf("modes.NewCTR: counter %d below %s, len %d: mismatch", below+1, edge.name, n)
				}
			}
		}
	}
}

// split checks that a stream or chain cut into random pieces equals
// one call.
func (s blockSuite) split(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, ks := range s.KeySizes {
		key, iv := RandBytes(r, ks), RandBytes(r, 16)
		b, _ := i.NewBlock(key)
		for _, op := range BlockOps {
			for trial := 0; trial < 20; trial++ {
				n := r.IntN(3000)
				if op.Whole {
					n &^= 15
				}
				src := RandBytes(r, n)
				whole := make([]byte, n)
				op.New(b, iv)(whole, src)
				pieces := make([]byte, n)
				crypt := op.New(b, iv)
				for off := 0; off < n; {
					m := r.IntN(min(n-off, 600) + 1)
					if r.IntN(4) == 0 {
						m = min(n-off, r.IntN(40))
					}
					if op.Whole {
						m &^= 15
					}
					crypt(pieces[off:off+m], src[off:off+m])
					off += m
				}
				if !bytes.Equal(pieces, whole) {
					t.Fatalf("key %d %s len %d: pieces differ from one call", ks, op.Name, n)
				}
			}
		}
	}
}

// MustPanic fails the test unless f panics.
func MustPanic(t testing.TB, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
}

// PanicMessage runs f and returns what it panicked with, as fmt.Sprint
// prints it, or "" if it returned normally.
func PanicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func (s blockSuite) misuse(t *testing.T, i *catalog.Path) {
	b, _ := i.NewBlock(make([]byte, s.KeySizes[0]))
	iv := make([]byte, 16)
	buf := make([]byte, 256)
	for _, op := range BlockOps {
		MustPanic(t, string(op.Name)+" inexact overlap", func() { op.New(b, iv)(buf[1:129], buf[:128]) })
		MustPanic(t, string(op.Name)+" short dst", func() { op.New(b, iv)(buf[:64], make([]byte, 80)) })
		if op.Whole {
			MustPanic(t, string(op.Name)+" partial block", func() { op.New(b, iv)(buf[:40], make([]byte, 40)) })
		}
	}
	MustPanic(t, "Encrypt short src", func() { b.Encrypt(buf[:16], buf[:15]) })
	MustPanic(t, "Decrypt short dst", func() { b.Decrypt(buf[:15], buf[16:32]) })
	MustPanic(t, "Encrypt inexact overlap", func() { b.Encrypt(buf[1:17], buf[:16]) })
	MustPanic(t, "NewCTR bad IV", func() { cipher.NewCTR(b, iv[:15]) })
	MustPanic(t, "NewCBCEncrypter bad IV", func() { cipher.NewCBCEncrypter(b, iv[:8]) })
	MustPanic(t, "NewCBCDecrypter bad IV", func() { cipher.NewCBCDecrypter(b, make([]byte, 17)) })
	if _, err := modes.NewCTR(b, iv[:12]); err == nil {
		t.Error("modes.NewCTR accepted a 12-byte IV")
	}
	if _, err := modes.NewCBCEncrypter(b, nil); err == nil {
		t.Error("modes.NewCBCEncrypter accepted an empty IV")
	}
}

// setIV checks the CBC modes' SetIV (crypto/cipher's modes have it, and
// crypto/tls resets the IV through it): after a reset, a mode part-way
// through a chain continues from the new IV, and a wrong length panics.
func (s blockSuite) setIV(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(6, 6))
	key := RandBytes(r, s.KeySizes[0])
	b, _ := i.NewBlock(key)
	ref, _ := s.reference(key)
	iv1, iv2, src := RandBytes(r, 16), RandBytes(r, 16), RandBytes(r, 160)
	for _, op := range BlockOps[2:4] {
		var mode cipher.BlockMode
		if op.Name == "cbc-encrypt" {
			mode = cipher.NewCBCEncrypter(b, iv1)
		} else {
			mode = cipher.NewCBCDecrypter(b, iv1)
		}
		setter, ok := mode.(interface{ SetIV([]byte) })
		if !ok {
			t.Fatalf("%s: mode has no SetIV", op.Name)
		}
		got := make([]byte, len(src))
		mode.CryptBlocks(got, src)
		setter.SetIV(iv2)
		mode.CryptBlocks(got, src)
		if !bytes.Equal(got, op.ref(ref, iv2, src)) {
			t.Errorf("%s: output after SetIV does not chain from the new IV", op.Name)
		}
		MustPanic(t, string(op.Name)+" SetIV of 15 bytes", func() { setter.SetIV(iv2[:15]) })
	}
}

// GuardedLengths are the lengths the guard-page tests try: every tail
// length, and sizes around each kernel's batch widths.
var GuardedLengths = func() []int {
	var l []int
	for n := 0; n <= 300; n++ {
		l = append(l, n)
	}
	for _, base := range []int{512, 1024, 2048, 4096, 8192} {
		for _, d := range []int{-17, -16, -1, 0, 1, 15, 16, 17, 48, 100} {
			l = append(l, base+d)
		}
	}
	return l
}()

// guardPages runs every operation with source and destination flush
// against PROT_NONE pages, on either side: an access one byte outside the
// buffers kills the test.
func (s blockSuite) guardPages(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(4, 4))
	key, iv := RandBytes(r, s.KeySizes[len(s.KeySizes)-1]), RandBytes(r, 16)
	b, _ := i.NewBlock(key)
	ref, _ := s.reference(key)
	for _, op := range BlockOps {
		eachGuarded(t, op.Whole, func(src, dst []byte) {
			n := len(src)
			data := RandBytes(r, n)
			copy(src, data)
			want := op.ref(ref, iv, data)
			op.New(b, iv)(dst, src)
			if !bytes.Equal(dst, want) {
				t.Fatalf("%s len %d guarded: mismatch", op.Name, n)
			}
			op.New(b, iv)(src, src) // in place
			if !bytes.Equal(src, want) {
				t.Fatalf("%s len %d guarded in place: mismatch", op.Name, n)
			}
		})
	}
}

// eachGuarded calls f for every length in GuardedLengths (whole blocks
// only, if wholeBlocks) with a source and a destination of that length
// flush against guard pages at opposite ends, both ways round. It skips the
// test, saying why, where guard pages are unavailable.
func eachGuarded(t *testing.T, wholeBlocks bool, f func(src, dst []byte)) {
	t.Helper()
	for _, n := range GuardedLengths {
		if wholeBlocks && n%16 != 0 {
			continue
		}
		for _, atEnd := range []bool{true, false} {
			src, freeSrc, ok := Guarded(n, atEnd)
			if !ok {
				t.Skip("guard pages unavailable on this system (no mmap/mprotect)")
			}
			dst, freeDst, _ := Guarded(n, !atEnd)
			f(src, dst)
			freeSrc()
			freeDst()
		}
	}
}

// concurrent uses one block from many goroutines at once, as servers
// do; with -race it also proves the kernels keep no shared mutable state.
func (s blockSuite) concurrent(t *testing.T, i *catalog.Path) {
	r := rand.New(rand.NewPCG(5, 5))
	key := RandBytes(r, s.KeySizes[0])
	b, _ := i.NewBlock(key)
	ref, _ := s.reference(key)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		iv := RandBytes(r, 16)
		src := RandBytes(r, 4096+16*g)
		var want [][]byte
		for _, op := range BlockOps {
			want = append(want, op.ref(ref, iv, src))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := 0; rep < 20; rep++ {
				for k, op := range BlockOps {
					got := make([]byte, len(src))
					op.New(b, iv)(got, src)
					if !bytes.Equal(got, want[k]) {
						errs <- fmt.Sprintf("goroutine %d %s: mismatch", g, op.Name)
						return
					}
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

// noAllocs checks that encrypting, once a mode is set up, allocates
// nothing: the hot path must not touch the heap.
func (s blockSuite) noAllocs(t *testing.T, i *catalog.Path) {
	b, _ := i.NewBlock(make([]byte, s.KeySizes[0]))
	buf := make([]byte, 4096+16)
	for _, op := range BlockOps {
		crypt := op.New(b, make([]byte, 16))
		for _, n := range []int{16, 64, 1024, 4096} {
			if a := testing.AllocsPerRun(20, func() { crypt(buf[:n], buf[:n]) }); a != 0 {
				t.Errorf("%s of %d bytes: %v allocations per call", op.Name, n, a)
			}
		}
	}
	if a := testing.AllocsPerRun(20, func() { b.Encrypt(buf[:16], buf[16:32]) }); a != 0 {
		t.Errorf("Encrypt: %v allocations per call", a)
	}
}

// mustGeneric returns the cipher's portable path, which every suite uses as
// a reference when the spec names no independent one.
func mustGeneric(t *testing.T, cipherName string) *catalog.Path {
	t.Helper()
	generic, ok := catalog.Lookup(cipherName, "generic")
	if !ok {
		t.Fatalf("%s has no generic implementation registered", cipherName)
	}
	return generic
}

// ForEachKey runs f on every path of cipherName (as ForEachImpl) for each
// key, with the path's block under that key.
func ForEachKey(t *testing.T, cipherName string, keys [][]byte, f func(t *testing.T, b cipher.Block, key []byte)) {
	t.Helper()
	ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		for _, key := range keys {
			b, err := i.NewBlock(key)
			if err != nil {
				t.Fatal(err)
			}
			f(t, b, key)
		}
	})
}

// PatternKeys returns one key of each size, byte j being pattern(j).
func PatternKeys(sizes []int, pattern func(j int) byte) [][]byte {
	keys := make([][]byte, len(sizes))
	for n, size := range sizes {
		keys[n] = make([]byte, size)
		for j := range keys[n] {
			keys[n][j] = pattern(j)
		}
	}
	return keys
}
