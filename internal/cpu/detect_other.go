//go:build !amd64 || purego

package cpu

// detect finds nothing: off amd64, and with the purego tag, every cipher
// runs its portable Go code.
func detect() {}
