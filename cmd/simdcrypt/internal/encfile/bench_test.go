package encfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPipeline measures the whole chunked pipeline over a 64 MiB file
// (read by the workers with pread, and in order by the feeder) into
// io.Discard: the work `simdcrypt enc -in FILE -out /dev/null` does after
// startup.
func BenchmarkPipeline(b *testing.B) {
	path := filepath.Join(b.TempDir(), "in")
	if err := os.WriteFile(path, randBytes(64<<20, 1), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"aes-128-ctr", "aes-256-cbc", "chacha20", "aria-128-ctr"} {
		c, _ := Lookup(name)
		for _, dec := range []bool{false, true} {
			if c.BlockLen == 0 && dec {
				continue
			}
			t, err := c.newTransform(make([]byte, c.KeyLen), make([]byte, c.IVLen), dec)
			if err != nil {
				b.Fatal(err)
			}
			for _, inOrder := range []bool{false, true} {
				dir := "enc"
				if dec {
					dir = "dec"
				}
				b.Run(fmt.Sprintf("%s/%s/inorder=%v", name, dir, inOrder), func(b *testing.B) {
					b.SetBytes(64 << 20)
					for b.Loop() {
						f, err := os.Open(path)
						if err != nil {
							b.Fatal(err)
						}
						p := &pipeline{t: t, decrypt: dec, blockLen: c.BlockLen, pad: false, iv: make([]byte, c.IVLen),
							chunkSize: DefaultChunkSize, threads: 2, inOrder: inOrder}
						if _, err := p.run(f, io.Discard); err != nil {
							b.Fatal(err)
						}
						f.Close()
					}
				})
			}
		}
	}
}
