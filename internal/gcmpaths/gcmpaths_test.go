package gcmpaths_test

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
	_ "github.com/simdcrypt/simdcrypt/gcm"
	"github.com/simdcrypt/simdcrypt/internal/gcmpaths"
)

func TestFilledIn(t *testing.T) {
	if len(gcmpaths.Paths) == 0 || gcmpaths.Paths[len(gcmpaths.Paths)-1].Name != "generic" {
		t.Fatalf("paths %v: want a table ending with generic", gcmpaths.Paths)
	}
	b, _ := aes.NewCipher(make([]byte, 16))
	a, err := gcmpaths.NewOnPath("generic", b, 12, 16)
	if err != nil || gcmpaths.Impl(a) != "generic" {
		t.Fatalf("NewOnPath(generic) = %v, %v", a, err)
	}
	if _, err := gcmpaths.NewOnPath("no such path", b, 12, 16); err == nil {
		t.Fatal("NewOnPath accepted an unknown path")
	}
}
