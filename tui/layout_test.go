package tui

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/job"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// TestKeyLine: the key line at the bottom shows whole keys only, as many as
// fit, always beginning with quit and help; at 120 columns it was cut
// mid-word ("o op").
func TestKeyLine(t *testing.T) {
	keys := strings.Split(helpLine, " · ")
	for w := 16; w <= 200; w++ {
		l := keyLine(helpLine, w)
		if lipgloss.Width(l) > w {
			t.Fatalf("width %d: %q is wider", w, l)
		}
		got := strings.Split(l, " · ")
		if len(got) < 2 {
			t.Fatalf("width %d: %q lacks quit and help", w, l)
		}
		for i, k := range got {
			if k != keys[i] {
				t.Fatalf("width %d: key %d is %q, want %q", w, i, k, keys[i])
			}
		}
		if len(got) < len(keys) && lipgloss.Width(l+" · "+keys[len(got)]) <= w {
			t.Fatalf("width %d: %q leaves out %q, which fits", w, l, keys[len(got)])
		}
	}
	if keyLine(helpLine, 1000) != helpLine {
		t.Errorf("a wide line is not the whole help line")
	}
}

// TestFitEllipsis: a line cut at the pane's or the screen's width ends in
// "…", so that it does not read as whole; at 80 columns the panel's last
// description read "(retrains it", its parenthesis lost without a sign
// (the panel now picks a form that fits: TestPanelWhole).
func TestFitEllipsis(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
		{"ab", 4, "ab  "},
		{"λ 0.015", 5, "λ 0.…"},
		{"abc", 1, "…"},
	} {
		if got := fit(c.s, c.w, 1); len(got) != 1 || got[0] != c.want {
			t.Errorf("fit(%q, %d): %q, want %q", c.s, c.w, got, c.want)
		}
	}
}

// TestPanelWhole: each line of the parameter panel says what its
// parameter does in the longest of its forms that fits, whole; at 80
// columns the col sample line was cut to "(retrains i…". Only where no
// form fits is the line cut, at the edge, with "…".
func TestPanelWhole(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, key("p"))
	const hint = "  (p hides · ↑↓ select · ←→ step · enter type)"
	for w := 30; w <= 200; w++ {
		m, _ = update(t, m, tea.WindowSizeMsg{Width: w, Height: 48})
		lines := strings.Split(m.View(), "\n")
		top := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "parameters") })
		if top < 0 || top+numParams-lineParams >= len(lines) {
			t.Fatalf("width %d: no panel", w)
		}
		heading := strings.TrimRight(lines[top], " ")
		if want := "parameters" + hint; heading != want && (lipgloss.Width(want) <= w || heading != "parameters") {
			t.Errorf("width %d: heading %q", w, heading)
		}
		for i := lineParams; i < numParams; i++ {
			line := strings.TrimRight(lines[top+1+i-lineParams], " ")
			if lipgloss.Width(line) > w {
				t.Fatalf("width %d: %q is wider", w, line)
			}
			// The description starts at column 22, after the item.
			var want string
			for _, f := range paramWhat[i] {
				if 22+lipgloss.Width(f) <= w {
					want = f
					break
				}
			}
			switch {
			case want == "" && (!strings.HasSuffix(line, "…") || lipgloss.Width(line) != w):
				t.Errorf("width %d: no form fits, and %q is not cut at the edge", w, line)
			case want != "" && !strings.HasSuffix(line, "  "+want) && !strings.HasSuffix(line, "] "+want):
				t.Errorf("width %d: %q, want it to end in %q", w, line, want)
			}
		}
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	v := m.View()
	if !slices.Contains(strings.Split(v, "\n"), fit("   col sample 1       feature share per tree (retrains it)", 80, 1)[0]) {
		t.Errorf("80x24: the col sample line is not the short form, whole:\n%s", v)
	}
}

