package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
)

// runVersion is `simdcrypt version`: the module version the binary was
// built from, as the go command recorded it.
func runVersion(args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(os.Stderr, "usage: simdcrypt version")
		return 2
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Println(versionLine(bi))
	return 0
}

// versionLine is one line: the module version (a tag for `go install
// ...@v1.2.3`, "(devel)" for a build in a checkout), the commit when the go
// command recorded one, and the toolchain and platform.
func versionLine(bi *debug.BuildInfo) string {
	version, goVersion := "(unknown)", runtime.Version()
	var rev, modified string
	if bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", modified"
				}
			}
		}
	}
	line := "simdcrypt " + version
	if rev != "" {
		line += fmt.Sprintf(" (commit %.12s%s)", rev, modified)
	}
	return line + " " + goVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
}
