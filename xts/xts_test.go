package xts_test

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
	"strconv"
	"strings"
	"sync"
	"testing"

	xxts "golang.org/x/crypto/xts"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	"github.com/simdcrypt/simdcrypt/xts"
)

var h = testkit.Hex

// ranPaths and skippedPaths collect what the suite ran, for the summary
// line TestMain prints.
var (
	summaryMu    sync.Mutex
	ranPaths     = map[string]bool{}
	skippedPaths = map[string]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	var ran, skipped []string
	for _, p := range xts.Paths() {
		if ranPaths[p.Name] {
			ran = append(ran, p.Name)
		} else if why, ok := skippedPaths[p.Name]; ok {
			skipped = append(skipped, p.Name+" ("+why+")")
		}
	}
	if len(ran)+len(skipped) > 0 {
		fmt.Printf("xts: paths tested: %s; not runnable here: %s\n", strings.Join(ran, " "), orNone(skipped))
	}
	os.Exit(testkit.Summarize(code, "xts"))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// forEachPath runs f for every path with a constructor pinned to it. The
// assembly paths get this module's AES; the portable path runs over both
// this module's AES and crypto/aes. Paths this CPU cannot run (or
// SIMDCRYPT_CPU masks) are skipped by name.
func forEachPath(t *testing.T, f func(t *testing.T, newCipher func(key []byte) *xts.Cipher)) {
	t.Helper()
	for _, p := range xts.Paths() {
		t.Run(p.Name, func(t *testing.T) {
			if !p.Usable {
				summaryMu.Lock()
				skippedPaths[p.Name] = fmt.Sprintf("needs %v", p.Missing)
				summaryMu.Unlock()
				t.Skipf("xts/%s not tested here: needs %v, which this CPU lacks or SIMDCRYPT_CPU masks", p.Name, p.Missing)
			}
			summaryMu.Lock()
			ranPaths[p.Name] = true
			summaryMu.Unlock()
			blockFuncs := map[string]func([]byte) (cipher.Block, error){"simdcrypt-aes": aes.NewCipher}
			if p.Name == "generic" {
				blockFuncs["crypto-aes"] = stdaes.NewCipher
			}
			for bname, bf := range blockFuncs {
				t.Run(bname, func(t *testing.T) {
					f(t, func(key []byte) *xts.Cipher {
						c, err := xts.NewCipherOnPath(p.Name, bf, key)
						if err != nil {
							t.Fatal(err)
						}
						if c.Impl() != p.Name {
							t.Fatalf("cipher runs %s, want %s", c.Impl(), p.Name)
						}
						return c
					})
				})
			}
		})
	}
}

type vector struct {
	name   string
	key    string
	sector uint64
	pt, ct string
}

// IEEE 1619-2007 annex B: vectors 1-5 and 10 (whole blocks, the ones
// x/crypto's tests use) and 15-18 (ciphertext stealing).
var ieeeVectors = []vector{
	{"IEEE 1619 vector 1", "0000000000000000000000000000000000000000000000000000000000000000", 0,
		"0000000000000000000000000000000000000000000000000000000000000000",
		"917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e"},
	{"IEEE 1619 vector 2", "1111111111111111111111111111111122222222222222222222222222222222", 0x3333333333,
		"4444444444444444444444444444444444444444444444444444444444444444",
		"c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0"},
	{"IEEE 1619 vector 3", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f022222222222222222222222222222222", 0x3333333333,
		"4444444444444444444444444444444444444444444444444444444444444444",
		"af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89"},
	{"IEEE 1619 vector 4", "2718281828459045235360287471352631415926535897932384626433832795", 0,
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		"27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89cc78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad02655ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f4341332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203ebb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18deb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568"},
	{"IEEE 1619 vector 5", "2718281828459045235360287471352631415926535897932384626433832795", 1,
		"27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89cc78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad02655ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f4341332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203ebb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18deb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568",
		"264d3ca8512194fec312c8c9891f279fefdd608d0c027b60483a3fa811d65ee59d52d9e40ec5672d81532b38b6b089ce951f0f9c35590b8b978d175213f329bb1c2fd30f2f7f30492a61a532a79f51d36f5e31a7c9a12c286082ff7d2394d18f783e1a8e72c722caaaa52d8f065657d2631fd25bfd8e5baad6e527d763517501c68c5edc3cdd55435c532d7125c8614deed9adaa3acade5888b87bef641c4c994c8091b5bcd387f3963fb5bc37aa922fbfe3df4e5b915e6eb514717bdd2a74079a5073f5c4bfd46adf7d282e7a393a52579d11a028da4d9cd9c77124f9648ee383b1ac763930e7162a8d37f350b2f74b8472cf09902063c6b32e8c2d9290cefbd7346d1c779a0df50edcde4531da07b099c638e83a755944df2aef1aa31752fd323dcb710fb4bfbb9d22b925bc3577e1b8949e729a90bbafeacf7f7879e7b1147e28ba0bae940db795a61b15ecf4df8db07b824bb062802cc98a9545bb2aaeed77cb3fc6db15dcd7d80d7d5bc406c4970a3478ada8899b329198eb61c193fb6275aa8ca340344a75a862aebe92eee1ce032fd950b47d7704a3876923b4ad62844bf4a09c4dbe8b4397184b7471360c9564880aedddb9baa4af2e75394b08cd32ff479c57a07d3eab5d54de5f9738b8d27f27a9f0ab11799d7b7ffefb2704c95c6ad12c39f1e867a4b7b1d7818a4b753dfd2a89ccb45e001a03a867b187f225dd"},
	{"IEEE 1619 vector 10", "27182818284590452353602874713526624977572470936999595749669676273141592653589793238462643383279502884197169399375105820974944592", 0xff,
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		"1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b5d31e276f8fe4a8d66b317f9ac683f44680a86ac35adfc3345befecb4bb188fd5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca2a3e7a7d7df7b10355165c8b9a6d0a7de8b062c4500dc4cd120c0f7418dae3d0b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec583e9645e07b8d9670655ba5bbcfecc6dc3966380ad8fecb17b6ba02469a020a84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae9be69a2ffeceb1bec9de244fbe15992b11b77c040f12bd8f6a975a44a0f90c29a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f645e8b7e9bfdef33943054ff84011493c27b3429eaedb4ed5376441a77ed43851ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151"},
	{"IEEE 1619 vector 15", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", 0x123456789a,
		"000102030405060708090a0b0c0d0e0f10", "6c1625db4671522d3d7599601de7ca09ed"},
	{"IEEE 1619 vector 16", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", 0x123456789a,
		"000102030405060708090a0b0c0d0e0f1011", "d069444b7a7e0cab09e24447d24deb1fedbf"},
	{"IEEE 1619 vector 17", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", 0x123456789a,
		"000102030405060708090a0b0c0d0e0f101112", "e5df1351c0544ba1350b3363cd8ef4beedbf9d"},
	{"IEEE 1619 vector 18", "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", 0x123456789a,
		"000102030405060708090a0b0c0d0e0f10111213", "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac"},
}

func TestIEEEVectors(t *testing.T) {
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		for _, v := range ieeeVectors {
			c := newCipher(h(v.key))
			pt, ct := h(v.pt), h(v.ct)
			got := make([]byte, len(pt))
			c.Encrypt(got, pt, v.sector)
			if !bytes.Equal(got, ct) {
				t.Errorf("%s encrypt:\n got %x\nwant %x", v.name, got, ct)
			}
			c.Decrypt(got, ct, v.sector)
			if !bytes.Equal(got, pt) {
				t.Errorf("%s decrypt:\n got %x\nwant %x", v.name, got, pt)
			}
		}
	})
}

