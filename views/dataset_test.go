package views

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/data"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./views -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func sampleScreen() DataScreen {
	s := func(name string, q, d, zero int, labels map[string]int, min, max int, med float64) data.Summary {
		return data.Summary{Name: name, Queries: q, Docs: d, Features: 46, Labels: labels, ZeroQueries: zero,
			DocsPerQuery: data.DocsPerQuery{Min: min, Median: med, Max: max},
			CostGroups:   []data.GroupCount{{Cost: 1, Features: 11}, {Cost: 10, Features: 12}, {Cost: 20, Features: 6}, {Cost: 50, Features: 9}, {Cost: 100, Features: 8}},
			TotalCost:    1501}
	}
	return DataScreen{
		Splits: []data.Summary{
			s("builtin:mq2008/train", 471, 9630, 132, map[string]int{"0": 7820, "1": 1223, "2": 587}, 5, 121, 8),
			s("builtin:mq2008/vali", 157, 2707, 37, map[string]int{"0": 2140, "1": 400, "2": 167}, 6, 118, 8),
			s("builtin:mq2008/test", 156, 2874, 51, map[string]int{"0": 2319, "1": 378, "2": 177}, 6, 119, 14.5),
		},
		Costs:    "builtin:mq2008/costs",
		HelpLine: "q quit",
	}
}

