package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/aria"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/modes"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

var h = testkit.Hex

// ---- which paths run ----

var (
	ranMu sync.Mutex
	ran   = map[string]bool{}
	// standIn records that the stdlib path ran over newStdlibBackedBlock.
	standIn bool
	why     = map[string]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	var run, not []string
	for _, p := range paths {
		if ran[p.Name] && p.Name == "stdlib" && standIn {
			run = append(run, "stdlib (over a stand-in block: no AES block here runs on crypto/aes)")
		} else if ran[p.Name] {
			run = append(run, p.Name)
		} else if w, ok := why[p.Name]; ok {
			not = append(not, p.Name+" ("+w+")")
		}
	}
	if ran["generic/foreign"] {
		run = append(run, "generic/foreign")
	}
	if len(not) == 0 {
		not = []string{"none"}
	}
	if len(run) > 0 {
		fmt.Printf("gcm: paths run: %s; not runnable here: %s\n", strings.Join(run, ", "), strings.Join(not, ", "))
	}
	os.Exit(testkit.Summarize(code, "gcm"))
}

// foreign hides a block's type, so that it takes the path for blocks from
// other packages.
type foreign struct{ cipher.Block }

func newAESBlock(key []byte) cipher.Block {
	b, err := aes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	return b
}

func newARIABlock(key []byte) cipher.Block {
	b, err := aria.NewCipher(key)
	if err != nil {
		panic(err)
	}
	return b
}

func newForeignAES(key []byte) cipher.Block {
	b, err := stdaes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	return foreign{b}
}

// testPath is one path under test: newAEAD builds it for a key.
type testPath struct {
	name    string
	aria    bool // ARIA paths are checked against their own round trip
	newAEAD func(t testing.TB, key []byte, nonceSize, tagSize int) cipher.AEAD
}

// pathsFor returns the runnable paths for blocks from newBlock, recording
// the others for the summary. AES also gets the generic path over a block
// from outside this module.
func pathsFor(t testing.TB, newBlock func([]byte) cipher.Block, withForeign bool) []testPath {
	probe := newBlock(make([]byte, 16))
	var tps []testPath
	ranMu.Lock()
	defer ranMu.Unlock()
	for _, p := range paths {
		if !cpu.HasAll(p.Requires...) {
			why[p.Name] = fmt.Sprintf("needs %v", p.Requires)
			continue
		}
		if p.New(probe, standardNonceSize, standardTagSize) == nil {
			if _, seen := why[p.Name]; !seen && !ran[p.Name] {
				why[p.Name] = "no block on this platform runs on it"
			}
			continue
		}
		ran[p.Name] = true
		name := p.Name
		tps = append(tps, testPath{name, !withForeign, func(t testing.TB, key []byte, ns, ts int) cipher.AEAD {
			t.Helper()
			a, err := newPath(name, newBlock(key), ns, ts)
			if err != nil {
				if name == "stdlib" {
					// As for the stand-in: crypto/cipher has no GCM for a
					// non-standard nonce and tag size together.
					return nil
				}
				t.Fatal(err)
			}
			return a
		}})
	}
	if withForeign {
		ran["generic/foreign"] = true
		tps = append(tps, testPath{"generic/foreign", false, func(t testing.TB, key []byte, ns, ts int) cipher.AEAD {
			t.Helper()
			a, err := newPath("generic", newForeignAES(key), ns, ts)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}})
	}
	return tps
}

func aesPaths(t testing.TB) []testPath {
	tps := pathsFor(t, newAESBlock, true)
	for _, tp := range tps {
		if tp.name == "stdlib" {
			return tps
		}
	}
	if !cpu.HasAll(stdlibPath.Requires...) {
		return tps // masked (stdlib=off, all=off): pathsFor said so
	}
	// No AES block here runs on crypto/aes: the stdlib path still gets
	// tested, over a stand-in block whose kernels do.
	ranMu.Lock()
	delete(why, "stdlib")
	ranMu.Unlock()
	return append(tps, stdlibStandIn(t)...)
}

// stdlibStandIn returns the stdlib path over newStdlibBackedBlock. Its
// newAEAD returns nil for the nonce and tag size pairs crypto/cipher has
// no constructor for (both non-standard): the vector suites skip those.
func stdlibStandIn(t testing.TB) []testPath {
	ranMu.Lock()
	ran["stdlib"], standIn = true, true
	ranMu.Unlock()
	return []testPath{{"stdlib", false, func(t testing.TB, key []byte, ns, ts int) cipher.AEAD {
		t.Helper()
		a, err := newPath("stdlib", newStdlibBackedBlock(key), ns, ts)
		if err != nil {
			return nil
		}
		return a
	}}}
}

// stdKernels are modes.Kernels over crypto/aes that offer StdlibBlock, as
// the AES path off amd64 does.
type stdKernels struct{ b cipher.Block }

