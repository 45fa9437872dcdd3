package baseline

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/metric"
)

func pt(method string, cost float64, ndcg ...float64) Point {
	p := Point{Method: method, Cost: metric.Cost{Total: cost}, Metrics: map[string]float64{}}
	if len(ndcg) > 0 {
		p.Metrics["ndcg@10"] = ndcg[0]
	}
	return p
}

func TestPareto(t *testing.T) {
	points := []Point{
		pt("A", 1, 0.3),
		pt("B", 2, 0.5),
		pt("C", 2, 0.4), // B costs the same and scores more
		pt("D", 3, 0.5), // B scores the same and costs less
		pt("E", 0.5, 0.1),
		pt("F", 4, 0.6),
		pt("G", 4, 0.6), // F's equal: neither dominates
		pt("H", 5, math.NaN()),
		pt("I", 0.1),    // no ndcg@10
		pt("J", 1, 0.2), // A
		pt("K", 6, 0.55),
	}
	var got []string
	for _, p := range Pareto(points, "ndcg@10") {
		got = append(got, p.Method)
	}
	if want := []string{"E", "A", "B", "F", "G"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Pareto = %v, want %v", got, want)
	}
	if points[0].Method != "A" || points[2].Method != "C" {
		t.Error("Pareto reordered its argument")
	}
	if got := Pareto(points, "p@5"); len(got) != 0 {
		t.Errorf("Pareto on a metric no point has: %d points", len(got))
	}
}

func TestCSVRoundTrip(t *testing.T) {
	points := []Point{
		{Method: "prefix", Split: "test", Lambda: 50, Cost: metric.Cost{Total: 123.25, Features: 73.25, Trees: 50},
			Metrics: map[string]float64{"p@5": 0.35, "ndcg@10": 0.4836129032258065, "err@3": 1.0 / 3}},
		{Method: "early-exit", Split: "valid", Lambda: math.Inf(1), Cost: metric.Cost{Total: 1e-7, Features: 0, Trees: 1e-7},
			Metrics: map[string]float64{"ndcg@10": 0.1}}, // p@5 and err@3 missing
		{Method: `cronus, "tuned"`, Split: "", Lambda: 1e-4, Cost: metric.Cost{Total: 3, Features: 2, Trees: 1},
			Metrics: map[string]float64{"p@5": 0, "ndcg@10": 1, "err@3": 0.5}},
		{Method: "cronus", Split: "test", Lambda: 0.05, Variant: "2p30", Cost: metric.Cost{Total: 40.5, Features: 10.5, Trees: 30},
			Metrics: map[string]float64{"p@5": 0.4, "ndcg@10": 0.5, "err@3": 0.25}},
	}
	path := filepath.Join(t.TempDir(), "curve.csv")
	if err := WriteCSV(path, points); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if lines[0] != "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3" {
		t.Errorf("header %q", lines[0])
	}
	if want := "early-exit,valid,+Inf,1e-07,0,1e-07,,0.1,"; lines[2] != want {
		t.Errorf("line 3 %q, want %q", lines[2], want)
	}
	if want := "cronus,test,0.05#2p30,40.5,10.5,30,0.4,0.5,0.25"; lines[4] != want {
		t.Errorf("line 5 %q, want %q", lines[4], want)
	}
	got, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, points) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, points)
	}

	// A metric other than the three is not part of the file.
	extra := []Point{{Method: "m", Metrics: map[string]float64{"map": 0.5, "p@5": 0.2}}}
	if err := WriteCSV(path, extra); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadCSV(path); err != nil || !reflect.DeepEqual(got[0].Metrics, map[string]float64{"p@5": 0.2}) {
		t.Errorf("extra metric: %+v, %v", got, err)
	}
}

