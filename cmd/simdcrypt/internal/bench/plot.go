package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Plot writes throughput against buffer size to path as SVG: one panel
// per cipher and direction, one line per implementation (variants dashed in
// their path's colour, Go's baseline black, the default path thick), size
// on a log axis. It uses the fixed-size figures at the first offset, one
// thread. The SVG is written by hand: a few hundred elements of plain
// markup do not justify a plotting library in the module's dependencies.
func Plot(path string, results []Result, env *Env) error {
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".svg" {
		return fmt.Errorf("%s: plot files must end in .svg", path)
	}
	panels, offset := plotPanels(Aggregate(results))
	if len(panels) == 0 {
		return fmt.Errorf("no fixed-size figures to plot (measure with -size)")
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	writeSVG(f, panels, offset, env)
	return f.Close()
}

type plotSeries struct {
	t      *Target
	xs, ys []float64 // bytes, MB/s
}

type plotPanel struct {
	title  string
	series []*plotSeries
}

func plotPanels(rs []Result) ([]*plotPanel, int) {
	var panels []*plotPanel
	offset := -1
	for i := range rs {
		r := &rs[i]
		if r.Size == 0 || r.Threads != 1 {
			continue
		}
		if offset < 0 {
			offset = r.Offset
		}
		if r.Offset != offset {
			continue
		}
		g := r.Target.Group()
		k := slices.IndexFunc(panels, func(p *plotPanel) bool { return p.title == g })
		if k < 0 {
			k = len(panels)
			panels = append(panels, &plotPanel{title: g})
		}
		p := panels[k]
		j := slices.IndexFunc(p.series, func(s *plotSeries) bool { return s.t.Impl == r.Target.Impl })
		if j < 0 {
			j = len(p.series)
			p.series = append(p.series, &plotSeries{t: r.Target})
		}
		p.series[j].xs = append(p.series[j].xs, float64(r.Size))
		p.series[j].ys = append(p.series[j].ys, 1e3/r.NsPerByte)
	}
	return panels, offset
}

// plotColors are distinguishable on white and for common colour blindness
// (Okabe–Ito); black is kept for the baseline.
var plotColors = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442"}

const (
	panelW, panelH = 440, 320
	padL, padR     = 58, 12 // data area inside a panel
	padT, padB     = 26, 42
	headerH        = 48
)

func writeSVG(w io.Writer, panels []*plotPanel, offset int, env *Env) {
	cols := min(3, len(panels))
	rows := (len(panels) + cols - 1) / cols
	width, height := cols*panelW, rows*panelH+headerH
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n", width, height, width, height)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	line2 := "one thread; thick: default path, dashed: variant (never dispatched), black: Go baseline"
	if offset > 0 {
		line2 += fmt.Sprintf("; offset %d", offset)
	}
	fmt.Fprintf(w, `<text x="%d" y="18" font-size="14" text-anchor="middle">%s</text>`+"\n", width/2,
		html.EscapeString(fmt.Sprintf("simdcrypt speed: %s, %.0f MHz", env.Machine(), env.MHz)))
	fmt.Fprintf(w, `<text x="%d" y="36" font-size="11" text-anchor="middle">%s</text>`+"\n", width/2, html.EscapeString(line2))
	for i, p := range panels {
		x0, y0 := (i%cols)*panelW, headerH+(i/cols)*panelH
		writePanel(w, p, float64(x0), float64(y0))
	}
	fmt.Fprintln(w, "</svg>")
}

func writePanel(w io.Writer, p *plotPanel, x0, y0 float64) {
	xlo, xhi, ylo, yhi := math.Inf(1), 0.0, math.Inf(1), 0.0
	for _, s := range p.series {
		for i := range s.xs {
			xlo, xhi = min(xlo, s.xs[i]), max(xhi, s.xs[i])
			ylo, yhi = min(ylo, s.ys[i]), max(yhi, s.ys[i])
		}
	}
	if xhi <= xlo {
		xlo, xhi = xlo/2, xhi*2
	}
	// Portable Go and wide vectors differ a hundredfold: a log axis keeps
	// both readable when they share a panel. Headroom on top for the
	// legend (about 12 px per entry) so no line runs under it.
	logY := yhi/ylo > 20
	dataH := float64(panelH - padT - padB)
	free := min(0.6, float64(len(p.series))*12/dataH+0.04)
	var ymin, ymax float64
	if logY {
		ymin = ylo / 1.15
		ymax = ymin * math.Pow(yhi*1.05/ymin, 1/(1-free))
	} else {
		ymin, ymax = 0, yhi*1.02/(1-free)
	}
	left, right := x0+padL, x0+panelW-padR
	top, bottom := y0+padT, y0+panelH-padB
	px := func(x float64) float64 {
		return left + (math.Log2(x)-math.Log2(xlo))/(math.Log2(xhi)-math.Log2(xlo))*(right-left)
	}
	py := func(y float64) float64 {
		f := (y - ymin) / (ymax - ymin)
		if logY {
			f = math.Log(y/ymin) / math.Log(ymax/ymin)
		}
		return bottom - f*(bottom-top)
	}
	fmt.Fprintf(w, `<g><text x="%.1f" y="%.1f" font-size="12" text-anchor="middle">%s</text>`+"\n",
		(left+right)/2, y0+16, html.EscapeString(p.title))
	fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#444"/>`+"\n", left, top, right-left, bottom-top)
	// Ticks: powers of two on x, 1-2-5 on a log y, round steps on a linear y.
	for e := 0; e <= 40; e++ {
		v := math.Ldexp(1, e)
		if v < xlo*0.999 || v > xhi*1.001 {
			continue
		}
		x := px(v)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x, top, x, bottom)
		if e%2 == 0 || xhi/xlo < 64 {
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="10" text-anchor="middle">%s</text>`+"\n", x, bottom+13, FormatBytes(int64(v)))
		}
	}
	for _, v := range yTicks(ymin, yhi*1.05, logY) {
		y := py(v)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, right, y)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="10" text-anchor="end">%s</text>`+"\n", left-4, y+3, strconv.FormatFloat(v, 'f', -1, 64))
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle">buffer size (bytes)</text>`+"\n", (left+right)/2, bottom+30)
	ylabel := "MB/s"
	if logY {
		ylabel = "MB/s (log)"
	}
	fmt.Fprintf(w, `<text transform="translate(%.1f,%.1f) rotate(-90)" font-size="11" text-anchor="middle">%s</text>`+"\n", x0+14, (top+bottom)/2, ylabel)
	// Colours by position among the panel's paths, so every line in it
	// differs; a variant takes its path's colour, dashed.
	var paths []string
	for _, s := range p.series {
		if s.t.VariantOf == "" && !s.t.Baseline {
			paths = append(paths, s.t.Impl)
		}
	}
	for k, s := range p.series {
		color := "black"
		if !s.t.Baseline {
			ci := slices.Index(paths, s.t.Impl)
			if s.t.VariantOf != "" {
				ci = slices.Index(paths, s.t.VariantOf)
				if ci < 0 {
					ci = len(paths)
				}
			}
			color = plotColors[ci%len(plotColors)]
		}
		style := fmt.Sprintf(`stroke="%s" stroke-width="%.1f" fill="none"`, color, map[bool]float64{true: 2.4, false: 1.3}[s.t.Default])
		if s.t.VariantOf != "" {
			style += ` stroke-dasharray="5,3"`
		}
		var pts []string
		for i := range s.xs {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.xs[i]), py(s.ys[i])))
		}
		fmt.Fprintf(w, `<polyline points="%s" %s/>`+"\n", strings.Join(pts, " "), style)
		for i := range s.xs {
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="2.2" fill="%s"/>`+"\n", px(s.xs[i]), py(s.ys[i]), color)
		}
		ly := top + 12 + float64(k)*12
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" %s/>`+"\n", left+6, ly-4, left+24, ly-4, style)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="9">%s</text>`+"\n", left+28, ly-1, html.EscapeString(implLabel(s.t)))
	}
	fmt.Fprintln(w, "</g>")
}

// yTicks are 1-2-5 multiples of powers of ten on a log axis, or about six
// round steps on a linear one, between lo and hi.
func yTicks(lo, hi float64, logY bool) []float64 {
	var ts []float64
	if logY {
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for _, m := range []float64{1, 2, 5} {
				if v := m * math.Pow(10, e); v >= lo*0.999 && v <= hi*1.001 {
					ts = append(ts, v)
				}
			}
		}
		return ts
	}
	step := math.Pow(10, math.Floor(math.Log10(hi/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if hi/(step*m) <= 7 {
			step *= m
			break
		}
	}
	for v := 0.0; v <= hi; v += step {
		ts = append(ts, v)
	}
	return ts
}
