package baseline

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/cronus-ltr/cronus/engine/metric"
)

// curvePoint is a point of method on split at cost with NDCG@10 ndcg.
func curvePoint(method, split string, cost, ndcg float64) Point {
	return Point{Method: method, Split: split, Cost: metric.Cost{Total: cost}, Metrics: map[string]float64{"ndcg@10": ndcg}}
}

// plotSVG is the SVG text of Plot's plot of points' NDCG@10, with title.
func plotSVG(t *testing.T, points []Point, title string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "curve.svg")
	if err := Plot(path, points, "ndcg@10", title); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPlotAxes: every point is drawn inside the axes, clear of their ends
// (a marker on the frame is half hidden by it), and the data fill most of
// each axis (no large empty margin), whatever the number of points; each
// axis has enough labelled ticks to read a value off.
func TestPlotAxes(t *testing.T) {
	sweep := []Point{ // the range of a sweep on MQ2008 (60 trees)
		curvePoint("cronus", "valid", 28, 0.5346), curvePoint("cronus", "valid", 273, 0.5485),
		curvePoint("prefix", "valid", 121, 0.5243), curvePoint("prefix", "valid", 1060, 0.5405),
		curvePoint("single-stage", "valid", 630, 0.5511),
	}
	cases := []struct {
		name   string
		points []Point
	}{
		{"sweep", sweep},
		{"one point", []Point{curvePoint("cronus", "valid", 98, 0.5353)}},
		{"one cost", []Point{curvePoint("prefix", "valid", 121, 0.52), curvePoint("prefix", "test", 121, 0.48)}},
		{"one score", []Point{curvePoint("prefix", "valid", 100, 0.5), curvePoint("prefix", "valid", 300, 0.5)}},
	}
	for _, c := range cases {
		plt, _, costX, err := curvePlot(c.points, "ndcg@10", "t")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, ax := range []struct {
			name  string
			axis  *plot.Axis
			value func(Point) float64
		}{
			{"x", &plt.X, func(p Point) float64 { return costX(p.Cost.Total) }},
			{"y", &plt.Y, func(p Point) float64 { return p.Metrics["ndcg@10"] }},
		} {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range c.points {
				v := ax.axis.Norm(ax.value(p))
				if !(v >= 0.02 && v <= 0.98) {
					t.Errorf("%s: %s axis %g to %g: %g is at %.3f of it, on or beyond its end", c.name, ax.name, ax.axis.Min, ax.axis.Max, ax.value(p), v)
				}
				lo, hi = min(lo, v), max(hi, v)
			}
			if w := ax.axis.Max - ax.axis.Min; hi == lo && w > 0.4*math.Abs(ax.value(c.points[0])) {
				t.Errorf("%s: %s axis %g to %g: too wide for the one value %g", c.name, ax.name, ax.axis.Min, ax.axis.Max, ax.value(c.points[0]))
			}
			if hi-lo > 0 && hi-lo < 0.8 {
				t.Errorf("%s: %s axis %g to %g: the data fill %.2f of it", c.name, ax.name, ax.axis.Min, ax.axis.Max, hi-lo)
			}
			labels := 0
			for _, tk := range ax.axis.Tick.Marker.Ticks(ax.axis.Min, ax.axis.Max) {
				if tk.Label != "" && tk.Value >= ax.axis.Min && tk.Value <= ax.axis.Max {
					labels++
				}
			}
			if labels < 4 {
				t.Errorf("%s: %s axis %g to %g: %d labelled ticks, want at least 4", c.name, ax.name, ax.axis.Min, ax.axis.Max, labels)
			}
		}
	}
}