func TestReadCSVErrors(t *testing.T) {
	const header = "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3\n"
	cases := []struct{ name, text, want string }{
		{"empty", "", "curve.csv: empty file"},
		{"header", "method,split,lambda,cost\n", "curve.csv:1: header"},
		{"number", header + "a,b,1,2,1,1,,,\na,b,1,x,1,1,,,\n", `curve.csv:3: cost: "x" is not a number`},
		{"metric", header + "a,b,1,2,1,1,0.5,y,\n", `curve.csv:2: ndcg@10: "y" is not a number`},
		{"fields", header + "a,b,1,2\n", "curve.csv:2: 4 fields; want 9"},
		{"quote", header + "a,\"b,1,2,1,1,,,\n", "curve.csv:2:"},
		{"variant", header + "a,b,1#2,2,1,1,,,\na,b,1#,2,1,1,,,\n", `curve.csv:3: lambda: "1#": after # a variant of letters and digits (0.05#2p30), got ""`},
		{"variant λ", header + "a,b,x#2,2,1,1,,,\n", `curve.csv:2: lambda: "x" is not a number`},
		{"variant chars", header + "a,b,1#2 p,2,1,1,,,\n", `curve.csv:2: lambda: "1#2 p": after # a variant`},
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, "curve.csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadCSV(path)
		if err == nil || !strings.HasPrefix(strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)), c.want) {
			t.Errorf("%s: error %v, want it to start %q", c.name, err, c.want)
		}
	}
}

func TestPlot(t *testing.T) {
	e, d := threeStumps(t)
	specs := mustSpecs(t, "p@5,ndcg@10,err@3")
	points := noErr(t)(Prefix(context.Background(), e, d, "test", []float64{1, 10}, 1, []int{1, 2, 3}, specs, metric.Options{}))
	points = append(points, noErr(t)(EarlyExit(context.Background(), e, d, "test", []float64{1, 10}, 1, 1, []float64{0, 1, math.Inf(1)}, specs, metric.Options{}))...)
	points = append(points, noErr(t)(Prefix(context.Background(), e, d, "valid", []float64{1, 10}, 1, []int{1, 3}, specs, metric.Options{}))...)
	dir := t.TempDir()
	cases := []struct {
		file  string
		magic []string
	}{
		{"curve.svg", []string{"<?xml", "<svg"}},
		{"curve.SVG", []string{"<?xml", "<svg"}},
		{"curve.png", []string{"\x89PNG\r\n\x1a\n"}},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		if err := Plot(path, points, "ndcg@10", "NDCG@10 against cost"); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ok := false
		for _, m := range c.magic {
			ok = ok || strings.HasPrefix(string(b), m)
		}
		if !ok || len(b) < 1000 {
			t.Errorf("%s: %d bytes starting %q", c.file, len(b), b[:min(len(b), 16)])
		}
		if strings.HasSuffix(c.file, ".svg") {
			for _, s := range []string{"cost per document (features + trees)", ">NDCG@10</text>", "prefix (test)", "early-exit (test)", "prefix (valid)"} {
				if !strings.Contains(string(b), s) {
					t.Errorf("%s: no %q in the SVG", c.file, s)
				}
			}
		}
	}

	jpg := filepath.Join(dir, "curve.jpg")
	err := Plot(jpg, points, "ndcg@10", "")
	if err == nil || !strings.Contains(err.Error(), `".jpg"`) || !strings.Contains(err.Error(), ".svg or .png") {
		t.Errorf("jpg: error %v", err)
	}
	if _, statErr := os.Stat(jpg); !os.IsNotExist(statErr) {
		t.Errorf("jpg: a file was written")
	}
	if err := Plot(filepath.Join(dir, "none.svg"), points, "map", ""); err == nil || !strings.Contains(err.Error(), "map") {
		t.Errorf("no points with the metric: error %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		if strings.HasPrefix(en.Name(), ".") {
			t.Errorf("temporary file %s left behind", en.Name())
		}
	}
}

// TestPlotStyles: in a sweep's plot (5 methods × 2 splits) every method has
// its own colour on both splits, the splits differ by dash pattern (valid
// solid, test dashed) and by marker (valid filled, test hollow, so that a
// series of one point, which has no line, shows its split too), whichever
// split comes first (the workbench's export lists its test points first),
// and the legend stands clear of the data (legendStyles reads the SVG).
func TestPlotStyles(t *testing.T) {
	for _, splits := range [][]string{{"valid", "test"}, {"test", "valid"}} {
		testPlotStyles(t, splits)
	}
}

