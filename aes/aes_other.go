//go:build !amd64 || purego

package aes

import (
	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// asmPaths is empty: without amd64 assembly only the portable path runs.
func asmPaths() []catalog.Entry[catalog.NewBlockFunc] { return nil }
