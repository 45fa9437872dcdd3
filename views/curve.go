package views

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
)

// curveMethods are the methods with a marker of their own, in drawing
// order (later on top): a filled marker for the validation split and a
// hollow one for any other, test included, as the plot files draw them
// (baseline.WritePlot). Other methods draw with the first letter of their
// name, upper case for validation, after these and in name order.
var curveMethods = []struct{ method, valid, other string }{
	{baseline.MethodPrefix, "•", "◦"},
	{baseline.MethodEarlyExit, "▼", "▽"},
	{"single-stage", "▲", "△"},
	{MethodSweep, "×", "+"},
	{MethodStages, "▸", "▹"},
	{MethodLastPrefix, "◂", "◃"},
	{"cronus-init", "■", "□"},
	{"cronus", "●", "○"},
}

// MethodSweep is the series of a λ sweep's points in the workbench.
const MethodSweep = "λ sweep"

// MethodStages is the series of the best cascade's first k stages, each
// a cascade of its own, in the workbench.
const MethodStages = "first k stages"

// MethodLastPrefix is the series of the best cascade with its last stage
// the base ensemble's first n trees, one point per n, in the workbench.
const MethodLastPrefix = "last stage a prefix"

// keptPrefix starts the method of a kept cascade (KeptCascade.Method).
const keptPrefix = "kept #"

// currentMark marks the current cascade, drawn over everything else.
const currentMark = "◆"

type pointSeries struct {
	method, split, mark string
	points              []baseline.Point
}

