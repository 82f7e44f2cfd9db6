//go:build unix

package encfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// umask reads the process umask (setting it is the only way to read it),
// so that new output files get the usual 0666 &^ umask permissions even
// though they start life as 0600 temporary files.
func umask() os.FileMode {
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return os.FileMode(m)
}

// fdReader reads from a file descriptor the process was given (-pass
// fd:N) without taking ownership: an *os.File would close it when
// collected, and N may well be stdin.
type fdReader int

func (fd fdReader) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// checkReplace predicts what the final rename would say about replacing
// the existing file fi in dir. In a sticky directory (/tmp and the like)
// only the file's owner, the directory's owner or a privileged user may
// remove or replace a file, and the rename fails with EPERM after all the
// work. Root is taken to be privileged (CAP_FOWNER); anything stranger
// (a security module) still fails at the rename, leaving no partial file.
func checkReplace(dir string, fi os.FileInfo) error {
	di, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if di.Mode()&os.ModeSticky == 0 {
		return nil
	}
	euid := os.Geteuid()
	fst, ok1 := fi.Sys().(*syscall.Stat_t)
	dst, ok2 := di.Sys().(*syscall.Stat_t)
	if euid == 0 || !ok1 || !ok2 || int(fst.Uid) == euid || int(dst.Uid) == euid {
		return nil
	}
	return fmt.Errorf("cannot be replaced: %s is a sticky directory, and neither it nor the file belongs to you (uid %d), so the rename would be refused (EPERM)", dir, euid)
}

// keepOwner gives the temporary file the owner and group of the file it
// will replace. Only root may give a file away, and a user only to groups
// they belong to; when that is refused the run stops here, before any
// work, rather than leave the file with a new owner.
func keepOwner(f *os.File, fi os.FileInfo) error {
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	ti, err := f.Stat()
	if err != nil {
		return err
	}
	have := ti.Sys().(*syscall.Stat_t)
	if have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("cannot keep its owner and group (%d:%d) on the replacement: %w; write to a new file instead", want.Uid, want.Gid, errors.Unwrap(err))
	}
	return nil
}

// syncDir flushes a directory's entries to disk, after a rename in it.
// File systems that cannot sync a directory say EINVAL; there is nothing
// more to do on those.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}

// stdioClosed reports whether f, a standard stream, was closed when the
// process started. The Go runtime then opens /dev/null in its place, read
// and write, so writes vanish and reads see end of file; a shell
// redirection to /dev/null opens it for reading or writing only. (A
// deliberate `1<>/dev/null` is taken for closed too; -out /dev/null says
// the same without ambiguity.)
func stdioClosed(f *os.File) bool {
	if f == nil {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var null syscall.Stat_t
	if syscall.Stat(os.DevNull, &null) != nil {
		return false
	}
	closed := false
	rc.Control(func(fd uintptr) {
		var st syscall.Stat_t
		if syscall.Fstat(int(fd), &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFCHR || st.Rdev != null.Rdev {
			return
		}
		flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		closed = err == nil && flags&unix.O_ACCMODE == unix.O_RDWR
	})
	return closed
}
