//go:build !amd64 || purego

package xts

// No assembly here: every cipher runs the portable path.
var asmPaths []*xtsPath

func cryptAsm(k kernel, keys *aesKeys, dst, src []byte, tweakLo, tweakHi uint64, decrypt bool) {
	panic("xts: no kernels on this platform")
}
