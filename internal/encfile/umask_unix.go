//go:build unix

package encfile

import (
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
