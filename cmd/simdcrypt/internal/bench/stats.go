package bench

import (
	"math"
	"slices"
)

// Fit is a least-squares line y = Intercept + Slope·x.
type Fit struct {
	Slope, Intercept float64
	R2               float64 // coefficient of determination, 1 for a perfect line
}

// FitLine fits y = a + b·x by ordinary least squares. With fewer than two
// distinct x values the slope is undetermined and NaN is returned.
func FitLine(xs, ys []float64) Fit {
	n := float64(len(xs))
	if len(xs) != len(ys) || len(xs) < 2 {
		return Fit{math.NaN(), math.NaN(), math.NaN()}
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= n
	my /= n
	var sxx, sxy, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return Fit{math.NaN(), math.NaN(), math.NaN()}
	}
	b := sxy / sxx
	r2 := 1.0
	if syy > 0 {
		r2 = sxy * sxy / (sxx * syy)
	}
	return Fit{Slope: b, Intercept: my - b*mx, R2: r2}
}

// median returns the median of xs without modifying it (NaN when empty).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Median returns the median of xs.
func Median(xs []float64) float64 { return median(xs) }

// RelSpread is the spread figure the tables print: the median absolute
// deviation scaled by 1.4826 (so it estimates the standard deviation of
// normal data while ignoring the odd preempted batch), relative to the
// median. 0.02 means ±2%.
func RelSpread(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	if m == 0 {
		return 0
	}
	return 1.4826 * median(dev) / math.Abs(m)
}
