//go:build amd64 && !purego

package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/impl"
	"github.com/simdcrypt/simdcrypt/internal/modes"
)

// TestAsmKernelsDifferential checks every assembly path directly against
// crypto/aes and crypto/cipher: all whole-block lengths up to 2048 bytes
// (every cascade step and tail of every width), misaligned buffers, in place,
// and CTR counters whose low half is about to wrap.
func TestAsmKernelsDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, i := range impl.For(Name) {
		if len(i.Requires) == 0 {
			continue
		}
		if !i.Available() {
			t.Logf("%s: not available on this CPU (missing %v)", i.Name, i.Missing())
			continue
		}
		for _, ks := range []int{16, 24, 32} {
			t.Run(fmt.Sprintf("%s/%d", i.Name, ks*8), func(t *testing.T) {
				key := make([]byte, ks)
				fillRand(rng, key)
				k, err := i.NewKernels(key)
				if err != nil {
					t.Fatal(err)
				}
				ref, _ := stdaes.NewCipher(key)
				buf := make([]byte, 2048+64+16)
				for n := 0; n <= 2048; n += 16 {
					off := n / 16 % 64
					src := buf[off : off+n]
					fillRand(rng, src)
					checkKernels(t, k, ref, src, rng)
				}
			})
		}
	}
}

func fillRand(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

func checkKernels(t *testing.T, k modes.Kernels, ref cipher.Block, src []byte, rng *rand.Rand) {
	t.Helper()
	n := len(src)
	want := make([]byte, n)
	got := make([]byte, n+33)[17 : 17+n]
	inplace := make([]byte, n)

	// ECB
	for j := 0; j < n; j += 16 {
		ref.Encrypt(want[j:], src[j:])
	}
	k.EncryptBlocks(got, src)
	if !bytes.Equal(got, want) {
		t.Fatalf("EncryptBlocks len %d mismatch", n)
	}
	copy(inplace, src)
	k.EncryptBlocks(inplace, inplace)
	if !bytes.Equal(inplace, want) {
		t.Fatalf("EncryptBlocks in place len %d mismatch", n)
	}
	k.DecryptBlocks(got, want)
	if !bytes.Equal(got, src) {
		t.Fatalf("DecryptBlocks len %d mismatch", n)
	}
	k.DecryptBlocks(inplace, inplace)
	if !bytes.Equal(inplace, src) {
		t.Fatalf("DecryptBlocks in place len %d mismatch", n)
	}

	// CBC
	var iv [16]byte
	fillRand(rng, iv[:])
	cipher.NewCBCEncrypter(ref, iv[:]).CryptBlocks(want, src)
	ivc := iv
	k.CBCEncrypt(got, src, &ivc)
	if !bytes.Equal(got, want) {
		t.Fatalf("CBCEncrypt len %d mismatch", n)
	}
	if n > 0 && !bytes.Equal(ivc[:], want[n-16:]) {
		t.Fatalf("CBCEncrypt len %d: iv not advanced", n)
	}
	ivd := iv
	k.CBCDecrypt(got, want, &ivd)
	if !bytes.Equal(got, src) {
		t.Fatalf("CBCDecrypt len %d mismatch", n)
	}
	if ivd != ivc {
		t.Fatalf("CBCDecrypt len %d: iv %x, want %x", n, ivd, ivc)
	}
	copy(inplace, want)
	ivd = iv
	k.CBCDecrypt(inplace, inplace, &ivd)
	if !bytes.Equal(inplace, src) {
		t.Fatalf("CBCDecrypt in place len %d mismatch", n)
	}

	// CTR with the low half of the counter right below its wrap: the
	// kernel must not carry, and must leave the counter advanced.
	var ctr [16]byte
	fillRand(rng, ctr[:])
	binary.BigEndian.PutUint64(ctr[8:], -uint64(n/16)-uint64(rng.IntN(3)))
	cipher.NewCTR(ref, ctr[:]).XORKeyStream(want, src)
	c := ctr
	k.CTR(got, src, &c)
	if !bytes.Equal(got, want) {
		t.Fatalf("CTR len %d ctr %x mismatch", n, ctr)
	}
	wantNext := ctr
	binary.BigEndian.PutUint64(wantNext[8:], binary.BigEndian.Uint64(ctr[8:])+uint64(n/16))
	if c != wantNext {
		t.Fatalf("CTR len %d: counter %x, want %x", n, c, wantNext)
	}
	copy(inplace, src)
	c = ctr
	k.CTR(inplace, inplace, &c)
	if !bytes.Equal(inplace, want) {
		t.Fatalf("CTR in place len %d mismatch", n)
	}
}
