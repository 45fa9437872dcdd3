package views

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/muesli/termenv"
)

// groupSizes are the MQ2008 cost groups 1/10/20/50/100 of the built-in costs.
var groupSizes = []int{11, 12, 6, 9, 8}

// fullCost is the full 300-tree ensemble, which extracts all 46 features.
var fullCost = metric.Cost{Total: 1801, Features: 1501, Trees: 300}

// sampleSnapshot is a run of a 10-stage cascade in its sixth cycle, just
// after optimising stage 7 (step 57). The terms decay geometrically (exact
// in floating point, so the golden files hold on every platform).
func sampleSnapshot() cronus.Snapshot {
	var terms []cronus.Terms
	a, b, c, d := 1.0, 1.0, 1.0, 1.0
	for i := range 58 {
		wiggle := 0.0
		if i%10 == 3 {
			wiggle = 0.004 // a stage step that briefly trades loss for cost
		}
		t := cronus.Terms{
			Loss:     0.30 + float64(0.12*a) + wiggle,
			Reg:      0.010 + float64(0.004*b),
			TreeCost: 0.020 + float64(0.030*c),
			FeatCost: 0.040 + float64(0.090*d),
		}
		t.Total = t.Loss + t.Reg + t.TreeCost + t.FeatCost
		terms = append(terms, t)
		a, b, c, d = a*0.89, b*0.93, c*0.92, d*0.9
	}
	theta := []float64{-0.412, -0.287, -0.195, -0.120, -0.061, 0.004, 0.058, 0.117, 0.183, math.Inf(-1)}
	active := []int{8, 14, 22, 31, 45, 60, 78, 95, 120, 148}
	newTrees := []int{8, 7, 9, 10, 15, 16, 19, 18, 26, 30}
	newFeat := [][]int{{6, 2, 0, 0, 0}, {2, 3, 1, 0, 0}, {1, 2, 1, 1, 0}, {1, 1, 1, 1, 0}, {0, 1, 0, 2, 1},
		{0, 1, 1, 1, 1}, {0, 0, 1, 1, 1}, {0, 1, 0, 1, 2}, {0, 0, 0, 1, 1}, {0, 0, 0, 0, 1}}
	costAdded := []float64{34, 59, 100, 91, 225, 196, 189, 278, 176, 130}
	soft := []float64{1, 0.655, 0.447, 0.318, 0.236, 0.171, 0.126, 0.095, 0.075, 0.058}
	hard := []float64{1, 0.642, 0.431, 0.305, 0.221, 0.158, 0.117, 0.088, 0.069, 0.052}
	valid := []float64{1, 0.631, 0.425, 0.311, 0.218, 0.162, 0.121, 0.091, 0.071, 0.055}
	test := []float64{1, 0.628, 0.419, 0.297, 0.214, 0.151, 0.110, 0.083, 0.066, 0.049}
	var stages []cronus.StageView
	for k := range theta {
		stages = append(stages, cronus.StageView{Theta: theta[k], Active: active[k], SoftTrain: soft[k], HardTrain: hard[k],
			Valid: valid[k], Test: test[k], NewFeatures: newFeat[k], NewTrees: newTrees[k], CostAdded: costAdded[k]})
	}
	testEval := cronus.Eval{Metrics: map[string]float64{"p@5": 0.3418, "ndcg@10": 0.2287, "err@3": 0.1512},
		Cost: metric.Cost{Total: 279.6, Features: 234.4, Trees: 45.2}, Reached: test}
	validEval := cronus.Eval{Metrics: map[string]float64{"p@5": 0.3502, "ndcg@10": 0.2310, "err@3": 0.1547},
		Cost: metric.Cost{Total: 283.1, Features: 237.5, Trees: 45.6}, Reached: valid}
	return cronus.Snapshot{Phase: "optimising", Cycle: 6, Stage: 6, Step: 57, Terms: terms, Stages: stages,
		CostGroups: []float64{1, 10, 20, 50, 100}, Valid: validEval, Test: testEval,
		Best: validEval, BestTest: testEval, BestStep: 57, LambdaMax: 0.0123}
}

// samplePoints is a λ sweep and the baselines: 38 points over 6 methods and
// the validation and test splits, unevenly spaced in cost.
func samplePoints() ([]baseline.Point, *baseline.Point) {
	var pts []baseline.Point
	add := func(method string, lambda []float64, cost []float64, tst, val []float64) {
		for i := range cost {
			for _, sp := range []struct {
				split string
				v     float64
			}{{"valid", val[i]}, {"test", tst[i]}} {
				pts = append(pts, baseline.Point{Method: method, Split: sp.split, Lambda: lambda[i],
					Cost:    metric.Cost{Total: cost[i]},
					Metrics: map[string]float64{"ndcg@10": sp.v}})
			}
		}
	}
	add(baseline.MethodPrefix, []float64{10, 50, 100, 200, 300}, []float64{410, 950, 1300, 1600, 1801},
		[]float64{0.196, 0.215, 0.222, 0.227, 0.229}, []float64{0.201, 0.219, 0.226, 0.230, 0.232})
	add(baseline.MethodEarlyExit, []float64{0.1, 0.3, 0.6}, []float64{1100, 1350, 1600},
		[]float64{0.210, 0.219, 0.225}, []float64{0.214, 0.223, 0.229})
	add("single-stage", []float64{0.5, 0.1, 0.01}, []float64{150, 420, 760},
		[]float64{0.205, 0.218, 0.224}, []float64{0.209, 0.221, 0.227})
	add(MethodSweep, []float64{0.5, 0.05, 0.005}, []float64{110, 330, 640}, []float64{0.214, 0.224, 0.229}, []float64{0.217, 0.226, 0.231})
	add("cronus-init", []float64{0.5, 0.1}, []float64{120, 260}, []float64{0.212, 0.220}, []float64{0.215, 0.224})
	add("cronus", []float64{0.5, 0.1, 0.01}, []float64{95, 280, 520},
		[]float64{0.219, 0.2287, 0.231}, []float64{0.222, 0.231, 0.234})
	cur := baseline.Point{Method: "cronus", Split: "test", Lambda: 0.1, Cost: metric.Cost{Total: 279.6},
		Metrics: map[string]float64{"ndcg@10": 0.2287}}
	return pts, &cur
}

