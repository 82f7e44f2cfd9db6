package aria

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// CBCJob is one message for CBCEncryptMulti: Src is encrypted into Dst,
// chaining from IV, which holds the last ciphertext block afterwards.
type CBCJob = modes.CBCJob

// multiLanes is how many chains CBCEncryptMulti runs side by side: one
// batch of the widest byte-sliced kernel.
const multiLanes = 64

// CBCEncryptMulti CBC-encrypts every job under the one key of b, with the
// same result as running
//
//	cipher.NewCBCEncrypter(b, job.IV[:]).CryptBlocks(job.Dst, job.Src)
//
// for each job in turn and keeping the last ciphertext block in job.IV.
// The jobs' buffers must not overlap one another.
//
// ARIA's vector paths are byte-sliced: they are fast only on many blocks
// at once (about 1 cycle per byte on 64 blocks against about 20 for the
// single block a CBC chain allows). With a block from this package,
// CBCEncryptMulti takes the next block of up to 64 messages, each XORed
// with its chaining value, as one batch for those kernels. It pays from
// about 16 messages of similar length; a single message, the portable
// path, or a block from elsewhere runs one chain at a time.
//
// Like CryptBlocks it panics, before encrypting anything, where a job's
// Src is not a whole number of blocks, its Dst is shorter, or the two
// overlap inexactly; it also panics where b's block size is not 16 bytes.
func CBCEncryptMulti(b cipher.Block, jobs []CBCJob) {
	modes.CheckCBCJobs(b, "aria", jobs)
	if mb, ok := b.(*modes.Block); ok && len(jobs) > 1 && mb.Impl() != "generic" {
		modes.CBCEncryptTransposed(mb, jobs, multiLanes)
		return
	}
	modes.CBCEncryptSerial(b, jobs)
}