// TestCAVP runs NIST's XTSGenAES128/256 records. Records whose data unit
// is not a whole number of bytes (XTS over bit strings) are skipped and
// counted: the API takes bytes.
func TestCAVP(t *testing.T) {
	dir := testkit.SharedPath(t, "aes/cavp/xts")
	files, _ := filepath.Glob(filepath.Join(dir, "XTSGenAES*.rsp"))
	if len(files) != 2 {
		t.Fatalf("found %d XTSGenAES files in %s, want 2", len(files), dir)
	}
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		ran, skipped := 0, 0
		for _, p := range files {
			for _, rec := range testkit.ParseRSP(t, p) {
				bits, err := strconv.Atoi(rec.Fields["DataUnitLen"])
				if err != nil {
					t.Fatalf("%s line %d: DataUnitLen: %v", p, rec.Line, err)
				}
				if bits%8 != 0 {
					skipped++
					continue
				}
				c := newCipher(rec.Bytes(t, "Key"))
				tweak := [16]byte(rec.Bytes(t, "i"))
				pt, ct := rec.Bytes(t, "PT"), rec.Bytes(t, "CT")
				if len(pt) != bits/8 || len(ct) != bits/8 {
					t.Fatalf("%s line %d: data lengths disagree with DataUnitLen", p, rec.Line)
				}
				got := make([]byte, len(pt))
				if rec.Section == "DECRYPT" {
					c.CryptTweak(got, ct, &tweak, true)
					if !bytes.Equal(got, pt) {
						t.Errorf("%s line %d (%d bits) decrypt: mismatch", filepath.Base(p), rec.Line, bits)
					}
				} else {
					c.CryptTweak(got, pt, &tweak, false)
					if !bytes.Equal(got, ct) {
						t.Errorf("%s line %d (%d bits) encrypt: mismatch", filepath.Base(p), rec.Line, bits)
					}
				}
				ran++
			}
		}
		t.Logf("%d CAVP records passed; %d skipped: their data unit is not a whole number of bytes", ran, skipped)
		if ran != 1400 || skipped != 600 {
			t.Errorf("ran %d and skipped %d records, want 1400 and 600", ran, skipped)
		}
	})
}

