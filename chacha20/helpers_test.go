package chacha20

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// forEachPath runs f for every registered path, reporting (not hiding) the
// ones this CPU or mask cannot run, after checking that the registry's
// constructor returns a *Cipher pinned to that path.
func forEachPath(t *testing.T, f func(t *testing.T, p path)) {
	t.Helper()
	testkit.ForEachImpl(t, "chacha20", func(t *testing.T, i *catalog.Path) {
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

// pathByName returns the path value of the catalogue's path name.
func pathByName(name string) path {
	for p, n := range pathNames {
		if n == name {
			return path(p)
		}
	}
	panic("chacha20: no path " + name)
}
