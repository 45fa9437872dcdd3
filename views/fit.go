package views

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// fitBlock makes lines exactly height lines of at most width cells: long
// lines are cut, missing lines are blank, and when there are too many the
// last kept line says how many were left out.
func fitBlock(lines []string, width, height int, st Styles) string {
	if height <= 0 {
		return ""
	}
	if len(lines) > height {
		more := len(lines) - height + 1
		lines = append(lines[:height-1:height-1], st.Dim.Render(fmt.Sprintf("… %d more", more)))
	}
	out := make([]string, height)
	for i := range out {
		if i < len(lines) {
			out[i] = Truncate(lines[i], width)
		}
	}
	return strings.Join(out, "\n")
}

// packItems lays legend items out left to right, sep between them, starting
// a new line when the next item would not fit in width cells.
func packItems(items []string, sep string, width int) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case lipgloss.Width(cur)+lipgloss.Width(sep)+lipgloss.Width(it) <= width:
			cur += sep + it
		default:
			lines = append(lines, cur)
			cur = it
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// axisDecimals is the number of decimals that tells apart axis labels step
// apart: one significant digit of the step, at most 6.
func axisDecimals(step float64) int {
	if step <= 0 || math.IsNaN(step) || math.IsInf(step, 0) {
		return 2
	}
	return min(max(int(math.Ceil(-math.Log10(step))), 0), 6)
}

// FormatParam formats a parameter's value, as the workbench's params
// line and panel show it: to four significant digits, or, when those are
// not the value (a typed 0.12345 or 10001), with all the digits it takes,
// so that two values that differ look different.
func FormatParam(v float64) string {
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if t, err := strconv.ParseFloat(s, 64); err == nil && t == v {
		return s
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Num formats a value for a table or a status line: 4 significant digits,
// no exponent between 1e-3 and 1e6.
func Num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "−∞"
	case v == 0:
		return "0"
	case v != 0 && (math.Abs(v) < 1e-3 || math.Abs(v) >= 1e6):
		return strconv.FormatFloat(v, 'e', 2, 64)
	case math.Abs(v) >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', max(3-int(math.Floor(math.Log10(math.Max(math.Abs(v), 1e-3)))), 0), 64)
}
