//go:build linux

package encfile

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapRange maps n bytes of f from offset pos, read-only, with the pages
// populated up front: reading a large file through the mapping saves the
// copy read(2) makes, which at the kernels' speed is most of the work.
// mapping is what to unmap; data is the requested bytes within it.
func mapRange(f *os.File, pos int64, n int) (mapping, data []byte, err error) {
	page := int64(os.Getpagesize())
	start := pos &^ (page - 1)
	delta := int(pos - start)
	// Through RawConn, so the descriptor stays referenced for the call even
	// if the run has failed and the caller is closing the file.
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil, err
	}
	var m []byte
	cerr := rc.Control(func(fd uintptr) {
		m, err = syscall.Mmap(int(fd), start, delta+n, syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	})
	if cerr != nil {
		return nil, nil, cerr
	}
	if err != nil {
		return nil, nil, err
	}
	return m, m[delta : delta+n], nil
}

func unmap(m []byte) { syscall.Munmap(m) }

const canMap = true

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
