package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// FuzzModes runs ECB, CBC and CTR, in both directions, on every available
// implementation, the portable one included, against the standard library
// (crypto/aes) through crypto/cipher's modes; `go test` runs the seed
// corpus, `go test -fuzz FuzzModes` explores.
func FuzzModes(f *testing.F) { testkit.FuzzBlockCipher(f, spec) }
