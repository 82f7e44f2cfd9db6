package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"
)

// FuzzXORKeyStreamAt compares random access at any offset and length with
// crypto/aes's serial CTR stream, which is skipped to the offset.
func FuzzXORKeyStreamAt(f *testing.F) {
	f.Add(uint16(0), []byte("a 64-byte message, more or less, for a first fuzz seed........"), byte(0xff))
	f.Add(uint16(4093), []byte("x"), byte(0xfe))
	f.Fuzz(func(t *testing.T, offset uint16, src []byte, ivLow byte) {
		iv := bytes.Repeat([]byte{0xff}, 16) // the counter carries all 128 bits soon
		iv[15] = ivLow
		b, _ := NewCipher(key128)
		got := make([]byte, len(src))
		cipher.NewCTR(b, iv).(interface {
			XORKeyStreamAt(dst, src []byte, offset uint64)
		}).XORKeyStreamAt(got, src, uint64(offset))
		ref, _ := stdaes.NewCipher(key128)
		s := cipher.NewCTR(ref, iv)
		skip := make([]byte, offset)
		s.XORKeyStream(skip, skip)
		want := make([]byte, len(src))
		s.XORKeyStream(want, src)
		if !bytes.Equal(got, want) {
			t.Fatalf("offset %d, %d bytes: differs from crypto/aes", offset, len(src))
		}
	})
}

// FuzzCBCEncryptMulti cuts data into messages at the lengths the fuzzer
// picks (in blocks) and compares the batch with crypto/aes one message at
// a time.
func FuzzCBCEncryptMulti(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 5}, make([]byte, 256))
	f.Add(bytes.Repeat([]byte{4}, 40), make([]byte, 40*64))
	f.Fuzz(func(t *testing.T, lengths, data []byte) {
		if len(lengths) > 200 {
			lengths = lengths[:200]
		}
		var jobs []CBCJob
		for i, l := range lengths {
			n := int(l%32) * BlockSize
			if n > len(data) {
				break
			}
			jobs = append(jobs, CBCJob{Dst: make([]byte, n), Src: data[:n], IV: [16]byte{byte(i)}})
			data = data[n:]
		}
		b, _ := NewCipher(key128)
		ref, _ := stdaes.NewCipher(key128)
		want := make([][]byte, len(jobs))
		for i, j := range jobs {
			want[i] = make([]byte, len(j.Src))
			cipher.NewCBCEncrypter(ref, j.IV[:]).CryptBlocks(want[i], j.Src)
		}
		CBCEncryptMulti(b, jobs)
		for i, j := range jobs {
			if !bytes.Equal(j.Dst, want[i]) {
				t.Fatalf("message %d of %d (%d blocks) differs", i, len(jobs), len(j.Src)/BlockSize)
			}
		}
	})
}