// TestLongErrorWraps: an error too long for the status line is wrapped on
// up to three lines, taken from the body, so that it can be read whole; a
// bad file loaded at 80 columns showed "…/bad.txt:2: feature 2: va". The
// screen keeps its size, its params line and its key line. A message that
// is not an error keeps to one line.
func TestLongErrorWraps(t *testing.T) {
	m := ready(t)
	long := "not loaded (this session goes on): /home/someone/data/MSLR-WEB10K/Fold1/train.txt:1042: feature 137: value \"x\" is not a number; expected a finite number"
	huge := strings.Repeat(long+" ", 3)
	for _, c := range []struct {
		w, h  int
		msg   string
		isErr bool
		lines int  // status lines expected
		cut   bool // the error does not fit in them
	}{
		{80, 24, long, true, 3, false}, // the path is a word of its own
		{120, 40, long, true, 2, false},
		{200, 60, long, true, 1, false},
		{80, 24, huge, true, 3, true},
		{80, 24, long, false, 1, true},
		{80, 4, long, true, 2, true}, // one body row to spare
	} {
		mm, _ := update(t, m, tea.WindowSizeMsg{Width: c.w, Height: c.h})
		mm.setStatus(c.msg, c.isErr)
		lines := strings.Split(mm.View(), "\n")
		if len(lines) != c.h {
			t.Errorf("%dx%d: %d lines", c.w, c.h, len(lines))
			continue
		}
		for i, l := range lines {
			if lipgloss.Width(l) > c.w {
				t.Errorf("%dx%d: line %d is %d wide", c.w, c.h, i, lipgloss.Width(l))
			}
		}
		if !strings.HasPrefix(lines[c.h-1], "q quit") {
			t.Errorf("%dx%d: the last line is not the key line: %q", c.w, c.h, lines[c.h-1])
		}
		params := c.h - 2 - c.lines
		if !strings.HasPrefix(lines[params], "params ") {
			t.Errorf("%dx%d: line %d is not the params line (status on %d lines): %q", c.w, c.h, params, c.lines, lines[params])
			continue
		}
		status := make([]string, c.lines)
		for i, l := range lines[params+1 : c.h-1] {
			status[i] = strings.TrimRight(l, " ")
		}
		got := strings.Join(status, " ")
		switch {
		case c.cut:
			// The lines shown are the message's start, the last cut with "…".
			start := strings.TrimSuffix(got, "…")
			if !strings.HasSuffix(got, "…") || !strings.HasPrefix(c.msg, start) || len(start) < len(got)/2 {
				t.Errorf("%dx%d: a message too long is not its start and …: %q", c.w, c.h, got)
			}
		case got != c.msg && !strings.HasPrefix(got, c.msg+" │ "): // the run's status may follow
			t.Errorf("%dx%d: the error reads %q", c.w, c.h, got)
		}
	}
}

// retraining is a ready workbench whose base ensemble retrains after a
// trees edit in the parameter panel.
func retraining(t *testing.T) Model {
	t.Helper()
	m := ready(t)
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("right"))
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	return m
}

// TestStatusPartsWhole: the status line's notes and message are left out
// whole when they do not all fit, the training's ETA first, never cut: at
// 80 columns, paused while the base ensemble trained, the line ended in
// "· ETA 400m…".
func TestStatusPartsWhole(t *testing.T) {
	m := retraining(t)
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	m, _ = update(t, m, trainMsg{gen: m.gen, ev: job.Event[boost.Snapshot, *boost.Result]{
		Progress: job.Progress{Phase: "training", Done: 1512, Total: 3000, ETA: 400 * time.Millisecond}}})
	const paused, trained, eta = "next run starts paused", "training the base ensemble: 1512 of 3000 trees", "ETA 400ms"
	const trainedShort = "training: 1512 of 3000 trees"
	msg := m.status
	all := []string{paused, trained, eta, msg}
	for w := 30; w <= 200; w++ {
		m, _ = update(t, m, tea.WindowSizeMsg{Width: w, Height: 24})
		line := statusOf(m)
		if lipgloss.Width(line) > w || strings.HasSuffix(line, "…") {
			t.Fatalf("width %d: %q is cut", w, line)
		}
		// The parts shown are some of all, in their order, the pause first;
		// the training's note may be in fewer words (beside the message,
		// which goes after it).
		got, next := strings.Split(line, " · "), 0
		for _, p := range got {
			if p == trainedShort {
				p = trained
			}
			i := slices.Index(all[next:], p)
			if i < 0 {
				t.Fatalf("width %d: %q in %q is not a whole part, in order", w, p, line)
			}
			next += i + 1
		}
		if got[0] != paused {
			t.Errorf("width %d: %q does not begin with the pause", w, line)
		}
		if whole := strings.Join(all, " · "); lipgloss.Width(whole) <= w && line != whole {
			t.Errorf("width %d: %q, want all of %q", w, line, whole)
		}
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if s, want := statusOf(m), paused+" · "+trained; s != want {
		t.Errorf("80 columns: %q, want %q", s, want)
	}
}

// TestErrorBesideShortTraining: an error while the base ensemble trains
// stays on the status line when the training's note in fewer words leaves
// room for it; it was wrapped onto two lines, taking a row from the panes,
// beside the note in full ("…ETA 200ms · col sample must be in" / "(0, 1]").
func TestErrorBesideShortTraining(t *testing.T) {
	m := retraining(t)
	m, _ = update(t, m, trainMsg{gen: m.gen, ev: job.Event[boost.Snapshot, *boost.Result]{
		Progress: job.Progress{Phase: "training", Done: 1512, Total: 3000, ETA: 200 * time.Millisecond}}})
	const msg = "col sample must be in (0, 1]; edit it again"
	m.setStatus(msg, true)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if got, want := statusOf(m), "training: 1512 of 3000 trees · "+msg; got != want {
		t.Errorf("80 columns: status line %q, want %q", got, want)
	}
	if lines := m.errorLines(80, 5); lines != nil {
		t.Errorf("the error is wrapped: %q", lines)
	}
	// Where the note in full fits beside it, it stays in full.
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 48})
	if got := statusOf(m); !strings.HasPrefix(got, "training the base ensemble: 1512 of 3000 trees · ETA 200ms · "+msg) {
		t.Errorf("160 columns: status line %q", got)
	}
}

