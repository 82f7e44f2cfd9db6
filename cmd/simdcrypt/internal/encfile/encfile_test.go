package encfile

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// result is what one in-process run of the command produced.
type result struct {
	code           int
	stdout, stderr string
}

// run executes the command in-process with stdin as input, a chunk size
// (0 for the default) and returns its exit status and streams.
func run(t testing.TB, stdin []byte, chunk int, args ...string) result {
	t.Helper()
	return runWith(t, stdin, func(o *Options) {
		if chunk > 0 {
			o.ChunkSize = chunk
		}
	}, args...)
}

func runWith(t testing.TB, stdin []byte, adjust func(*Options), args ...string) result {
	t.Helper()
	dir := t.TempDir()
	files := map[string]*os.File{}
	for _, name := range []string{"stdin", "stdout", "stderr"} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	files["stdin"].Write(stdin)
	files["stdin"].Seek(0, 0)
	code := command(args, Stdio{In: files["stdin"], Out: files["stdout"], Err: files["stderr"]}, func(o *Options) {
		o.noPrompt = true // a test must never wait on a terminal
		adjust(o)
	})
	var r result
	r.code = code
	for _, name := range []string{"stdout", "stderr"} {
		files[name].Close()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "stdout" {
			r.stdout = string(b)
		} else {
			r.stderr = string(b)
		}
	}
	files["stdin"].Close()
	return r
}

