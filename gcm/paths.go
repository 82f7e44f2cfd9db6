package gcm

import (
	"crypto/cipher"
	"encoding/binary"
	"fmt"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// path is one GCM code path. Every path but stdlib enters the catalogue
// (table, below), which dispatch, the tests, and simdcrypt's cpu and speed
// tools read.
type path struct {
	Name     string
	Requires []cpu.Feature // all must be usable (detected, not masked)
	// Wide marks the 512-bit path, which dispatch passes over while
	// cpu.Prefer256 is usable (the catalogue's rule).
	Wide  bool
	Notes string
	// New returns the AEAD over b, or nil when the path does not serve b.
	// b has 16-byte blocks; nonceSize is positive, or randomNonce for
	// NewWithRandomNonce; tagSize is 12..16.
	New func(b cipher.Block, nonceSize, tagSize int) cipher.AEAD
}

// paths is built by the per-architecture files (pathList): stdlib first
// (it serves only the blocks that run on crypto/aes), then the kernels,
// widest first, then generic, which serves every block.
var paths = pathList()

// table is gcm's dispatch over the catalogue: every path but stdlib, which
// is not a CPU choice but a block's (choose tries it first), so the
// catalogue's Choose walks the kernels and ends at generic.
var table = func() *catalog.Table[path] {
	var entries []catalog.Entry[path]
	for _, p := range paths[1:] {
		p := p
		entries = append(entries, catalog.Entry[path]{Impl: p, Path: &catalog.Path{
			Cipher: cipherName, Name: p.Name, Requires: p.Requires, Wide: p.Wide, Notes: p.Notes,
			Ops: catalog.AEADOps,
			NewAEADOver: func(b cipher.Block) (cipher.AEAD, error) {
				return newPath(p.Name, b, standardNonceSize, standardTagSize)
			},
		}})
	}
	return catalog.NewTable(cipherName, entries...)
}()

// cipherName is gcm's name in the catalogue and in dispatch.Chosen.
const cipherName = "gcm"

// stdlibBlock is implemented by AES kernels that run on crypto/aes (the AES
// path off amd64): crypto/cipher's own GCM over that block is the fastest
// code the platform has.
type stdlibBlock interface {
	StdlibBlock() cipher.Block
}

var stdlibPath = path{
	Name:     "stdlib",
	Requires: []cpu.Feature{cpu.Stdlib}, // all=off and stdlib=off mask it
	Notes:    "crypto/cipher's GCM over crypto/aes, for AES blocks that run on crypto/aes",
	New: func(b cipher.Block, nonceSize, tagSize int) cipher.AEAD {
		mb, ok := b.(*modes.Block)
		if !ok {
			return nil
		}
		sb, ok := mb.Kernels().(stdlibBlock)
		if !ok {
			return nil
		}
		var a cipher.AEAD
		var err error
		switch {
		case nonceSize != standardNonceSize && tagSize != standardTagSize:
			return nil // crypto/cipher offers one or the other
		case nonceSize == randomNonce:
			a, err = cipher.NewGCMWithRandomNonce(sb.StdlibBlock())
		case tagSize != standardTagSize:
			a, err = cipher.NewGCMWithTagSize(sb.StdlibBlock(), tagSize)
		default:
			a, err = cipher.NewGCMWithNonceSize(sb.StdlibBlock(), nonceSize)
		}
		if err != nil {
			return nil
		}
		return a
	},
}

var genericPath = path{
	Name:  "generic",
	Notes: "portable: the block's counter-mode kernel (or its Encrypt) and a GHASH of integer multiplies, no secret-indexed table",
	New: func(b cipher.Block, nonceSize, tagSize int) cipher.AEAD {
		if mb, ok := b.(*modes.Block); ok {
			return newGCM(newKernelsBackend(mb.Kernels(), ghashPortable), nonceSize, tagSize, "generic")
		}
		return newGCM(newBlockBackend(b), nonceSize, tagSize, "generic")
	},
}

// hashKeyOf derives the GHASH key from a block function.
func hashKeyOf(encrypt func(dst, src []byte)) *hashKey {
	var z [16]byte
	encrypt(z[:], z[:])
	k := newHashKey(&z)
	clear(z[:])
	return k
}

// blockBackend is GCM over any cipher.Block, one block at a time.
type blockBackend struct {
	b  cipher.Block
	hk *hashKey
}

func newBlockBackend(b cipher.Block) *blockBackend {
	return &blockBackend{b: b, hk: hashKeyOf(b.Encrypt)}
}

func (k *blockBackend) encrypt(c [16]byte) [16]byte {
	k.b.Encrypt(c[:], c[:])
	return c
}

func (k *blockBackend) ghash(y [16]byte, blocks []byte) [16]byte {
	ghashGeneric(k.hk.h, &y, blocks)
	return y
}

func (k *blockBackend) ghashBlock(y, x [16]byte) [16]byte {
	ghashGeneric(k.hk.h, &y, x[:])
	return y
}

func (k *blockBackend) ghashWords(y [16]byte, hi, lo uint64) [16]byte {
	foldWords(k.hk, &y, hi, lo)
	return y
}

func (k *blockBackend) xor(dst, src []byte, c [16]byte) [16]byte {
	var ks [16]byte
	for len(src) >= blockSize {
		k.b.Encrypt(ks[:], c[:])
		c = inc32(c)
		for i := range ks {
			dst[i] = src[i] ^ ks[i]
		}
		dst, src = dst[blockSize:], src[blockSize:]
	}
	return c
}

func (k *blockBackend) seal(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte) {
	c = k.xor(dst, src, c)
	return c, k.ghash(y, dst)
}

func (k *blockBackend) open(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte) {
	y = k.ghash(y, src)
	return k.xor(dst, src, c), y
}

// chunkSize is the two-pass unit of kernelsBackend: counter mode over a
// chunk, then GHASH over it while it is still in cache. It is as large as
// L1-and-L2 residency allows because a counter-mode call has a fixed cost
// (ARIA's bit-sliced kernels spend about 100 ns setting up) that smaller
// chunks would pay several times per message.
const chunkSize = 16384

// kernelsBackend is GCM over a simdcrypt block's counter-mode kernel (ARIA,
// or AES on a path without a stitched kernel) and a separate GHASH.
type kernelsBackend struct {
	k  modes.Kernels
	hk *hashKey
	gh ghashKind
	// st, when not nil, is the block's counter mode with this GHASH
	// stitched in (stitch_amd64.go), which seal and open run first.
	st stitcher
}

// stitcher is a counter-mode kernel that also hashes (ARIA's AVX-512 one):
// see aria's CTRGHASH. It takes whole batches of batchBytes and reports
// false, doing nothing, where its path has no such kernel.
type stitcher interface {
	CTRGHASH(dst, src []byte, ctr [16]byte, hk *byte, y [16]byte, seal bool) (next [16]byte, sum [16]byte, ok bool)
	// EncryptBlock returns E_K(b), with no heap allocation.
	EncryptBlock(b [16]byte) [16]byte
}

func newKernelsBackend(k modes.Kernels, gh ghashKind) *kernelsBackend {
	b := &kernelsBackend{k: k, hk: hashKeyOf(k.EncryptBlocks), gh: gh, st: stitcherFor(k, gh)}
	b.hk.powers(gh)
	return b
}

// encrypt runs one block through the CBC-encryption kernel with a zero IV,
// which is the block cipher itself: for ARIA that kernel is a one-block
// one, where EncryptBlocks pads a single block out to a whole bit-sliced
// batch.
func (k *kernelsBackend) encrypt(c [16]byte) [16]byte {
	if k.st != nil {
		return k.st.EncryptBlock(c)
	}
	var s struct{ block, iv [16]byte }
	s.block = c
	k.k.CBCEncrypt(s.block[:], s.block[:], &s.iv)
	return s.block
}

func (k *kernelsBackend) ghash(y [16]byte, blocks []byte) [16]byte {
	ghashWith(k.gh, k.hk, &y, blocks)
	return y
}

func (k *kernelsBackend) ghashBlock(y, x [16]byte) [16]byte {
	ghashWith(oneBlockKind(k.gh), k.hk, &y, x[:])
	return y
}

func (k *kernelsBackend) ghashWords(y [16]byte, hi, lo uint64) [16]byte {
	ghashWordsWith(k.gh, k.hk, &y, hi, lo)
	return y
}

// xor runs the CTR kernel, whose counter is 64 bits wide, in calls that
// stop where GCM's 32-bit counter wraps, and puts the 32-bit wrap back
// after each.
func (k *kernelsBackend) xor(dst, src []byte, c [16]byte) [16]byte {
	for len(src) > 0 {
		low := binary.BigEndian.Uint32(c[12:])
		n := uint64(len(src) / blockSize)
		if room := 1<<32 - uint64(low); n > room {
			n = room
		}
		next := c
		binary.BigEndian.PutUint32(next[12:], low+uint32(n))
		k.k.CTR(dst[:n*blockSize], src[:n*blockSize], &c)
		c = next
		dst, src = dst[n*blockSize:], src[n*blockSize:]
	}
	return c
}

func (k *kernelsBackend) seal(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte) {
	if k.st != nil {
		dst, src, c, y = k.stitched(dst, src, c, y, true)
	}
	for len(src) > 0 {
		n := min(len(src), chunkSize)
		c = k.xor(dst[:n], src[:n], c)
		ghashWith(k.gh, k.hk, &y, dst[:n])
		dst, src = dst[n:], src[n:]
	}
	return c, y
}

func (k *kernelsBackend) open(dst, src []byte, c, y [16]byte) ([16]byte, [16]byte) {
	if k.st != nil {
		dst, src, c, y = k.stitched(dst, src, c, y, false)
	}
	for len(src) > 0 {
		n := min(len(src), chunkSize)
		ghashWith(k.gh, k.hk, &y, src[:n])
		c = k.xor(dst[:n], src[:n], c)
		dst, src = dst[n:], src[n:]
	}
	return c, y
}

// newPath builds the AEAD of one named path, whether or not dispatch would
// choose it: for the tests and the catalogue.
func newPath(name string, b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	if b.BlockSize() != blockSize {
		return nil, errBlockSize
	}
	if tagSize < minimumTagSize || tagSize > blockSize {
		return nil, errTagSize
	}
	if nonceSize < 0 {
		return nil, errNonceSize
	}
	for _, p := range paths {
		if p.Name != name {
			continue
		}
		if !cpu.HasAll(p.Requires...) {
			return nil, fmt.Errorf("gcm: path %s needs %v", name, p.Requires)
		}
		a := p.New(b, nonceSize, tagSize)
		if a == nil {
			return nil, fmt.Errorf("gcm: path %s does not serve %T", name, b)
		}
		return a, nil
	}
	return nil, fmt.Errorf("gcm: no path %s", name)
}

// pathOf names the path behind an AEAD from this package.
func pathOf(a cipher.AEAD) string {
	switch a := a.(type) {
	case *aead:
		return a.path
	case *randomNonceAEAD:
		return a.g.path
	}
	return "stdlib"
}
