package encfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// output is where the result goes. A regular file (or a path that does not
// exist yet) is written through a temporary file in the same directory and
// renamed over the path only on success, so a failed run leaves no partial
// file and leaves an existing one alone. Anything else (stdout, a pipe,
// /dev/null, a terminal) is written directly and never renamed onto.
type output struct {
	f      *os.File
	close  bool   // whether f is ours to close (not stdout)
	tmp    string // temporary file, "" when writing directly
	target string // path the temporary file becomes
}

// temps tracks live temporary files, so a signal handler can remove them.
var temps sync.Map

func openOutput(path string, stdout *os.File) (*output, error) {
	if path == "" {
		return &output{f: stdout}, nil
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("-out %s: is a directory", path)
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("-out: %w", err)
		}
		return &output{f: f, close: true}, nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("-out: %w", err)
	}

	target := path
	mode := os.FileMode(0o666) &^ umask()
	if err == nil {
		// Replacing the file needs only a writable directory; insist on
		// what writing it in place (as openssl does) would need.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("-out: %w", err)
		}
		f.Close()
		mode = fi.Mode().Perm()
		// Replace the file a symbolic link points to, not the link.
		if t, err := filepath.EvalSymlinks(path); err == nil {
			target = t
		}
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("-out: cannot create a temporary file next to %s: %w", path, err)
	}
	temps.Store(f.Name(), true)
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		temps.Delete(f.Name())
		return nil, fmt.Errorf("-out: %w", err)
	}
	return &output{f: f, close: true, tmp: f.Name(), target: target}, nil
}

// commit makes the output final.
func (o *output) commit() error {
	if o.close {
		if err := o.f.Close(); err != nil {
			o.abort()
			return fmt.Errorf("-out: %w", err)
		}
	}
	if o.tmp != "" {
		if err := os.Rename(o.tmp, o.target); err != nil {
			o.abort()
			return fmt.Errorf("-out: %w", err)
		}
		temps.Delete(o.tmp)
	}
	return nil
}

// abort discards a temporary file; direct outputs keep what was written.
func (o *output) abort() {
	if o.close {
		o.f.Close()
	}
	if o.tmp != "" {
		os.Remove(o.tmp)
		temps.Delete(o.tmp)
	}
}

// RemoveTemps deletes the temporary files of runs in progress; the command
// calls it when a signal ends the process.
func RemoveTemps() {
	temps.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}
