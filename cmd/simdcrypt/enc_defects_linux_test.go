package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/ptytest"
)

// Regression tests for enc's defects D2-D10 of issue 13 that need a real
// process: closed descriptors, signals, other users, system calls. The
// in-process ones are in internal/encfile/defects_test.go.

var zeroKey = []string{"-K", strings.Repeat("00", 16), "-iv", strings.Repeat("00", 16)}

// waitExit waits up to d for cmd to end; past that it kills it and
// reports false.
func waitExit(cmd *exec.Cmd, d time.Duration) (error, bool) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err, true
	case <-time.After(d):
		cmd.Process.Kill()
		return <-done, false
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// TestEncClosedStdio (D3): with standard output closed (`>&-`) the Go
// runtime puts /dev/null there, and the run must not report success while
// writing nothing; a closed standard input is an error too. Discarding the
// output on purpose (>/dev/null) still works.
func TestEncClosedStdio(t *testing.T) {
	bin := simdcryptBinary(t)
	for _, tc := range []struct {
		redirect string
		args     []string
		want     string // in the error line; "" for success
	}{
		{">&-", append([]string{"-aes-128-ctr"}, zeroKey...), "standard output"},
		{">&-", []string{"-aes-128-ctr", "-K", strings.Repeat("00", 16), "-iv", strings.Repeat("00", 16), "-P"}, "standard output"},
		{">&-", []string{"-ciphers"}, "standard output"},
		{"<&-", append([]string{"-aes-128-ctr"}, zeroKey...), "standard input"},
		{">/dev/null", append([]string{"-aes-128-ctr"}, zeroKey...), ""},
	} {
		cmd := exec.Command("/bin/sh", append([]string{"-c", `exec "$0" "$@" ` + tc.redirect, bin, "enc"}, tc.args...)...)
		cmd.Stdin = strings.NewReader("plaintext")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		code := exitCode(cmd.Run())
		if tc.want == "" {
			if code != 0 {
				t.Errorf("%s %v: exit %d (%s), want success", tc.redirect, tc.args, code, stderr.String())
			}
			continue
		}
		if code != 1 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s %v: exit %d, stderr %q; want exit 1 and one line about %s", tc.redirect, tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestEncKilledRunTemp (D6): a run killed with SIGKILL (no handler runs)
// leaves its temporary file readable by its owner only, and the next run
// to the same output removes it; a temporary file of a run still going,
// or one owned by another user, is left alone.
func TestEncKilledRunTemp(t *testing.T) {
	bin := simdcryptBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	syscall.Umask(syscall.Umask(0o022)) // the usual umask, so 0644 is what a careless open gives

	// start runs the command with a pipe for input, feeds it data and
	// waits for its temporary file to appear.
	start := func() (*exec.Cmd, io.WriteCloser, string) {
		t.Helper()
		before := map[string]bool{}
		for _, n := range dirEntriesOf(dir) {
			before[n] = true
		}
		cmd := exec.Command(bin, append([]string{"enc", "-aes-128-ctr", "-out", out}, zeroKey...)...)
		stdin, _ := cmd.StdinPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stdin.Write(make([]byte, 3<<20))
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			for _, n := range dirEntriesOf(dir) {
				if !before[n] {
					return cmd, stdin, n
				}
			}
		}
		cmd.Process.Kill()
		t.Fatalf("no temporary file appeared in %s", dir)
		return nil, nil, ""
	}
	kill := func(cmd *exec.Cmd) {
		cmd.Process.Kill()
		cmd.Wait()
	}

	killed, _, temp := start()
	fi, err := os.Lstat(filepath.Join(dir, temp))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("temporary file %s has mode %v while the run is going, want 0600", temp, fi.Mode().Perm())
	}
	kill(killed)

	var othersTemp string
	if os.Getuid() == 0 {
		// A stale temporary file of another user is not ours to remove:
		// give the first one away and leave a second of ours.
		os.Chown(filepath.Join(dir, temp), 12345, 12345)
		othersTemp = temp
		killed, _, temp = start()
		kill(killed)
	} else {
		t.Log("not root: the stale temporary file of another user is not checked")
	}
	if names := dirEntriesOf(dir); !sameSet(names, nonEmpty(temp, othersTemp)) {
		t.Fatalf("after SIGKILL the directory holds %q, want %q", names, nonEmpty(temp, othersTemp))
	}

	live, liveIn, liveTemp := start()
	cmd := exec.Command(bin, append([]string{"enc", "-aes-128-ctr", "-out", out}, zeroKey...)...)
	cmd.Stdin = strings.NewReader("abc")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run after the killed one: %v %s", err, b)
	}
	got := dirEntriesOf(dir)
	want := nonEmpty("out", liveTemp, othersTemp)
	if !sameSet(got, want) {
		t.Errorf("after the next runs the directory holds %q, want %q (the killed run's temporary file removed, the live run's and another user's kept)", got, want)
	}
	liveIn.Close()
	if err := live.Wait(); err != nil {
		t.Errorf("the live run failed after another run cleaned up: %v", err)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() != 3<<20 {
		t.Errorf("the live run's output: %v %v", fi, err)
	}
}

