package xtspaths_test

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/internal/xtspaths"
	_ "github.com/simdcrypt/simdcrypt/xts"
)

func TestFilledIn(t *testing.T) {
	if len(xtspaths.Paths) == 0 || xtspaths.Paths[len(xtspaths.Paths)-1].Name != "generic" {
		t.Fatalf("paths %v: want a table ending with generic", xtspaths.Paths)
	}
	c, err := xtspaths.NewOnPath("generic", aes.NewCipher, make([]byte, 32))
	if err != nil || c.Impl() != "generic" {
		t.Fatalf("NewOnPath(generic) = %v, %v", c, err)
	}
}
