package chacha20

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/testkit"
)

var unhex = testkit.Hex

// vector is one keystream or encryption example: plaintext (zeros for a
// keystream vector) XOR keystream from block counter.
type vector struct {
	name              string
	key, nonce        string
	counter           uint32
	plaintext, cipher string
}

const zeros64 = "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"

// Typed in from RFC 8439 (section 2.3.2, 2.4.2, appendix A.1 and A.2) and
// draft-irtf-cfrg-xchacha-03 (appendix A.3.2, 24-byte nonce).
var vectors = []vector{
	{
		name:      "RFC 8439 2.3.2 block function",
		key:       "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		nonce:     "000000090000004a00000000",
		counter:   1,
		plaintext: zeros64,
		cipher:    "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
	},
	{
		name:      "RFC 8439 2.4.2 encryption",
		key:       "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		nonce:     "000000000000004a00000000",
		counter:   1,
		plaintext: hex.EncodeToString([]byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")),
		cipher: "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b3571639d624e65152ab" +
			"8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab77937365af90bbf74a35be6b40b8eedf2785e42874d",
	},
	{
		name:      "RFC 8439 A.1 #1",
		key:       "0000000000000000000000000000000000000000000000000000000000000000",
		nonce:     "000000000000000000000000",
		counter:   0,
		plaintext: zeros64,
		cipher:    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
	},
	{
		name:      "RFC 8439 A.1 #2",
		key:       "0000000000000000000000000000000000000000000000000000000000000000",
		nonce:     "000000000000000000000000",
		counter:   1,
		plaintext: zeros64,
		cipher:    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f",
	},
	{
		name:      "RFC 8439 A.1 #3",
		key:       "0000000000000000000000000000000000000000000000000000000000000001",
		nonce:     "000000000000000000000000",
		counter:   1,
		plaintext: zeros64,
		cipher:    "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0",
	},
	{
		name:      "RFC 8439 A.1 #4",
		key:       "00ff000000000000000000000000000000000000000000000000000000000000",
		nonce:     "000000000000000000000000",
		counter:   2,
		plaintext: zeros64,
		cipher:    "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096",
	},
	{
		name:      "RFC 8439 A.1 #5",
		key:       "0000000000000000000000000000000000000000000000000000000000000000",
		nonce:     "000000000000000000000002",
		counter:   0,
		plaintext: zeros64,
		cipher:    "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c78a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d",
	},
	{
		name:      "RFC 8439 A.2 #1",
		key:       "0000000000000000000000000000000000000000000000000000000000000000",
		nonce:     "000000000000000000000000",
		counter:   0,
		plaintext: zeros64,
		cipher:    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
	},
	{
		name:      "RFC 8439 A.2 #2",
		key:       "0000000000000000000000000000000000000000000000000000000000000001",
		nonce:     "000000000000000000000002",
		counter:   1,
		plaintext: "416e79207375626d697373696f6e20746f20746865204945544620696e74656e6465642062792074686520436f6e7472696275746f7220666f72207075626c69636174696f6e20617320616c6c206f722070617274206f6620616e204945544620496e7465726e65742d4472616674206f722052464320616e6420616e792073746174656d656e74206d6164652077697468696e2074686520636f6e74657874206f6620616e204945544620616374697669747920697320636f6e7369646572656420616e20224945544620436f6e747269627574696f6e222e20537563682073746174656d656e747320696e636c756465206f72616c2073746174656d656e747320696e20494554462073657373696f6e732c2061732077656c6c206173207772697474656e20616e6420656c656374726f6e696320636f6d6d756e69636174696f6e73206d61646520617420616e792074696d65206f7220706c6163652c207768696368206172652061646472657373656420746f",
		cipher:    "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec2a97948bd3722915c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e52795042bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85ad00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259dc4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6ccc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0bc39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e698ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221",
	},
	{
		name:      "RFC 8439 A.2 #3",
		key:       "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
		nonce:     "000000000000000000000002",
		counter:   42,
		plaintext: "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a446964206779726520616e642067696d626c6520696e2074686520776162653a0a416c6c206d696d737920776572652074686520626f726f676f7665732c0a416e6420746865206d6f6d65207261746873206f757467726162652e",
		cipher:    "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553ebf39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f7704c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1",
	},
	{
		// The draft's nonce really ends 55 56 58.
		name:      "draft-irtf-cfrg-xchacha A.3.2 XChaCha20",
		key:       "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
		nonce:     "404142434445464748494a4b4c4d4e4f5051525354555658",
		counter:   0,
		plaintext: hex.EncodeToString([]byte(`The dhole (pronounced "dole") is also known as the Asiatic wild dog, red dog, and whistling dog. It is about the size of a German shepherd but looks more like a long-legged fox. This highly elusive and skilled jumper is classified with wolves, coyotes, jackals, and foxes in the taxonomic family Canidae.`)),
		cipher: "4559abba4e48c16102e8bb2c05e6947f50a786de162f9b0b7e592a9b53d0d4e98d8d6410d540a1a6375b26d80dace4fab52384c731acbf16a5923c0c48d3575d" +
			"4d0d2c673b666faa731061277701093a6bf7a158a8864292a41c48e3a9b4c0daece0f8d98d0d7e05b37a307bbb66333164ec9e1b24ea0d6c3ffddcec4f68e744" +
			"3056193a03c810e11344ca06d8ed8a2bfb1e8d48cfa6bc0eb4e2464b748142407c9f431aee769960e15ba8b96890466ef2457599852385c661f752ce20f9da0c" +
			"09ab6b19df74e76a95967446f8d0fd415e7bee2a12a114c20eb5292ae7a349ae577820d5520a1f3fb62a17ce6a7e68fa7c79111d8860920bc048ef43fe84486c" +
			"cb87c25f0ae045f0cce1e7989a9aa220a28bdd4827e751a24a6d5c62d790a66393b93111c1a55dd7421a10184974c7c5",
	},
}

func TestVectors(t *testing.T) {
	forEachPath(t, func(t *testing.T, p path) {
		for _, v := range vectors {
			checkVector(t, p, v.name, unhex(v.key), unhex(v.nonce), v.counter, unhex(v.plaintext), unhex(v.cipher))
		}
	})
}

// checkVector encrypts in one call, in place, and byte by byte.
func checkVector(t *testing.T, p path, name string, key, nonce []byte, counter uint32, pt, want []byte) {
	t.Helper()
	for _, mode := range []string{"one call", "in place", "byte by byte"} {
		c, err := newCipher(key, nonce, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c.SetCounter(counter)
		got := make([]byte, len(pt))
		switch mode {
		case "one call":
			c.XORKeyStream(got, pt)
		case "in place":
			copy(got, pt)
			c.XORKeyStream(got, got)
		case "byte by byte":
			for i := range pt {
				c.XORKeyStream(got[i:i+1], pt[i:i+1])
			}
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s (%s):\n got %x\nwant %x", name, mode, got, want)
		}
	}
}

func TestHChaCha20(t *testing.T) {
	// draft-irtf-cfrg-xchacha-03 section 2.2.1.
	key := unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	nonce := unhex("000000090000004a0000000031415927")
	want := unhex("82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc")
	got, err := HChaCha20(key, nonce)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("HChaCha20 = %x, %v; want %x", got, err, want)
	}
	if _, err := HChaCha20(key[:31], nonce); err == nil {
		t.Error("HChaCha20 accepted a 31-byte key")
	}
	if _, err := HChaCha20(key, nonce[:15]); err == nil {
		t.Error("HChaCha20 accepted a 15-byte nonce")
	}
}

// TestSharedVectors runs the vector files under ../shared/testdata/chacha20.
// The rfc8439 files use the IETF layout directly. The pyca files use the
// original 64-bit counter / 64-bit nonce layout (state words 12-13 counter,
// 14-15 nonce); they map onto the IETF layout only when the counter's high
// word is zero throughout (initial counter + blocks <= 2^32), in which case
// the IETF nonce is four zero bytes followed by the 8-byte nonce. Records
// that need a counter carry into word 13 are skipped and counted.
func TestSharedVectors(t *testing.T) {
	dir := testkit.SharedPath(t, "chacha20")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.txt"))
	if len(files) == 0 {
		t.Fatalf("no vector files under %s", dir)
	}
	forEachPath(t, func(t *testing.T, p path) {
		ran, skipped := 0, 0
		for _, f := range files {
			pyca := filepath.Base(filepath.Dir(f)) == "pyca"
			for _, r := range testkit.ParseRSP(t, f) {
				key, nonce := r.Bytes(t, "KEY"), r.Bytes(t, "NONCE")
				ctrField, ok := r.Fields["INITIAL_BLOCK_COUNTER"]
				if !ok {
					ctrField = r.Fields["BLOCK_COUNTER"]
				}
				ctr, err := strconv.ParseUint(ctrField, 10, 64)
				if err != nil {
					t.Fatalf("%s line %d: bad counter %q", f, r.Line, ctrField)
				}
				var pt, ct []byte
				if _, ok := r.Fields["KEYSTREAM"]; ok {
					ct = r.Bytes(t, "KEYSTREAM")
					pt = make([]byte, len(ct))
				} else {
					pt, ct = r.Bytes(t, "PLAINTEXT"), r.Bytes(t, "CIPHERTEXT")
				}
				if pyca {
					blocks := (uint64(len(pt)) + 63) / 64
					if len(nonce) != 8 || ctr >= 1<<32 || ctr+blocks > 1<<32 {
						skipped++
						continue
					}
					nonce = append(make([]byte, 4), nonce...)
				}
				if len(nonce) != NonceSize || ctr >= 1<<32 {
					t.Fatalf("%s line %d: not an IETF-layout record", f, r.Line)
				}
				checkVector(t, p, fmt.Sprintf("%s line %d", f, r.Line), key, nonce, uint32(ctr), pt, ct)
				ran++
			}
		}
		t.Logf("%d shared records run; %d pyca records skipped: their 64-bit counter would carry into state word 13, which the IETF layout uses for the nonce", ran, skipped)
		if ran == 0 {
			t.Error("no shared records ran")
		}
	})
}
