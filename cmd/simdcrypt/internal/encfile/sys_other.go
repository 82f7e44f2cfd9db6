//go:build !unix

package encfile

import (
	"errors"
	"os"
)

func umask() os.FileMode { return 0o022 }

type fdReader int

func (fdReader) Read([]byte) (int, error) {
	return 0, errors.New("-pass fd: is not supported on this system")
}
