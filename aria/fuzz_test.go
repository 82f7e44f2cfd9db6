package aria

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// FuzzModes runs ECB, CBC and CTR, in both directions, on every available
// implementation, the portable one included, against the RFC 5794
// reference (crypt, byte by byte) through crypto/cipher's modes; `go test`
// runs the seed corpus, `go test -fuzz FuzzModes` explores.
func FuzzModes(f *testing.F) { testkit.FuzzBlockCipher(f, spec) }
