//go:build amd64 && !purego

package aes

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
	"unsafe"
)

// TestKernelTrials measures the bulk kernels in trials short enough that
// most of them run between two interruptions of a busy machine (16 calls of
// 16 KiB, about 6 microseconds at 512 bits), each trial followed by a clock
// trial of dependent one-cycle operations on the same thread. It prints,
// per kernel, the minimum and median cycles per byte over the trials whose
// clock trial ran within 3% of the fastest one. The kernels alternate trial
// by trial, so they see the same machine. It runs only when asked:
//
//	SIMDCRYPT_TRIALS=64 go test -run KernelTrials -v ./aes/   # 64, 32 or 16 (vector bytes)
//
// SIMDCRYPT_TRIALS_SIZE sets the call size (default 16384) and
// SIMDCRYPT_TRIALS_ROUNDS the rounds (10, 12 or 14; the key is zero). Compare
// two builds by running each a few times in alternation (docs/aes-limits.md).
func TestKernelTrials(t *testing.T) {
	width, _ := strconv.Atoi(os.Getenv("SIMDCRYPT_TRIALS"))
	if width == 0 {
		t.Skip("set SIMDCRYPT_TRIALS=64, 32 or 16 to run")
	}
	if !slices.Contains([]int{widthVAES512, widthVAES256, widthAESNI}, width) {
		t.Fatalf("SIMDCRYPT_TRIALS=%d: want 64, 32 or 16", width)
	}
	if missing := trialPathMissing(width); missing != "" {
		t.Skip(missing)
	}
	size, rounds := trialEnv(t, "SIMDCRYPT_TRIALS_SIZE", 16<<10), trialEnv(t, "SIMDCRYPT_TRIALS_ROUNDS", 10)
	if size%64 != 0 || rounds != 10 && rounds != 12 && rounds != 14 {
		t.Fatalf("size %d (want a multiple of 64), rounds %d (want 10, 12 or 14)", size, rounds)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// dst at a page boundary, src half a page further, the key schedule and
	// the counter in a page of their own: no 4 KiB aliasing between them.
	mem := make([]byte, 2*size+4*4096)
	page := int(-uintptr(unsafe.Pointer(&mem[0])) & 4095)
	dst := mem[page : page+size]
	src := mem[page+size+2048 : page+2*size+2048]
	state := mem[page+2*size+4096:]
	keys := (*[240]byte)(unsafe.Pointer(&state[1024]))
	counter := (*[16]byte)(unsafe.Pointer(&state[1536]))
	iv := (*[16]byte)(unsafe.Pointer(&state[1600]))
	n := size / BlockSize
	d, s := &dst[0], &src[0]
	kernels := []struct {
		name string
		call func()
	}{
		{"ecb-encrypt", func() { encryptBlocks(keys, rounds, d, s, n, prefetchDistance, width) }},
		{"ecb-decrypt", func() { decryptBlocks(keys, rounds, d, s, n, prefetchDistance, width) }},
		{"cbc-decrypt", func() { cbcDecrypt(keys, rounds, d, s, n, prefetchDistance, iv, width) }},
		{"ctr", func() { ctr(keys, rounds, d, s, n, prefetchDistance, counter, width) }},
	}
	const trials = 60
	calls := max(16, (256<<10)/size)
	perCall := make([][]float64, len(kernels)) // [kernel][trial] ns per call
	mhz := make([][]float64, len(kernels))     // [kernel][trial] the clock after it
	for range trials {
		for i, k := range kernels {
			t0 := time.Now()
			for range calls {
				k.call()
			}
			perCall[i] = append(perCall[i], float64(time.Since(t0).Nanoseconds())/float64(calls))
			mhz[i] = append(mhz[i], trialMHz())
		}
	}
	top := 0.0
	for _, m := range mhz {
		top = max(top, slices.Max(m))
	}
	for i, k := range kernels {
		var cpb []float64
		for j, ns := range perCall[i] {
			if mhz[i][j] >= 0.97*top {
				cpb = append(cpb, ns*mhz[i][j]/1e3/float64(size))
			}
		}
		if len(cpb) == 0 {
			continue
		}
		slices.Sort(cpb)
		fmt.Printf("trials width %d rounds %d size %d %-12s min %.4f median %.4f c/B (%d of %d trials, clock %.0f MHz)\n",
			width, rounds, size, k.name, cpb[0], cpb[len(cpb)/2], len(cpb), trials, top)
	}
}

func trialEnv(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	x, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, v, err)
	}
	return x
}

// trialPathMissing says why this CPU cannot run the kernels of a width.
func trialPathMissing(width int) string {
	name := map[int]string{widthVAES512: "vaes512", widthVAES256: "vaes256", widthAESNI: "aesni"}[width]
	for _, p := range asmPaths() {
		if p.Path.Name == name && !p.Path.Available() {
			return fmt.Sprintf("%s needs %v", name, p.Path.Missing())
		}
	}
	return ""
}

// trialMHz times 16384 dependent one-cycle operations (alternating ADD
// and XOR, which no compiler merges): the core clock in MHz.
func trialMHz() float64 {
	t0 := time.Now()
	trialSink = trialChain(1024)
	return float64(16<<10) / float64(time.Since(t0).Nanoseconds()) * 1e3
}

var trialSink uint64

func trialChain(iters int) uint64 {
	x, a, b := trialSink, uint64(0x9e3779b97f4a7c15), uint64(0x5851f42d4c957f2d)
	for range iters {
		x = (x + a) ^ b
		x = (x + a) ^ b
		x = (x + a) ^ b
		x = (x + a) ^ b
		x = (x + a) ^ b
		x = (x + a) ^ b
		x = (x + a) ^ b
		x = (x + a) ^ b
	}
	return x
}
