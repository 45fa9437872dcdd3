package views

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/cronus"
)

// Stages are numbered from 1 in every view, as in the paper; Snapshot.Stage
// is 0-based.

// RenderReach draws the fraction of inputs reaching each stage, training
// (hard rule) and test (validation without test data: heldOut), as
// horizontal bars (the paper's Figure 3). With room for two lines per
// stage the two bars are stacked; otherwise they sit side by side under a
// header, train on the left.
func RenderReach(s cronus.Snapshot, width, height int, st Styles) string {
	_, split, reach := heldOut(s)
	title := st.Title.Render(FirstFitting(width, "fraction of inputs reaching each stage (Figure 3)", "reach per stage (Fig. 3)"))
	K := len(s.Stages)
	if K == 0 {
		return fitBlock([]string{title, "", st.Dim.Render("no stages yet")}, width, height, st)
	}
	lines := []string{title}
	if 1+2*K <= height {
		// "kk train " + bar + " 0.000"
		b := max(width-15, 1)
		for k, v := range s.Stages {
			lines = append(lines,
				fmt.Sprintf("%2d train ", k+1)+styledBar(st.Bar, v.HardTrain, b)+" "+st.Value.Render(frac(v.HardTrain)),
				fmt.Sprintf("   %-5s ", split)+styledBar(st.Value, reach(v), b)+" "+st.Value.Render(frac(reach(v))))
		}
		return fitBlock(lines, width, height, st)
	}
	// "kk " + bar + " 0.000 │ " + bar + " 0.000"
	b := max((width-18)/2, 1)
	lines = append(lines, st.Heading.Render(fmt.Sprintf("   %-*s │ %s", b+6, "train (hard)", split)))
	for k, v := range s.Stages {
		lines = append(lines, fmt.Sprintf("%2d ", k+1)+
			styledBar(st.Bar, v.HardTrain, b)+" "+st.Value.Render(frac(v.HardTrain))+" │ "+
			styledBar(st.Value, reach(v), b)+" "+st.Value.Render(frac(reach(v))))
	}
	return fitBlock(lines, width, height, st)
}

// hiddenForms are title's forms that say n of its columns are hidden,
// longest first ("… · 2 columns hidden", "… · 2 hidden"); none when n is 0.
func hiddenForms(title string, n int, one, many string) []string {
	if n == 0 {
		return nil
	}
	unit := many
	if n == 1 {
		unit = one
	}
	return []string{fmt.Sprintf("%s · %d %s hidden", title, n, unit), fmt.Sprintf("%s · %d hidden", title, n)}
}

// FirstFitting is the first of forms that fits in width cells, or the
// last when none does: a title's long form, or its short one.
func FirstFitting(width int, forms ...string) string {
	for _, f := range forms {
		if lipgloss.Width(f) <= width {
			return f
		}
	}
	return forms[len(forms)-1]
}

