package aes

//go:generate sh -c "cd ../_asm && go run ./cbcmb -out ../aes/cbcmulti_amd64.s -stubs ../aes/cbcmulti_amd64_stubs.go -pkg aes"

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/alias"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// CBCJob is one message for CBCEncryptMulti: Src is encrypted into Dst,
// chaining from IV.
type CBCJob struct {
	// Dst receives the ciphertext; it must be at least as long as Src and
	// overlap Src entirely or not at all.
	Dst []byte
	// Src is the plaintext, a whole number of blocks (possibly none).
	Src []byte
	// IV is the chaining value: the IV before the call, the last
	// ciphertext block after it, so that a message can go on in a later
	// call (as a cipher.BlockMode carries it from one CryptBlocks to the
	// next).
	IV [BlockSize]byte
}

// CBCEncryptMulti CBC-encrypts every job under the one key of b, with the
// same result as running
//
//	cipher.NewCBCEncrypter(b, job.IV[:]).CryptBlocks(job.Dst, job.Src)
//
// for each job in turn and keeping the last ciphertext block in job.IV.
// The jobs' buffers must not overlap one another.
//
// CBC encryption of one message is a chain: each block waits for the one
// before it, so one message leaves the AES unit mostly idle. With a block
// from this package on an AES-NI or VAES path, CBCEncryptMulti runs the
// chains of several messages side by side (8 on AES-NI, 16 on VAES-256, 32
// on VAES-512), one message per vector lane. It pays once there are about
// as many messages of similar length as the path has lanes; a single
// message, or a block from elsewhere, runs one chain at a time.
//
// Like CryptBlocks it panics, before encrypting anything, where a job's
// Src is not a whole number of blocks, its Dst is shorter, or the two
// overlap inexactly; it also panics where b's block size is not 16 bytes.
func CBCEncryptMulti(b cipher.Block, jobs []CBCJob) {
	if b.BlockSize() != BlockSize {
		panic("simdcrypt/aes: CBCEncryptMulti needs a 16-byte block cipher")
	}
	for i := range jobs {
		j := &jobs[i]
		if len(j.Src)%BlockSize != 0 {
			panic("simdcrypt/aes: input not full blocks")
		}
		if len(j.Dst) < len(j.Src) {
			panic("simdcrypt/aes: output smaller than input")
		}
		if alias.InexactOverlap(j.Dst[:len(j.Src)], j.Src) {
			panic("simdcrypt/aes: invalid buffer overlap")
		}
	}
	if len(jobs) > 1 && cbcEncryptMultiLanes(b, jobs) {
		return
	}
	// One chain at a time: through the block's own CBC kernel where it is
	// ours, else crypto/cipher's.
	if mb, ok := b.(*modes.Block); ok {
		k := mb.Kernels()
		for i := range jobs {
			j := &jobs[i]
			k.CBCEncrypt(j.Dst[:len(j.Src)], j.Src, &j.IV)
		}
		return
	}
	for i := range jobs {
		j := &jobs[i]
		if len(j.Src) == 0 {
			continue
		}
		cipher.NewCBCEncrypter(b, j.IV[:]).CryptBlocks(j.Dst, j.Src)
		copy(j.IV[:], j.Dst[len(j.Src)-BlockSize:len(j.Src)])
	}
}
