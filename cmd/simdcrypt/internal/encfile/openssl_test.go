package encfile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runOpenSSL runs `openssl enc args...` on stdin and returns its stdout.
func runOpenSSL(t *testing.T, bin string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"enc"}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("openssl enc %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.Bytes()
}

// TestOpenSSLInterop checks byte-for-byte agreement with the openssl binary
// for every cipher name, in both directions: raw keys (several sizes, with
// and without padding, small and default chunks), PBKDF2 passwords with a
// random salt (each side decrypts the other's file), fixed and absent salts
// (identical bytes), the legacy EVP_BytesToKey derivation and -P.
func TestOpenSSLInterop(t *testing.T) {
	bin := openssl(t)
	for _, c := range allCiphers(t) {
		t.Run(c.Name, func(t *testing.T) {
			for _, n := range []int{0, 17, 4095, 1<<20 + 7} {
				pt := randBytes(n, uint64(n)+11)
				args := append([]string{"-" + c.Name}, keyArgs(c, byte(n))...)
				want := runOpenSSL(t, bin, pt, args...)
				for _, chunk := range []int{0, 4096} {
					got := mustRun(t, pt, chunk, append(args, "-threads", "4")...)
					if !bytes.Equal(got, want) {
						t.Fatalf("raw key, %d bytes, chunk %d: ciphertext differs from openssl", n, chunk)
					}
					if dec := mustRun(t, want, chunk, append(args, "-d", "-threads", "4")...); !bytes.Equal(dec, pt) {
						t.Fatalf("raw key, %d bytes: cannot decrypt openssl's ciphertext", n)
					}
				}
				if back := runOpenSSL(t, bin, want, append(args, "-d")...); !bytes.Equal(back, pt) {
					t.Fatalf("raw key, %d bytes: openssl does not decrypt ours", n)
				}
			}
			if c.BlockLen > 0 {
				pt := randBytes(4096, 12)
				args := append([]string{"-" + c.Name, "-nopad"}, keyArgs(c, 3)...)
				if !bytes.Equal(mustRun(t, pt, 0, args...), runOpenSSL(t, bin, pt, args...)) {
					t.Fatalf("-nopad: ciphertext differs from openssl")
				}
				if !bytes.Equal(mustRun(t, pt, 0, append(args, "-d")...), runOpenSSL(t, bin, pt, append(args, "-d")...)) {
					t.Fatalf("-nopad -d: plaintext differs from openssl")
				}
			}

			pt := randBytes(70_001, 13)
			pw := []string{"-" + c.Name, "-pass", "pass:x", "-pbkdf2"}
			theirs := runOpenSSL(t, bin, pt, pw...)
			if got := mustRun(t, theirs, 0, append(pw, "-d")...); !bytes.Equal(got, pt) {
				t.Fatalf("-pbkdf2: cannot decrypt openssl's file")
			}
			ours := mustRun(t, pt, 0, pw...)
			if got := runOpenSSL(t, bin, ours, append(pw, "-d")...); !bytes.Equal(got, pt) {
				t.Fatalf("-pbkdf2: openssl cannot decrypt our file")
			}
			for _, extra := range [][]string{
				{"-pbkdf2", "-S", "0011223344556677"},
				{"-pbkdf2", "-nosalt", "-iter", "3", "-md", "sha512"},
				{"-iter", "2", "-md", "sha1", "-S", "8899aabbccddeeff"},
				{"-S", "0011223344556677"},               // legacy EVP_BytesToKey, sha256
				{"-md", "md5", "-S", "0011223344556677"}, // legacy, OpenSSL 1.0's default digest
				{"-md", "sha384"},                        // legacy with a random salt and header
			} {
				args := append([]string{"-" + c.Name, "-pass", "pass:pw"}, extra...)
				theirs := runOpenSSL(t, bin, pt, args...)
				if got := mustRun(t, theirs, 0, append(args, "-d")...); !bytes.Equal(got, pt) {
					t.Fatalf("%v: cannot decrypt openssl's file", extra)
				}
				ours := mustRun(t, pt, 0, args...)
				if got := runOpenSSL(t, bin, ours, append(args, "-d")...); !bytes.Equal(got, pt) {
					t.Fatalf("%v: openssl cannot decrypt our file", extra)
				}
				if !strings.Contains(strings.Join(extra, " "), "-S") && !strings.Contains(strings.Join(extra, " "), "-nosalt") {
					continue
				}
				if !bytes.Equal(ours, theirs) {
					t.Fatalf("%v: ciphertext differs from openssl", extra)
				}
				pa := append(args, "-P")
				if got, want := mustRun(t, nil, 0, pa...), runOpenSSL(t, bin, nil, pa...); !bytes.Equal(got, want) {
					t.Fatalf("%v -P: printed %q, openssl %q", extra, got, want)
				}
			}
		})
	}
}

// TestOpenSSLChaChaCounter checks ChaCha20 where the 32-bit block counter
// wraps: openssl carries into the first nonce word, and so must we, also
// when the wrap falls inside or at the edge of a chunk.
func TestOpenSSLChaChaCounter(t *testing.T) {
	bin := openssl(t)
	key := strings.Repeat("5a", 32)
	pt := randBytes(64*40+13, 14)
	for _, iv := range []string{
		"fbffffff000000000102030405060708",
		"f0ffffffffffffff0102030405060708", // the 64-bit counter wraps too
		"ffffffff010000000102030405060708",
		"00000000000000000000000000000000",
	} {
		args := []string{"-chacha20", "-K", key, "-iv", iv}
		want := runOpenSSL(t, bin, pt, args...)
		for _, chunk := range []int{0, 64, 256, 1024} {
			if got := mustRun(t, pt, chunk, append(args, "-threads", "3")...); !bytes.Equal(got, want) {
				t.Errorf("iv %s chunk %d: differs from openssl", iv, chunk)
			}
		}
	}
}

// TestOpenSSLFiles checks -in/-out and that a salted file written by one
// tool through files decrypts with the other.
func TestOpenSSLFiles(t *testing.T) {
	bin := openssl(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "plain")
	pt := randBytes(3<<20+1, 15)
	os.WriteFile(in, pt, 0o644)
	enc := filepath.Join(dir, "enc")
	if r := run(t, nil, 0, "-aes-256-cbc", "-pbkdf2", "-pass", "pass:p", "-in", in, "-out", enc); r.code != 0 {
		t.Fatal(r.stderr)
	}
	out, err := exec.Command(bin, "enc", "-d", "-aes-256-cbc", "-pbkdf2", "-pass", "pass:p", "-in", enc).Output()
	if err != nil || !bytes.Equal(out, pt) {
		t.Fatalf("openssl could not decrypt our -out file: %v", err)
	}
}