// testPlotStyles is TestPlotStyles with the splits' points in that order.
func testPlotStyles(t *testing.T, splits []string) {
	methods := []string{"single-stage", "cronus-init", "cronus", MethodPrefix, MethodEarlyExit}
	var points []Point
	for _, split := range splits {
		for i, m := range methods {
			for j := range 3 {
				q := 0.4 + 0.01*float64(i) + 0.02*float64(j)
				if split == "test" {
					q -= 0.05
				}
				points = append(points, Point{Method: m, Split: split, Lambda: float64(j), Cost: metric.Cost{Total: 100 * float64(1+i+j)}, Metrics: map[string]float64{"ndcg@10": q}})
			}
		}
	}
	b := plotSVG(t, points, "NDCG@10 against cost")
	legend, legendX, dataX := legendStyles(b)
	if len(legend) != 12 { // the ten curves and the two Pareto fronts
		t.Fatalf("%d legend entries with a line thumbnail, want 12: %v", len(legend), legend)
	}
	colours := map[string]string{legend["Pareto front (valid)"].stroke: "the Pareto front"}
	for _, m := range methods {
		v, te := legend[m+" (valid)"], legend[m+" (test)"]
		if v.stroke == "" || v.stroke != te.stroke {
			t.Errorf("%s: colour %q on valid, %q on test; want one colour", m, v.stroke, te.stroke)
		}
		if v.dashes != "" || te.dashes == "" {
			t.Errorf("%s (splits in order %v): dashes %q on valid, %q on test; want valid solid, test dashed", m, splits, v.dashes, te.dashes)
		}
		if !v.filled || te.filled {
			t.Errorf("%s (splits in order %v): marker filled %v on valid, %v on test; want valid filled, test hollow", m, splits, v.filled, te.filled)
		}
		if v.dashes != legend[methods[0]+" (valid)"].dashes || te.dashes != legend[methods[0]+" (test)"].dashes {
			t.Errorf("%s: dashes %q (valid), %q (test): not those of the other methods on the split", m, v.dashes, te.dashes)
		}
		if o, ok := colours[v.stroke]; ok {
			t.Errorf("%s and %s share the colour %s", o, m, v.stroke)
		}
		colours[v.stroke] = m
	}
	if !(legendX > dataX) {
		t.Errorf("the legend starts at x = %v, within the plot, which reaches x = %v", legendX, dataX)
	}
}

// legendStyle is how a legend entry draws its series: the stroke colour
// and dash pattern of its line, and whether its marker is filled.
type legendStyle struct {
	stroke, dashes string
	filled         bool // the marker after the thumbnail is filled with the stroke colour
}

// legendStyles reads Plot's SVG: the style of each legend entry with a
// line thumbnail (the last horizontal stroke of thumbnail width before
// its text; the marker drawn after it is filled with its colour or not),
// by its text; where the legend starts (x), and where anything drawn
// before it ends.
func legendStyles(svg string) (legend map[string]legendStyle, legendX, dataX float64) {
	elem := regexp.MustCompile(`<path d="([^"]*)" style="([^"]*)"|>([^<>]+)</text>`)
	thumb := regexp.MustCompile(`^M([-0-9.e]+),([-0-9.e]+)L([-0-9.e]+),([-0-9.e]+)$`)
	coord := regexp.MustCompile(`[ML]([-0-9.e]+),`)
	legend = map[string]legendStyle{}
	var last legendStyle
	var lastX float64
	inLegend := false // a thumbnail has been seen: the plot is drawn
	legendX, dataX = math.Inf(1), math.Inf(-1)
	for _, m := range elem.FindAllStringSubmatch(svg, -1) {
		if m[3] != "" { // a text: a legend entry when it names a series
			if last.stroke != "" && strings.Contains(m[3], " (") {
				legend[m[3]] = last
				legendX = min(legendX, lastX)
				last = legendStyle{}
			}
			continue
		}
		if last.stroke != "" && strings.Contains(m[2], "fill:"+last.stroke) {
			last.filled = true
		}
		f := thumb.FindStringSubmatch(m[1])
		var x1, x2 float64
		if f != nil {
			x1, _ = strconv.ParseFloat(f[1], 64)
			x2, _ = strconv.ParseFloat(f[3], 64)
		}
		if f == nil || f[2] != f[4] || x2-x1 < 15 || x2-x1 > 40 { // not a thumbnail (20 to 30 points wide; grid lines are longer)
			if !inLegend && strings.Contains(m[2], "stroke:") { // a line of the plot, not the background
				for _, c := range coord.FindAllStringSubmatch(m[1], -1) {
					x, _ := strconv.ParseFloat(c[1], 64)
					dataX = max(dataX, x)
				}
			}
			continue
		}
		st := legendStyle{}
		for _, kv := range strings.Split(m[2], ";") {
			k, v, _ := strings.Cut(kv, ":")
			switch k {
			case "stroke":
				st.stroke = v
			case "stroke-dasharray":
				st.dashes = v
			}
		}
		last, lastX, inLegend = st, x1, true
	}
	return legend, legendX, dataX
}

