package chacha20poly1305

import (
	"crypto/subtle"

	"github.com/simdcrypt/simdcrypt/internal/poly1305"
)

// Messages past the one-call kernels' reach up to midMax bytes (and those
// with more additional data than they take), on AEADs whose keystream is
// AVX-512's (see aead.mid), take keystream blocks 0 on from one call of
// keystream8, 12, 16 or 20 (midKeystream): two to five sets of ZMM rows side by
// side, block 0 (the MAC key) included. The rounds are a chain of
// dependent two-cycle operations on Zen 5, so four sets cost about 1.5
// times one (about 180 ns against 120), while the chacha20 package's
// 16-block word-sliced kernel, through its stream, took about 340 ns for
// 600 bytes, and block 0 another 90. The MAC then runs on the AEAD's own
// path over the message in place. Measured on Zen 5, Seal at 480 to 768
// bytes: about 0.65-0.8x x/crypto before, 1.0-1.4x after. Seal takes
// kernels that XOR the plaintext with the keystream themselves
// (midXOR): no keystream buffer to zero, fill, read back and wipe.
// Five sets (blocks 0 to 19) take messages up to 1216 bytes: measured on
// Zen 5, ratio to x/crypto, 1000 bytes about 0.8x on the two passes, Seal
// 1.5x here; 1 KiB Seal 1.25x and 1.65x.
const midMax = 19 * 64

// sealMidMax is the longest message Seal takes on the mid path: midXOR
// goes on with a second call, blocks 20 to 39 (xorKeystreamAt*); Open
// past midMax takes openAt (measured as for Seal, two runs: 1300 bytes
// 1.19-1.21x -> 1.31-1.43x, 1600 1.12-1.16x -> 1.30-1.40x, 2000
// 1.13-1.16x -> 1.55-1.67x). Measured
// on Zen 5, Seal ratio to x/crypto, same run, two passes -> here: 1300
// bytes 0.90x -> 1.37x, 1600 1.06x -> 1.49x, 2000 1.03x -> 1.73x, 2200
// 1.37x -> 1.75x; but 2048 bytes 1.96x -> 1.76x, the two passes' keystream
// there being exactly two of the chacha20 package's 16-block batches, so
// that length keeps them (midTakes).
const sealMidMax = 39 * 64

// midTakes reports whether Seal or Open of n bytes takes the mid path
// (sealMid, openMid, openAt).
func (a *aead) midTakes(n int) bool { return a.mid && n <= sealMidMax && n != 32*64 }

// sealMid is Seal for a message of up to midMax bytes.
func (a *aead) sealMid(ciphertext, plaintext, ad []byte, tag *[Overhead]byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) {
	var mk [32]byte
	midXOR(&mk, ciphertext, plaintext, key, nonce12)
	var mac poly1305.MAC
	a.midMAC(&mac, &mk, ad, ciphertext)
	mac.Sum(tag[:0])
}

// openMid is Open for a message of up to midMax bytes (past that, openAt):
// it writes the plaintext to out only if tag is right.
func (a *aead) openMid(out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	if len(ciphertext) > midMax {
		return a.openAt(out, ciphertext, ad, tag, key, nonce12)
	}
	var ks [64 * 20]byte
	midKeystream(&ks, len(ciphertext), key, nonce12)
	var mac poly1305.MAC
	a.midMAC(&mac, (*[32]byte)(ks[:32]), ad, ciphertext)
	ok := mac.Verify(tag)
	if ok {
		subtle.XORBytes(out, ciphertext, ks[64:])
	}
	clear(ks[:])
	return ok
}

// openAt is Open for a message past midMax bytes up to sealMidMax: block 0
// alone (the block0 kernel) for the MAC key, the MAC over the ciphertext,
// then, if the tag is right, the plaintext straight from xorAt into out.
func (a *aead) openAt(out, ciphertext, ad, tag []byte, key *[KeySize]byte, nonce12 *[NonceSize]byte) bool {
	var mk [32]byte
	macKey(&mk, key, nonce12[:])
	var mac poly1305.MAC
	a.midMAC(&mac, &mk, ad, ciphertext)
	if !mac.Verify(tag) {
		return false
	}
	xorAt(out, ciphertext, key, nonce12, 1)
	return true
}

// midMAC keys mac with mk (from block 0), wipes that key and absorbs the
// AEAD's MAC input for ad and ct.
func (a *aead) midMAC(mac *poly1305.MAC, mk *[32]byte, ad, ct []byte) {
	keyMAC(mac, mk, a.mac, ad)
	mac.Write(ct)
	finish(mac, len(ad), len(ct))
}