// TestErrorPathWhole: a path in an error too wide for a line of its own is
// shortened from the left to whole names, not cut in pieces: a bad file
// picked on the load screen at 80 columns showed ".../another-quite-long-
// directory/F" and "old1/bad-train.txt:2: ...", and the last line lost
// the end of the reason. A path that fits on a line stays whole.
func TestErrorPathWhole(t *testing.T) {
	m := ready(t)
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 30)
	const why = `feature 2: value "x" is not a number; expected a finite number`
	cases := []struct {
		path string
		w    int
		want []string
	}{
		// 95 cells: "…" and its end from the "/" before b… (55 cells).
		{"/" + a + "/" + b + "/Fold1/bad-train.txt", 80, []string{
			"not loaded (this session goes on):",
			"…/" + b + `/Fold1/bad-train.txt:2: feature 2: value "x" is`,
			"not a number; expected a finite number"}},
		// 74 cells: whole on a line of its own.
		{"/" + b + "/" + b + "/Fold1/x.txt", 80, []string{
			"not loaded (this session goes on):",
			"/" + b + "/" + b + "/Fold1/x.txt:2:",
			why}},
	}
	for _, c := range cases {
		mm, _ := update(t, m, tea.WindowSizeMsg{Width: c.w, Height: 24})
		mm.setStatus("not loaded (this session goes on): "+c.path+":2: "+why, true)
		lines := strings.Split(mm.View(), "\n")
		got := lines[len(lines)-1-len(c.want) : len(lines)-1]
		for i := range got {
			got[i] = strings.TrimRight(got[i], " ")
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s at %d columns: status lines\n%q\nwant\n%q", c.path, c.w, got, c.want)
		}
	}
}

// The help's scroll hint names the lines shown: a range, or the one line
// when a single row is left for them; without "lines" where the hint does
// not fit whole.
func TestScrollHelpHint(t *testing.T) {
	help := "a\nb\nc\nd\ne"
	for _, c := range []struct {
		top, h, w int
		want      string
	}{
		{0, 3, 80, "lines 1-2 of 5"},
		{1, 3, 80, "lines 2-3 of 5"},
		{0, 2, 80, "line 1 of 5"},
		{4, 2, 80, "line 5 of 5"},
		{1, 3, 27, "  2-3 of 5"},
		{4, 2, 24, "  5 of 5"},
		{1, 3, 20, "2-3/5 ↑↓"},
		{1, 3, 8, "2-3/5 ↑↓"},
		{1, 3, 7, "↑↓"},
		{1, 3, 3, "↑↓"},
	} {
		got := scrollHelp(help, c.top, c.h, c.w)
		rows := strings.Split(got, "\n")
		if len(rows) != c.h || !strings.HasSuffix(rows[c.h-1], c.want) && !strings.Contains(rows[c.h-1], c.want+" ·") || lipgloss.Width(rows[c.h-1]) > max(c.w, 2) {
			t.Errorf("top %d, %d rows: %q, want %d rows ending with %q", c.top, c.h, got, c.h, c.want)
		}
	}
}

