package views

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// KeptCascade is a cascade kept for comparison: the best cascade of a run,
// with the parameters it was optimised with.
type KeptCascade struct {
	N                      int // kept number, counted from 1 over the session
	Lambda, Epsilon, Sigma float64
	K                      int
	Valid, Test            cronus.Eval        // of the best cascade on validation
	Stages                 []cronus.StageView // of the best step, as far as the run reported it
	// Split is the data Test scores: "test", or "valid" (Test is then
	// Valid) for a workbench without test data; "" is "test".
	Split string
	// Extra are the other parameters the cascade was optimised with (ρ,
	// ω⁺, δ, the relevance threshold, the targets), in the same order for
	// every kept cascade; a column shows those whose values differ among
	// the cascades compared.
	Extra []Param
}

// Param is a parameter's name and its value as shown: "ρ", "0.03".
type Param struct{ Name, Value string }

// Method is the name of the cascade's series in plots and files: "kept #N".
func (k KeptCascade) Method() string { return keptPrefix + strconv.Itoa(k.N) }

// Point is the cascade's quality/cost point on its Split.
func (k KeptCascade) Point() baseline.Point {
	return baseline.Point{Method: k.Method(), Split: k.split(), Lambda: k.Lambda, Cost: k.Test.Cost, Metrics: k.Test.Metrics}
}

func (k KeptCascade) split() string { return cmp.Or(k.Split, "test") }

// compareMetric is the metric of the compare plot.
const compareMetric = "ndcg@10"

// RenderCompare draws kept cascades side by side in width × height cells:
// a column per cascade with its parameters, its test P@5, NDCG@10 and
// ERR@3, the p of its NDCG@10 against the first cascade's and how it
// stands against the best of baselines at no higher cost
// (againstBaseline), its cost per document and a compact stage table
// (active trees and the fraction of test documents reaching each stage),
// or all these on validation for a cascade of its Split "valid"; below,
// their quality/cost points over the baselines in one plot, each cascade
// marked with the last digit of its number. With fewer than two kept, it
// says how to keep one.
func RenderCompare(kept []KeptCascade, baselines []baseline.Point, width, height int, st Styles) string {
	if height <= 0 {
		return ""
	}
	// Without test data the columns give validation's figures; the title
	// says so (kept cascades are of one data set, so of one split).
	on, short := "", ""
	if len(kept) > 0 && kept[0].split() == "valid" {
		on, short = " on validation (no test data)", ", valid"
	}
	title := st.Title.Render(FirstFitting(width, fmt.Sprintf("compare kept cascades (%d of at most 4)%s", len(kept), on), fmt.Sprintf("compare (%d kept%s)", len(kept), short)))
	pts := make([]baseline.Point, 0, len(baselines)+len(kept))
	pts = append(pts, baselines...)
	for _, k := range kept {
		pts = append(pts, k.Point())
	}
	var top []string
	figures := 0 // lines of the columns through every cascade's cost
	if len(kept) < 2 {
		// Shown in this view, where c hides it ("c compares them" did).
		msg := fmt.Sprintf("%d kept: press k to keep the best cascade of the current run, then change λ, K, ε or σ and keep another; they show here side by side.", len(kept))
		top = append([]string{title, ""}, strings.Split(wrap(msg, width), "\n")...)
	} else {
		cols, need := compareColumns(kept, baselines, width, true, st)
		top = append([]string{title}, cols...)
		figures = need
	}
	// The plot takes 2/5 of the height, at least 8 rows, and the top keeps
	// its title and the columns' figures through their cost (and the line
	// that says how many more); the hint goes whole. On a screen too short
	// for both the top takes it all: the plot took 8 rows of 7 and the
	// title gave way to "… 5 more", and at 12 rows the columns to "… 18
	// more" after their parameters.
	plotH := max(height*2/5, minComparePlot)
	topH := min(len(top), max(height-plotH, 1+figures+1))
	if len(kept) < 2 {
		topH = min(len(top), height)
	}
	if height-topH < minComparePlot {
		// No plot: the columns without the markers that name a
		// cascade's points in it (the same lines, so the same layout).
		if len(kept) >= 2 {
			cols, _ := compareColumns(kept, baselines, width, false, st)
			top = append([]string{title}, cols...)
		}
		return fitBlock(top, width, height, st)
	}
	return fitBlock(top, width, topH, st) + "\n" + RenderCurve(pts, nil, compareMetric, width, height-topH, st)
}

