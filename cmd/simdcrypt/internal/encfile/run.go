package encfile

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/term"
)

// Stdio are the process's standard streams (tests substitute files).
type Stdio struct {
	In  *os.File
	Out *os.File
	Err *os.File
}

// Command runs `simdcrypt enc` with args and returns the exit status: 0 on
// success, 1 when the run fails (bad decrypt, I/O), 2 for usage mistakes.
// Every failure is one line on stderr.
func Command(args []string, stdio Stdio) int { return command(args, stdio, nil) }

// command is Command with a hook to adjust the parsed options (tests set
// small chunk sizes).
func command(args []string, stdio Stdio, adjust func(*Options)) int {
	o, err := Parse(args)
	if err == nil && adjust != nil {
		adjust(o)
	}
	if err == nil {
		err = checkStdio(o, stdio)
	}
	if err == nil {
		switch {
		case o.Help:
			fmt.Fprint(stdio.Err, Usage)
			return 0
		case o.ListCiphers:
			err = printCiphers(stdio.Out)
		default:
			err = o.Run(stdio)
		}
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "simdcrypt enc: %s\n", oneLine(err.Error()))
		var u *UsageError
		if errors.As(err, &u) {
			return 2
		}
		return 1
	}
	return 0
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", "; ") }

func printCiphers(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Supported ciphers:\n")
	names := Ciphers()
	for i, n := range names {
		sep := " "
		if i%3 == 2 || i == len(names)-1 {
			sep = "\n"
		}
		fmt.Fprintf(&b, "%-26s%s", "-"+n, sep)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return writeError(err)
	}
	return nil
}

// checkStdio refuses a run that needs a standard stream the process was
// started without (`>&-`, `<&-`): writes there would vanish into the
// /dev/null the Go runtime puts in its place, and the run would end
// "successfully" with nothing written.
func checkStdio(o *Options, stdio Stdio) error {
	if o.Help {
		return nil
	}
	needOut := o.ListCiphers || o.PrintKey > 0 || o.Out == ""
	if needOut && stdioClosed(stdio.Out) {
		return errors.New("standard output is closed: nothing could be written (give -out FILE, or redirect to /dev/null to discard)")
	}
	needIn := !o.ListCiphers && o.PrintKey != 2 && o.In == "" || o.PassSource == "stdin"
	if needIn && stdioClosed(stdio.In) {
		return errors.New("standard input is closed: nothing to read (give -in FILE)")
	}
	return nil
}

