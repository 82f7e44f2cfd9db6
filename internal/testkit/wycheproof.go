package testkit

import (
	"bytes"
	"crypto/cipher"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// WycheproofTest is one Wycheproof record with its hex fields decoded;
// fields a file's schema lacks are empty.
type WycheproofTest struct {
	TcID                       int
	Key, IV, Aad, Msg, Ct, Tag []byte
	Result, Comment            string
}

// ReadWycheproof reads a Wycheproof JSON file and returns its records in
// file order, all groups together.
func ReadWycheproof(t testing.TB, path string) []WycheproofTest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		TestGroups []struct {
			Tests []struct {
				TcID                       int `json:"tcId"`
				Key, IV, Aad, Msg, Ct, Tag string
				Result, Comment            string
			} `json:"tests"`
		} `json:"testGroups"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	dec := func(tcID int, s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatalf("%s tcId %d: %v", path, tcID, err)
		}
		return b
	}
	var out []WycheproofTest
	for _, g := range file.TestGroups {
		for _, tc := range g.Tests {
			out = append(out, WycheproofTest{
				TcID: tc.TcID,
				Key:  dec(tc.TcID, tc.Key), IV: dec(tc.TcID, tc.IV), Aad: dec(tc.TcID, tc.Aad),
				Msg: dec(tc.TcID, tc.Msg), Ct: dec(tc.TcID, tc.Ct), Tag: dec(tc.TcID, tc.Tag),
				Result: tc.Result, Comment: tc.Comment,
			})
		}
	}
	return out
}

// RunWycheproofCBC runs a Wycheproof "IndCpaTest" file of CBC with PKCS#7
// padding (aes_cbc_pkcs5_test.json, aria_cbc_pkcs5_test.json) through
// implementation i: valid records must encrypt to the given ciphertext and
// decrypt back; invalid ones (bad padding, truncated ciphertext) must be
// rejected by CBC decryption plus a strict PKCS#7 check.
func RunWycheproofCBC(t *testing.T, i *catalog.Path, path string) (valid, invalid int) {
	for _, tc := range ReadWycheproof(t, path) {
		key, iv, msg, ct := tc.Key, tc.IV, tc.Msg, tc.Ct
		b, err := i.NewBlock(key)
		if err != nil {
			t.Fatalf("tcId %d: %v", tc.TcID, err)
		}
		plain, ok := cbcOpen(b, iv, ct)
		switch tc.Result {
		case "valid":
			padded := pkcs7Pad(msg)
			got := make([]byte, len(padded))
			BlockOps[2].New(b, iv)(got, padded)
			if !bytes.Equal(got, ct) {
				t.Errorf("tcId %d (%s): encryption differs", tc.TcID, tc.Comment)
			}
			if !ok || !bytes.Equal(plain, msg) {
				t.Errorf("tcId %d (%s): decryption failed or differs", tc.TcID, tc.Comment)
			}
			valid++
		case "invalid":
			if ok {
				t.Errorf("tcId %d (%s): invalid ciphertext accepted", tc.TcID, tc.Comment)
			}
			invalid++
		default:
			t.Fatalf("tcId %d: unexpected result %q", tc.TcID, tc.Result)
		}
	}
	if valid == 0 || invalid == 0 {
		t.Fatalf("%s: %d valid and %d invalid records; expected both kinds", path, valid, invalid)
	}
	return valid, invalid
}

func pkcs7Pad(msg []byte) []byte {
	n := 16 - len(msg)%16
	return append(append([]byte(nil), msg...), bytes.Repeat([]byte{byte(n)}, n)...)
}

// cbcOpen decrypts and strictly unpads, reporting failure for any ciphertext
// that is empty, not whole blocks, or badly padded.
func cbcOpen(b cipher.Block, iv, ct []byte) ([]byte, bool) {
	if len(ct) == 0 || len(ct)%16 != 0 || len(iv) != 16 {
		return nil, false
	}
	out := make([]byte, len(ct))
	BlockOps[3].New(b, iv)(out, ct)
	n := int(out[len(out)-1])
	if n == 0 || n > 16 {
		return nil, false
	}
	for _, p := range out[len(out)-n:] {
		if int(p) != n {
			return nil, false
		}
	}
	return out[:len(out)-n], true
}