func mustRun(t testing.TB, stdin []byte, chunk int, args ...string) []byte {
	t.Helper()
	r := run(t, stdin, chunk, args...)
	if r.code != 0 {
		t.Fatalf("simdcrypt enc %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return []byte(r.stdout)
}

// keyArgs returns -K and -iv arguments of the right lengths for c.
func keyArgs(c *Cipher, seed byte) []string {
	key := make([]byte, c.KeyLen)
	for i := range key {
		key[i] = seed + byte(i)*7
	}
	args := []string{"-K", hex.EncodeToString(key)}
	if c.IVLen > 0 {
		iv := make([]byte, c.IVLen)
		for i := range iv {
			iv[i] = seed ^ byte(i)*13
		}
		args = append(args, "-iv", hex.EncodeToString(iv))
	}
	return args
}

func allCiphers(t *testing.T) []*Cipher {
	buildTable()
	var cs []*Cipher
	for _, n := range Ciphers() {
		if _, alias := aliases[n]; alias {
			continue
		}
		c, _ := Lookup(n)
		cs = append(cs, c)
	}
	// Every family the issue names must be present.
	for _, want := range []string{"aes-128-ecb", "aes-192-cbc", "aes-256-ctr", "aria-128-ecb", "aria-192-cbc", "aria-256-ctr", "chacha20"} {
		if _, ok := Lookup(want); !ok {
			t.Errorf("cipher %s missing from the table", want)
		}
	}
	return cs
}

var sizeClasses = []int{0, 1, 15, 16, 17, 4095, 1<<20 + 7}

func randBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestRoundTrip encrypts and decrypts every cipher at every size class,
// with raw keys (default and small chunks, so the 1 MiB input crosses many
// chunk boundaries) and with a password.
func TestRoundTrip(t *testing.T) {
	for _, c := range allCiphers(t) {
		t.Run(c.Name, func(t *testing.T) {
			for _, n := range sizeClasses {
				pt := randBytes(n, uint64(n))
				for _, chunk := range []int{0, 4096} {
					args := append([]string{"-" + c.Name, "-threads", "3"}, keyArgs(c, 1)...)
					ct := mustRun(t, pt, chunk, args...)
					wantLen := n
					if c.BlockLen > 0 {
						wantLen = n + c.BlockLen - n%c.BlockLen
					}
					if len(ct) != wantLen {
						t.Fatalf("size %d: ciphertext is %d bytes, want %d", n, len(ct), wantLen)
					}
					if n >= 32 && bytes.Equal(ct[:n], pt) {
						t.Fatalf("size %d: ciphertext equals plaintext", n)
					}
					got := mustRun(t, ct, chunk, append(args, "-d")...)
					if !bytes.Equal(got, pt) {
						t.Fatalf("size %d chunk %d: round trip differs", n, chunk)
					}
				}
				if n <= 4095 {
					args := []string{"-" + c.Name, "-pass", "pass:secret", "-pbkdf2", "-iter", "10"}
					ct := mustRun(t, pt, 0, args...)
					if !strings.HasPrefix(string(ct), "Salted__") {
						t.Fatalf("password run wrote no Salted__ header")
					}
					if got := mustRun(t, ct, 0, append(args, "-d")...); !bytes.Equal(got, pt) {
						t.Fatalf("size %d: password round trip differs", n)
					}
				}
			}
		})
	}
}

// TestThreadsAndChunksAgree checks that the output does not depend on the
// number of goroutines, the chunk size or whether the workers read the
// input file themselves or take it read in order, for every cipher and
// direction.
func TestThreadsAndChunksAgree(t *testing.T) {
	pt := randBytes(100_000+5, 3) // many small chunks and a ragged end
	for _, c := range allCiphers(t) {
		for _, dec := range []bool{false, true} {
			args := append([]string{"-" + c.Name}, keyArgs(c, 9)...)
			input := pt
			if dec {
				input = mustRun(t, pt, 0, args...)
				args = append(args, "-d")
			}
			want := mustRun(t, input, 0, append(args, "-threads", "1")...)
			for _, threads := range []string{"2", "7"} {
				for _, chunk := range []int{256, 16384} {
					for _, inOrder := range []bool{false, true} {
						r := runWith(t, input, func(o *Options) { o.ChunkSize, o.inOrder = chunk, inOrder }, append(args, "-threads", threads)...)
						if r.code != 0 || r.stdout != string(want) {
							t.Fatalf("%s decrypt=%v threads=%s chunk=%d inOrder=%v: output differs from one thread (%s)", c.Name, dec, threads, chunk, inOrder, r.stderr)
						}
					}
				}
			}
		}
	}
}

// TestCTRCounterCarry checks CTR against crypto/cipher's CTR over
// crypto/aes (the reference) with IVs whose 128-bit counter carries from
// the low into the high half, and wraps at 2^128, inside and between chunks.
func TestCTRCounterCarry(t *testing.T) {
	key := bytes.Repeat([]byte{0x42}, 16)
	pt := randBytes(64*1024+3, 5)
	for _, ivHex := range []string{
		"0000000000000000fffffffffffffff0",
		"00000000000000ffffffffffffffffff",
		"fffffffffffffffffffffffffffffff8",
		"fffffffffffffffffffffffffffffc00", // boundary exactly at a 16 KiB chunk edge
	} {
		iv, _ := hex.DecodeString(ivHex)
		b, _ := aes.NewCipher(key)
		want := make([]byte, len(pt))
		cipher.NewCTR(b, iv).XORKeyStream(want, pt)
		for _, chunk := range []int{64, 16384} {
			got := mustRun(t, pt, chunk, "-aes-128-ctr", "-K", hex.EncodeToString(key), "-iv", ivHex, "-threads", "4")
			if !bytes.Equal(got, want) {
				t.Errorf("iv %s chunk %d: differs from crypto/cipher CTR", ivHex, chunk)
			}
		}
	}
}

// TestChaChaCounterCarry checks that splitting at the 32-bit counter
// boundary gives the same stream whatever the chunk size (openssl's
// agreement on these IVs is checked in TestOpenSSLInterop).
func TestChaChaCounterCarry(t *testing.T) {
	key := strings.Repeat("ab", 32)
	pt := randBytes(10*64+9, 6)
	for _, iv := range []string{"fbffffff000000000102030405060708", "fdffffffffffffff0102030405060708"} {
		want := mustRun(t, pt, 0, "-chacha20", "-K", key, "-iv", iv)
		for _, chunk := range []int{64, 128, 192} {
			got := mustRun(t, pt, chunk, "-chacha20", "-K", key, "-iv", iv, "-threads", "3")
			if !bytes.Equal(got, want) {
				t.Errorf("iv %s chunk %d: differs", iv, chunk)
			}
		}
		// The block at the carry must be the first block of the stream
		// whose IV is the carried counter.
		carried := mustRun(t, pt[5*64:], 0, "-chacha20", "-K", key, "-iv", carriedIV(iv, 5))
		if !bytes.Equal(want[5*64:], carried) {
			t.Errorf("iv %s: stream after the 32-bit wrap is not the carried counter's stream", iv)
		}
	}
}

// carriedIV adds n to the 64-bit little-endian counter in the first 8
// bytes of a hex ChaCha20 IV.
func carriedIV(ivHex string, n uint64) string {
	iv, _ := hex.DecodeString(ivHex)
	var c uint64
	for i := 7; i >= 0; i-- {
		c = c<<8 | uint64(iv[i])
	}
	c += n
	for i := range 8 {
		iv[i] = byte(c >> (8 * i))
	}
	return hex.EncodeToString(iv)
}

func TestCheckPadding(t *testing.T) {
	for k := 0; k <= 17; k++ {
		for _, corrupt := range []bool{false, true} {
			b := bytes.Repeat([]byte{0xee}, 16)
			for i := 16 - min(k, 16); i < 16; i++ {
				b[i] = byte(k)
			}
			if corrupt && k >= 2 && k <= 16 {
				b[16-k] ^= 1
			}
			n, ok := checkPadding(b)
			want := k >= 1 && k <= 16 && !(corrupt && k >= 2)
			if ok != want || (ok && n != k) {
				t.Errorf("padding %d corrupt=%v: got (%d, %v), want ok=%v", k, corrupt, n, ok, want)
			}
		}
	}
}

func TestBytesToKeyKnownAnswer(t *testing.T) {
	// openssl enc -aes-128-cbc -pass pass:x -S 0011223344556677 -P (sha256, legacy)
	salt, _ := hex.DecodeString("0011223344556677")
	md, _ := lookupDigest("sha256")
	key, iv, err := deriveKeyIV(false, md, "x", salt, 1, 16, 16)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%X %X", key, iv); got != "83F1734F7CBF426CFE2BCD51C2DCF06F 7B1A80EA4581459C7D07A0076433128C" {
		t.Errorf("EVP_BytesToKey: got %s", got)
	}
	// openssl enc -aes-128-cbc -pass pass:x -pbkdf2 -S 0011223344556677 -P
	key, iv, _ = deriveKeyIV(true, md, "x", salt, 10000, 16, 16)
	if got := fmt.Sprintf("%X %X", key, iv); got != "9B0591D972A18A43DAC789788776D8B6 B71A1D67E1311F81C3E4A6A548C78920" {
		t.Errorf("PBKDF2: got %s", got)
	}
}

func TestPrintKey(t *testing.T) {
	out := mustRun(t, nil, 0, "-aes-128-cbc", "-pass", "pass:x", "-pbkdf2", "-S", "0011223344556677", "-P")
	want := "salt=0011223344556677\nkey=9B0591D972A18A43DAC789788776D8B6\niv =B71A1D67E1311F81C3E4A6A548C78920\n"
	if string(out) != want {
		t.Errorf("-P printed\n%s\nwant\n%s", out, want)
	}
	out = mustRun(t, nil, 0, "-aes-128-ecb", "-K", strings.Repeat("0", 32), "-P")
	if string(out) != "key=00000000000000000000000000000000\n" {
		t.Errorf("-P for ECB with a raw key printed %q", out)
	}
}

// TestBadInput checks every refusal: exit status, one line on stderr that
// says what is wrong, and nothing on stdout.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	k16 := strings.Repeat("00", 16)
	// A block whose plaintext ends in 0x00: never valid PKCS#7.
	badPad := mustRun(t, make([]byte, 32), 0, "-aes-128-cbc", "-K", k16, "-iv", k16, "-nopad")
	// A fixed salt: with a random one, the wrong key's last block has
	// valid padding once in about 256 runs.
	pwCT := mustRun(t, []byte("hello, world"), 0, "-aes-128-cbc", "-pass", "pass:right", "-pbkdf2", "-iter", "1", "-S", "0102030405060708")
	ctrCT := mustRun(t, []byte("abc"), 0, "-aes-128-ctr", "-K", k16, "-iv", k16)
	samePath := filepath.Join(dir, "same")
	os.WriteFile(samePath, []byte("data"), 0o644)
	linkPath := filepath.Join(dir, "link")
	os.Symlink(samePath, linkPath)

	cases := []struct {
		name  string
		stdin []byte
		args  []string
		code  int
		want  string
	}{
		{"short key", nil, []string{"-aes-128-ctr", "-K", "0011", "-iv", k16}, 2, "needs 16 bytes (32 hex digits), got 4"},
		{"long key", nil, []string{"-aes-128-ctr", "-K", k16 + "00", "-iv", k16}, 2, "needs 16 bytes"},
		{"aes-256 key", nil, []string{"-aes-256-cbc", "-K", k16, "-iv", k16}, 2, "aes-256-cbc needs 32 bytes (64 hex digits)"},
		{"chacha iv", nil, []string{"-chacha20", "-K", k16 + k16, "-iv", strings.Repeat("00", 12)}, 2, "chacha20 needs 16 bytes (32 hex digits)"},
		{"short iv", nil, []string{"-aes-128-cbc", "-K", k16, "-iv", "00"}, 2, "wrong IV length"},
		{"non-hex key", nil, []string{"-aes-128-ctr", "-K", "zz" + k16[2:], "-iv", k16}, 2, "non-hex digit 'z'"},
		{"non-hex iv", nil, []string{"-aes-128-ctr", "-K", k16, "-iv", k16[2:] + "0g"}, 2, "non-hex digit 'g'"},
		{"no iv", nil, []string{"-aes-128-cbc", "-K", k16}, 2, "iv undefined"},
		{"no key", nil, []string{"-aes-128-cbc"}, 2, "no key"},
		{"bad padding", badPad, []string{"-d", "-aes-128-cbc", "-K", k16, "-iv", k16}, 1, "bad decrypt"},
		{"wrong password", pwCT, []string{"-d", "-aes-128-cbc", "-pass", "pass:wrong", "-pbkdf2", "-iter", "1", "-S", "0102030405060708"}, 1, "bad decrypt"},
		{"truncated", badPad[:31], []string{"-d", "-aes-128-cbc", "-K", k16, "-iv", k16}, 1, "bad decrypt"},
		{"empty decrypt", nil, []string{"-d", "-aes-128-ecb", "-K", k16}, 1, "bad decrypt"},
		{"nopad encrypt", []byte("abc"), []string{"-aes-128-ecb", "-K", k16, "-nopad"}, 1, "not a whole number of 16-byte blocks"},
		{"nopad decrypt", badPad[:20], []string{"-d", "-aes-128-cbc", "-K", k16, "-iv", k16, "-nopad"}, 1, "not a whole number of 16-byte blocks"},
		{"missing input", nil, []string{"-aes-128-ctr", "-K", k16, "-iv", k16, "-in", filepath.Join(dir, "nope")}, 1, "no such file or directory"},
		{"input directory", nil, []string{"-aes-128-ctr", "-K", k16, "-iv", k16, "-in", dir}, 1, "is a directory"},
		{"unknown cipher", nil, []string{"-aes-128-xts", "-K", k16}, 2, "unknown option or cipher -aes-128-xts"},
		{"no cipher", nil, []string{"-K", k16}, 2, "no cipher given"},
		{"unknown option", nil, []string{"-aes-128-ctr", "-frobnicate"}, 2, "unknown option or cipher -frobnicate"},
		{"missing value", nil, []string{"-aes-128-ctr", "-K"}, 2, "-K needs a value"},
		{"bad iter", nil, []string{"-aes-128-ctr", "-pass", "pass:x", "-iter", "0"}, 2, "-iter wants a positive integer"},
		{"bad md", nil, []string{"-aes-128-ctr", "-md", "whirlpool"}, 2, "unknown digest"},
		{"no magic", ctrCT, []string{"-d", "-aes-128-ctr", "-pass", "pass:x", "-pbkdf2"}, 1, "error reading input file"},
		{"bad magic", append([]byte("Nalted__"), make([]byte, 16)...), []string{"-d", "-aes-128-ctr", "-pass", "pass:x", "-pbkdf2"}, 1, "bad magic number"},
		{"unset env", nil, []string{"-aes-128-ctr", "-pass", "env:SIMDCRYPT_SURELY_UNSET_VAR"}, 2, "not set"},
		{"bad pass source", nil, []string{"-aes-128-ctr", "-pass", "secret"}, 2, "want pass:TEXT"},
		{"same file", nil, []string{"-aes-128-ctr", "-K", k16, "-iv", k16, "-in", samePath, "-out", samePath}, 2, "same file"},
		{"same file by link", nil, []string{"-aes-128-ctr", "-K", k16, "-iv", k16, "-in", samePath, "-out", linkPath}, 2, "same file"},
		{"base64", nil, []string{"-aes-128-ctr", "-a"}, 2, "not supported"},
		{"extra argument", nil, []string{"-aes-128-ctr", "file"}, 2, "unexpected argument"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.stdin, 0, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, tc.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			for _, l := range lines[:len(lines)-1] {
				if !strings.Contains(l, "WARNING") && !strings.Contains(l, "Using -iter") {
					t.Errorf("extra stderr line %q", l)
				}
			}
			if !strings.HasPrefix(last, "simdcrypt enc: ") || !strings.Contains(last, tc.want) {
				t.Errorf("stderr %q, want one line containing %q", r.stderr, tc.want)
			}
			if tc.code == 2 && r.stdout != "" {
				t.Errorf("usage error wrote %d bytes to stdout", len(r.stdout))
			}
		})
	}
	if b, _ := os.ReadFile(samePath); string(b) != "data" {
		t.Errorf("refused same-file run changed the file: %q", b)
	}
}

