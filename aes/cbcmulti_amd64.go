//go:build amd64 && !purego

package aes

import (
	"crypto/cipher"
	"strings"
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

// laneKernel is one width's multi-buffer kernel and its lane count.
type laneKernel struct {
	run   func(keys *[240]byte, rounds int, lanes *byte, n int)
	lanes int
}

var (
	lanesAESNI   = laneKernel{cbcEncryptLanesAESNI, 8}
	lanesVAES256 = laneKernel{cbcEncryptLanesVAES256, 16}
	lanesVAES512 = laneKernel{cbcEncryptLanesVAES512, 32}
)

// laneKernelFor picks the kernel of b's path (so SIMDCRYPT_CPU and a path
// pinned for testing hold here too), or reports false for a block that is
// not one of this package's hardware paths.
func laneKernelFor(b cipher.Block) (*modes.Block, laneKernel, bool) {
	mb, ok := b.(*modes.Block)
	if !ok {
		return nil, laneKernel{}, false
	}
	if _, ok := mb.Kernels().(modes.AESRoundKeys); !ok {
		return nil, laneKernel{}, false
	}
	switch name := mb.Impl(); {
	case strings.HasPrefix(name, "vaes512"):
		return mb, lanesVAES512, true
	case strings.HasPrefix(name, "vaes256"):
		return mb, lanesVAES256, true
	case strings.HasPrefix(name, "aesni"):
		return mb, lanesAESNI, true
	}
	return nil, laneKernel{}, false
}

// cbcEncryptMultiLanes runs the jobs on the multi-buffer kernel of b's
// path, or reports false when b has none. Jobs enter lanes in order; each
// kernel call advances every busy lane by the blocks the shortest of them
// has left (at most maxStep), and a lane whose job ends takes the next.
func cbcEncryptMultiLanes(b cipher.Block, jobs []CBCJob) bool {
	mb, kern, ok := laneKernelFor(b)
	if !ok {
		return false
	}
	enc, _, rounds := mb.Kernels().(modes.AESRoundKeys).AESRoundKeys()

	var t cbcLanes
	var job [maxLanes]int  // 1 + the job in each lane; 0 when idle
	var done [maxLanes]int // bytes of it encrypted so far
	next := 0
	for {
		busy := 0
		step := maxStep * BlockSize
		for i := range kern.lanes {
			if job[i] == 0 {
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
			} else {
				t.src[i], t.dst[i] = &t.idle[0], &t.idle[0]
			}
		}
		if busy == 0 {
			return true
		}
		kern.run(enc, rounds, (*byte)(unsafe.Pointer(&t)), step/BlockSize)
		for i := range kern.lanes {
			if job[i] == 0 {
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
