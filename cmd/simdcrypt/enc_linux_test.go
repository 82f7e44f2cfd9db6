package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/ptytest"
)

// TestEncPasswordPrompt gives the binary a pseudo-terminal as its
// controlling terminal and no key: like openssl it must ask for the
// password there (twice when encrypting), and the file must decrypt with
// that password.
func TestEncPasswordPrompt(t *testing.T) {
	bin := simdcryptBinary(t)
	pty := ptytest.OpenPTY(t)

	cmd := exec.Command(bin, "enc", "-aes-128-cbc", "-pbkdf2", "-iter", "2")
	cmd.Stdin = strings.NewReader("secret text")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.ExtraFiles = []*os.File{pty.Slave}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pty.WaitFor(t, "enter AES-128-CBC encryption password:", 1)
	pty.Type("pw\n")
	pty.WaitFor(t, "Verifying - enter AES-128-CBC encryption password:", 1)
	pty.Type("pw\n")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if screen := pty.Screen(); strings.Contains(screen, "pw") {
		t.Errorf("the password was echoed: %q", screen)
	}

	dec := exec.Command(bin, "enc", "-d", "-aes-128-cbc", "-pbkdf2", "-iter", "2", "-pass", "pass:pw")
	dec.Stdin = bytes.NewReader(out.Bytes())
	pt, err := dec.Output()
	if err != nil || string(pt) != "secret text" {
		t.Fatalf("decrypting with the prompted password: %v %q", err, pt)
	}
}
