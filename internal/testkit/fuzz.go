package testkit

import (
	"bytes"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
)

// maxFuzzLen bounds the data of one fuzz input: two of the widest batch
// any kernel has (ARIA's 64 blocks), a short batch and a partial block.
// Longer inputs would only repeat batches and slow every exec down.
const maxFuzzLen = 2*64*16 + 15*16 + 15

// FuzzBlockCipher fuzzes every mode of BlockOps, the input choosing which,
// on every available implementation of the cipher, the portable one
// included, against the spec's independent reference (crypto/aes for AES)
// run through crypto/cipher's own modes. One target for all modes lets one
// `go test -fuzz` run explore them all.
//
// The input is small on purpose: a mode, a key, an IV, a length, source and
// destination offsets, and a pattern of at most 64 bytes that the data
// repeats. Kernels branch on lengths and alignment, not on data, so little
// is lost; and go test -fuzz minimizes every new interesting input, trying
// removals from each []byte argument, which for a raw data argument of
// several KiB took most of a minute each time and kept the fuzzer from
// fuzzing (ARIA ran a few thousand execs a minute).
func FuzzBlockCipher(f *testing.F, s BlockSpec) {
	reference := s.Reference
	generic := catalog.MustLookup(s.Cipher, "generic")
	if reference == nil {
		reference = generic.NewBlock
	}
	ff := bytes.Repeat([]byte{0xff}, 16)
	for o := range BlockOps {
		for k, n := range []int{0, 16, 17, 255, 1024 + 3, 2048 + 48, maxFuzzLen} {
			f.Add(byte(o), byte(k), bytes.Repeat([]byte{byte(n)}, 32), ff, uint16(n), byte(k*37), []byte{0x5a, byte(n)})
		}
	}
	f.Fuzz(func(t *testing.T, opSel, keySel byte, keyMaterial, iv []byte, length uint16, offsets byte, pattern []byte) {
		op := BlockOps[int(opSel)%len(BlockOps)]
		ks := s.KeySizes[int(keySel)%len(s.KeySizes)]
		if len(iv) < 16 || len(keyMaterial) < ks {
			return
		}
		iv, key := iv[:16], keyMaterial[:ks]
		n := int(length) % (maxFuzzLen + 1)
		if op.Whole {
			n &^= 15
		}
		if len(pattern) == 0 {
			pattern = []byte{0}
		}
		pattern = pattern[:min(len(pattern), 64)]
		data := make([]byte, n)
		for j := range data {
			// The block index mixed in keeps blocks apart (ECB of a repeated
			// block would test less).
			data[j] = pattern[j%len(pattern)] ^ byte(j>>4)
		}
		ref, err := reference(key)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]byte, n)
		op.New(ref, iv)(want, data)

		so, do := int(offsets&15), int(offsets>>4)
		srcBuf, dstBuf := make([]byte, n+16), make([]byte, n+16)
		for _, i := range Paths(s.Cipher) {
			if !i.Available() {
				continue
			}
			b, err := i.NewBlock(key)
			if err != nil {
				t.Fatal(err)
			}
			src, dst := srcBuf[so:so+n], dstBuf[do:do+n]
			copy(src, data)
			op.New(b, iv)(dst, src)
			if !bytes.Equal(dst, want) {
				t.Fatalf("%s %s len %d offsets %d/%d: differs from the reference", i.Name, op.Name, n, so, do)
			}
			if offsets&1 != 0 { // in place for half the inputs
				op.New(b, iv)(src, src)
				if !bytes.Equal(src, want) {
					t.Fatalf("%s %s len %d offset %d in place: differs from the reference", i.Name, op.Name, n, so)
				}
			}
		}
	})
}
