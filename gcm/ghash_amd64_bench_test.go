//go:build amd64 && !purego

package gcm

import (
	"crypto/cipher"
	"fmt"
	"os"
	"testing"

	"github.com/simdcrypt/simdcrypt/aria"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// BenchmarkGHASH measures the standalone GHASH kernels, the second pass of
// ARIA-GCM, over a buffer in L1.
func BenchmarkGHASH(b *testing.B) {
	var z [16]byte
	z[0] = 1
	hk := newHashKey(&z)
	hk.powers(kindAESNI)
	for _, kind := range []struct {
		name string
		k    ghashKind
	}{{"vaes512", kindVAES512}, {"vaes256", kindVAES256}, {"aesni", kindAESNI}} {
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("%s/%d", kind.name, size), func(b *testing.B) {
				buf := make([]byte, size)
				var y [16]byte
				b.SetBytes(int64(size))
				cpu0 := lockThread(b)
				for b.Loop() {
					ghashWith(kind.k, hk, &y, buf)
				}
				reportCPU(b, size, cpu0)
			})
		}
	}
}

// BenchmarkARIA128GCMStitch compares ARIA-GCM on the 512-bit GHASH with the
// stitched kernel and as two passes, beside ARIA-CTR, in one run.
func BenchmarkARIA128GCMStitch(b *testing.B) {
	blk, _ := aria.NewCipher(make([]byte, 16))
	mb := blk.(*modes.Block)
	benchCTR(b, blk)
	stitched := newKernelsBackend(mb.Kernels(), kindVAES512)
	if stitched.st == nil {
		b.Skip("no stitched kernel on this path")
	}
	twoPass := *stitched
	twoPass.st = nil
	benchAEAD(b, "stitched", newGCM(stitched, standardNonceSize, standardTagSize, "stitched"))
	benchAEAD(b, "two-pass", newGCM(&twoPass, standardNonceSize, standardTagSize, "two-pass"))
}

// TestARIAStitchSpeed prints, when SIMDCRYPT_GCM_SPEED=1, ARIA-128-GCM's
// cycles per byte at 16 KiB stitched and as two passes beside ARIA-CTR,
// each the fastest of many bursts (see TestSpeedReport).
func TestARIAStitchSpeed(t *testing.T) {
	if os.Getenv("SIMDCRYPT_GCM_SPEED") != "1" {
		t.Skip("set SIMDCRYPT_GCM_SPEED=1 to print the speed report")
	}
	blk, _ := aria.NewCipher(make([]byte, 16))
	stitched := newKernelsBackend(blk.(*modes.Block).Kernels(), kindVAES512)
	if stitched.st == nil {
		t.Skip("no stitched kernel on this path")
	}
	twoPass := *stitched
	twoPass.st = nil
	const size = 16384
	ghz := clockGHz()
	pt, nonce := make([]byte, size), make([]byte, 12)
	out := make([]byte, 0, size+16)
	s := cipher.NewCTR(blk, make([]byte, 16))
	names := []string{"ctr"}
	runs := []func(){func() { s.XORKeyStream(pt, pt) }}
	for _, a := range []struct {
		name string
		k    *kernelsBackend
	}{{"stitched", stitched}, {"two-pass", &twoPass}} {
		g := newGCM(a.k, standardNonceSize, standardTagSize, a.name)
		ct := g.Seal(nil, nonce, pt, nil)
		names = append(names, a.name+" seal", a.name+" open")
		runs = append(runs, func() { g.Seal(out[:0], nonce, pt, nil) }, func() { g.Open(out[:0], nonce, ct, nil) })
	}
	var c16, y16 [16]byte
	hk := stitched.hk.from32()
	dst := make([]byte, size)
	names = append(names, "kernel ctr", "kernel ctrghash", "ghash512", "gcm 64B seal", "gcm 0B seal", "ctr 64B", "encrypt J0", "ghashBlock512", "ghashBlockAESNI")
	g := newGCM(stitched, standardNonceSize, standardTagSize, "x")
	runs = append(runs, func() { stitched.k.CTR(dst, pt, &c16) }, func() { c16, y16, _ = stitched.st.CTRGHASH(dst, pt, c16, hk, y16, false) },
		func() { ghashWith(kindVAES512, stitched.hk, &y16, pt) }, func() { g.Seal(out[:0], nonce, pt[:64], nil) }, func() { g.Seal(out[:0], nonce, nil, nil) }, func() { s.XORKeyStream(pt[:64], pt[:64]) }, func() { c16 = stitched.encrypt(c16) }, func() { y16 = stitched.ghashBlock(y16, c16) }, func() { ghashWith(kindAESNI, stitched.hk, &y16, pt[:16]) })
	// The least of five interleaved rounds: other processes' turns only
	// ever add time.
	best := make([]float64, len(runs))
	for range 5 {
		for i, f := range runs {
			if c := fastest(f) * ghz / size; best[i] == 0 || c < best[i] {
				best[i] = c
			}
		}
	}
	fmt.Printf("clock %.2f GHz\n", ghz)
	for i, name := range names {
		fmt.Printf("%-14s %.3f c/B  %.2fx ctr\n", name, best[i], best[i]/best[0])
	}
}
