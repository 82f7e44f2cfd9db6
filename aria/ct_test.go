package aria

import "testing"

func rotr8(x byte, n int) byte { return x>>n | x<<(8-n) }

// aesInvAffine and aesAffine are the AES S-box's affine map and its
// inverse on one byte (FIPS 197 5.1.1, 5.3.2).
func aesInvAffine(v byte) byte { return rotr8(v, 2) ^ rotr8(v, 5) ^ rotr8(v, 7) ^ 0x05 }
func aesAffine(v byte) byte {
	return v ^ rotr8(v, 7) ^ rotr8(v, 6) ^ rotr8(v, 5) ^ rotr8(v, 4) ^ 0x63
}

// TestPlaneMaps checks the bitsliced affine maps and the S-box circuit
// against RFC 5794's tables on every byte value: each S-box is S between
// the maps as ct.go says.
func TestPlaneMaps(t *testing.T) {
	maps := []struct {
		name  string
		apply func(*planes, uint64)
		want  func(byte) byte
	}{
		{"A⁻¹", invAffPlanes, aesInvAffine},
		{"L2", l2Planes, func(y byte) byte { return sb2[sb3[y]] }},
		{"P4", p4Planes, func(x byte) byte { return sb3[aesAffine(sb4[x])] }},
	}
	for base := 0; base < 256; base += ctBatch {
		var in [ctBatch]byte
		for i := range in {
			in[i] = byte(base + i)
		}
		for _, m := range maps {
			var q planes
			load(&q, &in)
			m.apply(&q, ^uint64(0))
			var out [ctBatch]byte
			store(&q, &out)
			for i, x := range in {
				if out[i] != m.want(x) {
					t.Fatalf("%s(%#02x) = %#02x, want %#02x", m.name, x, out[i], m.want(x))
				}
			}
		}
		for odd, want := range map[bool][4]*[256]byte{true: {&sb1, &sb2, &sb3, &sb4}, false: {&sb3, &sb4, &sb1, &sb2}} {
			var q planes
			load(&q, &in)
			substitute(&q, odd)
			var out [ctBatch]byte
			store(&q, &out)
			for i, x := range in {
				if w := want[i%4][x]; out[i] != w {
					t.Fatalf("SL (odd %v) byte %d: S(%#02x) = %#02x, want %#02x", odd, i%16, x, out[i], w)
				}
			}
		}
	}
}
