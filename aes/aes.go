// Package aes implements AES (FIPS 197) with several code paths, one of
// which NewCipher chooses from the CPU's features:
//
//	vaes512   VAES on 512-bit vectors (AVX-512): 48 blocks in flight
//	vaes256   VAES on 256-bit vectors (AVX2): 24 blocks in flight
//	aesni     AES-NI on 128-bit vectors (legacy SSE encodings): 12 blocks
//	stdlib    off amd64, where crypto/aes runs on the CPU's AES instructions
//	          (ARMv8, POWER8, z/Architecture CPACF): crypto/aes itself
//	generic   portable Go, bitsliced four blocks at a time (constant-time)
//
// plus vaes512-noprefetch, vaes256-noprefetch and aesni-noprefetch, the same
// kernels with software prefetch switched off, which only tests and
// `simdcrypt speed -cold` run.
//
// Dispatch: the paths are listed best first in one table (paths, in
// blockapi.go: asmPaths from aes_amd64.go or aes_other.go, then generic).
// NewCipher takes the first path whose CPU features are usable, passing
// over vaes512 where the CPU prefers 256-bit vectors (internal/cpu's
// per-microarchitecture table). The choice is made once and made again
// only when the feature mask changes, so key setup takes no lock and looks
// nothing up. SIMDCRYPT_CPU and the dispatch
// package mask features; dispatch.Chosen("aes") tells which path runs.
//
// The cipher.Block it returns works with crypto/cipher's NewCTR,
// NewCBCEncrypter and NewCBCDecrypter, which pick up its bulk kernels;
// NewCTR, NewCBCEncrypter and NewCBCDecrypter below do the same without
// relying on those hooks. ECB is available through this module's ecb
// package.
//
// Every path is constant-time, key setup included. Without AES hardware
// (or with the purego build tag, or with aesni or ssse3 masked) AES runs
// portable Go that is bitsliced four blocks at a time and indexes no table
// by secret data (ct64.go). Off amd64, where the standard library uses the
// CPU's AES instructions, the path "stdlib" delegates to crypto/aes, and
// the crypto/cipher modes over it run the standard library's own assembly.
package aes

import "crypto/cipher"

// NewCipher returns AES-128, AES-192 or AES-256 for a 16-, 24- or 32-byte
// key, running the fastest implementation the CPU offers.
//
// crypto/cipher.NewGCM cannot reach these kernels (it takes its fast path
// only for crypto/aes blocks and runs a slow generic GCM over any other):
// use gcm.New from github.com/simdcrypt/simdcrypt/gcm instead.
func NewCipher(key []byte) (cipher.Block, error) { return paths.Chosen()(key) }
