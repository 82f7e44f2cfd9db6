//go:build !amd64 || purego

package aes

import "crypto/cipher"

// cbcEncryptMultiLanes has no multi-buffer kernel to run on this build.
func cbcEncryptMultiLanes(cipher.Block, []CBCJob) bool { return false }

// cbcEncryptMultiKeysLanes runs no job on this build.
func cbcEncryptMultiKeysLanes([]cipher.Block, []CBCJob) func(int) bool {
	return func(int) bool { return false }
}
