//go:build !amd64 || purego

package poly1305

// powers is empty: no vector path exists on this build.
type powers struct{}

var built = [numPaths]bool{Generic: true}

// blocks absorbs whole 16-byte blocks (2^128 bit set) on the portable path,
// the only one this build has.
func blocks(st *state, _ Path, msg []byte, _ *powers) { blocksGeneric(&st.core, msg, 1) }

// blocksScalar is blocks for a core alone.
func blocksScalar(c *core, _ Path, msg []byte) { blocksGeneric(c, msg, 1) }
