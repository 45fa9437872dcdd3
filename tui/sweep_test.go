package tui

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

func TestSweepLambdas(t *testing.T) {
	got := sweepLambdas(0.002, 0.5, 8)
	if len(got) != 8 || got[0] != 0.002 || math.Abs(got[7]-0.5) > 1e-12 {
		t.Fatalf("grid %v", got)
	}
	// Log-spaced: a constant ratio, (0.5/0.002)^(1/7).
	want := math.Pow(250, 1.0/7)
	for i := 1; i < len(got); i++ {
		if r := got[i] / got[i-1]; math.Abs(r-want) > 1e-9 {
			t.Errorf("ratio %d: %g, want %g", i, r, want)
		}
	}
	if g := sweepLambdas(0.1, 0.5, 1); !slices.Equal(g, []float64{0.1}) {
		t.Errorf("one value: %v", g)
	}
}

// sweepStep runs the command of the sweep's next event and takes it.
func sweepStep(t *testing.T, m Model, cmd tea.Cmd) (Model, tea.Cmd) {
	t.Helper()
	msg, ok := cmd().(sweepMsg)
	if !ok {
		t.Fatal("the command does not give a sweep event")
	}
	return update(t, m, msg)
}

func TestSweepStreamsPoints(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 160, Height: 48})
	gen := m.gen
	m, cmd := update(t, m, key("w"))
	if m.sweep == nil || cmd == nil {
		t.Fatal("w does not start a sweep")
	}
	if m.gen != gen || !m.running {
		t.Errorf("the sweep disturbed the optimisation: generation %d → %d, running %v", gen, m.gen, m.running)
	}
	if v := m.View(); !strings.Contains(v, "λ sweep 0/8") {
		t.Errorf("no sweep progress in the status line:\n%s", v)
	}
	done := 0
	for m.sweep != nil {
		m, cmd = sweepStep(t, m, cmd)
		if m.sweepDone < done {
			t.Fatalf("progress went back: %d after %d", m.sweepDone, done)
		}
		done = m.sweepDone
		if m.sweep != nil && !strings.Contains(m.View(), fmt.Sprintf("λ sweep %d/8", done)) {
			t.Errorf("status does not show %d/8", done)
		}
	}
	if cmd != nil || done != sweepN {
		t.Fatalf("sweep ended at %d of %d, cmd %v, status %q", done, sweepN, cmd, m.status)
	}
	if len(m.sweepPts) != 2*sweepN {
		t.Fatalf("%d points, want %d (valid and test per λ)", len(m.sweepPts), 2*sweepN)
	}
	lambdas := sweepLambdas(sweepFrom, sweepTo, sweepN)
	for i, p := range m.sweepPts {
		if p.Method != sweepMethod || p.Lambda != lambdas[i/2] || p.Split != [2]string{"valid", "test"}[i%2] ||
			p.Metrics["ndcg@10"] <= 0 || !(p.Cost.Total > 0) {
			t.Errorf("point %d: %+v", i, p)
		}
	}
	// A larger λ never costs more by much: the first point is the dearest.
	if first, last := m.sweepPts[1].Cost.Total, m.sweepPts[len(m.sweepPts)-1].Cost.Total; last > first {
		t.Errorf("cost at λ %g is %g, above %g at λ %g", lambdas[sweepN-1], last, first, lambdas[0])
	}
	if !strings.Contains(m.status, "λ sweep done") {
		t.Errorf("status %q", m.status)
	}
	// The plot shows the test points as the λ sweep; the export has both
	// splits under the CSV's method name.
	curve := m.sweepCurve()
	if len(curve) != sweepN || curve[0].Method != views.MethodSweep || curve[0].Split != "test" {
		t.Errorf("plotted sweep %+v", curve)
	}
	m.pane = paneCurve
	if v := m.View(); !strings.Contains(v, views.MethodSweep) {
		t.Errorf("the plot has no λ sweep series:\n%s", v)
	}
	exported := 0
	for _, p := range m.curvePoints() {
		if p.Method == sweepMethod {
			exported++
		}
	}
	if exported != 2*sweepN {
		t.Errorf("%d sweep points exported, want %d", exported, 2*sweepN)
	}
	// A restart (a parameter change or r) keeps the finished sweep's points.
	m, _ = update(t, m, key("r"))
	if len(m.sweepPts) != 2*sweepN {
		t.Errorf("r dropped the sweep's points")
	}
	// Other data drop them, and the load says so.
	m.stopRun()
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{"builtin:mq2008/test", "", "", "", ""}
	m, cmd = update(t, m, key("l"))
	m, _ = update(t, m, cmd())
	if len(m.sweepPts) != 0 || !strings.Contains(m.status, "dropped the λ sweep (old data)") {
		t.Errorf("after loading other data: %d sweep points, status %q", len(m.sweepPts), m.status)
	}
}

