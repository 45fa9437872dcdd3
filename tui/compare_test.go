package tui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/views"
)

func TestKeepBeforeSnapshot(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, _ = update(t, m, key("k"))
	if len(m.kept) != 0 || !m.errLine || !strings.Contains(m.status, "nothing to keep yet") {
		t.Errorf("k before a snapshot: %d kept, status %q", len(m.kept), m.status)
	}
}

func TestKeepAndCompare(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, key("k"))
	m, _ = update(t, m, key("k"))
	if len(m.kept) != 2 || m.kept[0].N != 1 || m.kept[1].N != 2 {
		t.Fatalf("keep twice: %+v", m.kept)
	}
	k := m.kept[1]
	if k.Lambda != m.runPar.Lambda || k.K != m.runPar.K || k.Epsilon != m.runPar.Epsilon || k.Sigma != m.runPar.Sigma {
		t.Errorf("kept parameters %+v, run %+v", k, m.runPar)
	}
	if k.Test.Metrics["ndcg@10"] != m.snap.BestTest.Metrics["ndcg@10"] || k.Valid.Metrics["ndcg@10"] != m.snap.Best.Metrics["ndcg@10"] || len(k.Stages) != m.runPar.K {
		t.Errorf("kept evals or stages differ from the snapshot's best: %+v", k)
	}
	if !strings.Contains(m.status, "kept #2 (λ 0.01, NDCG@10 ") || !strings.Contains(m.status, "cost ") {
		t.Errorf("status %q", m.status)
	}
	// To 3 decimals, as the status line and the compare view give it (the
	// message had 4 beside the status line's 3).
	if want := fmt.Sprintf("NDCG@10 %.3f,", k.Test.Metrics["ndcg@10"]); !strings.Contains(m.status, want) {
		t.Errorf("status %q, want %q", m.status, want)
	}
	// After an edit restarts the run, the snapshot shown is still the old
	// run's until the new one reports: keep takes the old run's parameters.
	restarted := m
	restarted.runPar.Lambda = 0.5
	if restarted, _ = update(t, restarted, key("k")); restarted.kept[len(restarted.kept)-1].Lambda != m.runPar.Lambda {
		t.Errorf("kept λ %g after a restart, want the snapshot's %g", restarted.kept[len(restarted.kept)-1].Lambda, m.runPar.Lambda)
	}
	for range 3 {
		m, _ = update(t, m, key("k"))
	}
	if len(m.kept) != maxKept || m.kept[0].N != 2 || m.kept[maxKept-1].N != 5 {
		t.Errorf("a fifth keep did not replace the oldest: %v", keptNumbers(m.kept))
	}

	m, _ = update(t, m, key("c"))
	if !m.compare {
		t.Fatal("c did not show the compare view")
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		mm, _ := update(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		v := mm.View()
		lines := strings.Split(v, "\n")
		if len(lines) != size[1] {
			t.Errorf("compare %dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := lipgloss.Width(l); w > size[0] {
				t.Errorf("compare %dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
		for _, want := range []string{"compare", "kept #2", "kept #5", "NDCG@10", "λ 0.01"} {
			if !strings.Contains(v, want) {
				t.Errorf("compare %dx%d lacks %q:\n%s", size[0], size[1], want, v)
			}
		}
	}
	m, _ = update(t, m, key("c"))
	if m.compare {
		t.Error("a second c did not hide the compare view")
	}
}

func TestCompareNeedsTwo(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, key("c"))
	if v := m.View(); !strings.Contains(v, "press k") {
		t.Errorf("compare with none kept does not say how to keep:\n%s", v)
	}
}

func TestExportCurves(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, key("k"))
	m.finished = append(m.finished, baseline.Point{Method: "cronus", Split: "test", Lambda: 0.5, Cost: m.snap.BestTest.Cost, Metrics: m.snap.BestTest.Metrics})
	t.Chdir(t.TempDir())
	m, cmd := update(t, m, key("e"))
	if cmd == nil {
		t.Fatal("e returned no command")
	}
	m, _ = update(t, m, cmd())
	if m.errLine || !strings.Contains(m.status, "./"+curvesCSV) || !strings.Contains(m.status, "./"+curvesSVG) {
		t.Errorf("status after export: %q", m.status)
	}
	pts, err := baseline.ReadCSV(curvesCSV)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(m.w.points) + 2; len(pts) != want {
		t.Errorf("%d points exported, want %d", len(pts), want)
	}
	methods := map[string]int{}
	for _, p := range pts {
		methods[p.Method]++
	}
	if methods["kept #1"] != 1 || methods["cronus"] != 1 || methods[baseline.MethodPrefix] == 0 {
		t.Errorf("exported methods %v", methods)
	}
	if svg, err := os.ReadFile(curvesSVG); err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("svg: %v", err)
	}
}

func keptNumbers(kept []views.KeptCascade) []int {
	var ns []int
	for _, k := range kept {
		ns = append(ns, k.N)
	}
	return ns
}
