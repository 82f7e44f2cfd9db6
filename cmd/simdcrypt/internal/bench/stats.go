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

// quantile is the q-quantile of xs (0 ≤ q ≤ 1) by linear interpolation
// between order statistics (type 7, R's and NumPy's default), without
// modifying xs; NaN when empty.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	h := q * float64(len(s)-1)
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// mean is the arithmetic mean of xs (NaN when empty).
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// RelSpread is the spread figure the tables print: the interquartile range
// of the repetitions relative to their median. Half the repetitions lie
// within it, and unlike a standard deviation one preempted repetition does
// not inflate it. 0.04 means the middle half spans 4% of the median.
func RelSpread(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := median(xs)
	if m == 0 {
		return 0
	}
	return (quantile(xs, 0.75) - quantile(xs, 0.25)) / math.Abs(m)
}

// NoisyAbove is the relative spread above which a row is marked noisy.
const NoisyAbove = 0.05

// MannWhitney is the two-sided Mann–Whitney U test of the hypothesis that
// xs and ys come from the same distribution, as benchstat runs it. It
// returns the p-value: exact (counting every assignment of the ranks, ties
// included) for up to exactUpTo values in all, else from the normal
// approximation with tie and continuity corrections. NaN when either
// sample is empty.
func MannWhitney(xs, ys []float64) float64 {
	n1, n2 := len(xs), len(ys)
	if n1 == 0 || n2 == 0 {
		return math.NaN()
	}
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, n1+n2)
	for _, x := range xs {
		all = append(all, obs{x, true})
	}
	for _, y := range ys {
		all = append(all, obs{y, false})
	}
	slices.SortFunc(all, func(a, b obs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	// Mid-ranks; tieTerm accumulates Σ(t³−t) over groups of ties.
	var r1, tieTerm float64
	var ranks []float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // ranks i+1..j, averaged
		for k := i; k < j; k++ {
			ranks = append(ranks, rank)
			if all[k].first {
				r1 += rank
			}
		}
		if t := float64(j - i); t > 1 {
			tieTerm += t*t*t - t
		}
		i = j
	}
	u1 := r1 - float64(n1*(n1+1))/2
	u := min(u1, float64(n1*n2)-u1)
	if n1+n2 <= exactUpTo {
		return exactU(ranks, n1, u)
	}
	n := float64(n1 + n2)
	mu := float64(n1*n2) / 2
	sigma := math.Sqrt(float64(n1*n2) / 12 * (n + 1 - tieTerm/(n*(n-1))))
	if sigma == 0 {
		return 1
	}
	z := (mu - u - 0.5) / sigma
	if z < 0 {
		return 1
	}
	return min(1, math.Erfc(z/math.Sqrt2))
}

// exactUpTo is the largest n1+n2 for which MannWhitney counts arrangements
// rather than approximating: a few million additions at most.
const exactUpTo = 100

// exactU is the two-sided p-value of U statistic u (the smaller of U1 and
// U2) by counting, among all ways of giving n1 of the (mid-)ranks to the
// first sample, those whose U is at least as extreme. Ranks are doubled so
// mid-ranks of ties stay integers; ways[k][s] counts the k-subsets of the
// ranks seen so far with doubled rank sum s.
func exactU(ranks []float64, n1 int, u float64) float64 {
	n := len(ranks)
	n2 := n - n1
	maxSum := n * (n + 1)
	ways := make([][]float64, n1+1)
	for k := range ways {
		ways[k] = make([]float64, maxSum+1)
	}
	ways[0][0] = 1
	for _, r := range ranks {
		d := int(math.Round(2 * r))
		for k := n1; k >= 1; k-- {
			for s := maxSum; s >= d; s-- {
				ways[k][s] += ways[k-1][s-d]
			}
		}
	}
	var total, extreme float64
	base := float64(n1*(n1+1)) / 2
	for s, c := range ways[n1] {
		if c == 0 {
			continue
		}
		total += c
		u1 := float64(s)/2 - base
		if min(u1, float64(n1*n2)-u1) <= u+1e-9 {
			extreme += c
		}
	}
	return min(1, extreme/total)
}

// isFinite reports whether x is neither NaN nor ±Inf.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
