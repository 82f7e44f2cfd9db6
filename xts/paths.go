package xts

import (
	"crypto/cipher"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
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
	// wide marks the 512-bit path, which dispatch passes over while
	// cpu.Prefer256 is usable (the catalogue's rule).
	wide   bool
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

// table is xts's dispatch over the catalogue: Choose, cached per CPU mask.
// It is built in init because its constructors lead back to choosePath.
var table *catalog.Table[*xtsPath]

func init() { table = newTable() }

func newTable() *catalog.Table[*xtsPath] {
	var entries []catalog.Entry[*xtsPath]
	for _, p := range paths {
		entries = append(entries, catalog.Entry[*xtsPath]{Impl: p, Path: &catalog.Path{
			Cipher: cipherName, Name: p.name, Requires: p.requires, Wide: p.wide, Notes: p.notes,
			Ops: catalog.XTSOps,
			NewXTS: func(cipherFunc func([]byte) (cipher.Block, error), key []byte) (catalog.Sectors, error) {
				return newCipher(cipherFunc, key, p.name)
			},
		}})
	}
	return catalog.NewTable(cipherName, entries...)
}

// cipherName is xts's name in the catalogue and in dispatch.Chosen.
const cipherName = "xts"

// choosePath returns the path the catalogue chooses; the kernels need AES
// round keys, so other blocks take the portable path.
func choosePath(haveKeys bool) *xtsPath {
	if haveKeys {
		return table.Chosen()
	}
	return genericPath
}