// TestFailedRunLeavesNoOutput checks the atomic output: a failure at the
// very end of a multi-chunk input leaves an existing file untouched, creates
// no new file and leaves no temporary file behind; success replaces it.
func TestFailedRunLeavesNoOutput(t *testing.T) {
	dir := t.TempDir()
	k16 := strings.Repeat("11", 16)
	pt := randBytes(200_000, 8)
	ct := mustRun(t, append(pt, make([]byte, 16-len(pt)%16)...), 0, "-aes-128-cbc", "-K", k16, "-iv", k16, "-nopad")
	in := filepath.Join(dir, "in")
	os.WriteFile(in, ct, 0o644) // last block decrypts to zero padding: bad decrypt at the end
	existing := filepath.Join(dir, "existing")
	os.WriteFile(existing, []byte("keep me"), 0o640)
	before, _ := os.Stat(existing)
	fresh := filepath.Join(dir, "fresh")

	for _, out := range []string{existing, fresh} {
		r := run(t, nil, 4096, "-d", "-aes-128-cbc", "-K", k16, "-iv", k16, "-in", in, "-out", out)
		if r.code != 1 || !strings.Contains(r.stderr, "bad decrypt") {
			t.Fatalf("want bad decrypt, got exit %d %q", r.code, r.stderr)
		}
	}
	after, _ := os.Stat(existing)
	if b, _ := os.ReadFile(existing); string(b) != "keep me" || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("failed run touched the existing output: %q", b)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("failed run created %s", fresh)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only in and existing", names)
	}

	// Success replaces the file in place and keeps its permissions.
	r := run(t, nil, 4096, "-d", "-aes-128-cbc", "-K", k16, "-iv", k16, "-in", in, "-out", existing, "-nopad")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(existing); !bytes.Equal(b[:len(pt)], pt) {
		t.Errorf("successful run did not write the output")
	}
	if fi, _ := os.Stat(existing); fi.Mode().Perm() != 0o640 {
		t.Errorf("output permissions %v, want 0640 kept", fi.Mode().Perm())
	}
	// A file we may not write is not replaced either.
	if os.Getuid() != 0 {
		ro := filepath.Join(dir, "readonly")
		os.WriteFile(ro, []byte("ro"), 0o444)
		if r := run(t, []byte("x"), 0, "-aes-128-ctr", "-K", k16, "-iv", k16, "-out", ro); r.code != 1 || !strings.Contains(r.stderr, "permission denied") {
			t.Errorf("read-only output: exit %d %q, want permission denied", r.code, r.stderr)
		}
		if b, _ := os.ReadFile(ro); string(b) != "ro" {
			t.Errorf("read-only output was replaced")
		}
	} else {
		t.Log("running as root: read-only output check skipped (root may write it)")
	}
	// A symbolic link to the output keeps pointing at the replaced file.
	link := filepath.Join(dir, "link")
	os.Symlink(existing, link)
	if r := run(t, []byte("x"), 0, "-aes-128-ctr", "-K", k16, "-iv", k16, "-out", link); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("output symlink was replaced by a file")
	}
	if b, _ := os.ReadFile(existing); len(b) != 1 {
		t.Errorf("write through symlink: target holds %d bytes, want 1", len(b))
	}
	// Non-regular outputs are written directly.
	if r := run(t, []byte("x"), 0, "-aes-128-ctr", "-K", k16, "-iv", k16, "-out", os.DevNull); r.code != 0 {
		t.Fatalf("-out /dev/null: exit %d: %s", r.code, r.stderr)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("/dev/null was replaced")
	}
}

