// Tests from the mutation audit of package tui (2026-12-06): each fails with one
// mutant of the workbench's logic that the other tests let through, and
// passes on the code as it is. The expectations are worked by hand from
// the ranges, steps and messages the help and the code's comments give.

package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// mutBase is the workbench's settings before any edit: the default
// parameters and targets, 300 trees of 4 leaves, every feature.
func mutBase() settings {
	return settings{Params: defaultParams(), tg: cronus.DefaultTargets(), trees: 300, leaves: 4, colSample: 1, objective: boost.Regression}
}

// TestParamBounds: each range's closed end is a value the user
// may type, its open end one refused (hand-worked from the ranges the
// messages name: ε in (0, 1), σ in (0, 10], ρ in [0, 100], δ in [1, 10],
// leaves in [2, 4096], col sample in (0, 1], K at most min(100, trees),
// trees at least K).
func TestParamBounds(t *testing.T) {
	small := mutBase()
	small.trees = 20 // a 20-tree model: K goes up to 20
	for _, c := range []struct {
		name string
		par  settings
		i    int
		v    string
		ok   bool
	}{
		{"epsilon_1", mutBase(), parEpsilon, "1", false},
		{"epsilon_0.999", mutBase(), parEpsilon, "0.999", true},
		{"sigma_10", mutBase(), parSigma, "10", true},
		{"rho_0", mutBase(), parRho, "0", true},
		{"delta_1", mutBase(), parDelta, "1", true},
		{"leaves_2", mutBase(), parLeaves, "2", true},
		{"leaves_1", mutBase(), parLeaves, "1", false},
		{"colsample_1", mutBase(), parColSample, "1", true},
		{"K_100_of_300_trees", mutBase(), parK, "100", true},
		{"K_101_of_300_trees", mutBase(), parK, "101", false},
		{"K_20_of_20_trees", small, parK, "20", true},
		{"K_21_of_20_trees", small, parK, "21", false},
		{"trees_10_with_K_10", mutBase(), parTrees, "10", true},
		{"trees_9_with_K_10", mutBase(), parTrees, "9", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := setParam(c.par, c.i, c.v)
			if (err == nil) != c.ok {
				t.Errorf("%s %s: error %v, want accepted %v", paramNames[c.i], c.v, err, c.ok)
			}
		})
	}
}

// TestRelevantStep: → raises the relevance threshold by one,
// ← lowers it (default 1: → gives 2, ← gives 0).
func TestRelevantStep(t *testing.T) {
	up, err := stepParam(mutBase(), parRelevant, 1)
	if err != nil || up.tg.Relevant != 2 {
		t.Errorf("→ on relevant ≥ 1: %v (%v), want 2", up.tg.Relevant, err)
	}
	down, err := stepParam(mutBase(), parRelevant, -1)
	if err != nil || down.tg.Relevant != 0 {
		t.Errorf("← on relevant ≥ 1: %v (%v), want 0", down.tg.Relevant, err)
	}
}

// TestSweepNoteDone: a sweep whose 8 values of λ are all done
// (its result not yet taken) is "λ sweep 8/8", with no 9th λ.
func TestSweepNoteDone(t *testing.T) {
	m := Model{sweep: &sweepRun{n: 8, k: 10}, sweepDone: 8, sweepStages: 10}
	note, short, _ := m.sweepNote()
	if note != "λ sweep 8/8" || short != "λ sweep 8/8" {
		t.Errorf("sweep note at 8 of 8: %q, %q; want \"λ sweep 8/8\"", note, short)
	}
	m.sweepDone, m.sweepStages = 2, 4
	if note, _, _ := m.sweepNote(); !strings.HasPrefix(note, "λ sweep 2/8 · 3rd λ: stage ") {
		t.Errorf("sweep note at 2 of 8: %q", note)
	}
}

// TestRhoNoteLast: with all 6 initialisations done the note
// says the 6th, not a 7th of 6.
func TestRhoNoteLast(t *testing.T) {
	m := Model{rho: &rhoRun{n: 6, k: 10}, rhoDone: 6, rhoStages: 10}
	note, short, _ := m.rhoNote()
	if short != "choosing ρ 6/6" || !strings.HasPrefix(note, "choosing ρ: initialisation 6 of 6") {
		t.Errorf("ρ note at 6 of 6: %q, %q", note, short)
	}
}

// TestPauseDropsSteps: steps granted while paused and not taken
// are dropped by a resume: pausing again grants none.
func TestPauseDropsSteps(t *testing.T) {
	g := newGate()
	g.setPaused(true)
	g.step()
	g.step()
	if n := g.grantedPending(); n != 2 {
		t.Fatalf("two steps granted: %d pending", n)
	}
	g.setPaused(false)
	g.setPaused(true)
	if n := g.grantedPending(); n != 0 {
		t.Errorf("after resume and pause: %d steps pending, want 0", n)
	}
}

