package chacha20

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xchacha "golang.org/x/crypto/chacha20"
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

// streamModel is the specification of a cipher's bookkeeping, written
// plainly so that both this package and x/crypto can be checked against
// it: RFC 8439's 32-bit block counter never wraps, keystream left over in a
// partly used block is used first, SetCounter may not go back before the
// block being used, and once a call reaches block 2^32-1 no further block
// may be made. Keystream blocks come from x/crypto, one fresh cipher per
// block, which its buffering cannot get wrong.
type streamModel struct {
	key, nonce []byte
	pos        uint64 // keystream bytes consumed, from block 0
	overflow   bool
}

const (
	rollbackPanic = "chacha20: SetCounter attempted to rollback counter"
	overflowPanic = "chacha20: counter overflow"
)

// started is the number of blocks begun: a partly used block counts.
func (m *streamModel) started() uint64 { return (m.pos + blockSize - 1) / blockSize }

// SetCounter returns the panic message the call must raise, or "".
func (m *streamModel) SetCounter(c uint32) string {
	if m.overflow || uint64(c) < m.started() {
		return rollbackPanic
	}
	m.pos = uint64(c) * blockSize
	return ""
}

// XORKeyStream returns src XORed with the keystream, or the panic message
// the call must raise.
func (m *streamModel) XORKeyStream(src []byte) ([]byte, string) {
	if len(src) == 0 {
		return nil, ""
	}
	leftover := m.started()*blockSize - m.pos
	if uint64(len(src)) > leftover {
		need := (uint64(len(src)) - leftover + blockSize - 1) / blockSize
		switch {
		case m.overflow || m.started()+need > 1<<32:
			return nil, overflowPanic
		case m.started()+need == 1<<32:
			m.overflow = true
		}
	}
	out := make([]byte, len(src))
	for i := range out {
		p := m.pos + uint64(i)
		out[i] = src[i] ^ m.keystreamBlock(uint32(p / blockSize))[p%blockSize]
	}
	m.pos += uint64(len(src))
	return out, ""
}

func (m *streamModel) keystreamBlock(counter uint32) []byte {
	c, err := xchacha.NewUnauthenticatedCipher(m.key, m.nonce)
	if err != nil {
		panic(err)
	}
	c.SetCounter(counter)
	ks := make([]byte, blockSize)
	c.XORKeyStream(ks, ks)
	return ks
}
