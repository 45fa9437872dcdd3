package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/tree"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// driveLimit bounds the tests' loops over a run's commands: a net for a
// loop that never ends, not a speed check. At 60 s it failed a CI run
// (TestFinishedPointsOfEnsemble, 86 s under -race with other work on both
// cores); a command that blocks is the package timeout's to catch.
const driveLimit = 10 * time.Minute

// drive runs cmd and the commands that follow until stop says so.
func drive(t *testing.T, m Model, cmd tea.Cmd, stop func(Model, tea.Msg) bool) Model {
	t.Helper()
	deadline := time.Now().Add(driveLimit)
	for cmd != nil && time.Now().Before(deadline) {
		msg := cmd()
		m, cmd = update(t, m, msg)
		if stop(m, msg) {
			return m
		}
	}
	t.Fatalf("did not get there (phase %d, error %q, status %q)", m.phase, m.screen.Err, m.status)
	return m
}

// firstEvent is the run's first snapshot (not Algorithm 2's progress,
// which leaves m.snap as it was).
func firstEvent(m Model, msg tea.Msg) bool {
	o, ok := msg.(optMsg)
	return ok && !inInit(o.ev.Progress) && len(m.snap.Stages) > 0
}

// fromModel opens the workbench on MQ2008 with e as its model file (in
// path, or a temporary file when path is ""), up to the loaded data: the
// command it returns prepares the problem.
func fromModel(t *testing.T, e *tree.Ensemble, path string) (Model, tea.Cmd) {
	t.Helper()
	cfg := mq2008
	cfg.Model = writeModel(t, e, path)
	m := New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	return update(t, m, m.load())
}

// writeModel writes e as a model file to path, or to a temporary file
// when path is "", and returns the path.
func writeModel(t *testing.T, e *tree.Ensemble, path string) string {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "m.json")
	}
	if err := tree.WriteModel(path, tree.NewModel(e, "test", map[string]any{"written_by": "the tui tests"})); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPanelRhoEditRestarts(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 48})
	if strings.Contains(m.View(), "ω⁺") {
		t.Fatal("the panel is shown before p")
	}
	m, _ = update(t, m, key("p"))
	v := m.View()
	for _, want := range []string{"parameters", "ρ 0.02", "ω⁺ 3.5", "δ 1.3", "relevant ≥ 1", "trees 20", "leaves 4", "col sample 1", "params"} {
		if !strings.Contains(v, want) {
			t.Errorf("panel lacks %q:\n%s", want, v)
		}
	}
	for range parRho {
		m, _ = update(t, m, key("down"))
	}
	if m.sel != parRho {
		t.Fatalf("selected %d, want ρ (%d)", m.sel, parRho)
	}
	gen := m.gen
	m, cmd := update(t, m, key("right"))
	if cmd == nil || m.par.Rho1 != 0.03 || m.par.RhoK != 0.03 {
		t.Fatalf("ρ stepped to %g, %g", m.par.Rho1, m.par.RhoK)
	}
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	if m.gen != gen+1 || cmd == nil || m.runPar.Rho1 != 0.03 {
		t.Fatalf("ρ edit: generation %d → %d, run ρ %g", gen, m.gen, m.runPar.Rho1)
	}
	if started, ok := cmd().(optStartedMsg); !ok || started.gen != gen+1 {
		t.Fatalf("restart gave %T", started)
	} else {
		started.run.cancel()
	}
	// Hiding the panel moves the selection back to the params line.
	m, _ = update(t, m, key("p"))
	if m.panel || m.sel != parLambda || strings.Contains(m.View(), "ω⁺") {
		t.Errorf("p did not hide the panel (sel %d)", m.sel)
	}
}

func TestPanelInvalidRefused(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("p"))
	cases := []struct {
		sel   int
		input string
		want  string
	}{
		{parTrees, "0", "trees must be in [1, 10000]"},
		{parTrees, "100000000", "trees must be in [1, 10000]"},
		{parTrees, "2.5", "not a whole number"},
		{parLeaves, "1", "leaves must be in [2, 4096]"},
		{parLeaves, "4611686018427387905", "leaves must be in [2, 4096]"}, // hung the depth search
		{parRho, "-0.1", "ρ must be in [0, 100]"},
		{parRho, "1e300", "ρ must be in [0, 100]"},
		{parDelta, "0.9", "δ must be in [1, 10]"},
		{parPosWeight, "0", "ω⁺ must be in (0, 1e6]"},
		{parRelevant, "x", "not a number"},
		{parColSample, "0", "col sample must be in (0, 1]"},
		{parColSample, "-0.2", "col sample must be in (0, 1]"},
		{parColSample, "1.5", "col sample must be in (0, 1]"},
		{parColSample, "NaN", "not a number"},
		{parColSample, "e", "not a number"},
		{parTrees, "99999999999999999999", "trees must be in [1, 10000]"}, // was "is not a whole number"
		{parRelevant, "1e999", `relevant ≥: "1e999" is too large`},        // was "is not a number"
		{parRelevant, "-1e999", `relevant ≥: "-1e999" is too small`},      // was "is too large"
		{parRelevant, "-Inf", "not a number"},
	}
	for _, c := range cases {
		m.sel = c.sel
		par := m.par
		m, _ = update(t, m, key("enter"))
		m, _ = update(t, m, key(c.input))
		var cmd tea.Cmd
		m, cmd = update(t, m, key("enter"))
		if cmd != nil || m.par != par || m.editing {
			t.Errorf("%s = %q accepted", paramNames[c.sel], c.input)
		}
		if !strings.Contains(m.status, c.want) || !strings.Contains(m.View(), c.want) {
			t.Errorf("%s = %q: status %q, want %q", paramNames[c.sel], c.input, m.status, c.want)
		}
	}
	m.sel, m.par.leaves = parLeaves, 2
	if m, cmd := update(t, m, key("left")); cmd != nil || m.par.leaves != 2 {
		t.Errorf("leaves stepped to %d", m.par.leaves)
	}
	// The column sample steps by 0.1 within (0, 1]: not above 1, not to 0.
	m.sel = parColSample
	if m, cmd := update(t, m, key("right")); cmd != nil || m.par.colSample != 1 || !strings.Contains(m.status, "col sample must be in (0, 1]") {
		t.Errorf("col sample stepped to %g (status %q)", m.par.colSample, m.status)
	}
	m.par.colSample = 0.1
	if m, cmd := update(t, m, key("left")); cmd != nil || m.par.colSample != 0.1 || !strings.Contains(m.status, "col sample must be in (0, 1]") {
		t.Errorf("col sample stepped to %g (status %q)", m.par.colSample, m.status)
	}
}

func TestPanelColSampleSteps(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("p"))
	for range parColSample {
		m, _ = update(t, m, key("down"))
	}
	if m.sel != parColSample || m.par.colSample != 1 {
		t.Fatalf("selected %d (col sample %g), want col sample (%d) at 1", m.sel, m.par.colSample, parColSample)
	}
	edits := m.edits
	for _, want := range []float64{0.9, 0.8, 0.7} {
		var cmd tea.Cmd
		m, cmd = update(t, m, key("left"))
		if cmd == nil || m.par.colSample != want || m.status != "col sample = "+formatFloat(want) {
			t.Fatalf("col sample stepped to %g (status %q), want %g", m.par.colSample, m.status, want)
		}
	}
	m, _ = update(t, m, key("right"))
	if m.par.colSample != 0.8 || m.edits != edits+4 {
		t.Errorf("col sample stepped up to %g after %d edits", m.par.colSample, m.edits-edits)
	}
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("0.25"))
	m, cmd := update(t, m, key("enter"))
	if cmd == nil || m.par.colSample != 0.25 || m.editing {
		t.Errorf("typed col sample %g", m.par.colSample)
	}
	if v := m.View(); !strings.Contains(v, "col sample 0.25") {
		t.Errorf("panel lacks the typed col sample:\n%s", v)
	}
}

func TestPanelColSampleRetrains(t *testing.T) {
	m := ready(t)
	if m.w.colSample != 1 || trainParams(m.w.trees, m.w.leaves, m.w.colSample, m.w.objective).ColSample != 1 {
		t.Fatalf("default column sample %g, want 1", m.w.colSample)
	}
	if v := m.View(); strings.Contains(v, "column sample") {
		t.Errorf("column sample 1 shown:\n%s", v)
	}
	m.panel, m.sel = true, parColSample
	// Two edits inside the debounce: only the latest retrains.
	m, _ = update(t, m, key("left"))
	first := m.edits
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("0.02"))
	m, _ = update(t, m, key("enter"))
	gen := m.gen
	m, cmd := update(t, m, debounceMsg{edit: first})
	if cmd != nil || m.gen != gen || m.phase != phaseReady {
		t.Fatalf("a stale debounce retrained (generation %d → %d, phase %d)", gen, m.gen, m.phase)
	}
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining || cmd == nil || m.gen != gen+1 || m.w.colSample != 0.02 {
		t.Fatalf("col sample edit: phase %d, generation %d → %d, training with col sample %g", m.phase, gen, m.gen, m.w.colSample)
	}
	if p := trainParams(m.w.trees, m.w.leaves, m.w.colSample, m.w.objective); p.ColSample != 0.02 || p.Trees != 20 {
		t.Errorf("training params: col sample %g, %d trees", p.ColSample, p.Trees)
	}
	if v := m.View(); !strings.Contains(v, "base ensemble: 20 depth-2 trees of 4 leaves, column sample 0.02") {
		t.Errorf("retraining view:\n%s", v)
	}
	// An event of the replaced generation is dropped.
	if m2, cmd := update(t, m, trainMsg{gen: gen, ev: job.Event[boost.Snapshot, *boost.Result]{Final: true, Err: errors.New("stale")}}); cmd != nil || m2.phase != phaseTraining {
		t.Errorf("a stale training event was taken (phase %d)", m2.phase)
	}
	m = drive(t, m, cmd, firstEvent)
	// 0.02 of MQ2008's 46 features is one feature per tree: every tree of
	// the retrained ensemble splits on at most one.
	if len(m.w.e.Trees) != 20 || m.w.colSample != 0.02 {
		t.Fatalf("retrained %d trees with col sample %g", len(m.w.e.Trees), m.w.colSample)
	}
	for i := range m.w.e.Trees {
		if fs := m.w.e.Trees[i].Features(); len(fs) > 1 {
			t.Errorf("tree %d splits on features %v with col sample 0.02", i, fs)
		}
	}
	if m.runPar.colSample != 0.02 || m.par != m.runPar {
		t.Errorf("running with col sample %g", m.runPar.colSample)
	}
}

