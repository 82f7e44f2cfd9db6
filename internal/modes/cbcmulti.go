package modes

import (
	"crypto/cipher"
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/alias"
)

// CBCJob is one message of a multi-buffer CBC encryption: Src is encrypted
// into Dst, chaining from IV.
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

// CheckCBCJobs makes CryptBlocks' checks on every job, panicking with
// cipherName in the message, so that a bad job stops the batch before
// anything is encrypted.
func CheckCBCJobs(b cipher.Block, cipherName string, jobs []CBCJob) {
	if b.BlockSize() != BlockSize {
		panic("simdcrypt/" + cipherName + ": CBCEncryptMulti needs a 16-byte block cipher")
	}
	for i := range jobs {
		j := &jobs[i]
		if len(j.Src)%BlockSize != 0 {
			panic("simdcrypt/" + cipherName + ": input not full blocks")
		}
		if len(j.Dst) < len(j.Src) {
			panic("simdcrypt/" + cipherName + ": output smaller than input")
		}
		if alias.InexactOverlap(j.Dst[:len(j.Src)], j.Src) {
			panic("simdcrypt/" + cipherName + ": invalid buffer overlap")
		}
	}
}

// CBCEncryptSerial encrypts the jobs one chain at a time: through the
// block's own CBC kernel where it is a Block, else crypto/cipher's.
func CBCEncryptSerial(b cipher.Block, jobs []CBCJob) {
	if mb, ok := b.(*Block); ok {
		for i := range jobs {
			j := &jobs[i]
			mb.k.CBCEncrypt(j.Dst[:len(j.Src)], j.Src, &j.IV)
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

// CBCEncryptTransposed encrypts the jobs with b's ECB kernel over a batch
// made of the next block of up to lanes chains: block j of every busy
// chain, XORed with its chaining value, is gathered into one buffer, the
// buffer goes through EncryptBlocks, and the results go out to the chains'
// Dst and stay in the buffer as their chaining values. It pays for a
// cipher whose wide kernels are far faster per block than one block at a
// time (ARIA's byte-sliced kernels: about 1 against 20 cycles per byte).
//
// Busy lanes are kept at the front of the buffer, so a kernel call covers
// only them. Unlike the AES lane kernels, lanes start together: the ECB
// kernel works on the gathered buffer, not on the messages, and a stagger
// (as the AES driver uses against page-aligned messages sharing one L1
// set) measured slower here, for the partial batches it makes.
func CBCEncryptTransposed(b *Block, jobs []CBCJob, lanes int) {
	buf := make([]byte, lanes*BlockSize)
	type lane struct {
		job  *CBCJob
		done int // bytes of the job encrypted so far
	}
	busy := make([]lane, 0, lanes)   // busy[i] owns buf block i
	waiting := make([]int, 0, lanes) // steps left for each waiting lane
	for range min(lanes, len(jobs)) {
		waiting = append(waiting, 0)
	}
	next := 0
	takeJob := func() *CBCJob {
		for next < len(jobs) && len(jobs[next].Src) == 0 {
			next++
		}
		if next == len(jobs) {
			return nil
		}
		next++
		return &jobs[next-1]
	}
	for {
		// Waiting lanes whose time has come take jobs.
		for i := 0; i < len(waiting); {
			if waiting[i] > 0 {
				waiting[i]--
				i++
				continue
			}
			waiting[i] = waiting[len(waiting)-1]
			waiting = waiting[:len(waiting)-1]
			if j := takeJob(); j != nil {
				copy(buf[len(busy)*BlockSize:], j.IV[:])
				busy = append(busy, lane{job: j})
			}
		}
		if len(busy) == 0 {
			if len(waiting) == 0 || next == len(jobs) {
				return
			}
			continue
		}
		for i := range busy {
			l := &busy[i]
			x := (*[BlockSize]byte)(buf[i*BlockSize:])
			s := (*[BlockSize]byte)(l.job.Src[l.done:])
			binary.LittleEndian.PutUint64(x[:8], binary.LittleEndian.Uint64(x[:8])^binary.LittleEndian.Uint64(s[:8]))
			binary.LittleEndian.PutUint64(x[8:], binary.LittleEndian.Uint64(x[8:])^binary.LittleEndian.Uint64(s[8:]))
		}
		n := len(busy) * BlockSize
		b.k.EncryptBlocks(buf[:n], buf[:n])
		for i := 0; i < len(busy); {
			l := &busy[i]
			x := (*[BlockSize]byte)(buf[i*BlockSize:])
			*(*[BlockSize]byte)(l.job.Dst[l.done:]) = *x
			l.done += BlockSize
			if l.done < len(l.job.Src) {
				i++
				continue
			}
			l.job.IV = *x
			// The lane takes the next job, or gives its place in the
			// buffer to the last busy lane.
			if j := takeJob(); j != nil {
				*l = lane{job: j}
				*x = j.IV
				i++
				continue
			}
			last := len(busy) - 1
			*x = [BlockSize]byte(buf[last*BlockSize:])
			busy[i] = busy[last]
			busy = busy[:last]
		}
	}
}