func (k stdKernels) StdlibBlock() cipher.Block { return k.b }
func (k stdKernels) EncryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += 16 {
		k.b.Encrypt(dst[i:], src[i:])
	}
}
func (k stdKernels) DecryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += 16 {
		k.b.Decrypt(dst[i:], src[i:])
	}
}
func (k stdKernels) CBCEncrypt(dst, src []byte, iv *[16]byte) { panic("unused") }
func (k stdKernels) CBCDecrypt(dst, src []byte, iv *[16]byte) { panic("unused") }
func (k stdKernels) CTR(dst, src []byte, ctr *[16]byte)       { panic("unused") }

func newStdlibBackedBlock(key []byte) cipher.Block {
	b, err := stdaes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	return modes.NewBlock(stdKernels{b}, "aes", "stdlib-stand-in")
}
func ariaPaths(t testing.TB) []testPath { return pathsFor(t, newARIABlock, false) }

// refAEAD is crypto/cipher's GCM over crypto/aes (or over the ARIA block,
// which crypto/cipher runs through its generic GCM).
func refAEAD(t testing.TB, newBlock func([]byte) cipher.Block, key []byte, nonceSize, tagSize int) cipher.AEAD {
	t.Helper()
	var b cipher.Block
	if newBlock == nil {
		var err error
		if b, err = stdaes.NewCipher(key); err != nil {
			t.Fatal(err)
		}
	} else {
		b = foreign{newBlock(key)}
	}
	var a cipher.AEAD
	var err error
	if tagSize != standardTagSize {
		a, err = cipher.NewGCMWithTagSize(b, tagSize)
	} else {
		a, err = cipher.NewGCMWithNonceSize(b, nonceSize)
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// ---- known answers ----

// specVectors are test cases 1-6 and 13-16 of McGrew and Viega, "The
// Galois/Counter Mode of Operation (GCM)", appendix B: AES-128 and AES-256,
// with 8-, 12- and 60-byte nonces.
var specVectors = []struct {
	tc                       int
	key, iv, pt, ad, ct, tag string
}{
	{1, "00000000000000000000000000000000", "000000000000000000000000", "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
	{2, "00000000000000000000000000000000", "000000000000000000000000", "00000000000000000000000000000000", "",
		"0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"},
	{3, "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255", "",
		"42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
		"4d5c2af327cd64a62cf35abd2ba6fab4"},
	{4, "feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		"feedfacedeadbeeffeedfacedeadbeefabaddad2",
		"42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
		"5bc94fbc3221a5db94fae95ae7121a47"},
	{5, "feffe9928665731c6d6a8f9467308308", "cafebabefacedbad",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		"feedfacedeadbeeffeedfacedeadbeefabaddad2",
		"61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
		"3612d2e79e3b0785561be14aaca2fccb"},
	{6, "feffe9928665731c6d6a8f9467308308",
		"9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		"feedfacedeadbeeffeedfacedeadbeefabaddad2",
		"8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
		"619cc5aefffe0bfa462af43c1699d050"},
	{13, "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000", "", "", "",
		"530f8afbc74536b9a963b4f1c4cb738b"},
	{14, "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000",
		"00000000000000000000000000000000", "", "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"},
	{15, "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255", "",
		"522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
		"b094dac5d93471bdec1a502270e3cc6c"},
	{16, "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		"feedfacedeadbeeffeedfacedeadbeefabaddad2",
		"522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"[:120],
		"76fc6ece0f4e1768cddf8853bb2d551b"},
}

func TestSpecVectors(t *testing.T) {
	for _, tp := range aesPaths(t) {
		t.Run(tp.name, func(t *testing.T) {
			for _, v := range specVectors {
				key, iv, pt, ad := h(v.key), h(v.iv), h(v.pt), h(v.ad)
				want := append(h(v.ct), h(v.tag)...)
				a := tp.newAEAD(t, key, len(iv), 16)
				checkKnown(t, fmt.Sprintf("test case %d", v.tc), a, iv, pt, ad, want)
			}
		})
	}
}

// checkKnown seals and opens one known answer.
func checkKnown(t *testing.T, what string, a cipher.AEAD, iv, pt, ad, want []byte) {
	t.Helper()
	if got := a.Seal(nil, iv, pt, ad); !bytes.Equal(got, want) {
		t.Errorf("%s: Seal = %x, want %x", what, got, want)
	}
	if got, err := a.Open(nil, iv, want, ad); err != nil || !bytes.Equal(got, pt) {
		t.Errorf("%s: Open = %x, %v; want %x", what, got, err, pt)
	}
}

// TestCAVP runs NIST's gcmEncryptExtIV and gcmDecrypt files; decryption
// records marked FAIL (no PT field) must be rejected.
func TestCAVP(t *testing.T) {
	dir := testkit.SharedPath(t, "aes/cavp/gcm")
	files, _ := filepath.Glob(filepath.Join(dir, "*.rsp"))
	if len(files) != 6 { // gcmEncryptExtIV and gcmDecrypt, 128/192/256
		t.Fatalf("%s: found %d response files, want 6", dir, len(files))
	}
	if testing.Short() {
		// Parsing dominates under the race detector: the 128-bit files only.
		files = slices.DeleteFunc(files, func(f string) bool { return !strings.Contains(f, "128") })
	}
	var recs [][]testkit.Record
	for _, f := range files {
		recs = append(recs, testkit.ParseRSP(t, f))
	}
	for _, tp := range aesPaths(t) {
		t.Run(tp.name, func(t *testing.T) {
			total, rejected, skipped := 0, 0, 0
			cache := map[string]cipher.AEAD{}
			for fi, f := range files {
				for ri, r := range recs[fi] {
					if testing.Short() && ri%5 != 0 {
						skipped++ // -short runs every fifth record
						continue
					}
					key, iv, ct, ad, tag := r.Bytes(t, "Key"), r.Bytes(t, "IV"), r.Bytes(t, "CT"), r.Bytes(t, "AAD"), r.Bytes(t, "Tag")
					if len(tag) < minimumTagSize {
						skipped++ // crypto/cipher refuses tags under 96 bits too
						continue
					}
					ck := fmt.Sprintf("%x/%d/%d", key, len(iv), len(tag))
					a, ok := cache[ck]
					if !ok {
						a = tp.newAEAD(t, key, len(iv), len(tag))
						cache[ck] = a
					}
					if a == nil {
						skipped++
						continue
					}
					sealed := append(slices.Clip(ct), tag...)
					_, hasPT := r.Fields["PT"]
					total++
					if !hasPT {
						dst := make([]byte, 0, len(ct))
						if _, err := a.Open(dst, iv, sealed, ad); err == nil {
							t.Errorf("%s line %d: FAIL record accepted", filepath.Base(f), r.Line)
						}
						rejected++
						continue
					}
					pt := r.Bytes(t, "PT")
					if got := a.Seal(nil, iv, pt, ad); !bytes.Equal(got, sealed) {
						t.Errorf("%s line %d: Seal differs", filepath.Base(f), r.Line)
					}
					if got, err := a.Open(nil, iv, sealed, ad); err != nil || !bytes.Equal(got, pt) {
						t.Errorf("%s line %d: Open failed or differs: %v", filepath.Base(f), r.Line, err)
					}
				}
			}
			if (!testing.Short() && total+skipped != 47250) || rejected == 0 || total < 1000 {
				t.Errorf("ran %d records (%d FAIL records rejected, %d short tags skipped); the files look incomplete", total, rejected, skipped)
			}
		})
	}
}

// TestWycheproof runs aes_gcm_test.json and aria_gcm_test.json.
func TestWycheproof(t *testing.T) {
	for _, c := range []struct {
		file  string
		paths []testPath
	}{
		{"aes_gcm_test.json", aesPaths(t)},
		{"aria_gcm_test.json", ariaPaths(t)},
	} {
		path := testkit.SharedPath(t, "wycheproof/testvectors_v1/"+c.file)
		tests := testkit.ReadWycheproof(t, path)
		for _, tp := range c.paths {
			t.Run(c.file+"/"+tp.name, func(t *testing.T) {
				valid, invalid := 0, 0
				for _, tc := range tests {
					key, iv, ad, msg, ct, tag := tc.Key, tc.IV, tc.Aad, tc.Msg, tc.Ct, tc.Tag
					if len(iv) == 0 {
						// Both crypto/cipher and New refuse empty nonces.
						if _, err := NewWithNonceSize(foreign{newAESBlock(make([]byte, 16))}, 0); err == nil {
							t.Fatal("NewWithNonceSize accepted size 0")
						}
						invalid++
						continue
					}
					a := tp.newAEAD(t, key, len(iv), len(tag))
					if a == nil {
						continue
					}
					sealed := append(slices.Clip(ct), tag...)
					got, err := a.Open(nil, iv, sealed, ad)
					switch tc.Result {
					case "valid", "acceptable":
						if err != nil || !bytes.Equal(got, msg) {
							t.Errorf("tcId %d (%s): Open failed or differs: %v", tc.TcID, tc.Comment, err)
						}
						if s := a.Seal(nil, iv, msg, ad); !bytes.Equal(s, sealed) {
							t.Errorf("tcId %d (%s): Seal differs", tc.TcID, tc.Comment)
						}
						valid++
					default:
						if err == nil {
							t.Errorf("tcId %d (%s): invalid record accepted", tc.TcID, tc.Comment)
						}
						invalid++
					}
				}
				if valid == 0 || invalid == 0 {
					t.Errorf("%d valid and %d invalid records; expected both", valid, invalid)
				}
			})
		}
	}
}

// ---- differential against crypto/cipher ----

// diffLengths are the plaintext lengths of the differential: all of
// 0..2048, or a spread of them under -short.
func diffLengths() []int {
	var l []int
	for n := 0; n <= 2048; n++ {
		if !testing.Short() || n <= 300 || n%61 == 0 || n%256 <= 1 || n%256 == 255 {
			l = append(l, n)
		}
	}
	return l
}

func TestDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ks := range []int{16, 24, 32} {
		key := testkit.RandBytes(r, ks)
		ref := refAEAD(t, nil, key, standardNonceSize, standardTagSize)
		for _, tp := range aesPaths(t) {
			t.Run(fmt.Sprintf("aes%d/%s", ks*8, tp.name), func(t *testing.T) {
				a := tp.newAEAD(t, key, standardNonceSize, standardTagSize)
				diffOne(t, r, a, ref)
			})
		}
	}
	key := testkit.RandBytes(r, 16)
	ref := refAEAD(t, newARIABlock, key, standardNonceSize, standardTagSize)
	for _, tp := range ariaPaths(t) {
		t.Run("aria128/"+tp.name, func(t *testing.T) {
			diffOne(t, r, tp.newAEAD(t, key, standardNonceSize, standardTagSize), ref)
		})
	}
}

// diffOne compares a with ref over every length, at every source offset
// (each length at one offset, and all 64 offsets on some lengths), with AD
// of every length 0..600 cycled through, in place and appended to a prefix.
func diffOne(t *testing.T, r *rand.Rand, a, ref cipher.AEAD) {
	buf := make([]byte, 2048+64+16+64)
	adBuf := testkit.RandBytes(r, 600)
	nonce := testkit.RandBytes(r, a.NonceSize())
	for i, n := range diffLengths() {
		offs := []int{i % 64}
		if n%97 == 0 && !testing.Short() {
			offs = offs[:0]
			for o := range 64 {
				offs = append(offs, o)
			}
		}
		ad := adBuf[:(i*7)%601]
		pt := testkit.RandBytes(r, n)
		want := ref.Seal(nil, nonce, pt, ad)
		for _, off := range offs {
			// Appending to a prefix.
			prefix := testkit.RandBytes(r, off)
			got := a.Seal(slices.Clip(prefix), nonce, pt, ad)
			if !bytes.Equal(got[:off], prefix) || !bytes.Equal(got[off:], want) {
				t.Fatalf("n=%d off=%d ad=%d: Seal differs from crypto/cipher", n, off, len(ad))
			}
			opened, err := a.Open(prefix[:off:off], nonce, want, ad)
			if err != nil || !bytes.Equal(opened[off:], pt) || !bytes.Equal(opened[:off], prefix) {
				t.Fatalf("n=%d off=%d: Open failed or differs: %v", n, off, err)
			}
			// In place at an offset in a larger buffer.
			io := buf[off : off+n+a.Overhead()]
			copy(io, pt)
			got = a.Seal(io[:0], nonce, io[:n], ad)
			if !bytes.Equal(got, want) {
				t.Fatalf("n=%d off=%d: in-place Seal differs", n, off)
			}
			opened, err = a.Open(io[:0], nonce, io, ad)
			if err != nil || !bytes.Equal(opened, pt) {
				t.Fatalf("n=%d off=%d: in-place Open failed or differs: %v", n, off, err)
			}
		}
	}
}

// TestSizes covers nonce sizes 1..128 (J0 from GHASH of the nonce and its
// lengths block) and tag sizes 12..16 against crypto/cipher, which allows
// one or the other per AEAD, on every path, AES and ARIA (whose GCM builds
// J0, the lengths block and the tag on the portable path).
func TestSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	key := testkit.RandBytes(r, 16)
	lengths := []int{0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000}
	for _, c := range []struct {
		name     string
		newBlock func([]byte) cipher.Block // nil: crypto/aes for the reference
		tps      []testPath
	}{{"aes", nil, aesPaths(t)}, {"aria", newARIABlock, ariaPaths(t)}} {
		for _, tp := range c.tps {
			t.Run(c.name+"/"+tp.name, func(t *testing.T) {
				for ns := 1; ns <= 128; ns++ {
					if testing.Short() && ns > 20 && ns%13 != 0 {
						continue
					}
					a, ref := tp.newAEAD(t, key, ns, 16), refAEAD(t, c.newBlock, key, ns, 16)
					checkPair(t, r, fmt.Sprintf("nonce %d", ns), a, ref, lengths)
				}
				for ts := 12; ts <= 16; ts++ {
					a, ref := tp.newAEAD(t, key, 12, ts), refAEAD(t, c.newBlock, key, 12, ts)
					checkPair(t, r, fmt.Sprintf("tag %d", ts), a, ref, lengths)
				}
			})
		}
	}
}

// TestLongMessages runs messages of 4 KiB and more of every key size under
// 96-bit nonces: the 256-bit Seal switches to another loop from 256 blocks
// on, whose every exit (a batch left or not, a tail or not) these reach.
func TestLongMessages(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	lengths := []int{4096, 4096 + 80, 4096 + 300, 16384 + 17*16 + 5}
	for _, ks := range []int{16, 24, 32} {
		key := testkit.RandBytes(r, ks)
		for _, tp := range aesPaths(t) {
			a, ref := tp.newAEAD(t, key, 12, 16), refAEAD(t, nil, key, 12, 16)
			checkPair(t, r, fmt.Sprintf("%s aes%d", tp.name, ks*8), a, ref, lengths)
		}
	}
}

// TestKeySizesNonces runs the longer messages of every key size under
// nonces other than 96 bits: the 256-bit kernels emit their loops once per
// key size and counter plan, and these take the general counters.
func TestKeySizesNonces(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	lengths := []int{0, 17, 256, 1000, 2100, 4096 + 80}
	for _, ks := range []int{16, 24, 32} {
		key := testkit.RandBytes(r, ks)
		for _, tp := range aesPaths(t) {
			for _, ns := range []int{8, 16, 60} {
				a, ref := tp.newAEAD(t, key, ns, 16), refAEAD(t, nil, key, ns, 16)
				checkPair(t, r, fmt.Sprintf("%s aes%d nonce %d", tp.name, ks*8, ns), a, ref, lengths)
			}
		}
	}
}

func checkPair(t *testing.T, r *rand.Rand, what string, a, ref cipher.AEAD, lengths []int) {
	t.Helper()
	if a.NonceSize() != ref.NonceSize() || a.Overhead() != ref.Overhead() {
		t.Fatalf("%s: NonceSize, Overhead = %d, %d; crypto/cipher has %d, %d", what, a.NonceSize(), a.Overhead(), ref.NonceSize(), ref.Overhead())
	}
	nonce := testkit.RandBytes(r, a.NonceSize())
	for _, n := range lengths {
		pt, ad := testkit.RandBytes(r, n), testkit.RandBytes(r, n%40)
		want := ref.Seal(nil, nonce, pt, ad)
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Fatalf("%s n=%d: Seal differs from crypto/cipher", what, n)
		}
		if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("%s n=%d: Open failed or differs: %v", what, n, err)
		}
	}
}