// minComparePlot is the least height the compare view's plot is drawn in:
// in fewer rows it has no room for points beside its title, axis and a
// legend of two or three lines.
const minComparePlot = 8

// Column widths of the compare view: from longColumn cells a column's
// figures have their full labels ("NDCG@10 0.486"); under it, short ones
// ("N@10  0.486"); under minColumn even those are cut, so the cascades go
// in rows of fewer columns (at 40 columns four of them cut every figure to
// "0.9…", and all looked the same).
const (
	longColumn = 16
	minColumn  = 12
)

// compareColumns lays one column per kept cascade side by side, two
// spaces apart, as many to a row as leave each column minColumn cells
// (at least one). In one row a cascade's stage table is under its
// figures; in several, the rows of figures come first, a blank line
// apart, and the stage tables after them, each headed by the cascade's
// number, so that a long table does not push the next row's figures off
// the screen. need is the number of lines that hold every cascade's
// figures through its cost. marks puts after each cascade's name the
// marker of its points in the plot below.
func compareColumns(kept []KeptCascade, baselines []baseline.Point, width int, marks bool, st Styles) (lines []string, need int) {
	differ := differingExtras(kept)
	perRow := len(kept)
	colW := func(n int) int { return max((width-2*(n-1))/n, 1) }
	for perRow > 1 && colW(perRow) < minColumn {
		perRow--
	}
	w := colW(perRow)
	heads, tables := make([][]string, len(kept)), make([][]string, len(kept))
	costLines := make([]int, len(kept))
	oneRow := perRow == len(kept)
	figStarts := make([]int, len(kept))
	for i, k := range kept {
		heads[i], costLines[i], figStarts[i] = keptFigures(k, &kept[0], baselines, differ, w, marks, st)
	}
	// The parameters take more lines in a narrow column when their values
	// are longer ("λ 0.015" under "λ 0.01  K 10" puts K on a line of its
	// own): blank lines after the shorter ones keep every figure beside
	// the same figure of the other columns.
	top := slices.Max(figStarts)
	for i := range kept {
		if pad := top - figStarts[i]; pad > 0 {
			heads[i] = slices.Insert(heads[i], figStarts[i], make([]string, pad)...)
			costLines[i] += pad
		}
	}
	for i, k := range kept {
		tables[i] = keptStages(k, w, !oneRow, st)
		if oneRow {
			heads[i] = append(heads[i], tables[i]...)
		}
	}
	for start := 0; start < len(kept); start += perRow {
		if start > 0 {
			lines = append(lines, "")
		}
		end := min(start+perRow, len(kept))
		need = len(lines) + slices.Max(costLines[start:end]) + 1
		lines = append(lines, sideBySide(heads[start:end], w)...)
	}
	if !oneRow {
		for start := 0; start < len(kept); start += perRow {
			lines = append(lines, "")
			lines = append(lines, sideBySide(tables[start:min(start+perRow, len(kept))], w)...)
		}
	}
	return lines, need
}

// sideBySide joins columns of width cells, two spaces apart, line by line.
func sideBySide(cols [][]string, width int) []string {
	n := 0
	for _, c := range cols {
		n = max(n, len(c))
	}
	lines := make([]string, n)
	for r := range lines {
		cells := make([]string, len(cols))
		for i, c := range cols {
			s := ""
			if r < len(c) {
				s = Truncate(c[r], width)
			}
			if i < len(cols)-1 {
				s += strings.Repeat(" ", max(width-lipgloss.Width(s), 0))
			}
			cells[i] = s
		}
		lines[r] = strings.TrimRight(strings.Join(cells, "  "), " ")
	}
	return lines
}

// differingExtras reports, by position in Extra, the parameters whose
// values are not the same in every kept cascade: only those are shown (a
// column per cascade named λ, K, ε and σ alone, so two cascades kept with
// other targets or ρ looked the same).
func differingExtras(kept []KeptCascade) []bool {
	n := 0
	for _, k := range kept {
		n = max(n, len(k.Extra))
	}
	differ := make([]bool, n)
	for i := range differ {
		for _, k := range kept {
			if i >= len(k.Extra) || i >= len(kept[0].Extra) || k.Extra[i] != kept[0].Extra[i] {
				differ[i] = true
				break
			}
		}
	}
	return differ
}

