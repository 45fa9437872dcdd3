package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// pressSave presses s, runs the save it starts, and reads the file it
// wrote at savePath.
func pressSave(t *testing.T, m Model) (Model, *cronus.File) {
	t.Helper()
	m, cmd := update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s returned no command: %q", m.status)
	}
	m, _ = update(t, m, cmd())
	f, _ := savedFile(t, m, savePath)
	return m, f
}

// savedFile reads a cascade file the workbench wrote and scores it on the
// workbench's test data as `cronus eval --cascade FILE` does (the file's
// own costs).
func savedFile(t *testing.T, m Model, path string) (*cronus.File, cronus.Eval) {
	t.Helper()
	f, err := cronus.ReadFile(path)
	if err != nil {
		t.Fatalf("saved file: %v", err)
	}
	e, c, err := f.Cascade()
	if err != nil {
		t.Fatal(err)
	}
	return f, cronus.Evaluate(e, c, m.w.test, f.FeatureCost, f.TreeCost, reportSpecs)
}

// savedAt reports whether a save's status starts with the time of day
// (hh:mm:ss) of a moment between before and after.
func savedAt(status string, before, after time.Time) bool {
	for _, at := range []time.Time{before, after} {
		if strings.HasPrefix(status, at.Format("15:04:05")+" saved ") {
			return true
		}
	}
	return false
}

// endRun cancels the running optimisation and takes its last event, which
// carries the best cascade so far, as a finished run's would.
// finished is ready's model once its first run has finished.
func finished(t *testing.T) Model {
	m := ready(t)
	return drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool { return !m.running })
}

func endRun(t *testing.T, m Model) Model {
	t.Helper()
	m.run.cancel()
	for m.running {
		m, _ = update(t, m, waitOpt(m.gen, m.run.job.Events())())
	}
	if m.best == nil {
		t.Fatal("no best cascade after the run ended")
	}
	return m
}

// TestSaveBestCascade: 's' saves the cascade 'k' keeps, the best on
// validation of the run shown, as soon as the run reports one (it said "no
// cascade to save yet" until the run finished, and then saved the last
// finished run's best, which was not what 'k' kept while a later run was
// under way); the status gives the figures `cronus eval --cascade` gives
// for the file, and its params what `cronus cascade` records.
func TestSaveBestCascade(t *testing.T) {
	m := New(context.Background(), mq2008, views.PlainStyles())
	defer m.cancel()
	m, cmd := update(t, m, key("s"))
	if cmd != nil || !strings.Contains(m.status, "no cascade to save yet") {
		t.Errorf("s before any result: status %q", m.status)
	}
	m = ready(t)
	t.Chdir(t.TempDir())
	m, _ = update(t, m, key("k"))
	m, cmd = update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s returned no command: %q", m.status)
	}
	before := time.Now()
	msg := cmd().(savedMsg)
	after := time.Now()
	m, _ = update(t, m, msg)
	kept := m.kept[0]
	f, ev := savedFile(t, m, savePath)
	if !reflect.DeepEqual(ev, kept.Test) {
		t.Errorf("the saved cascade scores %v, cost %v, reach %v; kept: %v, %v, %v", ev.Metrics, ev.Cost, ev.Reached, kept.Test.Metrics, kept.Test.Cost, kept.Test.Reached)
	}
	want := fmt.Sprintf("saved ./%s: test NDCG@10 %.3f, P@5 %.3f, cost %s", savePath, ev.Metrics["ndcg@10"], ev.Metrics["p@5"], views.Num(ev.Cost.Total))
	if !savedAt(m.status, before, after) || !strings.HasSuffix(m.status, " "+want) || m.errLine {
		t.Errorf("status after save: %q, want the time then %q", m.status, want)
	}
	// A second save says so: the message is that of another time. The
	// same message twice gave no sign that the second save happened.
	first := m.status
	msg.at = msg.at.Add(time.Second)
	m, _ = update(t, m, msg)
	if m.status == first || !strings.HasPrefix(m.status, msg.at.Format("15:04:05")+" ") {
		t.Errorf("second save: %q after %q", m.status, first)
	}
	// It fits in 80 columns, the cost too (it was cut off there).
	m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if lines := strings.Split(m.View(), "\n"); !strings.Contains(lines[len(lines)-2], "cost ") {
		t.Errorf("at 80 columns the save reads %q", lines[len(lines)-2])
	}
	// The parameters that made the cascade are recorded with it, with the
	// base ensemble the workbench trained.
	for k, want := range map[string]any{"lambda": m.runPar.Lambda, "rho1": m.runPar.Rho1, "relevant": m.w.tg.Relevant, "graded": false,
		"rule": cronus.RuleTopM, "top_m": float64(topM), "cycles": float64(maxCycles), "train": mq2008.Train, "valid": mq2008.Valid,
		"base": map[string]any{"objective": "regression", "trees": 20.0, "leaves": 4.0, "max_depth": 2.0, "col_sample": 1.0}} {
		if got := f.Params[k]; !reflect.DeepEqual(got, want) {
			t.Errorf("saved params[%q] = %v, want %v", k, got, want)
		}
	}
	for _, k := range []string{"warm", "absent", "model"} {
		if v, ok := f.Params[k]; ok {
			t.Errorf("a cold run on the built-in data saved params[%q] = %v", k, v)
		}
	}
	// With the σ_k its soft exits were trained with, which are fixed for
	// the run: those of the snapshot's current stages.
	var sigma []float64
	for _, st := range m.snap.Stages {
		sigma = append(sigma, st.Sigma)
	}
	if got := f.StageSigma(); len(sigma) == 0 || !reflect.DeepEqual(got, sigma) {
		t.Errorf("saved σ_k %v, want the run's %v", got, sigma)
	}
}

// TestSaveWhileRetraining: 's' while the base ensemble retrains saves
// nothing, as 'k' keeps nothing, and both say why: 's' saves the cascade
// 'k' keeps. It saved the old ensemble's cascade, shown nowhere, while 'k'
// said to wait for the new ensemble's first cascade. (It once crashed the
// workbench: the save took the ensemble being retrained, which had none
// yet.) Once the new ensemble's run reports, 's' saves its cascade.
func TestSaveWhileRetraining(t *testing.T) {
	m := endRun(t, ready(t))
	m.panel, m.sel = true, parTrees
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("25"))
	m, _ = update(t, m, key("enter"))
	m, train := update(t, m, debounceMsg{edit: m.edits})
	if m.phase != phaseTraining || m.w.e != nil {
		t.Fatalf("trees edit: phase %d", m.phase)
	}
	t.Chdir(t.TempDir())
	m, cmd := update(t, m, key("s"))
	saveSaid := m.status
	if cmd != nil || !m.errLine || !strings.Contains(saveSaid, "wait for the new base ensemble's first cascade") {
		t.Fatalf("s while retraining: command %v, status %q", cmd != nil, saveSaid)
	}
	if _, err := os.Stat(savePath); err == nil {
		t.Fatal("s while retraining wrote a file")
	}
	m, _ = update(t, m, key("k"))
	if len(m.kept) != 0 || !strings.HasSuffix(m.status, strings.TrimPrefix(saveSaid, "no cascade to save yet")) {
		t.Errorf("k while retraining says %q; s said %q", m.status, saveSaid)
	}
	m = drive(t, m, train, func(m Model, msg tea.Msg) bool {
		_, ok := msg.(optMsg)
		return ok && m.snap.BestCascade != nil
	})
	m, cmd = update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s on the new ensemble: %q", m.status)
	}
	m, _ = update(t, m, cmd())
	if m.errLine || !strings.Contains(m.status, " saved ./"+savePath+":") {
		t.Fatalf("status %q", m.status)
	}
	if f, _ := savedFile(t, m, savePath); len(f.Ensemble.Trees) != 25 {
		t.Errorf("saved %d trees, want the new ensemble's 25", len(f.Ensemble.Trees))
	}
}