func TestPasswordSources(t *testing.T) {
	dir := t.TempDir()
	pf := filepath.Join(dir, "pw")
	os.WriteFile(pf, []byte("hunter2\nignored\n"), 0o600)
	t.Setenv("SIMDCRYPT_TEST_PW", "hunter2")
	base := []string{"-aes-256-ctr", "-pbkdf2", "-S", "0102030405060708", "-P"}
	want := string(mustRun(t, nil, 0, append(base, "-pass", "pass:hunter2")...))
	for _, src := range [][]string{{"-pass", "env:SIMDCRYPT_TEST_PW"}, {"-pass", "file:" + pf}, {"-kfile", pf}, {"-k", "hunter2"}, {"-pass=pass:hunter2"}} {
		if got := string(mustRun(t, nil, 0, append(base, src...)...)); got != want {
			t.Errorf("%v: printed %q, want %q", src, got, want)
		}
	}
	// -pass fd:N reads the line from a descriptor and leaves it open.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	pw.Write([]byte("hunter2\n"))
	pw.Close()
	if got := string(mustRun(t, nil, 0, append(base, "-pass", fmt.Sprintf("fd:%d", pr.Fd()))...)); got != want {
		t.Errorf("-pass fd: printed %q, want %q", got, want)
	}
	// -pass stdin reads one line and leaves the data after it.
	ct := mustRun(t, []byte("hunter2\nsecret data"), 0, "-aes-128-cbc", "-pbkdf2", "-pass", "stdin")
	pt := mustRun(t, ct, 0, "-d", "-aes-128-cbc", "-pbkdf2", "-pass", "pass:hunter2")
	if string(pt) != "secret data" {
		t.Errorf("-pass stdin: round trip gave %q", pt)
	}
}

