package aria

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// FuzzModes runs every implementation and mode on fuzzed key, IV and data
// against the generic path; `go test` runs the seed corpus.
func FuzzModes(f *testing.F) { testkit.FuzzBlockCipher(f, spec) }
