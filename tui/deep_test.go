package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// TestDeepModelSaid: an imported ensemble of deep trees (LightGBM's
// lambdarank fixture, 15 leaves, up to depth 12) is named on the screen
// by its own depth while the problem is built, and the params line says
// for as long as it is the base ensemble that shallow trees cascade far
// better; the workbench's own depth-2 trees get no such note. The line
// said "100 depth-4 trees of 15 leaves", the depth the workbench would
// grow 15 leaves to, and nothing once the run had started.
func TestDeepModelSaid(t *testing.T) {
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
