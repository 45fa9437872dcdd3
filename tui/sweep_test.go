package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
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
}

func TestSweepCancels(t *testing.T) {
	ready := ready(t)
	for _, how := range []string{"w", "r", "trees"} {
		m, cmd := update(t, ready, key("w"))
		if m.sweep == nil {
			t.Fatalf("%s: no sweep", how)
		}
		sweepGen, run := m.sweepGen, m.sweep
		m, cmd = sweepStep(t, m, cmd) // the first point
		if m.sweep == nil || len(m.sweepPts) == 0 {
			t.Fatalf("%s: first event: sweep %v, points %d", how, m.sweep != nil, len(m.sweepPts))
		}
		pts := m.sweepPts
		switch how {
		case "trees": // a new base ensemble: the points go too
			m.par.trees += 10
			m, _ = update(t, m, debounceMsg{edit: m.edits})
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

func TestSweepNeedsProblem(t *testing.T) {
	m := New(t.Context(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, cmd := update(t, m, key("w"))
	if cmd != nil || m.sweep != nil || !m.errLine || !strings.Contains(m.status, "no λ sweep yet") {
		t.Errorf("w while loading: status %q", m.status)
	}
}
