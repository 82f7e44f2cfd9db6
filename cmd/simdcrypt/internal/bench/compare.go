package bench

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// Alpha is the significance level of comparisons.
const Alpha = 0.05

// Comparison is one figure measured two ways (two implementations, or two
// saved runs), tested with the Mann–Whitney U test as benchstat does.
type Comparison struct {
	Name           string // "aes-128-ctr/encrypt size=slope" (+ impl for file comparisons)
	A, B           Result // aggregated over runs
	CenterA        float64
	CenterB        float64
	SpreadA        float64
	SpreadB        float64
	Delta          string // "+5.70%" (B's ns/B against A's: + is slower), or "~" when not significant
	Stat           string // "p=0.008 n=5+5"
	P              float64
	Warnings       []error
	Alpha          float64
	DeltaFraction  float64 // B/A − 1 of the medians
	Significant    bool
	ThroughputGain float64 // A's ns/B over B's: >1 means B is faster
}

type cmpKey struct {
	cipher, dir, impl    string
	size, offset, thread int
	cold                 bool
}

func cmpKeyOf(r *Result, withImpl bool) cmpKey {
	k := cmpKey{r.Target.Cipher, r.Target.Direction, "", r.Size, r.Offset, r.Threads, r.Cold}
	if withImpl {
		k.impl = r.Target.Impl
	}
	return k
}

// CompareImpls pairs the figures of implementations a and b in one set of
// results (same cipher, direction, size, offset, threads).
func CompareImpls(results []Result, a, b string) []Comparison {
	var as, bs []Result
	for _, r := range results {
		switch r.Target.Impl {
		case a:
			as = append(as, r)
		case b:
			bs = append(bs, r)
		}
	}
	return compare(as, bs, false)
}

// CompareRuns pairs the figures of two saved result sets (same cipher,
// direction, implementation, size, offset, threads).
func CompareRuns(a, b []Result) []Comparison { return compare(a, b, true) }

func compare(as, bs []Result, withImpl bool) []Comparison {
	aggA, aggB := Aggregate(as), Aggregate(bs)
	byKey := map[cmpKey]*Result{}
	for i := range aggB {
		byKey[cmpKeyOf(&aggB[i], withImpl)] = &aggB[i]
	}
	var out []Comparison
	for i := range aggA {
		ra := &aggA[i]
		rb, ok := byKey[cmpKeyOf(ra, withImpl)]
		if !ok || len(ra.Samples) == 0 || len(rb.Samples) == 0 {
			continue
		}
		p := MannWhitney(ra.Samples, rb.Samples)
		ca, cb := median(ra.Samples), median(rb.Samples)
		sig := p <= Alpha
		delta := "~"
		if sig {
			delta = fmt.Sprintf("%+.2f%%", 100*(cb/ca-1))
		}
		na, nb := len(ra.Samples), len(rb.Samples)
		stat := fmt.Sprintf("p=%.3f n=%d", p, na)
		if na != nb {
			stat = fmt.Sprintf("p=%.3f n=%d+%d", p, na, nb)
		}
		var warnings []error
		if best := minP(na, nb); best > Alpha {
			warnings = append(warnings, fmt.Errorf("with n=%d+%d the U test cannot reach p ≤ %.2f whatever the data (best p=%.3f); measure more with -count", na, nb, Alpha, best))
		}
		name := ra.Target.Group()
		if withImpl {
			name += "/" + ra.Target.Impl
		}
		size := "slope"
		if ra.Size > 0 {
			size = FormatBytes(int64(ra.Size))
		}
		name += " size=" + size
		if ra.Offset != 0 {
			name += " offset=" + strconv.Itoa(ra.Offset)
		}
		if ra.Threads > 1 {
			name += " threads=" + strconv.Itoa(ra.Threads)
		}
		out = append(out, Comparison{
			Name: name, A: *ra, B: *rb, CenterA: ca, CenterB: cb,
			SpreadA: RelSpread(ra.Samples), SpreadB: RelSpread(rb.Samples),
			Delta: delta, Stat: stat, P: p, Alpha: Alpha,
			Warnings: warnings, DeltaFraction: cb/ca - 1, Significant: sig,
			ThroughputGain: ca / cb,
		})
	}
	return out
}

// WriteComparisons prints one line per comparison, benchstat style: each
// side's median ns/B ± spread, the delta of B against A ("~" when the U
// test does not reject equality at α=0.05) and p=… n=…+….
func WriteComparisons(w io.Writer, cs []Comparison, labelA, labelB string) {
	fmt.Fprintf(w, "A = %s, B = %s; ns/B median, ± interquartile range / median; delta = B vs A in ns/B (− is faster), ~ = no significant difference (Mann–Whitney U, α=0.05)\n", labelA, labelB)
	t := &table{right: []bool{false, true, true, true, true, true, false}}
	t.add("figure", "A ns/B", "±", "B ns/B", "±", "delta", "")
	var warned []string
	insignificant := 0
	for _, c := range cs {
		verdict := "(" + c.Stat + ")"
		if !c.Significant {
			verdict += " not significant"
			insignificant++
		}
		t.add(c.Name, num(c.CenterA), pct(c.SpreadA), num(c.CenterB), pct(c.SpreadB), c.Delta, verdict)
		for _, w := range c.Warnings {
			if s := w.Error(); len(warned) == 0 || warned[len(warned)-1] != s {
				warned = append(warned, s)
			}
		}
	}
	t.write(w, "")
	if len(cs) == 0 {
		fmt.Fprintln(w, "(no figure was measured both ways)")
	}
	if insignificant > 0 {
		fmt.Fprintf(w, "%d of %d comparisons are not significant (~): the difference may be noise\n", insignificant, len(cs))
	}
	if len(warned) > 0 {
		fmt.Fprintf(w, "note: %s\n", warned[0])
	}
}

// minP is the smallest two-sided p-value the U test can give for samples
// of na and nb values: both orderings that separate them completely,
// 2 / C(na+nb, na).
func minP(na, nb int) float64 {
	lc := 0.0 // log C(na+nb, na)
	for i := 1; i <= na; i++ {
		lc += math.Log(float64(nb+i)) - math.Log(float64(i))
	}
	return min(1, 2/math.Exp(lc))
}
