//go:build purego

package aes

// puregoTag reports whether the purego build tag is set.
const puregoTag = true