// TestSaveAfterRetrainFromModel: a session that started from a model file
// and then retrained the base ensemble (trees, leaves, column sample)
// optimises the workbench's own trees, so a saved cascade records their
// training (`base`), as after any retrain; it named the model file, whose
// trees the cascade no longer holds.
func TestSaveAfterRetrainFromModel(t *testing.T) {
	src := ready(t)
	src.stopRun()
	model := filepath.Join(t.TempDir(), "m.json")
	m, cmd := fromModel(t, src.w.e, model)
	m = drive(t, m, cmd, firstEvent)
	if c, ok := m.savable(); !ok || c.fileParams()["model"] != model {
		t.Fatalf("from the model file: savable %v", ok)
	}
	// The saved file's ensemble says where its trees come from, as
	// `cronus cascade` writes it (it said "cronus" for a model file's).
	t.Chdir(t.TempDir())
	var params map[string]any // the saved ensemble's
	save := func(m Model) string {
		t.Helper()
		_, f := pressSave(t, m)
		params = f.Ensemble.Params
		return f.Ensemble.Source
	}
	if got := save(m); got != "test" || params["written_by"] != "the tui tests" {
		t.Errorf("a cascade of the model file's trees has source %q and params %v, want the file's \"test\" and its params", got, params)
	}
	m.stopRun()
	m = typeParam(t, m, parTrees, "12")
	c, ok := m.savable()
	if !ok || len(c.run.w.e.Trees) != 12 {
		t.Fatalf("after the retrain: savable %v", ok)
	}
	if got := save(m); got != "cronus" || params != nil {
		t.Errorf("a cascade of the retrained trees has source %q and params %v, want cronus and none", got, params)
	}
	p := c.fileParams()
	base, _ := p["base"].(map[string]any)
	if _, named := p["model"]; named || base["trees"] != 12 {
		t.Errorf("a cascade of the retrained ensemble records model %v, base %v", p["model"], p["base"])
	}
}

// TestSaveAfterTargetsChange: after ω⁺ is changed the problem is rebuilt,
// and until the new run reports, 's' saves the last cascade with the
// targets and λ_max it was optimised with (it recorded the new ones).
func TestSaveAfterTargetsChange(t *testing.T) {
	m := endRun(t, ready(t))
	lambdaMax := m.w.sc.LambdaMax
	m.panel, m.sel = true, parPosWeight
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("2"))
	m, _ = update(t, m, key("enter"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m, _ = update(t, m, cmd()) // the rebuilt problem; the run restarts
	if m.w.tg.PosWeight != 2 || m.w.sc.LambdaMax == lambdaMax {
		t.Fatalf("rebuilt with ω⁺ %g, λ_max %g (was %g)", m.w.tg.PosWeight, m.w.sc.LambdaMax, lambdaMax)
	}
	t.Chdir(t.TempDir())
	m, cmd = update(t, m, key("s"))
	m, _ = update(t, m, cmd())
	f, _ := savedFile(t, m, savePath)
	if f.Params["pos_weight"] != 3.5 || f.Params["lambda_max"] != lambdaMax {
		t.Errorf("saved ω⁺ %v and λ_max %v, want the cascade's 3.5 and %v", f.Params["pos_weight"], f.Params["lambda_max"], lambdaMax)
	}
}

// TestSaveWarmRun: a cascade of a warm run (after an edit) says so in its
// params: `cronus cascade`, which starts from Algorithm 2, does not make
// it.
func TestSaveWarmRun(t *testing.T) {
	m := finished(t)
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil && m.snapRun.warm })
	t.Chdir(t.TempDir())
	m, cmd = update(t, m, key("s"))
	m, _ = update(t, m, cmd())
	f, _ := savedFile(t, m, savePath)
	if f.Params["warm"] != true || f.Params["lambda"] != 0.015 {
		t.Errorf("warm run saved params warm %v, λ %v", f.Params["warm"], f.Params["lambda"])
	}
}

// TestFileParamsModelAbsent: with --model and --absent missing the saved
// params name the model and say "absent": "missing", as `cronus cascade`
// records them (eval --cascade needs --absent missing again).
func TestFileParamsModelAbsent(t *testing.T) {
	w := &workData{files: Config{Train: "t.txt", Valid: "v.txt", Model: "m.json", AbsentMissing: true}, tg: cronus.DefaultTargets(), sc: cronus.Scales{LambdaMax: 2}}
	p := savable{run: runInfo{w: w, par: defaultParams()}}.fileParams()
	if p["model"] != "m.json" || p["absent"] != "missing" || p["train"] != "t.txt" || p["lambda_abs"] != 0.02 {
		t.Errorf("params %v", p)
	}
	if _, ok := p["base"]; ok {
		t.Errorf("base ensemble recorded for a model file: %v", p["base"])
	}
}

// TestSaveKept: in the compare view 's' saves each kept cascade to
// ./cronus-kept-N.json, and each file scores as its column says.
func TestSaveKept(t *testing.T) {
	m := ready(t)
	t.Chdir(t.TempDir())
	m, _ = update(t, m, key("c"))
	if m, _ = update(t, m, key("s")); !m.errLine || !strings.Contains(m.status, "no kept cascade") {
		t.Errorf("s with none kept: %q", m.status)
	}
	m, _ = update(t, m, key("k"))
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool {
		return !reflect.DeepEqual(m.snap.BestTest, m.kept[0].Test) || !m.running
	})
	m, _ = update(t, m, key("k"))
	m, cmd := update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s in the compare view: %q", m.status)
	}
	before := time.Now()
	msg := cmd()
	m, _ = update(t, m, msg)
	if !savedAt(m.status, before, time.Now()) || !strings.HasSuffix(m.status, " saved the kept cascades to ./cronus-kept-1.json, ./cronus-kept-2.json") {
		t.Errorf("status %q", m.status)
	}
	for _, k := range m.kept {
		if _, ev := savedFile(t, m, filepath.Join(".", keptPath(k.N))); !reflect.DeepEqual(ev, k.Test) {
			t.Errorf("kept #%d: file scores %v at %v, the compare view shows %v at %v", k.N, ev.Metrics, ev.Cost, k.Test.Metrics, k.Test.Cost)
		}
	}
}

// TestSaveKeptAllOrNone: the kept cascades' files are written together,
// as cronus cascade writes its outputs: when one cannot be written, none
// changes (the files before it were replaced, beside the error).
func TestSaveKeptAllOrNone(t *testing.T) {
	m := ready(t)
	t.Chdir(t.TempDir())
	m, _ = update(t, m, key("k"))
	m, _ = update(t, m, key("k"))
	m, _ = update(t, m, key("c"))
	if err := os.WriteFile(keptPath(1), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(keptPath(2), 0o755); err != nil { // cannot be replaced by a file
		t.Fatal(err)
	}
	m, cmd := update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s in the compare view: %q", m.status)
	}
	m, _ = update(t, m, cmd())
	if !m.errLine || !strings.Contains(m.status, keptPath(2)) {
		t.Errorf("status after a failed save: %q", m.status)
	}
	if b, err := os.ReadFile(keptPath(1)); err != nil || string(b) != "old\n" {
		t.Errorf("%s after a failed save: %.40q… (%v), want it as it was", keptPath(1), b, err)
	}
	if names, _ := filepath.Glob(".*tmp*"); len(names) != 0 {
		t.Errorf("temporary files left: %v", names)
	}
}

// TestKEditWarm: a change of K restarts warm, from the best cascade so far
// with stages added before its last (it started from scratch before), and
// the new run's cascades have the new K.
func TestKEditWarm(t *testing.T) {
	m := finished(t)
	K := m.par.K
	m, _ = update(t, m, key("down")) // λ → K
	if paramNames[m.sel] != "K" {
		t.Fatalf("selected %q, want K", paramNames[m.sel])
	}
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil && m.snapRun.par.K == K+1 })
	if !m.snapRun.warm {
		t.Error("the run after a change of K started from scratch")
	}
	if n := len(m.snap.BestCascade.Stages); n != K+1 {
		t.Errorf("the warm run's best cascade has %d stages, want %d", n, K+1)
	}
}

