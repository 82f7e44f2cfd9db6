//go:build amd64 && !purego

package poly1305

import (
	"math/bits"
	"testing"
)

// TestPowersIFMA checks the assembly's table against the same powers
// computed in Go, for edge keys and a few others.
func TestPowersIFMA(t *testing.T) {
	if !IFMA.Available() {
		t.Skip("ifma not available")
	}
	keys := edgeKeys()
	for i := range 20 {
		var k [32]byte
		for j := range k {
			k[j] = byte(i*31 + j*7)
		}
		keys = append(keys, k)
	}
	for _, k := range keys {
		var st state
		st.init(&k)
		st.computePowers()
		if want := powersGo(&st); st.pw != want {
			t.Fatalf("key %x: table\n%x\nwant\n%x", k, st.pw, want)
		}
	}
}

func powersGo(st *state) powers {
	var pw powers
	var pow [9][3]uint64
	pow[1] = [3]uint64{st.r[0], st.r[1], 0}
	for k := 2; k <= 8; k++ {
		pow[k] = mulR(pow[k-1], &st.r)
	}
	put := func(dst []uint64, stride int, p [3]uint64) {
		l := toRadix44(&p)
		dst[0] = l[0]
		dst[stride] = l[1]
		dst[2*stride] = l[2]
		dst[3*stride] = 20 * l[1]
		dst[4*stride] = 20 * l[2]
	}
	for lane, blk := range ifmaOrder {
		put(pw[lane:], 8, pow[8-blk])
	}
	put(pw[40:], 1, pow[8])
	return pw
}

// mulR returns h·r, partially reduced like the accumulator (below
// 2^130 + 2^66), for h below 2^130 + 2^66: key setup computes the powers
// of r the vector paths use with it. It is blocksGeneric's step without
// the message.
func mulR(h [3]uint64, r *[3]uint64) [3]uint64 {
	h0, h1, h2 := h[0], h[1], h[2]
	r0, r1, s1 := r[0], r[1], r[2]
	a1, a0 := bits.Mul64(h0, r0)
	c1, c0 := bits.Mul64(h1, s1)
	b1, b0 := bits.Mul64(h1, r0)
	e1, e0 := bits.Mul64(h0, r1)
	t1 := h2 * s1
	t2 := h2 * r0
	d0, c := bits.Add64(a0, c0, 0)
	d1, c := bits.Add64(a1, c1, c)
	d2 := b1 + e1 + t2 + c
	d1, c = bits.Add64(d1, b0, 0)
	d2 += c
	d1, c = bits.Add64(d1, e0, 0)
	d2 += c
	d1, c = bits.Add64(d1, t1, 0)
	d2 += c
	h0, h1, h2 = d0, d1, d2&3
	cc := d2 &^ 3
	h0, c = bits.Add64(h0, cc, 0)
	h1, c = bits.Add64(h1, 0, c)
	h2 += c
	cc >>= 2
	h0, c = bits.Add64(h0, cc, 0)
	h1, c = bits.Add64(h1, 0, c)
	h2 += c
	return [3]uint64{h0, h1, h2}
}
