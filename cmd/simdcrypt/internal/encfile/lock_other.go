//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package encfile

import "os"

// Without flock a live run's temporary file cannot be told from a stale
// one, so none is removed: a killed run's file stays (mode 0600) until
// removed by hand.

func lockTemp(*os.File) (bool, error) { return true, nil }

func removeStaleTemps(dir, prefix string) {}
