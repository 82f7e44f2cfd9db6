//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package encfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// A run holds an exclusive flock on its temporary file for as long as it
// lives; the kernel drops it when the process ends, however it ends
// (SIGKILL, a crash, power loss). A temporary file nobody holds is stale.
// flock rather than fcntl locks: those belong to the process, so two runs
// in one process (the tests) would not see each other's.

// lockTemp locks a new temporary file. It reports false when the name no
// longer refers to f, or another process holds f: a concurrent run took
// the new file for a stale one and is removing it.
func lockTemp(f *os.File) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
	}); err != nil {
		return false, err
	}
	if errors.Is(lerr, syscall.EWOULDBLOCK) {
		return false, nil
	}
	if errors.Is(lerr, syscall.ENOLCK) || errors.Is(lerr, syscall.ENOTSUP) || errors.Is(lerr, syscall.EOPNOTSUPP) {
		// A file system without locks: the file cannot be told from a
		// stale one, and removeStaleTemps leaves unlockable files alone.
		return true, nil
	}
	if lerr != nil {
		return false, lerr
	}
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	now, err := os.Lstat(f.Name())
	return err == nil && os.SameFile(fi, now), nil
}

// removeStaleTemps removes the temporary files for an output whose names
// start with prefix in dir that a killed run left behind: files owned by
// this user that no live process holds locked. Failures are ignored: the
// run goes on, and the stale file stays for a later one.
func removeStaleTemps(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTempName(e.Name(), prefix) {
			continue
		}
		removeIfStale(filepath.Join(dir, e.Name()))
	}
}

func removeIfStale(path string) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return // not ours, even as root: another user's run may still want it
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	var lerr error
	rc.Control(func(fd uintptr) {
		lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
	})
	if lerr != nil {
		return // held by a live run, or a file system without locks
	}
	// Still the same file under that name: remove it while holding the
	// lock, so a run creating a file of that name cannot lock it first.
	if now, err := os.Lstat(path); err == nil && os.SameFile(fi, now) {
		os.Remove(path)
	}
}
