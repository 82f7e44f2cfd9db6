//go:build !amd64 || purego

package gcm

// ghashKind selects a GHASH implementation; off amd64 only the portable
// one exists.
type ghashKind uint8

const ghashPortable ghashKind = 0

func ghashWith(_ ghashKind, hk *hashKey, y *[16]byte, blocks []byte) {
	ghashGeneric(hk.h, y, blocks)
}

// ghashWordsWith folds the block of big-endian words hi and lo into *y.
func ghashWordsWith(_ ghashKind, hk *hashKey, y *[16]byte, hi, lo uint64) {
	foldWords(hk, y, hi, lo)
}

// powers has nothing to fill in: the portable GHASH reads h alone.
func (k *hashKey) powers(ghashKind) {}

func pathList() []path { return []path{stdlibPath, genericPath} }

// aesBackend exists on amd64 only; aead.fast stays nil elsewhere.
type aesBackend struct{}

func (*aesBackend) seal(out, nonce, plaintext, ad []byte, tagSize int) {}

func (*aesBackend) open(out, nonce, ciphertext, ad []byte, tagSize int) bool { return false }