// TestWycheproof runs aes_xts_test.json. Its IV is the tweak input's first
// bytes, the rest zero; keys of 32, 48 and 64 bytes are AES-128, -192 and
// -256 XTS.
func TestWycheproof(t *testing.T) {
	path := filepath.Join(testkit.SharedPath(t, "wycheproof/testvectors_v1"), "aes_xts_test.json")
	tests := testkit.ReadWycheproof(t, path)
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		n := 0
		for _, tc := range tests {
			if tc.Result != "valid" {
				t.Fatalf("tcId %d: unexpected result %q", tc.TcID, tc.Result)
			}
			c := newCipher(tc.Key)
			var tweak [16]byte
			copy(tweak[:], tc.IV)
			msg, ct := tc.Msg, tc.Ct
			got := make([]byte, len(msg))
			c.CryptTweak(got, msg, &tweak, false)
			if !bytes.Equal(got, ct) {
				t.Errorf("tcId %d (%d bytes) encrypt: mismatch", tc.TcID, len(msg))
			}
			c.CryptTweak(got, ct, &tweak, true)
			if !bytes.Equal(got, msg) {
				t.Errorf("tcId %d (%d bytes) decrypt: mismatch", tc.TcID, len(msg))
			}
			n++
		}
		t.Logf("%d Wycheproof records passed", n)
	})
}

var keySizes = []int{32, 48, 64}

// reference returns the expected output: x/crypto/xts over crypto/aes for
// whole blocks, the portable stealing path over crypto/aes otherwise.
func reference(key []byte, sector uint64, src []byte, decrypt bool) []byte {
	out := make([]byte, len(src))
	if len(src)%16 == 0 {
		x, err := xxts.NewCipher(stdaes.NewCipher, key)
		if err != nil {
			panic(err)
		}
		if decrypt {
			x.Decrypt(out, src, sector)
		} else {
			x.Encrypt(out, src, sector)
		}
		return out
	}
	c, err := xts.NewCipherOnPath("generic", stdaes.NewCipher, key)
	if err != nil {
		panic(err)
	}
	var tweak [16]byte
	binary.LittleEndian.PutUint64(tweak[:], sector)
	c.Stealing(out, src, &tweak, decrypt)
	return out
}

func crypt(c *xts.Cipher, dst, src []byte, sector uint64, decrypt bool) {
	if decrypt {
		c.Decrypt(dst, src, sector)
	} else {
		c.Encrypt(dst, src, sector)
	}
}

