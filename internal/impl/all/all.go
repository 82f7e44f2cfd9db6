// Package all registers every cipher's implementations with internal/impl,
// for the tools and tests that walk the whole registry.
package all

import (
	_ "github.com/simdcrypt/simdcrypt/aes"
	_ "github.com/simdcrypt/simdcrypt/aria"
	_ "github.com/simdcrypt/simdcrypt/chacha20"
)
