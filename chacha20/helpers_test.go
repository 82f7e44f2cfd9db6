package chacha20

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/impl"
)

// forEachPath runs f for every registered path, reporting (not hiding) the
// ones this CPU or mask cannot run.
func forEachPath(t *testing.T, f func(t *testing.T, p path)) {
	t.Helper()
	all := impl.For("chacha20")
	if len(all) == 0 {
		t.Fatal("no chacha20 implementations registered")
	}
	for _, i := range all {
		t.Run(i.Name, func(t *testing.T) {
			if !i.Available() {
				t.Skipf("path %s not run: CPU lacks or mask hides %v", i.Name, i.Missing())
			}
			s, err := i.NewStream(make([]byte, KeySize), make([]byte, NonceSize))
			if err != nil {
				t.Fatal(err)
			}
			c, ok := s.(*Cipher)
			if !ok || c.path != pathByName(i.Name) {
				t.Fatalf("NewStream of %s did not return a *Cipher pinned to it", i.Name)
			}
			f(t, c.path)
		})
	}
}
