package views

// Boundaries and small rules of the views, each pinned by a test after a
// mutation audit found a change there that no other test of the package
// noticed. The expected values are worked out by hand from the documented
// behaviour (doc comments, docs/workbench-keys.md), not read back from
// the code.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/muesli/termenv"
)

// Num writes no exponent from 1e-3 up to (not including) 1e6, four
// significant digits; a million and more in e notation, as the stage
// table's "from a million up"; −∞ with the minus sign the stage table's θ
// uses.
func TestNumBoundaries(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.001, "0.001000"},
		{0.0009999, "1.00e-03"},
		{999999, "999999"},
		{1e6, "1.00e+06"},
		{math.Inf(-1), "−∞"},
	} {
		if got := Num(c.v); got != c.want {
			t.Errorf("Num(%g) = %q, want %q", c.v, got, c.want)
		}
	}
	if got := stageCost(1e6); got != "1.00e+06" {
		t.Errorf("stageCost(1e6) = %q, want 1.00e+06 (from a million up as Num)", got)
	}
}

// FormatParam is %.4g when four digits are the value: ω⁺ 20000 reads
// "2e+04", as 1e6 reads "1e+06" on the params line.
func TestFormatParamFourDigits(t *testing.T) {
	for v, want := range map[float64]string{20000: "2e+04", 1e6: "1e+06", 0.15: "0.15", 10001: "10001"} {
		if got := FormatParam(v); got != want {
			t.Errorf("FormatParam(%g) = %q, want %q", v, got, want)
		}
	}
}

// Printable writes a byte that is not UTF-8 as \x and its two hex digits,
// high nibble first: 0xfe is \xfe, not \xee.
func TestPrintableHexOrder(t *testing.T) {
	if got, want := Printable("a\xfeb\x1f"), `a\xfeb\x1f`; got != want {
		t.Errorf("Printable = %q, want %q", got, want)
	}
}

// ShortenPath keeps the longest end from a "/" that fits with its "…",
// also when it fits exactly; KeepTail gives exactly w cells; ShortenPaths
// leaves alone words without a "/".
func TestShortenExactFit(t *testing.T) {
	// "…/b/cc.txt" is 10 cells: it fits in 10, so "/b" is kept.
	if got, want := ShortenPath("/aaa/b/cc.txt", 10), "…/b/cc.txt"; got != want {
		t.Errorf("ShortenPath = %q, want %q", got, want)
	}
	if got, want := KeepTail("abcdefgh", 5), "…efgh"; got != want || lipgloss.Width(got) != 5 {
		t.Errorf("KeepTail(abcdefgh, 5) = %q, want %q (5 cells)", got, want)
	}
	const msg = "value 12345678901234567890 in /x/y"
	if got := ShortenPaths(msg, 10); got != msg {
		t.Errorf("ShortenPaths cut a word that is not a path: %q", got)
	}
}

// curveYLabels are the y axis labels of a rendered curve, top to bottom.
func curveYLabels(plot string) []string {
	var labels []string
	for _, l := range strings.Split(plot, "\n") {
		if head, _, ok := strings.Cut(l, "┤"); ok {
			labels = append(labels, strings.TrimSpace(head))
		}
	}
	return labels
}

// A flat curve (every point at NDCG@10 0.5) gets ±1% about its value: the
// y axis runs 0.495 to 0.505, labelled to 3 decimals (a step of 0.01/7).
func TestCurveFlatRange(t *testing.T) {
	pts := []baseline.Point{
		{Method: baseline.MethodPrefix, Split: "test", Cost: metric.Cost{Total: 50}, Metrics: map[string]float64{"ndcg@10": 0.5}},
		{Method: baseline.MethodPrefix, Split: "test", Cost: metric.Cost{Total: 100}, Metrics: map[string]float64{"ndcg@10": 0.5}},
	}
	got := RenderCurve(pts, nil, "ndcg@10", 40, 12, PlainStyles())
	labels := curveYLabels(got)
	if len(labels) < 2 || labels[0] != "0.505" || labels[len(labels)-1] != "0.495" {
		t.Errorf("flat curve y labels %q, want 0.505 … 0.495:\n%s", labels, got)
	}
}

