//go:build unix

package encfile

import (
	"io"
	"os"
	"syscall"
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
