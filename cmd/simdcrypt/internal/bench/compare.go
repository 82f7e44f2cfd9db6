package bench

import (
	"fmt"
	"io"
	"strconv"

	"golang.org/x/perf/benchmath"
)

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
		th := benchmath.DefaultThresholds
		sa := benchmath.NewSample(append([]float64(nil), ra.Samples...), &th)
		sb := benchmath.NewSample(append([]float64(nil), rb.Samples...), &th)
		cmp := benchmath.AssumeNothing.Compare(sa, sb)
		ca, cb := median(ra.Samples), median(rb.Samples)
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
			Delta: cmp.FormatDelta(ca, cb), Stat: cmp.String(), P: cmp.P, Alpha: cmp.Alpha,
			Warnings: cmp.Warnings, DeltaFraction: cb/ca - 1, Significant: cmp.P <= cmp.Alpha,
			ThroughputGain: ca / cb,
		})
	}
	return out
}

// WriteComparisons prints one line per comparison, benchstat style: each
// side's median ns/B ± spread, the delta of B against A ("~" when the U
// test does not reject equality at α=0.05) and p=… n=…+….
func WriteComparisons(w io.Writer, cs []Comparison, labelA, labelB string) {
	fmt.Fprintf(w, "A = %s, B = %s; ns/B median ± robust spread; delta = B vs A in ns/B (− is faster), ~ = no significant difference (Mann–Whitney U, α=0.05)\n", labelA, labelB)
	t := &table{right: []bool{false, true, true, true, true, true, false}}
	t.add("figure", "A ns/B", "±", "B ns/B", "±", "delta", "")
	var warned []string
	for _, c := range cs {
		t.add(c.Name, num(c.CenterA), pct(c.SpreadA), num(c.CenterB), pct(c.SpreadB), c.Delta, "("+c.Stat+")")
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
	if len(warned) > 0 {
		fmt.Fprintf(w, "note: %s\n", warned[0])
	}
}
