package baseline

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/cronus-ltr/cronus/data"
)

// Size of a plot: about a printed half page, legible on a screen.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
)

// pngDPI is the resolution of a PNG plot: twice gonum's 96 dots per inch,
// at which a plot with its legend was about 760 × 384 pixels, too coarse
// for a slide; at 192 it is about 1500 × 768.
const pngDPI = 192

// costAxisLabel is the x-axis label of every quality/cost plot.
const costAxisLabel = "cost per document (features + trees)"

// methodColors tell methods apart: the ten colours of Tableau 10 (as
// matplotlib's default cycle has them), distinct for ten methods, where
// plotutil's seven repeated within one sweep's ten series.
var methodColors = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, // blue
	color.RGBA{0xff, 0x7f, 0x0e, 0xff}, // orange
	color.RGBA{0x2c, 0xa0, 0x2c, 0xff}, // green
	color.RGBA{0xd6, 0x27, 0x28, 0xff}, // red
	color.RGBA{0x94, 0x67, 0xbd, 0xff}, // purple
	color.RGBA{0x8c, 0x56, 0x4b, 0xff}, // brown
	color.RGBA{0xe3, 0x77, 0xc2, 0xff}, // pink
	color.RGBA{0x7f, 0x7f, 0x7f, 0xff}, // grey
	color.RGBA{0xbc, 0xbd, 0x22, 0xff}, // olive
	color.RGBA{0x17, 0xbe, 0xcf, 0xff}, // cyan
}

// knownMethods are the methods of sweep's curves, in the order of their
// colours and marker shapes: each has its own in every plot, whatever the
// order of the points (the workbench's export lists prefix first, and it
// was blue there and red in sweep's plots). Other methods (the export's
// "kept #N") take the colours and shapes after them, in order of
// appearance.
var knownMethods = []string{"single-stage", "cronus-init", "cronus", MethodPrefix, MethodEarlyExit}

// splitDashes tell the splits of one method apart (see splitRank):
// validation's line is solid, test's dashed, any other split's dotted.
var splitDashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(1.5), vg.Points(2)}}

// splitRank is the place of a split among the styles: 0 for "valid"
// (solid line, filled markers), 1 for "test" (dashed, hollow) and 2 for
// any other (dotted, hollow). Styles go by name, not by order: the
// workbench's export lists its test points first, and its valid curves
// were then dashed where sweep's were solid.
func splitRank(split string) int {
	switch split {
	case "valid":
		return 0
	case "test":
		return 1
	}
	return 2
}

// markRadius is the radius of the markers, a little above gonum's 2.5
// points so that a hollow one reads as hollow.
var markRadius = vg.Points(3)

// markShapes tell methods apart beside their colours: circle, square,
// triangle, diamond, downward triangle, pentagon, hexagon and right-pointing
// triangle, each drawn filled or hollow (markGlyph).
var markShapes = []markGlyph{
	{sides: 0}, {sides: 4, turn: math.Pi / 4}, {sides: 3, turn: math.Pi / 2}, {sides: 4},
	{sides: 3, turn: -math.Pi / 2}, {sides: 5, turn: math.Pi / 2}, {sides: 6}, {sides: 3},
}

// markGlyph is a marker: a circle (sides 0) or a regular polygon with a
// vertex at angle turn from the x axis, filled with the colour (a
// validation point) or drawn in outline over white (a test point). Each
// shape exists both ways, where gonum's cross and plus have no filled form.
type markGlyph struct {
	sides  int
	turn   float64
	filled bool
}

// DrawGlyph implements draw.GlyphDrawer.
func (g markGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var p vg.Path
	if g.sides == 0 {
		p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
		p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	} else {
		r := sty.Radius * 1.2 // a polygon inside the circle looks smaller
		for i := range g.sides {
			a := g.turn + 2*math.Pi*float64(i)/float64(g.sides)
			v := vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
			if i == 0 {
				p.Move(v)
			} else {
				p.Line(v)
			}
		}
	}
	p.Close()
	if g.filled {
		c.SetColor(sty.Color)
		c.Fill(p)
		return
	}
	c.SetColor(color.White)
	c.Fill(p)
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1)})
	c.Stroke(p)
}

