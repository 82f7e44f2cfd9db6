package aria

import (
	"crypto/des"
	"strings"
	"testing"
)

// TestModeErrorsNameTheProblem (D9 of issue 13, ARIA): a block that is not a
// 16-byte block cipher (here DES) and an IV of the wrong length are
// different mistakes, and the error says which, naming the sizes.
func TestModeErrorsNameTheProblem(t *testing.T) {
	desBlock, err := des.NewCipher(make([]byte, 8))
	if err != nil {
		t.Fatal(err)
	}
	aesBlock, err := NewCipher(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"NewCTR(DES, 8-byte IV)", second(NewCTR(desBlock, make([]byte, 8))), []string{"8-byte block", "16-byte block cipher"}},
		{"NewCBCEncrypter(DES, 8-byte IV)", second(NewCBCEncrypter(desBlock, make([]byte, 8))), []string{"8-byte block", "16-byte block cipher"}},
		{"NewCBCDecrypter(DES, 16-byte IV)", second(NewCBCDecrypter(desBlock, make([]byte, 16))), []string{"8-byte block", "16-byte block cipher"}},
		{"NewCTR(AES, 12-byte IV)", second(NewCTR(aesBlock, make([]byte, 12))), []string{"IV", "12 bytes", "16"}},
		{"NewCBCEncrypter(AES, 0-byte IV)", second(NewCBCEncrypter(aesBlock, nil)), []string{"IV", "0 bytes", "16"}},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(tc.err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.name, tc.err, w)
			}
		}
	}
}

func second[T any](_ T, err error) error { return err }
