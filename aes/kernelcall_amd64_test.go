//go:build amd64 && !purego

package aes

import (
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// BenchmarkKernelCall measures, at the sizes where call overhead shows (16
// and 64 bytes), the generated entry points that jump on the vector width
// ("entry") against a direct call of the kernel ("direct", the floor) and a
// call through a function value ("funcvalue", which goes through the
// assembly's ABI wrapper):
//
//	go test -run - -bench KernelCall -count 5 ./aes/
func BenchmarkKernelCall(b *testing.B) {
	if !cpu.HasAll(cpu.AESNI, cpu.SSSE3) {
		b.Skip("needs AES-NI and SSSE3")
	}
	var keys [240]byte
	var counter [16]byte
	buf := make([]byte, 64)
	width := widthAESNI
	ecbValue, ctrValue := encryptBlocksAESNI, ctrAESNI
	for _, size := range []int{16, 64} {
		d, s, n := &buf[0], &buf[0], size/BlockSize
		b.Run("ecb/entry/"+sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				encryptBlocks(&keys, 10, d, s, n, prefetchDistance, width)
			}
		})
		b.Run("ecb/direct/"+sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				encryptBlocksAESNI(&keys, 10, d, s, n, prefetchDistance)
			}
		})
		b.Run("ecb/funcvalue/"+sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				ecbValue(&keys, 10, d, s, n, prefetchDistance)
			}
		})
		b.Run("ctr/entry/"+sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				ctr(&keys, 10, d, s, n, prefetchDistance, &counter, width)
			}
		})
		b.Run("ctr/direct/"+sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				ctrAESNI(&keys, 10, d, s, n, prefetchDistance, &counter)
			}
		})
		b.Run("ctr/funcvalue/"+sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				ctrValue(&keys, 10, d, s, n, prefetchDistance, &counter)
			}
		})
	}
}
