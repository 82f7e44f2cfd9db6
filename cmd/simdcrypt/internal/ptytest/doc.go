// Package ptytest gives the tool's tests a pseudo-terminal (Linux only), for
// what the command does on a terminal: password prompts, progress bars. It
// is test support for the command alone; no library package uses it.
package ptytest