// TestHelpSaysFullLayoutSize: the help's and README's pane keys give the
// sizes from which every pane is on one screen, as the view lays them
// out: with the parameter panel open the one-pane layout holds up to
// 120×49, which the help left out ("below 120×40").
func TestHelpSaysFullLayoutSize(t *testing.T) {
	m := ready(t)
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	help := strings.Join(strings.Fields(m.helpView(400)), " ")
	for _, panel := range []bool{false, true} {
		m.panel = panel
		tabs := func(w, h int) bool {
			m, _ := update(t, m, tea.WindowSizeMsg{Width: w, Height: h})
			return strings.Contains(m.View(), "[1 objective]")
		}
		h := 10 // room for the tabs, and for the panel
		for tabs(fullWidth, h) {
			h++
		}
		if !tabs(fullWidth-1, h) {
			t.Fatalf("panel %v: one screen at %d×%d", panel, fullWidth-1, h)
		}
		size := fmt.Sprintf("%d×%d", fullWidth, h)
		if !strings.Contains(help, size) || !strings.Contains(string(readme), size) {
			t.Errorf("panel %v: every pane on one screen from %s, which the help (%v) or README (%v) does not say", panel, size, strings.Contains(help, size), strings.Contains(string(readme), size))
		}
	}
}

// TestHelpListsLoadWarnings: the help lists every warning of the last
// load; the status line shows the first and says "? lists them" (it sent
// the user to the data screen, which no key brings back once the session
// runs).
func TestHelpListsLoadWarnings(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	m.screen.Warnings = []string{"m.json has features up to 46, and 47 are expected; feature 47 reads as 0 for every document", "costs.txt: the cost of feature 46 is not used"}
	v := m.helpView(60)
	if !strings.Contains(v, "warnings of the last load") || !strings.Contains(v, "  • costs.txt: the cost of feature 46 is not used") || !strings.Contains(v, "  • m.json has features up to 46") {
		t.Errorf("help lacks the load's warnings:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if lipgloss.Width(l) > 60 {
			t.Errorf("help line wider than 60: %q", l)
		}
	}
	m.screen.Warnings = nil
	if strings.Contains(m.helpView(60), "warnings of the last load") {
		t.Error("help lists warnings when the load had none")
	}
}

// TestLongErrorLeavesPanesWhole: the rows an error wrapped onto more than
// one line takes from the body are taken before the panes are drawn, so
// that each pane fits whole in what is left. They were cut from the
// bottom of the drawn body: at 120×40 a bad file's error hid the stage
// table's last row, the stage being optimised (▸10) among them, and at
// 80×24 the objective pane's legend lost "× feature cost".
func TestLongErrorLeavesPanesWhole(t *testing.T) {
	m := ready(t)
	m.snap.Phase = "optimising"
	m.snap.Stage = len(m.snap.Stages) - 1
	last := fmt.Sprintf("▸%d ", len(m.snap.Stages))
	long := "not loaded (this session goes on; o reopens its files): /home/someone/data/MSLR-WEB10K/Fold1/train.txt:1042: feature 137: value \"x\" is not a number; expected a finite number"
	for _, c := range []struct {
		w, h int
		pane int
		want string
	}{
		{120, 40, paneObjective, last},
		{80, 24, paneStages, last},
		{80, 24, paneObjective, "× feature cost"},
	} {
		mm, _ := update(t, m, tea.WindowSizeMsg{Width: c.w, Height: c.h})
		mm.pane = c.pane
		if v := mm.View(); !strings.Contains(v, c.want) {
			t.Fatalf("%dx%d pane %d without an error lacks %q:\n%s", c.w, c.h, c.pane, c.want, v)
		}
		mm.setStatus(long, true)
		if n := len(mm.errorLines(c.w, c.h)); n < 2 {
			t.Fatalf("%dx%d: the error is on %d lines", c.w, c.h, n)
		}
		v := mm.View()
		if !strings.Contains(v, c.want) {
			t.Errorf("%dx%d pane %d under a long error lacks %q:\n%s", c.w, c.h, c.pane, c.want, v)
		}
		if full := strings.Contains(v, "fraction of inputs reaching"); full != (c.w >= fullWidth) {
			t.Errorf("%dx%d: the error changed the layout (all panes shown: %v)", c.w, c.h, full)
		}
		if lines := strings.Split(v, "\n"); len(lines) != c.h {
			t.Errorf("%dx%d: %d lines", c.w, c.h, len(lines))
		}
	}
}