func TestPanelRebuildAndRetrain(t *testing.T) {
	m := ready(t)
	// ω⁺ rebuilds the problem, then restarts.
	m.panel, m.sel = true, parPosWeight
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("2"))
	m, _ = update(t, m, key("enter"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phasePreparing || cmd == nil {
		t.Fatalf("ω⁺ edit: phase %d, want preparing", m.phase)
	}
	m = drive(t, m, cmd, firstEvent)
	if m.w.tg.PosWeight != 2 || m.w.pr == nil || m.phase != phaseReady {
		t.Errorf("problem built with ω⁺ %g", m.w.tg.PosWeight)
	}
	// A relevance threshold nothing reaches is refused by the problem; the
	// workbench keeps the one it has.
	m.sel = parRelevant
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("99"))
	m, _ = update(t, m, key("enter"))
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.phase == phaseReady })
	if !m.errLine || !strings.Contains(m.status, "nothing is relevant") || m.par.tg.Relevant != 1 {
		t.Errorf("relevant 99: status %q, threshold %g", m.status, m.par.tg.Relevant)
	}
	m.stopRun()
	// Trees retrain the base ensemble as a job, then restart.
	m.sel = parTrees
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("12"))
	m, _ = update(t, m, key("enter"))
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining || cmd == nil {
		t.Fatalf("trees edit: phase %d, want training", m.phase)
	}
	if v := m.View(); !strings.Contains(v, "base ensemble: 12 depth-2 trees") {
		t.Errorf("retraining view:\n%s", v)
	}
	m = drive(t, m, cmd, firstEvent)
	if len(m.w.e.Trees) != 12 || m.w.tg.PosWeight != 2 {
		t.Errorf("retrained %d trees (ω⁺ %g), want 12", len(m.w.e.Trees), m.w.tg.PosWeight)
	}
}

func TestPauseKeys(t *testing.T) {
	m := ready(t)
	if !m.running {
		t.Fatal("no run under way")
	}
	m, _ = update(t, m, key("n"))
	if !m.errLine || m.gate.isPaused() {
		t.Errorf("n while running: status %q", m.status)
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if !m.paused || !m.gate.isPaused() || !strings.Contains(m.View(), "paused") {
		t.Fatalf("space did not pause:\n%s", m.View())
	}
	m, _ = update(t, m, key("n"))
	if n := m.gate.grantedSteps(); n != 1 { // the running worker may have taken it already
		t.Errorf("n granted %d steps, want 1", n)
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if m.paused || m.gate.isPaused() || strings.Contains(m.View(), "paused") {
		t.Error("space did not resume")
	}
	// q quits while paused.
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if _, cmd := update(t, m, key("q")); cmd == nil || m.ctx.Err() == nil {
		t.Error("q does not quit while paused")
	}
}

func TestModelFlag(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{\n  \"trees\": [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing.json"), bad} {
		cfg := mq2008
		cfg.Model = path
		m := New(context.Background(), cfg, views.PlainStyles())
		m, _ = update(t, m, m.load())
		m, _ = update(t, m, tea.WindowSizeMsg{Width: 200, Height: 30})
		if v := m.View(); m.phase != phaseFailed || !strings.Contains(v, "error:") || !strings.Contains(v, path) {
			t.Errorf("%s: error not shown:\n%s", path, v)
		}
		_, cmd := update(t, m, key("q"))
		if cmd == nil {
			t.Fatal("q returned no command")
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s: q does not quit", path)
		}
	}
	// A good model file skips training.
	src := ready(t)
	m, cmd := fromModel(t, src.w.e, "")
	if m.phase != phasePreparing || m.par.trees != len(src.w.e.Trees) {
		t.Fatalf("--model: phase %d, trees %d", m.phase, m.par.trees)
	}
	m = drive(t, m, cmd, firstEvent)
	if len(m.w.e.Trees) != len(src.w.e.Trees) {
		t.Errorf("optimising %d trees, want the model's %d", len(m.w.e.Trees), len(src.w.e.Trees))
	}
	if len(m.screen.Warnings) > 0 {
		t.Errorf("warnings for a model of the data: %q", m.screen.Warnings)
	}
	// A model of more features than the data has loads, with a warning
	// on the data screen and the status line (it loaded silently).
	wide := *src.w.e
	wide.NumFeatures = 60
	m, _ = fromModel(t, &wide, "")
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 200, Height: 40})
	const want = "builtin:mq2008/train has features up to 46, and 60 are expected; features 47-60 read as 0"
	if v := m.View(); len(m.screen.Warnings) != 4 || !strings.Contains(v, "warning: "+want) || !strings.Contains(m.status, want) {
		t.Errorf("wide model: warnings %q, status %q, view:\n%s", m.screen.Warnings, m.status, v)
	}
}

// The targets switch (enter or a step) rebuilds the problem with graded
// targets: a label-2 document of MQ2008 then aims at 3; a step on, with the
// ensemble's standardised scores (distil); steps go round the three.
func TestPanelTargetsToggle(t *testing.T) {
	m := ready(t)
	m.panel, m.sel = true, parTargets
	if v := m.View(); !strings.Contains(v, "targets binary") {
		t.Fatalf("panel does not show the binary targets:\n%s", v)
	}
	m, _ = update(t, m, key("enter"))
	if m.editing || !m.par.tg.Graded {
		t.Fatalf("enter on targets: editing %v, graded %v", m.editing, m.par.tg.Graded)
	}
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phasePreparing || cmd == nil {
		t.Fatalf("targets edit: phase %d, want preparing", m.phase)
	}
	m = drive(t, m, cmd, firstEvent)
	if !m.w.tg.Graded || m.w.pr == nil {
		t.Fatalf("problem built with graded %v", m.w.tg.Graded)
	}
	seen := map[float32]float64{}
	for i, l := range m.w.train.Labels {
		seen[l] = m.w.pr.Y[i]
	}
	if seen[0] != -1 || seen[1] != 1 || seen[2] != 3 {
		t.Errorf("graded targets by label: %v, want 0→−1, 1→1, 2→3", seen)
	}
	if v := m.View(); !strings.Contains(v, "targets graded") {
		t.Errorf("panel does not show the graded targets:\n%s", v)
	}
	// A step on: the ensemble's standardised scores (cascade --distil),
	// in the order of the ensemble's own training scores.
	m, _ = update(t, m, key("right"))
	if !m.par.tg.Distil || m.par.tg.Graded {
		t.Fatalf("a step on from graded: graded %v, distil %v", m.par.tg.Graded, m.par.tg.Distil)
	}
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, firstEvent)
	if !m.w.tg.Distil || m.w.pr == nil {
		t.Fatalf("problem built with distil %v", m.w.tg.Distil)
	}
	score := m.w.e.Predict(nil, m.w.train.Cols, m.w.train.NumDocs(), -1)
	var mean, ss float64
	for _, y := range m.w.pr.Y {
		mean += y / float64(len(m.w.pr.Y))
	}
	for i, y := range m.w.pr.Y {
		ss += (y - mean) * (y - mean)
		for _, j := range []int{i + 1, i + 7} {
			if j < len(score) && score[i] < score[j]-1e-6 && !(y < m.w.pr.Y[j]) {
				t.Fatalf("docs %d, %d: ensemble scores %g < %g but targets %g, %g", i, j, score[i], score[j], y, m.w.pr.Y[j])
			}
		}
	}
	if sd := math.Sqrt(ss / float64(len(m.w.pr.Y))); math.Abs(mean) > 1e-9 || math.Abs(sd-1) > 1e-9 {
		t.Errorf("distilled targets: mean %g, s.d. %g; want 0 and 1", mean, sd)
	}
	if v := m.View(); !strings.Contains(v, "targets distil") {
		t.Errorf("panel does not show the distilled targets:\n%s", v)
	}
	m, _ = update(t, m, key("right"))
	if m.par.tg.Graded || m.par.tg.Distil {
		t.Error("a step on from distil did not go round to binary")
	}
	m, _ = update(t, m, key("left"))
	m, _ = update(t, m, key("left"))
	if !m.par.tg.Graded || m.par.tg.Distil {
		t.Error("two steps back from binary did not reach graded")
	}
	m.stopRun()
}

// A relevance threshold that makes most documents positives, which the
// method handles badly (cronus.TargetsAdvice), is flagged on the params
// line for as long as it is in force.
func TestPositivesNote(t *testing.T) {
	m := ready(t)
	if v := m.View(); strings.Contains(v, "positives:") {
		t.Fatalf("MQ2008 at label >= 1 (19%% positives) is flagged:\n%s", v)
	}
	setRelevant := func(m Model, r string) Model { return typeParam(t, m, parRelevant, r) }
	m = setRelevant(m, "0")
	if line := m.paramsLine(200); !strings.Contains(line, "100% positives: raise the threshold (p)") {
		t.Errorf("label >= 0: params line %q", line)
	}
	m = setRelevant(m, "1")
	if line := m.paramsLine(200); strings.Contains(line, "positives") {
		t.Errorf("back at label >= 1: params line %q", line)
	}
}

// enterParam selects parameter i (the panel open), types v and enters it,
// before the edit's debounce delay has passed.
func enterParam(t testing.TB, m Model, i int, v string) Model {
	t.Helper()
	m.panel, m.sel = true, i
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key(v))
	m, _ = update(t, m, key("enter"))
	return m
}

// typeParam types v into parameter i of the panel and applies it at once
// (no debounce wait), up to the first event of the run that follows.
func typeParam(t *testing.T, m Model, i int, v string) Model {
	t.Helper()
	m = enterParam(t, m, i, v)
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	return drive(t, m, cmd, firstEvent)
}