// ---- counter wrap ----

// gfMulRef multiplies in GHASH's field bit by bit (SP 800-38D, algorithm 1).
func gfMulRef(x, y [16]byte) (z [16]byte) {
	v := y
	for i := range 128 {
		if x[i/8]>>(7-i%8)&1 == 1 {
			for j := range z {
				z[j] ^= v[j]
			}
		}
		lsb := v[15] & 1
		for j := 15; j > 0; j-- {
			v[j] = v[j]>>1 | v[j-1]<<7
		}
		v[0] >>= 1
		if lsb == 1 {
			v[0] ^= 0xe1
		}
	}
	return z
}

func gfInv(a [16]byte) [16]byte {
	// a^(2^128-2): 127 one bits, then a zero.
	one := [16]byte{0x80}
	r := one
	for range 127 {
		r = gfMulRef(gfMulRef(r, r), a)
	}
	return gfMulRef(r, r)
}

// nonceForJ0 returns a 16-byte nonce whose derived first counter block is
// j0: J0 = N·H² + L·H for the one-block nonce N and length block L.
func nonceForJ0(key []byte, j0 [16]byte) []byte {
	b, _ := stdaes.NewCipher(key)
	var hk [16]byte
	b.Encrypt(hk[:], hk[:])
	var l [16]byte
	binary.BigEndian.PutUint64(l[8:], 128)
	lh := gfMulRef(l, hk)
	for i := range j0 {
		j0[i] ^= lh[i]
	}
	n := gfMulRef(j0, gfInv(gfMulRef(hk, hk)))
	return n[:]
}

