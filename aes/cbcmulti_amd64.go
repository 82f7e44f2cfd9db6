//go:build amd64 && !purego

package aes

import (
	"crypto/cipher"
	"unsafe"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// cbcLanes is the lane table of the multi-buffer kernels (_asm/cbcmb):
// lane i encrypts from src[i] to dst[i], chaining from and back to iv[i].
// Idle lanes point into idle. The generator hard-codes the offsets of src,
// dst and iv.
type cbcLanes struct {
	src  [maxLanes]*byte
	dst  [maxLanes]*byte
	iv   [maxLanes][BlockSize]byte
	idle [maxStep * BlockSize]byte
}

const (
	maxLanes = 32
	// maxStep caps the blocks of one kernel call, which bounds the scratch
	// an idle lane writes; a call of 64 blocks on 32 lanes is 32 KiB of
	// work, so the call overhead stays small.
	maxStep = 64
)

// laneKernel names one width's multi-buffer kernel. run calls it
// directly, not through a func value: an indirect call would move the lane
// table to the heap.
type laneKernel uint8

const (
	lanesAESNI laneKernel = iota
	lanesVAES256
	lanesVAES512
)

// lanes is the number of messages the kernel runs side by side.
func (k laneKernel) lanes() int { return [...]int{8, 16, 32}[k] }

func (k laneKernel) run(keys *[240]byte, rounds int, t *cbcLanes, n int) {
	k.encrypt(keys, rounds, (*byte)(unsafe.Pointer(t)), n)
}

// laneKernelFor picks the kernel of b's path by its vector width (so
// SIMDCRYPT_CPU and a path pinned for testing hold here too), or reports
// false for a block that is not one of this package's hardware paths.
func laneKernelFor(b cipher.Block) (*modes.Block, laneKernel, bool) {
	mb, ok := b.(*modes.Block)
	if !ok {
		return nil, 0, false
	}
	k, ok := mb.Kernels().(*asmKernels)
	if !ok {
		return nil, 0, false
	}
	switch k.width {
	case widthVAES512:
		return mb, lanesVAES512, true
	case widthVAES256:
		return mb, lanesVAES256, true
	case widthAESNI:
		return mb, lanesAESNI, true
	}
	return nil, 0, false
}

// cbcEncryptMultiLanes runs the jobs on the multi-buffer kernel of b's
// path, or reports false when b has none. Jobs enter lanes in order; each
// kernel call advances every busy lane by the blocks the shortest of them
// has left (at most maxStep), and a lane whose job ends takes the next.
//
// Lanes start staggered. Messages are often page-aligned (sectors, pages,
// pooled buffers), so without a stagger every lane would touch the same
// offset of its page at once, lines that all fall in one set of the L1
// cache, which has fewer ways than 32 lanes have lines: measured on Zen 5,
// 64 page-aligned messages ran 8 times slower than the same messages
// skewed. Lane i waits (i mod 8) * 4 blocks before its first job, which
// spreads the lanes over eight sets (64 bytes apart); equal-length
// messages keep the skew as later jobs replace earlier ones.
func cbcEncryptMultiLanes(b cipher.Block, jobs []CBCJob) bool {
	mb, kern, ok := laneKernelFor(b)
	if !ok {
		return false
	}
	enc, _, rounds := mb.Kernels().(modes.AESRoundKeys).AESRoundKeys()

	var t cbcLanes
	var job [maxLanes]int  // 1 + the job in each lane; 0 when idle
	var done [maxLanes]int // bytes of it encrypted so far
	var wait [maxLanes]int // bytes to stay idle before the first job
	if len(jobs) > staggerFrom {
		for i := range kern.lanes() {
			wait[i] = i % 8 * 4 * BlockSize
		}
	}
	next := 0
	for {
		busy, waiting := 0, 0
		step := maxStep * BlockSize
		for i := range kern.lanes() {
			if job[i] == 0 && wait[i] == 0 {
				// An idle lane takes the next job with data.
				for next < len(jobs) && len(jobs[next].Src) == 0 {
					next++
				}
				if next < len(jobs) {
					job[i], done[i] = next+1, 0
					t.iv[i] = jobs[next].IV
					next++
				}
			}
			if job[i] != 0 {
				j := &jobs[job[i]-1]
				busy++
				step = min(step, len(j.Src)-done[i])
				t.src[i], t.dst[i] = &j.Src[done[i]], &j.Dst[done[i]]
				continue
			}
			t.src[i], t.dst[i] = &t.idle[0], &t.idle[0]
			if wait[i] > 0 && next < len(jobs) {
				waiting++
				step = min(step, wait[i])
			}
		}
		if busy == 0 && waiting == 0 {
			return true
		}
		if busy > 0 {
			kern.run(enc, rounds, &t, step/BlockSize)
		}
		for i := range kern.lanes() {
			if job[i] == 0 {
				wait[i] = max(0, wait[i]-step)
				continue
			}
			j := &jobs[job[i]-1]
			done[i] += step
			if done[i] == len(j.Src) {
				j.IV = t.iv[i]
				job[i] = 0
			}
		}
	}
}

// staggerFrom is the batch size above which lanes start staggered. Measured
// on Zen 5 (VAES-512, page-aligned 4 KiB messages): 8 messages ran 5%
// faster unstaggered, in place or not; 16 ran 1.6 (in place) to 2.2 times
// faster staggered.
const staggerFrom = 8