// TestLinearTicks: labels at a round step, four to seven of them, with as
// many decimals as the step has (worked by hand).
func TestLinearTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		want   []string
	}{
		{0, 1060, []string{"0", "200", "400", "600", "800", "1000"}},
		{0.5227, 0.5527, []string{"0.525", "0.530", "0.535", "0.540", "0.545", "0.550"}},
		{-0.3, 0.3, []string{"-0.3", "-0.2", "-0.1", "0.0", "0.1", "0.2", "0.3"}},
		{10, 110, []string{"20", "40", "60", "80", "100"}},
		{0.46, 0.58, []string{"0.46", "0.48", "0.50", "0.52", "0.54", "0.56", "0.58"}},
	}
	for _, c := range cases {
		var got []string
		for _, tk := range linearTicks(c.lo, c.hi) {
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%g to %g: labels %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// TestLinearTicksExact: a tick's value is the decimal its label writes (as
// near as a float64 is), and a cost axis's short labels have the step's
// decimals and no more. A fractional step was multiplied by the tick's
// index, 5000001 × 0.2 = 1000000.2000000001, and the cost divided by a
// million: on 1M to 1.0000007M the third label was 1.0000002000000001M.
func TestLinearTicksExact(t *testing.T) {
	labels := func(ticks []plot.Tick) []string {
		var s []string
		for _, tk := range ticks {
			s = append(s, tk.Label)
		}
		return s
	}
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		{1e6, 1.0000007e6, []string{"1M", "1.0000001M", "1.0000002M", "1.0000003M", "1.0000004M", "1.0000005M", "1.0000006M", "1.0000007M"}},
		{1.5e6, 1.50000105e6, []string{"1.5M", "1.5000002M", "1.5000004M", "1.5000006M", "1.5000008M", "1.500001M"}},
		{2e7, 2.000000002e7, []string{"20M", "20.000000005M", "20.00000001M", "20.000000015M", "20.00000002M"}},
		{999999.7, 1.0000003999998e6, []string{"999.9997k", "999.9998k", "999.9999k", "1M", "1.0000001M", "1.0000002M", "1.0000003M"}},
		{-1.0000004e6, -1e6, []string{"-1.0000004M", "-1.0000003M", "-1.0000002M", "-1.0000001M", "-1M"}},
	} {
		if got := labels(linearCostTicks(c.lo, c.hi)); !slices.Equal(got, c.want) {
			t.Errorf("%v to %v: labels %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	// Over many ranges: each value is its label's decimal, and each short
	// label has at most the step's decimals, scaled.
	scales := map[string]int{"k": 3, "M": 6, "G": 9, "T": 12}
	for _, lo := range []float64{0.1, 3, 1e6, 1e6 + 0.3, 999999.7, 1.5e6, 2e7, 123456789.1, 1e9 + 0.1, 1e12} {
		for _, w := range []float64{1e-3, 0.013, 0.07, 0.7, 1, 1.3, 3, 7, 13, 100, 1e4} {
			hi := lo + w*max(lo, 1)/1e6
			plain := linearTicks(lo, hi)
			for i, tk := range linearCostTicks(lo, hi) {
				if v, _ := strconv.ParseFloat(plain[i].Label, 64); v != tk.Value {
					t.Errorf("%v to %v: tick %d at %v, labelled %s", lo, hi, i, tk.Value, plain[i].Label)
				}
				decimals := 0
				if j := strings.IndexByte(plain[i].Label, '.'); j >= 0 {
					decimals = len(plain[i].Label) - j - 1
				}
				label := tk.Label
				if k := scales[label[len(label)-1:]]; k > 0 {
					decimals += k
					label = label[:len(label)-1]
				}
				if j := strings.IndexByte(label, '.'); j >= 0 && len(label)-j-1 > decimals {
					t.Errorf("%v to %v: label %s has more decimals than the step's %d", lo, hi, tk.Label, decimals)
				}
			}
		}
	}
}

// prefixPoints returns a prefix curve on validation at the given costs,
// its NDCG@10 rising by 0.01 a point from 0.5.
func prefixPoints(costs []float64) []Point {
	var points []Point
	for i, x := range costs {
		points = append(points, curvePoint("prefix", "valid", x, 0.5+0.01*float64(i)))
	}
	return points
}

// costLabels returns the labels of the cost axis's ticks in its range.
func costLabels(plt *plot.Plot) []string {
	var labels []string
	for _, tk := range plt.X.Tick.Marker.Ticks(plt.X.Min, plt.X.Max) {
		if tk.Label != "" && tk.Value >= plt.X.Min && tk.Value <= plt.X.Max {
			labels = append(labels, tk.Label)
		}
	}
	return labels
}

// TestLinearCostAxisLabelsShort: a linear cost axis over large costs (feature
// costs of 10^12, whose cascades and ensemble cost 1.3·10^13 to 2.7·10^13
// per document, within a decade) labels its ticks as the log axis does
// (CostLabel: "14T"), not in full: 14 digits a label ran into each other.
// Below a million the labels are linearTicks' own.
func TestLinearCostAxisLabelsShort(t *testing.T) {
	cases := []struct {
		costs []float64
		want  []string
	}{
		{[]float64{13225341706709.488, 27000000000040}, []string{"14T", "16T", "18T", "20T", "22T", "24T", "26T"}},
		{[]float64{1.2e6, 2.9e6}, []string{"1.25M", "1.5M", "1.75M", "2M", "2.25M", "2.5M", "2.75M"}},
		{[]float64{121, 1060}, []string{"200", "400", "600", "800", "1000"}},
	}
	for _, c := range cases {
		plt, _, costX, err := curvePlot(prefixPoints(c.costs), "ndcg@10", "t")
		if err != nil {
			t.Fatal(err)
		}
		if costX(1000) != 1000 {
			t.Fatalf("%g: a log axis, want a linear one", c.costs)
		}
		if got := costLabels(plt); !slices.Equal(got, c.want) {
			t.Errorf("costs %g: labels %q, want %q", c.costs, got, c.want)
		}
	}
}

// TestCurveTitle: the title names the model and the data of each split,
// long names cut from the left at a path separator.
func TestCurveTitle(t *testing.T) {
	cases := []struct {
		model  string
		splits [][2]string
		want   string
	}{
		{"m60.json", [][2]string{{"valid", "builtin:mq2008/vali"}, {"test", "builtin:mq2008/test"}},
			"NDCG@10 against cost per document\nmodel m60.json; valid builtin:mq2008/vali; test builtin:mq2008/test"},
		{"m.json", [][2]string{{"valid", "v.txt"}, {"test", ""}}, "NDCG@10 against cost per document\nmodel m.json; valid v.txt"},
		{"", [][2]string{{"test", "/home/someone/letor/MQ2008/Fold1/test.txt"}}, "NDCG@10 against cost per document\ntest …/MQ2008/Fold1/test.txt"},
		{"", [][2]string{{"test", "a-very-long-file-name-without-any-directory.txt"}}, "NDCG@10 against cost per document\ntest …e-without-any-directory.txt"},
		{"", nil, "NDCG@10 against cost per document"},
	}
	for _, c := range cases {
		if got := CurveTitle(c.model, c.splits...); got != c.want {
			t.Errorf("CurveTitle(%q, %q) = %q, want %q", c.model, c.splits, got, c.want)
		}
	}
}

// TestPlotPNGSize: a PNG plot is drawn at 192 dots per inch, twice
// gonum's 96, for slides (at 96 a sweep's plot was 758 × 384 pixels), the
// image the SVG's size in points (72 an inch) and with the legend; the SVG
// keeps its size.
func TestPlotPNGSize(t *testing.T) {
	points := []Point{
		curvePoint("cronus", "valid", 28, 0.5346), curvePoint("cronus", "test", 57, 0.51),
		curvePoint("prefix", "valid", 121, 0.5243), curvePoint("prefix", "valid", 1060, 0.5405),
	}
	svg := plotSVG(t, points, "t")
	m := regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no size in the SVG: %.200s", svg)
	}
	wPt, _ := strconv.ParseFloat(m[1], 64)
	hPt, _ := strconv.ParseFloat(m[2], 64)
	if hPt != 288 || wPt <= 432 {
		t.Errorf("the SVG is %g × %g points, want 6 inches and the legend × 4 inches", wPt, hPt)
	}
	// The PNG draws its text in the font it was measured in: the SVG's
	// room for a wider one after the legend is not in it.
	_, legend, _, err := curvePlot(points, "ndcg@10", "t")
	if err != nil {
		t.Fatal(err)
	}
	wPt -= (fontSlack - 1) * legendTextWidth(legend).Points()
	path := filepath.Join(t.TempDir(), "curve.png")
	if err := Plot(path, points, "ndcg@10", "t"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	got := img.Bounds().Size()
	want := image.Pt(int(math.Round(wPt/72*192)), int(math.Round(hPt/72*192)))
	if abs(got.X-want.X) > 1 || got.Y != want.Y {
		t.Errorf("the PNG is %v pixels, want %v (%g × %g points at 192 dpi)", got, want, wPt, hPt)
	}
}

// TestPlotSVGText: an SVG plot's text fits where it was laid out in a
// viewer without Liberation Serif, whose metrics lay it out: the font
// family goes on to the fonts of the same metrics and the generic serif,
// every text element has its measured width as its textLength (squeezed
// to it, lengthAdjust="spacingAndGlyphs"), and the legend's entries have
// room after them for a font fontSlack times as wide, for viewers that
// ignore textLength (rsvg-convert 2.54 drew DejaVu Serif, 1.25 times as
// wide on the legend's entries, and cut "Pareto front (valid)" to
// "Pareto front (val"). Before, the SVG named Liberation Serif alone.
func TestPlotSVGText(t *testing.T) {
	var points []Point
	for _, m := range knownMethods {
		for _, sp := range []string{"valid", "test"} {
			for i, c := range []float64{10, 30, 100, 300} {
				points = append(points, curvePoint(m, sp, c, 0.4+0.02*float64(i)))
			}
		}
	}
	svg := plotSVG(t, points, "NDCG@10 against cost per document\nmodel m.json; valid builtin:mq2008/vali")
	m := regexp.MustCompile(`<svg width="([0-9.]+)pt"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no size in the SVG: %.200s", svg)
	}
	width, _ := strconv.ParseFloat(m[1], 64)
	texts := regexp.MustCompile(`<text textLength="([0-9.]+)" lengthAdjust="spacingAndGlyphs" x="([-0-9.e]+)"[^>]*style="font-family:'Liberation Serif','Times New Roman',Times,serif;[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1)
	if n := strings.Count(svg, "<text "); n == 0 || len(texts) != n {
		t.Fatalf("%d of %d text elements have their width and the font families", len(texts), n)
	}
	face := font.DefaultCache.Lookup(plot.DefaultFont, vg.Points(12))
	entries := 0
	for _, tx := range texts {
		w, _ := strconv.ParseFloat(tx[1], 64)
		x, _ := strconv.ParseFloat(tx[2], 64)
		if x < plotWidth.Points() { // not the legend's
			continue
		}
		entries++
		if want := face.Width(tx[3]).Points(); math.Abs(w-want) > 0.01 {
			t.Errorf("%q: textLength %g, measured %g", tx[3], w, want)
		}
		if end := x + fontSlack*w; end > width {
			t.Errorf("%q: %g points wide from %g, %g in a font %g times as wide: past the SVG's width, %g", tx[3], w, x, end, fontSlack, width)
		}
	}
	if entries != 2*len(knownMethods)+2 { // and the two Pareto fronts
		t.Errorf("%d legend entries, want %d", entries, 2*len(knownMethods)+2)
	}
}

// TestPlotPNGDensity: a PNG plot says it is at 192 dots per inch (a pHYs
// chunk before the image data, 7559 pixels per metre), so that a paper or
// slide it is put in shows it at its size in inches; without the chunk it
// was read at 72 dots per inch, 21 inches wide. The image still decodes
// (its chunks' checksums hold).
func TestPlotPNGDensity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "curve.png")
	points := []Point{curvePoint("cronus", "valid", 28, 0.5346), curvePoint("prefix", "valid", 1060, 0.5405)}
	if err := Plot(path, points, "ndcg@10", "t"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var phys []byte
	for i := 8; i+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		typ := string(b[i+4 : i+8])
		if typ == "IDAT" {
			break
		}
		if typ == "pHYs" {
			phys = b[i+8 : i+8+n]
		}
		i += 12 + n
	}
	if len(phys) != 9 {
		t.Fatalf("no pHYs chunk before the image data (%d bytes)", len(phys))
	}
	x, y, unit := binary.BigEndian.Uint32(phys), binary.BigEndian.Uint32(phys[4:]), phys[8]
	if x != 7559 || y != 7559 || unit != 1 {
		t.Errorf("pHYs %d × %d pixels per unit %d, want 7559 × 7559 per metre (192 dpi)", x, y, unit)
	}
}

// abs is the absolute value of n.
func abs(n int) int { return max(n, -n) }

// TestPlotTitleFits: a title with long file names fits the plot's width
// (centred over the plot, a wider one was cut at the image's left edge).
func TestPlotTitleFits(t *testing.T) {
	dir := "/home/someone/data/letor/MQ2008/Fold1/"
	title := CurveTitle(dir+"lambdamart-60-trees-depth2-model.json", [2]string{"valid", dir + "validation-fold1.txt.gz"}, [2]string{"test", dir + "test-fold1.txt.gz"})
	plt, _, _, err := curvePlot([]Point{curvePoint("cronus", "valid", 28, 0.53)}, "ndcg@10", title)
	if err != nil {
		t.Fatal(err)
	}
	if w := plt.Title.TextStyle.Width(plt.Title.Text); w > plotWidth {
		t.Errorf("the title is %.0f points wide, the plot %.0f: %q", w.Points(), plotWidth.Points(), title)
	}
	if size := plt.Title.TextStyle.Font.Size; size < vg.Points(7) {
		t.Errorf("the title is shrunk to %.1f points", size.Points())
	}
}

// TestPlotCostScale: costs over more than a decade go on a log axis, where
// the cheap cascades stand apart (on a linear axis the points of cost 28
// and 57 of a sweep on MQ2008 were 3% of its width apart, among prefixes
// up to 1060), labelled at 1, 2 and 5 times powers of ten; a narrower
// range, or one with a cost of 0, keeps a linear axis.
func TestPlotCostScale(t *testing.T) {
	cases := []struct {
		name   string
		costs  []float64
		log    bool
		labels []string
	}{
		{"sweep on MQ2008", []float64{28, 57, 121, 458, 1060}, true, []string{"50", "100", "200", "500", "1000"}},
		{"one decade", []float64{30, 300}, true, []string{"30", "50", "100", "200", "300"}},
		{"under a decade", []float64{121, 1060}, false, nil},
		{"a cost of 0", []float64{0, 10, 1000}, false, nil},
	}
	for _, c := range cases {
		plt, _, costX, err := curvePlot(prefixPoints(c.costs), "ndcg@10", "t")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// On a log axis the ticks are where their costs' logarithms are.
		isLog := costX(1000) == 3
		for _, tk := range plt.X.Tick.Marker.Ticks(plt.X.Min, plt.X.Max) {
			if v, err := strconv.ParseFloat(tk.Label, 64); tk.Label != "" && (err != nil || math.Abs(costX(v)-tk.Value) > 1e-12) {
				t.Errorf("%s: the tick %q is at %g", c.name, tk.Label, tk.Value)
			}
		}
		// gonum's LogScale made room for the axis label beyond the plot's
		// right end: the data took 330 of its 432 points.
		cv, err := draw.NewFormattedCanvas(plotWidth, plotHeight, "svg")
		if err != nil {
			t.Fatal(err)
		}
		if dc := plt.DataCanvas(draw.New(cv)); dc.Size().X < 0.85*plotWidth {
			t.Errorf("%s: the data take %.0f of the plot's %.0f points", c.name, dc.Size().X.Points(), plotWidth.Points())
		}
		if isLog != c.log {
			t.Errorf("%s: log scale %v, want %v", c.name, isLog, c.log)
			continue
		}
		if strings.Contains(plt.X.Label.Text, "log scale") != c.log {
			t.Errorf("%s: axis label %q", c.name, plt.X.Label.Text)
		}
		if !c.log {
			continue
		}
		if d := plt.X.Norm(costX(c.costs[1])) - plt.X.Norm(costX(c.costs[0])); d < 0.15 {
			t.Errorf("%s: costs %g and %g are %.2f of the axis apart", c.name, c.costs[0], c.costs[1], d)
		}
		if labels := costLabels(plt); !slices.Equal(labels, c.labels) {
			t.Errorf("%s: labels %q, want %q", c.name, labels, c.labels)
		}
	}
}

// TestLogTicks: a log cost axis has between 4 and maxLogTicks labels,
// ascending, short (from 10,000 on in k, M, G, T), at costs inside the
// axis, whatever its span; over four decades they ran into each other
// ("50000100000").
func TestLogTicks(t *testing.T) {
	for _, r := range [][2]float64{{12, 1610}, {10, 1e5}, {1, 1e6}, {1, 1e12}, {0.01, 50}, {20, 300}, {1e4, 3e7}, {1, 1e40}} {
		lo, hi := paddedRange(math.Log10(r[0]), math.Log10(r[1]))
		ticks := logTicks(lo, hi)
		if len(ticks) < 4 || len(ticks) > maxLogTicks {
			t.Errorf("%g to %g: %d ticks", r[0], r[1], len(ticks))
		}
		for i, tk := range ticks {
			x := math.Log10(tk.Cost)
			if x < lo || x > hi || (i > 0 && tk.Cost <= ticks[i-1].Cost) {
				t.Errorf("%g to %g: tick %d at %g", r[0], r[1], i, tk.Cost)
			}
			if tk.Cost < 1e15 && len(tk.Label) > 5 {
				t.Errorf("%g to %g: label %q", r[0], r[1], tk.Label)
			}
		}
	}
	for v, want := range map[float64]string{5: "5", 2000: "2000", 1e4: "10k", 2e4: "20k", 5e5: "500k", 1e6: "1M", 3e9: "3G", 1e12: "1T", 1e15: "1e+15", 0.05: "0.05"} {
		if got := CostLabel(v); got != want {
			t.Errorf("CostLabel(%g) = %q, want %q", v, got, want)
		}
	}
}

// TestPlotPareto: each split's Pareto front (the points that sweep
// reports) is drawn, as a staircase under the curves, and named in the
// legend; a split whose front is one point gets no staircase.
func TestPlotPareto(t *testing.T) {
	points := []Point{
		curvePoint("cronus", "valid", 28, 0.53), curvePoint("cronus", "valid", 56, 0.54),
		curvePoint("prefix", "valid", 40, 0.52), curvePoint("prefix", "valid", 400, 0.55),
		curvePoint("prefix", "test", 40, 0.49), curvePoint("prefix", "test", 400, 0.48),
	}
	svg := plotSVG(t, points, "t")
	if !strings.Contains(svg, ">Pareto front (valid)</text>") {
		t.Error("no legend entry for the valid front")
	}
	if strings.Contains(svg, "Pareto front (test)") {
		t.Error("a legend entry for test's front of one point")
	}
	// Nor one for a front of tied points at one cost (cronus and
	// cronus-init at the same point): a zero-length line was listed.
	tied := plotSVG(t, []Point{
		curvePoint("cronus", "valid", 108, 0.55), curvePoint("cronus-init", "valid", 108, 0.55),
		curvePoint("prefix", "valid", 400, 0.52),
	}, "t")
	if strings.Contains(tied, "Pareto front (valid)") {
		t.Error("a legend entry for a front of tied points at one cost")
	}
	// The staircase: 28 → 56 at 0.53, up to 0.54, 56 → 400, up to 0.55;
	// five corners in one path, the first path with that many corners.
	plt, _, costX, err := curvePlot(points, "ndcg@10", "t")
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, m := range regexp.MustCompile(`<path d="(M[^"]*)"`).FindAllStringSubmatch(svg, -1) {
		if strings.Count(m[1], "L") == 4 && !strings.Contains(m[1], "Z") {
			found = true
			corners := regexp.MustCompile(`[ML]([-0-9.e]+),([-0-9.e]+)`).FindAllStringSubmatch(m[1], -1)
			want := [][2]float64{{28, 0.53}, {56, 0.53}, {56, 0.54}, {400, 0.54}, {400, 0.55}}
			// Relative positions: x by the axis's normalisation, y likewise
			// (the SVG's y grows downwards).
			x0, _ := strconv.ParseFloat(corners[0][1], 64)
			x4, _ := strconv.ParseFloat(corners[4][1], 64)
			y0, _ := strconv.ParseFloat(corners[0][2], 64)
			y4, _ := strconv.ParseFloat(corners[4][2], 64)
			for i, c := range corners {
				x, _ := strconv.ParseFloat(c[1], 64)
				y, _ := strconv.ParseFloat(c[2], 64)
				wx := (plt.X.Norm(costX(want[i][0])) - plt.X.Norm(costX(28))) / (plt.X.Norm(costX(400)) - plt.X.Norm(costX(28)))
				wy := (plt.Y.Norm(want[i][1]) - plt.Y.Norm(0.53)) / (plt.Y.Norm(0.55) - plt.Y.Norm(0.53))
				if math.Abs((x-x0)/(x4-x0)-wx) > 0.01 || math.Abs((y-y0)/(y4-y0)-wy) > 0.01 {
					t.Errorf("corner %d of the front at %s,%s; want it at (%g, %g)", i, c[1], c[2], want[i][0], want[i][1])
				}
			}
			break
		}
	}
	if !found {
		t.Error("no staircase path in the SVG")
	}

	// Valid's front comes first in the legend, as its curves do, though
	// the test points come first (as in the workbench's export).
	checkLegendOrder(t, []Point{
		curvePoint("prefix", "test", 40, 0.49), curvePoint("prefix", "test", 400, 0.50),
		curvePoint("cronus", "valid", 28, 0.53), curvePoint("cronus", "valid", 56, 0.54),
	}, "Pareto front (valid)", "Pareto front (test)")
}

// checkLegendOrder checks that the plot of points has the legend entry
// first before second.
func checkLegendOrder(t *testing.T, points []Point, first, second string) {
	t.Helper()
	svg := plotSVG(t, points, "t")
	a, b := strings.Index(svg, first), strings.Index(svg, second)
	if a < 0 || b < 0 || a > b {
		t.Errorf("legend: %q at %d, %q at %d; want the first before the second", first, a, second, b)
	}
}

// TestPlotMethodColours: a method has the same colour in every plot, in
// whatever order the points come: the workbench's export (prefix first,
// then kept cascades) and sweep (single-stage first) agree, and another
// method takes a colour none of sweep's five has.
func TestPlotMethodColours(t *testing.T) {
	plotOf := func(methods ...string) map[string]legendStyle {
		var points []Point
		for i, m := range methods {
			points = append(points, curvePoint(m, "test", float64(10+i), 0.5), curvePoint(m, "test", float64(20+i), 0.51))
		}
		legend, _, _ := legendStyles(plotSVG(t, points, "t"))
		return legend
	}
	sweep := plotOf("single-stage", "cronus-init", "cronus", MethodPrefix, MethodEarlyExit)
	export := plotOf(MethodPrefix, MethodEarlyExit, "kept #1", "cronus-init", "cronus")
	for _, m := range []string{MethodPrefix, MethodEarlyExit, "cronus-init", "cronus"} {
		if s, e := sweep[m+" (test)"].stroke, export[m+" (test)"].stroke; s == "" || s != e {
			t.Errorf("%s: colour %q in sweep's order, %q in the export's", m, s, e)
		}
	}
	kept := export["kept #1 (test)"].stroke
	for m, st := range sweep {
		if st.stroke == kept {
			t.Errorf("kept #1 has %s's colour %s", m, kept)
		}
	}
}

// TestPlotCoveredMarkers: a marker that later series' markers cover (the
// same cost and quality) is drawn larger for each, so that its rim shows:
// cronus-init's square under cronus's triangle, and under prefix's diamond
// too.
func TestPlotCoveredMarkers(t *testing.T) {
	xy := func(x, y float64) plotter.XY { return plotter.XY{X: x, Y: y} }
	cov := coveredBy([]plotter.XYs{
		{xy(1, 1), xy(2, 2), xy(3, 3)},
		{xy(1, 1), xy(3, 3), xy(3, 3)}, // a point twice in one series covers once
		{xy(1, 1), xy(2, 2.5)},
	})
	if want := [][]int{{2, 0, 1}, {1, 0, 0}, {0, 0}}; !slices.EqualFunc(cov, want, slices.Equal) {
		t.Errorf("coveredBy: %v, want %v", cov, want)
	}

	svg := plotSVG(t, []Point{
		curvePoint("cronus-init", "valid", 100, 0.50), curvePoint("cronus-init", "valid", 300, 0.53),
		curvePoint("cronus", "valid", 100, 0.50), curvePoint("cronus", "valid", 300, 0.54),
		curvePoint("cronus-init", "test", 100, 0.48), curvePoint("cronus-init", "test", 300, 0.51),
		curvePoint("cronus", "test", 100, 0.48), curvePoint("cronus", "test", 300, 0.515),
		curvePoint("prefix", "test", 100, 0.48), curvePoint("prefix", "test", 500, 0.52),
	}, "t")
	// cronus-init's squares, by side (points): a polygon's vertices are
	// 1.2 radii from its centre, so a side is 1.2·√2 radii.
	sides := map[string]int{}
	square := regexp.MustCompile(`<path d="M([-0-9.e]+),([-0-9.e]+)L([-0-9.e]+),([-0-9.e]+)L[-0-9.e]+,[-0-9.e]+L[-0-9.e]+,[-0-9.e]+Z"`)
	for _, m := range square.FindAllStringSubmatch(svg, -1) {
		x0, _ := strconv.ParseFloat(m[1], 64)
		x1, _ := strconv.ParseFloat(m[3], 64)
		if y0, y1 := m[2], m[4]; y0 == y1 && x0 > x1 && x0-x1 < 20 { // a marker, not the frame
			sides[strconv.FormatFloat(x0-x1, 'f', 1, 64)]++
		}
	}
	side := func(r vg.Length) string {
		return strconv.FormatFloat(1.2*math.Sqrt2*float64(r), 'f', 1, 64)
	}
	// The valid point under one marker (filled: one path), the test point
	// under two (hollow: filled white, then outlined), the other points
	// under none (filled, hollow), and the legend's two (likewise).
	want := map[string]int{side(markRadius + coverStep): 1, side(markRadius + 2*coverStep): 2, side(markRadius): 6}
	if !maps.Equal(sides, want) {
		t.Errorf("cronus-init's squares by side: %v, want %v", sides, want)
	}
}

// TestPlotZeroCosts: when every point costs 0 (an all-zero cost file and
// --tree-cost 0) the cost axis ran from -1 to 1, labelled with negative
// costs; it runs from 0 (with its margin) to 1, the points clear of its
// end, and its label says that every point costs 0.
func TestPlotZeroCosts(t *testing.T) {
	points := []Point{curvePoint("cronus", "valid", 0, 0.83), curvePoint("prefix", "valid", 0, 0.67),
		curvePoint("prefix", "valid", 0, 0.8), curvePoint("prefix", "test", 0, 0.7)}
	plt, _, costX, err := curvePlot(points, "ndcg@10", "t")
	if err != nil {
		t.Fatal(err)
	}
	if v := plt.X.Norm(costX(0)); !(v >= 0.02 && v <= 0.1) {
		t.Errorf("cost axis %g to %g: cost 0 is at %.3f of it", plt.X.Min, plt.X.Max, v)
	}
	labels := 0
	for _, tk := range plt.X.Tick.Marker.Ticks(plt.X.Min, plt.X.Max) {
		if tk.Label == "" {
			continue
		}
		labels++
		if tk.Value < 0 || strings.HasPrefix(tk.Label, "-") {
			t.Errorf("cost axis %g to %g: a negative cost labelled, %q", plt.X.Min, plt.X.Max, tk.Label)
		}
	}
	if labels < 4 {
		t.Errorf("cost axis %g to %g: %d labels", plt.X.Min, plt.X.Max, labels)
	}
	if !strings.Contains(plt.X.Label.Text, "every point costs 0") {
		t.Errorf("axis label %q", plt.X.Label.Text)
	}
	if svg := plotSVG(t, points, "t"); strings.Contains(svg, ">-1.0<") || strings.Contains(svg, ">-0.5<") {
		t.Errorf("negative cost labels in the SVG")
	}
}

// TestPlotZeroScores: when every point scores 0 (a validation split
// without a relevant document) the quality axis ran from -1 to 1,
// labelled with negative NDCG@10; it runs from 0 (with its margin) to 1.
func TestPlotZeroScores(t *testing.T) {
	points := []Point{curvePoint("prefix", "valid", 12, 0), curvePoint("prefix", "valid", 40, 0), curvePoint("cronus", "valid", 20, 0)}
	plt, _, _, err := curvePlot(points, "ndcg@10", "t")
	if err != nil {
		t.Fatal(err)
	}
	if v := plt.Y.Norm(0); !(v >= 0.02 && v <= 0.1) {
		t.Errorf("quality axis %g to %g: 0 is at %.3f of it", plt.Y.Min, plt.Y.Max, v)
	}
	labels := 0
	for _, tk := range plt.Y.Tick.Marker.Ticks(plt.Y.Min, plt.Y.Max) {
		if tk.Label == "" {
			continue
		}
		labels++
		if tk.Value < 0 || strings.HasPrefix(tk.Label, "-") {
			t.Errorf("quality axis %g to %g: a negative score labelled, %q", plt.Y.Min, plt.Y.Max, tk.Label)
		}
	}
	if labels < 4 {
		t.Errorf("quality axis %g to %g: %d labels", plt.Y.Min, plt.Y.Max, labels)
	}
}

// A log axis over 1 to 1000 has exactly maxLogTicks (10) labels at 1, 2
// and 5 times the powers of ten: not more than the most, so they stand.
func TestLogTicksAtMost(t *testing.T) {
	var got []float64
	for _, tk := range logTicks(-0.01, 3.01) {
		got = append(got, tk.Cost)
	}
	if want := []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}; !slices.Equal(got, want) {
		t.Errorf("ticks %v, want %v", got, want)
	}
}

// A point of infinite cost is left out of a plot: the axis spans the
// others (10 to 20 with 5% margins: 9.5 to 20.5).
func TestPlotSkipsInfiniteCost(t *testing.T) {
	points := []Point{curvePoint("prefix", "valid", 10, 0.5), curvePoint("prefix", "valid", 20, 0.6), curvePoint("prefix", "valid", math.Inf(1), 0.7)}
	plt, _, _, err := curvePlot(points, "ndcg@10", "t")
	if err != nil {
		t.Fatal(err)
	}
	if plt.X.Min != 9.5 || plt.X.Max != 20.5 {
		t.Errorf("cost axis %g to %g, want 9.5 to 20.5", plt.X.Min, plt.X.Max)
	}
}

// The splits of a method are listed valid first, then test, whatever the
// order of the points.
func TestPlotSplitOrder(t *testing.T) {
	checkLegendOrder(t, []Point{
		curvePoint("prefix", "test", 10, 0.4), curvePoint("prefix", "test", 20, 0.5),
		curvePoint("prefix", "valid", 10, 0.5), curvePoint("prefix", "valid", 20, 0.6),
	}, ">prefix (valid)</text>", ">prefix (test)</text>")
}
