package aria

import (
	"bufio"
	"bytes"
	"crypto/cipher"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/ecb"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

var h = testkit.Hex

var (
	mbedKey128 = h("00112233445566778899aabbccddeeff")
	mbedKey256 = h("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")
	mbedCBCIV  = h("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
	mbedCTRIV  = make([]byte, 16)
	// The 160-byte plaintext of the Mbed TLS CBC and CTR records.
	mbedPlaintext = h("11111111aaaaaaaa11111111bbbbbbbb11111111cccccccc11111111dddddddd" +
		"22222222aaaaaaaa22222222bbbbbbbb22222222cccccccc22222222dddddddd" +
		"33333333aaaaaaaa33333333bbbbbbbb33333333cccccccc33333333dddddddd" +
		"44444444aaaaaaaa44444444bbbbbbbb44444444cccccccc44444444dddddddd" +
		"55555555aaaaaaaa55555555bbbbbbbb55555555cccccccc55555555dddddddd")
)

// The core vectors are typed in, so that a clone without the shared vector
// tree still tests every path: RFC 5794 appendix A (one block per key size)
// and the Mbed TLS CBC and CTR records for 128- and 256-bit keys.
var coreVectors = []testkit.BlockVector{
	{Name: "RFC 5794 A.1", Mode: "ecb", Key: h("000102030405060708090a0b0c0d0e0f"),
		Plaintext: h("00112233445566778899aabbccddeeff"), Ciphertext: h("d718fbd6ab644c739da95f3be6451778")},
	{Name: "RFC 5794 A.2", Mode: "ecb", Key: h("000102030405060708090a0b0c0d0e0f1011121314151617"),
		Plaintext: h("00112233445566778899aabbccddeeff"), Ciphertext: h("26449c1805dbe7aa25a468ce263a9e79")},
	{Name: "RFC 5794 A.3", Mode: "ecb", Key: h("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
		Plaintext: h("00112233445566778899aabbccddeeff"), Ciphertext: h("f92bd7c79fb72e2f2b8f80c1972d24fc")},
	{Name: "Mbed TLS ARIA-128-CBC", Mode: "cbc", Key: mbedKey128, IV: mbedCBCIV, Plaintext: mbedPlaintext,
		Ciphertext: h("49d61860b14909109cef0d22a9268134fadf9fb23151e9645fba75018bdb1538b53334634bbf7d4cd4b5377033060c15" +
			"5fe3948ca75de1031e1d85619e0ad61eb419a866b3c2dbfd10a4ed18b22149f75897f0b8668b0c1c542c687778835fb7" +
			"cd46e45f85eaa7072437dd9fa6793d6f8d4ccefc4eb1ac641ac1bd30b18c6d64c49bca137eb21c2e04da62712ca2b4f5" +
			"40c57112c38791852cfac7a5d19ed83a")},
	{Name: "Mbed TLS ARIA-128-CTR", Mode: "ctr", Key: mbedKey128, IV: mbedCTRIV, Plaintext: mbedPlaintext,
		Ciphertext: h("ac5d7de805a0bf1c57c854501af60fa11497e2a34519dea1569e91e5b5ccae2ff3bfa1bf975f4571f48be191613546c3" +
			"911163c085f871f0e7ae5f2a085b81851c2a3ddf20ecb8fa51901aec8ee4ba32a35dab67bb72cd9140ad188a967ac0fb" +
			"bdfa94ea6cce47dcf8525ab5a814cfeb2bb60ee2b126e2d9d847c1a9e96f9019e3e6a7fe40d3829afb73db1cc245646a" +
			"ddb62d9b907baaafbe46a73dbc131d3d")},
	{Name: "Mbed TLS ARIA-256-CBC", Mode: "cbc", Key: mbedKey256, IV: mbedCBCIV, Plaintext: mbedPlaintext,
		Ciphertext: h("523a8a806ae621f155fdd28dbc34e1ab7b9b42432ad8b2efb96e23b13f0a6e52f36185d50ad002c5f601bee5493f118b" +
			"243ee2e313642bffc3902e7b2efd9a12fa682edd2d23c8b9c5f043c18b17c1ec4b5867918270fbec1027c19ed6af833d" +
			"a5d620994668ca22f599791d292dd6273b2959082aafb7a996167cce1eec5f0cfd15f610d87e2dda9ba68ce1260ca54b" +
			"222491418374294e7909b1e8551cd8de")},
	{Name: "Mbed TLS ARIA-256-CTR", Mode: "ctr", Key: mbedKey256, IV: mbedCTRIV, Plaintext: mbedPlaintext,
		Ciphertext: h("30026c329666141721178b99c0a1f1b2f06940253f7b3089e2a30ea86aa3c88f5940f05ad7ee41d71347bb7261e348f1" +
			"8360473fdf7d4e7723bffb4411cc13f6cdd89f3bc7b9c768145022c7a74f14d7c305cd012a10f16050c23f1ae5c23f45" +
			"998d13fbaa041e51619577e0772764896a5d4516d8ffceb3bf7e05f613edd9a60cdcedaff9cfcaf4e00d445a54334f73" +
			"ab2cad944e51d266548e61c6eb0aa1cd")},
}

// spec's reference: neither the standard library nor x/crypto has ARIA,
// so the reference is crypt, RFC 5794 written out byte by byte, which
// shares no code with the bitsliced generic path or the kernels (and is
// checked against the vectors here and against OpenSSL in TestOpenSSL).
var spec = testkit.BlockSpec{
	Cipher:    cipherName,
	KeySizes:  []int{16, 24, 32},
	Vectors:   coreVectors,
	Reference: newRFCBlock,
}

// rfcBlock is a cipher.Block over crypt, for spec.Reference.
type rfcBlock struct{ s *schedule }

func newRFCBlock(key []byte) (cipher.Block, error) {
	s, err := expandKey(key)
	if err != nil {
		return nil, err
	}
	return rfcBlock{s}, nil
}

func (rfcBlock) BlockSize() int { return BlockSize }
func (b rfcBlock) Encrypt(dst, src []byte) {
	crypt(&b.s.enc, b.s.rounds, (*block)(dst), (*block)(src))
}
func (b rfcBlock) Decrypt(dst, src []byte) {
	crypt(&b.s.dec, b.s.rounds, (*block)(dst), (*block)(src))
}

func TestMain(m *testing.M) { testkit.Main(m, cipherName) }

func TestImplementations(t *testing.T) { testkit.RunBlockCipher(t, spec) }

// TestKeySchedule checks the structure of the decryption keys (RFC 5794
// section 2.3) and that A is an involution; the rotations of the
// encryption keys are fixed by the known answers for all three key sizes.
func TestKeySchedule(t *testing.T) {
	s, err := expandKey(h("000102030405060708090a0b0c0d0e0f"))
	if err != nil {
		t.Fatal(err)
	}
	// dk1 = ek(n+1), dk(n+1) = ek1, and the middle keys are A applied to
	// the encryption keys in reverse order.
	n := s.rounds
	if s.dec[0] != s.enc[n] || s.dec[n] != s.enc[0] {
		t.Error("first or last decryption key is not the swapped encryption key")
	}
	for i := 1; i < n; i++ {
		if diffuse(s.dec[i]) != s.enc[n-i] {
			t.Errorf("dk%d is not A(ek%d)", i+1, n+1-i)
		}
	}
	if diffuse(diffuse(s.enc[3])) != s.enc[3] {
		t.Error("diffusion layer A is not an involution")
	}
}

// TestKISA runs the KISA ECB known-answer and multi-message files for every
// key size through every available path.
func TestKISA(t *testing.T) {
	dir := testkit.SharedPath(t, "aria/kisa")
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) != 6 {
		t.Fatalf("found %d KISA files in %s, want 6 (KAT and MMT for 128, 192, 256)", len(files), dir)
	}
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		n := testkit.RunCAVP(t, i, files)
		if n < 6*10 {
			t.Fatalf("only %d KISA records parsed", n)
		}
		t.Logf("%d KISA records passed", n)
	})
}