// The objective's iteration axis is whole numbers: over 3 iterations on 60
// columns its ticks are 0, 1 and 2, never 0.5.
func TestIterationAxisIntegers(t *testing.T) {
	_, labels := linearAxis(2, 1, 60, true, false)
	if got := strings.Fields(labels); !slices.Equal(got, []string{"0", "1", "2"}) {
		t.Errorf("iteration axis labels %q, want [0 1 2]", got)
	}
}

// A cost axis that reaches exactly a million is labelled as the plots
// are (200k … 1M).
func TestCostAxisMillion(t *testing.T) {
	_, labels := linearAxis(1e6, 1, 60, false, true)
	if got, want := strings.Fields(labels), []string{"0", "200k", "400k", "600k", "800k", "1M"}; !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
}

// A tick label that would touch the label before is left out.
func TestTickLabelsDoNotTouch(t *testing.T) {
	// "aaa" centred on column 0 takes cells 0-2; "bbb" centred on column
	// 3 would start at cell 3, right after it.
	if _, labels := tickAxis(1, 10, []int{0, 3}, []string{"aaa", "bbb"}); labels != "aaa" {
		t.Errorf("labels %q, want %q", labels, "aaa")
	}
	if _, labels := tickAxis(1, 10, []int{0, 4}, []string{"aaa", "bbb"}); labels != "aaa bbb" {
		t.Errorf("labels %q, want %q", labels, "aaa bbb")
	}
}

// niceStep is the smallest of 1, 2, 5 × 10^k not below x: a round x is
// its own step.
func TestNiceStepExact(t *testing.T) {
	for x, want := range map[float64]float64{100: 100, 20: 20, 0.5: 0.5, 101: 200, 3: 5} {
		if got := niceStep(x); got != want {
			t.Errorf("niceStep(%g) = %g, want %g", x, got, want)
		}
	}
}

// Markers: a kept cascade is marked with the last digit of its number
// (#12 with 2, beside #11's 1 and #13's 3); a method without a marker of
// its own with its first letter, upper case for validation.
func TestMarkers(t *testing.T) {
	for _, c := range []struct{ method, split, want string }{
		{"kept #12", "test", "2"},
		{"kept #7", "valid", "7"},
		{"mystery", "valid", "M"},
		{"mystery", "test", "m"},
	} {
		if got := marker(c.method, c.split); got != c.want {
			t.Errorf("marker(%q, %q) = %q, want %q", c.method, c.split, got, c.want)
		}
	}
}

// Kept cascades' markers are coloured apart from the current run's
// series (st.Value) and the baselines (st.Bar): with the title's colour.
func TestKeptMarkerColour(t *testing.T) {
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(old)
	st := DefaultStyles()
	got := markStyle("kept #3", st).Render("3")
	if got != st.Title.Render("3") || got == st.Value.Render("3") || got == st.Bar.Render("3") {
		t.Errorf("kept marker %q, want the title's colour %q", got, st.Title.Render("3"))
	}
}

// The compare view's plot is drawn from minComparePlot (8) rows: with
// none kept at 160 columns the top is the title, a blank line and the
// one-line hint, so 11 rows leave the plot its 8 and 10 rows none.
func TestComparePlotAtEightRows(t *testing.T) {
	pts, _ := samplePoints()
	for h, want := range map[int]bool{11: true, 10: false} {
		got := RenderCompare(nil, pts, 160, h, PlainStyles())
		if plotted := strings.Contains(got, "versus cost per document"); plotted != want {
			t.Errorf("at 160x%d plot drawn %v, want %v:\n%s", h, plotted, want, got)
		}
	}
}

// From longColumn (16) cells a column has its full labels, under it the
// short ones.
func TestCompareLabelWidth(t *testing.T) {
	k := sampleKept()[0]
	differ := differingExtras([]KeptCascade{k})
	for w, want := range map[int]string{16: "NDCG@10 0.215", 15: "N@10  0.215"} {
		lines, _, figStart := keptFigures(k, &k, nil, differ, w, false, PlainStyles())
		if got := lines[figStart+1]; got != want {
			t.Errorf("in %d cells: %q, want %q", w, got, want)
		}
	}
}

