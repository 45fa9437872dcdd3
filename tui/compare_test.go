package tui

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
	tea "github.com/cronus-ltr/cronus/internal/tea"
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

// TestKeepDuringWarmFirstCycle: k in a warm run's first cycle, which
// reports cascades but chooses no best before the cycle ends, says what
// it waits for; it said "wait for the optimisation to report a cascade"
// beside the cascades reported.
func TestKeepDuringWarmFirstCycle(t *testing.T) {
	m := ready(t)
	m.snap.Warm, m.snap.Phase, m.snap.Cycle = true, "optimising", 1
	m.snap.Best, m.snap.BestTest, m.snap.BestCascade = cronus.Eval{}, cronus.Eval{}, nil
	m, _ = update(t, m, key("k"))
	if want := "nothing to keep yet: wait for the end of the warm run's first cycle"; len(m.kept) != 0 || !m.errLine || !strings.Contains(m.status, want) {
		t.Errorf("k in a warm run's first cycle: %d kept, status %q, want it to say %q", len(m.kept), m.status, want)
	}
	// An edit that retrains the base ensemble cancels that run: k waits
	// for the new ensemble's first cascade, not for the cycle's end.
	m.par.trees += 10
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	m, _ = update(t, m, key("k"))
	if want := "nothing to keep yet: wait for " + newEnsembleWait; len(m.kept) != 0 || !strings.Contains(m.status, want) {
		t.Errorf("k after a retrain from a warm run's first cycle: %d kept, status %q, want it to say %q", len(m.kept), m.status, want)
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
	// the panel's parameters go with it, as the panel shows them, for the
	// compare view to name those that differ
	wantExtra := []views.Param{{Name: "ρ", Value: paramValue(m.par, parRho)}, {Name: "ω⁺", Value: paramValue(m.par, parPosWeight)},
		{Name: "δ", Value: paramValue(m.par, parDelta)}, {Name: "rel ≥", Value: paramValue(m.par, parRelevant)}, {Name: "targets", Value: "binary"}}
	if !slices.Equal(k.Extra, wantExtra) {
		t.Errorf("kept extra parameters %v, want %v", k.Extra, wantExtra)
	}
	if k.Test.Metrics["ndcg@10"] != m.snap.BestTest.Metrics["ndcg@10"] || k.Valid.Metrics["ndcg@10"] != m.snap.Best.Metrics["ndcg@10"] || len(k.Stages) != m.runPar.K {
		t.Errorf("kept evals or stages differ from the snapshot's best: %+v", k)
	}
	// Its NDCG@10 query by query, for the compare view's paired p: one
	// value per test query, whose mean is the figure kept.
	if pq := k.Test.PerQuery["ndcg@10"]; len(pq) != m.w.test.NumQueries() || math.Abs(mean(pq)-k.Test.Metrics["ndcg@10"]) > 1e-12 {
		t.Errorf("kept per-query NDCG@10: %d values (test has %d queries), mean %v against %v", len(pq), m.w.test.NumQueries(), mean(pq), k.Test.Metrics["ndcg@10"])
	}
	// Its cost as the status line and the compare view give it: "410"
	// stood beside their "410.0".
	if !strings.Contains(m.status, "kept #2 (λ 0.01, NDCG@10 ") || !strings.Contains(m.status, "cost "+views.Num(k.Test.Cost.Total)) {
		t.Errorf("status %q", m.status)
	}
	// The same best cascade kept twice says so (the two rows of the
	// compare view are the same cascade); a new best is not the same.
	if m.snap.BestCascade == nil || !strings.HasSuffix(m.status, "; the same cascade as #1)") {
		t.Errorf("kept the same cascade again: status %q", m.status)
	}
	other := m
	other.snap.BestCascade = &cronus.Cascade{}
	if other, _ = update(t, other, key("k")); strings.Contains(other.status, "the same cascade") {
		t.Errorf("kept another cascade: status %q", other.status)
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
	if !strings.Contains(m.status, "kept #5 (") || !strings.Contains(m.status, "#1, the oldest, makes way)") {
		t.Errorf("a fifth keep does not say it replaced #1: status %q", m.status)
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
		// Every kept cascade is the run's one best, so each p against the
		// first (#2) is that of identical values: 1.
		for _, want := range []string{"compare", "kept #2", "kept #5", "NDCG@10", "λ 0.01", "p vs #2 ref", "p vs #2 1.000"} {
			if !strings.Contains(v, want) {
				t.Errorf("compare %dx%d lacks %q:\n%s", size[0], size[1], want, v)
			}
		}
		// Each against the best baseline (the workbench's prefixes and
		// early exit, with their per-query values) at no higher cost.
		k := m.kept[0]
		best := math.Inf(-1)
		for _, p := range m.w.points {
			if (p.Method == baseline.MethodPrefix || p.Method == baseline.MethodEarlyExit) && p.Split == "test" && p.Cost.Total <= k.Test.Cost.Total {
				best = max(best, p.Metrics["ndcg@10"])
			}
		}
		if size[0] == 160 && !math.IsInf(best, -1) {
			d := strconv.FormatFloat(k.Test.Metrics["ndcg@10"]-best, 'f', 3, 64)
			if d[0] != '-' {
				d = "+" + d
			}
			if !regexp.MustCompile(`Δ base  ` + regexp.QuoteMeta(d) + ` p (0\.\d{3}|1\.000|<\.001)`).MatchString(v) {
				t.Errorf("compare %dx%d lacks the kept cascade against the best baseline, Δ base  %s p …:\n%s", size[0], size[1], d, v)
			}
		}
	}
	m, _ = update(t, m, key("c"))
	if m.compare {
		t.Error("a second c did not hide the compare view")
	}
}

// TestWithoutTestData: without a test file the workbench reports cascades
// on validation, as it draws the baselines, saves and runs the λ sweep: k
// keeps the best cascade with its validation figures, a finished run's
// point and the current one are on valid, and the status line, the reach
// per stage and the stage table give validation figures, not dashes and
// zeros. k refused for ever ("wait for the optimisation to report a
// cascade"), and the runs' points were not drawn or exported. The curve's
// legend said "filled test, hollow valid" over hollow markers alone.
func TestWithoutTestData(t *testing.T) {
	cfg := mq2008
	cfg.Test = ""
	m := readyOn(t, cfg)
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool { return !m.running })
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = update(t, m, key("k"))
	if len(m.kept) != 1 || m.errLine {
		t.Fatalf("k without test data: %d kept, status %q", len(m.kept), m.status)
	}
	k := m.kept[0]
	want := m.snap.Best.Metrics[curveSpec]
	if p := k.Point(); p.Split != "valid" || p.Metrics[curveSpec] != want || p.Cost != m.snap.Best.Cost {
		t.Errorf("kept point %+v, want valid NDCG@10 %g", p, want)
	}
	splits := map[string]string{}
	for _, p := range m.curvePoints() {
		if p.Method == "cronus" || p.Method == k.Method() {
			splits[p.Method] = p.Split
		}
	}
	if splits["cronus"] != "valid" || splits[k.Method()] != "valid" {
		t.Errorf("exported runs and kept cascades by split: %v", splits)
	}
	c := m.renderPane(paneCurve, 100, 30)
	if !strings.Contains(c, "cronus") {
		t.Errorf("the finished run is not drawn:\n%s", c)
	}
	// Every marker is filled (valid): the legend does not speak of hollow ones.
	if !strings.Contains(c, "filled valid") || strings.Contains(c, "hollow") {
		t.Errorf("the curve's legend without test data:\n%s", c)
	}
	if s := views.RenderStatus(m.snap, m.w.full, 200, m.styles); !strings.Contains(s, fmt.Sprintf("valid P@5 %.3f NDCG@10 %.3f", m.snap.Valid.Metrics["p@5"], m.snap.Valid.Metrics[curveSpec])) {
		t.Errorf("status line without test data: %q", s)
	}
	if r := m.renderPane(paneReach, 100, 12); !strings.Contains(r, "│ valid") || strings.Contains(r, "test") {
		t.Errorf("reach per stage without test data:\n%s", r)
	}
	table := strings.Split(m.renderPane(paneStages, 100, 30), "\n")
	if row := strings.Fields(table[2]); row[len(row)-1] != "–" || row[len(row)-2] != "1.000" {
		t.Errorf("stage 1 without test data: %q (want valid 1.000, test –)", table[2])
	}
}

// TestWithoutValidData: without a validation file no cascade is chosen
// (the best is the best on validation), and k, s and c say so instead of
// telling the user to wait for one, which never came, or showing a
// compare view that said "press k"; the key line does not offer them.
func TestWithoutValidData(t *testing.T) {
	cfg := mq2008
	cfg.Valid = ""
	m := readyOn(t, cfg)
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool { return !m.running })
	t.Chdir(t.TempDir())
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 200, Height: 40})
	lines := strings.Split(m.View(), "\n")
	if keys := lines[len(lines)-1]; strings.Contains(keys, "k keep") || strings.Contains(keys, "s save") || strings.Contains(keys, "c compare") || !strings.Contains(keys, "w sweep") {
		t.Errorf("key line without validation data: %q", keys)
	}
	for _, k := range []string{"k", "s", "c"} {
		mm, cmd := update(t, m, key(k))
		if cmd != nil || len(mm.kept) != 0 || mm.compare || !mm.errLine || strings.Contains(mm.status, "wait") || !strings.Contains(mm.status, "no validation data") {
			t.Errorf("%s without validation data: command %v, %d kept, status %q", k, cmd != nil, len(mm.kept), mm.status)
		}
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
	// A second e while the first export is written waits for it: it
	// started another export of the same files.
	m, again := update(t, m, key("e"))
	if again != nil || !strings.Contains(m.status, "already exporting") {
		t.Errorf("e during an export: command %v, status %q", again != nil, m.status)
	}
	m, _ = update(t, m, cmd())
	if m.errLine || !strings.Contains(m.status, "./"+curvesCSV) || !strings.Contains(m.status, "./"+curvesSVG) {
		t.Errorf("status after export: %q", m.status)
	}
	if _, next := update(t, m, key("e")); next == nil {
		t.Error("e after the export had ended returned no command")
	}
	pts, err := baseline.ReadCSV(curvesCSV)
	if err != nil {
		t.Fatal(err)
	}
	// The baselines on test, and on validation too (the validation
	// front was the λ sweep's alone), the kept cascade and the run.
	if want := 2*len(m.w.points) + 2; len(pts) != want {
		t.Errorf("%d points exported, want %d", len(pts), want)
	}
	methods := map[string]int{}
	splits := map[string]int{}
	for _, p := range pts {
		methods[p.Method]++
		if p.Method == baseline.MethodPrefix || p.Method == baseline.MethodEarlyExit {
			splits[p.Split]++
		}
	}
	if splits["valid"] != len(m.w.points) || splits["test"] != len(m.w.points) {
		t.Errorf("baselines exported per split %v, want %d on each", splits, len(m.w.points))
	}
	if methods["kept #1"] != 1 || methods["cronus"] != 1 || methods[baseline.MethodPrefix] == 0 {
		t.Errorf("exported methods %v", methods)
	}
	svg, err := os.ReadFile(curvesSVG)
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("svg: %v", err)
	}
	// The title names the data (the ensemble is the workbench's own, no file).
	if s := "valid " + mq2008.Valid + "; test " + mq2008.Test; !strings.Contains(string(svg), s) || strings.Contains(string(svg), "model ") {
		t.Errorf("the plot's title does not say %q alone", s)
	}
}

