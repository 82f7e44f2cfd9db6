package poly1305

import (
	"bytes"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xpoly "golang.org/x/crypto/poly1305" //nolint:staticcheck // the reference
)

// TestAgainstXCrypto checks the exported API end to end; the paths
// themselves are tested in internal/poly1305.
func TestAgainstXCrypto(t *testing.T) {
	// The one-time key of RFC 8439, section 2.5.2.
	key := [32]byte(testkit.Hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"))
	msg := make([]byte, 1500)
	for i := range msg {
		msg[i] = byte(i)
	}
	for _, n := range []int{0, 1, 16, 100, 1024, 1500} {
		var got, want [16]byte
		Sum(&got, msg[:n], &key)
		xpoly.Sum(&want, msg[:n], &key)
		if got != want || !Verify(&want, msg[:n], &key) {
			t.Fatalf("len %d: tag %x, x/crypto %x", n, got, want)
		}
		m := New(&key)
		m.Write(msg[:n/2])
		m.Write(msg[n/2 : n])
		if !bytes.Equal(m.Sum(nil), want[:]) || !m.Verify(want[:]) || m.Size() != TagSize {
			t.Fatalf("len %d: MAC differs", n)
		}
		want[15] ^= 1
		if Verify(&want, msg[:n], &key) {
			t.Fatalf("len %d: wrong tag accepted", n)
		}
	}
	m := New(&key)
	m.Sum(nil)
	defer func() {
		if recover() == nil {
			t.Error("Write after Sum did not panic")
		}
	}()
	m.Write([]byte{1})
}
