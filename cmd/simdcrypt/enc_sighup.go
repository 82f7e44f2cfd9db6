//go:build !js

package main

import "syscall"

// A closed terminal (SIGHUP) ends a run like Ctrl-C: no temporary file is
// left behind.
func init() { stopSignals = append(stopSignals, syscall.SIGHUP) }
