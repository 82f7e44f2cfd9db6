//go:build amd64 && !purego

package aes

import (
	"testing"
	"unsafe"
)

// BenchmarkKernels times the bulk kernels called directly, without the
// cipher.Block layer, at every width this CPU runs: what a path's kernel
// costs against its hardware limit (docs/aes-limits.md). dst starts a page,
// src lies half a page further and the key schedule in a page of its own,
// so no load waits on a store to an address 4 KiB apart.
func BenchmarkKernels(b *testing.B) {
	const size = 16 << 10
	mem := make([]byte, 2*size+4*4096)
	page := int(-uintptr(unsafe.Pointer(&mem[0])) & 4095)
	dst, src := mem[page:page+size], mem[page+size+2048:page+2*size+2048]
	state := mem[page+2*size+4096:]
	keys := (*[240]byte)(unsafe.Pointer(&state[1024]))
	counter := (*[16]byte)(unsafe.Pointer(&state[1536]))
	iv := (*[16]byte)(unsafe.Pointer(&state[1600]))
	d, s, n := &dst[0], &src[0], size/BlockSize
	for _, p := range asmPaths() {
		path := p.Path
		width := map[string]int{"vaes512": widthVAES512, "vaes256": widthVAES256, "aesni": widthAESNI}[path.Name]
		if width == 0 {
			continue // the -noprefetch variants run the same kernels
		}
		for _, rounds := range []int{10, 14} {
			kernels := []struct {
				name string
				call func()
			}{
				{"ecb-encrypt", func() { encryptBlocks(keys, rounds, d, s, n, prefetchDistance, width) }},
				{"ecb-decrypt", func() { decryptBlocks(keys, rounds, d, s, n, prefetchDistance, width) }},
				{"cbc-decrypt", func() { cbcDecrypt(keys, rounds, d, s, n, prefetchDistance, iv, width) }},
				{"ctr", func() { ctr(keys, rounds, d, s, n, prefetchDistance, counter, width) }},
			}
			for _, k := range kernels {
				b.Run(path.Name+"/"+k.name+"/"+map[int]string{10: "aes128", 14: "aes256"}[rounds], func(b *testing.B) {
					if !path.Available() {
						b.Skipf("%s needs %v", path.Name, path.Missing())
					}
					b.SetBytes(size)
					for b.Loop() {
						k.call()
					}
				})
			}
		}
	}
}
