package views

import (
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// eighths are the left-aligned partial blocks, eighths[i] filling i/8 of a cell.
var eighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// hbar draws the fraction f of cells cells as a horizontal bar of full
// blocks and one partial block, to the nearest eighth of a cell, padded with
// spaces to exactly cells cells. f is clamped to [0, 1]; NaN draws nothing.
func hbar(f float64, cells int) string {
	if cells <= 0 {
		return ""
	}
	if math.IsNaN(f) {
		f = 0
	}
	f = min(max(f, 0), 1)
	n := int(math.Round(f * float64(cells*8)))
	full, part := n/8, n%8
	var b strings.Builder
	b.WriteString(strings.Repeat("█", full))
	used := full
	if part > 0 {
		b.WriteString(eighths[part])
		used++
	}
	b.WriteString(strings.Repeat(" ", cells-used))
	return b.String()
}

// styledBar is hbar with style applied to the blocks only, so that trailing
// padding stays plain and can be trimmed.
func styledBar(style lipgloss.Style, f float64, cells int) string {
	b := hbar(f, cells)
	blocks := strings.TrimRight(b, " ")
	if blocks == "" {
		return b
	}
	return style.Render(blocks) + b[len(blocks):]
}
