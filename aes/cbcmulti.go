package aes

//go:generate sh -c "cd ../_asm && go run ./cbcmb -out ../aes/cbcmulti_amd64.s -stubs ../aes/cbcmulti_amd64_stubs.go -pkg aes"
//go:generate sh -c "cd ../_asm && go run ./callswitch -stubs ../aes/cbcmulti_amd64_stubs.go -out ../aes/cbcmulti_kernels_amd64.go -type laneKernel -sets lanesAESNI=AESNI,lanesVAES256=VAES256,lanesVAES512=VAES512 -ops encrypt=cbcEncryptLanes,encryptKeyed=cbcEncryptLanesKeyed"

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// CBCJob is one message for CBCEncryptMulti: Src is encrypted into Dst,
// chaining from IV, which holds the last ciphertext block afterwards.
type CBCJob = modes.CBCJob

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
	modes.CheckCBCJobs(b, "aes", jobs)
	if len(jobs) > 1 && cbcEncryptMultiLanes(b, jobs) {
		return
	}
	modes.CBCEncryptSerial(b, jobs)
}

// CBCEncryptMultiKeys is CBCEncryptMulti with a key for each message:
// jobs[i] is encrypted under blocks[i], with the same result as running
//
//	cipher.NewCBCEncrypter(blocks[i], jobs[i].IV[:]).CryptBlocks(jobs[i].Dst, jobs[i].Src)
//
// for each i and keeping the last ciphertext block in jobs[i].IV. The
// jobs' buffers must not overlap one another.
//
// With blocks from this package on an AES-NI or VAES path, the chains run
// side by side as in CBCEncryptMulti, each vector lane with the round keys
// of its own message (loaded with each AES round instead of kept in
// registers). Keys of one length run together; a key length that only one
// message has, and a block from elsewhere, run one chain at a time. It
// pays as CBCEncryptMulti does, a little less (about the cost of those
// loads); with one key for all messages, CBCEncryptMulti is the faster.
//
// It panics, before encrypting anything, where len(blocks) differs from
// len(jobs) or where CBCEncryptMulti would panic for a job and its block.
func CBCEncryptMultiKeys(blocks []cipher.Block, jobs []CBCJob) {
	if len(blocks) != len(jobs) {
		panic("simdcrypt/aes: CBCEncryptMultiKeys needs one block for each job")
	}
	for i := range jobs {
		modes.CheckCBCJobs(blocks[i], "aes", jobs[i:i+1])
	}
	ran := cbcEncryptMultiKeysLanes(blocks, jobs)
	for i := range jobs {
		if !ran(i) {
			modes.CBCEncryptSerial(blocks[i], jobs[i:i+1])
		}
	}
}