// TestCounterWrap takes nonces whose J0 ends in ffffffff and nearby, so
// that the 32-bit counter wraps inside the message (GCM does not carry
// into the rest of the block). The lows ending in 1 start the message at a
// counter of 2 modulo 16, as a 96-bit nonce does, which the 256-bit
// kernels' fast counters take (the wrap then falls on a batch's last two
// blocks, or inside the first batch).
func TestCounterWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	key := testkit.RandBytes(r, 16)
	aesRef := refAEAD(t, nil, key, 16, 16)
	ariaRef := refAEAD(t, newARIABlock, key, 16, 16)
	for _, low := range []uint32{0xffffffff, 0xfffffffe, 0xfffffff0, 0xffffffe0, 0xffffff00, 0xfffffff1, 0xffffffe1, 0xffffff01, 0xfffffde1} {
		var j0 [16]byte
		copy(j0[:], testkit.RandBytes(r, 12))
		binary.BigEndian.PutUint32(j0[12:], low)
		nonce := nonceForJ0(key, j0)
		for _, c := range []struct {
			ref   cipher.AEAD
			paths []testPath
		}{{aesRef, aesPaths(t)}, {ariaRef, ariaPaths(t)}} {
			for _, tp := range c.paths {
				a := tp.newAEAD(t, key, 16, 16)
				for _, n := range []int{0, 16, 31, 64, 255, 256, 1024, 4096 + 80, 8200} {
					pt := testkit.RandBytes(r, n)
					want := c.ref.Seal(nil, nonce, pt, nil)
					if got := a.Seal(nil, nonce, pt, nil); !bytes.Equal(got, want) {
						t.Fatalf("%s J0 low %08x n=%d: Seal differs from crypto/cipher", tp.name, low, n)
					}
					if got, err := a.Open(nil, nonce, want, nil); err != nil || !bytes.Equal(got, pt) {
						t.Fatalf("%s J0 low %08x n=%d: Open failed or differs", tp.name, low, n)
					}
				}
			}
		}
	}
}

