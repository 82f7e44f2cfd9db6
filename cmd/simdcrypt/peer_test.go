package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/bench"
)

func TestParseOpenSSLSpeed(t *testing.T) {
	// openssl speed -evp aes-128-ctr -bytes 16384 -seconds 1 -mr, OpenSSL 3.0.
	out := "+DT:AES-128-CTR:1:16384\n+R:726634:AES-128-CTR:0.990000\n+H:16384\n+F:25:AES-128-CTR:12025425713.13\n"
	bps, err := parseOpenSSLSpeed(out)
	if err != nil || bps != 12025425713.13 {
		t.Errorf("parsed %g, %v", bps, err)
	}
	if _, err := parseOpenSSLSpeed("Doing aes-128-ctr for 1s on 16384 size blocks\n"); err == nil {
		t.Error("output without a +F line parsed")
	}
	if _, err := parseOpenSSLSpeed("+F:25:AES-128-CTR:fast\n"); err == nil {
		t.Error("unreadable +F line parsed")
	}
}

// TestSpeedWithoutOpenSSL: -openssl with no openssl in PATH says so in one
// line and measures the rest.
func TestSpeedWithoutOpenSSL(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, out, errOut := runSpeedArgs(t, append(quick, "-cipher", "aes-128-ctr", "-impl", "default", "-openssl")...)
	if code != 0 || !strings.Contains(out, "aes-128-ctr") {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "openssl not found") {
		t.Errorf("stderr %q, want one line saying openssl is missing", errOut)
	}
}

// TestSpeedOpenSSLRows: with openssl installed, -openssl puts its row at
// the head of the group and a ×ossl ratio on ours.
func TestSpeedOpenSSLRows(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed")
	}
	code, out, errOut := runSpeedArgs(t, append(quick, "-cipher", "aes-128-ctr", "-impl", "default", "-openssl")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var peerRow, ourRow string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, "openssl (16K calls)"):
			peerRow = l
		case strings.Contains(l, " *"):
			ourRow = l
		}
	}
	if peerRow == "" || ourRow == "" || !strings.Contains(out, "×ossl") {
		t.Fatalf("no openssl row or ratio:\n%s", out)
	}
	if f := strings.Fields(ourRow); f[len(f)-1] == "-" {
		t.Errorf("our row has no ×ossl ratio: %q", ourRow)
	}
}

// TestEVPNames: the AEAD and XTS targets carry OpenSSL's EVP names, so
// -openssl finds them in `openssl list -cipher-algorithms` as it finds the
// ciphers' (xchacha20-poly1305, which OpenSSL lacks, gets no peer).
func TestEVPNames(t *testing.T) {
	o := &openssl{ciphers: map[string]bool{}}
	for _, n := range []string{"aes-128-gcm", "aes-256-gcm", "aria-128-gcm", "chacha20-poly1305", "aes-128-xts", "aes-256-xts"} {
		o.ciphers[n] = true
	}
	ts, _ := bench.Targets()
	found := map[string]bool{}
	for _, tg := range ts {
		if evp := o.evpName(tg); evp != "" {
			found[evp] = true
		}
	}
	for n := range o.ciphers {
		if !found[n] {
			t.Errorf("no target maps to openssl's %s", n)
		}
	}
}