// keptFigures is the top of a cascade's column in width cells: its name,
// its parameters (λ and K, ε and σ, then the Extra ones that differ among
// the kept cascades, packed into lines as they fit), its figures, the p
// of its NDCG@10 against ref's (pairedP; "ref" in ref's own column), how
// it stands against the best baseline at no higher cost
// (againstBaseline), and its cost. costLine is the index of the line of
// its cost, figStart that of its first figure (P@5). With marks its name
// is followed by the marker of its points in the plot.
func keptFigures(k KeptCascade, ref *KeptCascade, baselines []baseline.Point, differ []bool, width int, marks bool, st Styles) (lines []string, costLine, figStart int) {
	labelW, names := 8, [...]string{"P@5", "NDCG@10", "ERR@3", "cost", " feat", " trees"}
	pName := "p vs #" + strconv.Itoa(ref.N)
	if width < longColumn {
		labelW, names = 6, [...]string{"P@5", "N@10", "E@3", "cost", " feat", " tree"}
		pName = "p #" + strconv.Itoa(ref.N)
	}
	label := func(name, value string) string { return fmt.Sprintf("%-*s%s", labelW, name, value) }
	m := func(name, key string) string {
		v, ok := k.Test.Metrics[key]
		s := "–"
		if ok {
			s = frac(v)
		}
		return label(name, st.Value.Render(s))
	}
	name := st.Heading.Render(k.Method())
	if marks {
		name += " " + markStyle(k.Method(), st).Render(marker(k.Method(), k.split()))
	}
	lines = []string{name}
	for _, items := range keptParams(k, differ) {
		lines = append(lines, pack(width, items...)...)
	}
	figStart = len(lines)
	lines = append(lines, m(names[0], "p@5"), m(names[1], "ndcg@10"), m(names[2], "err@3"))
	// The cost before the tests against #1 and the baselines: on a short
	// screen (80×24 with the panel open) the lines after it give way
	// first, and with the tests above it the cost was cut.
	costLine = len(lines)
	lines = append(lines,
		label(names[3], st.Value.Render(Num(k.Test.Cost.Total))),
		label(names[4], Num(k.Test.Cost.Features)),
		label(names[5], Num(k.Test.Cost.Trees)))
	p := "ref"
	if k.N != ref.N {
		p = pairedP(k.Test, ref.Test)
	}
	lines = append(lines, fmt.Sprintf("%-*s%s", max(labelW, len(pName)+1), pName, st.Value.Render(p)))
	lines = append(lines, againstBaseline(k, baselines, width, st))
	for i, l := range lines {
		lines[i] = Truncate(l, width)
	}
	return lines, costLine, figStart
}

// keptParams are a cascade's parameters as its column shows them, in
// groups that each start a line: λ and K, ε and σ, then the Extra ones
// that differ among the kept cascades. λ, ε and σ are as the params line
// shows them (FormatParam), whole where four digits are not the value:
// rounded to four, λ 0.12345 and 0.12346 both read "λ 0.1235".
func keptParams(k KeptCascade, differ []bool) [][]string {
	var extra []string
	for i, e := range k.Extra {
		if i < len(differ) && differ[i] {
			extra = append(extra, e.Name+" "+e.Value)
		}
	}
	return [][]string{
		{"λ " + FormatParam(k.Lambda), "K " + strconv.Itoa(k.K)},
		{"ε " + FormatParam(k.Epsilon), "σ " + FormatParam(k.Sigma)},
		extra,
	}
}

// pairedP is the two-sided p of Student's paired t test of a's NDCG@10
// against b's, query by query (metric.ComparePaired), to three places
// ("<.001" below), or "–" when either lacks per-query values or they are
// of different data.
func pairedP(a, b cronus.Eval) string {
	return formatP(pairedT(a.PerQuery[compareMetric], b.PerQuery[compareMetric]))
}

