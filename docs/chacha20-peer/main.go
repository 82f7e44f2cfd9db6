//go:build ignore

// Command main times simdcrypt's ChaCha20 paths and golang.org/x/crypto's
// with the estimator gcrypt.c uses for libgcrypt: thread CPU time of 21
// slices of about 4 MiB of calls each (in place, 64-byte aligned buffer),
// the median slice. It prints rows "IMPL SIZE NS_PER_BYTE".
//
//	go run docs/chacha20-peer/main.go avx512,avx2,ssse3,xcrypto 64 1024 16384
//
// Each path is pinned by masking CPU features while its cipher is created
// (dispatch.SetMask), and the choice is checked with dispatch.Chosen.
package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/simdcrypt/simdcrypt/chacha20"
	"github.com/simdcrypt/simdcrypt/dispatch"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	xchacha "golang.org/x/crypto/chacha20"
)

const (
	numSlices  = 21
	sliceBytes = 4 << 20
)

// masks pin a path: the features to hide while its cipher is created.
var masks = map[string]string{"avx512": "", "avx2": "avx512=off", "ssse3": "avx2=off", "generic": "avx512=off,avx2=off,ssse3=off"}

type stream interface{ XORKeyStream(dst, src []byte) }

func newStream(impl string) stream {
	key, nonce := make([]byte, chacha20.KeySize), make([]byte, chacha20.NonceSize)
	if impl == "xcrypto" {
		s, _ := xchacha.NewUnauthenticatedCipher(key, nonce)
		return s
	}
	mask, ok := masks[impl]
	if !ok {
		fail("unknown implementation %q", impl)
	}
	restore, err := dispatch.SetMask(mask)
	if err != nil {
		fail("%v", err)
	}
	defer restore()
	if p, _, _ := dispatch.Chosen("chacha20"); p != impl {
		fail("mask %q chooses %s, not %s", mask, p, impl)
	}
	s, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
	return s
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 3 {
		fail("usage: main IMPL[,IMPL...] SIZE...")
	}
	runtime.LockOSThread() // the thread's CPU clock must be this goroutine's
	var sizes []int
	for _, a := range os.Args[2:] {
		n, err := strconv.Atoi(a)
		if err != nil || n <= 0 {
			fail("bad size %q", a)
		}
		sizes = append(sizes, n)
	}
	raw := make([]byte, slices.Max(sizes)+64)
	buf := raw[(64-uintptr(unsafe.Pointer(&raw[0]))%64)%64:]
	for _, n := range sizes {
		for _, impl := range strings.Split(os.Args[1], ",") {
			s, b := newStream(impl), buf[:n]
			calls := max(1, sliceBytes/n)
			var ns []float64
			for k := -1; k < numSlices; k++ { // k = -1: warm-up
				t0 := testkit.ThreadCPU()
				for range calls {
					s.XORKeyStream(b, b)
				}
				if k >= 0 {
					ns = append(ns, float64(testkit.ThreadCPU()-t0)/float64(calls*n))
				}
			}
			slices.Sort(ns)
			fmt.Printf("%s %d %.5f\n", impl, n, ns[numSlices/2])
		}
	}
}
