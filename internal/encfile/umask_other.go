//go:build !unix

package encfile

import "os"

func umask() os.FileMode { return 0o022 }