// TestEpsilonDeltaEditFromScratch: ε and δ shape only the initialisation
// (Algorithm 2), so an edit of either starts from scratch, says so, and
// the run's cascade is built with the new value. A warm start kept the
// old stages (reach 0.488/0.481 after ε 0.15 → 0.6) while the status line
// said the value applied.
func TestEpsilonDeltaEditFromScratch(t *testing.T) {
	m := finished(t)
	for range parEpsilon - m.sel {
		m, _ = update(t, m, key("down"))
	}
	if m.sel != parEpsilon {
		t.Fatalf("selected %q, want ε", paramNames[m.sel])
	}
	eps := m.par.Epsilon
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if want := fmt.Sprintf("ε %s → %s: from scratch", formatFloat(eps), formatFloat(eps+0.05)); !strings.Contains(m.status, want) {
		t.Errorf("status %q, want it to say %q", m.status, want)
	}
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil && m.snapRun.par.Epsilon == eps+0.05 })
	if m.snapRun.warm || m.snap.Warm {
		t.Error("the run after a change of ε started warm")
	}
	// A λ edit after it starts warm again.
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyUp})
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyUp})
	if m.sel != parLambda {
		t.Fatalf("selected %q, want λ", paramNames[m.sel])
	}
	lambda := m.par.Lambda
	m, _ = update(t, m, key("right"))
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil && m.snapRun.par.Lambda != lambda })
	if !m.snapRun.warm {
		t.Error("a λ edit after the ε edit started from scratch")
	}
}

// TestRestartTakesPendingEdit: r within the debounce delay of an edit
// starts from scratch with the edited value, and the edit's tick, when it
// comes, restarts nothing (review 2026-11-29: it restarted r's run warm,
// from the last run's cascade of the old ε, under "restarted from
// scratch", and the saved file said "warm").
func TestRestartTakesPendingEdit(t *testing.T) {
	m := finished(t)
	for range parEpsilon - m.sel {
		m, _ = update(t, m, key("down"))
	}
	eps := m.par.Epsilon
	m, _ = update(t, m, key("right"))
	tick := debounceMsg{edit: m.edits}
	m, cmd := update(t, m, key("r"))
	if !strings.Contains(m.status, "restarted from scratch") {
		t.Errorf("r: status %q", m.status)
	}
	gen := m.gen
	if m2, cmd2 := update(t, m, tick); m2.gen != gen || cmd2 != nil {
		t.Errorf("the edit's tick after r: run %d → %d, command %v", gen, m2.gen, cmd2)
	}
	m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil && m.snapRun.par.Epsilon == eps+0.05 })
	if m.snapRun.warm || m.snap.Warm {
		t.Error("r after an ε edit started warm")
	}
}

// Lowering λ restarts warm from the current cascade, and the warm run can
// add trees: a weight at zero would otherwise stay at zero, so a cascade
// made at a larger λ kept its few trees whatever λ was set to. Counted
// weight by weight against the cascade the run started from: the total
// over the stages need not grow, as at a small λ the run can also empty
// a middle stage (passing everything) whose exits no longer pay (on 386,
// whose kernels add in another order, the total fell from 61 to 46).
func TestLambdaLoweredWarmGainsTrees(t *testing.T) {
	m := finished(t)
	runTo := func(m Model, keys string) Model {
		m, _ = update(t, m, key(keys))
		lambda := m.par.Lambda
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		m = drive(t, m, cmd, func(m Model, _ tea.Msg) bool {
			return m.snapRun.par.Lambda == lambda && m.snap.Phase == "done" && m.snap.BestCascade != nil
		})
		<-m.run.done
		return m
	}
	m = runTo(m, "llllll") // λ × 11.4
	if !m.snapRun.warm {
		t.Fatal("the run after the λ edit started from scratch")
	}
	m = runTo(m, "hhhhhhhhhhhh") // λ ÷ 130
	if !m.snapRun.warm || m.run.from == nil || m.run.out == nil {
		t.Fatalf("the run after lowering λ: warm %v, from %v, outcome %v", m.snapRun.warm, m.run.from != nil, m.run.out != nil)
	}
	from, end := m.run.from.Cascade.Stages, m.run.out.Final.Cascade.Stages
	if len(from) != len(end) {
		t.Fatalf("%d stages warm, %d at the end", len(from), len(end))
	}
	gained, was := 0, 0
	for k := range from {
		was += len(from[k].Active())
		for _, tr := range end[k].Active() {
			if from[k].Beta[tr] == 0 {
				gained++
			}
		}
	}
	t.Logf("λ %.3g: %d weights at zero in the %d stages the run started from (%d active) are active at its end", m.par.Lambda, gained, len(from), was)
	if gained == 0 {
		t.Errorf("λ lowered to %.3g: no weight at zero in the cascade the warm run started from (%d active) is active at its end", m.par.Lambda, was)
	}
}

// TestSaveSaysSoWhilePaused: 's' while paused says that it saved, at 80
// columns too: the message with its figures did not fit beside "paused",
// the status line left it out, and the save went by without a word. Where
// the figures do not fit, the time and the file do; where they do, all.
func TestSaveSaysSoWhilePaused(t *testing.T) {
	m := ready(t)
	t.Chdir(t.TempDir())
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace})
	m, cmd := update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s returned no command: %q", m.status)
	}
	msg := cmd().(savedMsg)
	m, _ = update(t, m, msg)
	at := msg.at.Format(time.TimeOnly)
	for _, c := range []struct {
		w    int
		want string
	}{
		{80, "paused · " + at + " saved ./" + savePath},
		{200, "paused · " + m.status},
	} {
		m, _ = update(t, m, tea.WindowSizeMsg{Width: c.w, Height: 24})
		if s := statusOf(m); !strings.HasPrefix(s, c.want) {
			t.Errorf("%d columns: status line %q, want it to begin with %q", c.w, s, c.want)
		}
	}
}

// TestSaveSaysSoAtWork: a save says so at 80 columns beside the note of
// the work under way, and a save of the kept cascades in words, not cut.
// Beside "training the base ensemble: 5 of 25 trees" or "building the
// cascade problem …" the save's short form did not fit and the save went
// by without a word; the kept cascades' files were cut mid-name.
func TestSaveSaysSoAtWork(t *testing.T) {
	t.Chdir(t.TempDir())
	saved := func(t *testing.T, m Model, cmd tea.Cmd) (Model, string) {
		t.Helper()
		if cmd == nil {
			t.Fatalf("s returned no command: %q", m.status)
		}
		msg := cmd().(savedMsg)
		m, _ = update(t, m, msg)
		m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
		return m, msg.at.Format(time.TimeOnly)
	}
	edit := func(m Model, i int, v string) (Model, tea.Cmd) {
		m.panel, m.sel = true, i
		for _, k := range []string{"enter", v, "enter"} {
			m, _ = update(t, m, key(k))
		}
		return update(t, m, debounceMsg{edit: m.edits})
	}

	// The save ends after a retrain has started.
	m, save := update(t, ready(t), key("s"))
	m, train := edit(m, parTrees, "300")
	m, _ = update(t, m, train()) // the first trees
	if m.phase != phaseTraining || m.trainProg.Total == 0 {
		t.Fatalf("phase %d, progress %v", m.phase, m.trainProg)
	}
	m, at := saved(t, m, save)
	if s := statusOf(m); !strings.Contains(s, "training") || !strings.Contains(s, at+" saved ./"+savePath) {
		t.Errorf("saved while training: status line %q", s)
	}

	// Saved while the problem is rebuilt for new targets.
	m, _ = edit(ready(t), parPosWeight, "2")
	if m.phase != phasePreparing {
		t.Fatalf("ω⁺ edit: phase %d", m.phase)
	}
	m, cmd := update(t, m, key("s"))
	m, at = saved(t, m, cmd)
	if s := statusOf(m); !strings.Contains(s, "building") || !strings.Contains(s, at+" saved ./"+savePath) {
		t.Errorf("saved while building the problem: status line %q", s)
	}

	// Three kept cascades saved from the compare view: their files do
	// not fit in 80 columns; what fits says how many, whole.
	m = ready(t)
	m.panel = false
	for range 3 {
		m, _ = update(t, m, key("k"))
	}
	m, _ = update(t, m, key("c"))
	m, cmd = update(t, m, key("s"))
	m, at = saved(t, m, cmd)
	if s := statusOf(m); !strings.HasPrefix(s, at+" saved 3 kept") || strings.Contains(s, "…") {
		t.Errorf("kept cascades saved: status line %q", s)
	}
}