func frac(f float64) string {
	if math.IsNaN(f) {
		return "    –"
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}

// RenderFeatureGrid draws the features first extracted at each stage as a
// grid of stages × cost groups (the paper's Figure 4). The header names each
// group by its cost and, in parentheses, the number of features in it:
// groupSizes[g] for s.CostGroups[g] (missing sizes are left out, and all
// sizes when the grid would not fit otherwise). A cell holds the count, ·
// for none, and when the grid is wide enough a bar of that count as a
// fraction of the group; the last row sums the stages as used/size. When
// the grid is too wide even so, whole groups give way, as the stage
// table's columns do (a group was cut at the pane's edge): those no stage
// extracts a feature of first, then the costliest; the title says how many.
func RenderFeatureGrid(s cronus.Snapshot, groupSizes []int, width, height int, st Styles) string {
	long, short := "features first extracted per stage, by cost group (Figure 4)", "new features by cost group (Fig. 4)"
	G := len(s.CostGroups)
	if len(s.Stages) == 0 || G == 0 {
		return fitBlock([]string{st.Title.Render(FirstFitting(width, long, short)), "", st.Dim.Render("no stages yet")}, width, height, st)
	}
	size := func(g int) int {
		if g < len(groupSizes) {
			return groupSizes[g]
		}
		return 0
	}
	count := func(v cronus.StageView, g int) int {
		if g < len(v.NewFeatures) {
			return v.NewFeatures[g]
		}
		return 0
	}
	const stageW, gap = 5, 2
	used, all := make([]int, G), make([]string, G)
	for g := range G {
		for _, v := range s.Stages {
			used[g] += count(v, g)
		}
		all[g] = strconv.Itoa(used[g])
		if size(g) > 0 {
			all[g] += "/" + strconv.Itoa(size(g))
		}
	}
	head := func(g int, sizes bool) string {
		h := "c=" + strconv.FormatFloat(s.CostGroups[g], 'g', -1, 64)
		if sizes && g < len(groupSizes) {
			h += " (" + strconv.Itoa(groupSizes[g]) + ")"
		}
		return h
	}
	groups := make([]int, G) // those shown, in order of cost
	for g := range groups {
		groups[g] = g
	}
	colW := func(sizes bool) int {
		cw := 3
		for _, g := range groups {
			cw = max(cw, lipgloss.Width(head(g, sizes)), lipgloss.Width(all[g]))
		}
		return cw
	}
	sizes := true
	cw := colW(true)
	fits := func() bool { return stageW+len(groups)*(gap+cw) <= width }
	if !fits() {
		sizes, cw = false, colW(false)
	}
	for len(groups) > 1 && !fits() {
		i := len(groups) - 1
		for j, g := range slices.Backward(groups) {
			if used[g] == 0 {
				i = j
				break
			}
		}
		groups = slices.Delete(groups, i, i+1)
		cw = colW(false)
	}
	cw = max(cw, (width-stageW)/len(groups)-gap)
	hidden := G - len(groups)
	// Shorter titles keep the count: from 35 to 45 columns the short
	// title fitted and its forms with the count did not, and below 35 it
	// was cut, so groups were hidden without a word.
	title := st.Title.Render(FirstFitting(width, slices.Concat(hiddenForms(long, hidden, "group", "groups"),
		hiddenForms(short, hidden, "group", "groups"), hiddenForms("new features (Fig. 4)", hidden, "group", "groups"),
		hiddenForms("new features", hidden, "group", "groups"), []string{long, short})...))
	heads := make([]string, len(groups))
	for i, g := range groups {
		heads[i] = head(g, sizes)
	}
	// With bars a cell is the count in 3 cells, a space and the bar, under a
	// left-aligned label; without, the count is aligned right under the label.
	withBars := cw-4 >= 4
	row := func(first string, cells []string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%*s", stageW, first)
		for _, c := range cells {
			pad := strings.Repeat(" ", max(cw-lipgloss.Width(c), 0))
			if withBars {
				c += pad
			} else {
				c = pad + c
			}
			b.WriteString(strings.Repeat(" ", gap) + c)
		}
		return strings.TrimRight(b.String(), " ")
	}
	lines := []string{title, st.Heading.Render(row("stage", heads))}
	for k, v := range s.Stages {
		cells := make([]string, len(groups))
		for i, g := range groups {
			n := count(v, g)
			c := "·"
			if n > 0 {
				c = strconv.Itoa(n)
			}
			if !withBars {
				cells[i] = st.Value.Render(c)
				continue
			}
			f := 0.0
			if size(g) > 0 {
				f = float64(n) / float64(size(g))
			}
			cells[i] = st.Value.Render(fmt.Sprintf("%3s", c)) + " " + styledBar(st.Bar, f, cw-4)
		}
		lines = append(lines, row(strconv.Itoa(k+1), cells))
	}
	totals := make([]string, len(groups))
	for i, g := range groups {
		totals[i] = all[g]
	}
	lines = append(lines, st.Heading.Render(row("all", totals)))
	return fitBlock(lines, width, height, st)
}

// stageColumns are the columns of the stage table in order, with the
// priority at which they give way when the table is too wide (lower goes
// first; 0 never). "train" is the narrow form of "train soft/hard".
var stageColumns = []struct {
	head string
	drop int
}{
	{"stage", 0}, {"θ", 9}, {"active", 3}, {"+trees", 4}, {"+feat", 5}, {"+cost", 8},
	{"train soft/hard", 2}, {"train", 6}, {"valid", 1}, {"test", 7},
}

// stageCost is the stage table's new cost: to one decimal, as the cascade
// report prints it, and from a million up as Num writes it (1.20e+13, as
// the status line), where costs of 10^12 a feature filled the column with
// "12000000000020.0".
func stageCost(c float64) string {
	if math.Abs(c) >= 1e6 {
		return Num(c)
	}
	return strconv.FormatFloat(c, 'f', 1, 64)
}

// RenderStageTable draws one row per stage: the exit threshold θ (− for the
// last stage, which keeps every input; −∞ for an earlier one that passes
// everything), the trees with a non-zero weight,
// the trees and features first evaluated there, the cost first paid there
// per document reaching it, and the fraction reaching it: training soft (d_k)
// and hard, validation and test ("–" for a split the run has no data
// for). When the table is too wide, its columns
// are set one space apart instead of two, and while that is not enough they
// give way one by one: the validation column first, then the soft fraction,
// the active and the new trees, the new features, the training fraction,
// test, the new cost and θ. The title says how many columns are hidden
// (a training column narrowed to the hard fraction counts as one).
// During optimisation the stage just optimised is marked with ▸.
func RenderStageTable(s cronus.Snapshot, width, height int, st Styles) string {
	if len(s.Stages) == 0 {
		// No K: "K = 0" stood under the params line's K 10 while
		// Algorithm 2 made the first run's stages.
		return fitBlock([]string{st.Title.Render("stages"), "", st.Dim.Render("no stages yet")}, width, height, st)
	}
	plain := fmt.Sprintf("stages (K = %d)", len(s.Stages))
	rows := [][]string{make([]string, len(stageColumns))}
	for j, c := range stageColumns {
		rows[0][j] = c.head
	}
	// A split the run has no data for reads "–", not a reach of 0.
	valid, test := func(v cronus.StageView) float64 { return v.Valid }, func(v cronus.StageView) float64 { return v.Test }
	none := func(cronus.StageView) float64 { return math.NaN() }
	switch {
	case s.Test.Metrics == nil && s.Valid.Metrics != nil:
		test = none
	case s.Valid.Metrics == nil && s.Test.Metrics != nil:
		valid = none
	}
	for k, v := range s.Stages {
		theta := "−"
		switch {
		case k == len(s.Stages)-1 || math.IsNaN(v.Theta):
		case math.IsInf(v.Theta, -1):
			theta = "−∞" // passes everything, as the cascade report's -inf
		case !math.IsInf(v.Theta, 0):
			theta = strconv.FormatFloat(v.Theta, 'f', 3, 64)
		}
		nf := 0
		for _, n := range v.NewFeatures {
			nf += n
		}
		mark := " "
		if s.Phase == "optimising" && k == s.Stage {
			mark = "▸"
		}
		rows = append(rows, []string{mark + strconv.Itoa(k+1), theta, strconv.Itoa(v.Active), strconv.Itoa(v.NewTrees),
			strconv.Itoa(nf), stageCost(v.CostAdded),
			frac(v.SoftTrain) + "/" + frac(v.HardTrain), frac(v.HardTrain), frac(valid(v)), frac(test(v))})
	}
	widths := colWidths(rows)
	keep := make([]bool, len(stageColumns))
	for j, c := range stageColumns {
		keep[j] = c.head != "train"
	}
	tableWidth := func(gap int) int {
		w := -gap
		for j, k := range keep {
			if k {
				w += widths[j] + gap
			}
		}
		return w
	}
	gap := 2
	for drop := 1; ; drop++ {
		if tableWidth(2) <= width {
			break
		}
		if gap = 1; tableWidth(1) <= width {
			break
		}
		j := slices.IndexFunc(stageColumns, func(c struct {
			head string
			drop int
		}) bool {
			return c.drop == drop
		})
		if j < 0 {
			break // only the stage numbers are left
		}
		if stageColumns[j].head == "train soft/hard" {
			keep[j+1] = true
		}
		keep[j] = false
	}
	hidden := 0
	for j, c := range stageColumns {
		if !keep[j] && c.head != "train" {
			hidden++
		}
	}
	title := st.Title.Render(FirstFitting(width, append(hiddenForms(plain, hidden, "column", "columns"), plain)...))
	lines := []string{title}
	for i, r := range rows {
		var cells []string
		for j, c := range r {
			if keep[j] {
				cells = append(cells, strings.Repeat(" ", widths[j]-lipgloss.Width(c))+c)
			}
		}
		line := strings.Join(cells, strings.Repeat(" ", gap))
		if i == 0 {
			line = st.Heading.Render(line)
		}
		lines = append(lines, line)
	}
	if s.Phase == "optimising" && s.Stage >= 0 && s.Stage < len(s.Stages) {
		lines = scrollTo(lines, 2, s.Stage, height, st)
	}
	switch {
	case height == 1:
		// fitBlock's "… n more" would stand for the title, counting lines:
		// "… 12 more" at K = 10.
		lines = lines[:1]
	case height == 2 && len(lines) > 2:
		// No stage's row fits under the header: the note counts stages,
		// not the header with them.
		lines = []string{title, st.Dim.Render(fmt.Sprintf("… %d more", len(s.Stages)))}
	}
	return fitBlock(lines, width, height, st)
}

// scrollTo keeps row focus of lines (the rows follow head lines of title
// and header) within the height lines fitBlock shows: when it would be cut
// off, the rows before it give way, "… n above" in their place, until it
// is in the middle of the rows shown or the last rows are all shown. At
// K = 100 the stage being optimised went off the bottom of the table.
func scrollTo(lines []string, head, focus, height int, st Styles) []string {
	rows := lines[head:]
	room := height - head // the rows' lines, notes included
	if len(rows) <= room || focus < room-1 || room < 3 {
		return lines
	}
	// Below the note above: the last room−1 rows, or room−2 rows and
	// fitBlock's "… n more".
	start := min(focus-(room-3)/2, len(rows)-(room-1))
	out := append(slices.Clip(lines[:head]), st.Dim.Render(fmt.Sprintf("… %d above", start)))
	return append(out, rows[start:]...)
}