// RenderCurve draws quality against cost per document as a true XY plot
// (the paper's Figure 2) in width × height cells: x is the total cost per
// document, on the axis the plot files draw (baseline.LogCostAxis: log
// scale, which the title says, when the dearest point costs ten times the
// cheapest or more and none costs 0, with the files' margin and labels),
// else on a linear axis from 0 to the largest cost; y the named metric
// from its smallest to its largest value. Every (method, split) is a
// series with its own marker (see curveMethods) and current, when not nil,
// is drawn last with ◆. Points are not connected: the sweep points are not
// ordered along a curve. A cell shows one marker: a point whose cell holds
// another method's marker is drawn in the first free cell right of, left
// of, above or below it (the current cascade keeps its cell and moves the
// other instead), so that both stay visible, one cell from its place; with
// no free neighbour, or of the same method (a test point over its
// validation twin), the later covers the earlier. Points without a finite
// metric or cost are left out. A legend follows the axis,
// as many of its lines as leave the plot two rows.
func RenderCurve(points []baseline.Point, current *baseline.Point, metric string, width, height int, st Styles) string {
	// Named as the rest of the interface names metrics: NDCG@10, not the key ndcg@10.
	name := strings.ToUpper(metric)
	title := func(log bool) string {
		if log {
			return st.Title.Render(FirstFitting(width, name+" versus cost per document, log scale (Figure 2)",
				name+" vs cost/doc, log scale (Fig. 2)", name+" vs cost/doc (log)", name+" vs log cost/doc"))
		}
		return st.Title.Render(FirstFitting(width, name+" versus cost per document (Figure 2)", name+" vs cost/doc (Fig. 2)"))
	}
	series := curveSeriesOf(points, metric)
	var cur *baseline.Point
	if current != nil && plottable(*current, metric) {
		cur = current
	}
	if len(series) == 0 && cur == nil {
		return fitBlock([]string{title(false), "", st.Dim.Render("no points yet")}, width, height, st)
	}
	legend := packItems(curveLegend(series, cur, st), "   ", width)

	xmin, xmax, ymin, ymax := math.Inf(1), 0.0, math.Inf(1), math.Inf(-1)
	each := func(f func(p baseline.Point)) {
		for _, s := range series {
			for _, p := range s.points {
				f(p)
			}
		}
		if cur != nil {
			f(*cur)
		}
	}
	each(func(p baseline.Point) {
		xmin, xmax = min(xmin, p.Cost.Total), max(xmax, p.Cost.Total)
		ymin, ymax = min(ymin, p.Metrics[metric]), max(ymax, p.Metrics[metric])
	})
	from, to, logTicks, log := baseline.LogCostAxis(xmin, xmax)
	// costX is a cost's place on the x axis, which runs from 0 to xmax:
	// the cost itself, or on a log axis its log10 from the axis's start.
	costX := func(cost float64) float64 { return cost }
	if log {
		xmax = to - from
		costX = func(cost float64) float64 { return math.Log10(cost) - from }
	} else if xmax <= 0 {
		xmax = 1
	}
	if ymax-ymin < 1e-12 {
		if ymin >= 0 && ymin < 0.01 {
			// Every point at 0 or near it (a split without a relevant
			// document): from 0 up, where ±10⁻⁶ labelled the axis
			// 0.000001, 0.000000 and -0.000001.
			ymin, ymax = 0, ymin+0.01
		} else {
			d := max(math.Abs(ymin)*0.01, 1e-6)
			ymin, ymax = ymin-d, ymax+d
		}
	}

	rows := height - 1 - 2 - len(legend)
	if rows < 2 {
		// A short pane keeps the plot: the legend gives way from its end
		// (at 40x10 the curve pane showed the legend alone).
		legend = legend[:max(min(len(legend), height-1-2-2), 0)]
		rows = height - 1 - 2 - len(legend)
	}
	if rows < 2 {
		// Under 5 rows (the title, two rows of points, the axis and its
		// labels) no plot fits and the legend has given way: the title
		// stood alone over blank rows (the curve pane at 20x6 and 30x8),
		// where the other panes say "… N more".
		return fitBlock([]string{title(log), st.Dim.Render("too short for the plot")}, width, height, st)
	}
	dec := axisDecimals((ymax - ymin) / float64(rows-1))
	yl := func(v float64) string { return strconv.FormatFloat(v, 'f', dec, 64) }
	lw := max(len(yl(ymin)), len(yl(ymax)))
	cols := width - lw - 1
	if cols < 2 {
		return fitBlock(append([]string{title(log)}, legend...), width, height, st)
	}

	grid := make([][]string, rows)
	owner := make([][]int, rows) // the method drawn in a cell, + 1 (0: none)
	for r := range grid {
		grid[r] = make([]string, cols)
		owner[r] = make([]int, cols)
	}
	// free is the first of the cells right of, left of, above and below
	// (c, r) that holds nothing, if any.
	free := func(c, r int) (int, int, bool) {
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, -1}, {0, 1}} {
			nc, nr := c+d[0], r+d[1]
			if nc >= 0 && nc < cols && nr >= 0 && nr < rows && owner[nr][nc] == 0 {
				return nc, nr, true
			}
		}
		return 0, 0, false
	}
	// put draws a point of method id (len(series) for the current cascade)
	// in its cell. When another method is there, the point goes to a free
	// neighbouring cell, or, for the current cascade, which keeps its place,
	// the other does; failing that the later covers the earlier.
	put := func(p baseline.Point, mark string, id int) {
		c, r := xyCell(costX(p.Cost.Total), p.Metrics[metric], xmax, ymin, ymax, cols, rows)
		if o := owner[r][c]; o != 0 && o != id+1 {
			if nc, nr, ok := free(c, r); ok {
				if id < len(series) {
					c, r = nc, nr
				} else {
					grid[nr][nc], owner[nr][nc] = grid[r][c], o
				}
			}
		}
		grid[r][c], owner[r][c] = mark, id+1
	}
	// The splits of one method share an id: its test points cover its
	// others (drawn after them), as before, rather than crowd beside them.
	id := 0
	for i, s := range series {
		if i > 0 && s.method != series[i-1].method {
			id = i
		}
		for _, p := range s.points {
			put(p, markStyle(s.method, st).Render(s.mark), id)
		}
	}
	if cur != nil {
		put(*cur, st.Title.Render(currentMark), len(series))
	}

	lines := []string{title(log)}
	for r := range rows {
		var b strings.Builder
		if r == 0 || r == rows-1 || (r%4 == 0 && rows-1-r >= 3) {
			v := ymax - float64(r)*(ymax-ymin)/float64(rows-1)
			b.WriteString(fmt.Sprintf("%*s┤", lw, yl(v)))
		} else {
			b.WriteString(strings.Repeat(" ", lw) + "│")
		}
		for _, m := range grid[r] {
			if m == "" {
				m = " "
			}
			b.WriteString(m)
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	var axis, labels string
	if log {
		var at []int
		var text []string
		for _, tk := range logTicks {
			c, _ := xyCell(costX(tk.Cost), 0, xmax, 0, 1, cols, 1)
			at, text = append(at, c), append(text, tk.Label)
		}
		axis, labels = tickAxis(lw+1, cols, at, text)
	} else {
		axis, labels = linearAxis(xmax, lw+1, cols, false, true)
	}
	lines = append(lines, axis, labels)
	return fitBlock(append(lines, legend...), width, height, st)
}

// xyCell maps (x, y) to a column and a row (row 0 at the top) of a plot
// cols × rows cells whose x axis runs linearly from 0 to xmax and y axis
// from ymin to ymax; values outside are clamped to the edges.
func xyCell(x, y, xmax, ymin, ymax float64, cols, rows int) (col, row int) {
	col = int(math.Round(x / xmax * float64(cols-1)))
	row = rows - 1 - int(math.Round((y-ymin)/(ymax-ymin)*float64(rows-1)))
	return min(max(col, 0), cols-1), min(max(row, 0), rows-1)
}

// linearAxis draws an x axis from 0 to xmax under a plot whose first
// column is at left (left ≥ 1) (tickAxis). Ticks fall on round values (1,
// 2 or 5 × 10^k, at least 1 when integer) about ten columns apart. On a
// cost axis that reaches a million the labels are the plots' (1M, 1.5M,
// 14T: baseline.CostLabel): in full, under feature costs of 10^12 they
// were 13 digits each ("500000000000  1000000000000"), and those that
// ran into the one before were left out.
func linearAxis(xmax float64, left, cols int, integer, cost bool) (axis, labels string) {
	if xmax <= 0 {
		xmax = 1
	}
	step := niceStep(xmax / float64(max(cols/10, 1)))
	if integer {
		step = max(step, 1)
	}
	dec := 0
	if step < 1 {
		dec = axisDecimals(step)
	}
	var at []int
	var ticks []float64
	for i := 0; ; i++ {
		t := float64(i) * step
		if t > xmax*(1+1e-9) {
			break
		}
		c, _ := xyCell(t, 0, xmax, 0, 1, cols, 1)
		at, ticks = append(at, c), append(ticks, t)
	}
	short := cost && len(ticks) > 0 && ticks[len(ticks)-1] >= 1e6
	text := make([]string, len(ticks))
	for i, t := range ticks {
		if short {
			text[i] = baseline.CostLabel(t)
		} else {
			text[i] = strconv.FormatFloat(t, 'f', dec, 64)
		}
	}
	return tickAxis(left, cols, at, text)
}

// tickAxis draws an x axis under a plot cols wide whose first column is at
// left (left ≥ 1): the line with ┬ at each column of at (0 the plot's
// first) and the labels text centred under them, in order, those that
// would touch the label before left out.
func tickAxis(left, cols int, at []int, text []string) (axis, labels string) {
	left = max(left, 1)
	line := []rune(strings.Repeat(" ", left-1) + "└" + strings.Repeat("─", cols))
	lab := []rune(strings.Repeat(" ", left+cols))
	end := -1
	for i, c := range at {
		line[left+c] = '┬'
		s := []rune(text[i])
		start := min(max(left+c-len(s)/2, 0), len(lab)-len(s))
		if start <= end || start < 0 {
			continue
		}
		copy(lab[start:], s)
		end = start + len(s)
	}
	return string(line), strings.TrimRight(string(lab), " ")
}

// niceStep is the smallest of 1, 2, 5 × 10^k not below x.
func niceStep(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

func plottable(p baseline.Point, metric string) bool {
	v, ok := p.Metrics[metric]
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	return ok && finite(v) && finite(p.Cost.Total) && p.Cost.Total >= 0
}

// curveSeriesOf groups the plottable points by method and split, in
// drawing order: methods as in curveMethods, then the others by name; the
// test split of a method after its other splits, so it stays on top.
func curveSeriesOf(points []baseline.Point, metric string) []pointSeries {
	rank := func(method string) int {
		for i, m := range curveMethods {
			if m.method == method {
				return i
			}
		}
		return len(curveMethods)
	}
	var out []pointSeries
	for _, p := range points {
		if !plottable(p, metric) {
			continue
		}
		i := slices.IndexFunc(out, func(s pointSeries) bool { return s.method == p.Method && s.split == p.Split })
		if i < 0 {
			out = append(out, pointSeries{method: p.Method, split: p.Split, mark: marker(p.Method, p.Split)})
			i = len(out) - 1
		}
		out[i].points = append(out[i].points, p)
	}
	slices.SortStableFunc(out, func(a, b pointSeries) int {
		return cmp.Or(cmp.Compare(rank(a.method), rank(b.method)), cmp.Compare(a.method, b.method),
			cmp.Compare(b2i(a.split == "test"), b2i(b.split == "test")), cmp.Compare(a.split, b.split))
	})
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func marker(method, split string) string {
	for _, m := range curveMethods {
		if m.method == method {
			if split == "valid" {
				return m.valid
			}
			return m.other
		}
	}
	// Kept cascades ("kept #N") are told apart by the last digit of N; at
	// most four consecutive ones are kept, so the digits differ.
	if n, ok := strings.CutPrefix(method, keptPrefix); ok && n != "" {
		return n[len(n)-1:]
	}
	r := []rune(method + "?")[0]
	if split == "valid" {
		return string(unicode.ToUpper(r))
	}
	return string(unicode.ToLower(r))
}

// markStyle colours the cascades as values and the baselines as bars.
func markStyle(method string, st Styles) lipgloss.Style {
	switch {
	case strings.HasPrefix(method, "cronus"), method == MethodSweep, method == MethodStages, method == MethodLastPrefix:
		return st.Value
	case strings.HasPrefix(method, keptPrefix):
		return st.Title
	}
	return st.Bar
}

// curveLegend is one item per method with the markers of its splits, the
// current cascade, and which splits the filled and the hollow markers stand
// for, of those drawn.
func curveLegend(series []pointSeries, cur *baseline.Point, st Styles) []string {
	var items []string
	var hollow []string
	valid := false
	for i := 0; i < len(series); {
		j := i
		marks := ""
		for ; j < len(series) && series[j].method == series[i].method; j++ {
			marks += series[j].mark
			if series[j].split == "valid" {
				valid = true
			} else if !slices.Contains(hollow, series[j].split) {
				hollow = append(hollow, series[j].split)
			}
		}
		items = append(items, markStyle(series[i].method, st).Render(marks)+" "+series[i].method)
		i = j
	}
	if cur != nil {
		items = append(items, st.Title.Render(currentMark)+" current ("+cur.Split+")")
	}
	var note []string
	if valid {
		note = append(note, "filled valid")
	}
	if len(hollow) > 0 {
		slices.Sort(hollow)
		note = append(note, "hollow "+strings.Join(hollow, "/"))
	}
	if len(note) > 0 {
		items = append(items, st.Dim.Render(strings.Join(note, ", ")))
	}
	return items
}