// coverStep is how much larger a marker is drawn for each marker of a later
// series drawn on the same place: its rim shows around theirs.
var coverStep = vg.Points(1.5)

// coveredBy returns, for every point of every series (in drawing order),
// how many of the series drawn after it have a point at the same place:
// the markers that cover it. cronus-init and cronus often coincide (a
// cyclic optimisation that kept its initialisation), and the one drawn
// first was hidden.
func coveredBy(series []plotter.XYs) [][]int {
	at := map[plotter.XY]int{} // how many of the later series have a point there
	cov := make([][]int, len(series))
	for si := len(series) - 1; si >= 0; si-- {
		cov[si] = make([]int, len(series[si]))
		here := map[plotter.XY]bool{}
		for pi, p := range series[si] {
			cov[si][pi] = at[p]
			here[p] = true
		}
		for p := range here {
			at[p]++
		}
	}
	return cov
}

// frontColors are the Pareto fronts', by splitRank: pale tints, which the
// curves drawn over them stand out against, grey for validation, amber for
// test, green for another split. The lines are solid: the test front was
// dashed, and its steps shorter than a dash showed as loose grey blocks.
var frontColors = []color.Color{
	color.RGBA{0xc8, 0xc8, 0xc8, 0xff},
	color.RGBA{0xf2, 0xd3, 0xa0, 0xff},
	color.RGBA{0xc6, 0xe2, 0xc6, 0xff},
}

// legendGap separates the plot from the legend on its right.
const legendGap = 2 * vg.Millimeter

// Plot draws the named metric (y, labelled in capitals: NDCG@10) against
// the total cost per document (x) of points, one line with markers per
// (method, split) pair, each labelled "method (split)" in the legend,
// methods in the order they first appear in points and the splits of a
// method together (valid, test, then others in the order they first
// appear), and under them each split's Pareto front (SplitPareto) as a
// staircase; and writes it to path, atomically. A method has one colour
// and marker shape on every split, sweep's five methods their own ones
// whatever the order (colours repeat after ten methods, shapes after
// eight); a split has one dash pattern and marker fill for every method:
// valid solid with filled markers, test dashed with hollow ones, another
// split dotted and hollow. The legend stands to the right of the plot,
// outside the data, which makes the image wider than the plot by the
// legend's width. Within a series the points are joined in order of cost.
// The x axis is a true scale: points sit at their cost, however unevenly
// spaced; it is logarithmic when the dearest point costs ten times the
// cheapest or more (and none costs 0), linear otherwise. Both axes leave
// a margin around the data. The format follows the extension of path,
// ".svg" or ".png" (any case); another extension is an error, checked
// before anything is drawn. Points without a finite value of the metric or
// a finite cost are left out; if none is left, Plot returns an error and
// writes nothing.
func Plot(path string, points []Point, metric string, title string) error {
	out, err := PlotOutput(path, points, metric, title)
	if err != nil {
		return err
	}
	return data.WriteAtomic(path, out.Write)
}

// PlotOutput draws Plot's image and returns it as a data.Output, to be
// written with other files by data.WriteAtomicAll; the errors of drawing
// are Plot's, and nothing is written.
func PlotOutput(path string, points []Point, metric string, title string) (data.Output, error) {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if format != "svg" && format != "png" {
		return data.Output{}, fmt.Errorf("%s: cannot plot to a %q file; use .svg or .png", path, filepath.Ext(path))
	}

	plt, legend, _, err := curvePlot(points, metric, title)
	if err != nil {
		return data.Output{}, fmt.Errorf("%s: %v", path, err)
	}
	legendWidth := legend.Rectangle(draw.Canvas{}).Size().X + 2*legendGap // a gap each side
	var svg *svgCanvas
	var cv vg.CanvasWriterTo
	if format == "png" { // at pngDPI, where draw.NewFormattedCanvas draws at 96
		cv = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth+legendWidth, plotHeight), vgimg.UseDPI(pngDPI))}
	} else {
		// A viewer without the font the text was measured in draws it
		// in another: room for one fontSlack times as wide after the
		// legend's text.
		legendWidth += (fontSlack - 1) * legendTextWidth(legend)
		svg = &svgCanvas{Canvas: vgsvg.New(plotWidth+legendWidth, plotHeight)}
		cv = svg
	}
	dc := draw.New(cv)
	dc.SetColor(plt.BackgroundColor) // the legend's strip too, which plt.Draw does not paint
	dc.Fill(dc.Rectangle.Path())
	plt.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	// Level with the top of the data, below the title.
	legend.YOffs = plt.DataCanvas(dc).Max.Y - dc.Max.Y
	legend.Draw(draw.Crop(dc, plotWidth+legendGap, 0, 0, 0))
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return data.Output{}, fmt.Errorf("%s: %v", path, err)
	}
	b := buf.Bytes()
	if format == "png" {
		b = withPNGDensity(b, pngDPI)
	} else {
		b = svg.fitText(b)
	}
	return data.BytesOutput(path, b), nil
}