// pairedT is the two-sided p of Student's paired t test of the per-query
// values x against y (metric.ComparePaired), NaN when either is missing
// or they are of different data.
func pairedT(x, y []float64) float64 {
	if x == nil || len(x) != len(y) {
		return math.NaN()
	}
	c, _ := metric.ComparePaired(context.Background(), x, y, 0, 0, nil) // the t test alone
	return c.PT
}

// formatP is a p to three places, "<.001" below, "–" for NaN.
func formatP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 0.001:
		return "<.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

// againstBaseline is the line of a kept cascade's column, in width cells,
// that sets it against the best baseline point of baselines at no higher
// cost on its split (baseline.BestBaseline): its NDCG@10 less the
// baseline's and the p of that difference by the paired t test over the
// queries,
// "Δ base  -0.012 p 0.031"; where that does not fit, a * after the
// difference marks p < 0.05 ("Δ base  -0.012*", "Δbl -0.012*"). "–"
// when no baseline costs that little.
func againstBaseline(k KeptCascade, baselines []baseline.Point, width int, st Styles) string {
	b, ok := baseline.BestBaseline(baselines, k.split(), compareMetric, k.Test.Cost.Total)
	v, has := k.Test.Metrics[compareMetric]
	if !ok || !has {
		return FirstFitting(width, "Δ base  "+st.Value.Render("–"), "Δbl "+st.Value.Render("–"))
	}
	diff := strconv.FormatFloat(v-b.Metrics[compareMetric], 'f', 3, 64)
	if diff[0] != '-' {
		diff = "+" + diff
	}
	p := pairedT(k.Test.PerQuery[compareMetric], b.PerQuery[compareMetric])
	star := ""
	if p < 0.05 {
		star = "*"
	}
	return FirstFitting(width, "Δ base  "+st.Value.Render(diff)+" p "+st.Value.Render(formatP(p)),
		"Δ base  "+st.Value.Render(diff+star), "Δbl "+st.Value.Render(diff+star))
}

// keptStages is a cascade's stage table, active trees and the fraction of
// documents reaching each stage, in 16 cells or, under longColumn, 12;
// named, its header gives the cascade's number in place of "stg".
func keptStages(k KeptCascade, width int, named bool, st Styles) []string {
	head, row := "%-3s %5s %6s", "%3d %5d %6s"
	stg, trees := "stg", "trees"
	if width < longColumn {
		head, row, trees = "%-2s %3s %5s", "%2d %3d %5s", "tr"
		stg = "st"
	}
	if named {
		stg = "#" + strconv.Itoa(k.N)
	}
	lines := []string{st.Heading.Render(fmt.Sprintf(head, stg, trees, "reach"))}
	for s, v := range k.Stages {
		reach := v.Test
		if k.split() == "valid" {
			reach = v.Valid
		}
		if s < len(k.Test.Reached) {
			reach = k.Test.Reached[s]
		}
		lines = append(lines, fmt.Sprintf(row, s+1, v.Active, frac(reach)))
	}
	for i, l := range lines {
		lines[i] = Truncate(l, width)
	}
	return lines
}

// pack puts items ("name value") on lines of width cells, two spaces
// apart, in order (packItems); an item too wide for a line is laid out as
// its name and its value, each an item, and one whose value is too wide
// for a line alone as its name and the value's start, the rest of the
// value on the lines after, indented under its start (Truncate cut it: a
// typed λ or ω⁺ of 17 digits lost those that told it apart).
func pack(width int, items ...string) []string {
	var lines, split []string
	for _, it := range items {
		name, value, ok := strings.Cut(it, " ")
		switch {
		case !ok || lipgloss.Width(it) <= width:
			split = append(split, it)
		case lipgloss.Width(value) <= width:
			split = append(split, name, value)
		default:
			lines = append(lines, packItems(split, "  ", width)...)
			split = nil
			indent := lipgloss.Width(name) + 1
			for i, p := range pieces(value, max(width-indent, 1)) {
				lead := strings.Repeat(" ", indent)
				if i == 0 {
					lead = name + " "
				}
				lines = append(lines, lead+p)
			}
		}
	}
	return append(lines, packItems(split, "  ", width)...)
}

// pieces is s in pieces of at most width cells (at least one character
// each), in order.
func pieces(s string, width int) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if cur != "" && lipgloss.Width(cur+string(r)) > width {
			out = append(out, cur)
			cur = ""
		}
		cur += string(r)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}
