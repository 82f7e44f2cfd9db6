package testkit

import (
	"bytes"
	"crypto/cipher"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// RunCAVP checks implementation i against CAVP-style known-answer and
// multi-block files (KAT and MMT: one record per key, PLAINTEXT and
// CIPHERTEXT, an IV for CBC; the mode is taken from the file name).
func RunCAVP(t *testing.T, i *catalog.Path, paths []string) int {
	n := 0
	for _, p := range paths {
		mode := modeFromName(t, p)
		for _, rec := range ParseRSP(t, p) {
			v := BlockVector{
				Name:       filepath.Base(p) + ":" + rec.Section + ":" + rec.Fields["COUNT"],
				Mode:       mode,
				Key:        rec.Bytes(t, keyField(rec)),
				Plaintext:  rec.Bytes(t, ptField(rec)),
				Ciphertext: rec.Bytes(t, ctField(rec)),
			}
			if mode != "ecb" {
				v.IV = rec.Bytes(t, "IV")
			}
			CheckVector(t, i, v)
			n++
		}
	}
	return n
}

func keyField(r Record) string {
	if _, ok := r.Fields["KEY"]; ok {
		return "KEY"
	}
	return "Key"
}

func ptField(r Record) string {
	for _, k := range []string{"PLAINTEXT", "PT"} {
		if _, ok := r.Fields[k]; ok {
			return k
		}
	}
	return "PLAINTEXT"
}

func ctField(r Record) string {
	for _, k := range []string{"CIPHERTEXT", "CT"} {
		if _, ok := r.Fields[k]; ok {
			return k
		}
	}
	return "CIPHERTEXT"
}

func modeFromName(t testing.TB, p string) string {
	base := strings.ToUpper(filepath.Base(p))
	for _, m := range []string{"ECB", "CBC", "CTR"} {
		if strings.Contains(base, m) {
			return strings.ToLower(m)
		}
	}
	t.Fatalf("%s: cannot tell the mode from the file name", p)
	return ""
}

// RunMCT runs the AESAVS Monte Carlo test records of an ECB or CBC file:
// each record gives the start (key, IV, first input) and the output after
// 1000 chained operations, done here one block per call so that every
// call also exercises the chaining state the mode keeps between calls.
func RunMCT(t *testing.T, i *catalog.Path, path string) int {
	mode := modeFromName(t, path)
	n := 0
	for _, rec := range ParseRSP(t, path) {
		key := rec.Bytes(t, "KEY")
		pt, ct := rec.Bytes(t, "PLAINTEXT"), rec.Bytes(t, "CIPHERTEXT")
		decrypt := rec.Section == "DECRYPT"
		in, want := pt, ct
		if decrypt {
			in, want = ct, pt
		}
		b, err := i.NewBlock(key)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		if mode == "ecb" {
			got = mctECB(b, decrypt, in)
		} else {
			got = mctCBC(b, decrypt, rec.Bytes(t, "IV"), in)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s %s COUNT %s: got %x, want %x", filepath.Base(path), rec.Section, rec.Fields["COUNT"], got, want)
		}
		n++
	}
	return n
}

func mctECB(b cipher.Block, decrypt bool, in []byte) []byte {
	op := BlockOps[0]
	if decrypt {
		op = BlockOps[1]
	}
	crypt := op.New(b, nil)
	x := append([]byte(nil), in...)
	for j := 0; j < 1000; j++ {
		crypt(x, x)
	}
	return x
}

// mctCBC: out[j] = CBC(in[j]); in[0] given, in[1] = IV, in[j+1] = out[j-1].
func mctCBC(b cipher.Block, decrypt bool, iv, in []byte) []byte {
	op := BlockOps[2]
	if decrypt {
		op = BlockOps[3]
	}
	crypt := op.New(b, iv)
	cur := append([]byte(nil), in...)
	prev := append([]byte(nil), iv...)
	out := make([]byte, 16)
	for j := 0; j < 1000; j++ {
		crypt(out, cur)
		cur, prev = prev, append(prev[:0:0], out...)
	}
	return out
}
