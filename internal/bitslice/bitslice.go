// Package bitslice holds the pieces of the constant-time portable ciphers
// (AES, ARIA) that work on bitsliced state: eight 64-bit words ("planes"),
// plane b holding bit b of 64 bytes. Nothing here indexes memory or
// branches on data.
package bitslice

// swapBits exchanges the bits of a selected by hi with those of b selected
// by lo, s positions apart (hi == lo << s).
func swapBits(a, b *uint64, lo uint64, s uint) {
	x, y := *a, *b
	*a = x&lo | (y&lo)<<s
	*b = (x>>s)&lo | y&^lo
}

// Transpose transposes, for each of the eight byte positions, the 8×8 bit
// matrix whose row j is that byte of q[j]. It is its own inverse.
func Transpose(q *[8]uint64) {
	swapBits(&q[0], &q[1], 0x5555555555555555, 1)
	swapBits(&q[2], &q[3], 0x5555555555555555, 1)
	swapBits(&q[4], &q[5], 0x5555555555555555, 1)
	swapBits(&q[6], &q[7], 0x5555555555555555, 1)
	swapBits(&q[0], &q[2], 0x3333333333333333, 2)
	swapBits(&q[1], &q[3], 0x3333333333333333, 2)
	swapBits(&q[4], &q[6], 0x3333333333333333, 2)
	swapBits(&q[5], &q[7], 0x3333333333333333, 2)
	swapBits(&q[0], &q[4], 0x0f0f0f0f0f0f0f0f, 4)
	swapBits(&q[1], &q[5], 0x0f0f0f0f0f0f0f0f, 4)
	swapBits(&q[2], &q[6], 0x0f0f0f0f0f0f0f0f, 4)
	swapBits(&q[3], &q[7], 0x0f0f0f0f0f0f0f0f, 4)
}

// Sbox is the AES S-box on planes p0 (least significant bit) to p7: the
// circuit of Boyar and Peralta ("A depth-16 circuit for the AES S-box",
// 2011), whose inputs u0 and outputs s0 are the most significant bits.
// Eight words in and out fit the register ABI: no memory in between.
func Sbox(p0, p1, p2, p3, p4, p5, p6, p7 uint64) (r0, r1, r2, r3, r4, r5, r6, r7 uint64) {
	u0, u1, u2, u3 := p7, p6, p5, p4
	u4, u5, u6, u7 := p3, p2, p1, p0

	// Top linear layer.
	y14 := u3 ^ u5
	y13 := u0 ^ u6
	y9 := u0 ^ u3
	y8 := u0 ^ u5
	t0 := u1 ^ u2
	y1 := t0 ^ u7
	y4 := y1 ^ u3
	y12 := y13 ^ y14
	y2 := y1 ^ u0
	y5 := y1 ^ u6
	y3 := y5 ^ y8
	t1 := u4 ^ y12
	y15 := t1 ^ u5
	y20 := t1 ^ u1
	y6 := y15 ^ u7
	y10 := y15 ^ t0
	y11 := y20 ^ y9
	y7 := u7 ^ y11
	y17 := y10 ^ y11
	y19 := y10 ^ y8
	y16 := t0 ^ y11
	y21 := y13 ^ y16
	y18 := u0 ^ y16

	// Middle, non-linear layer: inversion in GF(2^4)^2, between two rounds
	// of ANDs on three groups of inputs (sharedAnd, andPairs below).
	t4, t6 := sharedAnd(y12, y15, y3, y6, y4, u7)
	t9, t11 := sharedAnd(y13, y16, y5, y1, y2, y7)
	t14, t16 := sharedAnd(y9, y11, y14, y17, y8, y10)
	t17 := t4 ^ t14
	t18 := t6 ^ t16
	t19 := t9 ^ t14
	t20 := t11 ^ t16
	t21 := t17 ^ y20
	t22 := t18 ^ y19
	t23 := t19 ^ y21
	t24 := t20 ^ y18

	t25 := t21 ^ t22
	t26 := t21 & t23
	t27 := t24 ^ t26
	t28 := t25 & t27
	t29 := t28 ^ t22
	t30 := t23 ^ t24
	t31 := t22 ^ t26
	t32 := t31 & t30
	t33 := t32 ^ t24
	t34 := t23 ^ t33
	t35 := t27 ^ t33
	t36 := t24 & t35
	t37 := t36 ^ t34
	t38 := t27 ^ t36
	t39 := t29 & t38
	t40 := t25 ^ t39

	t41 := t40 ^ t37
	t42 := t29 ^ t33
	t43 := t29 ^ t40
	t44 := t33 ^ t37
	t45 := t42 ^ t41
	z0, z1, z2, z9, z10, z11 := andPairs(t44, t37, t33, y15, y6, u7, y12, y3, y4)
	z3, z4, z5, z12, z13, z14 := andPairs(t43, t40, t29, y16, y1, y7, y13, y5, y2)
	z6, z7, z8, z15, z16, z17 := andPairs(t42, t45, t41, y11, y17, y10, y9, y14, y8)

	// Bottom linear layer, with the affine constant 0x63 as complements.
	t46 := z15 ^ z16
	t47 := z10 ^ z11
	t48 := z5 ^ z13
	t49 := z9 ^ z10
	t50 := z2 ^ z12
	t51 := z2 ^ z5
	t52 := z7 ^ z8
	t53 := z0 ^ z3
	t54 := z6 ^ z7
	t55 := z16 ^ z17
	t56 := z12 ^ t48
	t57 := t50 ^ t53
	t58 := z4 ^ t46
	t59 := z3 ^ t54
	t60 := t46 ^ t57
	t61 := z14 ^ t57
	t62 := t52 ^ t58
	t63 := t49 ^ t58
	t64 := z4 ^ t59
	t65 := t61 ^ t62
	t66 := z1 ^ t63
	s0 := t59 ^ t63
	s6 := ^(t56 ^ t62)
	s7 := ^(t48 ^ t60)
	t67 := t64 ^ t65
	s3 := t53 ^ t66
	s4 := t51 ^ t66
	s5 := t47 ^ t65
	s1 := ^(t64 ^ s3)
	s2 := ^(t55 ^ t67)

	return s7, s6, s5, s4, s3, s2, s1, s0
}

// sharedAnd is the first round of ANDs on one group of the circuit's
// inputs: a0&b0 shared by the other two products.
func sharedAnd(a0, b0, a1, b1, a2, b2 uint64) (x, y uint64) {
	p := a0 & b0
	return a1&b1 ^ p, a2&b2 ^ p
}

// andPairs is the last round of ANDs on one group: the three inverse
// terms m0..m2 against both halves of the group's inputs.
func andPairs(m0, m1, m2, b0, b1, b2, a0, a1, a2 uint64) (z0, z1, z2, z3, z4, z5 uint64) {
	return m0 & b0, m1 & b1, m2 & b2, m0 & a0, m1 & a1, m2 & a2
}
