package main

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

var (
	encBinOnce sync.Once
	encBin     string
	encBinErr  error
)

// simdcryptBinary builds the command once into a temporary directory, so
// the tests below see the real process: exit statuses, stderr, memory.
func simdcryptBinary(t *testing.T) string {
	t.Helper()
	encBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "simdcrypt-enc-test")
		if err != nil {
			encBinErr = err
			return
		}
		encBin = filepath.Join(dir, "simdcrypt")
		out, err := exec.Command("go", "build", "-o", encBin, ".").CombinedOutput()
		if err != nil {
			encBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if encBinErr != nil {
		t.Fatal(encBinErr)
	}
	return encBin
}

func TestMain(m *testing.M) {
	code := testkit.SummarizeDefault(m.Run(), "aes", "aria", "chacha20")
	if encBin != "" {
		os.RemoveAll(filepath.Dir(encBin))
	}
	os.Exit(code)
}

// TestEncBoundedMemory pipes a large stream through the binary and checks
// its peak resident memory (the issue asks for a 4 GiB stream in under 64
// MiB; memory does not grow with the stream, so 512 MiB shows it) and that
// every byte of the output is right (AES-128-CTR of zeros is the
// keystream, checked against crypto/cipher over crypto/aes).
func TestEncBoundedMemory(t *testing.T) {
	bin := simdcryptBinary(t)
	size := int64(512 << 20)
	if testing.Short() {
		size = 64 << 20
	}
	for _, tc := range []struct {
		args    []string
		decrypt bool
	}{
		{[]string{"-aes-128-ctr", "-threads", "4"}, false},
		{[]string{"-aes-128-cbc", "-d", "-nopad", "-threads", "4"}, true},
	} {
		key := bytes.Repeat([]byte{7}, 16)
		iv := bytes.Repeat([]byte{9}, 16)
		args := append([]string{"enc", "-K", fmt.Sprintf("%x", key), "-iv", fmt.Sprintf("%x", iv)}, tc.args...)
		cmd := exec.Command(bin, args...)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			zeros := make([]byte, 1<<20)
			for left := size; left > 0; left -= int64(len(zeros)) {
				if _, err := stdin.Write(zeros); err != nil {
					break
				}
			}
			stdin.Close()
		}()
		b, _ := stdaes.NewCipher(key)
		var ref interface{ CryptBlocks(dst, src []byte) }
		var ctr cipher.Stream
		if tc.decrypt {
			ref = cipher.NewCBCDecrypter(b, iv)
		} else {
			ctr = cipher.NewCTR(b, iv)
		}
		var got int64
		buf := make([]byte, 1<<20)
		want := make([]byte, 1<<20)
		zeros := make([]byte, 1<<20)
		mismatch := false
		for {
			n, err := io.ReadFull(stdout, buf)
			if n > 0 && !mismatch {
				if ctr != nil {
					ctr.XORKeyStream(want[:n], zeros[:n])
				} else {
					ref.CryptBlocks(want[:n], zeros[:n])
				}
				mismatch = !bytes.Equal(buf[:n], want[:n])
			}
			got += int64(n)
			if err != nil {
				break
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v: %v: %s", tc.args, err, stderr.String())
		}
		if got != size || mismatch {
			t.Fatalf("%v: %d bytes out of %d in, content wrong: %v", tc.args, got, size, mismatch)
		}
		maxRSS, ok := peakRSS(cmd.ProcessState)
		if !ok {
			t.Logf("%v: %d MiB through a pipe; this system does not report peak memory", tc.args, size>>20)
			continue
		}
		t.Logf("%v: %d MiB through a pipe, peak RSS %.1f MiB", tc.args, size>>20, float64(maxRSS)/(1<<20))
		if maxRSS > 64<<20 {
			t.Errorf("%v: peak RSS %d MiB, want under 64 MiB", tc.args, maxRSS>>20)
		}
	}
}

// TestEncErrorsAreOneLine runs the binary on bad input and checks each
// failure is one line on stderr and a non-zero exit, never a panic.
func TestEncErrorsAreOneLine(t *testing.T) {
	bin := simdcryptBinary(t)
	dir := t.TempDir()
	k := strings.Repeat("00", 16)
	garbage := filepath.Join(dir, "garbage")
	os.WriteFile(garbage, bytes.Repeat([]byte{1}, 4096), 0o644)
	for _, args := range [][]string{
		{"-aes-128-cbc", "-K", "00", "-iv", k},
		{"-aes-128-cbc", "-K", "xyz", "-iv", k},
		{"-aes-128-cbc", "-K", k, "-iv", k, "-d", "-in", garbage},
		{"-aes-128-cbc", "-pass", "pass:a", "-pbkdf2", "-d", "-in", garbage},
		{"-aes-128-ecb", "-K", k, "-nopad", "-in", filepath.Join(dir, "missing")},
		{"-des-ede3"},
		{"-chacha20", "-K", k, "-iv", k},
	} {
		cmd := exec.Command(bin, append([]string{"enc"}, args...)...)
		cmd.Stdin = strings.NewReader("abc")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if err == nil {
			t.Errorf("%v: succeeded", args)
			continue
		}
		msg := stderr.String()
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "simdcrypt enc: ") || strings.Contains(msg, "goroutine") {
			t.Errorf("%v: stderr %q, want one simdcrypt enc: line", args, msg)
		}
	}
}

// TestEncInterruptRemovesTemp interrupts a run writing to a file and
// checks that its temporary file is removed and no output appears.
func TestEncInterruptRemovesTemp(t *testing.T) {
	bin := simdcryptBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	cmd := exec.Command(bin, "enc", "-aes-128-ctr", "-K", strings.Repeat("00", 16), "-iv", strings.Repeat("00", 16), "-out", out)
	stdin, _ := cmd.StdinPipe() // never closed: the run waits for more input
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Write(make([]byte, 3<<20))
	deadline := time.Now().Add(10 * time.Second)
	for {
		entries, _ := os.ReadDir(dir)
		if len(entries) == 1 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no temporary output appeared in %s", dir)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("interrupted run: %v, want exit status 130", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("interrupted run left %s", entries[0].Name())
	}
}
