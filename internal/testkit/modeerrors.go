package testkit

import (
	"crypto/des"
	"strings"
	"testing"
)

// CheckModeErrors checks that the package's mode constructors tell a block
// that is not a 16-byte block cipher (here DES) from an IV of the wrong
// length (D9 of issue 13): different mistakes, each error naming the sizes.
func CheckModeErrors(t *testing.T, a BlockAPI) {
	desBlock, err := des.NewCipher(make([]byte, 8))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := a.NewCipher(make([]byte, a.KeySizes[0]))
	if err != nil {
		t.Fatal(err)
	}
	second := func(_ any, err error) error { return err }
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"NewCTR(DES, 8-byte IV)", second(a.NewCTR(desBlock, make([]byte, 8))), []string{"8-byte block", "16-byte block cipher"}},
		{"NewCBCEncrypter(DES, 8-byte IV)", second(a.NewCBCEncrypter(desBlock, make([]byte, 8))), []string{"8-byte block", "16-byte block cipher"}},
		{"NewCBCDecrypter(DES, 16-byte IV)", second(a.NewCBCDecrypter(desBlock, make([]byte, 16))), []string{"8-byte block", "16-byte block cipher"}},
		{"NewCTR(" + a.Cipher + ", 12-byte IV)", second(a.NewCTR(ours, make([]byte, 12))), []string{"IV", "12 bytes", "16"}},
		{"NewCBCEncrypter(" + a.Cipher + ", 0-byte IV)", second(a.NewCBCEncrypter(ours, nil)), []string{"IV", "0 bytes", "16"}},
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
