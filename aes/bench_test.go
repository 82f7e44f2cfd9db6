package aes

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
	"os"
	"strconv"
	"testing"
	"unsafe"

	"github.com/simdcrypt/simdcrypt/ecb"
)

// The benchmarks run every registered path next to the standard library
// ("crypto-aes": crypto/aes with crypto/cipher; ECB as a loop over Encrypt; with -tags purego Go's generic code) in
// one run, so ratios come from the same conditions:
//
//	go test -run - -bench 'AES/ctr/' ./aes/
//
// BenchmarkAES/<mode>/<path>/<size> covers every mode at 16 B .. 1 MiB
// (ctr-256 is CTR with a 256-bit key); BenchmarkAESCold rotates over a
// working set larger than the caches to show what software prefetch buys.

var benchSizes = []int{16, 64, 256, 1 << 10, 16 << 10, 1 << 20}

func sizeName(n int) string {
	switch {
	case n >= 1<<20:
		return strconv.Itoa(n>>20) + "M"
	case n >= 1<<10:
		return strconv.Itoa(n>>10) + "K"
	}
	return strconv.Itoa(n)
}

// benchPath is one implementation under test: stdlib or a registered path.
type benchPath struct {
	name    string
	block   func(key []byte) cipher.Block
	missing string // why the path cannot run here; "" when it can
}

// skipIfMissing reports a path this CPU cannot run instead of leaving it
// out of the results unmentioned.
func (p benchPath) skipIfMissing(b *testing.B) {
	if p.missing != "" {
		b.Skip(p.missing)
	}
}

func benchPaths(b *testing.B) []benchPath {
	paths := []benchPath{{name: "crypto-aes", block: func(key []byte) cipher.Block {
		c, err := stdaes.NewCipher(key)
		if err != nil {
			b.Fatal(err)
		}
		return c
	}}}
	for _, i := range testkit.Paths(cipherName) {
		if !i.Available() {
			paths = append(paths, benchPath{name: i.Name, missing: fmt.Sprintf("%s needs %v", i.Name, i.Missing())})
			continue
		}
		paths = append(paths, benchPath{name: i.Name, block: func(key []byte) cipher.Block {
			c, err := i.NewBlock(key)
			if err != nil {
				b.Fatal(err)
			}
			return c
		}})
	}
	return paths
}

// benchModes builds, for one key, the function a benchmark iteration runs.
var benchModes = []struct {
	name    string
	keySize int
	run     func(c cipher.Block) func(dst, src []byte)
}{
	{"ecb-encrypt", 16, func(c cipher.Block) func(dst, src []byte) { return ecb.NewEncrypter(c).CryptBlocks }},
	{"ecb-decrypt", 16, func(c cipher.Block) func(dst, src []byte) { return ecb.NewDecrypter(c).CryptBlocks }},
	{"cbc-encrypt", 16, func(c cipher.Block) func(dst, src []byte) {
		return cipher.NewCBCEncrypter(c, make([]byte, BlockSize)).CryptBlocks
	}},
	{"cbc-decrypt", 16, func(c cipher.Block) func(dst, src []byte) {
		return cipher.NewCBCDecrypter(c, make([]byte, BlockSize)).CryptBlocks
	}},
	{"ctr", 16, func(c cipher.Block) func(dst, src []byte) {
		return cipher.NewCTR(c, make([]byte, BlockSize)).XORKeyStream
	}},
	{"ctr-256", 32, func(c cipher.Block) func(dst, src []byte) {
		return cipher.NewCTR(c, make([]byte, BlockSize)).XORKeyStream
	}},
}

// benchBuffers returns source and destination buffers laid out as
// `simdcrypt speed` lays them out, each 64-byte aligned and not a multiple
// of 4 KiB apart, so that the two tools measure the same thing. Two
// separate allocations of exactly 16 KiB usually are a multiple of 4 KiB
// apart, and loads from one then falsely wait for stores to the other (4 KiB
// aliasing on Intel cores): a benchmark would measure placement, not the
// cipher.
func benchBuffers(n int) (src, dst []byte) {
	buf := make([]byte, 2*n+3*64)
	skew := func(b []byte) int { return int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63) }
	src = buf[skew(buf):][:n]
	rest := buf[skew(buf)+n+64:]
	dst = rest[skew(rest):][:n]
	return src, dst
}

func BenchmarkAES(b *testing.B) {
	for _, m := range benchModes {
		b.Run(m.name, func(b *testing.B) {
			for _, p := range benchPaths(b) {
				b.Run(p.name, func(b *testing.B) {
					p.skipIfMissing(b)
					for _, n := range benchSizes {
						b.Run(sizeName(n), func(b *testing.B) {
							key := make([]byte, m.keySize)
							run := m.run(p.block(key))
							src, dst := benchBuffers(n)
							defer testkit.StartCPU(b, n)()
							for b.Loop() {
								run(dst, src)
							}
						})
					}
				})
			}
		})
	}
}

// coldWorkingSet is the memory BenchmarkAESCold rotates over: 64 MiB by
// default, SIMDCRYPT_COLD_MIB to change it (this machine's last-level cache
// may be larger than the default; pass a size above it for DRAM-bound data).
func coldWorkingSet(b *testing.B) int {
	mib := 64
	if s := os.Getenv("SIMDCRYPT_COLD_MIB"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			b.Fatalf("bad SIMDCRYPT_COLD_MIB %q", s)
		}
		mib = v
	}
	return mib << 20
}

// BenchmarkAESCold encrypts in place 16 KiB chunks of a large working set,
// each chunk once per pass, so the source is never in the inner caches: the
// case software prefetch is for. It compares each path with its
// -noprefetch variant.
func BenchmarkAESCold(b *testing.B) {
	const chunk = 16 << 10
	total := coldWorkingSet(b)
	buf := make([]byte, total)
	for i := range buf {
		buf[i] = byte(i)
	}
	for _, m := range benchModes {
		if m.name != "ctr" && m.name != "ecb-encrypt" && m.name != "cbc-decrypt" {
			continue
		}
		b.Run(m.name, func(b *testing.B) {
			for _, p := range benchPaths(b) {
				b.Run(fmt.Sprintf("%s/%dM", p.name, total>>20), func(b *testing.B) {
					p.skipIfMissing(b)
					run := m.run(p.block(make([]byte, m.keySize)))
					b.SetBytes(chunk)
					off := 0
					for b.Loop() {
						run(buf[off:off+chunk], buf[off:off+chunk])
						if off += chunk; off == total {
							off = 0
						}
					}
				})
			}
		})
	}
}

// BenchmarkNewCipher compares key setup on the default path (dispatch
// included) with crypto/aes.NewCipher, in one run: AES-128, the key setup
// an AEAD pays per key.
//
//	go test -run - -bench NewCipher -count 5 ./aes/
func BenchmarkNewCipher(b *testing.B) {
	key := make([]byte, 16)
	for _, c := range []struct {
		name string
		new  func([]byte) (cipher.Block, error)
	}{{"default", NewCipher}, {"stdlib", stdaes.NewCipher}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.new(key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