func TestDataScreenGolden(t *testing.T) {
	loading := DataScreen{Loading: "builtin:mq2008/train", Frame: 3, HelpLine: "q quit"}
	failed := DataScreen{Err: "train.txt:1042: feature index 0: indices start at 1", HelpLine: "q quit"}
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for name, s := range map[string]DataScreen{"data": sampleScreen(), "loading": loading, "error": failed} {
			got := RenderDataScreen(s, size.w, size.h, PlainStyles())
			lines := strings.Split(got, "\n")
			if len(lines) != size.h {
				t.Errorf("%s at %dx%d: %d lines", name, size.w, size.h, len(lines))
			}
			for i, l := range lines {
				if w := lipgloss.Width(l); w > size.w {
					t.Errorf("%s at %dx%d: line %d is %d cells wide", name, size.w, size.h, i, w)
				}
			}
			golden(t, name+"-"+itoa(size.w)+"x"+itoa(size.h)+".golden", got)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestDataScreenErrorKeepsPath: a load error (or a warning) that names a
// long path shows the path on one line, whole or shortened from the left
// to whole names, never broken across lines. lipgloss's wrapping broke it
// at a hyphen ("another-quite-long-" / "directory/Fold1/train.txt:1:").
func TestDataScreenErrorKeepsPath(t *testing.T) {
	const path = "/tmp/h/a-rather-long-directory-name/another-quite-long-directory/Fold1/train.txt"
	const why = `feature 2: value "abc" is not a number; expected a finite number`
	for _, c := range []struct {
		name string
		s    DataScreen
	}{
		{"error", DataScreen{Err: path + ":1: " + why}},
		{"warning", DataScreen{Splits: sampleScreen().Splits, Warnings: []string{path + " has features up to 40, and 46 are expected"}}},
	} {
		for _, w := range []int{40, 80, 120} {
			got := RenderDataScreen(c.s, w, 30, PlainStyles())
			var words []string
			at := -1 // the line with the path
			for i, l := range strings.Split(got, "\n") {
				if lipgloss.Width(l) > w {
					t.Errorf("%s at %d columns: line %q is wider", c.name, w, l)
				}
				if strings.Contains(l, "train.txt") {
					at = i
				}
				words = append(words, strings.Fields(l)...)
			}
			if at < 0 {
				t.Fatalf("%s at %d columns: no line names train.txt:\n%s", c.name, w, got)
			}
			// The path is a word of its own: path itself, or "…" and an
			// end of it from a "/" on, then what follows it in the message.
			i := slices.IndexFunc(words, func(s string) bool { return strings.Contains(s, "train.txt") })
			p := strings.TrimSuffix(words[i], ":1:")
			short, ok := strings.CutPrefix(p, "…")
			if !(p == path || ok && strings.HasPrefix(short, "/") && strings.HasSuffix(path, short)) {
				t.Errorf("%s at %d columns: the path reads %q:\n%s", c.name, w, words[i], got)
			}
			if i == 0 || !strings.HasSuffix(words[i-1], ":") {
				t.Errorf("%s at %d columns: the word before the path is not the label:\n%s", c.name, w, got)
			}
		}
	}
}

// TestDataScreenLoadingKeepsFileName: the loading line shortens a long
// path from the left, so that the file being read is named; it was cut
// at the right, file name and all.
func TestDataScreenLoadingKeepsFileName(t *testing.T) {
	const path = "/tmp/h/a-rather-long-directory-name/another-quite-long-directory/Fold1/train.txt"
	for _, w := range []int{40, 80} {
		got := RenderDataScreen(DataScreen{Loading: path, Frame: 4}, w, 10, PlainStyles())
		line := strings.Split(got, "\n")[2]
		if lipgloss.Width(line) > w {
			t.Errorf("%d columns: %q is wider", w, line)
		}
		p, ok := strings.CutPrefix(line, "⠼ loading ")
		p, ok2 := strings.CutSuffix(p, " …")
		short, cut := strings.CutPrefix(p, "…")
		if !ok || !ok2 || !(p == path || cut && strings.HasPrefix(short, "/") && strings.HasSuffix(path, short)) {
			t.Errorf("%d columns: the loading line reads %q", w, line)
		}
	}
}

// TestDataScreenLongPaths: at 80 columns, splits and a cost file with long
// paths show each path shortened from the left to whole names and every
// count whole; the full paths widened the first column and pushed the
// counts past the edge, where they were cut.
func TestDataScreenLongPaths(t *testing.T) {
	const dir = "/home/someone/experiments/letor-4.0/MQ2008-with-a-long-name/Fold1/"
	s := sampleScreen()
	for i, f := range []string{"train.txt", "vali.txt", "test.txt"} {
		s.Splits[i].Name = dir + f
	}
	s.Costs = dir + "costs.txt"
	got := RenderDataScreen(s, 80, 24, PlainStyles())
	lines := strings.Split(got, "\n")
	for i, l := range lines {
		if w := lipgloss.Width(l); w > 80 || strings.HasSuffix(l, "…") {
			t.Errorf("line %d is cut or %d cells wide: %q", i, w, l)
		}
	}
	// shortened reports whether p is path shortened from the left to
	// whole names: "…" and an end of path from a "/" on.
	shortened := func(p, path string) bool {
		short, ok := strings.CutPrefix(p, "…")
		return ok && strings.HasPrefix(short, "/") && strings.HasSuffix(path, short)
	}
	for i, want := range [][]string{
		{"471", "9630", "46", "5/8/121", "132", "7820/1223/587"},
		{"157", "2707", "46", "6/8/118", "37", "2140/400/167"},
		{"156", "2874", "46", "6/14.5/119", "51", "2319/378/177"},
	} {
		name := s.Splits[i].Name
		at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, filepath.Base(name)) })
		if at < 0 {
			t.Fatalf("no line names %s:\n%s", filepath.Base(name), got)
		}
		f := strings.Fields(lines[at])
		if len(f) != 1+len(want) || !shortened(f[0], name) || !slices.Equal(f[1:], want) {
			t.Errorf("the row of %s reads %q, want a shortened path and %q", name, lines[at], want)
		}
	}
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "feature costs: ") })
	if at < 0 {
		t.Fatalf("no cost line:\n%s", got)
	}
	p, ok := strings.CutSuffix(strings.TrimPrefix(lines[at], "feature costs: "), "; all 46 features cost 1501 per document")
	if !ok || !shortened(p, s.Costs) {
		t.Errorf("the cost line reads %q", lines[at])
	}
}

