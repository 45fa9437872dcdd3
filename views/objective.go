package views

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/guptarohit/asciigraph"
)

// objectiveSeries are the curves of the objective view in drawing order:
// the total last, so that it stays on top where curves cross. Without
// colour the terms are told apart by their marker; the total is the line.
var objectiveSeries = []struct {
	name  string
	mark  string // "" draws asciigraph's box-drawing line
	value func(cronus.Terms) float64
}{
	{"loss", "•", func(t cronus.Terms) float64 { return t.Loss }},
	{"reg", "·", func(t cronus.Terms) float64 { return t.Reg }},
	{"tree cost", "+", func(t cronus.Terms) float64 { return t.TreeCost }},
	{"feature cost", "×", func(t cronus.Terms) float64 { return t.FeatCost }},
	{"total", "", func(t cronus.Terms) float64 { return t.Total }},
}

// RenderObjective draws the cascade objective (eq 8) and each of its terms
// per iteration in width × height cells: a title with the cycle, stage and
// step, the plot (with an iteration axis when there is room) and a legend
// that gives each curve's current value. A series longer than the plot is
// wide is first reduced with Downsample, so no column holds more than one
// point.
func RenderObjective(s cronus.Snapshot, width, height int, st Styles) string {
	lines := []string{st.Title.Render(objectiveTitle(s, width))}
	if len(s.Terms) == 0 {
		lines = append(lines, "", st.Dim.Render("no iterations yet"))
		return fitBlock(lines, width, height, st)
	}
	last := s.Terms[len(s.Terms)-1]
	var items []string
	total := len(objectiveSeries) - 1
	for _, i := range append([]int{total}, seq(total)...) {
		se := objectiveSeries[i]
		mark := se.mark
		if mark == "" {
			mark = "─"
		}
		items = append(items, seriesStyle(i, st).Render(mark)+" "+se.name+" "+st.Value.Render(Num(se.value(last))))
	}
	legend := packItems(items, "   ", width)
	rows := height - 1 - len(legend)
	if rows < 2 {
		// The legend keeps the terms' values; a row to spare says why
		// there is no plot, as the curve pane does (at 80x7 the title and
		// legend stood over a blank row).
		if rows == 1 {
			lines = append(lines, st.Dim.Render("too short for the plot"))
		}
		return fitBlock(append(lines, legend...), width, height, st)
	}
	plot := plotObjective(s.Terms, width, rows, st)
	for len(plot) < rows {
		plot = append(plot, "")
	}
	lines = append(lines, plot[:rows]...)
	return fitBlock(append(lines, legend...), width, height, st)
}

func objectiveTitle(s cronus.Snapshot, width int) string {
	if s.Cycle == 0 {
		return FirstFitting(width, fmt.Sprintf("objective (eq 8) · initialisation · step %d", s.Step),
			fmt.Sprintf("eq 8 · init · step %d", s.Step))
	}
	return FirstFitting(width,
		fmt.Sprintf("objective (eq 8) · cycle %d · stage %d/%d · step %d", s.Cycle, s.Stage+1, len(s.Stages), s.Step),
		fmt.Sprintf("eq 8 · c%d s%d/%d · step %d", s.Cycle, s.Stage+1, len(s.Stages), s.Step))
}

// seriesStyle is the style of objectiveSeries[i]: the total as a value, the
// loss as a bar, the other terms dim.
func seriesStyle(i int, st Styles) lipgloss.Style {
	switch objectiveSeries[i].name {
	case "total":
		return st.Value
	case "loss":
		return st.Bar
	}
	return st.Dim
}