// Run performs the encryption or decryption o describes.
func (o *Options) Run(stdio Stdio) error {
	c := o.Cipher
	md, _ := lookupDigest(o.MD)
	chunkSize := o.ChunkSize
	if chunkSize == 0 {
		chunkSize = DefaultChunkSize
	}
	if chunkSize%64 != 0 || chunkSize <= 0 {
		return fmt.Errorf("chunk size %d is not a positive multiple of 64", chunkSize)
	}

	// Key material given on the command line is checked before any file
	// is touched.
	var key, iv, salt []byte
	var err error
	if o.KeyHex != "" {
		if key, err = parseHex("-K", "key", o.KeyHex, c.KeyLen, c.Name); err != nil {
			return err
		}
	}
	if o.IVHex != "" {
		if c.IVLen == 0 {
			fmt.Fprintln(stdio.Err, "simdcrypt enc: warning: iv not used by this cipher")
		} else if iv, err = parseHex("-iv", "IV", o.IVHex, c.IVLen, c.Name); err != nil {
			return err
		}
	}
	var pass *string
	if o.PassSource != "" {
		p, err := readPassword(o.PassSource, stdio.In)
		if err != nil {
			return err
		}
		pass = &p
	}
	// Like openssl, ask on the terminal when there is neither key nor
	// password; that waits until the files have been checked.
	prompt := pass == nil && key == nil
	if pass == nil && !prompt && iv == nil && c.IVLen > 0 {
		return usagef("iv undefined: %s needs -iv with %d hex digits (%d bytes)", c.Name, 2*c.IVLen, c.IVLen)
	}
	saltFromOption := false
	if (pass != nil || prompt) && !o.NoSalt && o.SaltHex != "" {
		if salt, err = parseHex("-S", "salt", o.SaltHex, SaltLen, c.Name); err != nil {
			return err
		}
		saltFromOption = true
	}

	in := stdio.In
	if o.In != "" {
		f, err := os.Open(o.In)
		if err != nil {
			return fmt.Errorf("-in: %w", err)
		}
		defer f.Close()
		in = f
	}
	inInfo, inErr := in.Stat()
	if inErr == nil && inInfo.IsDir() {
		return fmt.Errorf("-in %s: is a directory", o.In)
	}
	if err := checkNotSame(inInfo, inErr, o.Out, stdio.Out); err != nil {
		return err
	}

	// The output is opened (and everything that could stop its final
	// rename checked) before the password prompt and any work; -P writes
	// none.
	var out *output
	committed := false // the output is final, or commit has cleaned up
	if o.PrintKey != 2 {
		if out, err = openOutput(o.Out, stdio.Out); err != nil {
			return err
		}
		out.noSync = o.noSync
		defer func() {
			if !committed {
				out.abort()
			}
		}()
	}

	if prompt {
		p, err := promptPassword(c.Name, !o.Decrypt, o.noPrompt)
		if err != nil {
			return err
		}
		pass = &p
	}

	// The Salted__ header: openssl writes it when it makes up the salt and
	// expects it when decrypting, but not when -S gives the salt.
	var header []byte
	var headerIn int64 // header bytes already read from the input
	if pass != nil && !o.NoSalt && !saltFromOption {
		if o.Decrypt {
			headerIn = int64(headerLen)
			if salt, err = readSaltHeader(in); err != nil {
				return err
			}
		} else {
			salt = make([]byte, SaltLen)
			if _, err := rand.Read(salt); err != nil {
				return err
			}
			header = append([]byte(saltMagic), salt...)
		}
	}
	if pass != nil {
		if !o.PBKDF2 {
			fmt.Fprintln(stdio.Err, "*** WARNING : deprecated key derivation used.\nUsing -iter or -pbkdf2 would be better.")
		}
		dk, div, err := deriveKeyIV(o.PBKDF2, md, *pass, salt, o.Iter, c.KeyLen, c.IVLen)
		if err != nil {
			return fmt.Errorf("key derivation: %w", err)
		}
		if key == nil {
			key = dk
		}
		if iv == nil {
			iv = div
		}
	}
	if o.PrintKey > 0 {
		var b strings.Builder
		if pass != nil && !o.NoSalt {
			fmt.Fprintf(&b, "salt=%X\n", salt)
		}
		fmt.Fprintf(&b, "key=%X\n", key)
		if c.IVLen > 0 {
			fmt.Fprintf(&b, "iv =%X\n", iv)
		}
		if _, err := io.WriteString(stdio.Out, b.String()); err != nil {
			return writeError(err)
		}
		if o.PrintKey == 2 {
			return nil
		}
	}

	t, err := c.newTransform(key, iv, o.Decrypt)
	if err != nil {
		return err
	}
	growPipe(out.f)
	var size int64 = -1
	if inErr == nil && inInfo.Mode().IsRegular() {
		size = inInfo.Size()
	}
	var consumed atomic.Int64
	stop := startProgress(stdio.Err, size, &consumed)
	st, err := o.stream(in, out.f, header, t, iv, chunkSize, &consumed)
	st.in += headerIn
	stop()
	if err != nil {
		return err
	}
	committed = true
	if err := out.commit(); err != nil {
		return err
	}
	if o.Verbose {
		fmt.Fprintf(stdio.Err, "bytes read   : %8d\nbytes written: %8d\n", st.in, st.out)
	}
	return nil
}

func (o *Options) stream(in io.Reader, w io.Writer, header []byte, t transform, iv []byte, chunkSize int, consumed *atomic.Int64) (stats, error) {
	var st stats
	if len(header) > 0 {
		n, err := w.Write(header)
		st.out += int64(n)
		if err != nil {
			return st, writeError(err)
		}
	}
	p := &pipeline{
		t:         t,
		decrypt:   o.Decrypt,
		blockLen:  o.Cipher.BlockLen,
		pad:       !o.NoPad,
		iv:        iv,
		chunkSize: chunkSize,
		threads:   o.Threads,
		inOrder:   o.inOrder,
		consumed:  consumed,
	}
	ps, err := p.run(in, w)
	st.in += ps.in
	st.out += ps.out
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
			if pe.Op == "write" {
				return st, writeError(err)
			}
			return st, fmt.Errorf("error reading input: %w", err)
		}
	}
	return st, err
}

// headerLen is the length of the Salted__ header: magic, then salt.
const headerLen = len(saltMagic) + SaltLen

// readSaltHeader reads the Salted__ header openssl writes before salted
// output and returns its salt. It reads exactly headerLen bytes, so what
// follows is the ciphertext.
func readSaltHeader(r io.Reader) ([]byte, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, errors.New("error reading input file: too short for the Salted__ header (use -nosalt for unsalted input)")
		}
		return nil, fmt.Errorf("error reading input: %w", err)
	}
	if string(h[:len(saltMagic)]) != saltMagic {
		return nil, errors.New("bad magic number: input does not start with Salted__ (use -nosalt, -S or -K for headerless input)")
	}
	return h[len(saltMagic):], nil
}

func writeError(err error) error { return fmt.Errorf("error writing output: %w", err) }