// typeLambda types λ (the selected parameter) and returns the model at
// the first snapshot of the run the edit starts.
func typeLambda(t *testing.T, m Model, value string) Model {
	t.Helper()
	m, _ = update(t, m, key("enter"))
	for _, r := range value {
		m, _ = update(t, m, key(string(r)))
	}
	m, _ = update(t, m, key("enter"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	gen := m.gen
	return drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
		o, ok := msg.(optMsg)
		return ok && o.gen == gen && !inInit(o.ev.Progress) && len(m.snap.Terms) > 0
	})
}

// TestRestartInFirstCycleKeepsProgress: a warm run cancelled in its first
// cycle (before it has a best cascade of its own) hands on the cascade it
// started from, so the next run starts where it did. It handed on the last
// finished run's best instead, dropping every cancelled run's progress
// since: at λ 5 on the workbench's ensemble, a restart during a warm run's
// first cycle went back from a cascade at eq (8) 11983 to the λ 0.01
// cascade at 44034, and the run ended with that one's cost again. (Such a
// rise of λ now starts from Algorithm 2, which is lower on eq (8) than the
// λ 0.01 cascade; a smaller one, as here, still starts warm.)
func TestRestartInFirstCycleKeepsProgress(t *testing.T) {
	m := finished(t)
	edit := func(m Model) Model {
		m = typeLambda(t, m, "0.05")
		if !m.snap.Warm {
			t.Fatalf("the run after an edit of λ to %g started from Algorithm 2: the test needs warm starts", m.par.Lambda)
		}
		return m
	}
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace}) // each run is held at its start
	// B: through its first cycle, which gives it a best cascade.
	m = edit(m)
	b0 := m.snap.Terms[0].Total
	for range m.par.K {
		m, _ = update(t, m, key("n"))
	}
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil })
	// C starts from B's best; D, after C is cancelled at its start, from
	// the same cascade. Each is restarted by switching refit, which
	// restarts warm and changes nothing of eq (8). (They typed λ 0.05
	// again and sent a tick numbered as the last restart, which no edit
	// made: typing the value λ has restarts nothing since 6eaeacb, and a
	// tick that finds the settings the run's restarts nothing either.)
	refit := func(m Model) Model {
		m.panel, m.sel = true, parRefit
		m, _ = update(t, m, key("enter"))
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		gen := m.gen
		m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
			o, ok := msg.(optMsg)
			return ok && o.gen == gen && !inInit(o.ev.Progress) && len(m.snap.Terms) > 0
		})
		if !m.snap.Warm || m.runPar != m.par {
			t.Fatalf("the run after refit was switched: warm %v, running the edited settings %v", m.snap.Warm, m.runPar == m.par)
		}
		return m
	}
	m = refit(m)
	c0, cStages := m.snap.Terms[0].Total, m.snap.Stages
	if !(c0 < b0) {
		t.Fatalf("B's first cycle did not lower eq (8): %g, then %g", b0, c0)
	}
	m = refit(m)
	if d0 := m.snap.Terms[0].Total; d0 != c0 || !reflect.DeepEqual(m.snap.Stages, cStages) {
		t.Errorf("the run after one cancelled at its start begins at eq (8) %g; the cancelled run began at %g", d0, c0)
	}
}

// TestLargeLambdaRiseStartsFromInit: after a large rise of λ the next run
// starts from Algorithm 2 when that is lower on eq (8) than the cascade the
// user was at; warm from the λ 0.01 cascade, λ 5 ended at cost 367 where
// Algorithm 2's start ended at 41 on the workbench's ensemble. Its saved
// cascade does not say "warm".
func TestLargeLambdaRiseStartsFromInit(t *testing.T) {
	m := finished(t)
	prev := m.best
	m = typeLambda(t, m, "5")
	par := m.snapRun.par
	if par.Lambda != 5 {
		t.Fatalf("λ %g after the edit, want 5", par.Lambda)
	}
	init, err := cronus.Initialize(context.Background(), m.w.pr, m.w.sc, par)
	if err != nil {
		t.Fatal(err)
	}
	warm, err := cronus.Optimize(context.Background(), m.w.pr, m.w.sc, par,
		cronus.Options{Warm: &prev.Cascade, WarmSigma: prev.Sigma, InitOnly: true}, m.w.evaluator(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(init.Terms.Total < warm.Init.Terms.Total) {
		t.Fatalf("eq (8) at λ 5: %g from Algorithm 2, %g warm: the test needs Algorithm 2 lower", init.Terms.Total, warm.Init.Terms.Total)
	}
	if got := m.snap.Terms[0]; m.snap.Warm || m.snap.Phase != "initialising" || got != init.Terms {
		t.Errorf("the run at λ 5 started (warm %v, phase %q) at eq (8) %g; Algorithm 2 gives %g, the warm start %g",
			m.snap.Warm, m.snap.Phase, got.Total, init.Terms.Total, warm.Init.Terms.Total)
	}
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil })
	t.Chdir(t.TempDir())
	m, cmd := update(t, m, key("s"))
	m, _ = update(t, m, cmd())
	if f, _ := savedFile(t, m, savePath); f.Params["warm"] != nil || f.Params["lambda"] != 5.0 {
		t.Errorf("saved params warm %v, λ %v; want no warm, λ 5", f.Params["warm"], f.Params["lambda"])
	}
}

// TestLambdaJumpSaysComparison: after a jump of λ the run is a warm start
// that runs Algorithm 2 to compare with (Options.WarmOrInit), and the
// status line says so, "warm start · comparing with Algorithm 2: stage 3
// of 10"; it said "initialising · Algorithm 2: stage 3 of 10", then "warm
// start" when the warm cascade won. The first figures' phase says which
// did; r, from scratch, still initialises.
func TestLambdaJumpSaysComparison(t *testing.T) {
	for _, lambda := range []string{"0.04", "5"} {
		m := finished(t)
		m, _ = update(t, m, tea.WindowSizeMsg{Width: 200, Height: 50})
		m.sel = parLambda
		m = enterParam(t, m, parLambda, lambda)
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		gen := m.gen
		var lines []string
		m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
			o, ok := msg.(optMsg)
			if ok && o.gen == gen && inInit(o.ev.Progress) {
				lines = append(lines, m.runStatus(120))
			}
			return ok && o.gen == gen && !inInit(o.ev.Progress) && len(m.snap.Terms) > 0
		})
		if len(lines) == 0 {
			t.Fatalf("λ %s: no initialisation reported", lambda)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "warm start · comparing with Algorithm 2: ") {
				t.Errorf("λ %s: while Algorithm 2 runs to compare: %q", lambda, l)
			}
		}
		if want := map[bool]string{true: "warm start", false: "initialising"}[m.snap.Warm]; m.snap.Phase != want {
			t.Errorf("λ %s: the first figures' phase %q, warm %v", lambda, m.snap.Phase, m.snap.Warm)
		}
		if lambda == "5" && m.snap.Warm {
			t.Errorf("λ 5: the run started warm; Algorithm 2 is lower there (TestLargeLambdaRiseStartsFromInit)")
		}
		m, cmd = update(t, m, key("r"))
		gen = m.gen
		lines = nil
		drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
			o, ok := msg.(optMsg)
			if ok && o.gen == gen && inInit(o.ev.Progress) {
				lines = append(lines, m.runStatus(120))
			}
			return ok && o.gen == gen && !inInit(o.ev.Progress) && len(m.snap.Terms) > 0
		})
		for _, l := range lines {
			if !strings.HasPrefix(l, "initialising · Algorithm 2: ") {
				t.Errorf("λ %s, then r: %q", lambda, l)
			}
		}
	}
}

// TestSmallLambdaEditStartsWarm: an arrow-key step of λ (×1.5) starts warm
// at once, without running Algorithm 2 to compare (which would cost the
// initialisation's time at every step, seconds on large data, and here
// win: the cascade the first run is at is still its own initialisation).
func TestSmallLambdaEditStartsWarm(t *testing.T) {
	m := ready(t)
	m, _ = update(t, m, key("right"))
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	gen := m.gen
	m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool {
		o, ok := msg.(optMsg)
		return ok && o.gen == gen && !inInit(o.ev.Progress) && len(m.snap.Terms) > 0
	})
	if !m.snap.Warm || m.snap.Phase != "warm start" {
		t.Errorf("the run after a step of λ started warm %v, phase %q", m.snap.Warm, m.snap.Phase)
	}
}

