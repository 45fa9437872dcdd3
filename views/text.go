package views

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// ShortenPath is p when it fits in w cells, else "…" and the longest end
// of p from a "/" on that fits ("…/Fold1/train.txt"): whole names, not a
// name cut in the middle. When even the file name does not fit after
// "…/", it is as much of p's end as fits (KeepTail).
func ShortenPath(p string, w int) string {
	if lipgloss.Width(p) <= w {
		return p
	}
	for i := 1; i < len(p); i++ {
		if p[i] == '/' && 1+lipgloss.Width(p[i:]) <= w {
			return "…" + p[i:]
		}
	}
	return KeepTail(p, w)
}

// KeepTail is s when it fits in w cells, else "…" and as much of its end as
// fits.
func KeepTail(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	tail := 0
	for cells := 1; tail < len(r); tail++ {
		c := lipgloss.Width(string(r[len(r)-1-tail]))
		if cells+c > w {
			break
		}
		cells += c
	}
	return "…" + string(r[len(r)-tail:])
}

// ShortenPaths shortens each word of s that holds a "/" and is wider than
// w cells from the left (ShortenPath), so that wrapping gives it one line,
// with its file name and line number, instead of cutting it in pieces that
// can be neither read nor copied.
func ShortenPaths(s string, w int) string {
	words := strings.Fields(s)
	for i, word := range words {
		if strings.Contains(word, "/") {
			words[i] = ShortenPath(word, w)
		}
	}
	return strings.Join(words, " ")
}

// WrapWords breaks s into lines of at most width cells, at spaces; a word
// longer than width is broken into pieces of width cells.
func WrapWords(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for lipgloss.Width(word) > width {
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			head, rest := splitCells(word, width)
			lines = append(lines, head)
			word = rest
		}
		switch {
		case line == "":
			line = word
		case lipgloss.Width(line)+1+lipgloss.Width(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// splitCells splits s (no escape sequences) after its first n cells, and
// after at least one rune.
func splitCells(s string, n int) (string, string) {
	cells := 0
	for i, r := range s {
		c := lipgloss.Width(string(r))
		if i > 0 && cells+c > n {
			return s[:i], s[i:]
		}
		cells += c
	}
	return s, ""
}
