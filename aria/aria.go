// Package aria implements the ARIA block cipher (RFC 5794, KS X 1213) with
// several code paths, one of which NewCipher chooses from the CPU's
// features:
//
//   - gfni-avx512: 64 blocks at once, byte-sliced in ZMM registers, the
//     S-boxes computed by GFNI affine instructions;
//   - gfni-avx2: the same on 32 blocks in YMM registers;
//   - vaes-avx2: 32 blocks in YMM registers, the S-boxes computed through
//     VAESENCLAST/VAESDECLAST and affine maps, for CPUs without GFNI;
//   - aesni-avx2: the same with each YMM register's halves through the XMM
//     AES-NI instructions, for AVX2 CPUs without VAES;
//   - aesni-avx: 16 blocks in XMM registers, S-boxes as in aesni-avx2;
//   - generic: portable Go, bitsliced four blocks at a time, the S-boxes
//     computed by the AES S-box circuit between affine maps (ct.go).
//
// CBC encryption, and the last few blocks of ECB, CBC decryption and CTR
// requests, run one-block kernels built for latency (GFNI or AES-NI forms).
//
// Dispatch: the paths are listed best first in one table (paths, in
// blockapi.go: asmPaths from sliced_amd64.go, then generic). NewCipher
// takes the first path whose CPU features are usable, passing over
// gfni-avx512 where the CPU prefers 256-bit vectors (internal/cpu's
// per-microarchitecture table). The choice is made once and made again
// only when the feature mask changes, so key setup takes no lock and looks
// nothing up. SIMDCRYPT_CPU and the dispatch
// package mask features; dispatch.Chosen("aria") tells which path runs.
//
// The cipher.Block it returns works with crypto/cipher's NewCTR,
// NewCBCEncrypter and NewCBCDecrypter, which pick up its bulk kernels;
// NewCTR, NewCBCEncrypter and NewCBCDecrypter below do the same without
// relying on those hooks. ECB is available through this module's ecb
// package.
//
// Constant time: every path indexes no memory and takes no branch on
// secret data, key setup included. The portable path is bitsliced (ct.go);
// the accelerated paths compute the S-boxes with GFNI or AES-NI affine
// instructions (their PSHUFB tables sit in registers), and CBC encryption,
// a serial chain that wide kernels cannot speed up, runs one-block kernels
// built the same way. The key schedule computes its S-boxes arithmetically
// (keysbox.go).
package aria

import "crypto/cipher"

// NewCipher returns ARIA-128, ARIA-192 or ARIA-256 (12, 14 or 16 rounds)
// for a 16-, 24- or 32-byte key, running the fastest implementation the CPU
// offers.
func NewCipher(key []byte) (cipher.Block, error) { return paths.Chosen()(key) }
