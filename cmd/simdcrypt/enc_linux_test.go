package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestEncPasswordPrompt gives the binary a pseudo-terminal as its
// controlling terminal and no key: like openssl it must ask for the
// password there (twice when encrypting), and the file must decrypt with
// that password.
func TestEncPasswordPrompt(t *testing.T) {
	bin := simdcryptBinary(t)
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here (%v): cannot test the password prompt", err)
	}
	defer master.Close()
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	waitFor := func(s string, count int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			got := strings.Count(screen.String(), s)
			mu.Unlock()
			if got >= count {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("terminal shows %q, waited for %q", screen.String(), s)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	cmd := exec.Command(bin, "enc", "-aes-128-cbc", "-pbkdf2", "-iter", "2")
	cmd.Stdin = strings.NewReader("secret text")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.ExtraFiles = []*os.File{slave}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	waitFor("enter AES-128-CBC encryption password:", 1)
	master.Write([]byte("pw\n"))
	waitFor("Verifying - enter AES-128-CBC encryption password:", 1)
	master.Write([]byte("pw\n"))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if strings.Contains(screen.String(), "pw") {
		t.Errorf("the password was echoed: %q", screen.String())
	}

	dec := exec.Command(bin, "enc", "-d", "-aes-128-cbc", "-pbkdf2", "-iter", "2", "-pass", "pass:pw")
	dec.Stdin = bytes.NewReader(out.Bytes())
	pt, err := dec.Output()
	if err != nil || string(pt) != "secret text" {
		t.Fatalf("decrypting with the prompted password: %v %q", err, pt)
	}
}
