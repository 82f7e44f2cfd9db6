package testkit

import (
	"bytes"
	"crypto/cipher"
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// CBCMulti is a multi-buffer CBC encryption under test (aes or aria
// CBCEncryptMulti).
type CBCMulti func(b cipher.Block, jobs []modes.CBCJob)

// refCBCJobs encrypts each job alone through crypto/cipher over ref.
func refCBCJobs(ref cipher.Block, jobs []modes.CBCJob) (out [][]byte, ivs [][16]byte) {
	for _, j := range jobs {
		d := make([]byte, len(j.Src))
		cipher.NewCBCEncrypter(ref, j.IV[:]).CryptBlocks(d, j.Src)
		iv := j.IV
		if len(d) > 0 {
			iv = [16]byte(d[len(d)-16:])
		}
		out, ivs = append(out, d), append(ivs, iv)
	}
	return out, ivs
}

// randomJobs makes k jobs of mixed lengths (0 to 80 blocks, now and then
// a few hundred), some in place, some with a longer Dst.
func randomJobs(r *rand.Rand, k int) []modes.CBCJob {
	jobs := make([]modes.CBCJob, k)
	for i := range jobs {
		n := r.IntN(81)
		if r.IntN(10) == 0 {
			n = 200 + r.IntN(400)
		}
		src := RandBytes(r, n*16)
		dst := make([]byte, len(src)+r.IntN(3)*16)
		if r.IntN(4) == 0 {
			dst = src
		}
		jobs[i] = modes.CBCJob{Dst: dst, Src: src, IV: [16]byte(RandBytes(r, 16))}
	}
	return jobs
}

// CheckCBCMulti tests multi against one-at-a-time CBC encryption over ref
// (the same key): k from 1 to 100 messages of mixed lengths, each message
// continued across two calls through its IV; page-aligned messages of
// equal length against guard pages; misuse.
func CheckCBCMulti(t *testing.T, b, ref cipher.Block, multi CBCMulti) {
	r := rand.New(rand.NewPCG(16, 3))
	t.Run("Mixed", func(t *testing.T) {
		for k := 1; k <= 100; k += 1 + k/8 {
			jobs := randomJobs(r, k)
			srcs := make([][]byte, k)
			for n, j := range jobs {
				srcs[n] = bytes.Clone(j.Src)
			}
			want, wantIV := refCBCJobs(ref, jobs)
			// Two calls: the first half of each message, then the rest.
			first := make([]modes.CBCJob, k)
			for n, j := range jobs {
				h := len(j.Src) / 32 * 16
				first[n] = modes.CBCJob{Dst: j.Dst[:h], Src: j.Src[:h], IV: j.IV}
			}
			multi(b, first)
			for n := range jobs {
				h := len(jobs[n].Src) / 32 * 16
				jobs[n] = modes.CBCJob{Dst: jobs[n].Dst[h:], Src: jobs[n].Src[h:], IV: first[n].IV}
			}
			multi(b, jobs)
			for n, j := range jobs {
				h := len(srcs[n]) / 32 * 16
				got := append(first[n].Dst[:h:h], j.Dst[:len(j.Src)]...)
				if !bytes.Equal(got, want[n]) {
					t.Fatalf("k=%d: message %d (%d blocks) differs", k, n, len(srcs[n])/16)
				}
				if j.IV != wantIV[n] {
					t.Fatalf("k=%d: message %d: IV not the last ciphertext block", k, n)
				}
			}
		}
	})
	t.Run("GuardPages", func(t *testing.T) {
		for _, k := range []int{1, 7, 33, 70} {
			jobs := make([]modes.CBCJob, k)
			var frees []func()
			blocks := 1 + r.IntN(70)
			for n := range jobs {
				if n%3 == 0 {
					blocks = 1 + r.IntN(70) // runs of equal lengths
				}
				src, free, ok := Guarded(blocks*16, n%2 == 0)
				if !ok {
					t.Skip("no guard pages on this system")
				}
				dst, free2, _ := Guarded(blocks*16, n%2 == 1)
				frees = append(frees, free, free2)
				copy(src, RandBytes(r, len(src)))
				if n%4 == 3 {
					dst = src
				}
				jobs[n] = modes.CBCJob{Dst: dst, Src: src}
			}
			want, _ := refCBCJobs(ref, jobs)
			multi(b, jobs)
			for n, j := range jobs {
				if !bytes.Equal(j.Dst, want[n]) {
					t.Fatalf("k=%d: guarded message %d differs", k, n)
				}
			}
			for _, f := range frees {
				f()
			}
		}
	})
	t.Run("Misuse", func(t *testing.T) {
		buf := make([]byte, 64)
		ok := modes.CBCJob{Dst: make([]byte, 32), Src: make([]byte, 32)}
		for name, bad := range map[string]modes.CBCJob{
			"partial block": {Dst: buf, Src: buf[:17]},
			"short dst":     {Dst: buf[:16], Src: buf[16:48]},
			"overlap":       {Dst: buf[16:], Src: buf[:48]},
		} {
			before := bytes.Clone(ok.Dst)
			MustPanic(t, name, func() { multi(b, []modes.CBCJob{ok, bad}) })
			if !bytes.Equal(ok.Dst, before) {
				t.Errorf("%s: a valid job was encrypted before the panic", name)
			}
		}
		multi(b, nil)
	})
}

// CBCMultiKeys is a multi-buffer CBC encryption with a key for each
// message (aes CBCEncryptMultiKeys).
type CBCMultiKeys func(blocks []cipher.Block, jobs []modes.CBCJob)

// CheckCBCMultiKeys tests multi against one-at-a-time CBC encryption of
// each message under its own key, newBlock making the blocks under test
// and ref the reference ones from the same key: k from 1 to 100 messages
// of mixed lengths, with keys all of one length, of mixed lengths, with a
// key length only one message has, and with now and then a reference
// block among the blocks under test; page-aligned messages against guard
// pages; misuse.
func CheckCBCMultiKeys(t *testing.T, newBlock, ref func(key []byte) cipher.Block, multi CBCMultiKeys) {
	r := rand.New(rand.NewPCG(16, 4))
	check := func(t *testing.T, what string, jobs []modes.CBCJob, keySize func(i int) int) {
		t.Helper()
		blocks := make([]cipher.Block, len(jobs))
		want := make([][]byte, len(jobs))
		wantIV := make([][16]byte, len(jobs))
		for i := range jobs {
			key := RandBytes(r, keySize(i))
			refBlock := ref(key)
			blocks[i] = newBlock(key)
			if i%7 == 6 {
				blocks[i] = refBlock
			}
			w, iv := refCBCJobs(refBlock, jobs[i:i+1])
			want[i], wantIV[i] = w[0], iv[0]
		}
		multi(blocks, jobs)
		for i, j := range jobs {
			if !bytes.Equal(j.Dst[:len(j.Src)], want[i]) || j.IV != wantIV[i] {
				t.Fatalf("%s, k=%d: message %d (%d blocks, %d-byte key) differs", what, len(jobs), i, len(want[i])/16, keySize(i))
			}
		}
	}
	sizes := []int{16, 24, 32}
	t.Run("Mixed", func(t *testing.T) {
		for k := 1; k <= 100; k += 1 + k/8 {
			check(t, "one key length", randomJobs(r, k), func(int) int { return 16 })
			check(t, "mixed key lengths", randomJobs(r, k), func(i int) int { return sizes[i*5%3] })
			check(t, "one 32-byte key", randomJobs(r, k), func(i int) int {
				if i == k-1 {
					return 32
				}
				return 16
			})
		}
	})
	t.Run("GuardPages", func(t *testing.T) {
		for _, k := range []int{3, 40} {
			jobs := make([]modes.CBCJob, k)
			for n := range jobs {
				src, free, ok := Guarded(16*(1+n%5), n%2 == 0)
				if !ok {
					t.Skip("no guard pages on this system")
				}
				defer free()
				copy(src, RandBytes(r, len(src)))
				jobs[n] = modes.CBCJob{Dst: src, Src: src}
			}
			check(t, "guarded", jobs, func(i int) int { return sizes[i%3] })
		}
	})
	t.Run("Misuse", func(t *testing.T) {
		buf := make([]byte, 32)
		MustPanic(t, "fewer blocks than jobs", func() { multi(nil, []modes.CBCJob{{Dst: buf, Src: buf}}) })
		MustPanic(t, "partial block", func() { multi([]cipher.Block{newBlock(buf[:16])}, []modes.CBCJob{{Dst: buf, Src: buf[:17]}}) })
		multi(nil, nil)
	})
}