// TestDataScreenNoCostFile: without a cost file the cost line says every
// feature costs 1, as cronus inspect does; it read "feature costs: ; all …".
func TestDataScreenNoCostFile(t *testing.T) {
	s := sampleScreen()
	s.Costs = ""
	got := RenderDataScreen(s, 120, 24, PlainStyles())
	if !strings.Contains(got, "\nfeature costs: none: every feature costs 1; all 46 features cost 1501 per document\n") {
		t.Errorf("the cost line without a cost file:\n%s", got)
	}
}

// TestDataScreenNamesApart: on a narrow screen the split table keeps room
// for the files' own names, so that the splits can be told apart; at 70
// columns with five label grades all three read "…txt".
func TestDataScreenNamesApart(t *testing.T) {
	s := sampleScreen()
	grades := map[string]int{"0": 900, "1": 300, "2": 200, "3": 100, "4": 50}
	for i, name := range []string{"/tmp/data/gen-train.txt", "/tmp/data/gen-valid.txt", "/tmp/data/gen-test.txt"} {
		s.Splits[i].Name, s.Splits[i].Labels = name, grades
	}
	for _, w := range []int{60, 70, 80} {
		got := RenderDataScreen(s, w, 24, PlainStyles())
		for _, want := range []string{"gen-train.txt", "gen-valid.txt", "gen-test.txt"} {
			if !strings.Contains(got, want) {
				t.Errorf("at %d columns the table lacks %q:\n%s", w, want, got)
			}
		}
		for i, l := range strings.Split(got, "\n") {
			if lipgloss.Width(l) > w {
				t.Errorf("at %d columns line %d is %d cells wide", w, i, lipgloss.Width(l))
			}
		}
	}
}

// TestDataScreenCostFileNameWhole: on a narrow screen the cost line keeps
// the cost file's own name whole, its totals on a line of their own when
// both do not fit on one: at 60 columns the MSLR cost file read
// "feature costs: …txt; all 136 features …", at 80 "…0k.feature_cost.txt".
func TestDataScreenCostFileNameWhole(t *testing.T) {
	s := sampleScreen()
	s.Costs = "/tmp/h3/data/builtin/mslr-web10k.feature_cost.txt"
	const totals = "all 46 features cost 1501 per document"
	for _, w := range []int{50, 60, 80, 120} {
		got := RenderDataScreen(s, w, 24, PlainStyles())
		lines := strings.Split(got, "\n")
		at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "feature costs: ") })
		if at < 0 {
			t.Fatalf("at %d columns no cost line:\n%s", w, got)
		}
		if !strings.Contains(lines[at], "/mslr-web10k.feature_cost.txt") {
			t.Errorf("at %d columns the cost line reads %q, want the file's name whole", w, lines[at])
		}
		if !strings.Contains(lines[at], totals) && (at+1 >= len(lines) || strings.TrimSpace(lines[at+1]) != totals) {
			t.Errorf("at %d columns the totals are not whole on the cost line or the next:\n%s", w, got)
		}
		for i, l := range lines[at:min(at+2, len(lines))] {
			if lipgloss.Width(l) > w || strings.HasSuffix(l, "…") {
				t.Errorf("at %d columns cost line %d is cut or %d cells wide: %q", w, i, lipgloss.Width(l), l)
			}
		}
	}
}

// TestSplitTableMedianPlain: docs per query in plain decimals: %g wrote
// the median of a one-query file of a million documents (a file without
// qids) as 1e+06.
func TestSplitTableMedianPlain(t *testing.T) {
	s := data.Summary{Name: "big.txt", Queries: 1, Docs: 1000000, Features: 3, Labels: map[string]int{"0": 1000000}}
	s.DocsPerQuery.Min, s.DocsPerQuery.Median, s.DocsPerQuery.Max = 1000000, 1000000, 1000000
	if got := splitTable([]data.Summary{s}, 120, Styles{}); !strings.Contains(got, "1000000/1000000/1000000") {
		t.Errorf("no plain median:\n%s", got)
	}
}
