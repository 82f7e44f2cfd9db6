package encfile

import (
	"bytes"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzParse feeds Parse argument lists (NUL-separated in the fuzz input).
// Whatever it accepts must survive a round trip: the options written back
// as arguments, in two spellings (-name value, and --name=value), parse to
// the same options. Whatever it refuses must be a usage error of one line.
// Accepted options must be within their limits.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"-aes-128-ctr\x00-K\x0000\x00-iv\x0011",
		"-d\x00-aria-256-cbc\x00-pass\x00pass:x\x00-pbkdf2\x00-iter\x005\x00-in\x00a\x00-out\x00b",
		"--chacha20\x00-k=secret\x00-md\x00sha512\x00-nosalt\x00-salt\x00-p\x00-P",
		"-aes128\x00-threads=3\x00-bufsize\x008k\x00-nopad\x00-v\x00-e",
		"-ciphers", "-help", "-aes-128-ecb\x00-S\x000011223344556677\x00-kfile\x00f",
		"-aes-128-ctr\x00-in=", "-aes-128-ctr\x00-threads\x00999999999999", "-a", "x", "-",
	} {
		f.Add(seed)
	}
	limit := threadsPerCPU * runtime.NumCPU()
	f.Fuzz(func(t *testing.T, in string) {
		args := strings.Split(in, "\x00")
		if len(args) > 64 {
			return
		}
		o, err := Parse(args)
		if err != nil {
			u, ok := err.(*UsageError)
			if !ok || u.msg == "" || strings.ContainsFunc(u.msg, func(r rune) bool { return r < ' ' || r == 0x7f }) {
				t.Fatalf("Parse(%q): error %#v, want a one-line *UsageError without control characters", args, err)
			}
			return
		}
		if o.Cipher == nil && !o.ListCiphers && !o.Help {
			t.Fatalf("Parse(%q): accepted without a cipher", args)
		}
		if o.Threads < 1 || o.Threads > limit || o.Iter < 1 {
			t.Fatalf("Parse(%q): threads %d (limit %d), iter %d", args, o.Threads, limit, o.Iter)
		}
		if _, ok := lookupDigest(o.MD); !ok {
			t.Fatalf("Parse(%q): accepted digest %q", args, o.MD)
		}
		for _, long := range []bool{false, true} {
			again := unparse(o, long)
			o2, err := Parse(again)
			if err != nil {
				t.Fatalf("Parse(%q) accepted, but its round trip %q fails: %v", args, again, err)
			}
			if !reflect.DeepEqual(o, o2) {
				t.Fatalf("Parse(%q) = %+v, but its round trip %q gives %+v", args, *o, again, *o2)
			}
		}
	})
}

// unparse writes o back as arguments: -name value, or with long set
// --name=value.
func unparse(o *Options, long bool) []string {
	var args []string
	flag := func(name string) {
		if long {
			name = "-" + name
		}
		args = append(args, "-"+name)
	}
	value := func(name, v string) {
		if long {
			args = append(args, "--"+name+"="+v)
		} else {
			args = append(args, "-"+name, v)
		}
	}
	if o.Cipher != nil {
		flag(o.Cipher.Name)
	}
	if o.Decrypt {
		flag("d")
	} else {
		flag("e")
	}
	for _, kv := range [][2]string{{"in", o.In}, {"out", o.Out}, {"K", o.KeyHex}, {"iv", o.IVHex}, {"S", o.SaltHex}, {"pass", o.PassSource}} {
		if kv[1] != "" {
			value(kv[0], kv[1])
		}
	}
	value("md", o.MD)
	if o.PBKDF2 {
		flag("pbkdf2")
		value("iter", strconv.Itoa(o.Iter))
	}
	value("threads", strconv.Itoa(o.Threads))
	for _, b := range []struct {
		set  bool
		name string
	}{{o.NoSalt, "nosalt"}, {o.NoPad, "nopad"}, {o.Verbose, "v"}, {o.ListCiphers, "ciphers"}, {o.Help, "help"}, {o.PrintKey == 1, "p"}, {o.PrintKey == 2, "P"}} {
		if b.set {
			flag(b.name)
		}
	}
	return args
}

