package dispatch_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/aes"
	_ "github.com/simdcrypt/simdcrypt/chacha20poly1305"
	"github.com/simdcrypt/simdcrypt/dispatch"
	_ "github.com/simdcrypt/simdcrypt/gcm"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	_ "github.com/simdcrypt/simdcrypt/xts"
)

func TestMaskAndChosen(t *testing.T) {
	if _, err := aes.NewCipher(make([]byte, 16)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := dispatch.Chosen("nosuch"); ok {
		t.Error("Chosen reported a cipher that does not exist")
	}
	if !slices.Contains(dispatch.Paths("aes"), "generic") {
		t.Errorf("aes paths %v lack generic", dispatch.Paths("aes"))
	}
	restore, err := dispatch.SetMask("all=off")
	if err != nil {
		t.Fatal(err)
	}
	path, why, ok := dispatch.Chosen("aes")
	if !ok || path != "generic" || why == "" {
		t.Errorf("under all=off: Chosen(aes) = %q, %q, %v", path, why, ok)
	}
	b, _ := aes.NewCipher(make([]byte, 16))
	if got := b.(interface{ Impl() string }).Impl(); got != "generic" {
		t.Errorf("under all=off a new cipher runs %s", got)
	}
	if dispatch.Mask() == "" {
		t.Error("Mask is empty under all=off")
	}
	restore()
	if _, err := dispatch.SetMask("avx51=off"); err == nil || !strings.Contains(err.Error(), "avx51=off") {
		t.Errorf("SetMask(avx51=off): err = %v, want one naming the entry", err)
	}
}

// TestModesAndAEADs: the modes and AEADs answer Chosen as the ciphers do,
// and follow the mask.
func TestModesAndAEADs(t *testing.T) {
	for _, name := range []string{"gcm", "xts", "chacha20poly1305", "xchacha20poly1305"} {
		if path, why, ok := dispatch.Chosen(name); !ok || path == "" || why == "" {
			t.Errorf("Chosen(%s) = %q, %q, %v", name, path, why, ok)
		}
		restore, err := dispatch.SetMask("all=off")
		if err != nil {
			t.Fatal(err)
		}
		path, _, _ := dispatch.Chosen(name)
		restore()
		if path != "generic" {
			t.Errorf("under all=off: Chosen(%s) = %s, want generic", name, path)
		}
	}
}

func TestMain(m *testing.M) { os.Exit(testkit.SummarizeDefault(m.Run(), "aes")) }