// fontSlack is how much wider than the text's own font (Liberation Serif,
// gonum's, whose metrics lay the plot out) an SVG viewer's may draw it:
// one without Liberation Serif, Times New Roman or Times draws the
// generic serif, on Linux often DejaVu Serif, 1.23 to 1.30 times as wide
// on the legend's entries, and where the viewer ignores textLength
// (librsvg, as rsvg-convert 2.54) the legend ran off the image's right
// edge ("single-stage (val", "Pareto front (tes").
const fontSlack = 1.3

// svgFamilies are the font families an SVG names for a font gonum
// measures the text in: the font, then fonts of the same metrics
// (Liberation's were made to match them), then the generic family.
var svgFamilies = map[string]string{
	"font-family:Liberation Serif;": "font-family:'Liberation Serif','Times New Roman',Times,serif;",
	"font-family:Liberation Sans;":  "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;",
	"font-family:Liberation Mono;":  "font-family:'Liberation Mono','Courier New',Courier,monospace;",
}

// svgCanvas is an SVG canvas that records the width of each string it
// draws, in the font it is drawn in, in order.
type svgCanvas struct {
	*vgsvg.Canvas
	widths []vg.Length
}

// FillString draws str as vgsvg.Canvas does, and records its width.
func (c *svgCanvas) FillString(f font.Face, pt vg.Point, str string) {
	c.widths = append(c.widths, f.Width(str))
	c.Canvas.FillString(f, pt, str)
}

// fitText returns the SVG b that c wrote with its text made to fit where
// the plot was laid out for it, in whatever font a viewer has: each font
// family followed by those of the same metrics (svgFamilies), and each
// text element given its width as measured (textLength, which squeezes
// a wider font's glyphs to it, lengthAdjust="spacingAndGlyphs"). gonum
// named the font alone, and a viewer without it drew a wider one: the
// legend ran off the image and a long title off its left edge. b is
// returned with only the families changed if its text elements are not
// one for each string drawn.
func (c *svgCanvas) fitText(b []byte) []byte {
	s := string(b)
	for from, to := range svgFamilies {
		s = strings.ReplaceAll(s, from, to)
	}
	const open = "<text "
	parts := strings.Split(s, open)
	if len(parts)-1 != len(c.widths) {
		return []byte(s)
	}
	var out strings.Builder
	out.WriteString(parts[0])
	for i, p := range parts[1:] {
		fmt.Fprintf(&out, `%stextLength="%.5g" lengthAdjust="spacingAndGlyphs" %s`, open, c.widths[i].Points(), p)
	}
	return []byte(out.String())
}

// legendTextWidth is the width of the legend's widest entry's text (with
// the space before it): the legend's, less its thumbnails'.
func legendTextWidth(l *plot.Legend) vg.Length {
	return l.Rectangle(draw.Canvas{}).Size().X - l.ThumbnailWidth
}

