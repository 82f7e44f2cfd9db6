package alias

import "testing"

func TestOverlap(t *testing.T) {
	b := make([]byte, 64)
	cases := []struct {
		x, y         []byte
		any, inexact bool
	}{
		{b[:16], b[:16], true, false},
		{b[:16], b[16:32], false, false},
		{b[:17], b[16:32], true, true},
		{b[1:17], b[:16], true, true},
		{b[:0], b[:16], false, false},
		{b[:16], make([]byte, 16), false, false},
		{b[:32], b[:16], true, false},
	}
	for i, c := range cases {
		if got := AnyOverlap(c.x, c.y); got != c.any {
			t.Errorf("case %d: AnyOverlap = %v", i, got)
		}
		if got := InexactOverlap(c.x, c.y); got != c.inexact {
			t.Errorf("case %d: InexactOverlap = %v", i, got)
		}
	}
}
