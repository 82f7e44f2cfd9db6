package bench

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/crypto/chacha20"

	_ "github.com/simdcrypt/simdcrypt/aes" // the ciphers speed measures: their paths enter the catalogue
	_ "github.com/simdcrypt/simdcrypt/aria"
	_ "github.com/simdcrypt/simdcrypt/chacha20"
	"github.com/simdcrypt/simdcrypt/ecb"
	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// blockKeySizes are tried, in bytes, for every 128-bit block cipher; the
// sizes its constructor accepts become targets.
var blockKeySizes = []int{16, 24, 32}

// streamNonceSizes are tried, in bytes, for every stream cipher: 12 names
// the target after the family ("chacha20"), 24 after its extended variant
// ("xchacha20").
var streamNonceSizes = []int{12, 24}

// modeDir splits a block operation of the catalogue ("cbc-decrypt", "ctr")
// into the mode and direction the table shows.
func modeDir(op catalog.Op) (mode, dir string) {
	mode, dir, ok := strings.Cut(string(op), "-")
	if !ok {
		dir = "encrypt"
	}
	return mode, dir
}

// Baseline is Go's own implementation of a family, measured in the same run
// for the ratio column.
type Baseline struct {
	Impl  string // "stdlib", "xcrypto"
	Notes string
	// Block builds a cipher.Block (block ciphers), Stream a keystream
	// (stream ciphers); exactly one is set, or none for the modes and
	// AEADs, whose baselines modeTargets makes.
	Block  func(key []byte) (cipher.Block, error)
	Stream func(key, nonce []byte) (cipher.Stream, error)
}

// Baselines maps families to their Go baselines. A family without one (ARIA:
// neither the standard library nor x/crypto has it) gets no ratio column.
var Baselines = map[string]Baseline{
	"aes": {Impl: "stdlib", Notes: "crypto/aes + crypto/cipher (ECB as a loop over Encrypt)",
		Block: stdaes.NewCipher},
	"chacha20": {Impl: "xcrypto", Notes: "golang.org/x/crypto/chacha20",
		Stream: func(key, nonce []byte) (cipher.Stream, error) {
			return chacha20.NewUnauthenticatedCipher(key, nonce)
		}},
	// Modes and AEADs: modeTargets builds their baselines, so neither
	// constructor is set.
	"gcm":               {Impl: "stdlib", Notes: "crypto/cipher.NewGCM over crypto/aes (AES rows only)"},
	"xts":               {Impl: "xcrypto", Notes: "x/crypto/xts over crypto/aes"},
	"chacha20poly1305":  {Impl: "xcrypto", Notes: "golang.org/x/crypto/chacha20poly1305 New"},
	"xchacha20poly1305": {Impl: "xcrypto", Notes: "golang.org/x/crypto/chacha20poly1305 NewX"},
	"poly1305":          {Impl: "xcrypto", Notes: "golang.org/x/crypto/poly1305 (New, Write, Sum per message)"},
}

// Unavailable is a registered implementation the CPU cannot run (or the
// mask forbids).
type Unavailable struct {
	Family, Impl string
	Missing      string // "avx512+vaes"
}