// Against a cascade #10 the p line keeps a space after the name: "p vs
// #10 –", where "p vs #10–" would read as #10 with no p; "–" as neither
// has per-query values.
func TestComparePLabelTwoDigits(t *testing.T) {
	ev := cronus.Eval{Metrics: map[string]float64{"p@5": 0.3, "ndcg@10": 0.4, "err@3": 0.2}, Cost: metric.Cost{Total: 50}}
	ref := KeptCascade{N: 10, Lambda: 0.1, K: 3, Epsilon: 0.05, Sigma: 1, Valid: ev, Test: ev}
	k := ref
	k.N = 11
	lines, _, _ := keptFigures(k, &ref, nil, differingExtras([]KeptCascade{ref, k}), 20, false, PlainStyles())
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "p vs #10") })
	if i < 0 || lines[i] != "p vs #10 –" {
		t.Errorf("p line of #11 against #10: %q", lines)
	}
}

// formatP: three places, "<.001" only below 0.001.
func TestFormatPBoundary(t *testing.T) {
	for p, want := range map[float64]string{0.001: "0.001", 0.0009999: "<.001", 0.0315: "0.032"} {
		if got := formatP(p); got != want {
			t.Errorf("formatP(%g) = %q, want %q", p, got, want)
		}
	}
}

// Without test data a kept cascade's stage table gives the fraction of
// validation documents reaching each stage (when its Reached is not given).
func TestKeptStagesValidation(t *testing.T) {
	k := KeptCascade{N: 1, Split: "valid", Stages: []cronus.StageView{
		{Active: 4, Valid: 1, Test: 0}, {Active: 9, Valid: 0.5, Test: 0}}}
	lines := keptStages(k, 16, false, PlainStyles())
	for i, want := range [][]string{{"1", "4", "1.000"}, {"2", "9", "0.500"}} {
		if got := strings.Fields(lines[i+1]); !slices.Equal(got, want) {
			t.Errorf("stage row %d: %q, want %q", i+1, got, want)
		}
	}
}

// pack: an item exactly as wide as the line stays whole; a value too wide
// for a line is broken into pieces as wide as the line allows.
func TestPackExactFit(t *testing.T) {
	if got := pack(6, "λ 0.01"); !slices.Equal(got, []string{"λ 0.01"}) {
		t.Errorf("pack(6, λ 0.01) = %q", got)
	}
	// "ω⁺ " takes 3 cells, leaving 5 a line for the value's 10 digits.
	if got, want := pack(8, "ω⁺ 1234567890"), []string{"ω⁺ 12345", "   67890"}; !slices.Equal(got, want) {
		t.Errorf("pack(8, ω⁺ 1234567890) = %q, want %q", got, want)
	}
}

// noTestData is the sample snapshot of a workbench without test data.
func noTestData() cronus.Snapshot {
	s := sampleSnapshot()
	s.Test, s.BestTest = cronus.Eval{}, cronus.Eval{}
	return s
}

// With exactly 1+2K rows the reach bars are stacked, two lines a stage;
// without test data the second is validation's.
func TestReachStackedValidation(t *testing.T) {
	got := RenderReach(noTestData(), 80, 21, PlainStyles())
	lines := strings.Split(got, "\n")
	// title; stage 1 train, valid; stage 2 train, valid (0.631)
	if !strings.HasPrefix(lines[3], " 2 train ") || !strings.HasSuffix(lines[3], " 0.642") {
		t.Errorf("line 3 %q, want stage 2's stacked training bar", lines[3])
	}
	if !strings.HasPrefix(lines[4], "   valid ") || !strings.HasSuffix(lines[4], " 0.631") {
		t.Errorf("line 4 %q, want stage 2's validation bar at 0.631", lines[4])
	}
}

// The status line without test data gives validation's figures, and the
// best cascade's on validation.
func TestStatusValidation(t *testing.T) {
	s := noTestData()
	s.Step, s.BestStep = 58, 41
	s.BestCascade = &cronus.Cascade{}
	s.Best = cronus.Eval{Metrics: map[string]float64{"ndcg@10": 0.486}, Cost: metric.Cost{Total: 535.9}}
	got := RenderStatus(s, fullCost, 250, PlainStyles())
	// 283.1 / 1801 = 15.72%
	if !strings.Contains(got, "valid P@5 0.350 NDCG@10 0.231 · cost/doc 283.1 = 15.7% of full 1801") {
		t.Errorf("status %q lacks validation's figures", got)
	}
	if !strings.HasSuffix(got, " · best (s saves it): valid NDCG@10 0.486 cost 535.9") {
		t.Errorf("status %q lacks the best cascade on validation", got)
	}
}