// FuzzSaltHeader checks readSaltHeader against the format's definition on
// any input, read whole or a byte or half a buffer at a time: "Salted__"
// and 8 bytes give the salt and leave the reader at the ciphertext;
// anything shorter is "too short", anything else "bad magic".
func FuzzSaltHeader(f *testing.F) {
	f.Add([]byte("Salted__01234567ciphertext"), uint8(0))
	f.Add([]byte("Salted__0123"), uint8(1))
	f.Add([]byte("Nalted__01234567"), uint8(2))
	f.Add([]byte{}, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, how uint8) {
		var r io.Reader = bytes.NewReader(data)
		switch how % 3 {
		case 1:
			r = iotest.OneByteReader(r)
		case 2:
			r = iotest.HalfReader(r)
		}
		salt, err := readSaltHeader(r)
		rest, _ := io.ReadAll(r)
		switch {
		case len(data) < headerLen:
			if err == nil || !strings.Contains(err.Error(), "too short") {
				t.Fatalf("%q: %v, want too short", data, err)
			}
		case string(data[:8]) != "Salted__":
			if err == nil || !strings.Contains(err.Error(), "bad magic") {
				t.Fatalf("%q: %v, want bad magic", data, err)
			}
		default:
			if err != nil || !bytes.Equal(salt, data[8:16]) || !bytes.Equal(rest, data[16:]) {
				t.Fatalf("%q: salt %x, rest %q, err %v", data, salt, rest, err)
			}
		}
	})
}

// FuzzDecrypt runs the whole command on arbitrary input as salted
// ciphertext, writing to a file. It may fail only with exit 1, one line,
// and nothing left in the output directory; when it succeeds, encrypting
// the plaintext again with the header's salt must give back the input
// (every mode here is deterministic once key and IV are fixed, and a valid
// padding is the only one).
func FuzzDecrypt(f *testing.F) {
	ciphers := []string{"aes-128-cbc", "aes-256-ctr", "aria-128-ecb", "chacha20", "aria-192-cbc"}
	for i, name := range ciphers {
		ct := mustRun(f, []byte("plaintext "+name), 0, "-"+name, "-pass", "pass:pw", "-pbkdf2", "-iter", "1")
		f.Add(ct, uint8(i))
	}
	f.Add([]byte("Salted__12345678"), uint8(0))
	f.Add([]byte("Salted__1234567"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		name := ciphers[int(which)%len(ciphers)]
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		args := []string{"-d", "-" + name, "-pass", "pass:pw", "-pbkdf2", "-iter", "1", "-out", out}
		// No fsync: the durability of -out is TestEncSyncsAroundRename's
		// business, and syncing would make this a disk benchmark.
		r := runWith(t, data, func(o *Options) { o.ChunkSize, o.noSync = 64, true }, args...)
		if r.code != 0 {
			if r.code != 1 || !strings.HasPrefix(r.stderr, "simdcrypt enc: ") || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("%s on %x: exit %d, stderr %q", name, data, r.code, r.stderr)
			}
			if names := dirEntries(t, dir); len(names) != 0 {
				t.Fatalf("%s on %x: failed run left %q", name, data, names)
			}
			return
		}
		pt, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < headerLen {
			t.Fatalf("%s: accepted %d bytes, shorter than the header", name, len(data))
		}
		salt := data[8:16]
		again := mustRun(t, pt, 0, "-"+name, "-pass", "pass:pw", "-pbkdf2", "-iter", "1", "-S", hex.EncodeToString(salt))
		if !bytes.Equal(append(data[:16:16], again...), data) {
			t.Fatalf("%s: decrypting %x and encrypting again gives %x", name, data, again)
		}
	})
}