// Targets enumerates everything measurable: every available implementation
// of every registered family, at every key size its constructor accepts,
// and the baselines, in display order (per cipher and direction: baseline,
// then the registry's order). It creates nothing beyond a probe key
// schedule per implementation and key size.
func Targets() ([]*Target, []Unavailable) {
	var out []*Target
	var unavailable []Unavailable
	for _, c := range catalog.Ciphers() {
		fam := c.Name
		chosen, _ := c.Chosen()
		var impls []*catalog.Path
		for _, i := range c.Paths {
			if !i.Available() {
				var miss []string
				for _, f := range i.Missing() {
					miss = append(miss, f.String())
				}
				unavailable = append(unavailable, Unavailable{fam, i.Name, strings.Join(miss, "+")})
				continue
			}
			impls = append(impls, i)
		}
		impls = variantsAfterPaths(impls)
		base, hasBase := Baselines[fam]
		if _, clash := catalog.Lookup(fam, base.Impl); hasBase && clash {
			// Off amd64 the registry has a path named like the baseline
			// (aes "stdlib", itself crypto/aes): keep the two rows apart.
			base.Impl += "-baseline"
		}
		if len(impls) == 0 {
			continue
		}
		if ts, ok := modeTargets(fam, impls, chosen); ok {
			out = append(out, ts...)
			continue
		}
		if impls[0].NewBlock != nil {
			for _, ks := range blockKeySizes {
				var accepted []*catalog.Path
				for _, i := range impls {
					if i.NewBlock != nil {
						if _, err := i.NewBlock(make([]byte, ks)); err == nil {
							accepted = append(accepted, i)
						}
					}
				}
				if len(accepted) == 0 {
					continue
				}
				for _, op := range impls[0].Ops {
					mode, dir := modeDir(op)
					name := fam + "-" + strconv.Itoa(ks*8) + "-" + mode
					mk := func(implName string) *Target {
						return &Target{Family: fam, Cipher: name, Mode: mode, KeyBits: ks * 8,
							Direction: dir, Impl: implName, Align: alignFor(mode)}
					}
					if hasBase && base.Block != nil {
						t := mk(base.Impl)
						t.Baseline = true
						t.New = blockOp(base.Block, ks, mode, dir, true)
						out = append(out, t)
					}
					for _, i := range accepted {
						t := mk(i.Name)
						t.Default, t.VariantOf = i == chosen, i.VariantOf
						t.Kernel = kernelOf(i, op)
						t.New = blockOp(i.NewBlock, ks, mode, dir, false)
						out = append(out, t)
					}
				}
			}
			continue
		}
		// A stream cipher: 256-bit key; a 96-bit nonce (ChaCha20 as RFC
		// 8439) and, where the constructor takes it, the 192-bit nonce of
		// the extended variant ("xchacha20": a subkey derived once per
		// nonce, then the same keystream kernels).
		for _, nonceLen := range streamNonceSizes {
			name := fam
			if nonceLen != 12 {
				name = "x" + fam
			}
			mk := func(implName string) *Target {
				return &Target{Family: fam, Cipher: name, Mode: "stream", KeyBits: 256,
					Direction: "encrypt", Impl: implName, Align: 1}
			}
			if hasBase && base.Stream != nil {
				if _, err := base.Stream(benchKey(32), make([]byte, nonceLen)); err == nil {
					t := mk(base.Impl)
					t.Baseline = true
					t.New = streamOp(base.Stream, nonceLen)
					out = append(out, t)
				}
			}
			for _, i := range impls {
				if i.NewStream == nil {
					continue
				}
				if _, err := i.NewStream(benchKey(32), make([]byte, nonceLen)); err != nil {
					continue
				}
				t := mk(i.Name)
				t.Default, t.VariantOf = i == chosen, i.VariantOf
				t.Kernel = kernelOf(i, catalog.Stream)
				t.New = streamOp(i.NewStream, nonceLen)
				out = append(out, t)
			}
		}
	}
	return out, unavailable
}

// variantsAfterPaths keeps the catalogue's order but moves each variant
// ("vaes512-noprefetch") right after the path it varies ("vaes512"), so the
// two read side by side; variants of no listed path go last.
func variantsAfterPaths(paths []*catalog.Path) []*catalog.Path {
	var out, orphans []*catalog.Path
	for _, p := range paths {
		if p.VariantOf == "" {
			out = append(out, p)
		}
	}
	for _, v := range paths {
		if v.VariantOf == "" {
			continue
		}
		at := slices.IndexFunc(out, func(p *catalog.Path) bool { return p.Name == v.VariantOf })
		if at < 0 {
			orphans = append(orphans, v)
			continue
		}
		// After the path and any variants of it already placed.
		for at+1 < len(out) && out[at+1].VariantOf != "" {
			at++
		}
		out = slices.Insert(out, at+1, v)
	}
	return append(out, orphans...)
}