// TestExportFront: e writes, beside the curves, their Pareto front as
// cronus sweep defines it (per split, cost <= and NDCG@10 >=, one strictly;
// equal points all kept), split by split in order of cost; checked against
// a brute-force front of the points e exported.
func TestExportFront(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, key("k"))
	var test []baseline.Point
	for _, p := range m.w.points {
		if p.Split == "test" {
			test = append(test, p)
		}
	}
	// The best test NDCG@10 at its lowest cost is on the front: a second
	// point equal to it must be kept with it.
	top := test[0]
	for _, p := range test {
		if q, tq := p.Metrics["ndcg@10"], top.Metrics["ndcg@10"]; q > tq || q == tq && p.Cost.Total < top.Cost.Total {
			top = p
		}
	}
	tie := top
	tie.Method, tie.Lambda = "cronus", 0.5
	worst := baseline.Point{Method: "cronus", Split: "test", Lambda: 0.7, Cost: metric.Cost{Total: 1e6, Features: 1e6},
		Metrics: map[string]float64{"ndcg@10": 0, "p@5": 0, "err@3": 0}}
	m.finished = append(m.finished, tie, worst)
	valid := func(lambda, cost, ndcg float64) baseline.Point {
		return baseline.Point{Method: "cronus-init", Split: "valid", Lambda: lambda, Cost: metric.Cost{Total: cost, Features: cost},
			Metrics: map[string]float64{"ndcg@10": ndcg, "p@5": 0.3, "err@3": 0.2}}
	}
	// Cheaper than the validation baselines' cheapest (the 1-tree prefix at
	// 121), so that some are on the front with them.
	m.sweepPts = []baseline.Point{valid(0.5, 60, 0.45), valid(0.1, 50, 0.39), valid(0.2, 30, 0.4), valid(0.3, 60, 0.45), valid(0.4, 90, 0.44)}
	t.Chdir(t.TempDir())
	m, cmd := update(t, m, key("e"))
	m, _ = update(t, m, cmd())
	if m.errLine || !strings.Contains(m.status, "./"+frontCSV) {
		t.Errorf("status after export: %q", m.status)
	}
	all, err := baseline.ReadCSV(curvesCSV)
	if err != nil {
		t.Fatal(err)
	}
	front, err := baseline.ReadCSV(frontCSV)
	if err != nil {
		t.Fatal(err)
	}
	pointKey := func(p baseline.Point) string {
		return fmt.Sprintf("%s %s %v %v %v", p.Method, p.Split, p.Lambda, p.Cost.Total, p.Metrics["ndcg@10"])
	}
	var want []string
	for i, p := range all {
		dominated := false
		for j, o := range all {
			c, q, oc, oq := p.Cost.Total, p.Metrics["ndcg@10"], o.Cost.Total, o.Metrics["ndcg@10"]
			if j != i && o.Split == p.Split && oc <= c && oq >= q && (oc < c || oq > q) {
				dominated = true
			}
		}
		if !dominated {
			want = append(want, pointKey(p))
		}
	}
	var got []string
	for i, p := range front {
		got = append(got, pointKey(p))
		if i > 0 && p.Split == front[i-1].Split && p.Cost.Total < front[i-1].Cost.Total {
			t.Errorf("front not in order of cost: %s after %s", got[i], got[i-1])
		}
		if i > 1 && p.Split != front[i-1].Split && slices.ContainsFunc(front[:i-1], func(o baseline.Point) bool { return o.Split == p.Split }) {
			t.Errorf("split %s comes back in the front at row %d", p.Split, i+1)
		}
	}
	for _, k := range []string{pointKey(top), pointKey(tie), pointKey(valid(0.5, 60, 0.45)), pointKey(valid(0.3, 60, 0.45)), pointKey(valid(0.2, 30, 0.4))} {
		if !slices.Contains(want, k) {
			t.Fatalf("the brute-force front lacks %s: %q", k, want)
		}
	}
	if len(want) < 7 {
		t.Fatalf("a front of %d points tests little: %q", len(want), want)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("front:\n got %q\nwant %q", got, want)
	}
}

