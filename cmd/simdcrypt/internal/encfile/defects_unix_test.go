//go:build unix

package encfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReplaceKeepsOwnerAndMode (D2): replacing an existing output keeps
// its owner, group and mode, setuid, setgid and sticky bits included. As
// root the file is given to another user first; otherwise to one of the
// caller's other groups when there is one.
func TestReplaceKeepsOwnerAndMode(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.WriteFile(out, []byte("old"), 0o600)
	uid, gid := os.Getuid(), os.Getgid()
	mode := os.FileMode(0o604)
	if uid == 0 {
		uid, gid = 12345, 23456
		mode |= os.ModeSetgid | os.ModeSetuid | os.ModeSticky
	} else if groups, _ := os.Getgroups(); len(groups) > 1 {
		for _, g := range groups {
			if g != gid {
				gid = g
				break
			}
		}
	} else {
		t.Log("not root and in one group only: owner and group are the caller's; checking the mode only")
	}
	if err := os.Chown(out, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, mode); err != nil {
		t.Fatal(err)
	}
	k := strings.Repeat("00", 16)
	if r := run(t, []byte("new content"), 0, "-aes-128-ctr", "-K", k, "-iv", k, "-out", out); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != int64(len("new content")) {
		t.Errorf("output not replaced: %d bytes", fi.Size())
	}
	st := fi.Sys().(*syscall.Stat_t)
	if int(st.Uid) != uid || int(st.Gid) != gid {
		t.Errorf("owner %d:%d after replacing, want %d:%d kept", st.Uid, st.Gid, uid, gid)
	}
	keep := os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky
	if fi.Mode()&keep != mode {
		t.Errorf("mode %v after replacing, want %v kept", fi.Mode()&keep, mode)
	}
	assertOnly(t, dir, "out")
}
