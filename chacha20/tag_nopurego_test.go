//go:build !purego

package chacha20

// puregoTag reports whether the purego build tag is set.
const puregoTag = false
