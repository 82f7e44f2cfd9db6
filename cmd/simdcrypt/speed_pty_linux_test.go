package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/ptytest"
)

// TestSpeedProgressOnlyOnTerminal: with stderr on a terminal, progress
// lines ("[n/total] target") appear there and are cleared at the end; with
// stderr in a file, nothing but errors is written to it.
func TestSpeedProgressOnlyOnTerminal(t *testing.T) {
	args := append(quick, "-cipher", "aes-128-ctr", "-impl", "stdlib,default")
	pty := ptytest.OpenPTY(t)
	var out bytes.Buffer
	if code := speed(args, &out, pty.Slave); code != 0 {
		t.Fatalf("exit %d", code)
	}
	pty.WaitFor(t, "[2/2] aes-128-ctr/encrypt/", 1)
	pty.WaitFor(t, "ETA", 1)
	pty.WaitFor(t, "\r\033[K", 3) // each line replaced, the last one cleared
	if strings.Contains(out.String(), "[1/2]") {
		t.Error("progress went to stdout")
	}

	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if code := speed(args, &out, f); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if b, _ := os.ReadFile(f.Name()); len(b) != 0 {
		t.Errorf("stderr is a file, yet it got %q", b)
	}
}