// mbedRecords parses Mbed TLS's test_suite_aria.data: records are a
// description line followed by "function:arg:arg:...", string arguments in
// double quotes as hex, the last argument the expected return code. The
// ECB records are key:input:output:ret and the CBC and CTR records
// key:iv:input:output:ret; encrypt records have plaintext as input, decrypt
// records ciphertext. CFB records (a mode this package does not offer) and
// the invalid-parameter and self-test records are skipped.
func mbedRecords(t *testing.T) []testkit.BlockVector {
	path := filepath.Join(testkit.SharedPath(t, "aria/mbedtls"), "test_suite_aria.data")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []testkit.BlockVector
	var desc string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 0; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		fn, rest, ok := strings.Cut(text, ":")
		if !ok || strings.Contains(fn, " ") {
			if text != "" {
				desc = text
			}
			continue
		}
		var dir, mode string
		switch fn {
		case "aria_encrypt_ecb", "aria_decrypt_ecb", "aria_encrypt_cbc", "aria_decrypt_cbc", "aria_encrypt_ctr", "aria_decrypt_ctr":
			dir, mode = fn[5:12], fn[13:]
		default:
			continue
		}
		var args [][]byte
		for _, a := range strings.Split(rest, ":") {
			if strings.HasPrefix(a, `"`) {
				args = append(args, h(strings.Trim(a, `"`)))
			} else if a != "0" {
				t.Fatalf("%s line %d: expected return %q, only 0 is supported", path, line+1, a)
			}
		}
		v := testkit.BlockVector{Name: desc, Mode: mode, Key: args[0]}
		if mode != "ecb" {
			v.IV, args = args[1], args[1:]
		}
		v.Plaintext, v.Ciphertext = args[1], args[2]
		if dir == "decrypt" {
			v.Plaintext, v.Ciphertext = v.Ciphertext, v.Plaintext
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

func TestMbedTLS(t *testing.T) {
	vs := mbedRecords(t)
	modes := map[string]int{}
	for _, v := range vs {
		modes[v.Mode+"-"+string(rune('0'+len(v.Key)/8))]++
	}
	for _, m := range []string{"ecb", "cbc", "ctr"} {
		for _, k := range []int{16, 24, 32} {
			if modes[m+"-"+string(rune('0'+k/8))] == 0 {
				t.Errorf("no Mbed TLS %s record for %d-byte keys", m, k)
			}
		}
	}
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		for _, v := range vs {
			testkit.CheckVector(t, i, v)
		}
	})
}

