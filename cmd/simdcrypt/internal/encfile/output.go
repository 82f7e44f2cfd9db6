package encfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// output is where the result goes. A regular file (or a path that does not
// exist yet) is written through a temporary file in the same directory and
// renamed over the path only on success, so a failed run leaves no partial
// file and leaves an existing one alone. Anything else (stdout, a pipe,
// /dev/null, a terminal) is written directly and never renamed onto.
//
// Everything that could stop the rename at the end is checked when the
// output is opened, before any work: the path is not a directory or a
// dangling symbolic link, an existing file is writable, its owner and group
// can be given to the replacement, and a sticky directory lets this user
// replace it.
type output struct {
	f      *os.File
	close  bool        // whether f is ours to close (not stdout)
	tmp    string      // temporary file, "" when writing directly
	target string      // path the temporary file becomes
	mode   os.FileMode // the temporary file's mode once complete
	noSync bool        // tests: skip the fsyncs (Options.noSync)
	owner  os.FileInfo // the replaced file, whose owner to give at commit (root)
}

// temps tracks live temporary files, so a signal handler can remove them.
var temps sync.Map

// keptModeBits are the mode bits a replaced file keeps.
const keptModeBits = os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky

// tempPrefix starts the names of the temporary files for an output named
// base: hidden, recognisable as this tool's (so stale ones can be found),
// and short enough to leave room under NAME_MAX for the rest.
func tempPrefix(base string) string {
	const maxBase = 200
	if len(base) > maxBase {
		base = base[:maxBase]
	}
	return "." + base + ".simdcrypt."
}

const tempSuffix = ".tmp"

// isTempName reports whether name is one of ours for prefix: the prefix,
// the decimal digits os.CreateTemp puts in place of its *, the suffix.
func isTempName(name, prefix string) bool {
	mid, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	mid, ok = strings.CutSuffix(mid, tempSuffix)
	if !ok || mid == "" {
		return false
	}
	for _, r := range mid {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func openOutput(path string, stdout *os.File) (*output, error) {
	if path == "" {
		return &output{f: stdout}, nil
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		// A symbolic link to nothing: creating its target would write
		// wherever the link points (the classic /tmp link attack), and
		// replacing the link would silently lose it. cp refuses it too.
		if li, lerr := os.Lstat(path); lerr == nil && li.Mode()&os.ModeSymlink != 0 {
			dest, _ := os.Readlink(path)
			return nil, fmt.Errorf("-out %s: not writing through a dangling symbolic link (its target %s does not exist); create the target or remove the link", path, dest)
		}
	case err != nil:
		return nil, fmt.Errorf("-out: %w", err)
	case fi.IsDir():
		return nil, fmt.Errorf("-out %s: is a directory", path)
	case !fi.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("-out: %w", err)
		}
		return &output{f: f, close: true}, nil
	}
	existing := err == nil

	target := path
	mode := os.FileMode(0o666) &^ umask()
	if existing {
		// Replacing the file needs only a writable directory; insist on
		// what writing it in place (as openssl does) would need.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("-out: %w", err)
		}
		f.Close()
		mode = fi.Mode() & keptModeBits
		// Replace the file a symbolic link points to, not the link.
		if t, err := filepath.EvalSymlinks(path); err == nil {
			target = t
		}
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	if existing {
		if err := checkReplace(dir, fi); err != nil {
			return nil, fmt.Errorf("-out %s: %w", path, err)
		}
	}
	prefix := tempPrefix(base)
	removeStaleTemps(dir, prefix)
	f, err := createTemp(dir, prefix)
	if err != nil {
		return nil, fmt.Errorf("-out: cannot create a temporary file next to %s: %w", path, err)
	}
	o := &output{f: f, close: true, tmp: f.Name(), target: target, mode: mode}
	if existing {
		if os.Geteuid() == 0 {
			// Root may give any file away, so there is nothing to check
			// now; giving it at commit keeps a killed run's temporary file
			// root's, for root's next run to clean up.
			o.owner = fi
		} else if err := keepOwner(f, fi); err != nil {
			o.abort()
			return nil, fmt.Errorf("-out %s: %w", path, err)
		}
	}
	return o, nil
}

// createTemp makes the temporary file: mode 0600 while it is written (it
// holds plaintext when decrypting, whatever the final mode), and locked
// while this process lives, so that a later run can tell a stale file
// from a live one.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 10 {
		f, err := os.CreateTemp(dir, prefix+"*"+tempSuffix)
		if err != nil {
			return nil, err
		}
		temps.Store(f.Name(), true)
		ok, err := lockTemp(f)
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			temps.Delete(f.Name())
			return nil, err
		}
		if ok {
			return f, nil
		}
		// Another run took the new file for a stale one between its
		// creation and the lock, and removes it: make another.
		f.Close()
		temps.Delete(f.Name())
	}
	return nil, errors.New("could not create and lock a temporary file")
}

// commit makes the output final: the temporary file gets its mode, is
// flushed to disk, renamed over the target, and the directory is flushed,
// so that after a crash the path holds the old file or the whole new one.
func (o *output) commit() error {
	if o.tmp == "" {
		if o.close {
			if err := o.f.Close(); err != nil {
				return fmt.Errorf("-out: %w", err)
			}
		}
		return nil
	}
	fail := func(err error) error {
		o.abort()
		return fmt.Errorf("-out: %w", err)
	}
	if o.owner != nil {
		if err := keepOwner(o.f, o.owner); err != nil {
			return fail(err)
		}
	}
	// After chown, which clears setuid and setgid bits.
	if err := o.f.Chmod(o.mode); err != nil {
		return fail(err)
	}
	if !o.noSync {
		if err := o.f.Sync(); err != nil {
			return fail(err)
		}
	}
	// Renamed while still open (and locked), so no other run can take it
	// for a stale file in between.
	if err := os.Rename(o.tmp, o.target); err != nil {
		return fail(err)
	}
	temps.Delete(o.tmp)
	cerr := o.f.Close()
	if !o.noSync {
		if err := syncDir(filepath.Dir(o.target)); err != nil {
			return fmt.Errorf("-out %s: written, but flushing its directory to disk failed: %w", o.target, err)
		}
	}
	if cerr != nil {
		return fmt.Errorf("-out: %w", cerr)
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
