// Command simdcrypt inspects the CPU paths, measures the ciphers and
// encrypts files:
//
//	simdcrypt cpu      features as detected and masked, and the path each cipher runs
//	simdcrypt speed    throughput of every cipher, mode and path against Go's own
//	simdcrypt enc      encrypt and decrypt like `openssl enc`
//	simdcrypt version  the module version this binary was built from
package main

import (
	"fmt"
	"os"

	_ "github.com/simdcrypt/simdcrypt/aes"
	_ "github.com/simdcrypt/simdcrypt/aria"
	_ "github.com/simdcrypt/simdcrypt/chacha20"
)

var commands = []struct {
	name, summary string
	run           func(args []string) int
}{
	{"cpu", "show CPU features, masks and the implementation each cipher runs", runCPU},
	{"speed", "measure every cipher, mode and implementation", runSpeed},
	{"enc", "encrypt or decrypt like openssl enc", runEnc},
	{"version", "print the module version and toolchain", runVersion},
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:])
		}
	}
	fmt.Fprintf(os.Stderr, "simdcrypt: unknown command %q (want one of cpu, speed, enc, version)\n", args[0])
	return 2
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: simdcrypt <command> [flags]")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-7s %s\n", c.name, c.summary)
	}
}
