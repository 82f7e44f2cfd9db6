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

// Off Unix there are no sticky directories, owners to keep (the
// replacement inherits the directory's ACL) or directory syncs, and a
// missing standard stream cannot be told from /dev/null.

func checkReplace(dir string, fi os.FileInfo) error { return nil }

func keepOwner(f *os.File, fi os.FileInfo) error { return nil }

func syncDir(dir string) error { return nil }

func stdioClosed(f *os.File) bool { return false }
