//go:build linux

package encfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// growPipe asks for a 1 MiB pipe buffer when f is a pipe, so that a
// stream arrives in fewer, larger reads (fewer wake-ups on both ends).
// Failure (the system limit, not a pipe) just leaves the pipe as it was.
func growPipe(f *os.File) {
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20)
	})
}
