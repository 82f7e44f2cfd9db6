package chacha20poly1305

import (
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/chachacore"
)

// The MAC key is the first half of keystream block 0. For messages too long
// for the joint short-message call, computing that one block in scalar
// code is quicker than a vector kernel call: the kernels lay a single block
// out one row per register, a chain of dependent operations, while scalar
// code runs the four columns side by side (measured on Zen 5: about 80 ns
// in portable Go against 130 ns for the call). On amd64 macKey is the
// block0 kernel (the same rounds in assembly, about 30% quicker than the
// portable Go: the compiler spills some of the sixteen words);
// macKeyGeneric is the portable code. XChaCha20's HChaCha20 shares the
// rounds.

// macKeyGeneric writes the first 32 bytes of block 0 for key and a 12-byte
// nonce.
func macKeyGeneric(out *[32]byte, key *[KeySize]byte, nonce []byte) {
	var tail [16]byte // counter 0, then the nonce
	copy(tail[4:], nonce)
	var x, in [16]uint32
	chachacore.InitState(&in, key, &tail)
	x = in
	chachacore.Rounds(&x)
	for i := range 8 {
		binary.LittleEndian.PutUint32(out[4*i:], x[i]+in[i])
	}
}
