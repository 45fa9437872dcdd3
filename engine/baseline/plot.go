package baseline

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/cronus-ltr/cronus/data"
)

// Size of a plot: about a printed half page, legible on a screen.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
)

// costAxisLabel is the x-axis label of every quality/cost plot.
const costAxisLabel = "cost per document (features + trees)"

// Plot draws the named metric (y) against the total cost per document (x)
// of points, one line with markers per (method, split) pair, in the order
// the pairs first appear in points, each labelled "method (split)" in the
// legend, and writes it to path, atomically. Within a series the points are
// joined in order of cost. The x axis is a true scale: points sit at their
// cost, however unevenly spaced. The format follows the extension of path,
// ".svg" or ".png" (any case); another extension is an error, checked
// before anything is drawn. Points without a finite value of the metric or
// a finite cost are left out; if none is left, Plot returns an error and
// writes nothing.
func Plot(path string, points []Point, metric string, title string) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if format != "svg" && format != "png" {
		return fmt.Errorf("%s: cannot plot to a %q file; use .svg or .png", path, filepath.Ext(path))
	}

	type series struct {
		name string
		xys  plotter.XYs
	}
	var all []*series
	byKey := map[[2]string]*series{}
	for _, p := range points {
		y, ok := p.Metrics[metric]
		if !ok || !isFinite(y) || !isFinite(p.Cost.Total) {
			continue
		}
		key := [2]string{p.Method, p.Split}
		s := byKey[key]
		if s == nil {
			name := p.Method
			if p.Split != "" {
				name += " (" + p.Split + ")"
			}
			s = &series{name: name}
			byKey[key] = s
			all = append(all, s)
		}
		s.xys = append(s.xys, plotter.XY{X: p.Cost.Total, Y: y})
	}
	if len(all) == 0 {
		return fmt.Errorf("%s: no point has a value of %s to plot", path, metric)
	}

	plt := plot.New()
	plt.Title.Text = title
	plt.X.Label.Text = costAxisLabel
	plt.Y.Label.Text = metric
	plt.Add(plotter.NewGrid())
	// Quality rises with cost, so the lower right corner is the emptiest.
	plt.Legend.Top, plt.Legend.Left = false, false
	plt.Legend.XOffs, plt.Legend.YOffs = -vg.Millimeter, vg.Millimeter
	for i, s := range all {
		slices.SortStableFunc(s.xys, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
		line, marks, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return fmt.Errorf("%s: %s: %v", path, s.name, err)
		}
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(0)
		marks.Color = plotutil.Color(i)
		marks.Shape = plotutil.Shape(i)
		plt.Add(line, marks)
		plt.Legend.Add(s.name, line, marks)
	}

	wt, err := plt.WriterTo(plotWidth, plotHeight, format)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return data.WriteAtomic(path, func(w *bufio.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
