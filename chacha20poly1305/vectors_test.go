package chacha20poly1305

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

type aeadVector struct {
	name                           string
	key, nonce, aad, plain, sealed string // hex; sealed is ciphertext || tag
}

var aeadVectors = []aeadVector{
	{
		name:  "RFC 8439 §2.8.2",
		key:   "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
		nonce: "070000004041424344454647",
		aad:   "50515253c0c1c2c3c4c5c6c7",
		plain: fmt.Sprintf("%x", "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."),
		sealed: "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b" +
			"1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc" +
			"3ff4def08e4b7a9de576d26586cec64b6116" + "1ae10b594f09e26a7e902ecbd0600691",
	},
	{
		name:  "RFC 8439 Appendix A.5",
		key:   "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
		nonce: "000000000102030405060708",
		aad:   "f33388860000000000004e91",
		plain: fmt.Sprintf("%x", "Internet-Drafts are draft documents valid for a maximum of six months and may be "+
			"updated, replaced, or obsoleted by other documents at any time. It is inappropriate to use "+
			"Internet-Drafts as reference material or to cite them other than as /\u201cwork in progress./\u201d"),
		sealed: "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb24c6cfc18755d43eea09ee94e382d26b0" +
			"bdb7b73c321b0100d4f03b7f355894cf332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855" +
			"9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4b9166c767b804d46a59b5216cde7a4e9" +
			"9040c5a40433225ee282a1b0a06c523eaf4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a" +
			"0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a1049e617d91d361094fa68f0ff77987130" +
			"305beaba2eda04df997b714d6c6f2c29a6ad5cb4022b02709b" + "eead9d67890cbb22392336fea1851f38",
	},
	{
		name:  "draft-irtf-cfrg-xchacha-03 A.3.1",
		key:   "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
		nonce: "404142434445464748494a4b4c4d4e4f5051525354555657",
		aad:   "50515253c0c1c2c3c4c5c6c7",
		plain: fmt.Sprintf("%x", "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."),
		sealed: "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39" +
			"ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9" +
			"21f9664c97637da9768812f615c68b13b52e" + "c0875924c1c7987947deafd8780acf49",
	},
}

func TestVectors(t *testing.T) {
	forEachPath(t, func(t *testing.T, name string) {
		for _, v := range aeadVectors {
			key, nonce, aad := testkit.Hex(v.key), testkit.Hex(v.nonce), testkit.Hex(v.aad)
			plain, sealed := testkit.Hex(v.plain), testkit.Hex(v.sealed)
			a, err := newOn(name, key, len(nonce) == NonceSizeX)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Seal(nil, nonce, plain, aad); !bytes.Equal(got, sealed) {
				t.Errorf("%s: Seal\n got %x\nwant %x", v.name, got, sealed)
			}
			got, err := a.Open(nil, nonce, sealed, aad)
			if err != nil || !bytes.Equal(got, plain) {
				t.Errorf("%s: Open: %v", v.name, err)
			}
		}
	})
}