// ---- forgeries ----

// TestTamper flips every bit of ciphertext, tag, AD and nonce in turn: each
// must be rejected, with dst left zeroed.
func TestTamper(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	key := testkit.RandBytes(r, 16)
	lengths := []int{0, 1, 16, 33, 100, 300}
	if !testing.Short() {
		lengths = append(lengths, 1024, 2049)
	}
	for _, tp := range aesPaths(t) {
		t.Run(tp.name, func(t *testing.T) {
			for _, ns := range []int{12, 7} {
				a := tp.newAEAD(t, key, ns, 16)
				nonce := testkit.RandBytes(r, ns)
				for _, n := range lengths {
					pt, ad := testkit.RandBytes(r, n), testkit.RandBytes(r, 1+n%50)
					ct := a.Seal(nil, nonce, pt, ad)
					reject := func(what string, bit int, nonce, ct, ad []byte) {
						dst := make([]byte, len(ct))
						for i := range dst {
							dst[i] = 0xaa
						}
						out, err := a.Open(dst[:0], nonce, ct, ad)
						if err == nil || out != nil {
							t.Fatalf("n=%d: flipped %s bit %d accepted", n, what, bit)
						}
						for _, c := range dst[:len(ct)-a.Overhead()] {
							if c != 0 {
								t.Fatalf("n=%d: flipped %s bit %d: dst not cleared", n, what, bit)
							}
						}
					}
					for _, f := range []struct {
						what string
						buf  []byte
					}{{"ciphertext/tag", ct}, {"AD", ad}, {"nonce", nonce}} {
						for bit := 0; bit < 8*len(f.buf); bit++ {
							if 8*len(f.buf) > 1200 && bit%7 != 0 {
								continue
							}
							f.buf[bit/8] ^= 1 << (bit % 8)
							reject(f.what, bit, nonce, ct, ad)
							f.buf[bit/8] ^= 1 << (bit % 8)
						}
					}
					if _, err := a.Open(nil, nonce, ct, ad); err != nil {
						t.Fatalf("n=%d: restored message rejected", n)
					}
					if _, err := a.Open(nil, nonce, ct[:len(ct)-1], ad); err == nil {
						t.Fatalf("n=%d: truncated message accepted", n)
					}
				}
			}
		})
	}
}

