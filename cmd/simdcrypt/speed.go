package main

import (
	"fmt"
	"os"
)

func runSpeed(args []string) int {
	fmt.Fprintln(os.Stderr, "simdcrypt speed: not implemented yet")
	return 2
}
