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

// laneKeyTable holds a key for each lane, for the keyed kernels: slot j
// (of a right-aligned table) for the lanes of state register r in the
// vector at (8*j+r)*width, the lane's key at 16 bytes times its place in
// the register. The table starts 64-byte aligned within buf, so that no
// vector of keys straddles two cache lines (which measured twice as slow
// on VAES-512).
type laneKeyTable struct {
	buf [15*8*64 + 63]byte
	off int
}

func newLaneKeyTable() *laneKeyTable {
	kt := new(laneKeyTable)
	kt.off = int(-uintptr(unsafe.Pointer(&kt.buf[0])) & 63)
	return kt
}

// start is the table's first byte, 64-byte aligned.
func (kt *laneKeyTable) start() *byte { return &kt.buf[kt.off] }

// setKey makes the right-aligned schedule enc lane i's key in kt.
func (k laneKernel) setKey(kt *laneKeyTable, i int, enc *[240]byte) {
	per := k.lanes() / 8 // lanes in one register
	width := per * BlockSize
	at := kt.off + i/per*width + i%per*BlockSize
	for j := range 15 {
		copy(kt.buf[8*j*width+at:][:BlockSize], enc[BlockSize*j:])
	}
}

// laneKernelFor picks the kernel of b's path by its vector width (so
// SIMDCRYPT_CPU and a path pinned for testing hold here too) and returns
// b's schedule, which the lane kernels of any width take, or reports false
// for a block that is not one of this package's hardware paths.
func laneKernelFor(b cipher.Block) (kern laneKernel, enc *[240]byte, rounds int, ok bool) {
	mb, ok := b.(*modes.Block)
	if !ok {
		return 0, nil, 0, false
	}
	k, ok := mb.Kernels().(*asmKernels)
	if !ok {
		return 0, nil, 0, false
	}
	switch k.width {
	case widthVAES512:
		kern = lanesVAES512
	case widthVAES256:
		kern = lanesVAES256
	case widthAESNI:
		kern = lanesAESNI
	default:
		return 0, nil, 0, false
	}
	return kern, &k.enc, k.rounds, true
}

// cbcEncryptMultiLanes runs the jobs on the multi-buffer kernel of b's
// path, or reports false when b has none.
func cbcEncryptMultiLanes(b cipher.Block, jobs []CBCJob) bool {
	kern, enc, rounds, ok := laneKernelFor(b)
	if !ok {
		return false
	}
	runLanes(kern, jobs, laneKeys{shared: enc, rounds: rounds})
	return true
}

// cbcEncryptMultiKeysLanes runs the jobs whose blocks are on a hardware
// path on the keyed multi-buffer kernels, one batch per key size that at
// least two jobs have, and reports for each job whether it ran there.
func cbcEncryptMultiKeysLanes(blocks []cipher.Block, jobs []CBCJob) (ran func(i int) bool) {
	var kern laneKernel
	var count [3]int // jobs on hardware paths by key size: 10, 12, 14 rounds
	found := false
	for _, b := range blocks {
		if k, _, rounds, ok := laneKernelFor(b); ok {
			count[(rounds-10)/2]++
			if !found {
				kern, found = k, true
			}
		}
	}
	for g, c := range count {
		if c >= 2 {
			runLanes(kern, jobs, laneKeys{rounds: 10 + 2*g, per: blocks})
		}
	}
	return func(i int) bool {
		_, _, rounds, ok := laneKernelFor(blocks[i])
		return ok && count[(rounds-10)/2] >= 2
	}
}

// laneKeys says which key each job runs under on the lanes: the shared
// schedule, or with per set, job i under per[i]'s, taking only the jobs
// whose key has the given number of rounds (all lanes of a kernel call
// run the same rounds).
type laneKeys struct {
	shared *[240]byte
	rounds int
	per    []cipher.Block
}

// of returns job i's schedule, or false when the job is not in this run.
func (k *laneKeys) of(i int) (*[240]byte, bool) {
	if k.per == nil {
		return k.shared, true
	}
	_, enc, rounds, ok := laneKernelFor(k.per[i])
	return enc, ok && rounds == k.rounds
}

// runLanes runs the jobs that keys takes on kern. Jobs enter lanes in
// order; each kernel call advances every busy lane by the blocks the
// shortest of them has left (at most maxStep), and a lane whose job ends
// takes the next.
//
// Lanes start staggered. Messages are often page-aligned (sectors, pages,
// pooled buffers), so without a stagger every lane would touch the same
// offset of its page at once, lines that all fall in one set of the L1
// cache, which has fewer ways than 32 lanes have lines: measured on Zen 5,
// 64 page-aligned messages ran 8 times slower than the same messages
// skewed. Lane i waits (i mod 8) * 4 blocks before its first job, which
// spreads the lanes over eight sets (64 bytes apart); equal-length
// messages keep the skew as later jobs replace earlier ones.
func runLanes(kern laneKernel, jobs []CBCJob, keys laneKeys) {
	var t cbcLanes
	var kt *laneKeyTable // the lanes' own keys, when keys.per is set
	if keys.per != nil {
		kt = newLaneKeyTable()
	}
	var job [maxLanes]int  // 1 + the job in each lane; 0 when idle
	var done [maxLanes]int // bytes of it encrypted so far
	var wait [maxLanes]int // bytes to stay idle before the first job
	if len(jobs) > staggerFrom {
		for i := range kern.lanes() {
			wait[i] = i % 8 * 4 * BlockSize
		}
	}
	next := 0
	// skip moves next past the jobs with no data and those not in this run.
	skip := func() {
		for next < len(jobs) {
			if _, ok := keys.of(next); ok && len(jobs[next].Src) > 0 {
				return
			}
			next++
		}
	}
	skip()
	for {
		busy, waiting := 0, 0
		step := maxStep * BlockSize
		for i := range kern.lanes() {
			if job[i] == 0 && wait[i] == 0 && next < len(jobs) {
				// An idle lane takes the next job.
				job[i], done[i] = next+1, 0
				t.iv[i] = jobs[next].IV
				if keys.per != nil {
					enc, _ := keys.of(next)
					kern.setKey(kt, i, enc)
				}
				next++
				skip()
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
			return
		}
		if busy > 0 {
			// The keyed kernels take kt's lane-sliced keys, the others the
			// shared right-aligned schedule.
			p := (*byte)(unsafe.Pointer(&t))
			if kt != nil {
				kern.encryptKeyed(kt.start(), keys.rounds, p, step/BlockSize)
			} else {
				kern.encrypt(&keys.shared[0], keys.rounds, p, step/BlockSize)
			}
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