// TestParamsLineWhole: the params line's notes go whole: at 80 columns
// the positives note was cut to "100% positives: raise the threshold …".
// A narrow line gives the positives note short; the note of a pending
// edit goes in a shorter form (it went before the positives note, and
// with no positives note it was cut at the edge); then the line's label
// and the parameters other than the selected one give way to the pending
// note and the positives note (TestParamsLineNarrowPending, TestParamsLineNarrowNotes).
func TestParamsLineWhole(t *testing.T) {
	m := typeParam(t, ready(t), parRelevant, "0")
	m.panel, m.sel = false, parLambda
	const long, short, pending = "  100% positives: raise the threshold (p)", "  100% positives (p)", "  (pending restart)"
	for _, edit := range []bool{false, true} {
		// The notes' forms beside the whole parameters, the one that
		// should show first; narrower, the parameters give way.
		tails, narrow := []string{long, short}, short
		if edit {
			m, _ = update(t, m, key("right")) // λ edited, its restart not yet due
			tails, narrow = []string{pending + long, pending + short, " (pending)" + long, " (pending)" + short}, " (pending)"+short
		}
		paramsAt := func(w int) string {
			m, _ := update(t, m, tea.WindowSizeMsg{Width: w, Height: 24})
			lines := strings.Split(m.View(), "\n")
			return strings.TrimRight(lines[len(lines)-3], " ")
		}
		// The parameters as the widest line shows them, before its notes.
		params, _, _ := strings.Cut(paramsAt(400), pending)
		params, _, _ = strings.Cut(params, long)
		if !strings.HasPrefix(params, "params ") || !strings.HasSuffix(paramsAt(400), long) {
			t.Fatalf("edit %v: at 400 columns %q", edit, paramsAt(400))
		}
		for w := lipgloss.Width(params); w <= 200; w++ {
			var want string
			for _, tail := range tails {
				if lipgloss.Width(params+tail) <= w {
					want = params + tail
					break
				}
			}
			line := paramsAt(w)
			if want == "" {
				// Its label "params" goes first, then parameters.
				if !strings.HasSuffix(line, narrow) || strings.HasPrefix(line, "params") {
					t.Errorf("width %d (edit %v): %q, want the parameters without their label and %q", w, edit, line, narrow)
				}
				continue
			}
			if line != strings.TrimRight(want, " ") {
				t.Errorf("width %d (edit %v): %q, want %q", w, edit, line, want)
			}
		}
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	lines := strings.Split(m.View(), "\n")
	if line := strings.TrimRight(lines[len(lines)-3], " "); !strings.HasSuffix(line, pending+short) {
		t.Errorf("80x24 after a λ edit: %q", line)
	}
}

// TestAbsentFiles: the workbench reads a sparse file's left-out features
// as 0 and warns when an XGBoost model would take them as missing, and as
// missing (NaN) with Config.AbsentMissing, without the warning.
func TestAbsentFiles(t *testing.T) {
	e, params, err := tree.ImportFile("xgboost", "../engine/tree/testdata/xgb-sparse.json")
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "m.json")
	if err := tree.WriteModel(model, tree.NewModel(e, "xgboost", params)); err != nil {
		t.Fatal(err)
	}
	const sparse = "../engine/tree/testdata/mq2008-test-sparse.txt.gz"
	for _, missing := range []bool{false, true} {
		cfg := Config{Train: sparse, Valid: sparse, Costs: "builtin:mq2008/costs", Model: model, AbsentMissing: missing}
		msg, ok := loadFiles(context.Background(), cfg, nil).(loadedMsg)
		if !ok || msg.err != nil {
			t.Fatalf("missing %v: %v", missing, msg.err)
		}
		warned := 0
		for _, w := range msg.warnings {
			if strings.Contains(w, "--absent missing reads them as XGBoost does") {
				warned++
			}
		}
		nan := 0
		for _, c := range msg.train.Cols {
			for _, v := range c {
				if v != v {
					nan++
				}
			}
		}
		if missing && (warned != 0 || int64(nan) != msg.train.Absent) || !missing && (warned != 2 || nan != 0) {
			t.Errorf("missing %v: %d warnings %q, %d NaN values of %d absent", missing, warned, msg.warnings, nan, msg.train.Absent)
		}
	}
}

// TestLibsvmReaderFiles: a model XGBoost trained on its own libsvm reader,
// imported without --libsvm-indices, gets the note that says how to
// import it, as cronus cascade gives it; with the flag, none.
func TestLibsvmReaderFiles(t *testing.T) {
	const note = "this XGBoost model has one feature more than builtin:mq2008/train (46) and never splits on feature 1"
	for _, libsvm := range []bool{false, true} {
		e, params, err := tree.ImportFileWith("xgboost", "../engine/tree/testdata/xgb-libsvm.json", tree.ImportOptions{LibSVMIndices: libsvm})
		if err != nil {
			t.Fatal(err)
		}
		model := filepath.Join(t.TempDir(), "m.json")
		if err := tree.WriteModel(model, tree.NewModel(e, "xgboost", params)); err != nil {
			t.Fatal(err)
		}
		cfg := Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Costs: "builtin:mq2008/costs", Model: model}
		msg, ok := loadFiles(context.Background(), cfg, nil).(loadedMsg)
		if !ok || msg.err != nil {
			t.Fatalf("libsvm %v: %v", libsvm, msg.err)
		}
		noted := 0
		for _, w := range msg.warnings {
			if strings.HasPrefix(w, note) {
				noted++
			}
		}
		if want := map[bool]int{false: 1, true: 0}[libsvm]; noted != want {
			t.Errorf("--libsvm-indices %v: the note %d times, want %d: %q", libsvm, noted, want, msg.warnings)
		}
	}
}

// TestLibsvmReaderModelTrees: with --trees k the feature-numbering note
// judges the whole model, as eval does: a later tree's split on feature 1
// shows the numbering is right (it judged the first k trees).
func TestLibsvmReaderModelTrees(t *testing.T) {
	const note = "this XGBoost model has one feature more than"
	for _, c := range []struct {
		second int // the feature the second tree splits on
		warn   bool
	}{{1, false}, {7, true}} {
		model := filepath.Join(t.TempDir(), "m.json")
		os.WriteFile(model, []byte(fmt.Sprintf(`{"format": "cronus-ensemble", "version": 1, "objective": "reg:squarederror", "num_features": 47, "base_score": 0, "source": "xgboost",
  "trees": [
    {"split_feature":[5],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[-1,1]},
    {"split_feature":[%d],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[-0.5,0.5]}
  ]}`, c.second)), 0o644)
		cfg := Config{Train: "builtin:mq2008/train", Valid: "builtin:mq2008/vali", Costs: "builtin:mq2008/costs", Model: model, ModelTrees: 1}
		msg, ok := loadFiles(context.Background(), cfg, nil).(loadedMsg)
		if !ok || msg.err != nil || len(msg.e.Trees) != 1 {
			t.Fatalf("second tree on feature %d: %v", c.second, msg.err)
		}
		noted := slices.ContainsFunc(msg.warnings, func(w string) bool { return strings.HasPrefix(w, note) })
		if noted != c.warn {
			t.Errorf("second tree on feature %d: noted %v, want %v: %q", c.second, noted, c.warn, msg.warnings)
		}
	}
}