// withPNGDensity returns the PNG image b with a pHYs chunk after its header
// saying it is dpi dots per inch, so that a document it is put in (LaTeX's
// \includegraphics, a word processor) gives it its size in inches: without
// one, gonum's PNG was read at 72 dots per inch, a 6 × 4 inch plot at 192
// as 21 × 10.7 inches. b is returned as it is if it has no IHDR chunk first.
func withPNGDensity(b []byte, dpi float64) []byte {
	const sigLen, ihdrLen = 8, 8 + 13 + 4 // signature; length, type, data, CRC
	if len(b) < sigLen+ihdrLen || string(b[sigLen+4:sigLen+8]) != "IHDR" {
		return b
	}
	ppm := uint32(math.Round(dpi / 0.0254)) // pixels per metre
	chunk := binary.BigEndian.AppendUint32(nil, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // unit: the metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	at := sigLen + ihdrLen
	return slices.Concat(b[:at], chunk, b[at:])
}

// curvePlot lays out Plot's plot of metric against cost, with its title,
// and the legend that goes beside it, and returns with them the x
// coordinate of a cost (its log10 on a log axis); the errors are Plot's,
// without the file's name.
func curvePlot(points []Point, metric, title string) (*plot.Plot, *plot.Legend, func(cost float64) float64, error) {
	type series struct {
		name          string
		method, split int    // in order of first appearance
		style         int    // index of the method's colour and marker shape (knownMethods)
		rank          int    // splitRank
		splitName     string // the split's name
		xys           plotter.XYs
	}
	var all []*series
	byKey := map[[2]string]*series{}
	methods, splits, others := map[string]int{}, map[string]int{}, map[string]int{}
	index := func(m map[string]int, key string) int {
		i, ok := m[key]
		if !ok {
			i = len(m)
			m[key] = i
		}
		return i
	}
	var drawn []Point // the points with a place on the plot
	for _, p := range points {
		y, ok := p.Metrics[metric]
		if !ok || !isFinite(y) || !isFinite(p.Cost.Total) {
			continue
		}
		drawn = append(drawn, p)
		key := [2]string{p.Method, p.Split}
		s := byKey[key]
		if s == nil {
			name := p.Method
			if p.Split != "" {
				name += " (" + p.Split + ")"
			}
			s = &series{name: name, method: index(methods, p.Method), split: index(splits, p.Split), rank: splitRank(p.Split), splitName: p.Split}
			s.style = slices.Index(knownMethods, p.Method)
			if s.style < 0 {
				s.style = len(knownMethods) + index(others, p.Method)
			}
			byKey[key] = s
			all = append(all, s)
		}
		s.xys = append(s.xys, plotter.XY{X: p.Cost.Total, Y: y})
	}
	if len(all) == 0 {
		return nil, nil, nil, fmt.Errorf("no point has a value of %s to plot", metric)
	}
	slices.SortStableFunc(all, func(a, b *series) int {
		return cmp.Or(cmp.Compare(a.method, b.method), cmp.Compare(a.rank, b.rank), cmp.Compare(a.split, b.split))
	})

	plt := plot.New()
	plt.Title.Text = title
	// The title is centred over the plot: a line wider than the plot ran
	// off the image's left edge. It shrinks to fit instead.
	if w := plt.Title.TextStyle.Width(title); w > plotWidth {
		plt.Title.TextStyle.Font.Size *= plotWidth / w
	}
	plt.X.Label.Text = costAxisLabel
	plt.Y.Label.Text = strings.ToUpper(metric) // as papers write it: NDCG@10, ERR@3, MAP
	plt.X.Tick.Marker = plot.TickerFunc(linearCostTicks)
	plt.Y.Tick.Marker = plot.TickerFunc(linearTicks)
	costX := func(cost float64) float64 { return cost }
	var xs, ys []float64
	for _, s := range all {
		for _, p := range s.xys {
			xs, ys = append(xs, p.X), append(ys, p.Y)
		}
	}
	if _, _, ticks, ok := LogCostAxis(slices.Min(xs), slices.Max(xs)); ok {
		// The points are drawn at log10 of their cost on a linear axis,
		// whose ticks are labelled with costs: gonum's LogScale placed the
		// axis label's box by the arithmetic mean of the range, and shrank
		// the plot to make room.
		costX = math.Log10
		for _, s := range all {
			for i := range s.xys {
				s.xys[i].X = costX(s.xys[i].X)
			}
		}
		for i := range xs {
			xs[i] = costX(xs[i])
		}
		var marks []plot.Tick
		for _, tk := range ticks {
			marks = append(marks, plot.Tick{Value: costX(tk.Cost), Label: tk.Label})
		}
		plt.X.Tick.Marker = plot.ConstantTicks(marks)
		plt.X.Label.Text += ", log scale"
	}
	// The data's range with a margin: gonum's ends at the extreme points,
	// whose markers the frame then cuts, and one value spans ±1.
	plt.X.Min, plt.X.Max = paddedRange(slices.Min(xs), slices.Max(xs))
	if slices.Max(xs) == 0 {
		// Every point costs 0 (free features and trees: an all-zero cost
		// file and --tree-cost 0). ±1 around 0 labelled negative costs
		// down to -1; the axis runs from 0 to 1, as the workbench's
		// terminal curve draws it, with the margin at 0, and says why.
		plt.X.Min, plt.X.Max = -axisMargin, 1
		plt.X.Label.Text += "; every point costs 0"
	}
	plt.Y.Min, plt.Y.Max = paddedRange(slices.Min(ys), slices.Max(ys))
	if slices.Min(ys) == 0 && slices.Max(ys) == 0 {
		// Every point scores 0 (a split without a relevant document): ±1
		// labelled NDCG@10 down to -1, which no ranking metric reaches.
		// From 0 up, as the workbench's terminal curve draws it.
		plt.Y.Min, plt.Y.Max = -axisMargin, 1
	}
	plt.Add(plotter.NewGrid())
	// The legend goes beside the plot: inside, every corner covers some
	// curve (quality rises with cost, and the cheap good points are the
	// interesting ones).
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = vg.Points(30) // long enough to show a dash pattern
	legend.Padding = vg.Points(2)         // the entries stood edge to edge
	type legendEntry struct {
		name string
		rank int // splitRank
		line *plotter.Line
	}
	var fronts []legendEntry // after the curves in the legend
	// Each split's Pareto front, as sweep reports it, under the curves: a
	// staircase through the points that no other point of the split
	// beats, the best quality attainable at each cost.
	seen := map[string]bool{}
	for _, s := range all {
		if seen[s.splitName] {
			continue
		}
		seen[s.splitName] = true
		front := SplitPareto(drawn, s.splitName, metric)
		if !slices.ContainsFunc(front, func(p Point) bool { return p.Cost.Total != front[0].Cost.Total }) {
			// One point (or tied points at one cost): no staircase to
			// draw, and none in the legend (a zero-length line was listed
			// there as "Pareto front (valid)" with nothing to see).
			continue
		}
		var xys plotter.XYs
		for i, p := range front {
			y := p.Metrics[metric]
			xys = append(xys, plotter.XY{X: costX(p.Cost.Total), Y: y})
			if i+1 < len(front) {
				xys = append(xys, plotter.XY{X: costX(front[i+1].Cost.Total), Y: y})
			}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("Pareto front: %v", err)
		}
		line.Color = frontColors[s.rank]
		line.Width = vg.Points(6)
		plt.Add(line)
		fronts = append(fronts, legendEntry{"Pareto front (" + s.splitName + ")", s.rank, line})
	}
	for _, s := range all {
		slices.SortStableFunc(s.xys, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
	}
	var xys []plotter.XYs
	for _, s := range all {
		xys = append(xys, s.xys)
	}
	covered := coveredBy(xys)
	for si, s := range all {
		line, marks, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %v", s.name, err)
		}
		c := methodColors[s.style%len(methodColors)]
		line.Color = c
		line.Dashes = splitDashes[s.rank]
		marks.Color = c
		marks.Radius = markRadius
		shape := markShapes[s.style%len(markShapes)]
		shape.filled = s.rank == 0
		marks.Shape = shape
		if cov := covered[si]; slices.Max(cov) > 0 {
			marks.GlyphStyleFunc = func(i int) draw.GlyphStyle {
				st := marks.GlyphStyle
				st.Radius += vg.Length(cov[i]) * coverStep
				return st
			}
		}
		plt.Add(line, marks)
		legend.Add(s.name, line, marks)
	}
	slices.SortStableFunc(fronts, func(a, b legendEntry) int { return cmp.Compare(a.rank, b.rank) }) // as the curves' splits
	for _, f := range fronts {
		legend.Add(f.name, f.line)
	}

	return plt, &legend, costX, nil
}

// costDecades is the ratio of the dearest point's cost to the cheapest's
// from which the cost axis is logarithmic.
const costDecades = 10

// CostTick is a labelled tick of a logarithmic cost axis.
type CostTick struct {
	Cost  float64
	Label string // the cost, as "50", "1000" or "0.2"
}

// LogCostAxis is the cost axis of a plot of points that cost lo to hi (lo
// ≤ hi): logarithmic (ok) when the dearest costs costDecades times the
// cheapest or more and none costs 0, where a linear axis crowds the cheap
// cascades, the interesting ones, at its left end. For a log axis it
// returns the axis's ends, from and to, log10 of costs with a margin of
// axisMargin beyond the data, and its ticks between them (logTicks). Plot
// and the workbench's terminal curve both draw it, so that the curve on
// screen and the file exported from it agree.
func LogCostAxis(lo, hi float64) (from, to float64, ticks []CostTick, ok bool) {
	if !(lo > 0 && hi >= costDecades*lo) {
		return 0, 0, nil, false
	}
	from, to = paddedRange(math.Log10(lo), math.Log10(hi))
	return from, to, logTicks(from, to), true
}

// axisMargin is the space left beyond the data at each end of an axis, a
// fraction of the data's range.
const axisMargin = 0.05

// paddedRange is the range of an axis that shows lo to hi clear of its
// ends; a single value (lo = hi) gets ±5% of itself (±1 for 0).
func paddedRange(lo, hi float64) (float64, float64) {
	pad := axisMargin * (hi - lo)
	if pad == 0 {
		pad = 0.05 * math.Abs(lo)
		if pad == 0 {
			pad = 1
		}
	}
	return lo - pad, hi + pad
}

// linearTicks labels min to max at a round step (1, 2, 2.5 or 5 times a
// power of ten), the smallest that gives at most seven labels: four to
// seven, where gonum's DefaultTicks labelled two or three. A tick's value
// is its index times the step's digits, scaled by a power of ten in one
// rounding (the decimal's nearest float64; 5000001×0.2 is
// 1000000.2000000001), and its label has the step's decimals.
func linearTicks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return nil
	}
	e := int(math.Floor(math.Log10((hi - lo) / 7)))
	var step, digits float64 // step = digits × 10^exp
	var exp, decimals int
	for _, m := range []struct {
		digits float64 // of the factor, 25 for 2.5
		shift  int     // the factor is digits × 10^shift
	}{{1, 0}, {2, 0}, {25, -1}, {5, 0}, {1, 1}} {
		digits, exp = m.digits, e+m.shift
		step = digits * math.Pow10(exp)
		decimals = max(0, -exp)
		if math.Floor(hi/step+1e-9)-math.Ceil(lo/step-1e-9) < 7 {
			break
		}
	}
	var ticks []plot.Tick
	// 1e-9: an end on a multiple of the step is labelled though -0.3/0.1
	// is -2.9999999999999996.
	for i := math.Ceil(lo/step - 1e-9); i <= math.Floor(hi/step+1e-9); i++ {
		v := i * digits * math.Pow10(exp) // exp ≥ 0: an integer, exact
		if exp < 0 {
			v = i * digits / math.Pow10(-exp)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v+0, 'f', decimals, 64)}) // +0: no "-0"
	}
	return ticks
}