// ---- guard pages ----

// TestGuardPages puts plaintext, ciphertext, AD, nonce and destination
// flush against inaccessible pages: a kernel touching one byte outside
// them kills the test.
func TestGuardPages(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	key := testkit.RandBytes(r, 32)
	lengths := testkit.GuardedLengths
	if testing.Short() {
		lengths = slices.DeleteFunc(slices.Clone(lengths), func(n int) bool { return n > 64 && n%7 != 0 })
	}
	ref := refAEAD(t, nil, key, 12, 16)
	guarded := func(n int, atEnd bool) []byte {
		b, free, ok := testkit.Guarded(n, atEnd)
		if !ok {
			t.Skip("guard pages unavailable on this platform")
		}
		t.Cleanup(free)
		return b
	}
	all := append(aesPaths(t), ariaPaths(t)...) // ARIA's are named #01 by t.Run
	for _, tp := range all {
		t.Run(tp.name, func(t *testing.T) {
			a := tp.newAEAD(t, key, 12, 16)
			for _, atEnd := range []bool{true, false} {
				nonce := guarded(12, atEnd)
				copy(nonce, testkit.RandBytes(r, 12))
				for _, n := range lengths {
					pt, ad := guarded(n, atEnd), guarded(n%97, atEnd)
					copy(pt, testkit.RandBytes(r, n))
					copy(ad, testkit.RandBytes(r, len(ad)))
					ct := guarded(n+16, atEnd)
					a.Seal(ct[:0], nonce, pt, ad)
					if !tp.aria {
						if want := ref.Seal(nil, nonce, pt, ad); !bytes.Equal(ct, want) {
							t.Fatalf("n=%d: Seal differs from crypto/cipher", n)
						}
					}
					out := guarded(n, atEnd)
					if _, err := a.Open(out[:0], nonce, ct, ad); err != nil || !bytes.Equal(out, pt) {
						t.Fatalf("n=%d: Open failed or differs: %v", n, err)
					}
					// In place, exactly the buffer's size.
					if _, err := a.Open(ct[:0], nonce, ct, ad); err != nil || !bytes.Equal(ct[:n], pt) {
						t.Fatalf("n=%d: in-place Open failed or differs: %v", n, err)
					}
				}
			}
		})
	}
}

// ---- API ----

