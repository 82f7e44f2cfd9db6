package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/encfile"
)

// stopSignals end a run; enc_sighup.go adds SIGHUP where the system has it.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// runEnc is `simdcrypt enc`, openssl enc's flags and formats; the work is
// in internal/encfile.
func runEnc(args []string) int {
	// An interrupted run must not leave its temporary output behind, or
	// the terminal without echo when it was asking for a password.
	// Signals the process was started ignoring (nohup, background jobs)
	// stay ignored: Notify would enable them.
	sig := make(chan os.Signal, 1)
	for _, s := range stopSignals {
		if !signal.Ignored(s) {
			signal.Notify(sig, s)
		}
	}
	defer signal.Stop(sig)
	go func() {
		s := <-sig
		encfile.Cleanup()
		code := 1
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n) // the shell's convention
		}
		os.Exit(code)
	}()
	return encfile.Command(args, encfile.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
}
