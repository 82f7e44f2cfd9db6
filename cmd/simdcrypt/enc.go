package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/encfile"
)

// runEnc is `simdcrypt enc`, openssl enc's flags and formats; the work is
// in internal/encfile.
func runEnc(args []string) int {
	// An interrupted run must not leave its temporary output behind, or
	// the terminal without echo when it was asking for a password.
	// Signals the process was started ignoring (nohup, background jobs)
	// stay ignored: Notify would enable them.
	sig := make(chan os.Signal, 1)
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			signal.Notify(sig, s)
		}
	}
	defer signal.Stop(sig)
	go func() {
		s := <-sig
		encfile.Cleanup()
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
	return encfile.Command(args, encfile.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
}