// cascadeViews are the views of the cascade screen at width × height.
func cascadeViews(s cronus.Snapshot, st Styles) map[string]func(w, h int) string {
	pts, cur := samplePoints()
	return map[string]func(w, h int) string{
		"objective": func(w, h int) string { return RenderObjective(s, w, h, st) },
		"reach":     func(w, h int) string { return RenderReach(s, w, h, st) },
		"features":  func(w, h int) string { return RenderFeatureGrid(s, groupSizes, w, h, st) },
		"stages":    func(w, h int) string { return RenderStageTable(s, w, h, st) },
		"curve":     func(w, h int) string { return RenderCurve(pts, cur, "ndcg@10", w, h, st) },
	}
}

// checkFits fails unless got is exactly height lines of at most width cells.
func checkFits(t *testing.T, name string, got string, width, height int) {
	t.Helper()
	lines := strings.Split(got, "\n")
	if len(lines) != height {
		t.Errorf("%s at %dx%d: %d lines", name, width, height, len(lines))
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w > width {
			t.Errorf("%s at %dx%d: line %d is %d cells wide: %q", name, width, height, i, w, l)
		}
	}
}

func TestCascadeViewsGolden(t *testing.T) {
	s := sampleSnapshot()
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		suffix := "-" + itoa(size.w) + "x" + itoa(size.h) + ".golden"
		for name, view := range cascadeViews(s, PlainStyles()) {
			got := view(size.w, size.h)
			checkFits(t, name, got, size.w, size.h)
			golden(t, name+suffix, got)
		}
		status := RenderStatus(s, fullCost, size.w, PlainStyles())
		checkFits(t, "status", status, size.w, 1)
		golden(t, "status"+suffix, status)
	}
}

// TestCascadeViewsFit renders the panes at the sizes the workbench gives
// them (120×40 split in panes, 80×24 switched) and at sizes too small.
func TestCascadeViewsFit(t *testing.T) {
	s := sampleSnapshot()
	empty := cronus.Snapshot{Phase: "initialising"}
	one := sampleSnapshot()
	one.Terms = one.Terms[:1]
	one.Cycle, one.Stage, one.Step = 0, 0, 0
	long := sampleSnapshot() // more steps than columns: downsampled
	for len(long.Terms) < 600 {
		long.Terms = append(long.Terms, long.Terms...)
	}
	for _, snap := range []cronus.Snapshot{s, empty, one, long} {
		for _, size := range []struct{ w, h int }{{60, 13}, {60, 20}, {40, 12}, {120, 40}, {24, 6}, {12, 3}, {1, 1}} {
			for name, view := range cascadeViews(snap, PlainStyles()) {
				checkFits(t, name, view(size.w, size.h), size.w, size.h)
			}
			checkFits(t, "status", RenderStatus(snap, fullCost, size.w, PlainStyles()), size.w, 1)
		}
	}
	if got := RenderCurve(nil, nil, "ndcg@10", 40, 5, PlainStyles()); !strings.Contains(got, "no points yet") {
		t.Errorf("empty curve:\n%s", got)
	}
}

// TestCascadeViewsColour checks that with colour on the views keep their
// size, and that the plain styles (NO_COLOR) write no escape sequence.
func TestCascadeViewsColour(t *testing.T) {
	s := sampleSnapshot()
	for name, view := range cascadeViews(s, PlainStyles()) {
		if got := view(80, 24); strings.Contains(got, "\x1b") {
			t.Errorf("%s with plain styles has escape sequences", name)
		}
	}
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(old)
	for name, view := range cascadeViews(s, DefaultStyles()) {
		for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}, {50, 14}} {
			got := view(size.w, size.h)
			checkFits(t, name, got, size.w, size.h)
			if !strings.Contains(got, "\x1b[") {
				t.Errorf("%s at %dx%d: no colour", name, size.w, size.h)
			}
			plain := cascadeViews(s, PlainStyles())[name](size.w, size.h)
			if stripped := stripANSI(got); stripped != plain {
				t.Errorf("%s at %dx%d: colour changes the text:\n%s\n---\n%s", name, size.w, size.h, stripped, plain)
			}
		}
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestDownsample(t *testing.T) {
	for _, c := range []struct {
		name string
		xs   []float64
		n    int
		want []float64
	}{
		{"shorter than n is copied", []float64{3, 1, 2}, 5, []float64{3, 1, 2}},
		{"equal length is copied", []float64{3, 1, 2}, 3, []float64{3, 1, 2}},
		{"ends kept, middle bucket means", []float64{10, 1, 2, 3, 4, 5, 6, 0}, 5, []float64{10, 1.5, 3.5, 5.5, 0}},
		{"uneven buckets", []float64{9, 1, 2, 3, 4, 5, 7}, 4, []float64{9, 1.5, 4, 7}},
		{"n = 2 keeps the ends", []float64{1, 5, 5, 5, 2}, 2, []float64{1, 2}},
		{"n = 1 keeps the last", []float64{1, 5, 2}, 1, []float64{2}},
		{"n = 0", []float64{1, 2}, 0, nil},
		{"empty", nil, 4, []float64{}},
	} {
		got := Downsample(c.xs, c.n)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
	// A long series comes down to exactly n values and the input is untouched.
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(i)
	}
	orig := slices.Clone(xs)
	got := Downsample(xs, 70)
	if len(got) != 70 || got[0] != 0 || got[69] != 999 || !slices.Equal(xs, orig) {
		t.Errorf("Downsample(0..999, 70): len %d, ends %v %v", len(got), got[0], got[len(got)-1])
	}
	if !slices.IsSorted(got) {
		t.Errorf("the means of an increasing series are not increasing: %v", got)
	}
	// Buckets have near-equal size: the mean of bucket i of 1..998 in 68 buckets.
	for i := 1; i < 69; i++ {
		lo, hi := 1+(i-1)*998/68, 1+i*998/68
		want := float64(lo+hi-1) / 2
		if math.Abs(got[i]-want) > 1e-9 {
			t.Fatalf("bucket %d: %v, want %v", i, got[i], want)
		}
	}
}

func TestXYCell(t *testing.T) {
	for _, c := range []struct {
		name     string
		x, y     float64
		col, row int
	}{
		{"max cost lands in the last column", 1801, 0.25, 59, 0},
		{"min metric lands in the bottom row", 0, 0.15, 0, 20},
		{"zero cost in the first column", 0, 0.25, 0, 0},
		{"middle", 900.5, 0.20, 30, 10},
		{"cost is linear, not by rank", 180.1, 0.15, 6, 20},
	} {
		col, row := xyCell(c.x, c.y, 1801, 0.15, 0.25, 60, 21)
		if col != c.col || row != c.row {
			t.Errorf("%s: (%g, %g) -> col %d row %d, want col %d row %d", c.name, c.x, c.y, col, row, c.col, c.row)
		}
	}
}

