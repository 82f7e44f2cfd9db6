package modes

import "crypto/subtle"

// CBCDecrypt4 is CBC decryption for kernels that decrypt four blocks at a
// time (the bitsliced portable paths of aes and aria): decrypt4 decrypts up
// to four whole blocks of src into dst (ECB, in place when dst is src), and
// each block is then XORed with the ciphertext before it, kept aside first
// because src may be dst. iv is the chaining value in and out.
func CBCDecrypt4(dst, src []byte, iv *[BlockSize]byte, decrypt4 func(dst, src []byte)) {
	const batch = 4 * BlockSize
	var chain [BlockSize + batch]byte // the block before this batch, then the batch's ciphertext
	copy(chain[:], iv[:])
	for i := 0; i < len(src); i += batch {
		end := min(i+batch, len(src))
		n := end - i
		copy(chain[BlockSize:], src[i:end])
		decrypt4(dst[i:end], src[i:end])
		subtle.XORBytes(dst[i:end], dst[i:end], chain[:n])
		copy(chain[:BlockSize], chain[n:n+BlockSize])
	}
	copy(iv[:], chain[:BlockSize])
}
