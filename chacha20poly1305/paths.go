package chacha20poly1305

import (
	"crypto/cipher"
	"errors"
	"fmt"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/poly1305"
)

// path is one code path of the AEAD, as plain data for the catalogue: the
// Poly1305 path it authenticates with (the ChaCha20 keystream takes the
// chacha20 package's own dispatch, under the same mask), what that needs,
// and constructors pinned to it.
type path struct {
	Name     string
	Requires []cpu.Feature
	Notes    string
	New      func(key []byte) (cipher.AEAD, error) // ChaCha20-Poly1305
	NewX     func(key []byte) (cipher.AEAD, error) // XChaCha20-Poly1305
	mac      poly1305.Path
	stitched bool // ChaCha20 and Poly1305 in one loop (stitched.go)
	wide     bool // 512-bit vectors (ifma): passed over while cpu.Prefer256 is usable
}

// Available reports whether this build and CPU (under the mask) can run p.
func (p *path) Available() bool {
	if p.stitched && !(stitchedBuilt && cpu.HasAll(p.Requires...)) {
		return false
	}
	return p.mac.Available()
}

// oneCall returns the one-call kernels (sealOne, openOne) AEADs on p take
// for messages past the short path up to oneMax bytes, nil for none: on
// the stitched path, and on ifma where AVX2 and MULX are usable (measured
// on Zen 5 at 256 bytes: ifma's two passes about 0.7x x/crypto, the
// word-sliced one call about 0.9x); there in ZMM where AVX-512 may run.
func (p *path) oneCall() []oneLayout {
	switch {
	case p.stitched:
		return oneLayouts(false)
	case p.mac == poly1305.IFMA && haveKeystream4AVX2() && poly1305.MULX.Available():
		return oneLayouts(haveKeystream4())
	}
	return nil
}

var pathNotes = map[poly1305.Path]string{
	poly1305.IFMA:    "Poly1305 16 blocks per step (two interleaved chains of 8 lanes) in radix 2^44 with AVX-512 IFMA; under 256 bytes, mulx; up to 64 bytes with additional data up to 16, the fused call (block 1 in YMM rows with VPROLD, sealShortVL, openShortVL; on Zen 5 after its first double rounds in general registers, sealShortLeadVL, openShortLeadVL); 65..512 bytes with additional data up to 16, one call with the batch in ZMM rows (4 or 8 blocks) where AVX-512 may run (but Open of 257..512 bytes: the avx2-stitched path's openDirectAVX2), else the avx2-stitched path's one-call kernels; the rest up to 1216 bytes (then up to 2496 bytes but 2048: Seal as below, Open with block 0 alone, the MAC, then xorKeystreamAt4 to 20 straight into the output), keystream from one call of 2 to 5 sets of ZMM rows (block 0 included; Seal's kernels XOR the plaintext themselves, xorKeystream8 to 20, past 1216 bytes a second call of xorKeystreamAt4 to 20 from block 20)",
	poly1305.AVX2:    "Poly1305 4 blocks per step in radix 2^26 in YMM; under 384 bytes, mulx",
	poly1305.MULX:    "Poly1305 one block per step in 64-bit limbs with MULX and ADCX/ADOX",
	poly1305.Generic: "Poly1305 in portable Go (math/bits)",
}