// TestOpenSSL compares every available path with the openssl command on
// random keys, IVs and lengths in ECB, CBC and CTR, both directions.
func TestOpenSSL(t *testing.T) {
	bin, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("skipping OpenSSL differential test: no openssl binary in PATH")
	}
	var impls []*catalog.Path
	for _, i := range testkit.Paths(cipherName) {
		if i.Available() {
			impls = append(impls, i)
		} else {
			t.Logf("%s not compared with OpenSSL: needs %v", i.Name, i.Missing())
		}
	}
	r := rand.New(rand.NewPCG(5794, 1))
	for _, ks := range []int{16, 24, 32} {
		for _, mode := range []string{"ecb", "cbc", "ctr"} {
			for _, blocks := range []int{1, 15, 17, 64, 97, 200} {
				key, iv := testkit.RandBytes(r, ks), testkit.RandBytes(r, 16)
				if mode == "ctr" && blocks == 97 {
					// Make the counter carry out of its low 64 bits.
					copy(iv[8:], bytes.Repeat([]byte{0xff}, 7))
				}
				n := blocks * 16
				if mode == "ctr" {
					n -= 5 // partial last block
				}
				src := testkit.RandBytes(r, n)
				for _, decrypt := range []bool{false, true} {
					args := []string{"enc", "-aria-" + bitsName(ks) + "-" + mode, "-K", hexString(key), "-nopad"}
					if mode != "ecb" {
						args = append(args, "-iv", hexString(iv))
					}
					if decrypt {
						args = append(args, "-d")
					} else {
						args = append(args, "-e")
					}
					cmd := exec.Command(bin, args...)
					cmd.Stdin = bytes.NewReader(src)
					want, err := cmd.Output()
					if err != nil {
						t.Fatalf("openssl %v: %v", args, err)
					}
					for _, i := range impls {
						b, err := i.NewBlock(key)
						if err != nil {
							t.Fatal(err)
						}
						got := make([]byte, n)
						switch {
						case mode == "ecb" && decrypt:
							ecb.NewDecrypter(b).CryptBlocks(got, src)
						case mode == "ecb":
							ecb.NewEncrypter(b).CryptBlocks(got, src)
						case mode == "cbc" && decrypt:
							cipher.NewCBCDecrypter(b, iv).CryptBlocks(got, src)
						case mode == "cbc":
							cipher.NewCBCEncrypter(b, iv).CryptBlocks(got, src)
						default:
							cipher.NewCTR(b, iv).XORKeyStream(got, src)
						}
						if !bytes.Equal(got, want) {
							t.Errorf("%s differs from openssl %v on %d bytes", i.Name, args, n)
						}
					}
				}
			}
		}
	}
}

