package testkit

import (
	"crypto/cipher"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// modesPkg is the package whose modes run the bulk kernels.
var modesPkg = reflect.TypeFor[modes.Block]().PkgPath()

// BlockAPI is the public surface every 128-bit block cipher package offers.
type BlockAPI = modes.Package

// CheckBlockAPI checks the package's constructors: key sizes other than the
// valid ones fail with an error naming the size, IVs of the wrong length
// fail, and NewCipher runs the path the registry chooses.
func CheckBlockAPI(t *testing.T, a BlockAPI) {
	for n := 0; n <= 64; n++ {
		_, err := a.NewCipher(make([]byte, n))
		if slices.Contains(a.KeySizes, n) {
			if err != nil {
				t.Errorf("NewCipher(%d-byte key): %v", n, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "invalid key size "+strconv.Itoa(n)) {
			t.Errorf("NewCipher(%d-byte key): err = %v, want an invalid key size error", n, err)
		}
	}
	b, err := a.NewCipher(make([]byte, a.KeySizes[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 8, 15, 17, 32} {
		iv := make([]byte, n)
		if _, err := a.NewCTR(b, iv); err == nil {
			t.Errorf("NewCTR accepted a %d-byte IV", n)
		}
		if _, err := a.NewCBCEncrypter(b, iv); err == nil {
			t.Errorf("NewCBCEncrypter accepted a %d-byte IV", n)
		}
		if _, err := a.NewCBCDecrypter(b, iv); err == nil {
			t.Errorf("NewCBCDecrypter accepted a %d-byte IV", n)
		}
	}
	// crypto/cipher's constructors must hand the work to this module's
	// modes (its hooks); if upstream drops the hooks, output stays right
	// but the kernels no longer run, which only this check would notice. A
	// path that delegates to the standard library (kernels with a
	// StdlibBlock method) hands them to crypto/cipher's modes over that
	// block instead, to run the standard library's multi-block assembly.
	wantPkg := modesPkg
	if mb, ok := b.(*modes.Block); ok {
		if _, std := mb.Kernels().(interface{ StdlibBlock() cipher.Block }); std {
			wantPkg = "crypto/"
		}
	}
	iv := make([]byte, 16)
	for what, v := range map[string]any{
		"cipher.NewCTR":          cipher.NewCTR(b, iv),
		"cipher.NewCBCEncrypter": cipher.NewCBCEncrypter(b, iv),
		"cipher.NewCBCDecrypter": cipher.NewCBCDecrypter(b, iv),
	} {
		typ := reflect.TypeOf(v)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		// (The stdlib path's CTR is this module's wrapper around
		// crypto/cipher's, for XORKeyStreamAt.)
		if pkg := typ.PkgPath(); !strings.HasPrefix(pkg, wantPkg) && !(wantPkg == "crypto/" && pkg == modesPkg) {
			t.Errorf("%s returned a %T, not a mode from %s", what, v, wantPkg)
		}
	}
	c, _ := catalog.Get(a.Cipher)
	want, _ := c.Chosen()
	if got := b.(interface{ Impl() string }).Impl(); got != want.Name {
		t.Errorf("NewCipher runs %s, the registry chose %s", got, want.Name)
	}
}