// TestInputShrinks truncates the input file while the workers read it:
// the chunks read after that come up short, and the run must fail with an
// error rather than end early with a truncated output.
func TestInputShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in")
	os.WriteFile(path, randBytes(1<<20, 16), 0o644)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, _ := Lookup("aes-128-ctr")
	real, err := c.newTransform(make([]byte, 16), make([]byte, 16), false)
	if err != nil {
		t.Fatal(err)
	}
	// The first chunk's cipher work truncates the file. Every worker
	// reads a chunk before its cipher work, so the third chunk and later
	// are read after the truncation, whichever worker takes them.
	var once sync.Once
	truncating := transform{parallel: true, crypt: func(c *chunk) {
		once.Do(func() { os.Truncate(path, 0) })
		real.crypt(c)
	}}
	p := &pipeline{t: truncating, chunkSize: 64 << 10, threads: 2}
	_, err = p.run(f, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "changed size") {
		t.Fatalf("run over a shrinking file: %v, want a changed-size error", err)
	}
}

func openssl(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl is not in PATH: skipping byte-for-byte interop with openssl enc")
	}
	return p
}

// TestSaltedHeaderThenChunks decrypts salted files in small chunks, so the
// chunks after the 16-byte header are read by the workers from offsets
// that are not block-aligned in the file (and, with inOrder, in order).
func TestSaltedHeaderThenChunks(t *testing.T) {
	pt := randBytes(100_003, 17)
	for _, name := range []string{"aes-128-cbc", "aes-256-ctr", "chacha20", "aria-192-ecb"} {
		args := []string{"-" + name, "-pass", "pass:pw", "-pbkdf2", "-iter", "5"}
		ct := mustRun(t, pt, 0, args...)
		for _, inOrder := range []bool{false, true} {
			r := runWith(t, ct, func(o *Options) { o.ChunkSize, o.inOrder = 4096, inOrder }, append(args, "-d", "-threads", "3")...)
			if r.code != 0 || r.stdout != string(pt) {
				t.Errorf("%s inOrder=%v: salted decrypt in chunks failed: %s", name, inOrder, r.stderr)
			}
		}
	}
}

// TestSizelessInputFiles reads files whose stat size is not their length
// (procfs says 0): they must be read to their end, not cut at that size.
func TestSizelessInputFiles(t *testing.T) {
	path := "/proc/version"
	want, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no %s here: %v", path, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == int64(len(want)) {
		t.Skipf("%s reports its real size here: nothing to test", path)
	}
	k := strings.Repeat("01", 16)
	ct := mustRun(t, nil, 64, "-aes-128-cbc", "-K", k, "-iv", k, "-in", path)
	if got := mustRun(t, ct, 0, "-d", "-aes-128-cbc", "-K", k, "-iv", k); !bytes.Equal(got, want) {
		t.Errorf("%s: round trip gave %d bytes, want %d", path, len(got), len(want))
	}
}
