package aria

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// One fuzz target per mode, each running every available implementation,
// the portable one included, against the RFC 5794
// reference (crypt, byte by byte) through crypto/cipher's
// modes; `go test` runs the seed corpus, `go test -fuzz FuzzCTR` explores.
func FuzzECBEncrypt(f *testing.F) { testkit.FuzzBlockCipher(f, spec, "ecb-encrypt") }
func FuzzECBDecrypt(f *testing.F) { testkit.FuzzBlockCipher(f, spec, "ecb-decrypt") }
func FuzzCBCEncrypt(f *testing.F) { testkit.FuzzBlockCipher(f, spec, "cbc-encrypt") }
func FuzzCBCDecrypt(f *testing.F) { testkit.FuzzBlockCipher(f, spec, "cbc-decrypt") }
func FuzzCTR(f *testing.F)        { testkit.FuzzBlockCipher(f, spec, "ctr") }