// paths lists every path this build has, best first: dispatch (the
// catalogue's Choose) takes the first available one, passing over ifma
// (512-bit vectors) while cpu.Prefer256 is usable. The stitched path comes after ifma: on AVX-512
// CPUs the two-pass path with 512-bit ChaCha20 and IFMA Poly1305 is
// faster (about 2.4x at 16 KiB on Zen 5); on AVX2 CPUs (or under
// avx512=off) the stitched path beats two passes.
var paths = func() []*path {
	var ps []*path
	add := func(p *path) {
		p.New = func(key []byte) (cipher.AEAD, error) { return newAEAD(key, NonceSize, p) }
		p.NewX = func(key []byte) (cipher.AEAD, error) { return newAEAD(key, NonceSizeX, p) }
		ps = append(ps, p)
	}
	for _, m := range poly1305.Paths() {
		if !m.Built() {
			continue
		}
		if m == poly1305.AVX2 && stitchedBuilt {
			add(&path{
				Name:     "avx2-stitched",
				Requires: append([]cpu.Feature{cpu.AVX2}, poly1305.MULX.Requires()...),
				Notes:    "ChaCha20 8 blocks per batch in YMM with one-block MULX Poly1305 steps in the same loop (Open: the batch's ciphertext; Seal: the previous batch's), from 1024 bytes (Open) or six batches (Seal) on two sets of 8 (16 blocks, 32 words in the frame through a spiller) per batch with 64 steps (openWideAVX2, sealWideAVX2; Seal's last whole batch absorbs the wide kernel's last 1024 bytes in two chains, sealLastAVX2); Seal's last whole batch in two MULX chains (macBatchAVX2), tails through the avx2 Poly1305 path; under 512 bytes, two passes with mulx, except 65..512 bytes with additional data up to 16: one call whose general registers compute block 0, the MAC key and the MAC beside the batch (Seal, and Open past 256 bytes: the ciphertext in two chains after it, combined with a power of r computed beside it; up to 256 bytes four blocks in YMM rows, sealDirectY4, openOne18Y4 (up to 128 bytes two, sealDirectY2, openOne10Y2); else sealDirectAVX2 and openDirectAVX2, their rounds rolled; the direct kernels read the message and write the output themselves, Open's after its MAC); Seal and Open of 513..640 bytes with additional data up to 16, one call of one batch with blocks 9 and 10 in YMM rows beside it (the batch's d words in the frame) and rolled rounds (sealTenDirectAVX2, openTenAVX2, direct as above); 641..2048 bytes, one call of two or four batches with rolled rounds (sealTwoDirectAVX2, sealFourDirectAVX2, openTwoDirectAVX2 (direct, its MAC in two chains beside the second batch's rounds), openFourAVX2; 1025..1152 bytes two batches with blocks 17 and 18 in YMM rows beside one of them, sealEighteenDirectAVX2 beside the second, openEighteenAVX2 beside the first; 1537..1664 bytes three batches with blocks 25 and 26 beside the first, sealThreeDirectAVX2, openThreeAVX2); the rounds read the rotation masks from a copy in the frame; up to 64 bytes (additional data up to 16), one fused call (sealShort, openShort: block 1 in YMM rows beside block 0 and the MAC in general registers; sealShortVL, openShortVL with VPROLD where AVX-512 may run; on Zen 5 sealShortLead, openShortLead and their VL versions, block 1's first five (Seal) or four (Open) double rounds, with VPROLD four and three, in general registers before the rows)",
				mac:      poly1305.MULX,
				stitched: true,
			})
		}
		add(&path{
			Name:     m.String(),
			Requires: m.Requires(),
			Notes:    pathNotes[m],
			mac:      m,
			wide:     m == poly1305.IFMA,
		})
	}
	return ps
}()

// table and tableX are the dispatch of New and NewX over the catalogue
// ("chacha20poly1305" and "xchacha20poly1305": the same paths, each with
// its own constructor, so that the tools measure both). Built in init:
// the constructors lead back to them.
var table, tableX *catalog.Table[*path]

func init() {
	table = newTable("chacha20poly1305", false)
	tableX = newTable("xchacha20poly1305", true)
}

func newTable(cipherName string, x bool) *catalog.Table[*path] {
	var entries []catalog.Entry[*path]
	for _, p := range paths {
		newAEAD := p.New
		if x {
			newAEAD = p.NewX
		}
		e := catalog.AEADPath(cipherName, &catalog.Path{
			Name: p.Name, Requires: p.Requires, Wide: p.wide, Notes: p.Notes, NewAEAD: newAEAD,
		})
		entries = append(entries, catalog.Entry[*path]{Path: e.Path, Impl: p})
	}
	return catalog.NewTable(cipherName, entries...)
}

// newOnPath is New (or NewX) pinned to the named path, for the catalogue
// and the tests; it fails where the path cannot run here.
func newOnPath(name string, key []byte, x bool) (cipher.AEAD, error) {
	for _, p := range paths {
		if p.Name != name {
			continue
		}
		if !p.Available() {
			return nil, fmt.Errorf("chacha20poly1305: path %s needs %v, which this CPU lacks or SIMDCRYPT_CPU masks", name, p.Requires)
		}
		if x {
			return p.NewX(key)
		}
		return p.New(key)
	}
	return nil, errors.New("chacha20poly1305: no path " + name)
}
