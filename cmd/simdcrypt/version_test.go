package main

import (
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/simdcrypt/simdcrypt", Version: "v1.2.3"}},
			"simdcrypt v1.2.3 go1.26.1 " + platform},
		{&debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}},
			"simdcrypt (devel) (commit 0123456789ab, modified) go1.26.1 " + platform},
		{nil, "simdcrypt (unknown) " + runtime.Version() + " " + platform},
	} {
		if got := versionLine(tc.bi); got != tc.want {
			t.Errorf("versionLine = %q, want %q", got, tc.want)
		}
	}
}

// TestVersionCommand runs the built binary: one line, exit 0, the
// toolchain it was built with.
func TestVersionCommand(t *testing.T) {
	out, err := exec.Command(simdcryptBinary(t), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	line := string(out)
	if !strings.HasPrefix(line, "simdcrypt ") || strings.Count(line, "\n") != 1 || !strings.Contains(line, runtime.Version()) {
		t.Errorf("simdcrypt version printed %q", line)
	}
}