// TestKeyLineTabOnlyWithTabs: the key line offers tab only where the panes
// are shown one at a time; at 200×60, every pane on screen, it offered
// "tab pane", which switched none that shows. With the parameter panel
// open the full layout needs more rows, and tab is offered again below them.
func TestKeyLineTabOnlyWithTabs(t *testing.T) {
	m := ready(t)
	for _, c := range []struct {
		w, h  int
		panel bool
		tab   bool
	}{
		{200, 60, false, false},
		{200, 30, false, true},
		{200, 45, true, true},
		{200, 60, true, false},
		// At 80 columns the line keeps few keys: tab, the way to the
		// other panes there, went first.
		{80, 24, false, true},
		{80, 24, true, true},
	} {
		mm, _ := update(t, m, tea.WindowSizeMsg{Width: c.w, Height: c.h})
		mm.panel = c.panel
		lines := strings.Split(mm.View(), "\n")
		keys := lines[len(lines)-1]
		if c.w >= 200 && !strings.Contains(keys, "o open") {
			t.Fatalf("%dx%d: the key line is short of the wide form: %q", c.w, c.h, keys)
		}
		if got := strings.Contains(keys, "tab pane"); got != c.tab {
			t.Errorf("%dx%d (panel %v): key line %q, want tab offered: %v", c.w, c.h, c.panel, keys, c.tab)
		}
		if tabs := strings.Contains(lines[0], "[1 objective]"); tabs != c.tab {
			t.Errorf("%dx%d (panel %v): tab bar shown %v, tab offered %v", c.w, c.h, c.panel, tabs, c.tab)
		}
	}
}

// TestHelpShowsErrorWhole: an error too long for the lines the status
// line gives it is cut there with "…" (and its paths shortened); the help
// shows it whole, last, so that it can be read somewhere.
func TestHelpShowsErrorWhole(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	long := "not loaded (this session goes on; o reopens its files): /home/someone/data/MSLR-WEB10K/Fold1/train.txt:1042: feature 137: value \"x\" is not a number; expected a finite number, and this message goes on past what three lines of forty cells hold"
	m.setStatus(long, true)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 40, Height: 24})
	if v := m.View(); strings.Contains(strings.Join(strings.Fields(v), " "), "forty cells hold") {
		t.Fatalf("the status line shows the error whole; the test wants it cut:\n%s", v)
	}
	help := m.helpView(40)
	at := strings.Index(help, "\nthe error on the status line\n\n")
	if at < 0 || !strings.Contains(help[:at], "warnings of the last load") && !strings.Contains(help[:at], "quit") {
		t.Fatalf("the help does not end with the error:\n%s", help)
	}
	var got string
	for _, l := range strings.Split(help[at:], "\n")[3:] {
		if lipgloss.Width(l) > 40 {
			t.Errorf("help line wider than 40: %q", l)
		}
		got += strings.ReplaceAll(l, " ", "")
	}
	if want := strings.ReplaceAll(long, " ", ""); got != want {
		t.Errorf("the help's error, spaces left out:\n%s\nwant:\n%s", got, want)
	}
	m.setStatus("loaded builtin:mq2008/train", false)
	if strings.Contains(m.helpView(40), "the error on the status line") {
		t.Error("the help shows an error section with no error")
	}
}

// TestHelpLoadWarningOnce: the first warning of a load, on the status line
// in red, is one of the warnings the help lists under "warnings of the last
// load"; the help listed it a second time under "the error on the status
// line", a heading that called a warning an error.
func TestHelpLoadWarningOnce(t *testing.T) {
	wide := *ready(t).w.e
	wide.NumFeatures = 60
	m, _ := fromModel(t, &wide, "")
	if len(m.screen.Warnings) < 2 || !strings.HasPrefix(m.status, "warning: ") {
		t.Fatalf("warnings %q, status %q: want a load with warnings", m.screen.Warnings, m.status)
	}
	help := m.helpView(200)
	if strings.Contains(help, "the error on the status line") {
		t.Errorf("the help lists the load's warning as the error on the status line:\n%s", help)
	}
	if n := strings.Count(help, m.screen.Warnings[0]); n != 1 {
		t.Errorf("the help lists the first warning %d times, want once:\n%s", n, help)
	}
	// An error after it is shown whole, as before.
	m.setStatus("s: cannot write ./cronus-cascade.json: permission denied", true)
	if help := m.helpView(200); !strings.Contains(help, "the error on the status line") || !strings.Contains(help, "permission denied") {
		t.Errorf("the help lacks the error on the status line:\n%s", help)
	}
}
