//go:build (arm64 || ppc64 || ppc64le || s390x) && !purego

package aes

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"runtime"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	simdcpu "github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/modes"
	"golang.org/x/sys/cpu"
)

// stdlibHardware reports whether crypto/aes runs on the CPU's AES
// instructions here, under the conditions the standard library itself
// checks: the ARMv8 Cryptography Extension, POWER8's vector AES (every
// CPU Go supports on ppc64), or the z/Architecture CPACF functions. Where it
// does not, crypto/aes falls back to lookup tables, and the bitsliced
// portable path is the better choice.
func stdlibHardware() bool {
	switch runtime.GOARCH {
	case "arm64":
		return cpu.ARM64.HasAES
	case "ppc64", "ppc64le":
		return true
	case "s390x":
		return cpu.S390X.HasAES && cpu.S390X.HasAESCBC
	}
	return false
}

// stdlibPaths is the path "stdlib", which delegates to crypto/aes, where
// crypto/aes has the CPU's AES instructions. Its modes (CTR, CBC) run the
// standard library's own multi-block assembly: internal/modes hands the
// crypto/cipher modes the crypto/aes block (modes.StdlibKernels).
func stdlibPaths() []catalog.Entry[catalog.NewBlockFunc] {
	if !stdlibHardware() {
		return nil
	}
	return []catalog.Entry[catalog.NewBlockFunc]{catalog.BlockPath(cipherName, &catalog.Path{
		Name:     "stdlib",
		Stdlib:   true,
		Requires: []simdcpu.Feature{simdcpu.Stdlib},
		Notes:    "crypto/aes on the CPU's AES instructions (" + runtime.GOARCH + "); crypto/cipher's CTR and CBC over it",
		NewBlock: newStdlib,
	})}
}

func newStdlib(key []byte) (cipher.Block, error) {
	if !modes.ValidKeySize(len(key)) {
		return nil, KeySizeError(len(key))
	}
	b, err := stdaes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return modes.NewBlock(modes.StdlibKernels{B: b}, cipherName, "stdlib"), nil
}
