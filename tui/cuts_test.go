package tui

import (
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
	said := "" // the run figures while the cuts were scored
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool {
		if m.cutsProg.Phase != "" && said == "" {
			said = m.runStatus(100)
		}
		return !m.running
	})
	if !strings.Contains(said, "scoring the first k stages on valid") || m.cutsProg.Phase != "" {
		t.Errorf("the run figures while the cuts were scored: %q; after: %+v", said, m.cutsProg)
	}
	if m.best == nil {
		t.Fatal("no best cascade after the run finished")
	}
	best := m.best.Cascade
	K := len(best.Stages)
	if K < 3 {
		t.Fatalf("the best cascade has %d stages; the test wants a few", K)
	}
	if want := 2 * (K - 1); len(m.bestCuts) != want {
		t.Fatalf("%d cut points, want %d (valid and test for k = 1 … %d)", len(m.bestCuts), want, K-1)
	}
	eval := m.w.evaluator()
	ctx := t.Context()
	lastCost := map[string]float64{}
	for k := 1; k < K; k++ {
		cut := cronus.Cascade{Stages: slices.Clone(best.Stages[:k]), Rule: best.Rule, TopM: best.TopM}
		cut.Stages[k-1].Theta = math.Inf(-1)
		v, ts, err := eval(ctx, &cut)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []struct {
			split string
			ev    cronus.Eval
		}{{"valid", v}, {"test", ts}} {
			p := m.bestCuts[2*(k-1)+i]
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
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if c := m.renderPane(paneCurve, 110, 30); !strings.Contains(c, "▹") || !strings.Contains(c, views.MethodStages) {
		t.Errorf("the curve shows no cut:\n%s", c)
	}

	// Exported, both splits.
	t.Chdir(t.TempDir())
	m, cmd := update(t, m, key("e"))
	if cmd == nil {
		t.Fatal("e returned no command")
	}
	m, _ = update(t, m, cmd())
	pts, err := baseline.ReadCSV(curvesCSV)
	if err != nil {
		t.Fatal(err)
	}
	var got []baseline.Point
	for _, p := range pts {
		if p.Method == cutsMethod {
			got = append(got, p)
		}
	}
	if len(got) != len(m.bestCuts) {
		t.Fatalf("%d first-stages rows exported, want %d", len(got), len(m.bestCuts))
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

// TestCutsStatusFits: the run figures while a finished run's cuts are
// scored fit every width, the longest form that fits.
func TestCutsStatusFits(t *testing.T) {
	st := views.PlainStyles()
	p := job.Progress{Phase: cutsPhase, Done: 1, Total: 2, Elapsed: 1200 * time.Millisecond}
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
	for _, done := range []float64{0, 1, 2} {
		p.Done = done
		for w := 1; w <= 120; w++ {
			if got := cutsStatus(p, w, st); lipgloss.Width(got) > w {
				t.Errorf("at %d columns %q is %d wide", w, got, lipgloss.Width(got))
			}
		}
	}
}
