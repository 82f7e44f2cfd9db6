package bench

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"

	xcp "golang.org/x/crypto/chacha20poly1305"
	xpoly "golang.org/x/crypto/poly1305" //nolint:staticcheck // the baseline
	xxts "golang.org/x/crypto/xts"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/aria"
	_ "github.com/simdcrypt/simdcrypt/chacha20poly1305" // the AEADs and XTS speed measures: their paths enter the catalogue
	_ "github.com/simdcrypt/simdcrypt/gcm"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	_ "github.com/simdcrypt/simdcrypt/xts"
)

// gcmCiphers are the block ciphers GCM is measured over, each through its
// package's dispatched block; base is crypto/cipher's GCM over crypto/aes,
// the "stdlib" baseline (nil for ARIA, which Go lacks).
var gcmCiphers = []struct {
	name     string
	keyBytes int
	newBlock func([]byte) (cipher.Block, error)
	base     func([]byte) (cipher.Block, error)
}{
	{"aes-128-gcm", 16, aes.NewCipher, stdaes.NewCipher},
	{"aes-256-gcm", 32, aes.NewCipher, stdaes.NewCipher},
	{"aria-128-gcm", 16, aria.NewCipher, nil},
}

// xtsCiphers are the XTS variants measured: the key is two AES keys.
var xtsCiphers = []struct {
	name     string
	keyBytes int
}{{"aes-128-xts", 32}, {"aes-256-xts", 64}}

// XTSSlopeSizes are the slope sizes of the XTS rows: disk sectors of 512
// bytes and 4 KiB, then the larger calls of DefaultSlopeSizes.
var XTSSlopeSizes = []int{512, 4096, 8192, 16384}

// aeadCiphers names the target of each key-taking AEAD in the catalogue,
// with x/crypto's constructor as its baseline.
var aeadCiphers = map[string]struct {
	name string
	base func([]byte) (cipher.AEAD, error)
}{
	"chacha20poly1305":  {"chacha20-poly1305", xcp.New},
	"xchacha20poly1305": {"xchacha20-poly1305", xcp.NewX},
}

// directionOf maps the AEAD and XTS operations onto the table's
// directions: Seal and XTS encryption encrypt, Open and XTS decryption
// decrypt (so "gcm-enc", and openssl's -decrypt, read as they should).
func directionOf(op catalog.Op) string {
	if op == catalog.Open || op == catalog.XTSDecrypt {
		return "decrypt"
	}
	return "encrypt"
}

// modeTargets returns the targets of a catalogue cipher whose paths are
// modes or AEADs (NewAEADOver, NewXTS, NewAEAD), and false for a block or
// stream cipher.
func modeTargets(fam string, impls []*catalog.Path, chosen *catalog.Path) ([]*Target, bool) {
	var out []*Target
	add := func(t *Target, i *catalog.Path, op catalog.Op) {
		if i == nil {
			t.Impl, t.Baseline = Baselines[fam].Impl, true
		} else {
			t.Impl, t.Default, t.VariantOf = i.Name, i == chosen, i.VariantOf
			t.Kernel = kernelOf(i, op)
		}
		out = append(out, t)
	}
	switch first := impls[0]; {
	case first.NewAEADOver != nil:
		for _, g := range gcmCiphers {
			for _, op := range first.Ops {
				mk := func() *Target {
					return &Target{Family: fam, Cipher: g.name, Mode: "gcm", KeyBits: g.keyBytes * 8,
						Direction: directionOf(op), Align: 1}
				}
				if g.base != nil {
					t := mk()
					base := g.base
					t.New = aeadOp(func(key []byte) (cipher.AEAD, error) {
						b, err := base(key)
						if err != nil {
							return nil, err
						}
						return cipher.NewGCM(b)
					}, g.keyBytes, op)
					add(t, nil, op)
				}
				for _, i := range impls {
					t := mk()
					newAEAD, newBlock := i.NewAEADOver, g.newBlock
					t.New = aeadOp(func(key []byte) (cipher.AEAD, error) {
						b, err := newBlock(key)
						if err != nil {
							return nil, err
						}
						return newAEAD(b)
					}, g.keyBytes, op)
					add(t, i, op)
				}
			}
		}
	case first.NewXTS != nil:
		for _, x := range xtsCiphers {
			for _, op := range first.Ops {
				mk := func() *Target {
					return &Target{Family: fam, Cipher: x.name, Mode: "xts", KeyBits: x.keyBytes * 4,
						Direction: directionOf(op), Align: 16, SlopeSizes: XTSSlopeSizes}
				}
				t := mk()
				t.New = xtsOp(func(key []byte) (catalog.Sectors, error) { return xxts.NewCipher(stdaes.NewCipher, key) }, x.keyBytes, op)
				add(t, nil, op)
				for _, i := range impls {
					t := mk()
					newXTS := i.NewXTS
					t.New = xtsOp(func(key []byte) (catalog.Sectors, error) { return newXTS(aes.NewCipher, key) }, x.keyBytes, op)
					add(t, i, op)
				}
			}
		}
	case first.NewAEAD != nil:
		a, ok := aeadCiphers[fam]
		if !ok {
			return nil, false
		}
		for _, op := range first.Ops {
			mk := func() *Target {
				return &Target{Family: fam, Cipher: a.name, Mode: "aead", KeyBits: 256, Direction: directionOf(op), Align: 1}
			}
			t := mk()
			t.New = aeadOp(a.base, 32, op)
			add(t, nil, op)
			for _, i := range impls {
				t := mk()
				t.New = aeadOp(i.NewAEAD, 32, op)
				add(t, i, op)
			}
		}
	case first.NewAuthenticator != nil:
		mk := func() *Target {
			return &Target{Family: fam, Cipher: fam, Mode: "mac", KeyBits: 256, Direction: "encrypt", Align: 1}
		}
		t := mk()
		t.New = macOp(func(key *[32]byte) catalog.Authenticator { return xpoly.New(key) })
		add(t, nil, catalog.MAC)
		for _, i := range impls {
			t := mk()
			t.New = macOp(i.NewAuthenticator)
			add(t, i, catalog.MAC)
		}
	default:
		return nil, false
	}
	return out, true
}

