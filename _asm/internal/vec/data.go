package vec

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// Read-only constants. Repeating a 16-byte pattern up to 64 bytes lets code
// of every width read the same symbol (a prefix of it) as a full-width
// memory operand.

// Qwords emits a RODATA symbol of size bytes holding qs repeated, one
// 8-byte DATA directive each.
func Qwords(name string, size int, qs ...uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < size/8; i++ {
		DATA(8*i, U64(qs[i%len(qs)]))
	}
	return m
}

// Dwords is Qwords with 4-byte values.
func Dwords(name string, size int, ds ...uint32) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < size/4; i++ {
		DATA(4*i, U32(ds[i%len(ds)]))
	}
	return m
}

// Bytes emits a RODATA symbol holding bs, one 1-byte DATA directive each.
func Bytes(name string, bs []byte) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i, b := range bs {
		DATA(i, U8(b))
	}
	return m
}

// ByteReverse emits the 16-byte PSHUFB control that reverses a block's
// bytes: big-endian counters to little-endian 64-bit halves and back (AES
// CTR), or GHASH's byte order.
func ByteReverse(name string) Mem {
	return Qwords(name, 16, 0x08090a0b0c0d0e0f, 0x0001020304050607)
}

// RotateDwordsMask emits size bytes of PSHUFB control rotating every 32-bit
// word left by 8*r bits: byte k of a word takes byte (k-r) mod 4.
func RotateDwordsMask(name string, r, size int) Mem {
	bs := make([]byte, size)
	for i := range bs {
		base := i &^ 3
		bs[i] = byte(base + (i-base-r+4)%4)
	}
	return Bytes(name, bs)
}
