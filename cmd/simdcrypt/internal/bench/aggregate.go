package bench

import (
	"fmt"
	"slices"
)

// key identifies a figure across runs.
type key struct {
	target               *Target
	size, offset, thread int
}

func keyOf(r *Result) key { return key{r.Target, r.Size, r.Offset, r.Threads} }

// Aggregate merges the runs of each figure (same target, size, offset and
// threads) into one Result: the median of the runs' figures, the mean of
// their means, all samples and their spread.
// Order is that of first appearance.
func Aggregate(rs []Result) []Result {
	idx := map[key]int{}
	var out []Result
	var centers, overheads, means, cpus [][]float64
	for _, r := range rs {
		k := keyOf(&r)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			m := r
			m.Samples = slices.Clone(r.Samples)
			m.Overheads = slices.Clone(r.Overheads)
			out = append(out, m)
			centers = append(centers, []float64{r.NsPerByte})
			overheads = append(overheads, []float64{r.OverheadNs})
			means = append(means, []float64{r.MeanNsPerByte})
			cpus = append(cpus, []float64{r.CPUNsPerByte})
			continue
		}
		m := &out[i]
		m.Samples = append(m.Samples, r.Samples...)
		m.Overheads = append(m.Overheads, r.Overheads...)
		m.Calls += r.Calls
		m.Reps = min(m.Reps, r.Reps) // a run the budget cut shows
		m.FitFailed = m.FitFailed || r.FitFailed
		centers[i] = append(centers[i], r.NsPerByte)
		overheads[i] = append(overheads[i], r.OverheadNs)
		means[i] = append(means[i], r.MeanNsPerByte)
		cpus[i] = append(cpus[i], r.CPUNsPerByte)
	}
	for i := range out {
		if len(centers[i]) > 1 {
			out[i].NsPerByte = median(centers[i])
			out[i].OverheadNs = median(overheads[i])
			out[i].MeanNsPerByte = mean(means[i])
			out[i].CPUNsPerByte = mean(cpus[i])
			if slices.Contains(cpus[i], 0) {
				out[i].CPUNsPerByte = 0 // some run had no CPU clock
			}
			// The spread of every repetition of every run.
			out[i].Spread = RelSpread(out[i].Samples)
		}
	}
	return out
}

// baselineFor finds the baseline figure r is compared with: same cipher,
// direction, size, offset and threads, implementation a baseline.
func baselineFor(rs []Result, r *Result) *Result {
	for i := range rs {
		b := &rs[i]
		if b.Target.Baseline && b.Target.Group() == r.Target.Group() &&
			b.Size == r.Size && b.Offset == r.Offset && b.Threads == r.Threads {
			return b
		}
	}
	return nil
}

// Ratio is r's throughput over its baseline's (>1: faster than Go's own),
// or 0 when there is no baseline.
func Ratio(rs []Result, r *Result) float64 {
	b := baselineFor(rs, r)
	if b == nil {
		return 0
	}
	return b.NsPerByte / r.NsPerByte
}

func fmtRatio(x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", x)
}