// TestDifferential compares every length 16..4096 (-short: to 1100), with
// source offsets 0..63 and destination offsets apart from them, and in place,
// against the reference, in both directions, for each key size.
func TestDifferential(t *testing.T) {
	maxLen := 4096
	if testing.Short() {
		maxLen = 1100
	}
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, ks := range keySizes {
			key := testkit.RandBytes(r, ks)
			c := newCipher(key)
			data := testkit.RandBytes(r, maxLen)
			srcBuf := make([]byte, maxLen+64)
			dstBuf := make([]byte, maxLen+64+1)
			for n := 16; n <= maxLen; n++ {
				sector := r.Uint64()
				for _, decrypt := range []bool{false, true} {
					want := reference(key, sector, data[:n], decrypt)
					so, do := n%64, (n*13+7)%64
					src := srcBuf[so : so+n]
					copy(src, data[:n])
					dst := dstBuf[do : do+n]
					dstBuf[do+n] = 0xa5
					crypt(c, dst, src, sector, decrypt)
					if !bytes.Equal(dst, want) {
						t.Fatalf("key %d len %d decrypt=%v: mismatch at byte %d", ks, n, decrypt, firstDiff(dst, want))
					}
					if dstBuf[do+n] != 0xa5 {
						t.Fatalf("key %d len %d decrypt=%v: wrote past the end", ks, n, decrypt)
					}
					if !bytes.Equal(src, data[:n]) {
						t.Fatalf("key %d len %d decrypt=%v: modified the source", ks, n, decrypt)
					}
					crypt(c, src, src, sector, decrypt)
					if !bytes.Equal(src, want) {
						t.Fatalf("key %d len %d decrypt=%v: in place mismatch at byte %d", ks, n, decrypt, firstDiff(src, want))
					}
				}
			}
		}
	})
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestSectorEdges uses sector numbers near 2^64 and tweak inputs with the
// high half set, and lengths where the tweak's doubling carries.
func TestSectorEdges(t *testing.T) {
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, ks := range keySizes {
			key := testkit.RandBytes(r, ks)
			c := newCipher(key)
			data := testkit.RandBytes(r, 4096+15)
			for _, sector := range []uint64{0, 1, 1<<63 - 1, 1 << 63, 1<<64 - 2, 1<<64 - 1} {
				for _, n := range []int{16, 17, 31, 512, 527, 4096, 4096 + 15} {
					for _, decrypt := range []bool{false, true} {
						want := reference(key, sector, data[:n], decrypt)
						got := make([]byte, n)
						crypt(c, got, data[:n], sector, decrypt)
						if !bytes.Equal(got, want) {
							t.Fatalf("key %d sector %#x len %d decrypt=%v: mismatch", ks, sector, n, decrypt)
						}
					}
				}
			}
		}
	})
}

// TestRoundTrip decrypts what each path encrypted, at random lengths.
func TestRoundTrip(t *testing.T) {
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		r := rand.New(rand.NewPCG(5, 6))
		for range 200 {
			key := testkit.RandBytes(r, keySizes[r.IntN(3)])
			c := newCipher(key)
			n := 16 + r.IntN(5000)
			pt := testkit.RandBytes(r, n)
			ct := make([]byte, n)
			sector := r.Uint64()
			c.Encrypt(ct, pt, sector)
			back := make([]byte, n)
			c.Decrypt(back, ct, sector)
			if !bytes.Equal(back, pt) {
				t.Fatalf("len %d: round trip failed", n)
			}
		}
	})
}

// TestGuardPages runs sectors flush against inaccessible pages on either
// side: a kernel that reads or writes one byte outside them faults.
func TestGuardPages(t *testing.T) {
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		r := rand.New(rand.NewPCG(7, 8))
		key := testkit.RandBytes(r, 64)
		c := newCipher(key)
		for _, n := range testkit.GuardedLengths {
			if n < 16 {
				continue
			}
			for _, atEnd := range []bool{true, false} {
				src, freeSrc, ok := testkit.Guarded(n, atEnd)
				if !ok {
					t.Skip("guard pages unavailable on this system")
				}
				dst, freeDst, _ := testkit.Guarded(n, !atEnd)
				data := testkit.RandBytes(r, n)
				for _, decrypt := range []bool{false, true} {
					copy(src, data)
					want := reference(key, 99, data, decrypt)
					crypt(c, dst, src, 99, decrypt)
					if !bytes.Equal(dst, want) {
						t.Fatalf("len %d guarded decrypt=%v: mismatch", n, decrypt)
					}
					crypt(c, src, src, 99, decrypt)
					if !bytes.Equal(src, want) {
						t.Fatalf("len %d guarded in place decrypt=%v: mismatch", n, decrypt)
					}
				}
				freeSrc()
				freeDst()
			}
		}
	})
}

