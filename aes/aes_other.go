//go:build !amd64 || purego

package aes

import (
	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// asmPaths has no simdcrypt assembly here: only the standard library's
// where it has AES instructions (stdlibPaths), then the portable path.
func asmPaths() []catalog.Entry[catalog.NewBlockFunc] { return stdlibPaths() }