// TestCurvePlacesPoints reads the marker positions back from the rendered
// plot: the cheapest point at the y axis, the dearest in the last column,
// the best in the top row and the worst in the bottom row.
func TestCurvePlacesPoints(t *testing.T) {
	pts := []baseline.Point{
		{Method: "cronus", Split: "test", Cost: metric.Cost{Total: 10}, Metrics: map[string]float64{"p@5": 0.44}},
		{Method: "prefix", Split: "test", Cost: metric.Cost{Total: 1000}, Metrics: map[string]float64{"p@5": 0.30}},
		{Method: "single-stage", Split: "test", Cost: metric.Cost{Total: 0}, Metrics: map[string]float64{"p@5": 0.36}},
		{Method: "early-exit", Split: "valid", Cost: metric.Cost{Total: 500}, Metrics: map[string]float64{"ndcg@10": 0.9}}, // no p@5
	}
	got := RenderCurve(pts, nil, "p@5", 50, 12, PlainStyles())
	lines := strings.Split(got, "\n")
	// title, 8 plot rows of 0.02, axis, tick labels, one legend line
	plot := lines[1:9]
	find := func(mark string) (col, row int) {
		for r, l := range plot {
			rs := []rune(l)
			axis := slices.IndexFunc(rs, func(r rune) bool { return r == '┤' || r == '│' })
			if i := slices.Index(rs, []rune(mark)[0]); i >= 0 {
				return i - axis - 1, r
			}
		}
		t.Fatalf("%s not drawn:\n%s", mark, got)
		return
	}
	cols := 50 - len("0.44") - 1
	if col, row := find("○"); col != 0 || row != 0 {
		t.Errorf("cronus at col %d row %d, want 0 0\n%s", col, row, got)
	}
	if col, row := find("◦"); col != cols-1 || row != len(plot)-1 {
		t.Errorf("prefix at col %d row %d, want %d %d\n%s", col, row, cols-1, len(plot)-1, got)
	}
	if col, row := find("△"); col != 0 || row != 4 {
		t.Errorf("single-stage at col %d row %d, want 0 4\n%s", col, row, got)
	}
	if strings.Contains(got, "▼") {
		t.Errorf("a point without the metric was drawn:\n%s", got)
	}
	if !strings.HasPrefix(lines[10], "     0") || !strings.HasSuffix(lines[10], "1000") || len(lines) != 12 {
		t.Errorf("tick labels %q, want 0 … 1000", lines[10])
	}
}

// TestCurveCollisions: points of different methods that fall in one cell
// are both drawn, the later one cell to the right (or, with the right
// taken, to the left); the current cascade keeps its exact cell and moves
// the point under it; a method's test point still covers its validation
// twin. Worked by hand on a linear axis 0…100 over 21 columns (5 per
// column); methods are drawn in curveMethods order (prefix, early exit,
// single stage, …, cronus), not in the order given.
func TestCurveCollisions(t *testing.T) {
	pt := func(method, split string, cost, v float64) baseline.Point {
		return baseline.Point{Method: method, Split: split, Cost: metric.Cost{Total: cost}, Metrics: map[string]float64{"p@5": v}}
	}
	pts := []baseline.Point{
		pt("cronus", "test", 50, 0.40),       // the cell of ◦, whose sides △ took: ◆ never there
		pt("prefix", "test", 0, 0.30),        // anchors the axes: column 0, bottom row
		pt("prefix", "test", 100, 0.50),      // last column, top row
		pt("prefix", "test", 50, 0.40),       // column 10
		pt("single-stage", "test", 50, 0.40), // the cell of ◦: to column 11
		pt("early-exit", "valid", 30, 0.40),  // column 6
		pt("early-exit", "test", 30, 0.40),   // its own method: covers ▼ there
	}
	cur := pt("cronus", "valid", 100, 0.50) // on the prefix's top-right point
	got := RenderCurve(pts, &cur, "p@5", 26, 16, PlainStyles())
	lines := strings.Split(got, "\n")
	// row is the plot row holding mark, from its first column.
	row := func(mark rune) []rune {
		for _, l := range lines[1:] {
			rs := []rune(l)
			i := slices.IndexFunc(rs, func(r rune) bool { return r == '┤' || r == '│' })
			if i >= 0 && slices.Contains(rs[i+1:], mark) {
				return append(rs[i+1:], []rune(strings.Repeat(" ", 30))...)
			}
		}
		t.Fatalf("%q not drawn:\n%s", mark, got)
		return nil
	}
	mid := row('▽')
	for col, want := range map[int]rune{6: '▽', 9: '○', 10: '◦', 11: '△'} {
		if mid[col] != want {
			t.Errorf("column %d of the middle row is %q, want %q\n%s", col, mid[col], want, got)
		}
	}
	if strings.ContainsRune(got[:strings.Index(got, "└")], '▼') {
		t.Errorf("the validation twin of ▽ is still drawn beside it:\n%s", got)
	}
	top := row('◆')
	if top[20] != '◆' || top[19] != '◦' {
		t.Errorf("top row ends %q, want the current cascade ◆ in the last column and the prefix point ◦ left of it\n%s", string(top[15:21]), got)
	}
}

