//go:build !unix

package testkit

// Guarded is unavailable without mmap; callers skip with a message.
func Guarded(n int, atEnd bool) (buf []byte, free func(), ok bool) { return nil, nil, false }
