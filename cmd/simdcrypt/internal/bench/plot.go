package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot writes throughput against buffer size to path (.svg or .png): one
// panel per cipher and direction, one line per implementation (the same
// colour in every panel; variants dashed, Go's baseline black), size on a
// log axis. It uses the fixed-size figures at the first offset, one thread.
func Plot(path string, results []Result, env *Env) error {
	rs := Aggregate(results)
	type series struct {
		impl    string
		t       *Target
		xs, ys  []float64
		variant bool
	}
	var groups []string
	lines := map[string][]*series{}
	var impls []string
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
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
		if !slices.Contains(impls, r.Target.Impl) {
			impls = append(impls, r.Target.Impl)
		}
		var s *series
		for _, x := range lines[g] {
			if x.impl == r.Target.Impl {
				s = x
			}
		}
		if s == nil {
			s = &series{impl: r.Target.Impl, t: r.Target, variant: r.Target.Variant}
			lines[g] = append(lines[g], s)
		}
		s.xs = append(s.xs, float64(r.Size))
		s.ys = append(s.ys, r.MiBps())
	}
	if len(groups) == 0 {
		return fmt.Errorf("no fixed-size figures to plot (measure with -size)")
	}
	cols := min(3, len(groups))
	rows := (len(groups) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for j := range grid {
		grid[j] = make([]*plot.Plot, cols)
	}
	for gi, g := range groups {
		p := plot.New()
		p.Title.Text = g
		p.X.Label.Text = "buffer size (bytes)"
		p.Y.Label.Text = "MiB/s"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = sizeTicks{}
		lo, hi := math.Inf(1), 0.0
		for _, s := range lines[g] {
			for _, y := range s.ys {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
		// Throughputs of portable Go and wide vectors differ a hundredfold;
		// a log axis keeps both readable when they share a panel.
		// Headroom above the data for the legend (about 9 points per
		// entry of a ~185-point data area), so no line runs under it.
		free := min(0.6, float64(len(lines[g]))*9/185+0.04)
		if hi/lo > 20 {
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = throughputTicks{top: hi * 1.05}
			p.Y.Label.Text = "MiB/s (log)"
			p.Y.Min = lo / 1.15
			p.Y.Max = p.Y.Min * math.Pow(hi*1.05/p.Y.Min, 1/(1-free))
		} else {
			p.Y.Min = 0
			p.Y.Max = hi * 1.02 / (1 - free)
		}
		p.Add(plotter.NewGrid())
		p.Legend.Top, p.Legend.Left = true, true
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		// Colours by position within the panel, so every line in it
		// differs; a variant takes its path's colour.
		var panelImpls []string
		for _, s := range lines[g] {
			if !s.variant {
				panelImpls = append(panelImpls, s.impl)
			}
		}
		for _, s := range lines[g] {
			xys := make(plotter.XYs, len(s.xs))
			for i := range s.xs {
				xys[i] = plotter.XY{X: s.xs[i], Y: s.ys[i]}
			}
			l, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return err
			}
			// A variant ("vaes512-noprefetch") takes its path's colour,
			// dashed, so each pair reads as one.
			ci := slices.Index(panelImpls, s.impl)
			if s.variant {
				ci = slices.Index(panelImpls, VariantOf(s.impl, panelImpls))
				if ci < 0 {
					ci = len(panelImpls)
				}
			}
			c := plotutil.Color(ci)
			if s.t.Baseline {
				c = color.Black
			}
			l.Color, pts.Color = c, c
			l.Width = vg.Points(1.2)
			if s.t.Default {
				l.Width = vg.Points(2.2)
			}
			if s.variant {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			pts.Shape = plotutil.Shape(slices.Index(impls, s.impl))
			if s.t.Baseline {
				pts.Shape = draw.CircleGlyph{}
			}
			pts.Radius = vg.Points(2)
			p.Add(l, pts)
			p.Legend.Add(implLabel(s.t), l, pts)
		}
		grid[gi/cols][gi%cols] = p
	}
	w, h := vg.Length(cols)*4.6*vg.Inch, vg.Length(rows)*3.4*vg.Inch+0.6*vg.Inch
	var canvas interface {
		vg.CanvasSizer
		io.WriterTo
	}
	var png *vgimg.Canvas
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		canvas = vgsvg.New(w, h)
	case ".png":
		png = vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))
		canvas = vgimg.PngCanvas{Canvas: png}
	default:
		return fmt.Errorf("%s: plot files must end in .svg or .png", path)
	}
	dc := draw.New(canvas)
	dc.SetColor(color.White) // opaque background: readable in dark themes too
	dc.Fill(dc.Rectangle.Path())
	// Two title lines, the machine and the key, then the grid below.
	line1 := fmt.Sprintf("simdcrypt speed: %s, %.0f MHz", env.Machine(), env.MHz)
	line2 := "one thread; thick: default path, dashed: variant (never dispatched), black: Go baseline"
	if offset > 0 {
		line2 += fmt.Sprintf("; offset %d", offset)
	}
	sty := draw.TextStyle{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler,
		XAlign: draw.XCenter, YAlign: draw.YTop}
	sty.Font.Size = vg.Points(11)
	dc.FillText(sty, vg.Point{X: w / 2, Y: h - 0.08*vg.Inch}, line1)
	sty.Font.Size = vg.Points(9)
	dc.FillText(sty, vg.Point{X: w / 2, Y: h - 0.3*vg.Inch}, line2)
	area := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{}, Max: vg.Point{X: w, Y: h - 0.6*vg.Inch}}}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Inch / 5, PadY: vg.Inch / 5,
		PadTop: vg.Inch / 10, PadBottom: vg.Inch / 10, PadLeft: vg.Inch / 10, PadRight: vg.Inch / 10}
	cs := plot.Align(grid, tiles, area)
	for j := range grid {
		for i, p := range grid[j] {
			if p != nil {
				p.Draw(cs[j][i])
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// sizeTicks labels powers of two as 16, 1K, 16K.
type sizeTicks struct{}

func (sizeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := 0; e <= 40; e++ {
		v := math.Ldexp(1, e)
		if v < lo*0.999 || v > hi*1.001 {
			continue
		}
		label := ""
		if e%2 == 0 || hi/lo < 64 {
			label = FormatBytes(int64(v))
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

// throughputTicks labels a log axis at 1, 2 and 5 times powers of ten,
// enough labels however narrow the range, and none in the legend's
// headroom above top.
type throughputTicks struct{ top float64 }

func (tt throughputTicks) Ticks(lo, hi float64) []plot.Tick {
	if tt.top > 0 {
		hi = min(hi, tt.top*2)
	}
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo*0.999 && v <= hi*1.001 {
				ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
			}
		}
	}
	if len(ts) < 2 {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	return ts
}
