package encfile

import (
	"github.com/simdcrypt/simdcrypt/aria"
	"github.com/simdcrypt/simdcrypt/chacha20"
)

func init() {
	families = append(families, blockFamily{"aria", []int{16, 24, 32},
		aria.NewCipher, aria.NewCTR, aria.NewCBCEncrypter, aria.NewCBCDecrypter})
	streamCiphers = append(streamCiphers, chachaCipher(func(key, nonce []byte) (chachaStream, error) {
		return chacha20.NewUnauthenticatedCipher(key, nonce)
	}))
}
