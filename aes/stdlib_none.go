//go:build !(arm64 || ppc64 || ppc64le || s390x) || purego

package aes

import "github.com/simdcrypt/simdcrypt/internal/catalog"

// stdlibPaths is empty: on this build crypto/aes either has no assembly
// (purego, 386, riscv64, wasm, ...) and uses lookup tables, or, on amd64,
// simdcrypt's own AES-NI and VAES kernels serve instead.
func stdlibPaths() []catalog.Entry[catalog.NewBlockFunc] { return nil }
