package tui

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// TestBestCascadeCuts: once a run finishes, its best cascade's first k
// stages, k = 1 … K−1, are scored on validation and test (each a cascade
// of its own, as `cronus eval --stages k` runs it), drawn on the curve as
// "first k stages" on the split the baselines are drawn for, and exported
// by e as method first-stages with k in the λ column; a retrain drops them
// with the finished runs. Each cut's figures are the evaluator's for a
// cascade cut here by hand (the stages up to k, the last passing nothing
// on); the cuts' costs rise with k up to the whole cascade's, whose figures
// are the run's point.
func TestBestCascadeCuts(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := ready(t)
	said := map[string]string{} // the run figures while the cuts and the prefixes were scored
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool {
		if p := m.cutsProg.Phase; p != "" && said[p] == "" {
			said[p] = m.runStatus(100)
		}
		return !m.running
	})
	if !strings.Contains(said[cutsPhase], "scoring the first k stages on valid") || !strings.Contains(said[prefixPhase], "scoring the last-stage prefixes on valid") || m.cutsProg.Phase != "" {
		t.Errorf("the run figures while the cuts and prefixes were scored: %q; after: %+v", said, m.cutsProg)
	}
	if m.best == nil {
		t.Fatal("no best cascade after the run finished")
	}
	best := m.best.Cascade
	K := len(best.Stages)
	if K < 3 {
		t.Fatalf("the best cascade has %d stages; the test wants a few", K)
	}
	var cuts, prefixes []baseline.Point
	for _, p := range m.bestCuts {
		switch p.Method {
		case cutsMethod:
			cuts = append(cuts, p)
		case prefixMethod:
			prefixes = append(prefixes, p)
		default:
			t.Fatalf("a point of method %q among the cuts", p.Method)
		}
	}
	if want := 2 * (K - 1); len(cuts) != want || m.bestCuts[want-1].Method != cutsMethod {
		t.Fatalf("%d cut points, want %d (valid and test for k = 1 … %d) before the prefixes", len(cuts), want, K-1)
	}
	eval := m.w.evaluator()
	ctx := t.Context()
	lastCost := map[string]float64{}
	for k := 1; k < K; k++ {
		cut := cronus.Cascade{Stages: slices.Clone(best.Stages[:k]), Rule: best.Rule, TopM: best.TopM}
		cut.Stages[k-1].Theta = math.Inf(-1)
		for i, want := range evalSplits(t, eval, &cut) {
			p := cuts[2*(k-1)+i]
			if p.Method != cutsMethod || p.Split != want.split || p.Lambda != float64(k) {
				t.Fatalf("cut point %d: %s %s λ %g, want %s %s %d", 2*(k-1)+i, p.Method, p.Split, p.Lambda, cutsMethod, want.split, k)
			}
			if p.Cost != want.ev.Cost || p.Metrics[curveSpec] != want.ev.Metrics[curveSpec] {
				t.Errorf("first %d stages on %s: cost %v NDCG@10 %g, cut by hand %v %g", k, want.split, p.Cost, p.Metrics[curveSpec], want.ev.Cost, want.ev.Metrics[curveSpec])
			}
			if p.Cost.Total < lastCost[p.Split] {
				t.Errorf("first %d stages on %s cost %g, below the first %d's %g", k, p.Split, p.Cost.Total, k-1, lastCost[p.Split])
			}
			lastCost[p.Split] = p.Cost.Total
		}
	}
	v, ts, err := eval(ctx, &best)
	if err != nil {
		t.Fatal(err)
	}
	if lastCost["valid"] > v.Cost.Total || lastCost["test"] > ts.Cost.Total {
		t.Errorf("the first %d stages cost %v, more than the whole cascade's valid %g, test %g", K-1, lastCost, v.Cost.Total, ts.Cost.Total)
	}
	if n := len(m.finished); n == 0 || m.finished[n-1].Cost != ts.Cost || m.finished[n-1].Metrics[curveSpec] != ts.Metrics[curveSpec] {
		t.Errorf("the run's point %+v is not its best cascade's test figures %v %g", m.finished, ts.Cost, ts.Metrics[curveSpec])
	}

	// The last-stage prefixes: the cascade with its last stage the
	// ensemble's first n trees (weight 1, the ensemble's base score as
	// intercept), built here by hand, for n = 10, 15, 20 of the 20 trees.
	T := len(m.w.e.Trees)
	if T != 20 {
		t.Fatalf("%d trees; the test wants 20", T)
	}
	first := K
	for k := K - 1; k >= 0; k-- {
		for _, b := range best.Stages[k].Beta[:T] {
			if b != 0 {
				first = k
			}
		}
	}
	if first >= K-1 {
		t.Fatalf("the best cascade keeps trees only in its last stage; the test wants earlier ones")
	}
	ns := []int{10, 15, 20}
	if len(prefixes) != 2*len(ns) {
		t.Fatalf("%d prefix points, want %d (valid and test for n = %v)", len(prefixes), 2*len(ns), ns)
	}
	for j, n := range ns {
		pc := cronus.Cascade{Stages: slices.Clone(best.Stages), Rule: best.Rule, TopM: best.TopM}
		beta := make([]float64, T+1)
		for i := range n {
			beta[i] = 1
		}
		beta[T] = m.w.e.Base
		pc.Stages[K-1] = cronus.Stage{Beta: beta, Theta: best.Stages[K-1].Theta}
		for i, want := range evalSplits(t, eval, &pc) {
			p := prefixes[2*j+i]
			if p.Split != want.split || p.Lambda != float64(n) {
				t.Fatalf("prefix point %d: %s λ %g, want %s %d", 2*j+i, p.Split, p.Lambda, want.split, n)
			}
			if p.Cost != want.ev.Cost || p.Metrics[curveSpec] != want.ev.Metrics[curveSpec] {
				t.Errorf("last stage the first %d trees on %s: cost %v NDCG@10 %g, built by hand %v %g", n, want.split, p.Cost, p.Metrics[curveSpec], want.ev.Cost, want.ev.Metrics[curveSpec])
			}
		}
	}

	// A cascade whose earlier stages keep no tree has no prefix points:
	// each would be the prefix baseline itself.
	onlyLast := cronus.Cascade{Stages: slices.Clone(best.Stages), Rule: best.Rule, TopM: best.TopM}
	for k := range K - 1 {
		onlyLast.Stages[k] = cronus.Stage{Beta: make([]float64, T+1), Theta: math.Inf(-1)}
	}
	if pts, err := stagePrefixes(ctx, m.w, &onlyLast, nil); err != nil || pts != nil {
		t.Errorf("prefixes of a cascade with trees in its last stage alone: %+v, %v; want none", pts, err)
	}

	// Cancelled while they are scored, they stop at once with the error
	// and no points (the run is then left without its cuts).
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var reports []float64
	pts, err := stagePrefixes(cctx, m.w, &best, func(done float64) {
		reports = append(reports, done)
		if len(reports) == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || pts != nil || len(reports) != 2 || reports[1] != 1.0/3 {
		t.Errorf("prefixes cancelled after the second report: %d points, %v, reports %v; want none, context.Canceled, [0 1/3]", len(pts), err, reports)
	}

	// Drawn: the test split's cuts, as their own series.
	var drawn []baseline.Point
	for _, p := range m.points() {
		if p.Method == views.MethodStages {
			drawn = append(drawn, p)
		}
	}
	if len(drawn) != K-1 || drawn[0].Split != "test" || drawn[K-2].Lambda != float64(K-1) {
		t.Errorf("drawn cuts: %+v, want the %d on test", drawn, K-1)
	}
	drawn = nil
	for _, p := range m.points() {
		if p.Method == views.MethodLastPrefix {
			drawn = append(drawn, p)
		}
	}
	if len(drawn) != len(ns) || drawn[0].Split != "test" || drawn[len(ns)-1].Lambda != 20 {
		t.Errorf("drawn prefixes: %+v, want the %d on test", drawn, len(ns))
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if c := m.renderPane(paneCurve, 110, 30); !strings.Contains(c, "▹") || !strings.Contains(c, views.MethodStages) || !strings.Contains(c, "◃") || !strings.Contains(c, views.MethodLastPrefix) {
		t.Errorf("the curve shows no cut or no prefix:\n%s", c)
	}

	// Exported, both splits.
	t.Chdir(t.TempDir())
	m, cmd := update(t, m, key("e"))
	if cmd == nil {
		t.Fatal("e returned no command")
	}
	m, _ = update(t, m, cmd())
	pts, err = baseline.ReadCSV(curvesCSV)
	if err != nil {
		t.Fatal(err)
	}
	var got []baseline.Point
	for _, p := range pts {
		if p.Method == cutsMethod || p.Method == prefixMethod {
			got = append(got, p)
		}
	}
	if len(got) != len(m.bestCuts) {
		t.Fatalf("%d first-stages and last-prefix rows exported, want %d", len(got), len(m.bestCuts))
	}
	for i, p := range got {
		w := m.bestCuts[i]
		if p.Split != w.Split || p.Lambda != w.Lambda || math.Abs(p.Cost.Total-w.Cost.Total) > 1e-9*w.Cost.Total || math.Abs(p.Metrics[curveSpec]-w.Metrics[curveSpec]) > 1e-12 {
			t.Errorf("exported row %d %+v, want %+v", i, p, w)
		}
	}

	// A retrain drops them, with the finished runs.
	m = enterParam(t, m, parTrees, "12")
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	if len(m.bestCuts) != 0 || len(m.finished) != 0 {
		t.Errorf("after a retrain: %d cuts, %d finished runs", len(m.bestCuts), len(m.finished))
	}
}

// splitEval is a cascade's figures on one split.
type splitEval struct {
	split string
	ev    cronus.Eval
}

// evalSplits is c's figures by eval on valid and test, in that order.
func evalSplits(t *testing.T, eval cronus.Evaluator, c *cronus.Cascade) []splitEval {
	t.Helper()
	v, ts, err := eval(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	return []splitEval{{"valid", v}, {"test", ts}}
}

// TestCutsStatusFits: the run figures while a finished run's cuts are
// scored fit every width, the longest form that fits, with the phase's
// own time, not the run's (11.1s shown for 0.3s of scoring after a pause).
func TestCutsStatusFits(t *testing.T) {
	st := views.PlainStyles()
	p := job.Progress{Phase: cutsPhase, Done: 1, Total: 2, Elapsed: 11100 * time.Millisecond, PhaseElapsed: 1200 * time.Millisecond}
	if got, want := cutsStatus(p, 100, st), "scoring the first k stages on test · 1.2s"; got != want {
		t.Errorf("at 100 columns %q, want %q", got, want)
	}
	if got, want := cutsStatus(p, 36, st), "scoring the first k stages on test"; got != want {
		t.Errorf("at 36 columns %q, want %q", got, want)
	}
	p.Done = 0
	if got, want := cutsStatus(p, 14, st), "cuts on valid"; got != want {
		t.Errorf("at 14 columns %q, want %q", got, want)
	}
	pp := job.Progress{Phase: prefixPhase, Done: 1.5, Total: 2, Elapsed: 13 * time.Second, PhaseElapsed: 300 * time.Millisecond}
	if got, want := cutsStatus(pp, 100, st), "scoring the last-stage prefixes on test · 0.3s"; got != want {
		t.Errorf("prefixes at 100 columns %q, want %q", got, want)
	}
	if got, want := cutsStatus(pp, 20, st), "prefixes on test"; got != want {
		t.Errorf("prefixes at 20 columns %q, want %q", got, want)
	}
	for _, q := range []job.Progress{p, pp} {
		for _, done := range []float64{0, 0.5, 1, 2} {
			q.Done = done
			for w := 1; w <= 120; w++ {
				if got := cutsStatus(q, w, st); lipgloss.Width(got) > w {
					t.Errorf("at %d columns %q is %d wide", w, got, lipgloss.Width(got))
				}
			}
		}
	}
}