// macOp measures a one-time MAC as a caller uses it: a MAC per message
// (New, Write, Sum), the tag appended to dst[:0].
func macOp(newMAC func(key *[32]byte) catalog.Authenticator) func() (Op, error) {
	return func() (Op, error) {
		key := (*[32]byte)(benchKey(32))
		return func(dst, src []byte) {
			m := newMAC(key)
			m.Write(src)
			m.Sum(dst[:0])
		}, nil
	}
}

// aeadOp measures Seal, or Open, through cipher.AEAD with a fixed nonce and
// no additional data. Seal writes into dst's spare capacity when it has
// room for the tag (the engine's buffers do), else into a buffer of its
// own. Open opens a sealed copy of the message, made when the size changes
// (the source buffer holds plaintext), into dst.
func aeadOp(newAEAD func([]byte) (cipher.AEAD, error), keyLen int, op catalog.Op) func() (Op, error) {
	return func() (Op, error) {
		a, err := newAEAD(benchKey(keyLen))
		if err != nil {
			return nil, err
		}
		nonce := make([]byte, a.NonceSize())
		var spare, sealed []byte
		if op == catalog.Seal {
			return func(dst, src []byte) {
				out := dst[:0]
				if cap(dst) < len(src)+a.Overhead() {
					if cap(spare) < len(src)+a.Overhead() {
						spare = make([]byte, 0, len(src)+a.Overhead())
					}
					out = spare[:0]
				}
				a.Seal(out, nonce, src, nil)
			}, nil
		}
		return func(dst, src []byte) {
			if len(sealed) != len(src)+a.Overhead() {
				sealed = a.Seal(nil, nonce, src, nil)
			}
			if _, err := a.Open(dst[:0], nonce, sealed, nil); err != nil {
				panic(fmt.Sprintf("bench: Open of a message just sealed failed: %v", err))
			}
		}, nil
	}
}

// xtsOp measures XTS on whole sectors of the buffer's length, sector 0.
func xtsOp(newXTS func(key []byte) (catalog.Sectors, error), keyLen int, op catalog.Op) func() (Op, error) {
	return func() (Op, error) {
		c, err := newXTS(benchKey(keyLen))
		if err != nil {
			return nil, err
		}
		if op == catalog.XTSDecrypt {
			return func(dst, src []byte) { c.Decrypt(dst[:len(src)], src, 0) }, nil
		}
		return func(dst, src []byte) { c.Encrypt(dst[:len(src)], src, 0) }, nil
	}
}
