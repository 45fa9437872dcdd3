package views

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
)

// Printable is s with what a terminal would act on instead of showing
// written as Go escapes: control characters (a newline, a carriage
// return, a tab, an escape: "\n", "\r", "\t", "\x1b") and bytes that are
// not UTF-8 ("\xff"). A file named so (`touch "$(printf 'a\nb.txt')"`)
// broke the load screen's browser onto two lines, scrolled the screen up
// a line and left its rows overwritten; an escape in a name coloured the
// rest of the screen.
func Printable(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&15, 16))
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// ShortenPath is p when it fits in w cells, else "…" and the longest end
// of p from a "/" on that fits ("…/Fold1/train.txt"): whole names, not a
// name cut in the middle. When even the file name does not fit after
// "…/", it is as much of p's end as fits (KeepTail). Its control
// characters are escaped (Printable).
func ShortenPath(p string, w int) string {
	p = Printable(p)
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
// fits; its control characters escaped (Printable).
func KeepTail(s string, w int) string {
	s = Printable(s)
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
