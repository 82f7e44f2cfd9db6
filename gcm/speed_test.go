package gcm

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// TestSpeedReport prints, when SIMDCRYPT_GCM_SPEED=1, cycles per byte of
// every path beside crypto/cipher and beside counter mode of the same
// width. On a shared machine go test -bench's mean is mostly other
// processes' time: each figure here is the fastest of many short bursts,
// and the clock is estimated from a one-cycle-per-iteration dependency
// chain measured the same way.
func TestSpeedReport(t *testing.T) {
	if os.Getenv("SIMDCRYPT_GCM_SPEED") != "1" {
		t.Skip("set SIMDCRYPT_GCM_SPEED=1 to print the speed report")
	}
	ghz := clockGHz()
	fmt.Printf("estimated clock %.2f GHz\n", ghz)
	report := func(name string, size int, f func()) float64 {
		ns := fastest(f)
		fmt.Printf("%-34s %6d B %9.1f ns %7.3f c/B\n", name, size, ns, ns*ghz/float64(size))
		return ns
	}
	for _, ks := range []int{16, 32} {
		key := make([]byte, ks)
		sb, _ := stdaes.NewCipher(key)
		std, _ := cipher.NewGCM(sb)
		for _, size := range benchSizes {
			pt := make([]byte, size)
			ad := make([]byte, 13)
			nonce := make([]byte, 12)
			out := make([]byte, 0, size+16)
			ct := std.Seal(nil, nonce, pt, ad)
			base := map[string]float64{}
			base["seal"] = report(fmt.Sprintf("aes%d stdlib seal", ks*8), size, func() { std.Seal(out[:0], nonce, pt, ad) })
			base["open"] = report(fmt.Sprintf("aes%d stdlib open", ks*8), size, func() { std.Open(out[:0], nonce, ct, ad) })
			for _, i := range testkit.Paths("aes") {
				if !i.Available() || i.VariantOf != "" {
					continue
				}
				blk, _ := i.NewBlock(key)
				s := cipher.NewCTR(blk, make([]byte, 16))
				buf := make([]byte, size)
				report(fmt.Sprintf("aes%d ctr %s", ks*8, i.Name), size, func() { s.XORKeyStream(buf, buf) })
				a, err := newPath(i.Name, blk, 12, 16)
				if err != nil {
					continue
				}
				ns := report(fmt.Sprintf("aes%d gcm %s seal", ks*8, i.Name), size, func() { a.Seal(out[:0], nonce, pt, ad) })
				fmt.Printf("%44s %.2fx stdlib\n", "", base["seal"]/ns)
				ns = report(fmt.Sprintf("aes%d gcm %s open", ks*8, i.Name), size, func() { a.Open(out[:0], nonce, ct, ad) })
				fmt.Printf("%44s %.2fx stdlib\n", "", base["open"]/ns)
			}
		}
	}
	key := make([]byte, 16)
	for _, i := range testkit.Paths("aria") {
		if !i.Available() || i.VariantOf != "" {
			continue
		}
		blk, _ := i.NewBlock(key)
		for _, size := range benchSizes {
			pt := make([]byte, size)
			nonce := make([]byte, 12)
			out := make([]byte, 0, size+16)
			s := cipher.NewCTR(blk, make([]byte, 16))
			buf, dst := make([]byte, size), make([]byte, size)
			report("aria128 ctr "+i.Name, size, func() { s.XORKeyStream(buf, buf) })
			report("aria128 ctr "+i.Name+" (dst!=src)", size, func() { s.XORKeyStream(dst, buf) })
			for _, p := range paths {
				a, err := newPath(p.Name, blk, 12, 16)
				if err != nil {
					continue
				}
				ct := a.Seal(nil, nonce, pt, nil)
				report(fmt.Sprintf("aria128 gcm %s/%s seal", i.Name, p.Name), size, func() { a.Seal(out[:0], nonce, pt, nil) })
				report(fmt.Sprintf("aria128 gcm %s/%s open", i.Name, p.Name), size, func() { a.Open(out[:0], nonce, ct, nil) })
			}
		}
	}
}

// fastest returns the least time per call of f over many bursts of about
// 20µs each.
func fastest(f func()) float64 {
	f()
	reps := 1
	for {
		start := time.Now()
		for range reps {
			f()
		}
		if time.Since(start) > 20*time.Microsecond || reps > 1<<20 {
			break
		}
		reps *= 2
	}
	best := 1e18
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		start := time.Now()
		for range reps {
			f()
		}
		if ns := float64(time.Since(start).Nanoseconds()) / float64(reps); ns < best {
			best = ns
		}
	}
	return best
}

var sink uint64

// clockGHz estimates the core clock from a loop whose iterations each wait
// one cycle for the previous one's add.
func clockGHz() float64 {
	const n = 20000
	ns := fastest(func() {
		x := sink
		for i := uint64(0); i < n; i++ {
			x += i
		}
		sink = x
	})
	return n / ns
}
