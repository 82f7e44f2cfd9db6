package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"path/filepath"
	"testing"

	"github.com/simdcrypt/simdcrypt/ecb"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

var h = testkit.Hex

// The core vectors, typed in from FIPS 197 appendix C and SP 800-38A
// appendix F (F.1 ECB, F.2 CBC, F.5 CTR), so that a clone without the
// shared vector tree still tests every path against the standards.
var sp800Plaintext = h("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51" +
	"30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")

var (
	key128 = h("2b7e151628aed2a6abf7158809cf4f3c")
	key192 = h("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b")
	key256 = h("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
	cbcIV  = h("000102030405060708090a0b0c0d0e0f")
	ctrIV  = h("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
)

var coreVectors = []testkit.BlockVector{
	{Name: "FIPS-197 C.1", Mode: "ecb", Key: h("000102030405060708090a0b0c0d0e0f"),
		Plaintext: h("00112233445566778899aabbccddeeff"), Ciphertext: h("69c4e0d86a7b0430d8cdb78070b4c55a")},
	{Name: "FIPS-197 C.2", Mode: "ecb", Key: h("000102030405060708090a0b0c0d0e0f1011121314151617"),
		Plaintext: h("00112233445566778899aabbccddeeff"), Ciphertext: h("dda97ca4864cdfe06eaf70a0ec0d7191")},
	{Name: "FIPS-197 C.3", Mode: "ecb", Key: h("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
		Plaintext: h("00112233445566778899aabbccddeeff"), Ciphertext: h("8ea2b7ca516745bfeafc49904b496089")},
	{Name: "SP800-38A F.1.1", Mode: "ecb", Key: key128, Plaintext: sp800Plaintext,
		Ciphertext: h("3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4")},
	{Name: "SP800-38A F.1.3", Mode: "ecb", Key: key192, Plaintext: sp800Plaintext,
		Ciphertext: h("bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eefef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e")},
	{Name: "SP800-38A F.1.5", Mode: "ecb", Key: key256, Plaintext: sp800Plaintext,
		Ciphertext: h("f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7")},
	{Name: "SP800-38A F.2.1", Mode: "cbc", Key: key128, IV: cbcIV, Plaintext: sp800Plaintext,
		Ciphertext: h("7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7")},
	{Name: "SP800-38A F.2.3", Mode: "cbc", Key: key192, IV: cbcIV, Plaintext: sp800Plaintext,
		Ciphertext: h("4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd")},
	{Name: "SP800-38A F.2.5", Mode: "cbc", Key: key256, IV: cbcIV, Plaintext: sp800Plaintext,
		Ciphertext: h("f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b")},
	{Name: "SP800-38A F.5.1", Mode: "ctr", Key: key128, IV: ctrIV, Plaintext: sp800Plaintext,
		Ciphertext: h("874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee")},
	{Name: "SP800-38A F.5.3", Mode: "ctr", Key: key192, IV: ctrIV, Plaintext: sp800Plaintext,
		Ciphertext: h("1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e941e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050")},
	{Name: "SP800-38A F.5.5", Mode: "ctr", Key: key256, IV: ctrIV, Plaintext: sp800Plaintext,
		Ciphertext: h("601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6")},
}

var spec = testkit.BlockSpec{
	Cipher:    cipherName,
	KeySizes:  []int{16, 24, 32},
	Reference: stdaes.NewCipher,
	Vectors:   coreVectors,
}

func TestMain(m *testing.M) { testkit.Main(m, cipherName) }

func TestImplementations(t *testing.T) { testkit.RunBlockCipher(t, spec) }

func TestCAVP(t *testing.T) {
	dir := testkit.SharedPath(t, "aes/cavp")
	var katmmt []string
	for _, pat := range []string{"KAT_AES/*.rsp", "aesmmt/*.rsp"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		katmmt = append(katmmt, m...)
	}
	mct, _ := filepath.Glob(filepath.Join(dir, "aesmct/*.rsp"))
	if len(katmmt) != 30 || len(mct) != 6 {
		t.Fatalf("found %d KAT/MMT and %d MCT files, want 30 and 6", len(katmmt), len(mct))
	}
	sp, _ := filepath.Glob(filepath.Join(testkit.SharedPath(t, "aes/sp800-38a"), "*.rsp"))
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		n := testkit.RunCAVP(t, i, append(katmmt, sp...))
		for _, p := range mct {
			n += testkit.RunMCT(t, i, p)
		}
		t.Logf("%d CAVP records passed", n)
	})
}

// publicAPI is the package surface the shared testkit checks drive.
var publicAPI = testkit.BlockAPI{
	Cipher: cipherName, KeySizes: []int{16, 24, 32}, NewCipher: NewCipher,
	NewCTR: NewCTR, NewCBCEncrypter: NewCBCEncrypter, NewCBCDecrypter: NewCBCDecrypter,
}

func TestPublicAPI(t *testing.T) { testkit.CheckBlockAPI(t, publicAPI) }

// TestExportedConstructors checks the hook-free constructors, and that
// they fall back to crypto/cipher for a block from elsewhere.
func TestExportedConstructors(t *testing.T) {
	ours, _ := NewCipher(key128)
	std, _ := stdaes.NewCipher(key128)
	src := sp800Plaintext
	for _, b := range []cipher.Block{ours, std} {
		s, err := NewCTR(b, ctrIV)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(src))
		s.XORKeyStream(got, src)
		if !bytes.Equal(got, coreVectors[9].Ciphertext) {
			t.Errorf("NewCTR over %T: wrong output", b)
		}
		e, _ := NewCBCEncrypter(b, cbcIV)
		e.CryptBlocks(got, src)
		if !bytes.Equal(got, coreVectors[6].Ciphertext) {
			t.Errorf("NewCBCEncrypter over %T: wrong output", b)
		}
		d, _ := NewCBCDecrypter(b, cbcIV)
		d.CryptBlocks(got, got)
		if !bytes.Equal(got, src) {
			t.Errorf("NewCBCDecrypter over %T: wrong output", b)
		}
		ecb.NewEncrypter(b).CryptBlocks(got, src)
		if !bytes.Equal(got, coreVectors[3].Ciphertext) {
			t.Errorf("ecb over %T: wrong output", b)
		}
	}
}

func TestWycheproofCBC(t *testing.T) {
	path := testkit.SharedPath(t, "wycheproof/testvectors_v1/aes_cbc_pkcs5_test.json")
	testkit.ForEachImpl(t, cipherName, func(t *testing.T, i *catalog.Path) {
		v, inv := testkit.RunWycheproofCBC(t, i, path)
		t.Logf("%d valid and %d invalid Wycheproof records behaved", v, inv)
	})
}
