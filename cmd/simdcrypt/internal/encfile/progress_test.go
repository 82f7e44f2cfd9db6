package encfile

import (
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		done, total int64
		elapsed     time.Duration
		cols        int
		want        string
	}{
		{512 << 20, 1 << 30, 2 * time.Second, 120,
			"simdcrypt enc  50% [===============>              ] 512.0 MiB / 1.0 GiB  256.0 MiB/s  ETA 2s"},
		{1 << 30, 1 << 30, 4 * time.Second, 120,
			"simdcrypt enc 100% [==============================] 1.0 GiB / 1.0 GiB  256.0 MiB/s"},
		{0, 0, time.Second, 120,
			"simdcrypt enc 100% [==============================] 0 B / 0 B  0 B/s"},
		{0, 1000, time.Second, 120,
			"simdcrypt enc   0% [>                             ] 0 B / 1000 B  0 B/s"},
		{1500, -1, 3 * time.Second, 120, "simdcrypt enc  1.5 KiB  500 B/s"},
		// Narrow terminals: the bar goes, then the estimate, then the text is cut.
		{512 << 20, 1 << 30, 2 * time.Second, 70, "simdcrypt enc  50% 512.0 MiB / 1.0 GiB  256.0 MiB/s  ETA 2s"},
		{512 << 20, 1 << 30, 2 * time.Second, 55, "simdcrypt enc  50% 512.0 MiB / 1.0 GiB  256.0 MiB/s"},
		{512 << 20, 1 << 30, 2 * time.Second, 12, "simdcrypt e"},
		{1500, -1, 3 * time.Second, 10, "simdcrypt"},
	} {
		got := progressLine(tc.done, tc.total, tc.elapsed, tc.cols)
		if got != tc.want {
			t.Errorf("progressLine(%d, %d, %v, %d) =\n%q, want\n%q", tc.done, tc.total, tc.elapsed, tc.cols, got, tc.want)
		}
		if len(got) >= tc.cols {
			t.Errorf("line of %d characters on %d columns would wrap", len(got), tc.cols)
		}
		if strings.ContainsAny(got, "\r\n") {
			t.Errorf("line %q holds a line break", got)
		}
	}
}