// parseHex decodes a -K, -iv or -S value, which must be exactly want bytes.
// openssl pads short values with zeros and drops excess with a warning;
// that turns a mistyped key into a wrong key silently enough, so this
// refuses both and says the length needed.
func parseHex(opt, what, s string, want int, cipher string) ([]byte, error) {
	for i, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return nil, usagef("%s: non-hex digit %q at position %d of the %s", opt, r, i+1, what)
		}
	}
	if len(s) != 2*want {
		return nil, usagef("%s: wrong %s length: %s needs %d bytes (%d hex digits), got %d hex digits",
			opt, what, cipher, want, 2*want, len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, usagef("%s: %v", opt, err)
	}
	return b, nil
}

// checkNotSame refuses to read and write one file: the output replaces the
// input only after reading it all, but that is never what was meant (and
// with stdout redirected the shell has already truncated it).
func checkNotSame(inInfo os.FileInfo, inErr error, outPath string, stdout *os.File) error {
	if inErr != nil || !inInfo.Mode().IsRegular() {
		return nil
	}
	var outInfo os.FileInfo
	var err error
	if outPath != "" {
		outInfo, err = os.Stat(outPath)
	} else if stdout != nil {
		outInfo, err = stdout.Stat()
	} else {
		return nil
	}
	if err == nil && os.SameFile(inInfo, outInfo) {
		return usagef("input and output are the same file; write to another file and rename it")
	}
	return nil
}

// readPassword resolves an openssl -pass argument.
func readPassword(src string, stdin *os.File) (string, error) {
	kind, arg, _ := strings.Cut(src, ":")
	switch kind {
	case "pass":
		return arg, nil
	case "env":
		v, ok := os.LookupEnv(arg)
		if !ok {
			return "", usagef("-pass env:%s: environment variable is not set", printable(arg))
		}
		return v, nil
	case "file":
		if arg == "" {
			return "", usagef("-pass file: empty file name")
		}
		f, err := os.Open(arg)
		if err != nil {
			return "", fmt.Errorf("-pass file: %w", err)
		}
		defer f.Close()
		return firstLine(f, "-pass file:"+arg)
	case "fd":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 {
			return "", usagef("-pass fd:%s: not a file descriptor number", printable(arg))
		}
		return firstLine(oneByte{fdReader(n)}, "-pass fd:"+arg)
	case "stdin":
		if src != "stdin" {
			break
		}
		// One byte at a time, so the data after the line stays unread.
		return firstLine(oneByte{stdin}, "-pass stdin")
	}
	return "", usagef("-pass %q: want pass:TEXT, env:VAR, file:PATH, fd:N or stdin", src)
}

// promptPassword asks for a password on the controlling terminal, twice
// when encrypting, as openssl does.
func promptPassword(cipher string, verify, noPrompt bool) (string, error) {
	noKey := usagef("no key: give -K HEX (with -iv HEX) or a password with -pass or -k")
	if noPrompt {
		return "", noKey
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", noKey
	}
	defer tty.Close()
	// ReadPassword turns echo off and back on when it returns; a signal
	// in between ends the process first, so the signal handler restores
	// the terminal from this state (Cleanup).
	if state, err := term.GetState(int(tty.Fd())); err == nil {
		setTerminalRestore(func() {
			term.Restore(int(tty.Fd()), state)
			fmt.Fprintln(tty)
		})
		defer setTerminalRestore(nil)
	}
	dir := "decryption"
	if verify {
		dir = "encryption"
	}
	ask := func(prompt string) (string, error) {
		fmt.Fprintf(tty, "%senter %s %s password:", prompt, strings.ToUpper(cipher), dir)
		p, err := term.ReadPassword(int(tty.Fd()))
		fmt.Fprintln(tty)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		return string(p), nil
	}
	p, err := ask("")
	if err != nil || !verify {
		return p, err
	}
	again, err := ask("Verifying - ")
	if err != nil {
		return "", err
	}
	if again != p {
		return "", errors.New("verify failure: the passwords differ")
	}
	return p, nil
}

var (
	terminalMu      sync.Mutex
	terminalRestore func() // undoes the password prompt's terminal settings
)

func setTerminalRestore(f func()) {
	terminalMu.Lock()
	terminalRestore = f
	terminalMu.Unlock()
}

// Cleanup undoes what a run in progress has changed outside the process:
// it puts the terminal back as the password prompt found it and removes
// temporary output files. The command calls it when a signal ends the
// process.
func Cleanup() {
	terminalMu.Lock()
	if terminalRestore != nil {
		terminalRestore()
		terminalRestore = nil
	}
	terminalMu.Unlock()
	RemoveTemps()
}

// oneByte reads one byte at a time, so that reading a password line takes
// nothing after it.
type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

// firstLine reads up to the first newline, as openssl reads passwords.
func firstLine(r io.Reader, what string) (string, error) {
	var line []byte
	br := bufio.NewReaderSize(r, 16)
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		if b == '\n' {
			break
		}
		line = append(line, b)
	}
	return string(line), nil
}