// TestSecondEditBeforeRunStarts: a second edit before the run the first
// one restarts has started (the cancelled run ends within one step, which
// takes seconds on large data) starts warm from the cancelled run's best,
// as the first edit's run would have. It started from the last finished
// run's best, dropping the cancelled run's progress (or, in the first run,
// from scratch).
func TestSecondEditBeforeRunStarts(t *testing.T) {
	m := finished(t)
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeySpace}) // each run is held at its start
	m = typeLambda(t, m, "0.012")
	for range m.par.K {
		m, _ = update(t, m, key("n"))
	}
	m = drive(t, m, waitOpt(m.gen, m.run.job.Events()), func(m Model, _ tea.Msg) bool { return m.snap.BestCascade != nil })
	b := m.run
	m, _ = update(t, m, key("right"))
	m, first := update(t, m, debounceMsg{edit: m.edits})
	m, _ = update(t, m, key("right"))
	m, second := update(t, m, debounceMsg{edit: m.edits})
	if first == nil || second == nil {
		t.Fatal("an edit did not restart")
	}
	started, ok := second().(optStartedMsg)
	if !ok {
		t.Fatal("the second restart started no run")
	}
	defer started.run.cancel()
	<-b.done
	if b.out == nil || b.out.Best == nil {
		t.Fatal("the cancelled run has no best cascade")
	}
	if from := started.run.from; from == nil || !reflect.DeepEqual(from.Cascade, b.out.Best.Cascade) {
		t.Errorf("the run after two edits did not start from the cancelled run's best (warm %v, from the finished run's best %v)",
			from != nil, from != nil && reflect.DeepEqual(from.Cascade, m.best.Cascade))
	}
	if reflect.DeepEqual(b.out.Best.Cascade, m.best.Cascade) {
		t.Error("the cancelled run's best is the finished run's: the test does not tell them apart")
	}
}

// TestQuitWaitsForSave: q right after s waits for the save, then quits;
// a second q does not wait. A save that begins after the workbench has
// quit (Run closed its guard) writes nothing. (Quitting at once wrote no
// file, or left its temporary file: Bubble Tea does not wait for a
// command, and the process ended between the temporary file and its
// rename.)
func TestQuitWaitsForSave(t *testing.T) {
	m := ready(t)
	defer m.cancel()
	t.Chdir(t.TempDir())
	m, _ = update(t, m, key("w"))
	m, save := update(t, m, key("s"))
	if save == nil {
		t.Fatalf("s returned no command: %q", m.status)
	}
	m, cmd := update(t, m, key("q"))
	if cmd != nil || !m.quitting || !strings.Contains(m.status, "quitting once the file being written is done") {
		t.Fatalf("q during a save: command %v, status %q", cmd, m.status)
	}
	// The running work stops while the file is written (it ran on: on
	// 200,000 documents an export beside the optimiser and a λ sweep took
	// 7.8 s, 5.3 s alone): the run is held at its gate, the sweep ends.
	if !m.gate.isPaused() || m.paused || m.sweep != nil {
		t.Errorf("q during a save: the run's gate paused %v (the user's pause %v), sweep running %v", m.gate.isPaused(), m.paused, m.sweep != nil)
	}
	m, cmd = update(t, m, save())
	if cmd == nil || cmd() != tea.Quit() {
		t.Errorf("the save reported: command %v, want quit", cmd)
	}
	if _, err := os.Stat(savePath); err != nil {
		t.Errorf("no saved file: %v", err)
	}
	// A second q does not wait.
	m2 := ready(t)
	defer m2.cancel()
	m2, _ = update(t, m2, key("s"))
	m2, _ = update(t, m2, key("q"))
	if _, cmd := update(t, m2, key("q")); cmd == nil || cmd() != tea.Quit() {
		t.Errorf("a second q: command %v, want quit", cmd)
	}
	// A save that fails while a quit waits keeps the workbench open, its
	// error shown (review 2026-11-29: it quit, the error went with the
	// screen, and the exit status was 0).
	os.Remove(savePath)
	os.Mkdir(savePath, 0o755)
	m4 := ready(t)
	defer m4.cancel()
	m4, save = update(t, m4, key("s"))
	m4, _ = update(t, m4, key("q"))
	m4, cmd = update(t, m4, save())
	if cmd != nil || m4.quitting || !strings.Contains(m4.status, "save: ") || !strings.HasSuffix(m4.status, "(not quitting: q quits)") {
		t.Errorf("a failed save while quitting: command %v, quitting %v, status %q", cmd, m4.quitting, m4.status)
	}
	if _, cmd := update(t, m4, key("q")); cmd == nil || cmd() != tea.Quit() {
		t.Errorf("q after the failed save: command %v, want quit", cmd)
	}
	if m4.gate.isPaused() {
		t.Error("the failed save while quitting left the run held")
	}
	os.Remove(savePath)
	// Once the guard is closed a save writes nothing, and says so.
	os.Remove(savePath)
	m3 := ready(t)
	defer m3.cancel()
	_, save = update(t, m3, key("s"))
	m3.writes.close()
	if msg := save().(savedMsg); !errors.Is(msg.err, errQuit) {
		t.Errorf("a save after close: %v", msg.err)
	}
	if names, _ := os.ReadDir("."); len(names) != 0 {
		t.Errorf("files after a save that did not begin: %v", names)
	}
}

// TestModelTrees: with Config.ModelTrees (cronus tui --model M --trees k)
// the workbench takes the model's first k trees, as cascade --trees does,
// and a saved cascade records model_trees and holds those k trees; more
// trees than the model has is a load error naming the flag.
func TestModelTrees(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // a load records its files as recent
	src := ready(t)
	src.stopRun()
	model := writeModel(t, src.w.e, "")
	cfg := mq2008
	cfg.Model, cfg.ModelTrees = model, 12
	m := New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, cmd := update(t, m, m.load())
	m = drive(t, m, cmd, firstEvent)
	if m.w == nil || len(m.w.e.Trees) != 12 || !reflect.DeepEqual(m.w.e.Trees, src.w.e.Trees[:12]) {
		t.Fatalf("the workbench took %v trees, want the model's first 12", m.w)
	}
	t.Chdir(t.TempDir())
	m, cmd = update(t, m, key("s"))
	if cmd == nil {
		t.Fatalf("s: %q", m.status)
	}
	m, _ = update(t, m, cmd())
	f, _ := savedFile(t, m, savePath)
	if len(f.Ensemble.Trees) != 12 || f.Params["model_trees"] != 12.0 || f.Params["model"] != model {
		t.Errorf("saved %d trees, params model %v, model_trees %v", len(f.Ensemble.Trees), f.Params["model"], f.Params["model_trees"])
	}

	// Reloading the same model keeps --trees; another model is taken whole.
	v := [numFields]string{cfg.Train, cfg.Valid, cfg.Test, cfg.Costs, model}
	if r := m.resetFlow(v); r.cfg.ModelTrees != 12 {
		t.Errorf("the same model reloaded: ModelTrees %d, want 12", r.cfg.ModelTrees)
	}
	// The same file by another name: the load screen's browser and its
	// recent list give absolute paths, where --model gave a relative one.
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, model)
	if err != nil {
		t.Fatal(err)
	}
	v[4] = rel
	if r := m.resetFlow(v); r.cfg.ModelTrees != 12 {
		t.Errorf("the same model reloaded as %s: ModelTrees %d, want 12", rel, r.cfg.ModelTrees)
	}
	m.cfg.Model = rel
	v[4] = model
	if _, cmd := m.reload(v); cmd == nil {
		t.Error("no load")
	} else if msg, ok := cmd().(pendingLoadMsg); !ok || msg.e == nil || len(msg.e.Trees) != 12 {
		t.Errorf("the same model loaded in the background as %s: %v (err %v), want its first 12 trees", model, msg.e != nil && len(msg.e.Trees) == 12, msg.err)
	}
	m.cfg.Model = model
	v[4] = model + ".other.json"
	if r := m.resetFlow(v); r.cfg.ModelTrees != 0 {
		t.Errorf("another model: ModelTrees %d, want 0 (all)", r.cfg.ModelTrees)
	}

	cfg.ModelTrees = len(src.w.e.Trees) + 1
	m = New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, _ = update(t, m, m.load())
	if want := fmt.Sprintf("--trees %d: the model %s has %d trees", cfg.ModelTrees, model, len(src.w.e.Trees)); m.phase != phaseFailed || !strings.Contains(m.screen.Err, want) {
		t.Errorf("phase %v, error %q; want %q", m.phase, m.screen.Err, want)
	}
}

