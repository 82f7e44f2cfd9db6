//go:build (arm64 || ppc64 || ppc64le || s390x || loong64) && gc && !purego

package chacha20

import (
	"encoding/binary"
	"runtime"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	xchacha "golang.org/x/crypto/chacha20"
)

// On these architectures golang.org/x/crypto/chacha20 has assembly (NEON,
// VSX, the z vector facility, LSX), built under the same tags as this file,
// and simdcrypt none: the path "stdlib" delegates to it, so that switching
// from x/crypto is never slower.
const haveStdlib = true

// stdlibPaths is the path "stdlib", for the dispatch table (asmPaths).
func stdlibPaths() []catalog.Entry[path] {
	e := streamPath(pathStdlib, []cpu.Feature{cpu.Stdlib}, false, "golang.org/x/crypto/chacha20's "+runtime.GOARCH+" assembly, one x/crypto cipher per call at the block counter")
	e.Path.Stdlib = true
	return []catalog.Entry[path]{e}
}

// xorBlocksStdlib XORs len(src)/64 whole blocks of keystream through
// x/crypto, starting at state[12], and advances state[12] as many. XORing
// calls check beforehand that the counter does not pass 2^32 (XORKeyStream),
// so x/crypto never sees a call it would refuse, and this function keeps no
// x/crypto state between calls: its buffering of partial blocks differs
// from this package's (see TestAgainstXCryptoOps).
func xorBlocksStdlib(state *[16]uint32, dst, src []byte) {
	var key [KeySize]byte
	var nonce [NonceSize]byte
	for i := range 8 {
		binary.LittleEndian.PutUint32(key[4*i:], state[4+i])
	}
	for i := range 3 {
		binary.LittleEndian.PutUint32(nonce[4*i:], state[13+i])
	}
	c, err := xchacha.NewUnauthenticatedCipher(key[:], nonce[:])
	clear(key[:])
	if err != nil {
		panic("chacha20: x/crypto refused a valid key and nonce: " + err.Error())
	}
	c.SetCounter(state[12])
	c.XORKeyStream(dst, src)
	state[12] += uint32(len(src) / blockSize)
}