// A cascade that costs nothing shows cost 0 (0.0% of full), not "–"; with
// no full cost known the ratio is "–".
func TestStatusZeroCosts(t *testing.T) {
	s := sampleSnapshot()
	s.Test.Cost = metric.Cost{}
	if got := RenderStatus(s, fullCost, 250, PlainStyles()); !strings.Contains(got, "cost/doc 0 = 0.0% of full 1801") {
		t.Errorf("zero-cost cascade: %q", got)
	}
	if got := RenderStatus(sampleSnapshot(), metric.Cost{}, 250, PlainStyles()); !strings.Contains(got, "cost/doc 279.6 = – of full 0") {
		t.Errorf("no full cost: %q", got)
	}
}

// Once every stage is made there is no time left to give: the line says
// the cascade is being scored, with no ETA.
func TestInitStatusNoETAWhenScoring(t *testing.T) {
	p := job.Progress{Phase: "initialising", Done: 10, Total: 10, Elapsed: 4560 * time.Millisecond, ETA: 300 * time.Millisecond}
	if got, want := RenderInitStatus(p, false, 120, PlainStyles()), "initialising · Algorithm 2: 10 stages made, scoring them · 4.6s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// The feature grid shows the groups' sizes whenever the grid fits with
// them, also exactly (5 + 2 × (2 + 8) = 25 cells), with a bar of 4 cells
// in each cell (1 of 3 features: 11 eighths, █▍; 2 of 4: ██).
func TestFeatureGridExactFit(t *testing.T) {
	s := cronus.Snapshot{CostGroups: []float64{1, 10}, Stages: []cronus.StageView{{NewFeatures: []int{1, 2}}}}
	got := RenderFeatureGrid(s, []int{3, 4}, 25, 6, PlainStyles())
	lines := strings.Split(got, "\n")
	if !strings.Contains(lines[1], "c=1 (3)") || !strings.Contains(lines[1], "c=10 (4)") {
		t.Errorf("header %q lacks the group sizes:\n%s", lines[1], got)
	}
	if !strings.Contains(lines[2], "1 █▍") || !strings.Contains(lines[2], "2 ██") {
		t.Errorf("stage row %q lacks its bars:\n%s", lines[2], got)
	}
}

// At exactly its width the stage table is as at any greater width: no
// column hidden, two spaces apart.
func TestStageTableExactWidth(t *testing.T) {
	s := sampleSnapshot()
	wide := RenderStageTable(s, 200, 14, PlainStyles())
	w := lipgloss.Width(strings.Split(wide, "\n")[1])
	if got := RenderStageTable(s, w, 14, PlainStyles()); got != wide {
		t.Errorf("at its own width %d:\n%s\nwant\n%s", w, got, wide)
	}
}

// TestStageTableShort: in a pane too short for the rows the note counts
// the stages left out, not lines: in one row and K = 10 it read "… 12
// more" alone (the title, the header and ten rows), and in two the title
// over "… 11 more".
func TestStageTableShort(t *testing.T) {
	s := sampleSnapshot()
	k := len(s.Stages)
	for h, want := range map[int][]string{
		1: {fmt.Sprintf("stages (K = %d)", k)},
		2: {fmt.Sprintf("stages (K = %d)", k), fmt.Sprintf("… %d more", k)},
		4: {fmt.Sprintf("stages (K = %d)", k), "", "", fmt.Sprintf("… %d more", k-1)},
	} {
		got := strings.Split(RenderStageTable(s, 160, h, PlainStyles()), "\n")
		if len(got) != h {
			t.Fatalf("height %d: %d lines", h, len(got))
		}
		for i, w := range want {
			if w != "" && strings.TrimRight(got[i], " ") != w {
				t.Errorf("height %d, line %d: %q, want %q", h, i+1, got[i], w)
			}
		}
	}
}

// objectiveYLabels are the y labels of a rendered objective, top to bottom.
func objectiveYLabels(got string) []string {
	var labels []string
	for _, l := range strings.Split(got, "\n") {
		if i := strings.IndexAny(l, "┤┼"); i > 0 && !strings.Contains(l[:i], "·") {
			labels = append(labels, strings.TrimSpace(l[:i]))
		}
	}
	return labels
}

// A flat objective is drawn over ±1% of its value: 99 to 101.
func TestObjectiveFlatRange(t *testing.T) {
	flat := cronus.Terms{Loss: 100, Reg: 100, TreeCost: 100, FeatCost: 100, Total: 100}
	got := RenderObjective(cronus.Snapshot{Terms: []cronus.Terms{flat, flat, flat}}, 80, 24, PlainStyles())
	labels := objectiveYLabels(got)
	top, _ := strconv.ParseFloat(labels[0], 64)
	bottom, _ := strconv.ParseFloat(labels[len(labels)-1], 64)
	if top != 101 || bottom != 99 {
		t.Errorf("flat objective labelled %q, want 101 … 99:\n%s", labels, got)
	}
}

// TestObjectiveShort: a pane one row short of a plot says so above the
// legend, which keeps the terms' values (at 80x7 the title and legend
// stood over a blank row); a pane with no row to spare keeps the legend.
func TestObjectiveShort(t *testing.T) {
	terms := []cronus.Terms{{Loss: 3, Total: 4}, {Loss: 2, Total: 3}}
	s := cronus.Snapshot{Terms: terms}
	// At 80 columns the legend is one line: the title and it take 2 rows,
	// a plot 2 more.
	for h, want := range map[int]string{2: "legend", 3: "note", 4: "plot", 8: "plot"} {
		got := strings.Split(RenderObjective(s, 80, h, PlainStyles()), "\n")
		plotted := strings.ContainsAny(strings.Join(got, "\n"), "┼┤")
		said := slices.Contains(got, "too short for the plot")
		legend := strings.HasPrefix(got[len(got)-1], "─ total 3.000")
		if plotted != (want == "plot") || said != (want == "note") || !legend {
			t.Errorf("height %d: plot %v, note %v, legend last %v; want the %s:\n%s", h, plotted, said, legend, want, strings.Join(got, "\n"))
		}
	}
}

// One iteration has no iteration axis (which would run 0 to 1).
func TestObjectiveOneIterationNoAxis(t *testing.T) {
	one := cronus.Terms{Loss: 1, Reg: 0.1, TreeCost: 0.2, FeatCost: 0.3, Total: 1.6}
	if got := RenderObjective(cronus.Snapshot{Terms: []cronus.Terms{one}}, 80, 24, PlainStyles()); strings.Contains(got, "└") {
		t.Errorf("an iteration axis for one iteration:\n%s", got)
	}
}

// In e notation the objective's labels keep the digits that tell rows
// apart and read 0 at 0: 3.0e+06, 1.5e+06, 0 over three rows.
func TestObjectiveBigLabels(t *testing.T) {
	terms := []cronus.Terms{{Total: 3e6}, {Total: 2.7e6}}
	got := RenderObjective(cronus.Snapshot{Terms: terms}, 200, 5, PlainStyles())
	if labels := objectiveYLabels(got); !slices.Equal(labels, []string{"3.0e+06", "1.5e+06", "0"}) {
		t.Errorf("labels %q, want [3.0e+06 1.5e+06 0]:\n%s", labels, got)
	}
}

// The split table orders the labels by value: 0/1/2/10, not as strings.
func TestSplitTableLabelOrder(t *testing.T) {
	s := data.Summary{Name: "g.txt", Queries: 1, Docs: 11, Features: 3, Labels: map[string]int{"0": 5, "1": 3, "2": 2, "10": 1}}
	got := splitTable([]data.Summary{s}, 120, PlainStyles())
	if !strings.Contains(got, "labels 0/1/2/10") || !strings.Contains(got, "5/3/2/1") {
		t.Errorf("labels not in numeric order:\n%s", got)
	}
}

// The last tick falls on the axis's end also when the step's multiple
// lands a rounding error past it: 3 × 0.1 is 0.30000000000000004, and an
// axis to 0.3 is labelled 0.0 to 0.3.
func TestAxisLastTickRounding(t *testing.T) {
	_, labels := linearAxis(0.3, 1, 30, false, true)
	if got, want := strings.Fields(labels), []string{"0.0", "0.1", "0.2", "0.3"}; !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
}