func TestSweepCancels(t *testing.T) {
	ready := ready(t)
	for _, how := range []string{"w", "r", "trees", "load"} {
		m, cmd := update(t, ready, key("w"))
		if m.sweep == nil {
			t.Fatalf("%s: no sweep", how)
		}
		sweepGen, run := m.sweepGen, m.sweep
		// Up to the first point (Algorithm 2's progress comes before it).
		for m.sweep != nil && len(m.sweepPts) == 0 {
			m, cmd = sweepStep(t, m, cmd)
		}
		if m.sweep == nil || len(m.sweepPts) == 0 {
			t.Fatalf("%s: first event: sweep %v, points %d", how, m.sweep != nil, len(m.sweepPts))
		}
		pts := m.sweepPts
		switch how {
		case "trees": // a new base ensemble: the points go too
			m.par.trees += 10
			m, _ = update(t, m, debounceMsg{edit: m.edits})
			pts = nil
		case "load": // other data: so do they, and the load says so
			m, _ = update(t, m, key("o"))
			m.loadScr.values = [numFields]string{"builtin:mq2008/test", "", "", "", ""}
			var load tea.Cmd
			m, load = update(t, m, key("l"))
			if m.sweep == nil {
				t.Fatalf("load: the sweep ended before the data had loaded")
			}
			m, _ = update(t, m, load())
			if !strings.Contains(m.status, "λ sweep cancelled at 1 of 8") {
				t.Errorf("load: status %q", m.status)
			}
			pts = nil
		default:
			m, _ = update(t, m, key(how))
		}
		if m.sweep != nil || m.sweepGen == sweepGen {
			t.Fatalf("%s does not cancel the sweep", how)
		}
		if how == "w" && !strings.Contains(m.status, "λ sweep cancelled at 1 of 8") {
			t.Errorf("w: status %q", m.status)
		}
		// r says both what it did and what it cancelled; the sweep's note
		// replaced "restarted from scratch".
		if how == "r" && (!strings.Contains(m.status, "restarted from scratch") || !strings.Contains(m.status, "λ sweep cancelled at 1 of 8")) {
			t.Errorf("r: status %q", m.status)
		}
		// The job ends promptly, and its remaining events are dropped.
		next, _ := update(t, m, cmd())
		for ev := range run.job.Events() {
			next, _ = update(t, next, sweepMsg{sweepGen, ev})
		}
		if next.sweep != nil || len(next.sweepPts) != len(pts) {
			t.Errorf("%s: a cancelled sweep's event was taken: %d points, want %d", how, len(next.sweepPts), len(pts))
		}
	}
}