// plotObjective draws the curves in at most rows lines of at most width
// cells with asciigraph. asciigraph sizes its left labels itself, so the
// plot is drawn again, narrower or lower, until it fits.
func plotObjective(terms []cronus.Terms, width, rows int, st Styles) []string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range terms {
		for _, se := range objectiveSeries {
			if v := se.value(t); !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if lo > hi {
		return []string{st.Dim.Render("no finite values")}
	}
	if hi-lo < 1e-12*max(math.Abs(lo), 1) {
		// Flat: ±1% about it, or ±1 where 1% is below what the labels show.
		d := math.Abs(lo) * 0.01
		if d < 1e-6 {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	xaxis := rows >= 8 && len(terms) > 1
	body := rows
	if xaxis {
		body -= 2
	}
	// The labels have at most 6 decimals (axisDecimals): over a span of less
	// than a millionth a row, every row read "0.000000".
	if span := 1e-6 * float64(max(body-1, 1)); hi-lo < span {
		c := (lo + hi) / 2
		lo, hi = c-span/2, c+span/2
	}
	step := (hi - lo) / float64(max(body-1, 1))
	dec := axisDecimals(step)
	// From a million up the labels are in e notation, with the significant
	// digits that tell rows apart: an objective of 7.5e+19 (graded targets
	// on labels up to 31) was labelled "103056704892535406592", 22 cells
	// of an 80-column pane, the legend beside it saying 7.50e+19.
	if big := max(math.Abs(lo), math.Abs(hi)); big >= 1e6 {
		digits := min(max(int(math.Floor(math.Log10(big)))-int(math.Floor(math.Log10(step))), 1), 15)
		yfmt := func(v float64) string {
			if math.Abs(v) < step/2 {
				return "0"
			}
			return strconv.FormatFloat(v, 'e', digits, 64)
		}
		return plotObjectiveFitted(terms, width, body, xaxis, lo, hi, yfmt, st)
	}
	yfmt := func(v float64) string {
		s := strconv.FormatFloat(v, 'f', dec, 64)
		if z, err := strconv.ParseFloat(s, 64); err == nil && z == 0 {
			return strconv.FormatFloat(0, 'f', dec, 64) // not "-0.00"
		}
		return s
	}
	return plotObjectiveFitted(terms, width, body, xaxis, lo, hi, yfmt, st)
}

// plotObjectiveFitted draws the curves between lo and hi in body lines
// (and the x axis under them when xaxis) of at most width cells, the y
// labels written by yfmt.
func plotObjectiveFitted(terms []cronus.Terms, width, body int, xaxis bool, lo, hi float64, yfmt func(float64) string, st Styles) []string {
	pad := 2 + max(len(yfmt(lo)), len(yfmt(hi)))
	w, h := max(width-pad, 2), max(body-1, 1)
	var out []string
	for try := 0; try < 4; try++ {
		out = strings.Split(plotObjectiveOnce(terms, w, h, lo, hi, yfmt), "\n")
		over, extra := 0, len(out)-body
		for _, l := range out {
			over = max(over, lipgloss.Width(l)+1-width) // +1: the x axis runs one cell past the curves
		}
		if (over <= 0 && extra <= 0) || (w <= 2 && h <= 1) {
			break
		}
		w, h = max(w-max(over, 0), 2), max(h-max(extra, 0), 1)
	}
	left := 0
	for i, l := range out {
		if axis := strings.IndexFunc(l, isAxisRune); axis >= 0 {
			left = max(left, len([]rune(l[:axis]))+1)
		}
		out[i] = styleCurves(l, st)
	}
	if xaxis {
		// Column j shows step j·(n−1)/(w−1): asciigraph stretches a short
		// series over w columns, and Downsample keeps both ends of a long one.
		axis, labels := linearAxis(float64(len(terms)-1), left, w, true, false)
		out = append(out, st.Dim.Render(axis), st.Dim.Render(labels))
	}
	return out
}

func isAxisRune(r rune) bool { return r == '┤' || r == '┼' }

// seq is 0, 1, …, n−1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func plotObjectiveOnce(terms []cronus.Terms, w, h int, lo, hi float64, yfmt func(float64) string) string {
	data := make([][]float64, len(objectiveSeries))
	var chars []asciigraph.CharSet
	for i, se := range objectiveSeries {
		xs := make([]float64, len(terms))
		for j, t := range terms {
			xs[j] = se.value(t)
			if math.IsInf(xs[j], 0) {
				xs[j] = math.NaN()
			}
		}
		data[i] = Downsample(xs, w)
		if se.mark == "" {
			chars = append(chars, asciigraph.DefaultCharSet)
		} else {
			chars = append(chars, asciigraph.CreateCharSet(se.mark))
		}
	}
	opts := []asciigraph.Option{
		asciigraph.Width(w), asciigraph.Height(h), asciigraph.Offset(2),
		asciigraph.LowerBound(lo), asciigraph.UpperBound(hi),
		asciigraph.SeriesChars(chars...),
		asciigraph.YAxisValueFormatter(yfmt),
	}
	return asciigraph.PlotMany(data, opts...)
}

// styleCurves colours one plot line after its axis column by the series
// each rune belongs to. Spaces and the labels stay unstyled.
func styleCurves(line string, st Styles) string {
	rs := []rune(line)
	axis := strings.IndexFunc(line, isAxisRune)
	if axis < 0 {
		return line
	}
	start := len([]rune(line[:axis])) + 1
	var b strings.Builder
	b.WriteString(string(rs[:start]))
	for i := start; i < len(rs); {
		si := seriesOfRune(rs[i])
		j := i + 1
		for j < len(rs) && seriesOfRune(rs[j]) == si {
			j++
		}
		if si < 0 {
			b.WriteString(string(rs[i:j]))
		} else {
			b.WriteString(seriesStyle(si, st).Render(string(rs[i:j])))
		}
		i = j
	}
	return b.String()
}

// seriesOfRune is the index in objectiveSeries of the series drawn with r,
// or -1 for a space.
func seriesOfRune(r rune) int {
	if r == ' ' {
		return -1
	}
	for i, se := range objectiveSeries {
		if se.mark != "" && string(r) == se.mark {
			return i
		}
	}
	return len(objectiveSeries) - 1
}

// Downsample reduces xs to at most n values for a plot n columns wide. A
// series of n values or fewer comes back as a copy. Otherwise the first and
// the last value are kept as they are (the start and the current value of
// a trace) and the values between are split into n−2 contiguous buckets of
// near-equal size, each replaced by its mean, so the shape survives and
// noise is smoothed rather than aliased; a NaN makes its bucket NaN. n = 1
// keeps the last value; n ≤ 0 gives nil. xs is not modified.
func Downsample(xs []float64, n int) []float64 {
	switch {
	case n <= 0:
		return nil
	case len(xs) <= n:
		return append([]float64(nil), xs...)
	case n == 1:
		return []float64{xs[len(xs)-1]}
	}
	dst := make([]float64, n)
	dst[0], dst[n-1] = xs[0], xs[len(xs)-1]
	mid := xs[1 : len(xs)-1]
	m := n - 2
	for i := range m {
		b := mid[i*len(mid)/m : (i+1)*len(mid)/m]
		sum := 0.0
		for _, v := range b {
			sum += v
		}
		dst[i+1] = sum / float64(len(b))
	}
	return dst
}
