package bench

import (
	"math"
	"testing"
)

func TestFitLineExact(t *testing.T) {
	xs := []float64{1024, 4096, 8192, 16384}
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = 35 + 0.0625*x
	}
	f := FitLine(xs, ys)
	within(t, "slope", f.Slope, 0.0625, 1e-12)
	within(t, "intercept", f.Intercept, 35, 1e-9)
	within(t, "R²", f.R2, 1, 1e-12)
}

func TestFitLineKnownLeastSquares(t *testing.T) {
	// Worked by hand: x̄ = 2.5, ȳ = 3.5, Sxx = 5, Sxy = 3.75 − 0.25 − 0.25 +
	// 3.75 = 7 -> slope 1.4, intercept 3.5 − 1.4·2.5 = 0; Syy = 13 ->
	// R² = 7²/(5·13).
	f := FitLine([]float64{1, 2, 3, 4}, []float64{1, 4, 3, 6})
	within(t, "slope", f.Slope, 1.4, 1e-12)
	if math.Abs(f.Intercept) > 1e-12 {
		t.Errorf("intercept = %g, want 0", f.Intercept)
	}
	within(t, "R²", f.R2, 49.0/65, 1e-12)
}

func TestFitLineDegenerate(t *testing.T) {
	if f := FitLine([]float64{5, 5, 5}, []float64{1, 2, 3}); !math.IsNaN(f.Slope) {
		t.Errorf("slope from one distinct x = %g, want NaN", f.Slope)
	}
	if f := FitLine([]float64{1}, []float64{1}); !math.IsNaN(f.Slope) {
		t.Errorf("slope from one point = %g, want NaN", f.Slope)
	}
}

func TestMedianAndSpread(t *testing.T) {
	if m := Median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median odd = %g", m)
	}
	if m := Median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median even = %g", m)
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("median of nothing is not NaN")
	}
	in := []float64{3, 1, 2}
	Median(in)
	if in[0] != 3 {
		t.Error("Median reordered its input")
	}
	// Values 9, 10, 10, 10, 11, 50: median 10, deviations 1,0,0,0,1,40 ->
	// MAD 0.5 -> 1.4826·0.5/10; the outlier 50 does not count.
	within(t, "spread", RelSpread([]float64{9, 10, 10, 10, 11, 50}), 1.4826*0.5/10, 1e-12)
	if s := RelSpread([]float64{7, 7, 7}); s != 0 {
		t.Errorf("spread of equal values = %g", s)
	}
}

func TestFormatBytesAndCacheSize(t *testing.T) {
	for in, want := range map[int64]string{16: "16", 1024: "1K", 16384: "16K", 300 << 20: "300M", 1 << 30: "1G", 1536: "1.5K"} {
		if got := FormatBytes(in); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]int64{"48K": 48 << 10, "307200K": 300 << 20, "2M": 2 << 20, "512": 512} {
		if got, err := parseCacheSize(in); err != nil || got != want {
			t.Errorf("parseCacheSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	ws, how := ColdWorkingSet()
	if ws < 2*DefaultLLCBytes && ws != MaxColdBytes || ws > MaxColdBytes || how == "" {
		t.Errorf("ColdWorkingSet = %d (%s)", ws, how)
	}
}
