package dispatch_test

import (
	"fmt"

	_ "github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/dispatch"
)

// Chosen says which code path AES keys set up now run, and why; the answer
// depends on the CPU, so this example prints nothing fixed.
func ExampleChosen() {
	path, why, ok := dispatch.Chosen("aes")
	if ok {
		fmt.Printf("aes runs %s: %s\n", path, why)
	}
}

// SetMask refuses an entry it does not know rather than ignore a typo, and
// changes nothing then; a known one applies to ciphers set up after it,
// until restore.
func ExampleSetMask() {
	// Start from no mask, whatever SIMDCRYPT_CPU says, and put it back.
	initial, _ := dispatch.SetMask("")
	defer initial()

	if _, err := dispatch.SetMask("avx51=off"); err != nil {
		fmt.Printf("refused; mask still %q\n", dispatch.Mask())
	}
	restore, err := dispatch.SetMask("avx512=off")
	if err != nil {
		panic(err)
	}
	fmt.Printf("mask %q\n", dispatch.Mask())
	restore()
	fmt.Printf("restored %q\n", dispatch.Mask())
	// Output:
	// refused; mask still ""
	// mask "avx512=off"
	// restored ""
}
