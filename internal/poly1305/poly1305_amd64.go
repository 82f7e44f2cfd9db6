//go:build amd64 && !purego

package poly1305

// powers is empty until the vector paths exist.
type powers struct{}

var built = [numPaths]bool{Generic: true}

// blocks absorbs whole 16-byte blocks (2^128 bit set) on path p.
func blocks(st *state, p Path, msg []byte) { blocksGeneric(st, msg, 1) }