func alignFor(mode string) int {
	if mode == "ecb" || mode == "cbc" {
		return modes.BlockSize
	}
	return 1
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// benchKey is a fixed, non-trivial key; its value does not matter for speed.
func benchKey(n int) []byte {
	k := make([]byte, n)
	for i := range k {
		k[i] = byte(i*7 + 1)
	}
	return k
}

// blockOp measures a mode through the public API: ecb.NewEncrypter,
// cipher.NewCBCEncrypter, cipher.NewCTR. For the standard library's block
// (stdECB), ECB is a loop over Encrypt, which is what a Go program without
// simdcrypt would write.
func blockOp(newBlock func([]byte) (cipher.Block, error), keyLen int, mode, dir string, stdECB bool) func() (Op, error) {
	return func() (Op, error) {
		b, err := newBlock(benchKey(keyLen))
		if err != nil {
			return nil, err
		}
		iv := make([]byte, b.BlockSize())
		for i := range iv {
			iv[i] = byte(0xf0 + i)
		}
		switch mode {
		case "ecb":
			crypt := b.Encrypt
			if dir == "decrypt" {
				crypt = b.Decrypt
			}
			if stdECB {
				bs := b.BlockSize()
				return func(dst, src []byte) {
					for i := 0; i+bs <= len(src); i += bs {
						crypt(dst[i:i+bs], src[i:i+bs])
					}
				}, nil
			}
			m := ecb.NewEncrypter(b)
			if dir == "decrypt" {
				m = ecb.NewDecrypter(b)
			}
			return m.CryptBlocks, nil
		case "cbc":
			m := cipher.NewCBCEncrypter(b, iv)
			if dir == "decrypt" {
				m = cipher.NewCBCDecrypter(b, iv)
			}
			return m.CryptBlocks, nil
		case "ctr":
			return cipher.NewCTR(b, iv).XORKeyStream, nil
		}
		return nil, fmt.Errorf("bench: unknown mode %q", mode)
	}
}

func streamOp(newStream func(key, nonce []byte) (cipher.Stream, error), nonceLen int) func() (Op, error) {
	return func() (Op, error) {
		s, err := newStream(benchKey(32), make([]byte, nonceLen))
		if err != nil {
			return nil, err
		}
		return s.XORKeyStream, nil
	}
}

// NoBaseline lists the families measured without a Go baseline.
func NoBaseline(ts []*Target) []string {
	var fams []string
	for _, t := range ts {
		if _, ok := Baselines[t.Family]; !ok && !slices.Contains(fams, t.Family) {
			fams = append(fams, t.Family)
		}
	}
	return fams
}

// SelectError reports a selection that names nothing, with the valid
// choices.
type SelectError struct {
	What, Name string
	Valid      []string
	Extra      string // why, when the name exists but cannot run here
}

func (e *SelectError) Error() string {
	if e.Extra != "" {
		return fmt.Sprintf("%s %q %s", e.What, e.Name, e.Extra)
	}
	return fmt.Sprintf("unknown %s %q (valid: %s)", e.What, e.Name, strings.Join(e.Valid, ", "))
}

// Select keeps the targets whose cipher matches one of cipherPats and whose
// implementation matches one of implPats (nil or empty: all). Patterns are
// path.Match globs ("aes-*-ctr", "vaes*"); a cipher pattern may also be a
// family ("aes") or "family-bits" ("aria-256"); the impl pattern "default"
// selects the dispatched path and "baseline" Go's own. A pattern that
// selects nothing is an error naming the valid choices.
func Select(ts []*Target, unavailable []Unavailable, cipherPats, implPats []string) ([]*Target, error) {
	var ciphers, impls []string
	for _, t := range ts {
		if !slices.Contains(ciphers, t.Cipher) {
			ciphers = append(ciphers, t.Cipher)
		}
		if !slices.Contains(impls, t.Impl) {
			impls = append(impls, t.Impl)
		}
	}
	// A pattern that names ciphers selects them; only one that names none
	// ("aes", "aria-256") stands for a family or family and key size, so
	// "chacha20" does not also select "xchacha20".
	namesCipher := func(p string) bool {
		return slices.ContainsFunc(ciphers, func(c string) bool { m, _ := path.Match(p, c); return m })
	}
	cipherOK := func(t *Target, p string) bool {
		if m, _ := path.Match(p, t.Cipher); m {
			return true
		}
		return !namesCipher(p) && (p == t.Family || p == t.Family+"-"+strconv.Itoa(t.KeyBits))
	}
	implOK := func(t *Target, p string) bool {
		if m, _ := path.Match(p, t.Impl); m {
			return true
		}
		return (p == "default" && t.Default) || (p == "baseline" && t.Baseline)
	}
	for _, p := range cipherPats {
		if _, err := path.Match(p, ""); err != nil || !slices.ContainsFunc(ts, func(t *Target) bool { return cipherOK(t, p) }) {
			return nil, &SelectError{What: "cipher", Name: p, Valid: append(ciphers, "or globs like aes-*-ctr")}
		}
	}
	for _, p := range implPats {
		if _, err := path.Match(p, ""); err == nil && slices.ContainsFunc(ts, func(t *Target) bool { return implOK(t, p) }) {
			continue
		}
		for _, u := range unavailable {
			if u.Impl == p {
				return nil, &SelectError{What: "implementation", Name: p,
					Extra: fmt.Sprintf("of %s cannot run on this CPU (needs %s, absent or masked by SIMDCRYPT_CPU)", u.Family, u.Missing)}
			}
		}
		return nil, &SelectError{What: "implementation", Name: p, Valid: append(impls, "default", "baseline")}
	}
	var out []*Target
	for _, t := range ts {
		if len(cipherPats) > 0 && !slices.ContainsFunc(cipherPats, func(p string) bool { return cipherOK(t, p) }) {
			continue
		}
		if len(implPats) > 0 && !slices.ContainsFunc(implPats, func(p string) bool { return implOK(t, p) }) {
			continue
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, &SelectError{What: "selection", Name: strings.Join(cipherPats, ",") + " × " + strings.Join(implPats, ","),
			Extra: "matches no (cipher, implementation) pair; try `simdcrypt cpu` for what runs here"}
	}
	return out, nil
}