// TestModelRead: the first load takes Config.ModelRead (cronus tui read the
// file to check --trees) instead of reading the file again; a reload, of
// the same file or after a reset, reads it.
func TestModelRead(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	src := ready(t)
	src.stopRun()
	model := writeModel(t, src.w.e, "")
	md, err := tree.ReadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, []byte("{\n"), 0o644); err != nil { // the file changed since
		t.Fatal(err)
	}
	cfg := mq2008
	cfg.Model, cfg.ModelTrees, cfg.ModelRead = model, 7, md
	msg := loadFiles(context.Background(), cfg, nil).(loadedMsg)
	if msg.err != nil || msg.e == nil || !reflect.DeepEqual(msg.e.Trees, src.w.e.Trees[:7]) {
		t.Fatalf("the first load: %v, want the read model's first 7 trees", msg.err)
	}
	if len(md.Trees) != len(src.w.e.Trees) {
		t.Errorf("the read model lost trees: %d, want %d", len(md.Trees), len(src.w.e.Trees))
	}

	m := New(context.Background(), cfg, views.PlainStyles())
	t.Cleanup(m.cancel)
	m, cmd := update(t, m, m.load())
	m = drive(t, m, cmd, firstEvent)
	if m.w == nil {
		t.Fatalf("no session: %q", m.screen.Err)
	}
	if m.cfg.ModelRead != nil || m.w.files.ModelRead != nil {
		t.Error("the session holds the model file read for its first load") // a second copy of the trees
	}
	v := [numFields]string{cfg.Train, cfg.Valid, cfg.Test, cfg.Costs, model}
	if _, cmd := m.reload(v); cmd == nil {
		t.Error("reload: no load")
	} else if msg, _ := cmd().(pendingLoadMsg); msg.err == nil || !strings.Contains(msg.err.Error(), model) {
		t.Errorf("reload read %v, want the file's error naming it", msg.err)
	}
	if r := m.resetFlow(v); r.cfg.ModelRead != nil {
		t.Error("a reset keeps the model read before it")
	}
}

// TestNoWarmStartAcrossEpsilon: after an edit of ε, whose run starts from
// scratch, a restart before that run has a cascade of its own does not go
// on warm from a cascade of the old ε: it had none of the new ε to start
// from, and a warm start kept the old stages while the saved file named
// the new ε (what TestEpsilonDeltaEditFromScratch forbids). Two ways to
// it: a λ edit applied before the ε run started (it went on from the
// run the ε edit cancelled), and a threshold edit while the ε run was
// held by the pause (it went on from the last finished run's best).
func TestNoWarmStartAcrossEpsilon(t *testing.T) {
	epsEdit := func(t *testing.T) (Model, tea.Cmd, float64) {
		m := finished(t)
		eps := m.par.Epsilon
		m = enterParam(t, m, parEpsilon, formatFloat(eps+0.05))
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		if !strings.Contains(m.status, "from scratch") {
			t.Fatalf("ε edit: status %q", m.status)
		}
		return m, cmd, eps + 0.05
	}
	check := func(t *testing.T, m Model, eps float64) {
		t.Helper()
		if m.snapRun.par.Epsilon != eps {
			t.Fatalf("the run's ε %g, want %g", m.snapRun.par.Epsilon, eps)
		}
		if m.snapRun.warm || m.snap.Warm {
			t.Errorf("the run of ε %g started warm from a cascade of the old ε", eps)
		}
	}
	t.Run("lambda before the run started", func(t *testing.T) {
		m, _, eps := epsEdit(t) // its run never starts: the λ edit's restart comes first
		m.panel, m.sel = false, parLambda
		m, _ = update(t, m, key("right"))
		lambda := m.par.Lambda
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool { return firstEvent(m, msg) && m.snapRun.par.Lambda == lambda })
		check(t, m, eps)
	})
	t.Run("threshold while the run is held", func(t *testing.T) {
		m, cmd, eps := epsEdit(t)
		m, _ = update(t, m, key(" ")) // held at its first step: it never finishes
		m = drive(t, m, cmd, firstEvent)
		old := m.w
		m = enterParam(t, m, parRelevant, "2")
		m, cmd = update(t, m, debounceMsg{edit: m.edits})
		m = drive(t, m, cmd, func(m Model, msg tea.Msg) bool { return firstEvent(m, msg) && m.w != old && m.snapRun.w == m.w })
		check(t, m, eps)
	})
}

// TestFailedQuitSaysSweepCancelled: q while a save is written cancels the
// λ sweep (and a choice of ρ); when the save then fails the workbench
// stays open, and the status line says what the quit cancelled: the
// sweep was gone without a word, its note off the line.
func TestFailedQuitSaysSweepCancelled(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir(savePath, 0o755); err != nil { // the save fails
		t.Fatal(err)
	}
	m := ready(t)
	defer m.cancel()
	m, _ = update(t, m, key("w"))
	if m.sweep == nil {
		t.Fatalf("w: status %q", m.status)
	}
	said := m.sweepCancelled()
	m, save := update(t, m, key("s"))
	m, _ = update(t, m, key("q"))
	if m.sweep != nil {
		t.Fatal("q during a save left the sweep running")
	}
	m, cmd := update(t, m, save())
	if cmd != nil || m.quitting {
		t.Fatalf("the failed save quit: command %v, quitting %v", cmd, m.quitting)
	}
	if !strings.Contains(m.status, "(not quitting: q quits; "+said+")") {
		t.Errorf("status %q, want it to say %q", m.status, said)
	}
}

// TestSavedCostAsShown: the save's message gives the cost per document as
// the status line, the kept message and the compare view do (views.Num):
// from 10,000 it read "cost 1.235e+04" beside the line's "@ 12346"
// (costs such as Yahoo!'s, up to 10,000 a feature, make such cascades).
func TestSavedCostAsShown(t *testing.T) {
	var m Model
	for _, cost := range []float64{12345.6, 1815.6, 359.6} {
		ev := cronus.Eval{Metrics: map[string]float64{"ndcg@10": 0.5, "p@5": 0.6}, Cost: metric.Cost{Total: cost}}
		m.savedStatus(savedMsg{what: "the best cascade", files: []saved{{path: savePath, split: "test", ev: ev}}, at: time.Now()})
		if want := "cost " + views.Num(cost); !strings.HasSuffix(m.status, want) {
			t.Errorf("cost %g: status %q, want it to end in %q", cost, m.status, want)
		}
	}
}