// TestCurveCostScale: the terminal curve draws its cost axis as the
// plots that sweep --plot and the workbench's export write draw theirs:
// logarithmic when the dearest point costs ten times the cheapest or more
// (and none costs 0), labelled at 1, 2 and 5 times powers of ten, and
// says so in its title; linear from 0 otherwise. On MQ2008 (costs 28 to
// 1060) the linear axis put the cascades of cost 28 and 57 within 3% of
// its width of each other, at its left end.
func TestCurveCostScale(t *testing.T) {
	cases := []struct {
		name   string
		costs  []float64 // the first two drawn ○ and □, the rest ◦
		log    bool
		labels []string
	}{
		{"sweep on MQ2008", []float64{28, 57, 121, 458, 1060}, true, []string{"50", "100", "200", "500", "1000"}},
		{"one decade", []float64{30, 60, 300}, true, []string{"30", "50", "100", "200", "300"}},
		{"under a decade", []float64{121, 250, 1060}, false, []string{"0", "200", "400", "600", "800", "1000"}},
		{"a cost of 0", []float64{0, 10, 1000}, false, []string{"0", "200", "400", "600", "800", "1000"}},
		// Feature costs of 10^12, with the empty cascade of a λ sweep: the
		// labels as the plots' (they read "0  500000000000  1000000000000"
		// on a one-tree model, the last ones left out for want of room).
		{"costs of 10^12 and 0", []float64{0, 2e12, 3e13}, false, []string{"0", "5T", "10T", "15T", "20T", "25T", "30T"}},
		{"a million", []float64{0, 2e5, 1.2e6}, false, []string{"0", "200k", "400k", "600k", "800k", "1M", "1.2M"}},
		{"under a million", []float64{0, 2e4, 9e5}, false, []string{"0", "200000", "400000", "600000", "800000"}},
	}
	const width, height = 80, 16
	for _, c := range cases {
		var pts []baseline.Point
		for i, x := range c.costs {
			method := [...]string{"cronus", "cronus-init"}[min(i, 1)]
			if i > 1 {
				method = baseline.MethodPrefix
			}
			pts = append(pts, baseline.Point{Method: method, Split: "test", Cost: metric.Cost{Total: x},
				Metrics: map[string]float64{"ndcg@10": 0.48 + 0.01*float64(i)}})
		}
		got := RenderCurve(pts, nil, "ndcg@10", width, height, PlainStyles())
		lines := strings.Split(got, "\n")
		if strings.Contains(lines[0], "log") != c.log {
			t.Errorf("%s: title %q, want log %v", c.name, lines[0], c.log)
		}
		axis := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "└") })
		if axis < 0 {
			t.Fatalf("%s: no axis:\n%s", c.name, got)
		}
		left := strings.IndexRune(lines[axis], '└') // in bytes: only spaces before it
		cols := len([]rune(lines[axis])) - left - 1
		// The column of a mark in the plot (0 is the first right of the y axis).
		col := func(mark string) int {
			for _, l := range lines[1:axis] {
				rs := []rune(l)
				if i := slices.Index(rs, []rune(mark)[0]); i >= 0 {
					return i - left - 1
				}
			}
			t.Fatalf("%s: %s not drawn:\n%s", c.name, mark, got)
			return 0
		}
		// Where a cost goes, worked out independently: linear from 0 to the
		// dearest, or log10 over the data with 5% of its range beyond each end.
		want := func(cost float64) int {
			lo, hi := c.costs[0], c.costs[len(c.costs)-1]
			if !c.log {
				return int(math.Round(cost / hi * float64(cols-1)))
			}
			pad := 0.05 * (math.Log10(hi) - math.Log10(lo))
			from, to := math.Log10(lo)-pad, math.Log10(hi)+pad
			return int(math.Round((math.Log10(cost) - from) / (to - from) * float64(cols-1)))
		}
		if a, b := col("○"), col("□"); a != want(c.costs[0]) || b != want(c.costs[1]) {
			t.Errorf("%s: costs %g and %g at columns %d and %d, want %d and %d:\n%s", c.name, c.costs[0], c.costs[1], a, b, want(c.costs[0]), want(c.costs[1]), got)
		} else if c.log && float64(b-a) < 0.15*float64(cols) {
			t.Errorf("%s: costs %g and %g %d columns apart of %d", c.name, c.costs[0], c.costs[1], b-a, cols)
		}
		labels := strings.Fields(lines[axis+1])
		if !slices.Equal(labels, c.labels) {
			t.Errorf("%s: tick labels %q, want %q:\n%s", c.name, labels, c.labels, got)
			continue
		}
		// Each label is centred under a tick at its cost.
		ticks := []rune(lines[axis])
		for _, l := range labels {
			scale := 1.0
			if i := strings.IndexAny(l, "kMGT"); i > 0 {
				scale = math.Pow(1000, float64(strings.IndexByte("kMGT", l[i])+1))
				l = l[:i]
			}
			v, _ := strconv.ParseFloat(l, 64)
			v *= scale
			if at := left + 1 + want(v); at >= len(ticks) || ticks[at] != '┬' {
				t.Errorf("%s: no tick at column %d for %s:\n%s\n%s", c.name, want(v), l, lines[axis], lines[axis+1])
			}
		}
	}
}

func TestHbar(t *testing.T) {
	for _, c := range []struct {
		f     float64
		cells int
		want  string
	}{
		{0, 4, "    "},
		{1, 3, "███"},
		{0.5, 4, "██  "},
		{1.0 / 32, 4, "▏   "},
		{0.25, 2, "▌ "}, {0.3, 2, "▋ "},
		{0.99, 2, "██"},
		{-1, 2, "  "},
		{2, 2, "██"},
		{math.NaN(), 2, "  "},
	} {
		if got := hbar(c.f, c.cells); got != c.want {
			t.Errorf("hbar(%g, %d) = %q, want %q", c.f, c.cells, got, c.want)
		}
	}
}

// TestStageTableNarrow: a stage table too wide for its pane hides whole
// columns, by priority, and says how many; every column shown is whole, and
// its cells are the full table's (at 40 columns the test column was cut).
func TestStageTableNarrow(t *testing.T) {
	s := sampleSnapshot()
	parse := func(table string) (heads []string, rows [][]string) {
		lines := strings.Split(table, "\n")
		heads = strings.Fields(strings.Replace(lines[1], "train soft/hard", "train-soft/hard", 1))
		for _, l := range lines[2:] {
			if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(l, "…") {
				rows = append(rows, f)
			}
		}
		return heads, rows
	}
	fullHeads, fullRows := parse(RenderStageTable(s, 200, 14, PlainStyles()))
	// The columns shown as the table narrows: each step hides one more
	// (the second narrows the training column to the hard fraction).
	steps := [][]string{slices.Clone(fullHeads)}
	for _, drop := range []string{"valid", "train-soft/hard", "active", "+trees", "+feat", "train", "test", "+cost", "θ"} {
		next := slices.Clone(steps[len(steps)-1])
		i := slices.Index(next, drop)
		if drop == "train-soft/hard" {
			next[i] = "train"
		} else {
			next = slices.Delete(next, i, i+1)
		}
		steps = append(steps, next)
	}
	last := 0
	for w := 80; w >= 8; w-- {
		got := RenderStageTable(s, w, 14, PlainStyles())
		checkFits(t, "stages", got, w, 14)
		heads, rows := parse(got)
		step := slices.IndexFunc(steps, func(h []string) bool { return slices.Equal(h, heads) })
		if step < last {
			t.Fatalf("width %d: columns %q, not one of the narrowing steps from step %d on:\n%s", w, heads, last, got)
		}
		last = step
		for i, r := range rows {
			if len(r) != len(heads) {
				t.Errorf("width %d: row %d has %d cells for %d columns: %q", w, i+1, len(r), len(heads), r)
				continue
			}
			for j, h := range heads {
				var want string
				if h == "train" { // the hard fraction of the full table's "train soft/hard"
					_, want, _ = strings.Cut(fullRows[i][slices.Index(fullHeads, "train-soft/hard")], "/")
				} else {
					want = fullRows[i][slices.Index(fullHeads, h)]
				}
				if r[j] != want {
					t.Errorf("width %d: stage %d, %s is %q, want %q", w, i+1, h, r[j], want)
				}
			}
		}
		title := strings.Split(got, "\n")[0]
		note := fmt.Sprintf(" · %d columns hidden", step)
		if step == 1 {
			note = " · 1 column hidden"
		}
		if (step > 0 && w >= 34) != strings.HasSuffix(title, note) {
			t.Errorf("width %d: %d columns hidden, the title says %q", w, step, title)
		}
		if w >= 40 && !slices.Contains(heads, "test") {
			t.Errorf("width %d: no test column: %q", w, heads)
		}
	}
}

