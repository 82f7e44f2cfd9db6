package bench

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

func TestMain(m *testing.M) {
	testkit.Main(m, "aes", "aria", "chacha20", "gcm", "xts", "chacha20poly1305", "xchacha20poly1305", "poly1305")
}

// TestTargetsCoverRegistry: every available path of every cipher in the
// catalogue appears for every operation, with the default marked
// once per (cipher, direction), and each target runs.
func TestTargetsCoverRegistry(t *testing.T) {
	ts, unavailable := Targets()
	for _, c := range catalog.Ciphers() {
		fam := c.Name
		chosen, _ := c.Chosen()
		for _, i := range c.Paths {
			if !i.Available() {
				if !slices.ContainsFunc(unavailable, func(u Unavailable) bool { return u.Family == fam && u.Impl == i.Name }) {
					t.Errorf("%s/%s unavailable but not reported", fam, i.Name)
				}
				continue
			}
			wantOps := 2 // chacha20 and xchacha20; seal and open of an AEAD
			switch {
			case i.NewBlock != nil:
				wantOps = 5 * 3 // three key sizes for AES and ARIA
			case i.NewAEADOver != nil:
				wantOps = 2 * len(gcmCiphers)
			case i.NewXTS != nil:
				wantOps = 2 * len(xtsCiphers)
			case i.NewAuthenticator != nil:
				wantOps = 1
			}
			var n int
			for _, tg := range ts {
				if tg.Family == fam && tg.Impl == i.Name {
					n++
					if tg.Default != (i == chosen) || tg.VariantOf != i.VariantOf {
						t.Errorf("%s: default %v variant of %q", tg.Name(), tg.Default, tg.VariantOf)
					}
				}
			}
			if n != wantOps {
				t.Errorf("%s/%s: %d targets, want %d", fam, i.Name, n, wantOps)
			}
		}
	}
	defaults := map[string]int{}
	for _, tg := range ts {
		if tg.Default {
			defaults[tg.Group()]++
		}
		op, err := tg.New()
		if err != nil {
			t.Fatalf("%s: %v", tg.Name(), err)
		}
		buf := make([]byte, 64)
		op(buf, buf)
	}
	for g, n := range defaults {
		if n != 1 {
			t.Errorf("%s: %d defaults", g, n)
		}
	}
	if hasCipher("aes") && !slices.ContainsFunc(ts, func(tg *Target) bool {
		return tg.Cipher == "aes-128-ecb" && tg.Direction == "decrypt" && strings.HasPrefix(tg.Impl, "stdlib") && tg.Baseline
	}) {
		t.Error("no stdlib baseline for aes-128-ecb decrypt")
	}
}

// TestBaselinesAgree: the measured paths compute what Go's own do, so the
// speed table compares like with like.
func TestBaselinesAgree(t *testing.T) {
	ts, _ := Targets()
	out := map[string][]byte{}
	for _, tg := range ts {
		op, err := tg.New()
		if err != nil {
			t.Fatal(err)
		}
		src := make([]byte, 256)
		for i := range src {
			src[i] = byte(i)
		}
		dst := make([]byte, len(src), len(src)+64) // room for a tag, as the engine's buffers have
		op(dst, src)
		if ref, ok := out[tg.Group()]; ok {
			if string(ref) != string(dst) {
				t.Errorf("%s differs from the first path of %s", tg.Name(), tg.Group())
			}
		} else {
			out[tg.Group()] = dst
		}
	}
}

func TestSelect(t *testing.T) {
	ts, un := Targets()
	got, err := Select(ts, un, []string{"aes-*-ctr"}, []string{"stdlib", "default"})
	if err != nil {
		t.Fatal(err)
	}
	want := 6 // three key sizes × (stdlib + default)
	if c, ok := catalog.Get("aes"); ok && func() bool { p, _ := c.Chosen(); return p.Name == "stdlib" }() {
		want = 3 // off amd64 the default path is the one named stdlib
	}
	if len(got) != want {
		t.Errorf("aes-*-ctr × stdlib,default: %d targets, want %d", len(got), want)
	}
	for _, tg := range got {
		if tg.Mode != "ctr" || !(tg.Baseline || tg.Default) {
			t.Errorf("selected %s", tg.Name())
		}
	}
	if got, _ := Select(ts, un, []string{"aes-256"}, nil); len(got) == 0 || got[0].KeyBits != 256 {
		t.Error("family-bits selection failed")
	}
	if hasCipher("chacha20") {
		got, _ := Select(ts, un, []string{"chacha20"}, []string{"default"})
		if len(got) != 1 || got[0].Cipher != "chacha20" {
			t.Errorf("-cipher chacha20 selected %d targets", len(got))
		}
	}
	_, err = Select(ts, un, []string{"aes-512-ctr"}, nil)
	var se *SelectError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "aes-128-ctr") || strings.Contains(err.Error(), "\n") {
		t.Errorf("unknown cipher error: %v", err)
	}
	_, err = Select(ts, un, nil, []string{"nosuch"})
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "generic") {
		t.Errorf("unknown impl error: %v", err)
	}
}

func hasCipher(name string) bool { _, ok := catalog.Get(name); return ok }

func TestVariantsBesideTheirPath(t *testing.T) {
	mk := func(name, of string) *catalog.Path { return &catalog.Path{Name: name, VariantOf: of} }
	in := []*catalog.Path{mk("vaes512", ""), mk("vaes256", ""), mk("aesni", ""),
		mk("vaes512-noprefetch", "vaes512"), mk("aesni-noprefetch", "aesni"), mk("odd-one", "gone"), mk("generic", "")}
	var got []string
	for _, i := range variantsAfterPaths(in) {
		got = append(got, i.Name)
	}
	want := "vaes512 vaes512-noprefetch vaes256 aesni aesni-noprefetch generic odd-one"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
}

// TestXTSSectorSizes: the XTS rows measure 512-byte and 4 KiB sectors.
func TestXTSSectorSizes(t *testing.T) {
	ts, _ := Targets()
	n := 0
	for _, tg := range ts {
		if tg.Mode == "xts" {
			n++
			if !slices.Contains(tg.SlopeSizes, 512) || !slices.Contains(tg.SlopeSizes, 4096) || tg.Align != 16 {
				t.Errorf("%s: slope sizes %v, align %d", tg.Name(), tg.SlopeSizes, tg.Align)
			}
		}
	}
	if hasCipher("xts") && n == 0 {
		t.Error("no xts targets")
	}
}