func TestConstructors(t *testing.T) {
	b := newAESBlock(make([]byte, 16))
	for _, c := range []struct {
		name string
		new  func() (cipher.AEAD, error)
		want error
	}{
		{"tag 11", func() (cipher.AEAD, error) { return NewWithTagSize(b, 11) }, errTagSize},
		{"tag 17", func() (cipher.AEAD, error) { return NewWithTagSize(b, 17) }, errTagSize},
		{"nonce 0", func() (cipher.AEAD, error) { return NewWithNonceSize(b, 0) }, errNonceSize},
		{"nonce -1", func() (cipher.AEAD, error) { return NewWithNonceSize(b, -1) }, errNonceSize},
		{"block 8", func() (cipher.AEAD, error) { return New(eightByteBlock{}) }, errBlockSize},
		{"random block 8", func() (cipher.AEAD, error) { return NewWithRandomNonce(eightByteBlock{}) }, errBlockSize},
	} {
		if _, err := c.new(); err == nil || err.Error() != c.want.Error() {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
	// crypto/cipher gives the same texts.
	sb, _ := stdaes.NewCipher(make([]byte, 16))
	if _, err := cipher.NewGCMWithTagSize(sb, 11); err == nil || err.Error() != errTagSize.Error() {
		t.Errorf("crypto/cipher's tag size error changed: %v", err)
	}
	if _, err := cipher.NewGCMWithNonceSize(sb, 0); err == nil || err.Error() != errNonceSize.Error() {
		t.Errorf("crypto/cipher's nonce size error changed: %v", err)
	}
	a, err := New(b)
	if err != nil {
		t.Fatal(err)
	}
	if a.NonceSize() != 12 || a.Overhead() != 16 {
		t.Errorf("New: NonceSize, Overhead = %d, %d", a.NonceSize(), a.Overhead())
	}
	t.Logf("New chose %s", pathOf(a))
}

type eightByteBlock struct{}

func (eightByteBlock) BlockSize() int          { return 8 }
func (eightByteBlock) Encrypt(dst, src []byte) { copy(dst, src[:8]) }
func (eightByteBlock) Decrypt(dst, src []byte) { copy(dst, src[:8]) }

// TestPanics checks each misuse panics with crypto/cipher's message.
func TestPanics(t *testing.T) {
	key := make([]byte, 16)
	sb, _ := stdaes.NewCipher(key)
	std, _ := cipher.NewGCM(sb)
	stdRandom, _ := cipher.NewGCMWithRandomNonce(sb)
	for _, tp := range aesPaths(t) {
		a := tp.newAEAD(t, key, 12, 16)
		random := tp.newAEAD(t, key, randomNonceMode, 16)
		buf := make([]byte, 200)
		for _, c := range []struct {
			name     string
			ours     func(a cipher.AEAD)
			std, rnd bool
		}{
			{"short nonce", func(a cipher.AEAD) { a.Seal(nil, make([]byte, 11), nil, nil) }, true, false},
			{"long nonce open", func(a cipher.AEAD) { a.Open(nil, make([]byte, 13), make([]byte, 16), nil) }, true, false},
			{"inexact overlap", func(a cipher.AEAD) { a.Seal(buf[:0], make([]byte, a.NonceSize()), buf[1:50], nil) }, true, true},
			{"AD overlap", func(a cipher.AEAD) { a.Seal(buf[:0], make([]byte, a.NonceSize()), buf[100:120], buf[10:20]) }, true, true},
			{"open inexact overlap", func(a cipher.AEAD) { a.Open(buf[:0], make([]byte, a.NonceSize()), buf[1:80], nil) }, true, true},
			{"nonce to random", func(a cipher.AEAD) { a.Seal(nil, make([]byte, 12), nil, nil) }, false, true},
		} {
			for _, pair := range []struct {
				ours, ref cipher.AEAD
				run       bool
			}{{a, std, c.std}, {random, stdRandom, c.rnd}} {
				if !pair.run {
					continue
				}
				want := testkit.PanicMessage(func() { c.ours(pair.ref) })
				got := testkit.PanicMessage(func() { c.ours(pair.ours) })
				if want == "" {
					t.Fatalf("%s: crypto/cipher did not panic", c.name)
				}
				if got != want {
					t.Errorf("%s/%s: panic %q, crypto/cipher panics %q", tp.name, c.name, got, want)
				}
			}
		}
	}
}

// TestRandomNonce checks NewWithRandomNonce against crypto/cipher's
// format: crypto/cipher's Open takes our Seal's output and back.
func TestRandomNonce(t *testing.T) {
	key := testkit.RandBytes(rand.New(rand.NewPCG(11, 12)), 16)
	sb, _ := stdaes.NewCipher(key)
	std, _ := cipher.NewGCMWithRandomNonce(sb)
	for _, tp := range aesPaths(t) {
		a := tp.newAEAD(t, key, randomNonceMode, 16)
		if a.NonceSize() != 0 || a.Overhead() != 28 {
			t.Fatalf("%s: NonceSize, Overhead = %d, %d", tp.name, a.NonceSize(), a.Overhead())
		}
		for _, n := range []int{0, 1, 100, 1000} {
			pt := make([]byte, n)
			ct := a.Seal([]byte("prefix"), nil, pt, []byte("ad"))
			if got, err := std.Open(nil, nil, ct[6:], []byte("ad")); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s n=%d: crypto/cipher cannot open our Seal: %v", tp.name, n, err)
			}
			ct2 := std.Seal(nil, nil, pt, nil)
			if got, err := a.Open(nil, nil, ct2, nil); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s n=%d: cannot open crypto/cipher's Seal: %v", tp.name, n, err)
			}
			// In place, as crypto/cipher allows.
			buf := make([]byte, n, n+28)
			ct3 := a.Seal(buf[:0], nil, buf, nil)
			if got, err := a.Open(ct3[:0], nil, ct3, nil); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s n=%d: in-place round trip failed: %v", tp.name, n, err)
			}
			ct3[len(ct3)-1] ^= 1
			if _, err := a.Open(nil, nil, ct3, nil); err == nil {
				t.Fatalf("%s n=%d: forgery accepted", tp.name, n)
			}
		}
	}
}

