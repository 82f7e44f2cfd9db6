package testkit

import "unsafe"

func unsafeAdd(b *byte, off int) *byte { return (*byte)(unsafe.Add(unsafe.Pointer(b), off)) }
