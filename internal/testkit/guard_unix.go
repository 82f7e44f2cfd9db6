//go:build unix

package testkit

import (
	"os"

	"golang.org/x/sys/unix"
)

// Guarded returns an n-byte slice flush against an inaccessible (PROT_NONE)
// page: after its last byte when atEnd, else before its first byte. Another
// PROT_NONE page guards the far side too. A kernel that reads or writes even
// one byte outside the slice faults and kills the test binary. free unmaps
// the memory.
func Guarded(n int, atEnd bool) (buf []byte, free func(), ok bool) {
	page := os.Getpagesize()
	dataPages := (n + page - 1) / page
	if dataPages == 0 {
		dataPages = 1
	}
	mem, err := unix.Mmap(-1, 0, (dataPages+2)*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false
	}
	if unix.Mprotect(mem[:page], unix.PROT_NONE) != nil || unix.Mprotect(mem[(dataPages+1)*page:], unix.PROT_NONE) != nil {
		unix.Munmap(mem)
		return nil, nil, false
	}
	start := page
	if atEnd {
		start = (dataPages+1)*page - n
	}
	return mem[start : start+n : start+n], func() { unix.Munmap(mem) }, true
}
