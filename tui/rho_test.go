package tui

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/cronus"
	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// TestRhoGridIsCascades: the workbench chooses ρ from the grid of
// `cronus cascade` (defaultRhos in cmd_cascade.go).
func TestRhoGridIsCascades(t *testing.T) {
	b, err := os.ReadFile("../cmd_cascade.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const defaultRhos = "([^"]*)"`).FindSubmatch(b)
	if m == nil {
		t.Fatal("cmd_cascade.go has no defaultRhos")
	}
	var grid []string
	for _, r := range rhoGrid {
		grid = append(grid, formatFloat(r))
	}
	if got := strings.Join(grid, ","); got != string(m[1]) {
		t.Errorf("the workbench's ρ grid %s, cronus cascade's %s", got, m[1])
	}
}

// readyOffGridRho is a ready workbench width columns wide with ρ 0.03,
// off the grid, so that any choice changes it.
func readyOffGridRho(t *testing.T, width int) Model {
	t.Helper()
	m := ready(t)
	m = enterParam(t, m, parRho, "0.03")
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	m, _ = update(t, m, tea.WindowSizeMsg{Width: width, Height: 48})
	return m
}

// evalInitAt is Algorithm 2's cascade at par with ρ_1 = ρ_K = rho, scored
// on the workbench's validation data: what the choice of ρ looks at.
func evalInitAt(t *testing.T, m Model, par cronus.Params, rho float64) cronus.Eval {
	t.Helper()
	par.Rho1, par.RhoK = rho, rho
	st, err := cronus.Initialize(t.Context(), m.w.pr, m.w.sc, par)
	if err != nil {
		t.Fatal(err)
	}
	return cronus.Evaluate(m.w.e, &st.Cascade, m.w.valid, m.w.costs.Cost, m.w.treeCost, reportSpecs)
}

// startChoosingRho presses enter twice on the ρ line of the panel: the
// second, with no value typed, starts the choice of ρ.
func startChoosingRho(t *testing.T, m Model) (Model, tea.Cmd) {
	t.Helper()
	m.panel, m.sel = true, parRho
	m, _ = update(t, m, key("enter"))
	if !m.editing {
		t.Fatal("enter on the ρ line does not type a value")
	}
	return update(t, m, key("enter"))
}

// rhoStep runs the command of the choice's next event and takes it.
func rhoStep(t *testing.T, m Model, cmd tea.Cmd) (Model, tea.Cmd) {
	t.Helper()
	msg, ok := cmd().(rhoMsg)
	if !ok {
		t.Fatal("the command does not give an event of the choice of ρ")
	}
	return update(t, m, msg)
}

// TestChooseRho: enter with no value on the ρ line runs Algorithm 2 at
// every ρ of cronus cascade's grid, shows how far it has come, sets ρ to
// the one whose cascade scores best on validation NDCG@10 — here against
// Algorithm 2 and the evaluation run in the test — and restarts the
// optimisation, warm, as an edit of ρ does.
func TestChooseRho(t *testing.T) {
	m := readyOffGridRho(t, 160)
	par := m.par.Params
	runs := m.runs

	// Independently: cronus cascade's choice (setup.chooseRho).
	want, best := par.Rho1, -1.0
	var scores []string
	for _, rho := range rhoGrid {
		q := evalInitAt(t, m, par, rho).Metrics["ndcg@10"]
		scores = append(scores, fmt.Sprintf("%g: %.4f", rho, q))
		if q > best {
			want, best = rho, q
		}
	}
	t.Logf("validation NDCG@10 of Algorithm 2 at each ρ: %s", strings.Join(scores, ", "))

	m, cmd := startChoosingRho(t, m)
	if m.rho == nil || cmd == nil {
		t.Fatalf("enter, enter on ρ does not start the choice (status %q)", m.status)
	}
	if m.runs != runs || !m.running {
		t.Errorf("the choice disturbed the optimisation: runs %d → %d, running %v", runs, m.runs, m.running)
	}
	if s := statusOf(m); !strings.Contains(s, "choosing ρ: initialisation 1 of 6 · stage 1 of") {
		t.Errorf("no progress on the status line: %q", s)
	}
	done := 0
	for m.rho != nil {
		m, cmd = rhoStep(t, m, cmd)
		if m.rhoDone < done {
			t.Fatalf("progress went back: %d after %d", m.rhoDone, done)
		}
		done = m.rhoDone
		if m.rho != nil && done == 1 {
			// Beside the choice's note the run's status keeps its
			// NDCG@10 from 85 columns on: from 100 to 112 it read "done
			// c8 s10/10" alone. (The run shown as it optimises: here it
			// waits to restart.)
			shown := m
			shown.snap.Phase = "optimising"
			for w := 85; w <= 200; w++ {
				got := shown.statusLine(w)
				if _, run, ok := strings.Cut(got, " │ "); !ok || !strings.Contains(run, "NDCG@10") || lipgloss.Width(got) > w {
					t.Errorf("status line at %d columns while choosing ρ %q: no room for the run's NDCG@10, or too wide", w, got)
				}
			}
		}
		if m.rho != nil {
			if note, _, _ := m.rhoNote(); !strings.HasPrefix(note, fmt.Sprintf("choosing ρ: initialisation %d of 6", min(done+1, 6))) {
				t.Errorf("note %q after %d done", note, done)
			}
			if m.par.Rho1 != par.Rho1 {
				t.Fatalf("ρ changed to %g before the choice ended", m.par.Rho1)
			}
		}
	}
	if m.par.Rho1 != want || m.par.RhoK != want {
		t.Errorf("ρ %g, %g chosen, want %g (status %q)", m.par.Rho1, m.par.RhoK, want, m.status)
	}
	said := fmt.Sprintf("ρ %s chosen on validation NDCG@10 %.4f (of 6: 0.0002 … 0.1)", formatFloat(want), best)
	if m.status != said || m.errLine {
		t.Errorf("status %q, want %q", m.status, said)
	}
	// Restarted, warm, with the new ρ and nothing else changed.
	if m.runs != runs+1 || m.runPar.Rho1 != want || cmd == nil {
		t.Fatalf("no restart: runs %d → %d, run's ρ %g", runs, m.runs, m.runPar.Rho1)
	}
	rp := m.runPar.Params
	rp.Rho1, rp.RhoK = par.Rho1, par.RhoK
	if rp != par {
		t.Errorf("the restart's parameters %+v, want %+v with ρ %g", m.runPar.Params, par, want)
	}
	started, ok := cmd().(optStartedMsg)
	if !ok {
		t.Fatal("the restart's command does not start a run")
	}
	if !started.run.info.warm {
		t.Error("the restart is not warm, as an edit of ρ's is")
	}
	m, _ = update(t, m, started)

	// Chosen again, it is the same: no restart.
	m, cmd = startChoosingRho(t, m)
	for m.rho != nil {
		m, cmd = rhoStep(t, m, cmd)
	}
	if m.runs != runs+1 || m.status != said+", as it was: no restart" {
		t.Errorf("the same choice again: runs %d → %d, status %q", runs+1, m.runs, m.status)
	}
}

// TestChooseRhoCancels: an edit (of ρ too), r, enter with no value again
// or a load of other data cancel the choice, and ρ stays as it was,
// whatever events of the job still come.
func TestChooseRhoCancels(t *testing.T) {
	ready := ready(t)
	rho := ready.par.Rho1
	const cancelled = "choosing ρ cancelled at 1 of 6"
	for _, c := range []struct {
		how  string
		want string // the status message
	}{
		{"λ", "λ = 0.015; " + cancelled},
		{"→ρ", "ρ = 0.03; " + cancelled},
		{"r", "restarted from scratch; " + cancelled},
		{"enter", cancelled},
		{"load", "; " + cancelled},
	} {
		m, cmd := startChoosingRho(t, ready)
		if m.rho == nil {
			t.Fatalf("%s: no choice", c.how)
		}
		gen, run := m.rhoGen, m.rho
		for m.rho != nil && m.rhoDone == 0 {
			m, cmd = rhoStep(t, m, cmd)
		}
		if m.rho == nil || m.rhoDone != 1 {
			t.Fatalf("%s: the choice is not at its second ρ", c.how)
		}
		wantRho := rho
		switch c.how {
		case "λ", "→ρ":
			// At the edit's tick, as a λ sweep: stepped back before it,
			// the edit cancels nothing (TestChooseRhoSteppedBack).
			if c.how == "λ" {
				m = enterParam(t, m, parLambda, "0.015")
			} else {
				m.sel = parRho
				m, _ = update(t, m, key("right"))
				wantRho = 0.03
			}
			if m.rho == nil || m.rhoGen != gen {
				t.Fatalf("%s: the choice cancelled at the key, before the edit's tick", c.how)
			}
			m, _ = update(t, m, debounceMsg{edit: m.edits})
		case "r":
			m, _ = update(t, m, key("r"))
		case "enter":
			m, _ = startChoosingRho(t, m)
		case "load":
			m, _ = update(t, m, key("o"))
			m.loadScr.values = [numFields]string{"builtin:mq2008/test", "", "", "", ""}
			var load tea.Cmd
			m, load = update(t, m, key("l"))
			if m.rho == nil {
				t.Fatal("load: the choice ended before the data had loaded")
			}
			m, _ = update(t, m, load())
		}
		if m.rho != nil || m.rhoGen == gen {
			t.Fatalf("%s does not cancel the choice of ρ", c.how)
		}
		if m.par.Rho1 != wantRho || m.par.RhoK != wantRho {
			t.Errorf("%s: ρ %g, %g, want %g", c.how, m.par.Rho1, m.par.RhoK, wantRho)
		}
		if c.how == "load" && !strings.Contains(m.status, c.want) || c.how != "load" && m.status != c.want {
			t.Errorf("%s: status %q, want %q", c.how, m.status, c.want)
		}
		// The job ends promptly, and its remaining events are dropped.
		next, _ := update(t, m, cmd())
		for ev := range run.job.Events() {
			next, _ = update(t, next, rhoMsg{gen, ev})
		}
		if next.par.Rho1 != wantRho || next.rho != nil || next.status != m.status {
			t.Errorf("%s: a cancelled choice's event was taken: ρ %g, status %q", c.how, next.par.Rho1, next.status)
		}
		next.stopRun()
	}
}

// TestChooseRhoRefused: before the problem is built, with an edit still
// to apply, or without validation data, the choice is refused and says
// why; typing a ρ works as before.
func TestChooseRhoRefused(t *testing.T) {
	m := ready(t)
	pending := enterParam(t, m, parLambda, "0.015")
	pending, _ = startChoosingRho(t, pending)
	if pending.rho != nil || !pending.errLine || !strings.Contains(pending.status, "an edit waits to be applied") {
		t.Errorf("with an edit pending: choice %v, status %q", pending.rho != nil, pending.status)
	}
	noValid := m
	w := *m.w
	w.valid = nil
	noValid.w = &w
	noValid, _ = startChoosingRho(t, noValid)
	if noValid.rho != nil || !strings.Contains(noValid.status, "no validation data") {
		t.Errorf("without validation data: choice %v, status %q", noValid.rho != nil, noValid.status)
	}
	typed := enterParam(t, m, parRho, "0.005")
	if typed.rho != nil || typed.par.Rho1 != 0.005 || typed.status != "ρ = 0.005" {
		t.Errorf("typed ρ: %g, status %q", typed.par.Rho1, typed.status)
	}
	m.stopRun()
}

// TestRhoInHelp: the help and the panel say what enter does on ρ.
func TestRhoInHelp(t *testing.T) {
	i := slices.IndexFunc(keyHelp, func(k struct{ keys, what string }) bool { return k.keys == "enter" })
	if i < 0 || !strings.Contains(keyHelp[i].what, "chooses it on validation") {
		t.Errorf("the help's enter does not say that it chooses ρ")
	}
}

// TestChooseRhoSteppedBack: an edit stepped back before its tick (→ then
// ←) leaves a running choice of ρ going, as it does a λ sweep, and the
// choice ends as it would have; a choice that ends between an edit and
// its tick (→, the end, then ← or not) waits for it: stepped back, its ρ
// is set then; a real edit cancels it at the tick, ρ as the edit left it. The arrow key cancelled
// the choice at once, for nothing when stepped back.
func TestChooseRhoSteppedBack(t *testing.T) {
	ready := ready(t)
	// From a ρ off the grid, so that any choice changes it.
	ready = enterParam(t, ready, parRho, "0.03")
	ready, _ = update(t, ready, debounceMsg{edit: ready.edits})
	rho := ready.par.Rho1
	var chosen float64
	for _, c := range []struct {
		how     string
		sel     int
		endsFor bool // the choice ends before the edit's tick
		back    bool // the edit is stepped back
	}{
		{"λ → ←", parLambda, false, true},
		{"ρ → ←", parRho, false, true},
		{"λ → ←, ended meanwhile", parLambda, true, true},
		{"ρ →, ended meanwhile", parRho, true, false},
		{"λ →, ended meanwhile", parLambda, true, false},
	} {
		m, cmd := startChoosingRho(t, ready)
		if m.rho == nil {
			t.Fatalf("%s: no choice", c.how)
		}
		for m.rho != nil && m.rhoDone == 0 {
			m, cmd = rhoStep(t, m, cmd)
		}
		m.sel = c.sel
		runs, gen := m.runs, m.rhoGen
		m, _ = update(t, m, key("right"))
		edited := m.par
		if c.endsFor {
			for {
				msg, ok := cmd().(rhoMsg)
				if !ok {
					t.Fatalf("%s: the command does not give an event of the choice of ρ", c.how)
				}
				m, cmd = update(t, m, msg)
				if msg.ev.Final {
					break
				}
			}
			if m.rho == nil || m.rhoHeld == nil || m.par.Rho1 != edited.Rho1 || m.runs != runs {
				t.Fatalf("%s: the choice's end did not wait for the edit's tick: ρ %g, runs %d → %d", c.how, m.par.Rho1, runs, m.runs)
			}
		}
		if c.back {
			m, _ = update(t, m, key("left"))
		}
		m, cmd2 := update(t, m, debounceMsg{edit: m.edits})
		if !c.back {
			if m.rho != nil || m.rhoHeld != nil || m.rhoGen == gen {
				t.Fatalf("%s: the edit's tick did not cancel the choice", c.how)
			}
			if m.par != edited || m.runPar != edited {
				t.Errorf("%s: ρ %g, run's %g, want the edit's %g", c.how, m.par.Rho1, m.runPar.Rho1, edited.Rho1)
			}
			if want := paramSaid(edited, c.sel) + "; choosing ρ cancelled at 6 of 6"; m.status != want {
				t.Errorf("%s: status %q, want %q", c.how, m.status, want)
			}
			m.stopRun()
			continue
		}
		if c.endsFor {
			cmd = cmd2
		} else {
			if m.rho == nil || m.rhoGen != gen {
				t.Fatalf("%s: the stepped-back edit cancelled the choice (status %q)", c.how, m.status)
			}
			if want := paramSaid(m.par, c.sel) + ", as it was: no restart (r restarts from scratch)"; m.status != want {
				t.Errorf("%s: status %q, want %q", c.how, m.status, want)
			}
			for m.rho != nil {
				m, cmd = rhoStep(t, m, cmd)
			}
		}
		// The choice ended as one never disturbed: ρ chosen, the run
		// restarted with it, warm.
		if m.rho != nil || m.rhoHeld != nil || m.par.Rho1 == rho || m.par.Rho1 != m.par.RhoK || m.runPar != m.par || m.runs != runs+1 || cmd == nil {
			t.Fatalf("%s: choice %v, ρ %g (was %g), runs %d → %d, status %q", c.how, m.rho != nil, m.par.Rho1, rho, runs, m.runs, m.status)
		}
		if chosen == 0 {
			chosen = m.par.Rho1
		} else if m.par.Rho1 != chosen {
			t.Errorf("%s: ρ %g chosen, the first case %g", c.how, m.par.Rho1, chosen)
		}
		if !strings.HasPrefix(m.status, "ρ "+formatFloat(chosen)+" chosen on validation NDCG@10") {
			t.Errorf("%s: status %q", c.how, m.status)
		}
		m.stopRun()
	}
}

// TestChooseRhoOneSEWorkbench: 1se typed on the ρ line chooses ρ by the
// one-standard-error rule, as cronus cascade --rho-rule 1se does: the
// largest ρ whose initialised cascade trails the best on validation by no
// more than the standard error of the per-query NDCG@10 differences —
// here worked out in the test from Algorithm 2 and the evaluation — and
// the status line names the best it passed over. Its letters are not
// stray characters there.
func TestChooseRhoOneSEWorkbench(t *testing.T) {
	m := readyOffGridRho(t, 200)
	par := m.par.Params

	// Independently: each ρ's per-query validation NDCG@10, the best
	// mean, then the largest ρ within one standard error of it.
	perQuery := make([][]float64, len(rhoGrid))
	means := make([]float64, len(rhoGrid))
	best := 0
	for i, rho := range rhoGrid {
		perQuery[i] = evalInitAt(t, m, par, rho).PerQuery["ndcg@10"]
		var n int
		for _, v := range perQuery[i] {
			if !math.IsNaN(v) {
				means[i] += v
				n++
			}
		}
		means[i] /= float64(n)
		if means[i] > means[best] {
			best = i
		}
	}
	want := best
	for i := range rhoGrid {
		var d []float64
		for q, a := range perQuery[best] {
			if b := perQuery[i][q]; !math.IsNaN(a) && !math.IsNaN(b) {
				d = append(d, a-b)
			}
		}
		var mean, ss float64
		for _, x := range d {
			mean += x
		}
		mean /= float64(len(d))
		for _, x := range d {
			ss += (x - mean) * (x - mean)
		}
		se := math.Sqrt(ss/float64(len(d)-1)) / math.Sqrt(float64(len(d)))
		if rhoGrid[i] > rhoGrid[want] && mean <= se {
			want = i
		}
	}
	t.Logf("validation NDCG@10 at each ρ: %v; best %g, 1se %g", means, rhoGrid[best], rhoGrid[want])
	if want == best {
		t.Fatal("on this data the rule takes the best ρ: the test cannot tell the rules apart")
	}

	m.panel, m.sel = true, parRho
	m, _ = update(t, m, key("enter"))
	for _, r := range "1se" {
		m, _ = update(t, m, key(string(r)))
		if m.errLine {
			t.Fatalf("typing 1se: %q refused as it is typed", m.status)
		}
	}
	if v := m.View(); !strings.Contains(v, "1se: by the one-standard-error rule") {
		t.Errorf("the params line does not say what 1se does:\n%s", v)
	}
	m, cmd := update(t, m, key("enter"))
	if m.rho == nil || cmd == nil || !strings.Contains(m.status, "choosing ρ on validation NDCG@10 by the one-standard-error rule") {
		t.Fatalf("enter, 1se, enter on ρ does not start the choice by the rule (status %q)", m.status)
	}
	for m.rho != nil {
		m, cmd = rhoStep(t, m, cmd)
	}
	if m.par.Rho1 != rhoGrid[want] || m.par.RhoK != rhoGrid[want] {
		t.Errorf("ρ %g, %g chosen, want %g (status %q)", m.par.Rho1, m.par.RhoK, rhoGrid[want], m.status)
	}
	said := fmt.Sprintf("ρ %s chosen on validation NDCG@10 %.4f by the one-standard-error rule (the best: ρ %s, %.4f) (of 6: 0.0002 … 0.1)",
		formatFloat(rhoGrid[want]), means[want], formatFloat(rhoGrid[best]), means[best])
	if m.status != said || m.errLine {
		t.Errorf("status %q, want %q", m.status, said)
	}
	if m.runPar.Rho1 != rhoGrid[want] || cmd == nil {
		t.Errorf("no restart with the chosen ρ: the run's ρ %g", m.runPar.Rho1)
	}
	m.stopRun()
}
