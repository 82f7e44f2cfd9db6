package encfile

import (
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"sort"
	"strings"
)

// digests are the -md choices. OpenSSL's default is sha256 for both key
// derivations; md5 is kept for files made with the legacy derivation by
// OpenSSL before 1.1.0, whose default it was.
var digests = map[string]func() hash.Hash{
	"md5":    md5.New,
	"sha1":   sha1.New,
	"sha224": sha256.New224,
	"sha256": sha256.New,
	"sha384": sha512.New384,
	"sha512": sha512.New,
}

func lookupDigest(name string) (func() hash.Hash, bool) {
	h, ok := digests[strings.ToLower(strings.TrimPrefix(name, "-"))]
	return h, ok
}

func digestNames() string {
	var names []string
	for n := range digests {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// SaltLen is the length of OpenSSL's salt, which follows "Salted__".
const SaltLen = 8

// saltMagic starts every salted file `openssl enc` writes.
const saltMagic = "Salted__"

// deriveKeyIV turns a password into keyLen+ivLen bytes as `openssl enc`
// does: PBKDF2-HMAC (-pbkdf2 or -iter), or with neither the legacy
// EVP_BytesToKey with one iteration. salt is nil under -nosalt.
func deriveKeyIV(pbkdf bool, md func() hash.Hash, pass string, salt []byte, iter, keyLen, ivLen int) (key, iv []byte, err error) {
	var out []byte
	if pbkdf {
		out, err = pbkdf2.Key(md, pass, salt, iter, keyLen+ivLen)
		if err != nil {
			return nil, nil, err
		}
	} else {
		out = bytesToKey(md, []byte(pass), salt, keyLen+ivLen)
	}
	return out[:keyLen], out[keyLen:], nil
}

// bytesToKey is OpenSSL's EVP_BytesToKey with a count of 1:
// D_1 = H(pass || salt), D_i = H(D_{i-1} || pass || salt), output D_1 || D_2 || ...
func bytesToKey(md func() hash.Hash, pass, salt []byte, n int) []byte {
	var out, d []byte
	for len(out) < n {
		h := md()
		h.Write(d)
		h.Write(pass)
		h.Write(salt)
		d = h.Sum(nil)
		out = append(out, d...)
	}
	return out[:n]
}
