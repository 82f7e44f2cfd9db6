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
	// Values 9, 10, 10, 10, 11, 50: median 10; quartiles by interpolation
	// at positions 1.25 (10) and 3.75 (10.75) -> IQR 0.75, relative 0.075;
	// the outlier 50 does not count.
	within(t, "spread", RelSpread([]float64{9, 10, 10, 10, 11, 50}), 0.075, 1e-12)
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
	// Twice whatever last-level cache this host reports (or the default),
	// capped: no assumption about the host's cache.
	llc, ok := LLCBytes()
	if !ok {
		llc = DefaultLLCBytes
	}
	ws, how := ColdWorkingSet()
	if ws != min(2*llc, MaxColdBytes) || how == "" {
		t.Errorf("ColdWorkingSet = %d (%s) for a last-level cache of %d", ws, how, llc)
	}
}

func TestMannWhitney(t *testing.T) {
	// Exact: complete separation of 3+3 is 2 of C(6,3) = 20 orderings.
	within(t, "p 3+3 separated", MannWhitney([]float64{1, 2, 3}, []float64{4, 5, 6}), 0.1, 1e-12)
	// Ranks of x 1,2,3,4,7 -> U = 2; orderings with U ≤ 2 of 5+6 values:
	// 1 + 1 + 2 = 4 of C(11,5) = 462, both tails 8/462.
	within(t, "p 5+6", MannWhitney([]float64{1.1, 2.2, 3.3, 4.4, 7.7}, []float64{5.5, 6.6, 8.8, 9.9, 10.1, 12.3}), 8.0/462, 1e-12)
	// Ties: 6+6 separated with ties inside each side is still 2/924.
	within(t, "p ties", MannWhitney([]float64{1, 1, 0.9, 1.1, 1, 0.8}, []float64{2, 2, 2.1, 1.9, 2, 2}), 2.0/924, 1e-12)
	// Identical samples: nothing is more extreme than U = n1·n2/2.
	within(t, "p equal", MannWhitney([]float64{1, 1, 1}, []float64{1, 1, 1}), 1, 1e-12)
	// Normal approximation: x = 0..59, y = x + 12.5 -> U = 1128,
	// µ = 1800, σ = √(3600·121/12) = 190.53, z = (672 − 0.5)/σ = 3.524,
	// p = erfc(z/√2) ≈ 4.245e-4.
	var xs, ys []float64
	for i := range 60 {
		xs = append(xs, float64(i))
		ys = append(ys, float64(i)+12.5)
	}
	within(t, "p normal", MannWhitney(xs, ys), 4.245e-4, 0.01)
	if !math.IsNaN(MannWhitney(nil, []float64{1})) {
		t.Error("empty sample gives a p-value")
	}
	within(t, "min p 5+5", minP(5, 5), 2.0/252, 1e-12)
}