// TestSweepCancelledByEdit: an edit that restarts the run (λ, K, ε, σ, ρ),
// rebuilds the problem (targets) or retrains the ensemble (trees) cancels
// a running λ sweep, and the status line says both what the edit did and
// where the sweep stopped, as r does: "λ sweep cancelled at 1 of 8"
// replaced "λ = 0.015", and a retrain's "dropped 1 kept (old ensemble)"
// replaced the sweep's word.
func TestSweepCancelledByEdit(t *testing.T) {
	ready := ready(t)
	ready, _ = update(t, ready, key("k")) // a retrain drops it
	ready.stopRun()
	const cancelled = "λ sweep cancelled at 1 of 8"
	for _, c := range []struct {
		par   int
		value string
		want  string // the whole status message
		short string // said at 80 columns, where the whole does not fit
	}{
		{parLambda, "0.015", "λ = 0.015; " + cancelled, ""},
		{parK, "4", "K = 4; " + cancelled, ""},
		{parEpsilon, "0.2", "ε 0.15 → 0.2: from scratch (ε and δ shape the initialisation, which a warm start skips); " + cancelled,
			"ε 0.15 → 0.2: from scratch; " + cancelled},
		{parSigma, "2", "σ = 2; " + cancelled, ""},
		{parRho, "0.03", "ρ = 0.03; " + cancelled, ""}, // 0.02, ρ's value, changes nothing now
		{parTargets, "", "targets = graded; " + cancelled, ""},
		{parTrees, "30", cancelled + "; dropped 1 kept (old ensemble)", cancelled + "; dropped 1 kept"},
	} {
		name := paramNames[c.par]
		m, cmd := update(t, ready, key("w"))
		for m.sweep != nil && len(m.sweepPts) == 0 {
			m, cmd = sweepStep(t, m, cmd)
		}
		if m.sweep == nil || m.sweepDone != 1 {
			t.Fatalf("%s: the sweep is not at its second λ: %v, %d done", name, m.sweep != nil, m.sweepDone)
		}
		if c.value == "" {
			m.panel, m.sel = true, c.par
			m, _ = update(t, m, key("enter")) // a toggle: the next targets
		} else {
			m = enterParam(t, m, c.par, c.value)
		}
		m, _ = update(t, m, debounceMsg{edit: m.edits})
		if m.sweep != nil {
			t.Fatalf("%s: the edit did not cancel the sweep", name)
		}
		if m.status != c.want || m.errLine {
			t.Errorf("%s: status %q (error %v), want %q", name, m.status, m.errLine, c.want)
		}
		if c.short != "" {
			m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
			if s := statusOf(m); !strings.Contains(s, c.short) {
				t.Errorf("%s at 80 columns: %q, want it to say %q", name, s, c.short)
			}
		}
		m.stopRun()
	}
}

