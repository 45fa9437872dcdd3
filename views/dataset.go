package views

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/data"
)

// DataScreen is what the first workbench screen shows: the summary of each
// split and the feature cost groups.
type DataScreen struct {
	Splits   []data.Summary // train, valid, test (the ones loaded)
	Costs    string         // name of the cost file
	Loading  string         // non-empty while loading: what is being read
	Progress string         // while loading, how far its reader is ("pass 2/2 57%"), or ""
	Err      string         // a load error, shown in place
	Warnings []string       // about the files loaded (features missing, costs defaulted)
	Frame    int            // animation frame while loading
	HelpLine string
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// RenderDataScreen draws the data screen in width × height cells.
func RenderDataScreen(s DataScreen, width, height int, st Styles) string {
	var parts []string
	parts = append(parts, st.Title.Render("Cronus")+st.Dim.Render(" · cost-aware learning to rank"))
	switch {
	case s.Err != "":
		parts = append(parts, "", labelled(st.Error.Render("error:"), s.Err, width))
	case s.Loading != "":
		// A long path loses its start, not the file name (ShortenPath).
		head, tail := spinner[s.Frame%len(spinner)]+" loading ", " …"
		if s.Progress != "" {
			tail += " " + s.Progress
		}
		parts = append(parts, "", head+ShortenPath(s.Loading, width-lipgloss.Width(head)-lipgloss.Width(tail))+tail)
	default:
		parts = append(parts, "", splitTable(s.Splits, width, st))
		if len(s.Splits) > 0 {
			parts = append(parts, "", costGroups(s.Splits[0], s.Costs, width, st))
		}
		for _, w := range s.Warnings {
			parts = append(parts, labelled(st.Error.Render("warning:"), w, width))
		}
	}
	body := strings.Join(parts, "\n")
	lines := strings.Split(body, "\n")
	if len(lines) > height-1 {
		lines = lines[:max(height-1, 0)]
	}
	for len(lines) < height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, st.Dim.Render(Truncate(s.HelpLine, width)))
	for i, l := range lines {
		lines[i] = Truncate(l, width)
	}
	return strings.Join(lines, "\n")
}

func splitTable(splits []data.Summary, width int, st Styles) string {
	labels := map[string]bool{}
	for _, s := range splits {
		for k := range s.Labels {
			labels[k] = true
		}
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, _ := strconv.ParseFloat(keys[i], 64)
		b, _ := strconv.ParseFloat(keys[j], 64)
		return a < b
	})
	header := []string{"data", "queries", "docs", "feat", "docs/query", "no rel.", "labels " + strings.Join(keys, "/")}
	rows := [][]string{header}
	for _, s := range splits {
		counts := make([]string, len(keys))
		for i, k := range keys {
			counts[i] = strconv.Itoa(s.Labels[k])
		}
		rows = append(rows, []string{s.Name, strconv.Itoa(s.Queries), strconv.Itoa(s.Docs), strconv.Itoa(s.Features),
			fmt.Sprintf("%d/%s/%d", s.DocsPerQuery.Min, strconv.FormatFloat(s.DocsPerQuery.Median, 'f', -1, 64), s.DocsPerQuery.Max), strconv.Itoa(s.ZeroQueries),
			strings.Join(counts, "/")})
	}
	// A long path loses its start, not the counts: the first column gets
	// the room the others leave (ShortenPath), but at least room for the
	// files' own names ("…/gen-train.txt", up to 24 cells), which tell the
	// splits apart: at 70 columns with five grades all three read "…txt".
	// The labels column, the last, is then the one cut at the edge.
	widths := colWidths(rows)
	room := width
	for _, w := range widths[1:] {
		room -= w + 2
	}
	least := lipgloss.Width(header[0])
	for _, r := range rows[1:] {
		least = max(least, min(2+lipgloss.Width(filepath.Base(r[0])), 24))
	}
	for _, r := range rows[1:] {
		r[0] = ShortenPath(r[0], max(room, least))
	}
	widths[0] = colWidths(rows)[0]
	var b strings.Builder
	for i, r := range rows {
		for j, c := range r {
			if j == 0 {
				fmt.Fprintf(&b, "%-*s", widths[j]+2, c)
			} else {
				fmt.Fprintf(&b, "%*s  ", widths[j], c)
			}
		}
		line := strings.TrimRight(b.String(), " ")
		b.Reset()
		if i == 0 {
			line = st.Heading.Render(line)
		}
		rows[i] = []string{line}
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[0]
	}
	return strings.Join(out, "\n")
}

func costGroups(s data.Summary, name string, width int, st Styles) string {
	const head = "feature costs: "
	if name == "" { // the workbench loads no cost file: every feature costs 1
		name = "none: every feature costs 1"
	}
	totals := fmt.Sprintf("all %d features cost %g per document", s.Features, s.TotalCost)
	// The path loses its start to keep the totals beside it, but never the
	// file's own name: where that and the totals do not fit on one line,
	// the totals go on the next (at 60 columns the MSLR cost file read
	// "feature costs: …txt; all 136 features …").
	var lines []string
	if short := ShortenPath(name, width-lipgloss.Width(head+"; "+totals)); lipgloss.Width(short) >= min(lipgloss.Width(name), 1+lipgloss.Width("/"+filepath.Base(name))) {
		lines = []string{st.Heading.Render(head + short + "; " + totals)}
	} else {
		lines = []string{st.Heading.Render(head + ShortenPath(name, width-lipgloss.Width(head))), st.Heading.Render("  " + totals)}
	}
	most := 0
	for _, g := range s.CostGroups {
		most = max(most, g.Features)
	}
	barW := max(width-30, 1)
	for _, g := range s.CostGroups {
		n := (g.Features*barW + most - 1) / max(most, 1)
		lines = append(lines, fmt.Sprintf("  cost %-6g %4d  %s", g.Cost, g.Features, st.Bar.Render(strings.Repeat("█", n))))
	}
	return strings.Join(lines, "\n")
}

func colWidths(rows [][]string) []int {
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for j, c := range r {
			w[j] = max(w[j], lipgloss.Width(c))
		}
	}
	return w
}

// Truncate cuts a line to width cells, keeping escape sequences intact; a
// cut line ends in "…", so that it does not read as a whole one.
func Truncate(s string, width int) string {
	switch {
	case lipgloss.Width(s) <= width:
		return s
	case width <= 0:
		return ""
	case width == 1:
		return "…" // MaxWidth(0) would not cut
	}
	return lipgloss.NewStyle().MaxWidth(width-1).Render(s) + "…"
}

// labelled is "label msg" in lines of width cells, msg wrapped at spaces
// under its start. A path in msg keeps a line of its own, shortened from
// the left to whole names when it is too wide (ShortenPaths): lipgloss's
// wrapping broke a path at a hyphen.
func labelled(label, msg string, width int) string {
	msg = Printable(msg) // an error naming a file whose name holds a newline
	indent := lipgloss.Width(label) + 1
	w := max(width-indent, 10)
	lines := WrapWords(ShortenPaths(msg, w), w)
	for i := range lines {
		lines[i] = strings.Repeat(" ", indent) + lines[i]
	}
	lines[0] = label + lines[0][indent-1:]
	return strings.Join(lines, "\n")
}

func wrap(s string, width int) string {
	return lipgloss.NewStyle().Width(max(width, 10)).Render(s)
}