// TestInitStatus: while a run initialises, the status line says which
// stage of Algorithm 2 is being made, with the time so far and left, and
// leaves out whole parts as the line narrows; once every stage is made, that
// the cascade is being scored. With colour on, the text is the same.
func TestInitStatus(t *testing.T) {
	mid := job.Progress{Phase: "initialising", Done: 2.4, Total: 10, Elapsed: 1234 * time.Millisecond, ETA: 2900 * time.Millisecond}
	end := job.Progress{Phase: "initialising", Done: 10, Total: 10, Elapsed: 4560 * time.Millisecond}
	first := job.Progress{Phase: "initialising", Total: 10}
	for _, c := range []struct {
		p     job.Progress
		width int
		want  string
	}{
		{mid, 80, "initialising · Algorithm 2: stage 3 of 10 · 1.2s, about 2.9s left"},
		{mid, 65, "initialising · Algorithm 2: stage 3 of 10 · 1.2s, about 2.9s left"},
		{mid, 64, "initialising · Algorithm 2: stage 3 of 10 · 1.2s"},
		{mid, 48, "initialising · Algorithm 2: stage 3 of 10 · 1.2s"},
		{mid, 47, "initialising · Algorithm 2: stage 3 of 10"},
		{mid, 41, "initialising · Algorithm 2: stage 3 of 10"},
		{mid, 40, "init 3/10 · 1.2s"},
		{mid, 16, "init 3/10 · 1.2s"},
		{mid, 15, "init 3/10"},
		{mid, 6, "init …"},
		{first, 80, "initialising · Algorithm 2: stage 1 of 10 · 0.0s"},
		{end, 80, "initialising · Algorithm 2: 10 stages made, scoring them · 4.6s"},
		{end, 30, "init 10/10 · 4.6s"},
	} {
		got := RenderInitStatus(c.p, false, c.width, PlainStyles())
		if got != c.want {
			t.Errorf("%g of %g stages, width %d: %q, want %q", c.p.Done, c.p.Total, c.width, got, c.want)
		}
		checkFits(t, "init status", got, c.width, 1)
	}
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(old)
	for _, w := range []int{12, 40, 50, 80} {
		got := RenderInitStatus(mid, false, w, DefaultStyles())
		if plain := RenderInitStatus(mid, false, w, PlainStyles()); stripANSI(got) != plain || lipgloss.Width(got) > w {
			t.Errorf("width %d with colour: %q (%d cells), plain %q", w, stripANSI(got), lipgloss.Width(got), plain)
		}
	}
}

// TestInitStatusCompare: Algorithm 2 run for a warm start to be compared
// with (after a jump of λ) is said as such under the warm start's phase:
// the line said "initialising · Algorithm 2: stage 3 of 10" over a run
// that went on from the warm start.
func TestInitStatusCompare(t *testing.T) {
	mid := job.Progress{Phase: "warm start", Done: 2.4, Total: 10, Elapsed: 1234 * time.Millisecond, ETA: 2900 * time.Millisecond}
	end := job.Progress{Phase: "warm start", Done: 10, Total: 10, Elapsed: 4560 * time.Millisecond}
	for _, c := range []struct {
		p     job.Progress
		width int
		want  string
	}{
		{mid, 120, "warm start · comparing with Algorithm 2: stage 3 of 10 · 1.2s, about 2.9s left"},
		{mid, 61, "warm start · comparing with Algorithm 2: stage 3 of 10 · 1.2s"},
		{mid, 60, "warm start · comparing with Algorithm 2: stage 3 of 10"},
		{mid, 54, "warm start · comparing with Algorithm 2: stage 3 of 10"},
		{mid, 53, "init 3/10 · 1.2s"},
		{end, 120, "warm start · comparing with Algorithm 2: 10 stages made, scoring the lower on eq (8) · 4.6s"},
	} {
		got := RenderInitStatus(c.p, true, c.width, PlainStyles())
		if got != c.want {
			t.Errorf("%g of %g stages, width %d: %q, want %q", c.p.Done, c.p.Total, c.width, got, c.want)
		}
		checkFits(t, "init status", got, c.width, 1)
	}
}

