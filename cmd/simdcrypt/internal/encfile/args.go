package encfile

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
)

// Options are the settings of one `simdcrypt enc` run, as parsed from
// openssl-style arguments.
type Options struct {
	Cipher  *Cipher
	Decrypt bool
	In, Out string // "" for stdin and stdout

	KeyHex, IVHex, SaltHex string // "" when not given
	PassSource             string // -pass argument (pass:, env:, file:, fd:, stdin)
	PBKDF2                 bool
	Iter                   int
	MD                     string
	NoSalt                 bool
	PrintKey               int // 1 for -p (print and go on), 2 for -P (print and exit)
	NoPad                  bool
	Threads                int
	Verbose                bool
	ListCiphers, Help      bool

	// ChunkSize overrides DefaultChunkSize (tests use small chunks to
	// exercise many of them); it must be a multiple of 64.
	ChunkSize int
	inOrder   bool // tests: read regular files in order on one goroutine, as pipes are
	noSync    bool // tests (fuzzing): skip the fsyncs that make -out durable
	noPrompt  bool // tests: never ask for a password on the terminal
}

// UsageError is a mistake on the command line (exit status 2).
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// printable shows an argument in an error line as typed, or quoted in Go
// syntax when it holds anything but printable ASCII, so that the line
// stays one line and sends the terminal no control sequences.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return strconv.Quote(s)
		}
	}
	return s
}

// Parse reads openssl enc arguments: options start with one or two dashes,
// take their value as the next argument or after "=", and any option that
// names a cipher (-aes-128-ctr, -chacha20, -aes128) selects it.
func Parse(args []string) (*Options, error) {
	o := &Options{Iter: 10000, MD: "sha256", Threads: runtime.NumCPU()}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			return nil, usagef("unexpected argument %q (options start with -)", a)
		}
		name := strings.TrimPrefix(a[1:], "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		needValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 >= len(args) {
				return "", usagef("option -%s needs a value", printable(name))
			}
			i++
			return args[i], nil
		}
		noValue := func() error {
			if hasValue {
				return usagef("option -%s takes no value", printable(name))
			}
			return nil
		}
		// set serves the options that take no value and set or clear one
		// switch.
		set := func(p *bool, v bool) error {
			if err := noValue(); err != nil {
				return err
			}
			*p = v
			return nil
		}
		var err error
		var v string
		switch name {
		case "e":
			err = set(&o.Decrypt, false)
		case "d":
			err = set(&o.Decrypt, true)
		case "in":
			if o.In, err = needValue(); err == nil && o.In == "" {
				err = usagef("-in: empty file name (leave -in out to read standard input)")
			}
		case "out":
			if o.Out, err = needValue(); err == nil && o.Out == "" {
				err = usagef("-out: empty file name (leave -out out to write standard output)")
			}
		case "K":
			o.KeyHex, err = needValue()
		case "iv":
			o.IVHex, err = needValue()
		case "S":
			o.SaltHex, err = needValue()
		case "pass":
			o.PassSource, err = needValue()
		case "k":
			if v, err = needValue(); err == nil {
				o.PassSource = "pass:" + v
			}
		case "kfile":
			if v, err = needValue(); err == nil {
				if v == "" {
					err = usagef("-kfile: empty file name")
				}
				o.PassSource = "file:" + v
			}
		case "md":
			if o.MD, err = needValue(); err == nil {
				if _, ok := lookupDigest(o.MD); !ok {
					err = usagef("unknown digest -md %s (want one of %s)", printable(o.MD), digestNames())
				}
			}
		case "iter":
			if v, err = needValue(); err == nil {
				o.Iter, err = positive("-iter", v)
				o.PBKDF2 = true // as in openssl: -iter implies -pbkdf2
			}
		case "threads":
			if v, err = needValue(); err == nil {
				o.Threads, err = threadsValue(v)
			}
		case "bufsize":
			// openssl's I/O buffer size; chunking here is fixed, so the
			// value is checked and otherwise ignored.
			if v, err = needValue(); err == nil {
				_, err = positive("-bufsize", strings.TrimSuffix(strings.ToLower(v), "k"))
			}
		case "pbkdf2":
			err = set(&o.PBKDF2, true)
		case "nosalt":
			err = set(&o.NoSalt, true)
		case "salt":
			err = set(&o.NoSalt, false)
		case "nopad":
			err = set(&o.NoPad, true)
		case "p":
			err = noValue()
			o.PrintKey = max(o.PrintKey, 1)
		case "P":
			err = noValue()
			o.PrintKey = 2
		case "v":
			err = set(&o.Verbose, true)
		case "ciphers", "list":
			err = set(&o.ListCiphers, true)
		case "help", "h":
			err = set(&o.Help, true)
		case "a", "base64", "A", "z", "none", "debug", "engine", "provider", "provider-path", "propquery", "rand", "writerand":
			err = usagef("option -%s is not supported by simdcrypt enc", name)
		default:
			c, ok := Lookup(name)
			if !ok {
				err = usagef("unknown option or cipher %s (-ciphers lists the ciphers)", printable(a))
				break
			}
			if hasValue {
				err = usagef("cipher option -%s takes no value", name)
			}
			o.Cipher = c
		}
		if err != nil {
			return nil, err
		}
	}
	if o.Cipher == nil && !o.ListCiphers && !o.Help {
		return nil, usagef("no cipher given: name one as an option, e.g. -aes-128-ctr (-ciphers lists them)")
	}
	return o, nil
}

func positive(opt, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, usagef("%s wants a positive integer, got %q", opt, v)
	}
	return n, nil
}

// threadsValue checks -threads: a positive integer up to threadsPerCPU
// times the CPU count. More goroutines than that cannot run at once and
// only cost memory; a million of them took gigabytes.
func threadsValue(v string) (int, error) {
	limit := threadsPerCPU * runtime.NumCPU()
	n, err := strconv.Atoi(v)
	if errors.Is(err, strconv.ErrRange) && allDigits(strings.TrimPrefix(v, "+")) {
		n, err = math.MaxInt, nil // too large for an int is past the cap too
	}
	if err != nil || n < 1 {
		return 0, usagef("-threads wants a positive integer, got %q", v)
	}
	if n > limit {
		return 0, usagef("-threads %s: at most %d (%d per CPU, %d CPUs)", printable(v), limit, threadsPerCPU, runtime.NumCPU())
	}
	return n, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Usage is the -help text.
const Usage = `usage: simdcrypt enc -CIPHER [options]   (openssl enc compatible)

  -e | -d             encrypt (default) or decrypt
  -in FILE, -out FILE input and output (default stdin and stdout)
  -K HEX -iv HEX      raw key and IV, exactly the cipher's lengths
  -pass SRC | -k PASS password: pass:TEXT, env:VAR, file:PATH, fd:N or stdin
  -kfile PATH         password from the first line of PATH
  -pbkdf2, -iter N    PBKDF2 key derivation (-iter implies -pbkdf2; default 10000)
  -md DIGEST          digest for key derivation (default sha256)
  -S HEX, -nosalt     fixed 8-byte salt (no Salted__ header), or no salt at all
  -p, -P              print salt, key and IV (and with -P exit)
  -nopad              no PKCS#7 padding for ECB and CBC (input must be whole blocks)
  -threads N          goroutines for CTR, ECB, CBC decryption and ChaCha20 (default: all CPUs; at most 8 per CPU)
  -v                  print bytes read and written
  -ciphers            list the ciphers
`

// threadsPerCPU bounds -threads (see threadsValue).
const threadsPerCPU = 8