func TestSweepNeedsProblem(t *testing.T) {
	m := New(t.Context(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, cmd := update(t, m, key("w"))
	if cmd != nil || m.sweep != nil || !m.errLine || !strings.Contains(m.status, "no λ sweep yet") {
		t.Errorf("w while loading: status %q", m.status)
	}
}

// TestSweepShowsInitProgress: while a λ of the sweep initialises (4-5 s
// on 200,000 documents, the status line standing at "λ sweep 2/8"
// meanwhile), the status line says which of its stages Algorithm 2 is
// making, then that it is scoring the cascade, with the sweep's time
// left; in fewer columns only the count. The points are those of
// Algorithm 2 alone, as before.
func TestSweepShowsInitProgress(t *testing.T) {
	m := ready(t)
	par := m.par.Params
	m, cmd := update(t, m, key("w"))
	if m.sweep == nil {
		t.Fatal("w does not start a sweep")
	}
	k := m.sweep.k
	if k != par.K || k < 2 {
		t.Fatalf("the sweep's cascades have %d stages, the parameters %d", k, par.K)
	}
	first := true
	scoring := map[int]string{} // λ (from 0) → the note as its stages were all made
	done := 0.0
	for m.sweep != nil {
		m, cmd = sweepStep(t, m, cmd)
		if m.sweep == nil {
			break
		}
		note, _, eta := m.sweepNote()
		if first {
			first = false
			want := fmt.Sprintf("λ sweep 0/8 · 1st λ: stage 1 of %d", k)
			if note != want {
				t.Errorf("first note %q, want %q", note, want)
			}
			// At 80 columns beside the sweep's message (short), and in
			// 30 the count alone.
			if got := m.statusLine(80); !strings.HasPrefix(got, want+" · Algorithm 2 at 8 λ (w cancels)") {
				t.Errorf("status line at 80 columns %q, want the note %q and the short message", got, want)
			}
			if got := m.statusLine(30); got != "λ sweep 0/8" {
				t.Errorf("status line at 30 columns %q, want \"λ sweep 0/8\"", got)
			}
		}
		if m.sweepStages < 0 || m.sweepStages > float64(k) {
			t.Fatalf("%g stages made of %d", m.sweepStages, k)
		}
		if d := float64(m.sweepDone) + m.sweepStages/float64(k); d < done {
			t.Fatalf("progress went back: %g after %g", d, done)
		} else {
			done = d
		}
		if m.sweepStages == float64(k) {
			scoring[m.sweepDone] = note + eta
		}
	}
	if m.sweepDone != sweepN || len(m.sweepPts) != 2*sweepN {
		t.Fatalf("sweep ended at %d of %d with %d points (status %q)", m.sweepDone, sweepN, len(m.sweepPts), m.status)
	}
	// Each λ's end of Algorithm 2 is a boundary, never coalesced away; the
	// first has the time left after it.
	for i := range sweepN {
		want := fmt.Sprintf("λ sweep %d/8 · %s λ: scoring", i, ordinal(i+1))
		if got := scoring[i]; !strings.HasPrefix(got, want) || !strings.Contains(got, " · ETA ") != (i == sweepN-1) {
			t.Errorf("λ %d: note %q as its stages were made, want %q and the ETA (but at the last)", i, got, want)
		}
	}

	// The points, against Algorithm 2 run here.
	ev := m.w.evaluator()
	var want []baseline.Point
	for _, lam := range sweepLambdas(sweepFrom, sweepTo, sweepN) {
		p := par
		p.Lambda = lam
		st, err := cronus.Initialize(t.Context(), m.w.pr, m.w.sc, p)
		if err != nil {
			t.Fatal(err)
		}
		v, te, err := ev(t.Context(), &st.Cascade)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want,
			baseline.Point{Method: sweepMethod, Split: "valid", Lambda: lam, Cost: v.Cost, Metrics: v.Metrics},
			baseline.Point{Method: sweepMethod, Split: "test", Lambda: lam, Cost: te.Cost, Metrics: te.Metrics})
	}
	if !reflect.DeepEqual(m.sweepPts, want) {
		t.Errorf("the sweep's points differ from Algorithm 2's:\n%+v\nwant\n%+v", m.sweepPts, want)
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 8: "8th", 11: "11th", 12: "12th", 13: "13th",
		21: "21st", 22: "22nd", 23: "23rd", 101: "101st", 111: "111th", 112: "112th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestSweepLeavesRunFigures: the sweep's note with its stage and ETA
// beside its start message left no room for the run's figures at 120
// columns, for the whole sweep (minutes on 200,000 documents), where
// "λ sweep 2/8" had left them room: the message takes its short form
// instead. A save's message during the sweep keeps its figures, and the
// sweep's note goes short; at 80 columns, too narrow for the figures,
// the line is as it was.
func TestSweepLeavesRunFigures(t *testing.T) {
	m := ready(t)
	m.stopRun() // the figures stay those of the snapshot
	m, cmd := update(t, m, key("w"))
	m, _ = sweepStep(t, m, cmd)
	note, short, eta := m.sweepNote()
	if eta == "" {
		// The ETA comes with the second report; the line is the same
		// without it, but for the ETA.
		m.sweepETA = 9 * time.Second
		note, short, eta = m.sweepNote()
	}
	for _, c := range []struct {
		w    int
		want string
	}{
		{160, note + eta + " · Algorithm 2 at 8 values of λ, 0.002 to 0.5 × λ_max (w cancels) │ "},
		{120, note + eta + " · Algorithm 2 at 8 λ (w cancels) │ "},
		{80, note + eta + " · Algorithm 2 at 8 λ (w cancels)"},
	} {
		got := m.statusLine(c.w)
		if !strings.HasPrefix(got, c.want) || lipgloss.Width(got) > c.w {
			t.Errorf("status line at %d columns %q, want it to start %q and fit", c.w, got, c.want)
		}
		if strings.Contains(c.want, "│") && !strings.Contains(strings.TrimPrefix(got, c.want), "NDCG@10") {
			t.Errorf("status line at %d columns %q: no room for the run's NDCG@10", c.w, got)
		}
	}

	// At every width from 85 columns on the run's status has its
	// NDCG@10 (below, the sweep's note keeps its stage beside the short
	// message, as at 80): from 131 to 138 here, and at 133 to 145 on a
	// wider phase, the whole message left it its phase alone ("optimising
	// c2 s10/10"), minRunStatus's 20 cells and more; from 85 to 106 the
	// note with its stage beside the short message left it "initialising".
	for w := 85; w <= 200; w++ {
		got := m.statusLine(w)
		if _, run, ok := strings.Cut(got, " │ "); !ok || !strings.Contains(run, "NDCG@10") || lipgloss.Width(got) > w {
			t.Errorf("status line at %d columns %q: no room for the run's NDCG@10, or too wide", w, got)
		}
	}

	// As the λ's stages are all made ("scoring", a shorter note), the line
	// keeps its form: it changed at every λ.
	m.sweepStages = float64(m.sweep.k)
	note, _, eta = m.sweepNote()
	if got, want := m.statusLine(120), note+eta+" · Algorithm 2 at 8 λ (w cancels) │ "; !strings.HasPrefix(got, want) {
		t.Errorf("status line at 120 columns as the λ is scored %q, want it to start %q", got, want)
	}

	ev := cronus.Eval{Cost: metric.Cost{Total: 535.9}, Metrics: map[string]float64{curveSpec: 0.486, "p@5": 0.332}}
	m, _ = update(t, m, savedMsg{what: "the best cascade", files: []saved{{path: savePath, split: "test", ev: ev}}, at: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)})
	want := short + " · 12:00:00 saved ./" + savePath + ": test NDCG@10 0.486, P@5 0.332, cost 535.9 │ "
	if got := m.statusLine(120); !strings.HasPrefix(got, want) || lipgloss.Width(got) > 120 {
		t.Errorf("status line at 120 columns after a save %q, want it to start %q and fit", got, want)
	}
}

// TestRetrainSaysSweepDropped: a new base ensemble drops a finished
// sweep's points, of the old one, and says so (it did without a word), at
// 80 columns beside the training's note too.
func TestRetrainSaysSweepDropped(t *testing.T) {
	m := ready(t)
	m, cmd := update(t, m, key("w"))
	for m.sweep != nil {
		m, cmd = sweepStep(t, m, cmd)
	}
	if len(m.sweepPts) != 2*sweepN {
		t.Fatalf("%d sweep points", len(m.sweepPts))
	}
	m.par.trees += 10
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining || len(m.sweepPts) != 0 {
		t.Fatalf("trees edit: phase %d, %d sweep points", m.phase, len(m.sweepPts))
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if s, want := statusOf(m), "dropped the λ sweep (old ensemble)"; !strings.HasSuffix(s, want) || m.errLine {
		t.Errorf("status line after a retrain %q, want … %q", s, want)
	}
}

// TestSweepRefusedWhileEditWaits: w while an edit waits for its restart
// (its 300 ms tick) is refused, as the choice of ρ is: the sweep started,
// and the edit's tick cancelled it at once, leaving "Algorithm 2 at 8
// values of λ … (w cancels); λ sweep cancelled at 0 of 8" on the status
// line (found by TestRandomKeys). Once the edit is applied, w sweeps.
func TestSweepRefusedWhileEditWaits(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, key("w"))
	if m.sweep != nil || cmd != nil || !m.errLine || !strings.Contains(m.status, "an edit waits to be applied") {
		t.Fatalf("w with an edit pending: sweep %v, status %q", m.sweep != nil, m.status)
	}
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	m, cmd = update(t, m, key("w"))
	if m.sweep == nil || cmd == nil || m.errLine {
		t.Fatalf("w once the edit is applied: sweep %v, status %q", m.sweep != nil, m.status)
	}
	m.stopSweep()
	m.stopRun()
}
