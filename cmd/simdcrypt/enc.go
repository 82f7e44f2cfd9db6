package main

import (
	"fmt"
	"os"
)

func runEnc(args []string) int {
	fmt.Fprintln(os.Stderr, "simdcrypt enc: not implemented yet")
	return 2
}