func nonEmpty(names ...string) []string {
	var r []string
	for _, n := range names {
		if n != "" {
			r = append(r, n)
		}
	}
	return r
}

func dirEntriesOf(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

// TestEncPromptInterruptRestoresEcho (D7): Ctrl-C at the password prompt
// ends the run with the terminal's echo back on.
func TestEncPromptInterruptRestoresEcho(t *testing.T) {
	bin := simdcryptBinary(t)
	pty := ptytest.OpenPTY(t)
	echo := func() bool {
		tio, err := unix.IoctlGetTermios(int(pty.Slave.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		return tio.Lflag&unix.ECHO != 0
	}
	if !echo() {
		t.Fatal("a new pseudo-terminal has echo off")
	}
	cmd := exec.Command(bin, "enc", "-aes-128-cbc", "-pbkdf2")
	cmd.Stdin = strings.NewReader("plaintext")
	cmd.ExtraFiles = []*os.File{pty.Slave}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pty.WaitFor(t, "encryption password:", 1)
	for deadline := time.Now().Add(10 * time.Second); echo(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the prompt did not turn echo off")
		}
	}
	pty.Type("\x03") // VINTR: SIGINT to the foreground process group
	err, ok := waitExit(cmd, 10*time.Second)
	if !ok {
		t.Fatal("Ctrl-C did not end the run")
	}
	if code := exitCode(err); code != 130 {
		t.Errorf("exit %d after Ctrl-C, want 130", code)
	}
	if !echo() {
		t.Errorf("the terminal's echo is still off after Ctrl-C at the prompt")
	}
}

// otherUserSetup makes a directory tree another user can use, with a copy
// of the binary in it; it needs root, to act as that user.
func otherUserSetup(t *testing.T) (base, bin string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root, to run the command as another user on files of a third")
	}
	base, err := os.MkdirTemp("", "simdcrypt-users")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	b, err := os.ReadFile(simdcryptBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(base, "simdcrypt")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return base, bin
}

// asNobody runs the binary as uid/gid 65534 with input that never ends
// (a pipe held open): a run that starts its work waits forever, one that
// refuses first exits at once.
func asNobody(t *testing.T, bin string, args ...string) (code int, stderr string, finished bool) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"enc"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Write([]byte("some input, and more to come"))
	err, ok := waitExit(cmd, 5*time.Second)
	return exitCode(err), errb.String(), ok
}

// TestEncStickyDirRefusedEarly (D8): in a sticky directory (such as /tmp)
// only the owners of the file or the directory may replace a file, so
// the rename at the end would fail with EPERM; the run must say so before
// reading its input.
func TestEncStickyDirRefusedEarly(t *testing.T) {
	base, bin := otherUserSetup(t)
	sticky, target := othersFile(base, "sticky", 0o777|os.ModeSticky)
	refusedEarly(t, bin, target, "sticky", "the rename it ends with cannot succeed")
	if b, _ := os.ReadFile(target); string(b) != "theirs" {
		t.Errorf("the file was changed: %q", b)
	}
	if names := dirEntriesOf(sticky); len(names) != 1 {
		t.Errorf("directory holds %q, want only out", names)
	}
}

// TestEncOwnerChangeRefusedEarly (D2): a user who may write another
// user's file, but could not give the replacement that owner, is refused
// before the work rather than taking the file over.
func TestEncOwnerChangeRefusedEarly(t *testing.T) {
	base, bin := otherUserSetup(t)
	open, target := othersFile(base, "open", 0o777)
	refusedEarly(t, bin, target, "owner", "it could not keep the file's owner")
	fi, _ := os.Stat(target)
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 12345 {
		t.Errorf("the file now belongs to %d", st.Uid)
	}
	if names := dirEntriesOf(open); len(names) != 1 {
		t.Errorf("directory holds %q, want only out", names)
	}
}

// TestEncSyncsAroundRename (D10): the temporary file is flushed to disk
// before it is renamed over the output, and the directory after, so that
// a crash leaves either the old file or the whole new one. The order of
// the system calls is read with strace.
func TestEncSyncsAroundRename(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not in PATH: cannot observe fsync and rename")
	}
	bin := simdcryptBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	log := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(strace, "-f", "-qq", "-y", "-o", log, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2",
		bin, "enc", "-aes-128-ctr", "-K", zeroKey[1], "-iv", zeroKey[3], "-out", out)
	cmd.Stdin = strings.NewReader("plaintext")
	if b, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(b), "ptrace") || strings.Contains(string(b), "Operation not permitted") {
			t.Skipf("strace cannot trace here: %s", b)
		}
		t.Fatalf("%v: %s", err, b)
	}
	trace, _ := os.ReadFile(log)
	syncTemp, rename, syncDir := -1, -1, -1
	for i, line := range strings.Split(string(trace), "\n") {
		switch {
		case strings.Contains(line, "fsync(") && strings.Contains(line, "/.out.") && syncTemp < 0:
			syncTemp = i
		case strings.Contains(line, "rename") && strings.Contains(line, `"`+out+`"`) && strings.Contains(line, "= 0"):
			rename = i
		case strings.Contains(line, "fsync(") && strings.Contains(line, "<"+dir+">"):
			syncDir = i
		}
	}
	if !(syncTemp >= 0 && syncTemp < rename && rename < syncDir) {
		t.Errorf("want fsync of the temporary file, rename, fsync of the directory in that order; trace:\n%s", trace)
	}
}

// othersFile makes directory base/dir with mode dirMode and in it a file
// "out" that every user may write but user 12345 owns.
func othersFile(base, dir string, dirMode os.FileMode) (dirPath, target string) {
	dirPath = filepath.Join(base, dir)
	os.Mkdir(dirPath, 0o777)
	os.Chmod(dirPath, dirMode)
	target = filepath.Join(dirPath, "out")
	os.WriteFile(target, []byte("theirs"), 0o666)
	os.Chmod(target, 0o666)
	os.Chown(target, 12345, 12345)
	return dirPath, target
}

// refusedEarly runs enc as nobody onto target and checks that it stopped
// before its work, exit 1, with one line of stderr naming what.
func refusedEarly(t *testing.T, bin, target, what, why string) {
	t.Helper()
	code, stderr, finished := asNobody(t, bin, append([]string{"-aes-128-ctr", "-out", target}, zeroKey...)...)
	if !finished {
		t.Errorf("the run started its work; %s", why)
	} else if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, what) {
		t.Errorf("exit %d, stderr %q; want exit 1 and one line about %q", code, stderr, what)
	}
}