func TestNoAllocs(t *testing.T) {
	if testing.Short() && raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	key := make([]byte, 16)
	for _, tp := range aesPaths(t) {
		if tp.name == "generic" || tp.name == "generic/foreign" {
			continue // the interface calls of a foreign block's Encrypt allocate
		}
		a := tp.newAEAD(t, key, 12, 16)
		nonce, pt, ad := make([]byte, 12), make([]byte, 100), make([]byte, 20)
		out := make([]byte, 0, 200)
		ct := a.Seal(nil, nonce, pt, ad)
		if n := testing.AllocsPerRun(20, func() {
			a.Seal(out[:0], nonce, pt, ad)
			a.Open(out[:0], nonce, ct, ad)
		}); n != 0 {
			t.Errorf("%s: %v allocations per Seal and Open", tp.name, n)
		}
	}
}

// TestDispatch checks New picks the first path the CPU runs, and that
// masks move it.
func TestDispatch(t *testing.T) {
	b := newAESBlock(make([]byte, 16))
	for _, c := range []struct{ mask, want string }{
		{"", ""},
		{"avx512=off", "vaes256"},
		{"vaes=off", "aesni"},
		{"vpclmulqdq=off", "aesni"},
		{"all=off", "generic"},
	} {
		restore := testkit.Mask(t, c.mask)
		a, err := New(b)
		// The expected path is worked out under the same mask as New ran.
		want := c.want
		if want == "" {
			for _, p := range paths {
				if cpu.HasAll(p.Requires...) && !(p.Wide && cpu.Has(cpu.Prefer256)) && p.New(b, 12, 16) != nil {
					want = p.Name
					break
				}
			}
		}
		restore()
		if err != nil {
			t.Fatal(err)
		}
		ok := false // the wanted path exists here and the CPU runs it
		for _, p := range paths {
			if p.Name == want {
				restore, _ := cpu.SetMask(c.mask)
				ok = cpu.HasAll(p.Requires...)
				restore()
			}
		}
		if ok && pathOf(a) != want {
			t.Errorf("mask %q: New chose %s, want %s", c.mask, pathOf(a), want)
		}
	}
}

// TestConcurrent uses one AEAD per path from several goroutines at once:
// the per-message state must live in each call (run it with -race).
func TestConcurrent(t *testing.T) {
	key := make([]byte, 16)
	ref := refAEAD(t, nil, key, 12, 16)
	for _, tp := range aesPaths(t) {
		a := tp.newAEAD(t, key, 12, 16)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(g), 15))
				for range 50 {
					nonce, pt := testkit.RandBytes(r, 12), testkit.RandBytes(r, r.IntN(600))
					want := ref.Seal(nil, nonce, pt, nonce)
					if got := a.Seal(nil, nonce, pt, nonce); !bytes.Equal(got, want) {
						t.Errorf("%s: concurrent Seal differs", tp.name)
						return
					}
					if got, err := a.Open(nil, nonce, want, nonce); err != nil || !bytes.Equal(got, pt) {
						t.Errorf("%s: concurrent Open failed", tp.name)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}

// TestCatalog checks that the catalogue lists every path but stdlib, in
// dispatch order, and that each runnable path's constructor agrees with
// crypto/cipher's GCM.
func TestCatalog(t *testing.T) {
	cat := testkit.Paths("gcm")
	if len(cat) != len(paths)-1 {
		t.Fatalf("catalogue has %d gcm paths, want %d", len(cat), len(paths)-1)
	}
	key := make([]byte, 16)
	sb, _ := stdaes.NewCipher(key)
	std, _ := cipher.NewGCM(sb)
	nonce, msg := make([]byte, 12), []byte("catalogue round trip, more than one block")
	want := std.Seal(nil, nonce, msg, nil)
	for i, p := range cat {
		if p.Name != paths[i+1].Name || p.NewAEADOver == nil {
			t.Fatalf("catalogue path %d is %s, want %s with a constructor", i, p.Name, paths[i+1].Name)
		}
		if !p.Available() {
			continue
		}
		b, _ := aes.NewCipher(key)
		a, err := p.NewAEADOver(b)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if got := a.Seal(nil, nonce, msg, nil); !bytes.Equal(got, want) || pathOf(a) != p.Name {
			t.Errorf("%s (ran %s): Seal = %x, want %x", p.Name, pathOf(a), got, want)
		}
	}
	if p, _ := table.Path(); p == nil {
		t.Fatal("no chosen path")
	}
}
