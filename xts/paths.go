package xts

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/xtspaths"
)

// kernel names one set of XTS kernels; the amd64 file switches on it to call
// the assembly directly (see cryptAsm).
type kernel uint8

const (
	kernelGeneric kernel = iota
	kernelVAES512
	kernelVAES256
	kernelAESNI
)

// xtsPath is one row of the dispatch table: a code path, what it needs, and
// the kernel it runs.
type xtsPath struct {
	name     string
	requires []cpu.Feature
	// avoid, when set, says why dispatch passes over the path on this CPU
	// although it runs ("" to take it).
	avoid  func() string
	kernel kernel
	notes  string
}

func (p *xtsPath) available() bool { return cpu.HasAll(p.requires...) }

// genericPath runs whatever cipher.Block NewCipher got.
var genericPath = &xtsPath{
	name:   "generic",
	kernel: kernelGeneric,
	notes:  "portable Go: one Encrypt/Decrypt call per block, constant-time tweak doubling",
}

// paths lists every path, preferred first; the portable one is last.
var paths = append(asmPaths, genericPath)

func lookupPath(name string) *xtsPath {
	for _, p := range paths {
		if p.name == name {
			return p
		}
	}
	return nil
}

// choosePath picks the first usable path; the kernels need AES round keys.
func choosePath(haveKeys bool) *xtsPath {
	if haveKeys {
		var fallback *xtsPath
		for _, p := range asmPaths {
			if !p.available() {
				continue
			}
			if p.avoid != nil && p.avoid() != "" {
				if fallback == nil {
					fallback = p
				}
				continue
			}
			return p
		}
		if fallback != nil {
			return fallback
		}
	}
	return genericPath
}

func init() {
	for _, p := range paths {
		xtspaths.Paths = append(xtspaths.Paths, xtspaths.Path{Name: p.name, Requires: p.requires, Avoid: p.avoid, Notes: p.notes})
	}
	xtspaths.NewOnPath = func(path string, cipherFunc func([]byte) (cipher.Block, error), key []byte) (xtspaths.Sector, error) {
		c, err := newCipher(cipherFunc, key, path)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}
