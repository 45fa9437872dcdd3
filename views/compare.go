package views

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
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
}

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
// ERR@3, its cost per document and a compact stage table (active trees and
// the fraction of test documents reaching each stage), or all these on
// validation for a cascade of its Split "valid"; below, their
// quality/cost points over the baselines in one plot, each cascade marked
// with the last digit of its number. With fewer than two kept, it says how
// to keep one.
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
	if len(kept) < 2 {
		// Shown in this view, where c hides it ("c compares them" did).
		msg := fmt.Sprintf("%d kept: press k to keep the best cascade of the current run, then change λ, K, ε or σ and keep another; they show here side by side.", len(kept))
		top = append([]string{title, ""}, strings.Split(wrap(msg, width), "\n")...)
	} else {
		top = append([]string{title}, compareColumns(kept, width, st)...)
	}
	// The plot takes 2/5 of the height, at least 8 rows, and the top keeps
	// its title and the columns' figures through their cost (and the line
	// that says how many more); the hint goes whole. On a screen too short
	// for both the top takes it all: the plot took 8 rows of 7 and the
	// title gave way to "… 5 more", and at 12 rows the columns to "… 18
	// more" after their parameters.
	plotH := max(height*2/5, minComparePlot)
	topH := min(len(top), max(height-plotH, 1+keptFigures+1))
	if len(kept) < 2 {
		topH = min(len(top), height)
	}
	if height-topH < minComparePlot {
		return fitBlock(top, width, height, st)
	}
	return fitBlock(top, width, topH, st) + "\n" + RenderCurve(pts, nil, compareMetric, width, height-topH, st)
}

// keptFigures are the lines of a kept cascade's column (keptColumn) from
// its name through its cost.
const keptFigures = 7

// minComparePlot is the least height the compare view's plot is drawn in:
// in fewer rows it has no room for points beside its title, axis and a
// legend of two or three lines.
const minComparePlot = 8

// compareColumns lays one column per kept cascade side by side, two
// spaces apart.
func compareColumns(kept []KeptCascade, width int, st Styles) []string {
	colW := max((width-2*(len(kept)-1))/len(kept), 1)
	cols := make([][]string, len(kept))
	n := 0
	for i, k := range kept {
		cols[i] = keptColumn(k, colW, st)
		n = max(n, len(cols[i]))
	}
	lines := make([]string, n)
	for r := range lines {
		cells := make([]string, len(cols))
		for i, c := range cols {
			s := ""
			if r < len(c) {
				s = Truncate(c[r], colW)
			}
			if i < len(cols)-1 {
				s += strings.Repeat(" ", max(colW-lipgloss.Width(s), 0))
			}
			cells[i] = s
		}
		lines[r] = strings.TrimRight(strings.Join(cells, "  "), " ")
	}
	return lines
}

// keptColumn is the column of one cascade, about 16 cells wide.
func keptColumn(k KeptCascade, width int, st Styles) []string {
	m := func(name, key string) string {
		v, ok := k.Test.Metrics[key]
		s := "–"
		if ok {
			s = frac(v)
		}
		return fmt.Sprintf("%-8s%s", name, st.Value.Render(s))
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	lines := []string{
		st.Heading.Render(k.Method()) + " " + markStyle(k.Method(), st).Render(marker(k.Method(), k.split())),
		fmt.Sprintf("λ %s  K %d", g(k.Lambda), k.K),
		fmt.Sprintf("ε %s  σ %s", g(k.Epsilon), g(k.Sigma)),
		m("P@5", "p@5"),
		m("NDCG@10", "ndcg@10"),
		m("ERR@3", "err@3"),
		fmt.Sprintf("%-8s%s", "cost", st.Value.Render(num(k.Test.Cost.Total))),
		fmt.Sprintf("%-8s%s", " feat", num(k.Test.Cost.Features)),
		fmt.Sprintf("%-8s%s", " trees", num(k.Test.Cost.Trees)),
		st.Heading.Render(fmt.Sprintf("%3s %5s %6s", "stg", "trees", "reach")),
	}
	for s, v := range k.Stages {
		reach := v.Test
		if k.split() == "valid" {
			reach = v.Valid
		}
		if s < len(k.Test.Reached) {
			reach = k.Test.Reached[s]
		}
		lines = append(lines, fmt.Sprintf("%3d %5d %6s", s+1, v.Active, frac(reach)))
	}
	for i, l := range lines {
		lines[i] = Truncate(l, width)
	}
	return lines
}