func bitsName(keySize int) string { return map[int]string{16: "128", 24: "192", 32: "256"}[keySize] }

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	s := make([]byte, 0, 2*len(b))
	for _, c := range b {
		s = append(s, digits[c>>4], digits[c&15])
	}
	return string(s)
}

// publicAPI is the package surface the shared testkit checks drive.
var publicAPI = testkit.BlockAPI{
	Cipher: cipherName, KeySizes: []int{16, 24, 32}, NewCipher: NewCipher,
	NewCTR: NewCTR, NewCBCEncrypter: NewCBCEncrypter, NewCBCDecrypter: NewCBCDecrypter,
}

func TestPublicAPI(t *testing.T) { testkit.CheckBlockAPI(t, publicAPI) }

// TestWordsMatchBytes checks the portable path's word form (cryptWords,
// diffuseWords) against the byte-by-byte RFC form (crypt, diffuse).
func TestWordsMatchBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n++ {
		var x block
		copy(x[:], testkit.RandBytes(r, 16))
		w := toWords(&x)
		diffuseWords(&w)
		if y := diffuse(x); w != toWords(&y) {
			t.Fatalf("diffuseWords(%x) differs from diffuse", x)
		}
		s, err := expandKey(testkit.RandBytes(r, []int{16, 24, 32}[n%3]))
		if err != nil {
			t.Fatal(err)
		}
		var a, b block
		crypt(&s.enc, s.rounds, &a, &x)
		cryptWords(&s.encWords, s.rounds, &b, &x)
		if a != b {
			t.Fatalf("encryption: word form %x, byte form %x", b, a)
		}
		crypt(&s.dec, s.rounds, &a, &x)
		cryptWords(&s.decWords, s.rounds, &b, &x)
		if a != b {
			t.Fatalf("decryption: word form %x, byte form %x", b, a)
		}
	}
}

// TestWycheproofCBC runs Wycheproof's ARIA-CBC with PKCS#7 records: the
// package offers no padding, so the testkit pads and strictly unpads around
// each path's CBC kernels, and invalid paddings must be caught.
func TestWycheproofCBC(t *testing.T) {
	path := testkit.SharedPath(t, "wycheproof/testvectors_v1/aria_cbc_pkcs5_test.json")
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		v, inv := testkit.RunWycheproofCBC(t, i, path)
		t.Logf("%d valid and %d invalid Wycheproof records behaved", v, inv)
	})
}