// linearCostTicks labels a linear cost axis as linearTicks does, but on an
// axis that reaches a million, each cost as CostLabel writes it (1M, 1.5M,
// 14T): in full, 14 digits a label ran into each other
// ("14000000000000160000000000000"). The short label is linearTicks' own
// scaled, the step's decimals and no more (1.0000002M, where the cost
// divided by a million gave 1.0000002000000001M).
func linearCostTicks(lo, hi float64) []plot.Tick {
	ticks := linearTicks(lo, hi)
	if len(ticks) == 0 || max(math.Abs(ticks[0].Value), math.Abs(ticks[len(ticks)-1].Value)) < 1e6 {
		return ticks
	}
	for i, tk := range ticks {
		if tk.Value < 0 {
			ticks[i].Label = "-" + costLabel(-tk.Value, strings.TrimPrefix(tk.Label, "-"))
		} else {
			ticks[i].Label = costLabel(tk.Value, tk.Label)
		}
	}
	return ticks
}

// CurveTitle is the title of a plot of NDCG@10 against cost: that, and on
// a second line what was measured, the model (if named) and each split's
// data ("model m.json; valid builtin:mq2008/vali; test test.txt"), so that
// a plot read apart from its command says what it shows. splits holds
// pairs of a split's name and its data file; a pair without a file is
// left out. A name over titleName characters keeps its end, after "…".
func CurveTitle(model string, splits ...[2]string) string {
	var parts []string
	if model != "" {
		parts = append(parts, "model "+shortName(model))
	}
	for _, sp := range splits {
		if sp[1] != "" {
			parts = append(parts, sp[0]+" "+shortName(sp[1]))
		}
	}
	title := "NDCG@10 against cost per document"
	if len(parts) > 0 {
		title += "\n" + strings.Join(parts, "; ")
	}
	return title
}

