//go:build amd64 && !purego

package chacha20

const purego = false
