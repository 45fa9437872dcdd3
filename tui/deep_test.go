package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/tree"
	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// deepModel is an imported ensemble of deep trees (LightGBM's lambdarank
// fixture, 15 leaves) and its deepest tree's depth, found from the trees.
func deepModel(t *testing.T) (*tree.Ensemble, int) {
	t.Helper()
	e, _, err := tree.ImportFile("lightgbm", "../engine/tree/testdata/lgb-lambdarank.model.txt")
	if err != nil {
		t.Fatal(err)
	}
	depth := 0
	for i := range e.Trees {
		depth = max(depth, e.Trees[i].Depth())
	}
	if depth <= baseDepth {
		t.Fatalf("fixture trees of depth %d are not deep", depth)
	}
	return e, depth
}

// TestDeepModelSaid: an imported ensemble of deep trees (LightGBM's
// lambdarank fixture, 15 leaves, up to depth 12) is named on the screen
// by its own depth while the problem is built, and the params line says
// for as long as it is the base ensemble that shallow trees cascade far
// better; the workbench's own depth-2 trees get no such note. The line
// said "100 depth-4 trees of 15 leaves", the depth the workbench would
// grow 15 leaves to, and nothing once the run had started.
func TestDeepModelSaid(t *testing.T) {
	e, depth := deepModel(t)
	m, cmd := fromModel(t, e, "")
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	head := fmt.Sprintf("base ensemble: %d trees of up to %d leaves, depth %d", len(e.Trees), maxLeaves(e), depth)
	if v := m.View(); !strings.Contains(v, head) {
		t.Errorf("while the problem is built, no %q:\n%s", head, v)
	}
	m = drive(t, m, cmd, firstEvent)
	note := fmt.Sprintf("depth-%d base trees: depth 2 cascades far better (p: leaves 4)", depth)
	if line := m.paramsLine(200); !strings.Contains(line, note) {
		t.Errorf("params line %q lacks %q", line, note)
	}
	m.stopRun()
	m = typeParam(t, m, parLeaves, "4")
	if line := m.paramsLine(200); strings.Contains(line, "depth") {
		t.Errorf("after a retrain at 4 leaves: params line %q", line)
	}
	if line := ready(t).paramsLine(200); strings.Contains(line, "depth") {
		t.Errorf("the workbench's own trees: params line %q", line)
	}
}

// TestParamsLineNarrowNotes: on a params line too narrow for the
// parameters and the notes, the notes (deep base trees, too many
// positives) stay in their short forms, beside the selected parameter
// and a pending restart, and the other parameters give way first; a
// narrow line dropped both notes while it still showed every parameter,
// and a warning the user needs went unsaid. Where not both fit, the first
// stays.
func TestParamsLineNarrowNotes(t *testing.T) {
	e, depth := deepModel(t)
	m, cmd := fromModel(t, e, "")
	m = drive(t, m, cmd, firstEvent)
	m = typeParam(t, m, parRelevant, "0") // every training document is a positive
	m.panel, m.sel = false, parSigma
	share := fmt.Sprintf("%.0f%% positives (p)", 100*float64(m.w.positives)/float64(m.w.train.NumDocs()))
	deep := fmt.Sprintf("depth-%d base trees (p)", depth)
	for _, pending := range []bool{false, true} {
		if pending {
			m, _ = update(t, m, key("right")) // σ edited, its restart not yet due
		}
		sel := "[" + paramNames[parSigma] + " " + paramValue(m.par, parSigma) + "]"
		mark := "" // the pending restart's shortest note
		if pending {
			mark = " (pending)"
		}
		full := lipgloss.Width(m.paramsLine(400))
		for w := 10; w < full; w++ {
			line := m.paramsLine(w)
			if lipgloss.Width(line) > w || !strings.Contains(line, sel) {
				t.Errorf("width %d (pending %v): %q", w, pending, line)
			}
			if pending && w >= lipgloss.Width(sel+mark) && !strings.Contains(line, "(pending") {
				t.Errorf("width %d: the pending restart is not said: %q", w, line)
			}
			if w >= lipgloss.Width(sel+mark+"  "+deep) && !strings.Contains(line, deep[:len(deep)-len("(p)")]) {
				t.Errorf("width %d (pending %v): no deep-trees note: %q", w, pending, line)
			}
			if w >= lipgloss.Width(sel+mark+"  "+deep+"  "+share) && !strings.Contains(line, share[:len(share)-len("(p)")]) {
				t.Errorf("width %d (pending %v): no positives note: %q", w, pending, line)
			}
		}
	}
}