// TestRenewedHeld: the gate of a restart's run, renewed while a
// quit waits for a write, holds the run's start too.
func TestRenewedHeld(t *testing.T) {
	g := newGate()
	g.setHeld(true)
	next := g.renewed()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	next.waitHeld(ctx)
	if time.Since(start) < 40*time.Millisecond {
		t.Error("the renewed gate of a held gate let the run start")
	}
}

// TestShiftTab: shift+tab goes to the previous pane, round the
// five: from the first (objective) to the last (stages), then the fourth.
func TestShiftTab(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyShiftTab})
	if m.pane != 4 {
		t.Errorf("shift+tab from pane 0: pane %d, want 4", m.pane)
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyShiftTab})
	if m.pane != 3 {
		t.Errorf("shift+tab from pane 4: pane %d, want 3", m.pane)
	}
}

// TestUpWraps: ↑ selects the parameter before, and from λ, the
// first, goes round to σ, the params line's last (the panel closed);
// then ↑ again selects ε.
func TestUpWraps(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyUp})
	if m.sel != parSigma {
		t.Errorf("↑ from λ: %s, want σ", paramNames[m.sel])
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyUp})
	if m.sel != parEpsilon {
		t.Errorf("↑ from σ: %s, want ε", paramNames[m.sel])
	}
}

// TestTargetsSteppedBack: the targets stepped on (binary to
// graded) and back before the edit's tick rebuild nothing, and the status
// line says "no rebuild", as of ω⁺ and the threshold: a targets edit
// rebuilds the problem, it does not merely restart.
func TestTargetsSteppedBack(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 60})
	m, _ = update(t, m, key("p"))
	m.sel = parTargets
	gen := m.gen
	m, _ = update(t, m, key("right"))
	if !m.par.tg.Graded {
		t.Fatalf("→ on targets binary: graded %v", m.par.tg.Graded)
	}
	m, _ = update(t, m, key("left"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if cmd != nil || m.gen != gen || m.phase != phaseReady {
		t.Fatalf("targets → then ←: the tick started work (generation %d → %d, phase %d)", gen, m.gen, m.phase)
	}
	if want := "targets = binary, as it was: no rebuild (r restarts from scratch)"; m.status != want {
		t.Errorf("targets → then ←: status %q, want %q", m.status, want)
	}
}

// TestHelpStaysAtEnd: ↓ pressed past the help's end leaves it at
// its last line; an error that then takes rows from the help (wrapped
// onto three lines) does not scroll it further: its first line shown
// stays the one it was.
func TestHelpStaysAtEnd(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = update(t, m, key("?"))
	for range 100 {
		m, _ = update(t, m, key("j"))
	}
	first := func(v string) string {
		_, rest, _ := strings.Cut(v, "lines ")
		from, _, _ := strings.Cut(rest, "-")
		return from
	}
	before := first(m.View())
	if before == "" {
		t.Fatalf("no scroll note in the help at 80×24:\n%s", m.View())
	}
	m.setStatus("saving "+strings.Repeat("a-very-long-path/", 12)+"cascade.json: permission denied", true)
	if after := first(m.View()); after != before {
		t.Errorf("an error below the scrolled help moved its first line from %s to %s", before, after)
	}
}

// TestResumeAfterFailedLoad: paused while the data loads, then
// the load fails: space still resumes (only pausing is refused after the
// error, there being nothing to pause); refused, the pause stood on the
// error screen and held the run of the next load.
func TestResumeAfterFailedLoad(t *testing.T) {
	m := New(context.Background(), Config{Train: "/nonexistent/train.txt"}, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if !m.paused {
		t.Fatalf("space while loading did not pause: status %q", m.status)
	}
	m, _ = update(t, m, m.load())
	if m.phase != phaseFailed {
		t.Fatalf("phase %d after a load of a missing file", m.phase)
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if m.paused || m.gate.isPaused() {
		t.Errorf("space after the failed load left the workbench paused: status %q", m.status)
	}
	// Once resumed, space after the error refuses to pause again.
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if m.paused || !m.errLine {
		t.Errorf("space after the error paused: status %q", m.status)
	}
}

// TestRestartTakesTargetsEdit: r right after a targets edit,
// before its tick, rebuilds the problem with the new targets (the edit's
// tick, made stale by r, would not): the problem is the graded one the
// panel shows, not the binary one.
func TestRestartTakesTargetsEdit(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 60})
	m, _ = update(t, m, key("p"))
	m.sel = parTargets
	m, _ = update(t, m, key("right"))
	if !m.par.tg.Graded || m.w.tg.Graded {
		t.Fatalf("→ on targets: edited graded %v, problem graded %v", m.par.tg.Graded, m.w.tg.Graded)
	}
	m, cmd := update(t, m, key("r"))
	if m.phase != phasePreparing {
		t.Fatalf("r after a targets edit: phase %d, want the problem rebuilt (status %q)", m.phase, m.status)
	}
	m = drive(t, m, cmd, firstEvent)
	if !m.w.tg.Graded || m.par.tg != m.w.tg {
		t.Errorf("after r: problem graded %v, settings graded %v", m.w.tg.Graded, m.par.tg.Graded)
	}
}

// TestTypedThresholdAsItWas: the relevance threshold typed as
// it is (1) starts nothing, and the status says there is no rebuild, as
// for ω⁺: both rebuild the problem when changed.
func TestTypedThresholdAsItWas(t *testing.T) {
	r := ready(t)
	r, _ = update(t, r, tea.WindowSizeMsg{Width: 160, Height: 60})
	for _, c := range []struct {
		i    int
		v    string
		want string
	}{
		{parRelevant, "1", "relevant ≥ 1, as it was: no rebuild (r restarts from scratch)"},
		{parPosWeight, "3.5", "ω⁺ = 3.5, as it was: no rebuild (r restarts from scratch)"},
	} {
		m := enterParam(t, r, c.i, c.v)
		if m.status != c.want || m.errLine {
			t.Errorf("%s typed as %s: status %q, want %q", paramNames[c.i], c.v, m.status, c.want)
		}
	}
}

// TestHiddenRhoNotStepped: with ρ selected and the panel gone
// from the screen by other means than p or a resize (both of which move
// the selection themselves; here the panel is switched off in the model),
// → steps λ, the params line's first, never the hidden ρ.
func TestHiddenRhoNotStepped(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 60})
	m.panel, m.sel = false, parRho
	rho, lambda := m.par.Rho1, m.par.Lambda
	m, _ = update(t, m, key("right"))
	if m.par.Rho1 != rho || lambda != 0.01 || m.par.Lambda != 0.015 || m.sel != parLambda {
		t.Errorf("→ with the hidden ρ selected: ρ %g → %g, λ %g → %g, selected %s; want λ 0.01 → 0.015 and ρ as it was",
			rho, m.par.Rho1, lambda, m.par.Lambda, paramNames[m.sel])
	}
}