// TestMisuse checks the panics and errors, which follow x/crypto/xts.
func TestMisuse(t *testing.T) {
	c, err := xts.NewCipher(aes.NewCipher, make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	panicsWith := func(what, want string, f func()) {
		t.Helper()
		defer func() {
			t.Helper()
			got, _ := recover().(string)
			if !strings.Contains(got, want) {
				t.Errorf("%s: panic %q, want one containing %q", what, got, want)
			}
		}()
		f()
	}
	panicsWith("Encrypt short dst", "xts: ciphertext is smaller than plaintext", func() { c.Encrypt(buf[:32], make([]byte, 48), 0) })
	panicsWith("Decrypt short dst", "xts: plaintext is smaller than ciphertext", func() { c.Decrypt(buf[:32], make([]byte, 48), 0) })
	for _, n := range []int{1, 8, 15} {
		panicsWith("Encrypt "+strconv.Itoa(n)+" bytes", "xts: plaintext is not a multiple of the block size", func() { c.Encrypt(buf[:n], buf[100:100+n], 0) })
		panicsWith("Decrypt "+strconv.Itoa(n)+" bytes", "xts: ciphertext is not a multiple of the block size", func() { c.Decrypt(buf[:n], buf[100:100+n], 0) })
	}
	panicsWith("Encrypt overlap", "xts: invalid buffer overlap", func() { c.Encrypt(buf[1:65], buf[:64], 0) })
	panicsWith("Decrypt overlap", "xts: invalid buffer overlap", func() { c.Decrypt(buf[1:66], buf[:65], 0) })
	// Empty sectors do nothing, as in x/crypto.
	c.Encrypt(nil, nil, 0)
	c.Decrypt(nil, nil, 0)

	for _, n := range []int{0, 16, 31, 33, 40} {
		if _, err := xts.NewCipher(aes.NewCipher, make([]byte, n)); err == nil {
			t.Errorf("NewCipher accepted a %d-byte key", n)
		}
	}
	des := func([]byte) (cipher.Block, error) { return eightByteBlock{}, nil }
	if _, err := xts.NewCipher(des, make([]byte, 32)); err == nil || err.Error() != "xts: cipher does not have a block size of 16" {
		t.Errorf("NewCipher over an 8-byte block: err = %v", err)
	}
}

type eightByteBlock struct{}

func (eightByteBlock) BlockSize() int          { return 8 }
func (eightByteBlock) Encrypt(dst, src []byte) {}
func (eightByteBlock) Decrypt(dst, src []byte) {}

// TestDispatch checks that any block other than this module's AES runs the
// portable path, and this module's AES an assembly path wherever one is
// usable (which one: dispatch_amd64_test.go).
func TestDispatch(t *testing.T) {
	key := make([]byte, 32)
	c, _ := xts.NewCipher(stdaes.NewCipher, key)
	if c.Impl() != "generic" {
		t.Errorf("over crypto/aes: runs %s, want generic", c.Impl())
	}
	usable := slices.ContainsFunc(xts.Paths(), func(p xts.PathInfo) bool { return p.Usable && p.Name != "generic" })
	c, _ = xts.NewCipher(aes.NewCipher, key)
	c2, _ := catalog.Get("aes")
	if i, _ := c2.Chosen(); usable && i.Name != "generic" && c.Impl() == "generic" {
		t.Errorf("over simdcrypt AES (%s): runs the portable path although an assembly path is usable", i.Name)
	}
}

// TestNoAllocs: sectors are encrypted without touching the heap, on every
// path.
func TestNoAllocs(t *testing.T) {
	forEachPath(t, func(t *testing.T, newCipher func([]byte) *xts.Cipher) {
		c := newCipher(make([]byte, 32))
		buf := make([]byte, 4096+7)
		for _, n := range []int{16, 17, 512, 4096 + 7} {
			if a := testing.AllocsPerRun(10, func() { c.Encrypt(buf[:n], buf[:n], 7) }); a != 0 {
				t.Errorf("Encrypt of %d bytes: %v allocations", n, a)
			}
			if a := testing.AllocsPerRun(10, func() { c.Decrypt(buf[:n], buf[:n], 7) }); a != 0 {
				t.Errorf("Decrypt of %d bytes: %v allocations", n, a)
			}
		}
	})
}

// TestCatalog checks that every runnable path in the catalogue encrypts as
// x/crypto/xts does and that its constructor pins it.
func TestCatalog(t *testing.T) {
	paths := testkit.Paths("xts")
	if len(paths) == 0 || paths[len(paths)-1].Name != "generic" {
		t.Fatalf("catalogue paths %v: want a list ending with generic", paths)
	}
	key := make([]byte, 32)
	ref, _ := xxts.NewCipher(stdaes.NewCipher, key)
	src := make([]byte, 512+16)
	want := make([]byte, len(src))
	ref.Encrypt(want, src, 5)
	for _, p := range paths {
		if !p.Available() {
			continue
		}
		c, err := p.NewXTS(aes.NewCipher, key)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		got := make([]byte, len(src))
		c.Encrypt(got, src, 5)
		if !bytes.Equal(got, want) || c.(*xts.Cipher).Impl() != p.Name {
			t.Errorf("%s (ran %s): ciphertext differs from x/crypto/xts", p.Name, c.(*xts.Cipher).Impl())
		}
	}
}
