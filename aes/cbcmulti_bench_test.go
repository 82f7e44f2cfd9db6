package aes

import (
	"bytes"
	"crypto/cipher"
	"testing"
	"time"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// BenchmarkCBCEncryptMulti compares CBCEncryptMulti with one CBC encrypter
// per message on every path (see testkit.BenchCBCMulti):
//
//	go test -run - -bench CBCEncryptMulti ./aes/
func BenchmarkCBCEncryptMulti(b *testing.B) {
	testkit.BenchCBCMulti(b, cipherName, NewCBCEncrypter, CBCEncryptMulti)
}

// BenchmarkCBCEncryptMultiKeys compares, on every path, 64 messages of 4
// KiB under one key (CBCEncryptMulti) with the same messages each under a
// key of its own (CBCEncryptMultiKeys), taking turns; each reports its
// fastest turn (shared-MB/s, keyed-MB/s) and keyed/shared (ratio):
//
//	go test -run - -bench CBCEncryptMultiKeys ./aes/
func BenchmarkCBCEncryptMultiKeys(b *testing.B) {
	const messages, size = 64, 4 << 10
	for _, i := range catalog.For(cipherName) {
		b.Run(i.Name, func(b *testing.B) {
			if !i.Available() {
				b.Skipf("%s needs %v", i.Name, i.Missing())
			}
			shared, _ := i.NewBlock(key128)
			blocks := make([]cipher.Block, messages)
			jobs := make([]CBCJob, messages)
			for n := range jobs {
				buf := make([]byte, size)
				jobs[n] = CBCJob{Dst: buf, Src: buf}
				key := bytes.Clone(key128)
				key[0] = byte(n)
				blocks[n], _ = i.NewBlock(key)
			}
			best := [2]time.Duration{1 << 62, 1 << 62}
			for b.Loop() {
				t0 := time.Now()
				CBCEncryptMulti(shared, jobs)
				best[0] = min(best[0], time.Since(t0))
				t0 = time.Now()
				CBCEncryptMultiKeys(blocks, jobs)
				best[1] = min(best[1], time.Since(t0))
			}
			mbps := func(d time.Duration) float64 { return messages * size / d.Seconds() / 1e6 }
			b.ReportMetric(mbps(best[0]), "shared-MB/s")
			b.ReportMetric(mbps(best[1]), "keyed-MB/s")
			b.ReportMetric(float64(best[0])/float64(best[1]), "ratio")
		})
	}
}