func keptNumbers(kept []views.KeptCascade) []int {
	var ns []int
	for _, k := range kept {
		ns = append(ns, k.N)
	}
	return ns
}

// TestKeptOfEnsemble: the kept cascades are of the base ensemble they were
// optimised on. A retrain drops them, as it drops the finished runs' points
// and the λ sweep's, and says how many (they stayed, drawn in the compare
// view and exported beside the new ensemble's baselines); k while the new
// ensemble trains keeps nothing (it kept the old ensemble's cascade shown
// last). A new relevance threshold keeps the ensemble, and the kept
// cascades too. Loading other data drops them the same way.
func TestKeptOfEnsemble(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	keptPts := func(pts []baseline.Point) (n int) {
		for _, p := range pts {
			if strings.HasPrefix(p.Method, "kept #") {
				n++
			}
		}
		return n
	}
	m := ready(t)
	m, _ = update(t, m, key("k"))
	m.stopRun()
	m = typeParam(t, m, parRelevant, "2")
	m, _ = update(t, m, key("k"))
	if len(m.kept) != 2 || keptPts(m.curvePoints()) != 2 {
		t.Fatalf("a new threshold: %d kept, %d exported, want 2", len(m.kept), keptPts(m.curvePoints()))
	}
	m.stopRun()
	m.sel = parTrees
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("12"))
	m, _ = update(t, m, key("enter"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	if len(m.kept) != 0 || len(m.keptSave) != 0 || keptPts(m.curvePoints()) != 0 {
		t.Errorf("after a retrain: %d kept, %d to save, %d exported", len(m.kept), len(m.keptSave), keptPts(m.curvePoints()))
	}
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if s, want := statusOf(m), "dropped 2 kept (old ensemble)"; !strings.HasSuffix(s, " · "+want) || m.errLine {
		t.Errorf("status line after a retrain %q, want … · %q", s, want)
	}
	m, _ = update(t, m, key("c"))
	if v := m.View(); strings.Contains(v, "kept #") || !strings.Contains(v, "0 kept") {
		t.Errorf("the compare view after a retrain:\n%s", v)
	}
	m, _ = update(t, m, key("c"))
	if m, _ = update(t, m, key("k")); len(m.kept) != 0 || !m.errLine {
		t.Errorf("k while the new ensemble trains: %d kept, status %q", len(m.kept), m.status)
	}
	m = drive(t, m, cmd, firstEvent)
	if m, _ = update(t, m, key("k")); len(m.kept) != 1 || m.kept[0].N != 3 || m.keptSave[0].run.w.e != m.w.e {
		t.Errorf("k on the new ensemble: %v", keptNumbers(m.kept))
	}

	// Other data: their own ensemble.
	m.stopRun()
	m, _ = update(t, m, key("o"))
	m.loadScr.values = [numFields]string{"builtin:mq2008/test", "", "", "", ""}
	m, cmd = update(t, m, key("l"))
	m, _ = update(t, m, cmd())
	if len(m.kept) != 0 || m.cfg.Train != "builtin:mq2008/test" || !strings.Contains(m.status, "dropped 1 kept (old data)") {
		t.Errorf("after loading other data: %d kept, train %q, status %q", len(m.kept), m.cfg.Train, m.status)
	}
}

// TestExportWhileRebuilding: e while a targets edit rebuilds the cascade
// problem exports the curves, whose baselines are those of the ensemble in
// use; it said "wait for the baselines", which were there. While the base
// ensemble retrains, the baselines are to come, and e says so.
func TestExportWhileRebuilding(t *testing.T) {
	m := ready(t)
	t.Chdir(t.TempDir())
	m.panel, m.sel = true, parTargets
	m, _ = update(t, m, key("enter"))
	m, rebuild := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phasePreparing || m.w.points == nil {
		t.Fatalf("targets edit: phase %d, baselines %d", m.phase, len(m.w.points))
	}
	m, cmd := update(t, m, key("e"))
	if cmd == nil || m.errLine {
		t.Fatalf("e while the problem is rebuilt: status %q", m.status)
	}
	m, _ = update(t, m, cmd())
	if pts, err := baseline.ReadCSV(curvesCSV); err != nil || len(pts) < len(m.w.points) {
		t.Errorf("exported %d points (%v), want the %d baselines at least; status %q", len(pts), err, len(m.w.points), m.status)
	}
	m = drive(t, m, rebuild, firstEvent)
	m.sel = parTrees
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("12"))
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	m, cmd = update(t, m, key("e"))
	if cmd != nil || !strings.Contains(m.status, "wait for the baselines") {
		t.Errorf("e while retraining: command %v, status %q", cmd != nil, m.status)
	}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TestExportAllOrNone: the three files of e are written together, as
// cronus sweep writes its curve and its plot: when one cannot be written,
// none changes (the new curves were left beside the last export's front).
func TestExportAllOrNone(t *testing.T) {
	m := ready(t)
	t.Chdir(t.TempDir())
	old := map[string]string{curvesCSV: "old curves\n", frontCSV: "old front\n"}
	for name, s := range old {
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(curvesSVG, 0o755); err != nil { // cannot be replaced by a file
		t.Fatal(err)
	}
	m, cmd := update(t, m, key("e"))
	if cmd == nil {
		t.Fatalf("e: %q", m.status)
	}
	m, _ = update(t, m, cmd())
	if !m.errLine || !strings.Contains(m.status, curvesSVG) {
		t.Errorf("status after a failed export: %q", m.status)
	}
	for name, s := range old {
		if b, err := os.ReadFile(name); err != nil || string(b) != s {
			t.Errorf("%s after a failed export: %.40q… (%v), want it as it was, %q", name, b, err, s)
		}
	}
	if names, _ := filepath.Glob(".*tmp*"); len(names) != 0 {
		t.Errorf("temporary files left: %v", names)
	}
}

// TestExportOutlivesLoad: an export asked for before other data load is
// written: it was of the session the load replaced, whose work the load
// cancels, and it failed, "export: context canceled", once the new data
// had loaded (on 200,000 documents an export takes seconds).
func TestExportOutlivesLoad(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	m := ready(t)
	t.Chdir(t.TempDir())
	m, export := update(t, m, key("e"))
	if export == nil {
		t.Fatalf("e: %q", m.status)
	}
	m, _ = update(t, m, key("o"))
	m = pick(t, m, "builtin:mq2008/test")
	m, load := update(t, m, key("l"))
	if load == nil {
		t.Fatalf("l: %q", m.status)
	}
	m, _ = update(t, m, load())
	if !strings.HasPrefix(m.status, "loaded ") {
		t.Fatalf("after the load: %q", m.status)
	}
	m, _ = update(t, m, export())
	if m.errLine || !strings.HasPrefix(m.status, "exported ") {
		t.Errorf("the export after the load: %q", m.status)
	}
	if pts, err := baseline.ReadCSV(curvesCSV); err != nil || len(pts) == 0 {
		t.Errorf("%s: %d points, %v (status %q)", curvesCSV, len(pts), err, m.status)
	}
}

// The compare view shows the kept cascades' λ, ε and σ as the params line
// shows them (formatFloat): λ 0.12345 and 0.12346, typed, both read "λ
// 0.1235" there, beside a params line and a "kept #1 (λ 0.12345, …)"
// that told them apart. A panel value of 17 digits, as typed, is shown
// whole, within the screen, at 80 and at 40 columns.
func TestCompareShowsTypedValues(t *testing.T) {
	m := ready(t)
	for _, lambda := range []float64{0.12345, 0.12346} {
		m.snapRun.par.Lambda = lambda // as TestKeepAndCompare: the run's, not another run
		m.snapRun.par.Rho1 = 0.02
		if lambda == 0.12346 {
			m.snapRun.par.Rho1 = 0.12345678901234568
		}
		m, _ = update(t, m, key("k"))
		if want := "(λ " + strconv.FormatFloat(lambda, 'g', -1, 64) + ","; !strings.Contains(m.status, want) {
			t.Errorf("status %q lacks %q", m.status, want)
		}
	}
	m, _ = update(t, m, key("c"))
	for _, size := range [][2]int{{80, 24}, {40, 40}, {160, 48}} {
		mm, _ := update(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		v := mm.View()
		for i, l := range strings.Split(v, "\n") {
			if w := lipgloss.Width(l); w > size[0] {
				t.Errorf("compare %dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
		for _, want := range []string{"λ 0.12345 ", "λ 0.12346 ", "ρ 0.02"} {
			if !strings.Contains(v, want) {
				t.Errorf("compare %dx%d lacks %q:\n%s", size[0], size[1], want, v)
			}
		}
		if flat := strings.Join(strings.Fields(v), ""); !strings.Contains(flat, "0.12345678901234568") || strings.Contains(v, "0.1235") {
			t.Errorf("compare %dx%d: ρ 0.12345678901234568 not whole, or λ rounded:\n%s", size[0], size[1], v)
		}
	}
}