// TestUnusedFeatureFiles: a validation file with features beyond the
// training set's gets a warning that they are not used.
func TestUnusedFeatureFiles(t *testing.T) {
	wide := filepath.Join(t.TempDir(), "wide.txt")
	if err := os.WriteFile(wide, []byte("1 qid:1 1:0.5 48:1\n0 qid:1 2:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Train: "builtin:mq2008/train", Valid: wide, Costs: "builtin:mq2008/costs"}
	msg, ok := loadFiles(context.Background(), cfg, nil).(loadedMsg)
	if !ok || msg.err != nil {
		t.Fatalf("%v", msg.err)
	}
	want := wide + " has features up to 48, and 46 are expected; features 47-48 are not used"
	if !slices.Contains(msg.warnings, want) {
		t.Errorf("warnings %q, want %q among them", msg.warnings, want)
	}
}

// TestValidAsTestWarnsOnce: the validation file given as the test set too
// was read twice and each of its warnings listed twice; the test split is
// now the validation data, its warnings given once, its summary kept.
func TestValidAsTestWarnsOnce(t *testing.T) {
	wide := filepath.Join(t.TempDir(), "wide.txt")
	if err := os.WriteFile(wide, []byte("1 qid:1 1:0.5 48:1\n0 qid:1 2:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Train: "builtin:mq2008/train", Valid: wide, Test: wide, Costs: "builtin:mq2008/costs"}
	msg, ok := loadFiles(context.Background(), cfg, nil).(loadedMsg)
	if !ok || msg.err != nil {
		t.Fatalf("%v", msg.err)
	}
	want := wide + " has features up to 48, and 46 are expected; features 47-48 are not used"
	if n := slices.Index(msg.warnings, want); n < 0 || slices.Contains(msg.warnings[n+1:], want) {
		t.Errorf("warnings %q, want %q among them once", msg.warnings, want)
	}
	if msg.test == nil || msg.test != msg.valid || len(msg.splits) != 3 || !reflect.DeepEqual(msg.splits[2], msg.splits[1]) {
		t.Errorf("test %p, valid %p, %d splits: want the validation data as the test split, three summaries", msg.test, msg.valid, len(msg.splits))
	}
}

// TestRetrainDropsModelWarnings: the warning that a --model file's model
// does not use features of the training data described that model; after
// a retrain in the workbench, whose trees may split on them, it stayed,
// on the status line and in the help's list. It goes with the model, and
// the data's own warnings stay.
func TestRetrainDropsModelWarnings(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(model, []byte(`{"format": "cronus-ensemble", "version": 1, "objective": "reg:squarederror", "num_features": 44, "base_score": 0, "source": "test",
  "trees": [
    {"split_feature":[5],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[-1,1]},
    {"split_feature":[7],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[-0.5,0.5]}
  ]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	wide := filepath.Join(t.TempDir(), "wide.txt") // a validation file with a feature past the training file's
	if err := os.WriteFile(wide, []byte("1 qid:1 1:0.5 48:1\n0 qid:1 2:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const unused = "builtin:mq2008/train has features up to 46, and 44 are expected; features 45-46 are not used"
	dataWarning := wide + " has features up to 48, and 46 are expected; features 47-48 are not used"
	cfg := mq2008
	cfg.Model, cfg.Valid = model, wide
	m := New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, cmd := update(t, m, m.load())
	m = drive(t, m, cmd, firstEvent)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 60})
	if !slices.Contains(m.screen.Warnings, unused) || !strings.Contains(m.status, unused) {
		t.Fatalf("from the model file: warnings %q, status %q; want %q", m.screen.Warnings, m.status, unused)
	}
	m = enterParam(t, m, parTrees, "12")
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("the trees edit did not retrain: phase %d", m.phase)
	}
	check := func(when string) {
		t.Helper()
		if slices.Contains(m.screen.Warnings, unused) || strings.Contains(m.status, "45-46") {
			t.Errorf("%s: the model file's warning stays: warnings %q, status %q", when, m.screen.Warnings, m.status)
		}
		if !slices.Contains(m.screen.Warnings, dataWarning) {
			t.Errorf("%s: the data's warning went: %q", when, m.screen.Warnings)
		}
		m.help = true
		if v := m.View(); strings.Contains(v, "45-46") {
			t.Errorf("%s: the help lists the model file's warning:\n%s", when, v)
		}
		m.help = false
	}
	check("retraining")
	m = drive(t, m, cmd, firstEvent)
	check("retrained")
}

// TestLoadValidTestWithoutQID: a validation or test file without qids
// beside training data with them is warned of at load, as cascade does.
func TestLoadValidTestWithoutQID(t *testing.T) {
	noQID := filepath.Join(t.TempDir(), "noqid.txt")
	if err := os.WriteFile(noQID, []byte("1 1:0.5 2:1\n0 2:0.5\n2 1:0.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := noQID + " has no qid, where builtin:mq2008/train has: its metrics rank all its 3 documents as one query"
	for _, c := range []struct {
		valid, test string
		warnings    int
	}{
		{noQID, "builtin:mq2008/test", 1},
		{"builtin:mq2008/vali", noQID, 1},
		{"builtin:mq2008/vali", "builtin:mq2008/test", 0},
	} {
		cfg := Config{Train: "builtin:mq2008/train", Valid: c.valid, Test: c.test, Costs: "builtin:mq2008/costs"}
		msg, ok := loadFiles(context.Background(), cfg, nil).(loadedMsg)
		if !ok || msg.err != nil {
			t.Fatalf("%v", msg.err)
		}
		if n := countOf(msg.warnings, want); n != c.warnings {
			t.Errorf("valid %s, test %s: the warning %d times, want %d: %q", c.valid, c.test, n, c.warnings, msg.warnings)
		}
	}
}

func countOf(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}

// statusOf is the status line of the screen m draws.
func statusOf(m Model) string {
	lines := strings.Split(m.View(), "\n")
	return strings.TrimSpace(lines[len(lines)-2])
}

// TestPauseTruthful: the status line says "paused" only while a run is
// held. After a run had finished, space showed "paused" although nothing
// ran, n answered "one step" and granted a step to no run; space while the
// base ensemble trained showed "paused" over the training, which went on.
// In both cases the pause holds the next run, and the line says so.
func TestPauseTruthful(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, optMsg{gen: m.gen, ev: job.Event[cronus.Snapshot, *cronus.Outcome]{Final: true, Snapshot: m.snap}})
	if m.running {
		t.Fatal("the run did not end")
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	// Whole at 80 columns: the note and what starts the next run.
	if s := statusOf(m); strings.HasPrefix(s, "paused") || !strings.Contains(s, "next run starts paused") || strings.Contains(s, "…") {
		t.Errorf("space after the run: %q", s)
	}
	m, _ = update(t, m, key("n"))
	if n := m.gate.grantedSteps(); !m.errLine || n != 0 {
		t.Errorf("n with no run: %d steps granted, status %q", n, m.status)
	}
	m, _ = update(t, m, key("r"))
	if s := statusOf(m); !m.running || !m.gate.isPaused() || !strings.HasPrefix(s, "paused") {
		t.Errorf("the run after r is not shown paused: %q", s)
	}

	// Paused from the start of a retraining: the training goes on, the
	// run it leads to is held at its first step.
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace}) // resume
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if s := statusOf(m); strings.HasPrefix(s, "paused") || !strings.Contains(s, "next run starts paused") {
		t.Errorf("space while training: %q", s)
	}
	m = drive(t, m, cmd, firstEvent)
	if s := statusOf(m); !m.running || !strings.HasPrefix(s, "paused") {
		t.Errorf("the run after the training is not shown paused: %q", s)
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if s := statusOf(m); strings.Contains(s, "paused") || m.gate.isPaused() {
		t.Errorf("space did not resume: %q", s)
	}
}

// TestPauseHintFollows: what space said of the pause is said of the
// situation now: paused while the base ensemble trained, the status line
// kept "only the optimisation pauses (space undoes)" after the run started
// held, where space resumes and n steps; the pause taken off while the
// base ensemble trained, "no pause: the next run starts at once" stayed
// over the run it announced.
func TestPauseHintFollows(t *testing.T) {
	retrain := func(m Model) (Model, tea.Cmd) {
		m.panel, m.sel = true, parTrees
		m, _ = update(t, m, key("right"))
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		if m.phase != phaseTraining {
			t.Fatalf("trees edit: phase %d", m.phase)
		}
		return m, cmd
	}
	m, cmd := retrain(ready(t))
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 48}) // room for the notes and the hint
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if s := statusOf(m); !strings.Contains(s, "only the optimisation pauses") {
		t.Errorf("space while training: %q", s)
	}
	m = drive(t, m, cmd, firstEvent)
	if s := statusOf(m); !m.running || !m.gate.isPaused() || strings.Contains(s, "only the optimisation pauses") ||
		!strings.HasPrefix(s, "paused · space resumes, n runs one step") {
		t.Errorf("the run after the training, held: %q", s)
	}

	// The pause taken off while training: nothing left to say once the run
	// runs.
	m, cmd = retrain(m)
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if s := statusOf(m); m.paused || !strings.Contains(s, "no pause: the next run starts at once") {
		t.Errorf("space off while training: %q", s)
	}
	m = drive(t, m, cmd, firstEvent)
	if s := statusOf(m); !m.running || m.gate.isPaused() || strings.Contains(s, "pause") {
		t.Errorf("the run after the training, not held: %q", s)
	}
}

// TestNoRunToStepGoes: n while the base ensemble trains says there is no
// run to step; the run that then starts, held, takes that off for space's
// hint. It stayed, red, over the run it denied, till another message.
func TestNoRunToStepGoes(t *testing.T) {
	m := ready(t)
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	m, _ = update(t, m, key("n"))
	if s := statusOf(m); !m.errLine || !strings.Contains(s, "n: no run to step") {
		t.Fatalf("n while training: %q", s)
	}
	m = drive(t, m, cmd, firstEvent)
	if s := statusOf(m); !m.running || !m.gate.isPaused() || m.errLine || strings.Contains(s, "no run to step") ||
		!strings.HasPrefix(s, "paused · space resumes, n runs one step") {
		t.Errorf("the run after the training, held: %q (error line %v)", s, m.errLine)
	}
}

// TestTrainingStatus: while the base ensemble trains, the status line says
// how many of its trees are done and, once known, the time left; it was
// blank (only the body showed the progress, and not under the help).
func TestTrainingStatus(t *testing.T) {
	m := ready(t)
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m.help = true
	seen := 0
	for cmd != nil {
		msg := cmd()
		tm, ok := msg.(trainMsg)
		if !ok {
			t.Fatalf("%T while training", msg)
		}
		if tm.ev.Final {
			break
		}
		m, cmd = update(t, m, msg)
		seen++
		p := tm.ev.Progress
		want := fmt.Sprintf("training the base ensemble: %g of %d trees", p.Done, m.w.trees)
		if s := statusOf(m); !strings.HasPrefix(s, want) {
			t.Fatalf("status line %q, want %q…", s, want)
		}
		if s := statusOf(m); p.ETA > 0 && !strings.Contains(s, "ETA "+p.ETA.Round(100*time.Millisecond).String()) {
			t.Errorf("status line %q lacks the ETA %v", s, p.ETA)
		}
	}
	if seen == 0 {
		t.Fatal("no progress event before the end of the training")
	}
}

// TestPositivesNoteWhileRetraining: the positives note depends on the
// training labels and the threshold, not on the base ensemble, so it
// stays while the ensemble retrains and its problem is rebuilt; it went
// away from the edit of trees until the new problem was built.
func TestPositivesNoteWhileRetraining(t *testing.T) {
	const note = "100% positives: raise the threshold (p)" // every MQ2008 label is >= 0
	m := typeParam(t, ready(t), parRelevant, "0")
	if line := m.paramsLine(200); !strings.Contains(line, note) {
		t.Fatalf("label >= 0: params line %q", line)
	}
	m.sel = parTrees
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d, want training", m.phase)
	}
	phases := map[phase]bool{}
	m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
		phases[m.phase] = true
		if line := m.paramsLine(200); !strings.Contains(line, note) {
			t.Fatalf("phase %d after %T: params line %q", m.phase, msg, line)
		}
		return firstEvent(m, msg)
	})
	if !phases[phaseTraining] || !phases[phasePreparing] || len(m.w.e.Trees) != 70 {
		t.Errorf("phases seen %v, %d trees; want training and preparing, 70 trees", phases, len(m.w.e.Trees))
	}
	if m.w.positives != m.w.pr.Positives || m.w.positives != m.w.train.NumDocs() {
		t.Errorf("%d positives counted, the problem has %d, of %d documents", m.w.positives, m.w.pr.Positives, m.w.train.NumDocs())
	}
}

// TestFinishedPointsOfEnsemble: the curve's "cronus" series (and e's
// export) holds the finished runs' points of the base ensemble shown; a
// retrain drops those of the old ensemble, as it drops the λ sweep's, since
// they are not comparable with the new baselines (they stayed, plotted
// against them). A new relevance threshold keeps the ensemble and its
// baselines, and the points too, as it keeps the λ sweep's.
func TestFinishedPointsOfEnsemble(t *testing.T) {
	finish := func(m Model) Model {
		t.Helper()
		return drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool { return !m.running })
	}
	cronusPts := func(pts []baseline.Point) (n int) {
		for _, p := range pts {
			if p.Method == "cronus" {
				n++
			}
		}
		return n
	}
	m := finish(ready(t))
	if len(m.finished) != 1 || cronusPts(m.points()) != 1 {
		t.Fatalf("after a finished run: %d finished points, %d plotted", len(m.finished), cronusPts(m.points()))
	}
	m.stopRun()
	m = typeParam(t, m, parRelevant, "2") // stops at the new run's first event
	if cronusPts(m.points()) != 1 || cronusPts(m.curvePoints()) != 1 {
		t.Errorf("a new threshold dropped the finished point of the same ensemble")
	}
	m = finish(m)
	m.stopRun()
	old := m.w.e
	m = typeParam(t, m, parTrees, "12")
	if m.w.e == old || len(m.w.e.Trees) != 12 {
		t.Fatalf("not retrained: %d trees", len(m.w.e.Trees))
	}
	if n, e := cronusPts(m.points()), cronusPts(m.curvePoints()); n != 0 || e != 0 {
		t.Errorf("after a retrain, %d finished points of the old ensemble are plotted and %d exported", n, e)
	}
	m = finish(m)
	if n := cronusPts(m.points()); n != 1 {
		t.Errorf("after the new ensemble's first run: %d finished points, want 1", n)
	}
}

// TestCurrentPointOfEnsemble: the curve's current cascade (◆) is of the
// base ensemble shown. After a retrain, from the new problem to the new
// run's first step (which a pause holds), the panes showed the cancelled
// run's cascade of the old ensemble, its point drawn among the new
// baselines. They now show no cascade until the new run reports one, as
// after a load; a new threshold keeps the ensemble and the point.
func TestCurrentPointOfEnsemble(t *testing.T) {
	const mark = "◆ current"
	curve := func(m Model) string { return m.renderPane(paneCurve, 100, 30) }
	m := ready(t)
	if !strings.Contains(curve(m), mark) {
		t.Fatalf("no current point in the first run:\n%s", curve(m))
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	m.panel, m.sel = true, parRelevant
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m, cmd = update(t, m, cmd()) // the rebuilt problem, same ensemble
	if m.phase != phaseReady || !strings.Contains(curve(m), mark) {
		t.Errorf("a new threshold dropped the current point (phase %d):\n%s", m.phase, curve(m))
	}
	m = drive(t, m, cmd, firstEvent)
	m.sel = parTrees
	m, _ = update(t, m, key("right"))
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	for prepared := false; !prepared; {
		msg := cmd()
		_, prepared = msg.(preparedMsg)
		m, cmd = update(t, m, msg)
	}
	if c := curve(m); m.phase != phaseReady || strings.Contains(c, mark) || m.snap.Test.Metrics != nil {
		t.Errorf("the new ensemble's problem built (phase %d): the old ensemble's point is drawn:\n%s", m.phase, c)
	}
	m = drive(t, m, cmd, firstEvent)
	if c := curve(m); !m.gate.isPaused() || !strings.Contains(c, mark) || m.snapRun.w.e != m.w.e {
		t.Errorf("the new ensemble's first step, paused: no current point of it:\n%s", c)
	}
}

// TestStagesAtMostTrees: K stays at most the base ensemble's trees, as
// `cronus cascade` requires (it refuses --stages beyond the model's
// trees). Trees below K are refused, as K above the trees is; a model of
// fewer trees than K brings K down to its trees. Both ran a 10-stage
// cascade of 5 trees, and K then refused every step but down.
func TestStagesAtMostTrees(t *testing.T) {
	m := ready(t)
	k, trees := m.par.K, m.par.trees
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key(strconv.Itoa(k-1)))
	m, cmd := update(t, m, key("enter"))
	if cmd != nil || !m.errLine || m.par.trees != trees || !strings.Contains(m.status, "trees") {
		t.Errorf("trees %d under K = %d: trees %d, status %q", k-1, k, m.par.trees, m.status)
	}

	small := *m.w.e
	small.Trees = small.Trees[:k-2]
	m, cmd = fromModel(t, &small, "")
	m = drive(t, m, cmd, firstEvent)
	if m.par.K != k-2 || m.runPar.K != k-2 || len(m.snap.Stages) != k-2 {
		t.Errorf("a model of %d trees: K %d, run's K %d, %d stages", k-2, m.par.K, m.runPar.K, len(m.snap.Stages))
	}
}

// absentMissingSession is ready's session, and a session on its base
// ensemble saved as a model file and the data read under --absent missing
// (with --model, as `cronus tui` requires).
func absentMissingSession(t *testing.T) (base, m Model) {
	t.Helper()
	base = ready(t)
	path := filepath.Join(t.TempDir(), "m.json")
	if err := tree.WriteModel(path, tree.NewModel(base.w.e, "test", nil)); err != nil {
		t.Fatal(err)
	}
	cfg := mq2008
	cfg.Model, cfg.AbsentMissing = path, true
	return base, readyOn(t, cfg)
}

// Under --absent missing the panel does not retrain the base ensemble:
// the workbench's tree learner bins the missing values with the largest,
// which is why --absent missing needs a model. A trees, leaves or column sample edit is refused and the
// model's trees stay.
func TestNoRetrainUnderAbsentMissing(t *testing.T) {
	_, m := absentMissingSession(t)
	m.panel = true
	e := m.w.e
	for p, dir := range map[int]string{parTrees: "right", parLeaves: "left", parColSample: "left"} {
		m.sel = p
		before := m.par
		var cmd tea.Cmd
		m, cmd = update(t, m, key(dir))
		if cmd != nil || m.par != before || m.phase == phaseTraining || !m.errLine || !strings.Contains(m.status, "--absent missing") {
			t.Errorf("%s edit under --absent missing: status %q, settings %+v (were %+v), phase %d", paramNames[p], m.status, m.par, before, m.phase)
		}
	}
	if m.w.e != e {
		t.Error("the base ensemble was replaced")
	}
}

// TestPanelSaysFixedUnderAbsentMissing: under --absent missing, where a
// trees, leaves or column sample edit is refused, the panel does not say
// that an edit of them retrains the base ensemble (it said "(retrains
// it)"), and enter on them is refused at once rather than after a value
// was typed. The other lines still say what an edit does.
func TestPanelSaysFixedUnderAbsentMissing(t *testing.T) {
	base, m := absentMissingSession(t)
	m, _ = update(t, m, key("p"))
	for _, w := range []int{40, 80, 160} {
		m, _ = update(t, m, tea.WindowSizeMsg{Width: w, Height: 48})
		lines := m.panelLines(w)
		for i := lineParams; i < numParams; i++ {
			line := lines[1+i-lineParams]
			if retrains(i) && (strings.Contains(line, "retrain") || !strings.Contains(line, "fixed")) {
				t.Errorf("width %d, %s under --absent missing: %q", w, paramNames[i], line)
			}
			if !retrains(i) && strings.Contains(line, "fixed") {
				t.Errorf("width %d, %s: %q", w, paramNames[i], line)
			}
		}
	}
	m.sel = parLeaves
	m, _ = update(t, m, key("enter"))
	if m.editing || !m.errLine || !strings.Contains(m.status, "--absent missing") {
		t.Errorf("enter on leaves under --absent missing: typing %v, status %q", m.editing, m.status)
	}
	// Without --absent missing the same lines say that an edit retrains.
	plain := base
	plain, _ = update(t, plain, key("p"))
	for i := lineParams; i < numParams; i++ {
		if line := plain.panelLines(160)[1+i-lineParams]; retrains(i) && !strings.Contains(line, "retrains") {
			t.Errorf("%s: %q", paramNames[i], line)
		}
	}
}

// TestParamsLineNarrow: on a line too narrow for all of λ, K, ε and σ the
// params line shows whole parameters, the selected one among them; it was
// cut at the edge, "ε 0.1…" for ε 0.15 at 30 columns, and below 39
// columns the selected σ was not on screen while ← and → stepped it.
func TestParamsLineNarrow(t *testing.T) {
	m := ready(t)
	for sel := range lineParams {
		m.sel = sel
		for w := 10; w <= 45; w++ {
			mm, _ := update(t, m, tea.WindowSizeMsg{Width: w, Height: 24})
			lines := strings.Split(mm.View(), "\n")
			line := lines[len(lines)-3]
			if !strings.Contains(line, "["+paramNames[sel]+" "+paramValue(m.par, sel)+"]") {
				t.Errorf("width %d: the selected %s is not shown whole: %q", w, paramNames[sel], line)
			}
			for i := range lineParams {
				if strings.Contains(line, paramNames[i]+" ") && !strings.Contains(line, paramNames[i]+" "+paramValue(m.par, i)+" ") &&
					!strings.Contains(line, paramNames[i]+" "+paramValue(m.par, i)+"]") && !strings.HasSuffix(strings.TrimRight(line, " "), paramNames[i]+" "+paramValue(m.par, i)) {
					t.Errorf("width %d, %s selected: %s is cut: %q", w, paramNames[sel], paramNames[i], line)
				}
			}
		}
	}
	// A panel parameter selected, the line starts at λ, with no mark.
	m.panel, m.sel = true, parRho
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 30, Height: 48})
	if line := m.paramsLine(30); !strings.HasPrefix(line, " λ ") || strings.Contains(line, "[") {
		t.Errorf("ρ selected: the params line at 30 columns is %q", line)
	}
}

// halfGrades writes a training file whose labels are 0 and 0.5 (clicks,
// say): at the default threshold 1 nothing is relevant.
func halfGrades(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for q := 1; q <= 30; q++ {
		for d := range 8 {
			label := "0"
			if (q+d)%4 == 0 {
				label = "0.5"
			}
			fmt.Fprintf(&b, "%s qid:%d 1:%d 2:%d 3:%g 4:%d\n", label, q, (q*7+d*3)%11, d, float64((q*d)%5)/4, (q+d)%4)
		}
	}
	path := filepath.Join(t.TempDir(), "clicks.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestThresholdRecoversFailedProblem: when the cascade problem cannot be
// built at the start (no label reaches the relevance threshold), lowering
// the threshold in the panel builds it and the optimisation starts; the
// edit did nothing and only a reload recovered.
func TestThresholdRecoversFailedProblem(t *testing.T) {
	path := halfGrades(t)
	m := New(context.Background(), Config{Train: path, Valid: path, trees: 10}, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, cmd := update(t, m, m.load())
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.phase == phaseFailed })
	if !strings.Contains(m.screen.Err, "nothing is relevant") {
		t.Fatalf("error %q, want nothing relevant", m.screen.Err)
	}
	if mm, _ := update(t, m, key("s")); !strings.Contains(mm.status, "p: a targets or threshold edit") {
		t.Errorf("s after the failure: %q", mm.status)
	}
	if v := m.View(); !strings.Contains(v, "p panel") {
		t.Errorf("the key line does not offer the panel:\n%s", v)
	}
	if mm, cmd := update(t, m, key("right")); !strings.Contains(mm.status, "waits for the cascade problem") {
		t.Errorf("λ edit after the failure: %q", mm.status)
	} else if mm, _ = update(t, mm, cmd()); mm.phase != phaseFailed {
		t.Errorf("λ edit after the failure: phase %d", mm.phase)
	}
	m.panel, m.sel = true, parRelevant
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("0.5"))
	m, _ = update(t, m, key("enter"))
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phasePreparing || cmd == nil {
		t.Fatalf("threshold edit after the failure: phase %d, command %v, status %q", m.phase, cmd != nil, m.status)
	}
	m = drive(t, m, cmd, firstEvent)
	if m.w.tg.Relevant != 0.5 || m.w.pr == nil || m.screen.Err != "" {
		t.Errorf("problem for threshold %g built %v, error %q", m.w.tg.Relevant, m.w.pr != nil, m.screen.Err)
	}
	if v := m.View(); strings.Contains(v, "nothing is relevant") {
		t.Errorf("the error stays after the recovery:\n%s", v)
	}
}

// TestParamsLineNarrowPending: on a params line too narrow for all four
// parameters, an edit whose restart is not yet due is said ("(pending)")
// beside the selected parameter, before the other parameters; the narrow
// line dropped the note, and the edit looked applied. Once the run
// restarts, the note goes.
func TestParamsLineNarrowPending(t *testing.T) {
	m := ready(t)
	m.sel = parSigma
	m, _ = update(t, m, key("right"))
	sel := "[" + paramNames[parSigma] + " " + paramValue(m.par, parSigma) + "]"
	full := lipgloss.Width(m.paramsLine(400))
	for w := 10; w < full; w++ {
		line := m.paramsLine(w)
		if lipgloss.Width(line) > w || !strings.Contains(line, sel) {
			t.Errorf("width %d: %q", w, line)
		}
		if w >= lipgloss.Width(sel+" (pending)") && !strings.Contains(line, "pending") {
			t.Errorf("width %d: the pending restart is not said: %q", w, line)
		}
	}
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if line := m.paramsLine(30); strings.Contains(line, "pending") {
		t.Errorf("after the restart: %q", line)
	}
}

// TestRetrainPendingShowsNoOldFigures: for the 300 ms from an edit of the
// base ensemble's trees to its retrain, the status line paired the new
// tree count with the figures of the run on the old ensemble: "trees = 70
// │ … cost/doc 331.4 = 58.8% of full 564.0", the cost of a cascade of the
// 20 trees and the full cost of those 20. Until the new ensemble's run
// reports, it gives none of them, as after a restart.
func TestRetrainPendingShowsNoOldFigures(t *testing.T) {
	m := ready(t)
	figures := []string{"objective", "P@5", "NDCG@10", "cost", "of full"}
	for _, f := range figures {
		if s := m.statusLine(200); !strings.Contains(s, f) {
			t.Fatalf("the running status lacks %q: %q", f, s)
		}
	}
	full := m.w.full.Total
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("right"))
	for _, width := range []int{60, 80, 200} {
		s := m.statusLine(width)
		if !strings.Contains(s, "trees = "+strconv.Itoa(m.par.trees)) || !strings.Contains(s, "pending retrain") {
			t.Errorf("%d columns: %q does not say the trees wait to retrain", width, s)
		}
		// The params line says the same (it said "(pending restart)").
		if p := m.paramsLine(width); width >= 80 && !strings.Contains(p, "(pending retrain)") {
			t.Errorf("%d columns: params line %q, want (pending retrain)", width, p)
		}
		for _, f := range append(figures, "obj", "init") {
			if strings.Contains(s, f) {
				t.Errorf("%d columns: %q gives the old ensemble's %q", width, s, f)
			}
		}
	}
	// The new ensemble's run gives its figures, with its own full cost.
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, firstEvent)
	if s := m.statusLine(200); !strings.Contains(s, "of full") || m.w.full.Total == full {
		t.Errorf("the new ensemble's run: %q (full cost %g, the old ensemble's %g)", s, m.w.full.Total, full)
	}
}

// TestStepBeforeStart: n on a held run before its first event (its start,
// Algorithm 2 or the evaluation of the cascade it starts from: seconds on
// large data) said "one step" beside "restarting", and a second n said it
// again: nothing on screen changed until the run reported, when the steps
// granted ran at once. n says that its steps follow the run's start, and
// how many; the run then takes as many.
func TestStepBeforeStart(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	m, cmd := update(t, m, key("r"))
	granted := m.gate.grantedSteps()
	m, _ = update(t, m, key("n"))
	first := statusOf(m)
	m, _ = update(t, m, key("n"))
	second := statusOf(m)
	if !strings.Contains(first, "one step, once the run has started") || !strings.Contains(second, "2 steps, once the run has started") {
		t.Errorf("n before the run's start: %q, then %q", first, second)
	}
	if n := m.gate.grantedSteps() - granted; n != 2 {
		t.Errorf("two n granted %d steps", n)
	}
	m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
		_, ok := msg.(optMsg)
		return ok && m.snap.Step == 2
	})
	// Started, n steps the run at once.
	m, _ = update(t, m, key("n"))
	if s := statusOf(m); strings.Contains(s, "once the run has started") {
		t.Errorf("n on the started run: %q", s)
	}
}

// TestRestartDropsOldSteps: a step granted with n while the paused run was
// in the middle of a stage (not yet held at the gate) stayed on the gate,
// which the next run shared: an edit of λ then started the new run with
// the old run's step, and it went a step on by itself. The new run starts
// with none; an n after the restart is its own.
func TestRestartDropsOldSteps(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	// The run mid-stage: no worker at the gate takes the step (the real
	// one is stopped and has ended), so the test does not race with it.
	old := m.run
	m.stopRun()
	<-old.done
	m.running = true
	m, _ = update(t, m, key("n"))
	if s := statusOf(m); m.gate.grantedPending() != 1 || !strings.Contains(s, "one step") {
		t.Fatalf("n on the running run: %d steps pending, status %q", m.gate.grantedPending(), s)
	}
	m.sel = parLambda
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if n := m.gate.grantedPending(); n != 0 {
		t.Errorf("the run after the λ edit starts with %d steps of the old run's", n)
	}
	m = drive(t, m, cmd, firstEvent)
	if n := m.gate.grantedPending(); n != 0 {
		t.Errorf("the new run has %d steps pending at its start, want 0", n)
	}
	// The gate holds the new run: n after the restart steps it.
	step := m.snap.Step
	m, _ = update(t, m, key("n"))
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, msg tea.Msg) bool {
		_, ok := msg.(optMsg)
		return ok && m.snap.Step > step
	})
	if m.snap.Step != step+1 {
		t.Errorf("one n after the restart: step %d → %d", step, m.snap.Step)
	}
}

// TestStepsSaidGoOnStart: "n: 2 steps, once the run has started" stayed
// on the status line after the run had started, until the next message.
// The run's first event takes it off; so does a restart before that,
// which drops those steps (the next run takes none of them).
func TestStepsSaidGoOnStart(t *testing.T) {
	const said = "once the run has started"
	m := ready(t)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	m, cmd := update(t, m, key("r"))
	m, _ = update(t, m, key("n"))
	m, _ = update(t, m, key("n"))
	if s := statusOf(m); !strings.Contains(s, "2 steps, "+said) {
		t.Fatalf("n twice before the start: %q", s)
	}
	// Algorithm 2's progress comes first: the steps wait for the run's
	// first snapshot, and so does the message.
	m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
		o, ok := msg.(optMsg)
		if ok && inInit(o.ev.Progress) {
			if s := statusOf(m); !strings.Contains(s, said) || m.runStarted() {
				t.Errorf("while the run initialises: %q", s)
			}
		}
		return ok && !inInit(o.ev.Progress)
	})
	if s := statusOf(m); strings.Contains(s, said) || !m.runStarted() {
		t.Errorf("the run's first snapshot: %q", s)
	}

	// n before the start, then an edit's restart before it.
	m, _ = update(t, m, key("r"))
	m, _ = update(t, m, key("n"))
	m.sel = parLambda
	m, _ = update(t, m, key("right"))
	m, _ = update(t, m, key("n"))
	if s := statusOf(m); !strings.Contains(s, "2 steps, "+said) {
		t.Fatalf("n, a λ edit, n before the start: %q", s)
	}
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if s := statusOf(m); strings.Contains(s, said) || m.gate.grantedPending() != 0 {
		t.Errorf("the λ edit's restart: %q, %d steps pending", s, m.gate.grantedPending())
	}

	// n before the start, then the retrain of a trees edit stops the run.
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("right"))
	m, _ = update(t, m, key("n"))
	if s := statusOf(m); !strings.Contains(s, said) {
		t.Fatalf("n, a trees edit, n before the start: %q", s)
	}
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if s := statusOf(m); strings.Contains(s, said) || m.phase != phaseTraining {
		t.Errorf("the trees edit's retrain (phase %d): %q", m.phase, s)
	}
}

// TestPanelRefitToggle: the panel's refit setting (enter or a step
// switches it) restarts the optimisation warm with cronus.Options.Refit;
// once the run is done, a refit it kept is said on the status line, is
// the cascade 's' saves (its params name the refit, as `cronus cascade
// --refit` records it), has the trees of the run's own best, and the
// next restart goes on from that own best, not from the refit.
func TestPanelRefitToggle(t *testing.T) {
	m := ready(t)
	// At λ 0.05 the 20 trees' run keeps a refit (at 0.002, 0.005 and 0.2
	// its own best is the better on validation); the edit below restarts
	// with it.
	m.par.Lambda = 0.05
	m.panel, m.sel = true, parRefit
	if v := m.View(); !strings.Contains(v, "refit off") {
		t.Fatalf("panel does not show refit off:\n%s", v)
	}
	m, _ = update(t, m, key("enter"))
	if m.editing || !m.par.refit {
		t.Fatalf("enter on refit: editing %v, refit %v", m.editing, m.par.refit)
	}
	m, _ = update(t, m, key("left"))
	if m.par.refit {
		t.Fatal("a step did not switch refit off again")
	}
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if !m.running || !m.runPar.refit || cmd == nil {
		t.Fatalf("refit edit: running %v, run's refit %v", m.running, m.runPar.refit)
	}
	m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool { _, ok := msg.(optMsg); return ok && !m.running })
	mode := m.snap.Refit
	if mode == "" {
		t.Fatalf("the run kept no refit (status %q); the test needs one", m.status)
	}
	if !strings.Contains(m.status, "refit "+mode) || m.bestOwn == nil || m.best == m.bestOwn {
		t.Fatalf("refit %s kept: status %q, own best %p, best %p", mode, m.status, m.bestOwn, m.best)
	}
	for k := range m.best.Stages {
		if a, b := m.bestOwn.Stages[k].Active(), m.best.Stages[k].Active(); !slices.Equal(a, b) {
			t.Errorf("stage %d: the refit's trees %v, the own best's %v", k, b, a)
		}
	}
	t.Chdir(t.TempDir())
	m, cmd = update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s returned no command: %q", m.status)
	}
	m, _ = update(t, m, cmd())
	f, _ := savedFile(t, m, savePath)
	if got := f.Params["refit"]; got != mode {
		t.Errorf("saved params refit %v, want %q", got, mode)
	}
	if _, c, err := f.Cascade(); err != nil || !slices.Equal(c.Stages[len(c.Stages)-1].Beta, m.best.Stages[len(c.Stages)-1].Beta) {
		t.Errorf("the saved cascade is not the refit (err %v)", err)
	}
	// The next run (λ stepped) starts from the own best: its warm start,
	// the first snapshot's cascade, has the own best's last-stage weights.
	own := slices.Clone(m.bestOwn.Stages[len(m.bestOwn.Stages)-1].Beta)
	m.sel = parLambda
	m, _ = update(t, m, key("right"))
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool { _, ok := msg.(optStartedMsg); return ok })
	if m.run.from == nil || !slices.Equal(m.run.from.Stages[len(m.run.from.Stages)-1].Beta, own) {
		t.Errorf("the next run did not start from the run's own best")
	}
}

// TestStepIsTheValueShown: a ×/÷1.5 step (λ, σ, ρ, ω⁺) sets the value the
// params line shows, so that the command line given that value (cronus
// cascade --lambda 0.15) makes the workbench's cascade: 0.1 × 1.5 was
// 0.15000000000000002, shown as 0.15, and 0.01 × 1.5⁴ = 0.050625 showed
// as 0.05063.
func TestStepIsTheValueShown(t *testing.T) {
	par := settings{Params: cronus.Params{Lambda: 0.1, Sigma: 0.1, Rho1: 0.1, RhoK: 0.1}, tg: cronus.Targets{PosWeight: 0.1, Relevant: 1}}
	for _, i := range []int{parLambda, parSigma, parRho, parPosWeight} {
		p := par
		for step, dir := range []int{1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1} {
			var err error
			if p, err = stepParam(p, i, dir); err != nil {
				t.Fatalf("%s step %d: %v", paramNames[i], step+1, err)
			}
			shown := paramValue(p, i)
			v, err := strconv.ParseFloat(shown, 64)
			got := map[int]float64{parLambda: p.Lambda, parSigma: p.Sigma, parRho: p.Rho1, parPosWeight: p.tg.PosWeight}[i]
			if err != nil || v != got {
				t.Errorf("%s step %d: value %v, shown %q", paramNames[i], step+1, got, shown)
			}
			if i == parRho && p.RhoK != p.Rho1 {
				t.Errorf("ρ step %d: ρ_1 %v, ρ_K %v", step+1, p.Rho1, p.RhoK)
			}
		}
	}
	if p, _ := stepParam(par, parLambda, 1); p.Lambda != 0.15 {
		t.Errorf("λ 0.1 → %v, want 0.15", p.Lambda)
	}
}

// TestLoadNoSplitWarns: training data on which no tree of the base
// ensemble can split (fewer documents than two leaves of the default
// minimum hold, or no feature with two values) is warned of at load, as
// train warns; the workbench built such ensembles without a word (a
// helper's review of degenerate data, 2026-12-01). A model given to the
// workbench is not trained, and has nothing said.
func TestLoadNoSplitWarns(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tiny := write("tiny.txt", "2 qid:1 1:0.5\n0 qid:1 1:0.1\n1 qid:2 1:0.3\n")
	var b strings.Builder
	for i := range 120 {
		fmt.Fprintf(&b, "%d qid:%d 1:3 2:0.5\n", i%3, i/10+1)
	}
	flat := write("flat.txt", b.String())
	const tail = ": no tree of the base ensemble can split, and it scores every document alike"
	model := writeModel(t, &tree.Ensemble{Trees: []tree.Tree{{Leaves: []float64{0.5}}}, NumFeatures: 1, Objective: "regression"}, "")
	for _, c := range []struct {
		train, model, want string
	}{
		{tiny, "", tiny + " has 3 documents, fewer than the 100 that the two leaves of a split hold (50 each)" + tail},
		{flat, "", flat + ": every feature has one value on every document" + tail},
		{"builtin:mq2008/train", "", ""},
		{tiny, model, ""},
	} {
		msg, ok := loadFiles(context.Background(), Config{Train: c.train, Model: c.model}, nil).(loadedMsg)
		if !ok || msg.err != nil {
			t.Fatalf("%s: %v", c.train, msg.err)
		}
		warned := slices.ContainsFunc(msg.warnings, func(w string) bool { return strings.HasSuffix(w, tail) })
		switch {
		case c.want == "" && warned:
			t.Errorf("%s (model %q): warnings %q, want none of no split", c.train, c.model, msg.warnings)
		case c.want != "" && !slices.Contains(msg.warnings, c.want):
			t.Errorf("%s: warnings %q, want %q among them", c.train, msg.warnings, c.want)
		}
	}
}

// TestShapeEditDuringFailedRebuild: a trees edit made while a threshold
// edit rebuilt the problem says it retrains once the problem is built;
// when the rebuild failed (nothing relevant) the workbench went on with
// the old problem and dropped the edit: the panel said trees 12 over the
// runs of the 20-tree ensemble, and s saved cascades of it. The retrain
// comes, and the rebuild's error stays said.
func TestShapeEditDuringFailedRebuild(t *testing.T) {
	m := ready(t)
	m = enterParam(t, m, parRelevant, "9")
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phasePreparing {
		t.Fatalf("threshold edit: phase %d", m.phase)
	}
	m = enterParam(t, m, parTrees, "12")
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	for cmd != nil && m.phase == phasePreparing {
		m, cmd = update(t, m, cmd())
	}
	const failed = "no training document has a label >= 9"
	if m.phase != phaseTraining || m.w.trees != 12 || !strings.Contains(m.status, failed) {
		t.Fatalf("after the failed rebuild: phase %d, training %d trees, status %q; want a retrain of 12 trees, the error said", m.phase, m.w.trees, m.status)
	}
	m = drive(t, m, cmd, firstEvent)
	if len(m.w.e.Trees) != 12 || m.par != m.runPar || m.reshaped() || m.runPar.tg.Relevant != 1 {
		t.Errorf("running on %d trees, edited %+v, running %+v", len(m.w.e.Trees), m.par, m.runPar)
	}
}

// TestTrainSingleLeafWarns: a base ensemble whose trees all came out
// single leaves (no feature of 120 documents has 50 of them each side of
// a value, which the load's no-split warning does not foresee) is warned
// of after its training, as cronus train warns, on the status line and
// first among the warnings ? lists, naming the panel's parameters that
// retrain it; a retrain takes the old warning off and its own training
// says it again, once. Trees that split say nothing. The workbench built
// cascades of such an ensemble without a word.
func TestTrainSingleLeafWarns(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, feature func(i int) int) string {
		var b strings.Builder
		for i := range 120 {
			fmt.Fprintf(&b, "%d qid:%d 1:%d 2:0.5\n", i/40, i/10+1, feature(i))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// One document apart from the rest: no split leaves 50 each side.
	single := write("single.txt", func(i int) int { return min(i, 1) })
	splits := write("splits.txt", func(i int) int { return i })
	const said = "every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 50 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), and the base ensemble scores every document alike (p: its trees, leaves and col sample retrain it"
	// trained drives m to the end of its base ensemble's training, which
	// it gives.
	trained := func(m Model, cmd tea.Cmd) (Model, tea.Cmd, *tree.Ensemble) {
		t.Helper()
		for cmd != nil {
			msg := cmd()
			m, cmd = update(t, m, msg)
			if tm, ok := msg.(trainMsg); ok && tm.ev.Final {
				if tm.ev.Err != nil {
					t.Fatalf("training: %v", tm.ev.Err)
				}
				return m, cmd, tm.ev.Result.Ensemble
			}
		}
		t.Fatalf("no training ended (phase %d, error %q)", m.phase, m.screen.Err)
		return m, nil, nil
	}
	warnings := func(m Model) int {
		return len(slices.DeleteFunc(slices.Clone(m.screen.Warnings), func(w string) bool { return !strings.HasPrefix(w, said) }))
	}
	for _, c := range []struct {
		train string
		warns bool
	}{{single, true}, {splits, false}} {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		m := New(ctx, Config{Train: c.train, trees: 5}, views.PlainStyles())
		m, cmd := update(t, m, m.load())
		m, cmd, e := trained(m, cmd)
		leaves := maxLeaves(e)
		if !c.warns {
			if leaves < 2 || warnings(m) != 0 || strings.Contains(m.status, "single leaf") {
				t.Errorf("%s: trees of up to %d leaves, warnings %q, status %q; want trees that split and no warning", c.train, leaves, m.screen.Warnings, m.status)
			}
			continue
		}
		if leaves != 1 || warnings(m) != 1 || !strings.HasPrefix(m.screen.Warnings[0], said) || !strings.HasPrefix(m.status, "warning: "+said) || !m.errLine {
			t.Fatalf("%s: trees of up to %d leaves, warnings %q, status %q; want single leaves warned of", c.train, leaves, m.screen.Warnings, m.status)
		}
		// A retrain (trees 12), once the problem is built: the old
		// ensemble's warning goes, the new one's training says it again.
		m, _ = update(t, m, preparedOf(t, cmd))
		m = enterParam(t, m, parTrees, "12")
		m, cmd = update(t, m, debounceMsg{edit: m.edits})
		if m.phase != phaseTraining || warnings(m) != 0 || strings.Contains(m.status, "single leaf") {
			t.Fatalf("retraining: phase %d, warnings %q, status %q; want the old warning gone", m.phase, m.screen.Warnings, m.status)
		}
		m, _, e = trained(m, cmd)
		if len(e.Trees) != 12 || warnings(m) != 1 || !strings.HasPrefix(m.status, "warning: "+said) {
			t.Errorf("retrained %d trees: warnings %q, status %q; want the warning said once", len(e.Trees), m.screen.Warnings, m.status)
		}
	}
}

// TestKBoundMessage: a K above a small model's trees is refused naming
// its trees as the bound: of a 1-tree model (tui --model) the message was
// "K must be at most 100 (and at most the base ensemble's 1 trees)".
func TestKBoundMessage(t *testing.T) {
	for _, c := range []struct {
		trees int
		want  string
	}{
		{1, "K must be at most 1, the base ensemble's one tree"},
		{4, "K must be at most 4, the base ensemble's trees"},
		{300, "K must be at most 100 (and at most the base ensemble's 300 trees)"},
	} {
		par := settings{trees: c.trees}
		par.K = min(c.trees, 100) + 1
		err := checkParam(par, parK)
		if err == nil || err.Error() != c.want {
			t.Errorf("%d trees, K %d: %v, want %q", c.trees, par.K, err, c.want)
		}
	}
}

// TestPanelLossRetrains: the panel's loss steps between regression and
// lambdarank, and a step retrains the base ensemble as LambdaMART trees of
// the same shape: the trees boost.Train makes with lambdarank's defaults,
// not the squared-loss ones it had; a saved cascade's base says so.
func TestPanelLossRetrains(t *testing.T) {
	m := ready(t)
	if m.par.objective != boost.Regression || m.w.objective != boost.Regression || m.w.e.Objective != boost.Regression {
		t.Fatalf("default loss %q, trained %q (%q)", m.par.objective, m.w.objective, m.w.e.Objective)
	}
	regression := m.w.e
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 48})
	m.panel, m.sel = true, parObjective
	if v := m.View(); !strings.Contains(v, "loss regression") {
		t.Errorf("panel lacks the loss:\n%s", v)
	}
	m, _ = update(t, m, key("right"))
	if m.par.objective != boost.LambdaRank || m.status != "loss = lambdarank" {
		t.Fatalf("stepped to %q (status %q)", m.par.objective, m.status)
	}
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining || m.w.objective != boost.LambdaRank {
		t.Fatalf("loss edit: phase %d, training %q", m.phase, m.w.objective)
	}
	if v := m.View(); !strings.Contains(v, "base ensemble: 20 depth-2 lambdarank trees of 4 leaves") {
		t.Errorf("retraining view:\n%s", v)
	}
	m = drive(t, m, cmd, firstEvent)
	p := boost.DefaultParams(boost.LambdaRank)
	p.Trees, p.Grow.MaxDepth, p.Grow.MaxLeaves = 20, 2, 4
	want, err := boost.Train(context.Background(), m.w.train, m.w.valid, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.w.e.Objective != boost.LambdaRank || !reflect.DeepEqual(m.w.e.Trees, want.Ensemble.Trees) {
		t.Errorf("retrained %q trees, not those of lambdarank with train's defaults", m.w.e.Objective)
	}
	if reflect.DeepEqual(m.w.e.Trees, regression.Trees) {
		t.Errorf("lambdarank's trees are the squared-loss ones")
	}
	if m.runPar.objective != boost.LambdaRank || m.par != m.runPar {
		t.Errorf("running with loss %q", m.runPar.objective)
	}
	c, ok := m.savable()
	if !ok {
		t.Fatal("nothing to save")
	}
	if base, _ := c.fileParams()["base"].(map[string]any); base["objective"] != boost.LambdaRank {
		t.Errorf("saved base %v", base)
	}
	// Stepped again, it goes back to regression; enter steps it too.
	m, _ = update(t, m, key("enter"))
	if m.par.objective != boost.Regression || m.editing {
		t.Errorf("enter on loss: %q (typing %v)", m.par.objective, m.editing)
	}
}

// TestPanelLossOfModel: a model file's objective shows as it is; a retrain
// of trees whose objective the workbench trains keeps it, and of others
// trains regression trees, which the panel then shows.
func TestPanelLossOfModel(t *testing.T) {
	src := ready(t)
	src.stopRun()
	for _, c := range []struct{ objective, retrained string }{
		{boost.LambdaRank, boost.LambdaRank},
		{"rank:pairwise", boost.Regression},
	} {
		e := *src.w.e
		e.Objective = c.objective
		m, cmd := fromModel(t, &e, "")
		m = drive(t, m, cmd, firstEvent)
		if m.par.objective != c.objective || m.w.objective != c.objective {
			t.Fatalf("%s: panel loss %q, ensemble's %q", c.objective, m.par.objective, m.w.objective)
		}
		m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 48})
		m.panel = true
		if v := m.View(); !strings.Contains(v, "loss "+c.objective) {
			t.Errorf("%s: panel lacks the model's loss:\n%s", c.objective, v)
		}
		m.stopRun()
		m = typeParam(t, m, parTrees, "12")
		if len(m.w.e.Trees) != 12 || m.w.e.Objective != c.retrained || m.par.objective != c.retrained || m.par != m.runPar {
			t.Errorf("%s: retrained %d %q trees, panel loss %q", c.objective, len(m.w.e.Trees), m.w.e.Objective, m.par.objective)
		}
	}
	// Not a loss the workbench trains: a step goes to regression.
	par, err := stepParam(settings{objective: "binary"}, parObjective, -1)
	if err != nil || par.objective != boost.Regression {
		t.Errorf("step from binary: %q, %v", par.objective, err)
	}
}

// TestConfigObjective: cronus tui --objective lambdarank starts the
// workbench on LambdaMART trees (train's lambdarank defaults, the shape
// unchanged), the panel's loss row at lambdarank; it is the default shape
// then, so a step to regression is an edit and a step back is not.
func TestConfigObjective(t *testing.T) {
	cfg := mq2008
	cfg.Objective = boost.LambdaRank
	m := readyOn(t, cfg)
	if m.par.objective != boost.LambdaRank || m.w.objective != boost.LambdaRank || m.w.e.Objective != boost.LambdaRank {
		t.Fatalf("loss %q, trained %q (%q)", m.par.objective, m.w.objective, m.w.e.Objective)
	}
	p := boost.DefaultParams(boost.LambdaRank)
	p.Trees, p.Grow.MaxDepth, p.Grow.MaxLeaves = 20, 2, 4
	want, err := boost.Train(context.Background(), m.w.train, m.w.valid, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.w.e.Trees, want.Ensemble.Trees) {
		t.Errorf("trained trees are not lambdarank's with train's defaults")
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 48})
	m.panel, m.sel = true, parObjective
	if v := m.View(); !strings.Contains(v, "loss lambdarank") {
		t.Errorf("panel lacks the loss:\n%s", v)
	}
	if def := m.par.withDefaultShape(m.cfg); def.objective != boost.LambdaRank {
		t.Errorf("default shape's loss %q", def.objective)
	}
	// The edited loss is named as an edit a model file replaces; the
	// configured one is not.
	edited := m.par
	edited.objective = boost.Regression
	if got := m.shapeReplaced(edited); !strings.Contains(got, "loss regression") {
		t.Errorf("shapeReplaced of an edit to regression: %q", got)
	}
	if got := m.shapeReplaced(m.par); got != "" {
		t.Errorf("shapeReplaced of the configured loss: %q", got)
	}
}

// TestRefusedTargetsAfterRunFinished: a threshold nothing reaches, set
// after the run finished, is refused and said so, and the finished run
// stays finished: it started a warm run nobody asked for (a review,
// 2026-12-05), whose figures then replaced the finished run's.
func TestRefusedTargetsAfterRunFinished(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, optMsg{gen: m.gen, ev: job.Event[cronus.Snapshot, *cronus.Outcome]{Final: true, Snapshot: m.snap}})
	if m.running || !strings.Contains(m.status, "run 1 finished") {
		t.Fatalf("the run did not finish: %q", m.status)
	}
	runs := m.runs
	m.panel, m.sel = true, parRelevant
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("99"))
	m, _ = update(t, m, key("enter"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.phase == phaseReady })
	if m.running || m.run != nil || m.runs != runs {
		t.Errorf("a run started after the refused edit: running %v, runs %d (was %d)", m.running, m.runs, runs)
	}
	if !m.errLine || !strings.Contains(m.status, "nothing is relevant") || !strings.Contains(m.status, "the targets stay as they were") || m.par.tg.Relevant != 1 {
		t.Errorf("status %q, threshold %g", m.status, m.par.tg.Relevant)
	}
}

// TestEpsilonEditKeepsFigures: after an ε edit the status line at 90 to
// 110 columns gives the run's figures beside the message's short form; the
// whole message, which fits alone, left them no room for the whole run (a
// review, 2026-12-05). At 200 columns the whole message and the figures fit.
func TestEpsilonEditKeepsFigures(t *testing.T) {
	m := ready(t)
	m.sel = parEpsilon
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, firstEvent)
	for _, w := range []int{90, 100, 110, 115, 120, 130, 200} {
		m, _ = update(t, m, tea.WindowSizeMsg{Width: w, Height: 30})
		lines := strings.Split(m.View(), "\n")
		status := lines[len(lines)-2]
		if !strings.Contains(status, "ε 0.15 → 0.2: from scratch") || !strings.Contains(status, "NDCG@10") {
			t.Errorf("%d columns: %q", w, status)
		}
		if whole := strings.Contains(status, "which a warm start skips"); whole != (w == 200) {
			t.Errorf("%d columns, whole message %v: %q", w, whole, status)
		}
	}
}