// TestPickModelNone: enter on the model field, the last, sets
// it and stays there (there is no field after it); the choice past the
// last field panicked on the load screen's values.
func TestPickModelNone(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := openLoadScreen(t)
	for m.loadScr.field != fieldModel {
		m, _ = update(t, m, special(tea.KeyTab))
	}
	m.loadScr.values[fieldModel] = "some-model.json"
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("enter on the model field's (none): panic %v", r)
			}
		}()
		m = pick(t, m, "")
	}()
	if m.loadScr == nil || m.loadScr.field != fieldModel || m.loadScr.values[fieldModel] != "" {
		t.Errorf("after (none) on the model field: screen %v, field %v, model %q", m.loadScr != nil, m.loadScr.field, m.loadScr.values[fieldModel])
	}
}

// TestLoadListUpWraps: on the load screen ↑ (or k) from the
// first line goes round to the last, and ↑ again to the one before it.
func TestLoadListUpWraps(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := openLoadScreen(t)
	n := len(m.loadScr.list)
	if n < 3 {
		t.Fatalf("the train field lists %d lines", n)
	}
	m.loadScr.sel = 0
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyUp})
	if m.loadScr.sel != n-1 {
		t.Errorf("↑ from the first of %d lines: line %d, want %d", n, m.loadScr.sel, n-1)
	}
	m, _ = update(t, m, key("k"))
	if m.loadScr.sel != n-2 {
		t.Errorf("k from the last of %d lines: line %d, want %d", n, m.loadScr.sel, n-2)
	}
}

// TestListWindowEnd: 10 lines in 4 rows, the 8th selected
// (index 7): the window is the last three lines, 7–9, under "↑ more",
// with no "↓ more" (nothing is below); the 7th (index 6) still needs both
// hints, lines 5–6.
func TestListWindowEnd(t *testing.T) {
	for _, c := range []struct {
		sel, top, count int
		up, down        bool
	}{
		{7, 7, 3, true, false},
		{9, 7, 3, true, false},
		{6, 5, 2, true, true},
	} {
		top, count, up, down := listWindow(10, c.sel, 4)
		if top != c.top || count != c.count || up != c.up || down != c.down {
			t.Errorf("listWindow(10, %d, 4) = %d, %d, %v, %v; want %d, %d, %v, %v", c.sel, top, count, up, down, c.top, c.count, c.up, c.down)
		}
	}
}

// TestWarmKept: of a warm start's stages Optimize takes all but
// the last, at most K − 1, as they are (the last stays the last): 11 of a
// 12-stage cascade for K 20, 19 of a 25-stage one, 2 of a 5-stage one for
// K 3 (none when it has K stages, or without a warm start).
func TestWarmKept(t *testing.T) {
	stages := func(n int) *cronus.Cascade { return &cronus.Cascade{Stages: make([]cronus.Stage, n)} }
	for _, c := range []struct {
		warm    *cronus.Cascade
		k, want int
	}{
		{stages(12), 20, 11},
		{stages(25), 20, 19},
		{stages(5), 3, 2},
		{stages(20), 20, 0},
		{nil, 20, 0},
	} {
		n := 0
		if c.warm != nil {
			n = len(c.warm.Stages)
		}
		if got := warmKept(c.warm, c.k); got != c.want {
			t.Errorf("warmKept(%d stages, K %d) = %d, want %d", n, c.k, got, c.want)
		}
	}
}
