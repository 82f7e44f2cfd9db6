package aria

import (
	"math/rand/v2"
	"testing"
)

// TestSubstKey checks the arithmetic S-box layers of key setup against the
// tables: every byte value at every position, for SL1 and SL2.
func TestSubstKey(t *testing.T) {
	for v := 0; v < 256; v++ {
		var x block
		for i := range x {
			x[i] = byte(v + 37*i)
		}
		if got, want := substKey(x, true), substOdd(x); got != want {
			t.Fatalf("SL1(%x) = %x, tables give %x", x, got, want)
		}
		if got, want := substKey(x, false), substEven(x); got != want {
			t.Fatalf("SL2(%x) = %x, tables give %x", x, got, want)
		}
	}
}

// TestKeySetupUsesNoTables proves that key setup indexes no S-box table by
// key bytes: with the tables zeroed it must still produce the schedule it
// produces with them. (Not parallel: it changes package state.)
func TestKeySetupUsesNoTables(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, ks := range []int{16, 24, 32} {
		key := make([]byte, ks)
		for i := range key {
			key[i] = byte(r.Uint32())
		}
		want, err := expandKey(key)
		if err != nil {
			t.Fatal(err)
		}
		saved := [...][256]byte{sb1, sb2, sb3, sb4}
		clear(sb1[:])
		clear(sb2[:])
		clear(sb3[:])
		clear(sb4[:])
		got, err := expandKey(key)
		sb1, sb2, sb3, sb4 = saved[0], saved[1], saved[2], saved[3]
		if err != nil {
			t.Fatal(err)
		}
		if *got != *want {
			t.Errorf("key of %d bytes: the schedule depends on the S-box tables", ks)
		}
	}
}