// BestBaseline: among the baselines of the split costing no more than the
// budget, the best metric, ties to the cheaper; other splits, other
// methods, NaN values and dearer points are left out.
func TestBestBaselineHand(t *testing.T) {
	p := func(method, split string, cost, ndcg float64) Point {
		return Point{Method: method, Split: split, Cost: metric.Cost{Total: cost}, Metrics: map[string]float64{"ndcg@10": ndcg}}
	}
	points := []Point{
		p(MethodSingleStage, "test", 15, math.NaN()), // no value: left out
		p(MethodPrefix, "valid", 5, 0.9),             // another split
		p("cronus", "test", 5, 0.95),                 // not a baseline
		p(MethodPrefix, "test", 10, 0.4),
		p(MethodSingleStage, "test", 20, 0.6),
		p(MethodEarlyExit, "test", 30, 0.6), // ties the single stage, dearer
		p(MethodPrefix, "test", 40, 0.8),    // over every budget below
	}
	for _, c := range []struct {
		budget float64
		want   string // method and cost, "" for none
	}{
		{30, "single-stage 20"}, // 0.6 twice: the cheaper
		{25, "single-stage 20"},
		{20, "single-stage 20"}, // a point costing the budget exactly
		{19, "prefix 10"},
		{9, ""},
	} {
		best, ok := BestBaseline(points, "test", "ndcg@10", c.budget)
		got := ""
		if ok {
			got = fmt.Sprintf("%s %g", best.Method, best.Cost.Total)
		}
		if got != c.want {
			t.Errorf("budget %g: best baseline %q, want %q", c.budget, got, c.want)
		}
	}
	for _, m := range []string{MethodPrefix, MethodEarlyExit, MethodSingleStage} {
		if !IsBaseline(m) {
			t.Errorf("IsBaseline(%q) = false", m)
		}
	}
	if IsBaseline("cronus") {
		t.Error(`IsBaseline("cronus") = true`)
	}
}

// Pareto keeps equal points in input order, however many: 20 points of
// cost 0 and 20 of cost 1, interleaved, all on the front.
func TestParetoTiesKeepInputOrder(t *testing.T) {
	var points, want []Point
	var dear []Point
	for i := range 40 {
		if i%2 == 0 {
			points = append(points, pt(fmt.Sprintf("dear%02d", i), 1, 0.5))
			dear = append(dear, points[i])
		} else {
			points = append(points, pt(fmt.Sprintf("cheap%02d", i), 0, 0.4))
			want = append(want, points[i])
		}
	}
	want = append(want, dear...)
	names := func(ps []Point) []string {
		var s []string
		for _, p := range ps {
			s = append(s, p.Method)
		}
		return s
	}
	if got := Pareto(points, "ndcg@10"); !reflect.DeepEqual(names(got), names(want)) {
		t.Errorf("Pareto order\n%v\nwant\n%v", names(got), names(want))
	}
}
