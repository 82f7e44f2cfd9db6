package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/impl"
	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

// refCBCJobs encrypts each job alone with the standard library.
func refCBCJobs(t *testing.T, key []byte, jobs []CBCJob) (out [][]byte, ivs [][BlockSize]byte) {
	ref, err := stdaes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		d := make([]byte, len(j.Src))
		cipher.NewCBCEncrypter(ref, j.IV[:]).CryptBlocks(d, j.Src)
		iv := j.IV
		if len(d) > 0 {
			iv = [BlockSize]byte(d[len(d)-BlockSize:])
		}
		out, ivs = append(out, d), append(ivs, iv)
	}
	return out, ivs
}

// randomJobs makes k jobs of mixed lengths (0 to 80 blocks, now and then
// a long one), some in place.
func randomJobs(r *rand.Rand, k int) []CBCJob {
	jobs := make([]CBCJob, k)
	for i := range jobs {
		n := r.IntN(81)
		if r.IntN(10) == 0 {
			n = 200 + r.IntN(400)
		}
		src := testkit.RandBytes(r, n*BlockSize)
		dst := make([]byte, len(src)+r.IntN(3)*BlockSize) // Dst may be longer
		if r.IntN(4) == 0 {
			dst = src
		}
		jobs[i] = CBCJob{Dst: dst, Src: src, IV: [BlockSize]byte(testkit.RandBytes(r, BlockSize))}
	}
	return jobs
}

// TestCBCEncryptMulti checks the batch against one-at-a-time CBC on every
// path: k from 1 to 100 messages of mixed lengths, every key size, and
// messages continued across two calls through IV.
func TestCBCEncryptMulti(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	testkit.ForEachImpl(t, Name, func(t *testing.T, i *impl.Impl) {
		for _, key := range [][]byte{key128, key192, key256} {
			b, err := i.NewBlock(key)
			if err != nil {
				t.Fatal(err)
			}
			for k := 1; k <= 100; k += 1 + k/8 {
				jobs := randomJobs(r, k)
				srcs := make([][]byte, k)
				for n, j := range jobs {
					srcs[n] = append([]byte(nil), j.Src...)
				}
				want, wantIV := refCBCJobs(t, key, jobs)
				// Two calls: the first half of each message, then the rest.
				first := make([]CBCJob, k)
				for n, j := range jobs {
					h := len(j.Src) / BlockSize / 2 * BlockSize
					first[n] = CBCJob{Dst: j.Dst[:h], Src: j.Src[:h], IV: j.IV}
				}
				CBCEncryptMulti(b, first)
				for n := range jobs {
					h := len(jobs[n].Src) / BlockSize / 2 * BlockSize
					jobs[n] = CBCJob{Dst: jobs[n].Dst[h:], Src: jobs[n].Src[h:], IV: first[n].IV}
				}
				CBCEncryptMulti(b, jobs)
				for n, j := range jobs {
					h := len(srcs[n]) / BlockSize / 2 * BlockSize
					got := first[n].Dst[:h:h]
					got = append(got, j.Dst[:len(j.Src)]...)
					if !bytes.Equal(got, want[n]) {
						t.Fatalf("key %d bytes, k=%d: message %d (%d blocks) differs", len(key), k, n, len(srcs[n])/BlockSize)
					}
					if j.IV != wantIV[n] {
						t.Fatalf("key %d bytes, k=%d: message %d: IV not the last ciphertext block", len(key), k, n)
					}
				}
			}
		}
	})
}

// TestCBCEncryptMultiGuarded puts every message against a guard page,
// before or after, so a lane that reads or writes past its own buffer
// faults.
func TestCBCEncryptMultiGuarded(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	testkit.ForEachImpl(t, Name, func(t *testing.T, i *impl.Impl) {
		b, _ := i.NewBlock(key128)
		for _, k := range []int{1, 7, 33, 70} {
			jobs := make([]CBCJob, k)
			var frees []func()
			for n := range jobs {
				blocks := 1 + r.IntN(70)
				src, free, ok := testkit.Guarded(blocks*BlockSize, n%2 == 0)
				if !ok {
					t.Skip("no guard pages on this system")
				}
				dst, free2, _ := testkit.Guarded(blocks*BlockSize, n%2 == 1)
				frees = append(frees, free, free2)
				copy(src, testkit.RandBytes(r, len(src)))
				jobs[n] = CBCJob{Dst: dst, Src: src}
			}
			want, _ := refCBCJobs(t, key128, jobs)
			CBCEncryptMulti(b, jobs)
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
}

func TestCBCEncryptMultiMisuse(t *testing.T) {
	b, _ := NewCipher(key128)
	buf := make([]byte, 64)
	ok := CBCJob{Dst: make([]byte, 32), Src: make([]byte, 32)}
	for name, bad := range map[string]CBCJob{
		"partial block": {Dst: buf, Src: buf[:17]},
		"short dst":     {Dst: buf[:16], Src: buf[16:48]},
		"overlap":       {Dst: buf[16:], Src: buf[:48]},
	} {
		before := bytes.Clone(ok.Dst)
		testkit.MustPanic(t, name, func() { CBCEncryptMulti(b, []CBCJob{ok, bad}) })
		if !bytes.Equal(ok.Dst, before) {
			t.Errorf("%s: a valid job was encrypted before the panic", name)
		}
	}
	CBCEncryptMulti(b, nil)
	// A block from elsewhere runs one chain at a time, with the same result.
	std, _ := stdaes.NewCipher(key128)
	r := rand.New(rand.NewPCG(1, 1))
	jobs := randomJobs(r, 9)
	want, wantIV := refCBCJobs(t, key128, jobs)
	CBCEncryptMulti(std, jobs)
	for n, j := range jobs {
		if !bytes.Equal(j.Dst[:len(j.Src)], want[n]) || j.IV != wantIV[n] {
			t.Fatalf("crypto/aes block: message %d differs", n)
		}
	}
}
