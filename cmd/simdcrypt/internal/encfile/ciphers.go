package encfile

import (
	"crypto/cipher"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/simdcrypt/simdcrypt/aes"
	"github.com/simdcrypt/simdcrypt/aria"
	"github.com/simdcrypt/simdcrypt/chacha20"
	"github.com/simdcrypt/simdcrypt/ecb"
	"github.com/simdcrypt/simdcrypt/internal/modes"
	"github.com/simdcrypt/simdcrypt/parallel"
)

// Cipher is one entry of the table `-ciphers` lists: an OpenSSL cipher name
// with its key and IV lengths and a way to build the chunk transform.
type Cipher struct {
	Name   string // OpenSSL's name, lower case, without the leading dash
	KeyLen int    // bytes
	IVLen  int    // bytes; 0 when the mode takes no IV (ECB)
	// BlockLen is the length padding rounds up to (16 for ECB and CBC); 0
	// for modes that encrypt any length (CTR, ChaCha20).
	BlockLen int
	// Align is what every chunk but the last must be a multiple of, so
	// that a chunk's counter or chaining value can be computed from its
	// offset: the cipher's block (ChaCha20: 64 bytes).
	Align int

	newTransform func(key, iv []byte, decrypt bool) (transform, error)
}

// A transform encrypts or decrypts chunks in place. When parallel is set,
// crypt may run on several chunks at once and each call depends only on
// the chunk (its offset and, for CBC decryption, the ciphertext block
// before it); otherwise chunks are passed in stream order to one goroutine.
type transform struct {
	parallel bool
	crypt    func(c *chunk)
}

// seekable is the transform of a stream cipher with random access into its
// keystream (CTR, ChaCha20): each chunk runs on its own worker, at its
// offset. The workers, not package parallel, split the stream, so that
// each also reads its own chunk of a regular input file (see positional).
func seekable(s parallel.SeekableStream) transform {
	return transform{parallel: true, crypt: func(c *chunk) {
		s.XORKeyStreamAt(c.out(), c.in, c.off)
	}}
}

// blockFamily is one 128-bit block cipher package. Each package offers the
// same constructors, so adding a cipher is one entry in families.
type blockFamily struct{ modes.Package }

// families lists the 128-bit block ciphers; each gets ECB, CBC and CTR at
// each key size, named as OpenSSL names them.
var families = []blockFamily{
	{modes.Package{Cipher: "aes", KeySizes: []int{16, 24, 32}, NewCipher: aes.NewCipher, NewCTR: aes.NewCTR, NewCBCEncrypter: aes.NewCBCEncrypter, NewCBCDecrypter: aes.NewCBCDecrypter}},
	{modes.Package{Cipher: "aria", KeySizes: []int{16, 24, 32}, NewCipher: aria.NewCipher, NewCTR: aria.NewCTR, NewCBCEncrypter: aria.NewCBCEncrypter, NewCBCDecrypter: aria.NewCBCDecrypter}},
}

// streamCiphers holds the ciphers that are not a block cipher in a mode.
var streamCiphers = []Cipher{
	chachaCipher(func(key, nonce []byte) (parallel.SeekableStream, error) {
		return chacha20.NewUnauthenticatedCipher(key, nonce)
	}),
}

// aliases are OpenSSL's short names.
var aliases = map[string]string{}

var (
	table     map[string]*Cipher
	tableOnce sync.Once
)

// buildTable expands the families into cipher names once, after every
// init has added its family.
func buildTable() { tableOnce.Do(expandTable) }

func expandTable() {
	table = map[string]*Cipher{}
	for _, f := range families {
		for _, ks := range f.KeySizes {
			for _, mode := range []string{"ecb", "cbc", "ctr"} {
				c := &Cipher{Name: fmt.Sprintf("%s-%d-%s", f.Cipher, ks*8, mode), KeyLen: ks, Align: 16}
				switch mode {
				case "ecb":
					c.BlockLen = 16
					c.newTransform = f.keyed(f.ecb)
				case "cbc":
					c.IVLen, c.BlockLen = 16, 16
					c.newTransform = f.keyed(f.cbc)
				case "ctr":
					c.IVLen = 16
					c.newTransform = f.keyed(f.ctr)
				}
				table[c.Name] = c
			}
			aliases[fmt.Sprintf("%s%d", f.Cipher, ks*8)] = fmt.Sprintf("%s-%d-cbc", f.Cipher, ks*8)
		}
	}
	for i := range streamCiphers {
		table[streamCiphers[i].Name] = &streamCiphers[i]
	}
}

// Lookup finds a cipher by OpenSSL name (case-insensitive, aliases such as
// aes128 included).
func Lookup(name string) (*Cipher, bool) {
	buildTable()
	name = strings.ToLower(name)
	if a, ok := aliases[name]; ok {
		name = a
	}
	c, ok := table[name]
	return c, ok
}

// Ciphers returns every cipher name, sorted.
func Ciphers() []string {
	buildTable()
	var names []string
	for n := range table {
		names = append(names, n)
	}
	for a := range aliases {
		names = append(names, a)
	}
	sort.Strings(names)
	return names
}

// keyed turns a mode, which runs over a keyed block, into the transform
// constructor of a cipher name, which keys the block first.
func (f blockFamily) keyed(mode func(b cipher.Block, iv []byte, decrypt bool) (transform, error)) func(key, iv []byte, decrypt bool) (transform, error) {
	return func(key, iv []byte, decrypt bool) (transform, error) {
		b, err := f.NewCipher(key)
		if err != nil {
			return transform{}, err
		}
		return mode(b, iv, decrypt)
	}
}

func (f blockFamily) ecb(b cipher.Block, _ []byte, decrypt bool) (transform, error) {
	mode := ecb.NewEncrypter(b)
	if decrypt {
		mode = ecb.NewDecrypter(b)
	}
	// ECB modes hold no state between calls, so one serves every worker.
	return transform{parallel: true, crypt: func(c *chunk) {
		mode.CryptBlocks(c.out(), c.in)
	}}, nil
}

func (f blockFamily) cbc(b cipher.Block, iv []byte, decrypt bool) (transform, error) {
	if !decrypt {
		// Each block chains on the previous ciphertext: one goroutine,
		// one mode carrying the chaining value from chunk to chunk.
		mode, err := f.NewCBCEncrypter(b, iv)
		if err != nil {
			return transform{}, err
		}
		return transform{crypt: func(c *chunk) { mode.CryptBlocks(c.out(), c.in) }}, nil
	}
	if _, err := f.NewCBCDecrypter(b, iv); err != nil {
		return transform{}, err
	}
	// Decryption needs only the ciphertext block before the chunk, which
	// the reader records before the chunk is decrypted in place.
	return transform{parallel: true, crypt: func(c *chunk) {
		mode, err := f.NewCBCDecrypter(b, c.prev[:])
		if err != nil {
			panic(err) // the IV length was checked above
		}
		mode.CryptBlocks(c.out(), c.in)
	}}, nil
}

func (f blockFamily) ctr(b cipher.Block, iv []byte, _ bool) (transform, error) {
	s, err := f.NewCTR(b, iv)
	if err != nil {
		return transform{}, err
	}
	if at, ok := s.(parallel.SeekableStream); ok {
		return seekable(at), nil
	}
	// Without random access: one stream, chunk after chunk.
	return transform{crypt: func(c *chunk) { s.XORKeyStream(c.out(), c.in) }}, nil
}