// TestStatusWholeItems: a status line too narrow for the short form keeps
// its first items whole and drops the rest; it used to cut the line at the
// width, mid-number ("obj 0.37", which reads as another objective). Only a
// first item wider than the line is cut, and then ends in "…". With colour
// on, the text is the same.
func TestStatusWholeItems(t *testing.T) {
	s := sampleSnapshot()
	for _, c := range []struct {
		width int
		want  string
	}{
		{81, "optimising c6 s7/10 · NDCG@10 0.229 · cost 279.6 (15.5%) · obj 0.3707 · P@5 0.342"},
		{80, "optimising c6 s7/10 · NDCG@10 0.229 · cost 279.6 (15.5%) · obj 0.3707"},
		{69, "optimising c6 s7/10 · NDCG@10 0.229 · cost 279.6 (15.5%) · obj 0.3707"},
		{68, "optimising c6 s7/10 · NDCG@10 0.229 · cost 279.6 (15.5%)"},
		{56, "optimising c6 s7/10 · NDCG@10 0.229 · cost 279.6 (15.5%)"},
		{55, "optimising c6 s7/10 · NDCG@10 0.229"},
		{35, "optimising c6 s7/10 · NDCG@10 0.229"},
		{34, "optimising c6 s7/10"},
		{31, "optimising c6 s7/10"},
		{19, "optimising c6 s7/10"},
		{18, "optimising c6 s7/…"},
		{1, "…"},
	} {
		if got := RenderStatus(s, fullCost, c.width, PlainStyles()); got != c.want {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(old)
	for _, w := range []int{18, 36, 70} {
		got := RenderStatus(s, fullCost, w, DefaultStyles())
		if plain := RenderStatus(s, fullCost, w, PlainStyles()); stripANSI(got) != plain || lipgloss.Width(got) > w {
			t.Errorf("width %d with colour: %q (%d cells), plain %q", w, stripANSI(got), lipgloss.Width(got), plain)
		}
	}
}

// TestCurveTitleNamesMetric: the plot's title names the metric as the
// status line, the compare view and the messages do (NDCG@10, P@5), not
// by its key (ndcg@10).
func TestCurveTitleNamesMetric(t *testing.T) {
	pts, cur := samplePoints()
	for _, c := range []struct {
		metric, want string
		width        int
	}{
		{"ndcg@10", "NDCG@10 versus cost per document", 80},
		{"ndcg@10", "NDCG@10 vs cost/doc", 30},
		{"ndcg@10", "NDCG@10 vs log cost/doc", 24}, // "log" in the title as long as it fits
		{"p@5", "P@5 versus cost per document", 80},
	} {
		title := strings.Split(RenderCurve(pts, cur, c.metric, c.width, 20, PlainStyles()), "\n")[0]
		if !strings.Contains(title, c.want) {
			t.Errorf("%s at %d columns: title %q, want %q", c.metric, c.width, title, c.want)
		}
	}
}

// TestStageTableFollowsMark: in a pane too short for every stage, the
// stage being optimised (▸) stays in view, the rows around it consecutive
// stages under the title and the header, and the notes above and below
// count the stages left out. At K = 100 the ▸ went off the bottom from
// stage 18 on at 80×24 (from stage 10 at 120×40), behind "… 83 more".
func TestStageTableFollowsMark(t *testing.T) {
	s := sampleSnapshot()
	K := len(s.Stages)
	for _, stage := range []int{0, 3, 6, K - 2, K - 1} {
		s.Stage = stage
		for h := 5; h <= K+2; h++ {
			got := RenderStageTable(s, 80, h, PlainStyles())
			checkFits(t, "stages", got, 80, h)
			lines := strings.Split(got, "\n")
			if !strings.HasPrefix(lines[0], "stages (K = ") || !strings.HasPrefix(strings.TrimSpace(lines[1]), "stage") {
				t.Fatalf("stage %d, height %d: no title and header:\n%s", stage+1, h, got)
			}
			var shown []int
			left := 0
			marked := false
			for _, l := range lines[2:] {
				f := strings.Fields(l)
				if len(f) == 0 {
					continue
				}
				if f[0] == "…" {
					var n int
					fmt.Sscan(f[1], &n)
					left += n
					continue
				}
				n := 0
				if strings.HasPrefix(f[0], "▸") {
					marked = true
					fmt.Sscan(strings.TrimPrefix(f[0], "▸"), &n)
					if n != stage+1 {
						t.Errorf("stage %d, height %d: ▸ on stage %d", stage+1, h, n)
					}
				} else {
					fmt.Sscan(f[0], &n)
				}
				shown = append(shown, n)
			}
			if !marked {
				t.Errorf("stage %d, height %d: the ▸ row is not shown:\n%s", stage+1, h, got)
			}
			for i := 1; i < len(shown); i++ {
				if shown[i] != shown[i-1]+1 {
					t.Errorf("stage %d, height %d: rows %v are not consecutive stages", stage+1, h, shown)
					break
				}
			}
			if len(shown)+left != K {
				t.Errorf("stage %d, height %d: %d rows shown and %d counted left out, want %d:\n%s", stage+1, h, len(shown), left, K, got)
			}
		}
	}
}

// TestCurveShort: in a pane too short for the plot and its whole legend
// the legend gives way, from its end, to a plot of two rows or more; at
// 40x10 the workbench's curve pane showed its title and legend alone.
func TestCurveShort(t *testing.T) {
	pts, cur := samplePoints()
	full := strings.Split(strings.TrimRight(RenderCurve(pts, cur, "ndcg@10", 40, 30, PlainStyles()), "\n "), "\n")
	axis := slices.IndexFunc(full, func(l string) bool { return strings.Contains(l, "└") })
	legend := full[axis+2:]
	for h := 5; h <= 6+len(legend); h++ {
		got := RenderCurve(pts, cur, "ndcg@10", 40, h, PlainStyles())
		checkFits(t, "curve", got, 40, h)
		lines := strings.Split(got, "\n")
		if ticks := strings.Count(got, "┤"); ticks < 2 {
			t.Errorf("height %d: no plot:\n%s", h, got)
		}
		// As many legend lines as leave the plot 2 rows, from the first.
		for i, l := range legend {
			if shown := strings.Contains(got, strings.TrimRight(l, " ")); shown != (i < h-5) {
				t.Errorf("height %d: legend line %d %q shown %v:\n%s", h, i, l, shown, got)
			}
		}
		if !strings.HasPrefix(lines[0], "NDCG@10") {
			t.Errorf("height %d: title %q", h, lines[0])
		}
	}
}

// TestCurveTooShort: in a pane under 5 rows no plot fits, and the legend
// has given way to it: the pane showed its title over blank rows (the
// workbench's curve pane at 20x6 and 30x8, found by a helper's review in
// tmux), where the other panes say "… N more". It says why instead.
func TestCurveTooShort(t *testing.T) {
	pts, cur := samplePoints()
	for h := 2; h <= 4; h++ {
		for _, w := range []int{30, 40, 80} {
			got := RenderCurve(pts, cur, "ndcg@10", w, h, PlainStyles())
			checkFits(t, "curve", got, w, h)
			lines := strings.Split(got, "\n")
			if !strings.HasPrefix(lines[0], "NDCG@10") || lines[1] != "too short for the plot" {
				t.Errorf("%dx%d: no title and word of the plot's absence:\n%s", w, h, got)
			}
		}
	}
	// A narrower pane cuts the word as it cuts every line.
	if got := RenderCurve(pts, cur, "ndcg@10", 12, 3, PlainStyles()); !strings.Contains(got, "too short f…") {
		t.Errorf("12x3:\n%s", got)
	}
}

// TestFeatureGridNarrow: a feature grid too wide for its pane hides whole
// cost groups, as the stage table hides whole columns, and its title says
// how many; it cut the last group at the pane's edge (below 40 columns,
// "c=100" read "c=1…"). Each group shown keeps its counts; those no stage
// uses go first, then the costliest.
func TestFeatureGridNarrow(t *testing.T) {
	s := sampleSnapshot()
	// Stage 1 uses none of the last group, and no stage one of a sixth.
	s.CostGroups = append(s.CostGroups, 200)
	sizes := append(slices.Clone(groupSizes), 3)
	parse := func(grid string) (heads, totals []string) {
		lines := strings.Split(grid, "\n")
		for _, f := range strings.Fields(lines[1])[1:] {
			if !strings.HasPrefix(f, "(") { // a group's size
				heads = append(heads, f)
			}
		}
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && f[0] == "all" {
				totals = f[1:]
			}
		}
		return heads, totals
	}
	fullHeads, fullTotals := parse(RenderFeatureGrid(s, sizes, 60, 14, PlainStyles()))
	if len(fullHeads) != 6 {
		t.Fatalf("at 60 columns: %q", fullHeads)
	}
	for w := 60; w >= 12; w-- {
		got := RenderFeatureGrid(s, sizes, w, 14, PlainStyles())
		checkFits(t, "features", got, w, 14)
		heads, totals := parse(got)
		if len(heads) != len(totals) {
			t.Fatalf("width %d: %d groups, %d totals:\n%s", w, len(heads), len(totals), got)
		}
		var want []string // the groups the rule keeps: c=200 (unused) goes first, then from the costliest
		for i, h := range fullHeads {
			if i < len(heads) && h != "c=200" || len(heads) == 6 {
				want = append(want, h)
			}
		}
		if !slices.Equal(heads, want) {
			t.Errorf("width %d: groups %q, want %q:\n%s", w, heads, want, got)
		}
		for i, h := range heads {
			if j := slices.Index(fullHeads, h); j < 0 || totals[i] != fullTotals[j] {
				t.Errorf("width %d: group %q totals %q", w, h, totals[i])
			}
		}
		title := strings.Split(got, "\n")[0]
		// From 23 columns, "new features · 1 hidden": below 46 the title
		// said nothing of the groups hidden (the short title fitted, its
		// forms with the count did not).
		if hidden := 6 - len(heads); hidden > 0 && w >= 23 && !strings.HasSuffix(title, fmt.Sprintf(" · %d hidden", hidden)) && !strings.Contains(title, fmt.Sprintf("%d group", hidden)) {
			t.Errorf("width %d: %d groups hidden, the title says %q", w, hidden, title)
		}
	}
}

// TestObjectiveAxisLabels: the objective's y labels differ row to row and
// none reads "-0": every term 0 (every training document relevant, with
// ω⁺ tiny) labelled twenty rows "0.000000" and "-0.000000", as did terms
// spread over less than a millionth. Flat and ordinary series keep their
// value on the axis.
func TestObjectiveAxisLabels(t *testing.T) {
	terms := func(vals ...float64) []cronus.Terms {
		var ts []cronus.Terms
		for _, v := range vals {
			ts = append(ts, cronus.Terms{Loss: v, Reg: v / 2, TreeCost: v / 4, FeatCost: v / 4, Total: 2 * v})
		}
		return ts
	}
	for _, c := range []struct {
		name  string
		terms []cronus.Terms
	}{
		{"zero", terms(0, 0, 0, 0)},
		{"tiny", terms(2.41e-297, 2.41e-297, 2.41e-297)},
		{"millionths", terms(3e-8, 2e-8, 1e-8, 1e-8)},
		{"flat", terms(5502, 5502, 5502)},
		{"ordinary", terms(6864, 5800, 5502, 5502)},
		{"huge", terms(1.03e20, 8.6e19, 7.5e19, 7.5e19)},
		{"huge flat", terms(7.5e19, 7.5e19, 7.5e19)},
		{"million", terms(1.2e6, 1.1e6, 1.05e6)},
	} {
		for _, size := range []struct{ w, h int }{{80, 24}, {40, 12}} {
			got := RenderObjective(cronus.Snapshot{Terms: c.terms}, size.w, size.h, PlainStyles())
			var labels []string
			for _, l := range strings.Split(got, "\n") {
				if i := strings.IndexAny(l, "┤┼"); i > 0 && !strings.Contains(l[:i], "·") {
					labels = append(labels, strings.TrimSpace(l[:i]))
				}
			}
			if len(labels) < 3 {
				t.Fatalf("%s at %dx%d: %d labels:\n%s", c.name, size.w, size.h, len(labels), got)
			}
			for i, l := range labels {
				// At most 10 cells: an objective of 7.5e+19 (graded targets
				// on labels up to 31) was labelled in full,
				// "103056704892535406592", 22 cells of the pane.
				if len(l) > 10 {
					t.Errorf("%s at %dx%d: label %q is %d cells wide:\n%s", c.name, size.w, size.h, l, len(l), got)
				}
				if v, err := strconv.ParseFloat(l, 64); err != nil || strings.HasPrefix(l, "-") && v == 0 {
					t.Errorf("%s at %dx%d: label %q", c.name, size.w, size.h, l)
				}
				if i > 0 && l == labels[i-1] {
					t.Errorf("%s at %dx%d: rows %d and %d both read %q:\n%s", c.name, size.w, size.h, i, i+1, l, got)
					break
				}
			}
		}
	}
}

// TestStatusNamesBest: when the best cascade so far (the one s saves) is
// not the current one, the status line gives its figures too, where there
// is room: after a run it showed the last step's figures only (0.482 at
// 633.9) and s saved other ones (0.486 at 535.9).
func TestStatusNamesBest(t *testing.T) {
	s := sampleSnapshot()
	s.Step, s.BestStep = 58, 41
	s.BestCascade = &cronus.Cascade{}
	s.BestTest = cronus.Eval{Metrics: map[string]float64{"ndcg@10": 0.486, "p@5": 0.35}, Cost: metric.Cost{Total: 535.9}}
	wide := RenderStatus(s, fullCost, 250, PlainStyles())
	if !strings.HasSuffix(wide, " · best (s saves it): test NDCG@10 0.486 cost 535.9") {
		t.Errorf("wide status %q does not end with the best cascade's figures", wide)
	}
	s2 := s
	s2.BestCascade = nil
	long := RenderStatus(s2, fullCost, 250, PlainStyles())
	// Less room: the best in its short form after the long one (at 160
	// columns, after "run 2 finished │ ", the long form had no room for
	// it), then none.
	if got, want := RenderStatus(s, fullCost, lipgloss.Width(wide)-1, PlainStyles()), long+" · best 0.486 @ 535.9"; got != want {
		t.Errorf("less room: %q, want %q", got, want)
	}
	// Less still: the cycle and stage in short, then the short form, each
	// with the best (from 127 to 148 columns the long form went without
	// it, and s saved figures the line did not show).
	mid := "optimising c6 s7/10 · objective 0.3707 · test P@5 0.342 NDCG@10 0.229 · cost/doc 279.6 = 15.5% of full 1801 · best 0.486 @ 535.9"
	for w := lipgloss.Width(mid); w < lipgloss.Width(long+" · best 0.486 @ 535.9"); w++ {
		if got := RenderStatus(s, fullCost, w, PlainStyles()); got != mid {
			t.Fatalf("at %d: %q, want %q", w, got, mid)
		}
	}
	if got, want := RenderStatus(s, fullCost, lipgloss.Width(mid)-1, PlainStyles()), "optimising c6 s7/10 · NDCG@10 0.229 · cost 279.6 (15.5%) · obj 0.3707 · P@5 0.342 · best 0.486 @ 535.9"; got != want {
		t.Errorf("no room for the long form with the best: %q, want %q", got, want)
	}
	if got := RenderStatus(s2, fullCost, lipgloss.Width(long), PlainStyles()); got != long {
		t.Errorf("no best: %q, want the long form %q", got, long)
	}
	if got := RenderStatus(s, fullCost, 102, PlainStyles()); !strings.HasSuffix(got, " · P@5 0.342 · best 0.486 @ 535.9") {
		t.Errorf("short form at 102: %q, want it to end with the best", got)
	}
	s.BestStep = s.Step // the current cascade is the best: nothing more
	if got := RenderStatus(s, fullCost, 250, PlainStyles()); got != long {
		t.Errorf("current is best: %q, want %q", got, long)
	}
}

// TestStatusWarmStartNotAlgorithm2: the first figures of a warm run are
// those of the cascade it starts from, not Algorithm 2's, which a warm
// start skips (cronus cascade --warm's trace: phase "warm start"); the
// status line said "warm start · Algorithm 2".
func TestStatusWarmStartNotAlgorithm2(t *testing.T) {
	s := sampleSnapshot()
	s.Cycle, s.Phase, s.Warm = 0, "warm start", true
	for _, w := range []int{250, 60} {
		got := RenderStatus(s, fullCost, w, PlainStyles())
		if strings.Contains(got, "Algorithm 2") || strings.Contains(got, "init") {
			t.Errorf("width %d: %q names the initialisation for a warm start", w, got)
		}
	}
	if got := RenderStatus(s, fullCost, 250, PlainStyles()); !strings.HasPrefix(got, "warm start · the cascade it starts from · ") {
		t.Errorf("%q", got)
	}
	if got := RenderStatus(s, fullCost, 60, PlainStyles()); !strings.HasPrefix(got, "warm start step 0 · ") {
		t.Errorf("%q", got)
	}
	s.Phase, s.Warm = "initialising", false
	if got := RenderStatus(s, fullCost, 250, PlainStyles()); !strings.HasPrefix(got, "initialising · Algorithm 2 · ") {
		t.Errorf("a run from scratch: %q", got)
	}
}

// TestStatusInitShortSaysItOnce: the short form of a run's first figures,
// Algorithm 2's cascade, names the phase once: it read "initialising init
// · NDCG@10 …".
func TestStatusInitShortSaysItOnce(t *testing.T) {
	s := sampleSnapshot()
	s.Cycle, s.Phase, s.Warm = 0, "initialising", false
	for _, w := range []int{12, 60, 90} {
		got := RenderStatus(s, fullCost, w, PlainStyles())
		if want := "initialising"; got != want && !strings.HasPrefix(got, want+" · NDCG@10 ") {
			t.Errorf("width %d: %q, want %q then the figures", w, got, want)
		}
		checkFits(t, "status", got, w, 1)
	}
}

// TestStageTableWithoutStages: before the first run's stages are made
// (Algorithm 2, seconds on large data), the stage table's title gives no
// K: it said "stages (K = 0)" under the params line's K 10.
func TestStageTableWithoutStages(t *testing.T) {
	got := RenderStageTable(cronus.Snapshot{}, 80, 6, PlainStyles())
	checkFits(t, "stages", got, 80, 6)
	lines := strings.Split(got, "\n")
	if title := strings.TrimSpace(lines[0]); title != "stages" || !strings.Contains(got, "no stages yet") {
		t.Errorf("no stages: title %q\n%s", title, got)
	}
}

// TestStageTablePassesEverything: a stage before the last with θ = −∞
// passes everything and reads −∞, as the cascade report's -inf; the last
// stage, which has no θ, reads −. (Both read −.)
func TestStageTablePassesEverything(t *testing.T) {
	s := sampleSnapshot()
	s.Stages[2].Theta = math.Inf(-1)
	var thetas []string
	for _, l := range strings.Split(RenderStageTable(s, 200, 14, PlainStyles()), "\n")[2:] {
		if f := strings.Fields(strings.TrimPrefix(l, "▸")); len(f) > 1 {
			thetas = append(thetas, f[1])
		}
	}
	if len(thetas) != 10 || thetas[0] != "-0.412" || thetas[2] != "−∞" || thetas[9] != "−" {
		t.Errorf("θ column %q", thetas)
	}
}

// TestStageTableLargeCosts: costs of 10^12 a feature filled the +cost
// column with "12000000000020.0"; from a million up it reads as the
// status line's figures do, and below as before, to one decimal.
func TestStageTableLargeCosts(t *testing.T) {
	s := sampleSnapshot()
	s.Stages[0].CostAdded, s.Stages[1].CostAdded = 12000000000020, 999999.94
	var costs []string
	for _, l := range strings.Split(RenderStageTable(s, 200, 14, PlainStyles()), "\n")[2:] {
		if f := strings.Fields(strings.TrimPrefix(l, "▸")); len(f) > 5 {
			costs = append(costs, f[5])
		}
	}
	if len(costs) < 2 || costs[0] != "1.20e+13" || costs[1] != "999999.9" {
		t.Errorf("+cost column %q, want 1.20e+13 and 999999.9 first", costs)
	}
}

// TestCurveAllZero: every point at NDCG@10 0 (test queries without a
// relevant document) labelled the y axis 0.000001, 0.000000 and
// -0.000001; it runs from 0 up, with no negative label.
func TestCurveAllZero(t *testing.T) {
	pts := []baseline.Point{
		{Method: "cronus", Split: "test", Cost: metric.Cost{Total: 10}, Metrics: map[string]float64{"ndcg@10": 0}},
		{Method: "prefix", Split: "test", Cost: metric.Cost{Total: 100}, Metrics: map[string]float64{"ndcg@10": 0}},
	}
	var labels []string
	for _, l := range strings.Split(RenderCurve(pts, nil, "ndcg@10", 50, 12, PlainStyles()), "\n") {
		if head, _, ok := strings.Cut(l, "┤"); ok {
			labels = append(labels, strings.TrimSpace(head))
		}
	}
	if len(labels) < 2 || labels[len(labels)-1] != "0.000" || slices.ContainsFunc(labels, func(s string) bool { return strings.HasPrefix(s, "-") }) {
		t.Errorf("y labels %q, want them from 0.000 up", labels)
	}
}