// titleName is the most characters of a file's name in a title: three
// names fit the plot's width.
const titleName = 28

// shortName is name if it has at most titleName characters, else "…" and
// its end, from a path separator when one is near enough.
func shortName(name string) string {
	r := []rune(name)
	if len(r) <= titleName {
		return name
	}
	end := string(r[len(r)-(titleName-1):])
	if i := strings.IndexByte(end, '/'); i >= 0 && i < len(end)-1 {
		end = end[i:]
	}
	return "…" + end
}

// logTicks labels a log axis, whose coordinates are the log10 of costs,
// from lo to hi, at costs of 1, 2 and 5 times the powers of ten. Where that
// gives fewer than four labels, it takes 1, 2, 3 and 5 times, or else every
// digit times them; where more than maxLogTicks, 1 and 3 times, or else the
// powers of ten, every one, second, third, … (over four decades the labels
// of 1, 2 and 5 ran into each other: "50000100000"). Costs from 10,000 on
// are labelled in thousands, millions, … ("20k", "1M").
func logTicks(lo, hi float64) []CostTick {
	ticks := func(digits []int, every int) []CostTick {
		var t []CostTick
		for e := int(math.Floor(lo)); e <= int(math.Ceil(hi)); e++ {
			if e%every != 0 {
				continue
			}
			for _, d := range digits {
				// d×10^e as parsed: 3×10^-1 multiplied is 0.30000000000000004.
				v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", d, e), 64)
				if x := math.Log10(v); x >= lo && x <= hi {
					t = append(t, CostTick{Cost: v, Label: CostLabel(v)})
				}
			}
		}
		return t
	}
	t := ticks([]int{1, 2, 5}, 1)
	switch {
	case len(t) < 4:
		if t = ticks([]int{1, 2, 3, 5}, 1); len(t) < 4 {
			t = ticks([]int{1, 2, 3, 4, 5, 6, 7, 8, 9}, 1)
		}
	case len(t) > maxLogTicks:
		if t = ticks([]int{1, 3}, 1); len(t) > maxLogTicks {
			for every := 1; ; every++ {
				if t = ticks([]int{1}, every); len(t) <= maxLogTicks {
					break
				}
			}
		}
	}
	return t
}

// maxLogTicks is the most labels of a log cost axis: ten labels of up to
// four characters fit the plots' width.
const maxLogTicks = 10

// CostLabel is a cost as a tick label: in full below 10,000, then in
// thousands (k), millions (M), billions (G) and trillions (T), and beyond
// in exponent form.
func CostLabel(v float64) string {
	return costLabel(v, strconv.FormatFloat(v, 'f', -1, 64))
}

// costLabel is CostLabel of v ≥ 0, which the decimal s writes in full: it
// scales s, moving its decimal point, where v divided by a power of 1000
// need not be the nearest float64 to the decimal scaled (1000000.2/1e6 is
// 1.0000002000000001). Trailing zeros are dropped (1000000.0 is 1M).
func costLabel(v float64, s string) string {
	if v < 1e4 {
		return s
	}
	for i, suffix := range []string{"k", "M", "G", "T"} {
		if scale := math.Pow(1000, float64(i+1)); v < 1000*scale {
			x, err := strconv.ParseFloat(s+"e-"+strconv.Itoa(3*(i+1)), 64)
			if err != nil {
				x = v / scale
			}
			return strconv.FormatFloat(x, 'f', -1, 64) + suffix
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// isFinite reports whether v is neither NaN nor infinite.
func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