// TestSaveSaysParamsOfCascade: s between an edit and its run's first
// cascade saves the cascade shown, the last run's, whose params are not
// those on screen: the status line says which it was made with. It said
// only "saved ./cronus-cascade.json: test NDCG@10 …" beside the params
// line's λ 0.05 while the file held λ 0.01. As shown, no such note.
func TestSaveSaysParamsOfCascade(t *testing.T) {
	m := ready(t)
	t.Chdir(t.TempDir())
	m.panel = false
	save := func(m Model) (Model, float64) {
		t.Helper()
		m, f := pressSave(t, m)
		lambda, _ := f.Params["lambda"].(float64)
		return m, lambda
	}
	m, lambda := save(m)
	if lambda != 0.01 || strings.Contains(m.status, "made with") {
		t.Errorf("saved as shown: λ %g, status %q", lambda, m.status)
	}
	m = enterParam(t, m, parLambda, "0.05")
	var restart tea.Cmd
	for _, when := range []string{"pending restart", "restarting"} {
		if when == "restarting" {
			m, restart = update(t, m, debounceMsg{edit: m.edits})
		}
		m, lambda = save(m)
		m, _ = update(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
		if at80 := statusOf(m); lambda != 0.01 || !strings.Contains(m.status, "saved ./"+savePath+" (made with λ 0.01): test NDCG@10") || !strings.Contains(at80, "(made with λ 0.01)") {
			t.Errorf("%s: saved λ %g, status %q, at 80 columns %q", when, lambda, m.status, at80)
		}
	}
	m = drive(t, m, restart, func(m Model, msg tea.Msg) bool { return firstEvent(m, msg) && m.snap.BestCascade != nil })
	if m, lambda = save(m); lambda != 0.05 || strings.Contains(m.status, "made with") {
		t.Errorf("saved once the edit's run reported: λ %g, status %q", lambda, m.status)
	}
}

// TestQuitStartsNoWork: while a quit waits for a save, keys that would
// start work (an edit, space releasing the held run, n, r, w, o) are
// refused, the quit's message kept with what was refused, and the restart
// of an edit made just before q waits: no run, retrain, sweep or load
// starts before the quit completes. A save that fails, keeping the
// workbench open, applies the held edit. (A helper's review of state
// while work runs: an edit replaced the quit's message and started a run,
// space released the held run, w started a λ sweep.)
func TestQuitStartsNoWork(t *testing.T) {
	t.Chdir(t.TempDir())
	m := ready(t)
	defer m.cancel()
	m = enterParam(t, m, parLambda, "0.02") // its restart 300 ms later
	lambda := m.par.Lambda
	m, save := update(t, m, key("s"))
	m, _ = update(t, m, key("q"))
	gen, edits, sel := m.gen, m.edits, m.sel
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	if cmd != nil || m.gen != gen || m.status != quitWaits {
		t.Errorf("an edit's restart while quitting: command %v, generation %d (was %d), status %q", cmd != nil, m.gen, gen, m.status)
	}
	for _, k := range []string{"right", "h", "enter", " ", "n", "r", "w", "o", "s", "e"} {
		m, cmd = update(t, m, key(k))
		want := quitWaits + "; " + quitRefuses(k).long
		if cmd != nil || m.gen != gen || m.edits != edits || m.editing || m.sweep != nil || m.loadScr != nil || m.paused || !m.gate.isPaused() || m.status != want {
			t.Errorf("%q while quitting: command %v, generation %d (was %d), edits %d (was %d), typing %v, sweep %v, load screen %v, held %v, status %q (want %q)",
				k, cmd != nil, m.gen, gen, m.edits, edits, m.editing, m.sweep != nil, m.loadScr != nil, m.gate.isPaused(), m.status, want)
		}
	}
	if m.sel != sel || m.par.Lambda != lambda {
		t.Errorf("parameters changed while quitting: selected %d (was %d), λ %v (was %v)", m.sel, sel, m.par.Lambda, lambda)
	}
	if m, cmd = update(t, m, save()); cmd == nil || cmd() != tea.Quit() || m.gen != gen {
		t.Errorf("the save reported: command %v, generation %d (was %d); want quit", cmd, m.gen, gen)
	}

	// ctrl+c while a value is typed starts the quit: the value stays
	// typed, enter refused; a save that fails applies the edit held.
	os.Remove(savePath)
	os.Mkdir(savePath, 0o755)
	m = ready(t)
	defer m.cancel()
	m = enterParam(t, m, parLambda, "0.02")
	m, save = update(t, m, key("s"))
	m.sel = parK
	m, _ = update(t, m, key("enter"))
	m, _ = update(t, m, key("3"))
	m, _ = update(t, m, tea.KeyMsg{Type: tea.KeyCtrlC})
	gen = m.gen
	m, _ = update(t, m, debounceMsg{edit: m.edits})
	m, cmd = update(t, m, key("enter"))
	if cmd != nil || !m.quitting || !m.editing || m.input != "3" || m.gen != gen || m.status != quitWaits+"; no edits meanwhile" {
		t.Errorf("enter on a value typed while quitting: command %v, quitting %v, typing %v %q, generation %d (was %d), status %q",
			cmd != nil, m.quitting, m.editing, m.input, m.gen, gen, m.status)
	}
	m, cmd = update(t, m, save())
	if cmd == nil || m.quitting || m.gen == gen || !strings.Contains(m.status, "(not quitting: q quits)") {
		t.Errorf("a failed save after a held edit: command %v, quitting %v, generation %d (was %d), status %q", cmd != nil, m.quitting, m.gen, gen, m.status)
	}
	m, _ = update(t, m, key("enter"))
	if m.editing || m.par.K != 3 {
		t.Errorf("enter once not quitting: typing %v, K %d", m.editing, m.par.K)
	}

	// q on the load screen starts the quit: l loads nothing meanwhile.
	os.Remove(savePath)
	m = ready(t)
	defer m.cancel()
	m, _ = update(t, m, key("s"))
	m, _ = update(t, m, key("o"))
	m, _ = update(t, m, key("q"))
	if m, cmd = update(t, m, key("l")); cmd != nil || !m.quitting || m.loadGen != 0 || m.status != quitWaits+"; no load meanwhile" {
		t.Errorf("l on the load screen while quitting: command %v, quitting %v, load generation %d, status %q", cmd != nil, m.quitting, m.loadGen, m.status)
	}
}

// TestQuitRefusesWrites: while a quit waits for a write, s (the best
// cascade, or in the compare view the kept ones) and e start no write of
// their own: they are refused as the other work-starting keys are, the
// quit's message kept with what was refused, and the quit ends with the
// write it waited for. They started new writes, and the quit waited for
// those too.
func TestQuitRefusesWrites(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, first := range []string{"s", "e"} {
		m := ready(t)
		defer m.cancel()
		m, _ = update(t, m, key("k")) // a kept cascade for s in the compare view
		if len(m.kept) != 1 {
			t.Fatalf("k kept %d cascades: %q", len(m.kept), m.status)
		}
		m, write := update(t, m, key(first))
		m, _ = update(t, m, key("q"))
		pending, exporting := m.pendingWrites, m.exporting
		for _, k := range []string{"s", "e", "c", "s", "c"} {
			var cmd tea.Cmd
			m, cmd = update(t, m, key(k))
			if k == "c" {
				continue // shows or hides the compare view: no work
			}
			want := quitWaits + "; " + quitRefuses(k).long
			if cmd != nil || m.pendingWrites != pending || m.exporting != exporting || m.status != want {
				t.Errorf("%s, q, then %q (compare view %v): command %v, pending writes %d (were %d), exporting %v (was %v), status %q (want %q)",
					first, k, m.compare, cmd != nil, m.pendingWrites, pending, m.exporting, exporting, m.status, want)
			}
		}
		if _, err := os.Stat(keptPath(1)); err == nil {
			t.Errorf("%s, q, then s in the compare view wrote %s", first, keptPath(1))
		}
		if m, cmd := update(t, m, write()); cmd == nil || cmd() != tea.Quit() {
			t.Errorf("%s, q: the write reported, command %v, quitting %v, pending writes %d; want quit", first, cmd != nil, m.quitting, m.pendingWrites)
		}
	}
}

// TestQuitHoldsFinishedWork: while a quit waits for a write, the end of
// work begun before q starts no more: a rebuilt problem (a threshold, ω⁺
// or targets edit) no run, a trained ensemble no rebuild, a background
// load no new session. They started the optimisation, the problem's
// build or the new data's training beside the write; they are held, and
// taken once the write fails and the workbench stays open.
func TestQuitHoldsFinishedWork(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, f := range []string{curvesCSV, curvesSVG, frontCSV, savePath} {
		os.Mkdir(f, 0o755) // each write fails
	}
	// The problem rebuilt for ω⁺ 2, an export, q.
	m := ready(t)
	defer m.cancel()
	m = enterParam(t, m, parPosWeight, "2")
	m, cmd := update(t, m, debounceMsg{edit: m.edits})
	built := preparedOf(t, cmd)
	m, export := update(t, m, key("e"))
	m, _ = update(t, m, key("q"))
	runs, gen := m.runs, m.gen
	if m, cmd = update(t, m, built); cmd != nil || m.runs != runs || m.gen != gen || m.phase != phasePreparing || m.status != quitWaits {
		t.Errorf("the problem built while quitting: command %v, runs %d (were %d), generation %d (was %d), phase %d, status %q",
			cmd != nil, m.runs, runs, m.gen, gen, m.phase, m.status)
	}
	m, cmd = update(t, m, export())
	if cmd == nil || m.quitting || m.runs != runs+1 || m.phase != phaseReady || m.w.tg.PosWeight != 2 ||
		!strings.HasPrefix(m.status, "export: ") || !strings.Contains(m.status, "(not quitting: q quits)") {
		t.Errorf("the export failed: command %v, quitting %v, runs %d (were %d), phase %d, ω⁺ %g, status %q",
			cmd != nil, m.quitting, m.runs, runs, m.phase, m.w.tg.PosWeight, m.status)
	}

	// A save, a retrain (trees 10), q: the training's end builds no problem.
	m = ready(t)
	defer m.cancel()
	m, save := update(t, m, key("s"))
	m = enterParam(t, m, parTrees, "10")
	m, cmd = update(t, m, debounceMsg{edit: m.edits})
	m, _ = update(t, m, key("q"))
	gen = m.gen
	for cmd != nil {
		msg := cmd()
		m, cmd = update(t, m, msg)
		if tm, ok := msg.(trainMsg); ok && tm.ev.Final {
			break
		}
	}
	if cmd != nil || m.phase != phaseTraining || m.gen != gen || m.w.e != nil || m.status != quitWaits {
		t.Errorf("the training ended while quitting: command %v, phase %d, generation %d (was %d), ensemble %v, status %q",
			cmd != nil, m.phase, m.gen, gen, m.w.e != nil, m.status)
	}
	m, cmd = update(t, m, save())
	if cmd == nil || m.quitting || m.phase != phasePreparing {
		t.Fatalf("the save failed: command %v, quitting %v, phase %d, status %q", cmd != nil, m.quitting, m.phase, m.status)
	}
	if built := preparedOf(t, cmd); built.w.e == nil || len(built.w.e.Trees) != 10 {
		t.Errorf("the problem built after the failed save is not of the 10 trees trained")
	}

	// A save, a load of other data in the background, q: the load's end
	// replaces no session.
	m = ready(t)
	defer m.cancel()
	m, save = update(t, m, key("s"))
	m, _ = update(t, m, key("o"))
	m, load := update(t, m, key("l"))
	m, _ = update(t, m, key("q"))
	w, gen := m.w, m.gen
	if m, cmd = update(t, m, load()); cmd != nil || m.w != w || m.gen != gen || m.status != quitWaits {
		t.Errorf("the load ended while quitting: command %v, session replaced %v, generation %d (was %d), status %q",
			cmd != nil, m.w != w, m.gen, gen, m.status)
	}
	m, cmd = update(t, m, save())
	if cmd == nil || m.quitting || m.w == w || m.gen == gen || !strings.Contains(m.status, "(not quitting: q quits)") {
		t.Errorf("the save failed: command %v, quitting %v, session replaced %v, generation %d (was %d), status %q", cmd != nil, m.quitting, m.w != w, m.gen, gen, m.status)
	}
}

// preparedOf runs cmd, a batch or not, for the cascade problem it builds.
func preparedOf(t *testing.T, cmd tea.Cmd) preparedMsg {
	t.Helper()
	switch msg := cmd().(type) {
	case preparedMsg:
		return msg
	case tea.BatchMsg:
		for _, c := range msg {
			if c == nil {
				continue
			}
			if p, ok := c().(preparedMsg); ok {
				return p
			}
		}
	}
	t.Fatal("no cascade problem built")
	return preparedMsg{}
}

// TestQuitHoldsRestartStart: a restart (r) waits for the run it cancels
// before it starts the next; a quit waiting for a write comes between,
// and the next run started (its Algorithm 2 unheld by the paused gate)
// beside the write. It waits to start, and starts once the write fails.
func TestQuitHoldsRestartStart(t *testing.T) {
	t.Chdir(t.TempDir())
	os.Mkdir(savePath, 0o755) // the save fails
	m := ready(t)
	defer m.cancel()
	m, save := update(t, m, key("s"))
	m, restart := update(t, m, key("r"))
	m, _ = update(t, m, key("q"))
	started := make(chan tea.Msg, 1)
	go func() { started <- restart() }()
	for m.gate.holdingRuns() == 0 {
		select {
		case <-started:
			t.Fatal("the restart's run started while the quit waited for the save")
		default:
			runtime.Gosched()
		}
	}
	m, _ = update(t, m, save())
	if m.quitting {
		t.Fatalf("still quitting after the save failed: %q", m.status)
	}
	msg, ok := (<-started).(optStartedMsg)
	if !ok || msg.gen != m.gen {
		t.Fatalf("the restart gave %T of generation %d, want its run (generation %d)", msg, msg.gen, m.gen)
	}
	m, cmd := update(t, m, msg)
	if m.run != msg.run || cmd == nil {
		t.Errorf("the restarted run is not the workbench's: %v, command %v", m.run == msg.run, cmd != nil)
	}
}

// TestQuitStatusNarrow: the quit's message, alone or with what it refused,
// has a short form (statusShort): at 60 columns what was refused was cut
// off, "…(q again: no…"; at 40 the message itself, "quitting once the
// file being w…". Wide enough, the whole message stays.
func TestQuitStatusNarrow(t *testing.T) {
	t.Chdir(t.TempDir())
	m := ready(t)
	defer m.cancel()
	m, _ = update(t, m, key("s"))
	m, _ = update(t, m, key("q"))
	check := func(what, long, short string) {
		t.Helper()
		if got := m.statusLine(200); !strings.HasPrefix(got, long) {
			t.Errorf("%s at 200 columns: %q, want %q first", what, got, long)
		}
		for _, w := range []int{60, 40} {
			got := m.statusLine(w)
			if lipgloss.Width(got) > w || strings.Contains(got, "…") || !strings.HasPrefix(got, short) && !strings.HasPrefix(got, long) {
				t.Errorf("%s at %d columns: %q, want %q whole", what, w, got, short)
			}
		}
	}
	check("q", quitWaits, quitWaitsShort)
	for _, k := range []string{"right", " ", "r", "w", "o", "s", "e"} {
		m, _ = update(t, m, key(k))
		check(k, quitWaits+"; "+quitRefuses(k).long, quitWaitsShort+"; "+quitRefuses(k).short)
	}
}

// TestRestartOnceAfterRebuild: an edit of λ made while the cascade
// problem is rebuilt (an ω⁺ edit) is in the parameters the rebuild's end
// restarts with; its own tick, coming after, restarted the optimisation
// a second time, the first restart's run thrown away at once. So it did
// when a quit waiting for a write held both and a failed write replayed
// them in order (the rebuild's end, then the edit). One restart, with
// the edited λ, in both cases.
func TestRestartOnceAfterRebuild(t *testing.T) {
	t.Chdir(t.TempDir())
	os.Mkdir(savePath, 0o755) // the save fails
	for _, quit := range []bool{false, true} {
		m := ready(t)
		defer m.cancel()
		var save tea.Cmd
		if quit {
			m, save = update(t, m, key("s"))
		}
		m = enterParam(t, m, parPosWeight, "2")
		m, cmd := update(t, m, debounceMsg{edit: m.edits})
		built := preparedOf(t, cmd)
		m = enterParam(t, m, parLambda, "0.02") // while the problem is built
		lambda, tick := m.par.Lambda, debounceMsg{edit: m.edits}
		runs, gen := m.runs, m.gen
		if quit {
			m, _ = update(t, m, key("q"))
			m, _ = update(t, m, built) // held
			m, _ = update(t, m, tick)  // held
			if m.runs != runs || len(m.quitHeld) != 2 {
				t.Fatalf("quitting: runs %d (were %d), %d held", m.runs, runs, len(m.quitHeld))
			}
			m, _ = update(t, m, save())
			if m.quitting {
				t.Fatalf("still quitting after the save failed: %q", m.status)
			}
		} else {
			m, _ = update(t, m, built)
			m, _ = update(t, m, tick)
		}
		if m.runs != runs+1 || m.gen != gen+1 || m.runPar.Lambda != lambda || m.w.tg.PosWeight != 2 {
			t.Errorf("quit %v: the rebuild's end and the λ edit's tick started %d runs (generation %d → %d), want 1 with λ %g and ω⁺ 2 (λ %g, ω⁺ %g)",
				quit, m.runs-runs, gen, m.gen, lambda, m.runPar.Lambda, m.w.tg.PosWeight)
		}
	}
}
