package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/baseline"
)

// Tests written by a mutation audit of the command-line code: each pins a
// behaviour a user sees that no other test held.

// cliAuditData writes a tiny three-feature training and validation set
// (labels 0-2, feature 1 the label plus noise, features 2 and 3 noise),
// costs 1, 5 and 20, and a model of ten depth-2 trees on it, into dir.
// Its sweeps take a fraction of a second.
func cliAuditData(t *testing.T, dir string) (model, train, valid, costs string) {
	t.Helper()
	train, valid, costs = filepath.Join(dir, "t.txt"), filepath.Join(dir, "v.txt"), filepath.Join(dir, "costs.txt")
	writeText(t, train, cliAuditQueries(30, 1))
	writeText(t, valid, cliAuditQueries(20, 2))
	writeText(t, costs, "1\n5\n20\n")
	model = filepath.Join(dir, "m.json")
	mustRun(t, "train", "--train", train, "--trees", "10", "--max-depth", "2", "--leaves", "4", "--min-docs", "1", "--out", model)
	return model, train, valid, costs
}

// cliAuditQueries is nq queries of six documents over cliAuditData's three
// features, drawn from seed.
func cliAuditQueries(nq int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for q := 1; q <= nq; q++ {
		for range 6 {
			label := []int{0, 0, 1, 2}[r.Intn(4)]
			fmt.Fprintf(&b, "%d qid:%d 1:%.3f 2:%.3f 3:%.3f\n", label, q, float64(label*10)+r.Float64(), r.Float64(), r.Float64())
		}
	}
	return b.String()
}

// cliAuditCand is a candidate of sweep --cascade-out --first-stages: the
// cascade of λ lam, or its first k stages (k 0: the whole cascade), with
// its validation cost and NDCG@10.
type cliAuditCand struct {
	lam     float64
	k       int
	cost, q float64
}

// cliAuditCands rebuilds every cronus row of the curve with cronus
// cascade (the same arguments give the sweep's row) and returns the
// candidates in the order the sweep weighs them: per λ the whole cascade,
// then its cuts k = 1 … K−1, their figures from cascade --json.
func cliAuditCands(t *testing.T, dir string, points []baseline.Point, common []string) []cliAuditCand {
	t.Helper()
	type figs struct {
		Metrics map[string]float64
		Cost    struct{ Total float64 }
	}
	var cands []cliAuditCand
	for _, p := range points {
		if p.Method != "cronus" || p.Split != "valid" {
			continue
		}
		var r struct {
			Valid  figs
			Stages []struct {
				FirstStages map[string]figs `json:"first_stages"`
			}
		}
		lam := strconv.FormatFloat(p.Lambda, 'g', -1, 64)
		runJSON(t, &r, append([]string{"cascade", "--lambda", lam, "--out", filepath.Join(dir, "c"+lam+".json"), "--json"}, common...)...)
		if r.Valid.Metrics["ndcg@10"] != p.Metrics["ndcg@10"] || r.Valid.Cost.Total != p.Cost.Total {
			t.Fatalf("cascade --lambda %s: valid %v at %v; the sweep's row %v at %v", lam, r.Valid.Metrics, r.Valid.Cost.Total, p.Metrics, p.Cost.Total)
		}
		cands = append(cands, cliAuditCand{p.Lambda, 0, p.Cost.Total, p.Metrics["ndcg@10"]})
		for k, st := range r.Stages[:len(r.Stages)-1] {
			v := st.FirstStages["valid"]
			cands = append(cands, cliAuditCand{p.Lambda, k + 1, v.Cost.Total, v.Metrics["ndcg@10"]})
		}
	}
	return cands
}

// TestCLISweepCascadeOutTieCheaper: of the cascades with the best
// validation NDCG@10, sweep --cascade-out writes the cheapest (its help:
// "ties: the cheaper"), not a dearer one tied with it, nor the last swept.
func TestCLISweepCascadeOutTieCheaper(t *testing.T) {
	dir := t.TempDir()
	model, train, valid, costs := cliAuditData(t, dir)
	curve, out := filepath.Join(dir, "curve.csv"), filepath.Join(dir, "best.json")
	var r struct {
		Cascade struct {
			Lambda float64
			Valid  struct {
				Metrics map[string]float64
				Cost    struct{ Total float64 }
			}
		}
	}
	runJSON(t, &r, "sweep", "--model", model, "--train", train, "--valid", valid, "--costs", costs, "--stages", "3", "--cycles", "1",
		"--lambdas", "0.005:0.5:5", "--out", curve, "--cascade-out", out, "--json")
	points, err := baseline.ReadCSV(curve)
	if err != nil {
		t.Fatal(err)
	}
	want, ok := bestCronusRow(points, math.Inf(1))
	if !ok {
		t.Fatal("no cronus row on valid")
	}
	dearer := false
	for _, p := range points {
		if p.Method == "cronus" && p.Split == "valid" && p.Metrics["ndcg@10"] == want.Metrics["ndcg@10"] && p.Cost.Total > want.Cost.Total {
			dearer = true
		}
	}
	if !dearer {
		t.Fatalf("no dearer cascade ties the best on validation NDCG@10: the test proves nothing (%+v)", points)
	}
	c := r.Cascade
	if c.Valid.Metrics["ndcg@10"] != want.Metrics["ndcg@10"] || c.Valid.Cost.Total != want.Cost.Total {
		t.Errorf("wrote λ %g: ndcg@10 %v at cost %v; the cheapest of the best is ndcg@10 %v at %v (λ %g)",
			c.Lambda, c.Valid.Metrics["ndcg@10"], c.Valid.Cost.Total, want.Metrics["ndcg@10"], want.Cost.Total, want.Lambda)
	}
}

// cliAuditSweep sweeps cliAuditData's set over five values of λ (3
// stages, one cycle) and returns the arguments every run shares and each
// λ's candidates (cliAuditCands).
func cliAuditSweep(t *testing.T, dir string) (common []string, cands []cliAuditCand) {
	t.Helper()
	model, train, valid, costs := cliAuditData(t, dir)
	common = []string{"--model", model, "--train", train, "--valid", valid, "--costs", costs, "--stages", "3", "--cycles", "1"}
	curve := filepath.Join(dir, "curve.csv")
	mustRun(t, append([]string{"sweep", "--lambdas", "0.005:0.5:5", "--out", curve}, common...)...)
	points, err := baseline.ReadCSV(curve)
	if err != nil {
		t.Fatal(err)
	}
	return common, cliAuditCands(t, dir, points, common)
}

// TestCLISweepBudgetMissNamesCheapest: when no cascade (nor cut,
// with --first-stages) is within --budget, the error names the cheapest
// candidate, a cut as "the first k of K stages of λ …", and its cost.
func TestCLISweepBudgetMissNamesCheapest(t *testing.T) {
	dir := t.TempDir()
	common, cands := cliAuditSweep(t, dir)
	for _, firstStages := range []bool{false, true} {
		var cheapest *cliAuditCand
		for i := range cands {
			c := &cands[i]
			if c.k > 0 && !firstStages {
				continue
			}
			if cheapest == nil || c.cost < cheapest.cost {
				cheapest = c
			}
		}
		if firstStages && cheapest.k == 0 {
			t.Fatalf("the cheapest candidate is a whole cascade: the test proves nothing (%+v)", cands)
		}
		args := append([]string{"sweep", "--lambdas", "0.005:0.5:5", "--out", filepath.Join(dir, "c2.csv"), "--cascade-out", filepath.Join(dir, "b.json"),
			"--budget", strconv.FormatFloat(cheapest.cost/2, 'g', -1, 64)}, common...)
		if firstStages {
			args = append(args, "--first-stages")
		}
		code, _, errOut := runCLI(t, args...)
		what := fmt.Sprintf("λ %.4g × λ_max", cheapest.lam)
		if cheapest.k > 0 {
			what = fmt.Sprintf("the first %d of 3 stages of %s", cheapest.k, what) // --stages 3
		}
		wantMsg := fmt.Sprintf("(the cheapest, %s, costs %.1f)", what, cheapest.cost)
		if code != 1 || !strings.Contains(errOut, wantMsg) {
			t.Errorf("--first-stages %t, budget under every candidate: exit %d, %q; want exit 1 and %q", firstStages, code, errOut, wantMsg)
		}
	}
}

// TestCLISweepFirstStagesWrote: a cut chosen by sweep --cascade-out
// --first-stages is said as "the first k of K stages" (K the --stages
// given), under the --budget given (not the cascade's cost), and the file
// records that budget, which inspect shows.
func TestCLISweepFirstStagesWrote(t *testing.T) {
	dir := t.TempDir()
	common, cands := cliAuditSweep(t, dir)
	best := func(budget float64) (b cliAuditCand, ok bool) {
		for _, c := range cands {
			if c.cost <= budget && (!ok || c.q > b.q || c.q == b.q && c.cost < b.cost) {
				b, ok = c, true
			}
		}
		return b, ok
	}
	// A budget strictly between a cut's cost and the next dearer
	// candidate's, where that cut is the one best choice.
	var cut cliAuditCand
	var budget float64
	found := false
	for _, c := range cands {
		if c.k == 0 {
			continue
		}
		next := math.Inf(1)
		for _, o := range cands {
			if o.cost > c.cost {
				next = min(next, o.cost)
			}
		}
		if math.IsInf(next, 1) {
			next = c.cost + 2
		}
		b := (c.cost + next) / 2
		if w, _ := best(b); w == c {
			tie := 0
			for _, o := range cands {
				if o.q == c.q && o.cost == c.cost {
					tie++
				}
			}
			if tie == 1 {
				cut, budget, found = c, b, true
				break
			}
		}
	}
	if !found {
		t.Fatalf("no cut is the one best choice within a budget above its cost: the test proves nothing (%+v)", cands)
	}
	out := filepath.Join(dir, "best.json")
	b := strconv.FormatFloat(budget, 'g', -1, 64)
	stdout := mustRun(t, append([]string{"sweep", "--lambdas", "0.005:0.5:5", "--out", filepath.Join(dir, "c2.csv"), "--cascade-out", out,
		"--budget", b, "--first-stages"}, common...)...)
	want := fmt.Sprintf("wrote %s: the first %d of 3 stages of the cascade of λ %.4g × λ_max, the best on validation ndcg@10 of those costing at most %s per document\n",
		out, cut.k, cut.lam, b)
	if !strings.Contains(stdout, want) {
		t.Errorf("sweep's report:\n%s\nwant the line %q", stdout, want)
	}
	var f struct{ Params map[string]any }
	if err := json.Unmarshal([]byte(readFile(t, out)), &f); err != nil {
		t.Fatal(err)
	}
	if f.Params["budget"] != budget {
		t.Errorf("the file's params.budget %v, want %v", f.Params["budget"], budget)
	}
	if ins := mustRun(t, "inspect", out); !strings.Contains(ins, "costing at most "+b+" per document") || !strings.Contains(ins, "cut from a cascade of 3 stages") {
		t.Errorf("inspect does not say the budget %s and the cut of 3 stages:\n%s", b, ins)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}

// TestCLISweepBudgetFlag: --budget takes any cost from 0 up (a
// fraction of a feature's cost too), and wants --cascade-out, whatever
// other outputs are given.
func TestCLISweepBudgetFlag(t *testing.T) {
	dir := t.TempDir()
	base := []string{"sweep", "--model", filepath.Join(dir, "m.json"), "--train", filepath.Join(dir, "t.txt"), "--valid", filepath.Join(dir, "v.txt"), "--costs", filepath.Join(dir, "c.txt"), "--out", filepath.Join(dir, "c.csv")}
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--budget", "-1", "--cascade-out", filepath.Join(dir, "b.json")}, "--budget: must be at least 0, got -1"},
		{[]string{"--budget", "0.5", "--plot", filepath.Join(dir, "p.svg")}, "--budget chooses the cascade --cascade-out FILE writes"},
		{[]string{"--budget", "0.5", "--per-query", filepath.Join(dir, "q.tsv")}, "--budget chooses the cascade --cascade-out FILE writes"},
	} {
		code, _, errOut := runCLI(t, append(base, tc.extra...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.extra, code, errOut, tc.want)
		}
	}
	// 0.5 is in range: the command goes on to read the model.
	code, _, errOut := runCLI(t, append(base, "--budget", "0.5", "--cascade-out", filepath.Join(dir, "b.json"))...)
	if code != 1 || strings.Contains(errOut, "--budget") {
		t.Errorf("--budget 0.5: exit %d, %q; want the missing model's error", code, errOut)
	}
}

// TestCLIEvalStagesOnlyWithCascade: eval --stages cuts a cascade;
// with --scores or --model it is refused, not ignored.
func TestCLIEvalStagesOnlyWithCascade(t *testing.T) {
	dir := t.TempDir()
	for _, src := range [][]string{{"--scores", filepath.Join(dir, "s.txt")}, {"--model", filepath.Join(dir, "m.json")}} {
		args := append([]string{"eval", "--data", filepath.Join(dir, "d.txt"), "--stages", "2"}, src...)
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "--stages applies to --cascade only") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// TestCLIPredictFlagChecks: a --stages too large for an integer is
// refused with the flag's range (from 0), and with the scores on standard output (--out -, or no --out) no other output
// may go there too.
func TestCLIPredictFlagChecks(t *testing.T) {
	dir := t.TempDir()
	c, d := filepath.Join(dir, "c.json"), filepath.Join(dir, "d.txt")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cascade", c, "--stages", "99999999999999999999"}, "--stages: must be an integer from 0 to"},
		{[]string{"--model", c, "--out", "-", "--leaves", "/dev/stdout"}, "--leaves /dev/stdout: the scores go to standard output"},
		{[]string{"--cascade", c, "--out", "-", "--exits", "/dev/stdout"}, "--exits /dev/stdout: the scores go to standard output"},
		{[]string{"--cascade", c, "--exits", "/dev/stdout"}, "--exits /dev/stdout: the scores go to standard output"},
	} {
		args := append([]string{"predict", "--data", d}, tc.args...)
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestCLIExportTreesZero: export --trees 0 is refused whatever the
// format: the model would hold only its base score.
func TestCLIExportTreesZero(t *testing.T) {
	dir := t.TempDir()
	for _, to := range exportFormats {
		args := []string{"export", "--model", filepath.Join(dir, "m.json"), "--trees", "0", "--to", to, "--out", filepath.Join(dir, "out")}
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "--trees 0: no trees to export") {
			t.Errorf("--to %s --trees 0: exit %d, %q", to, code, errOut)
		}
	}
}

// TestCLIExportReport: export --json says model_trees, the model's
// number of trees, only when --trees exports fewer of them; --header is
// for --to c only.
func TestCLIExportReport(t *testing.T) {
	dir := t.TempDir()
	model, _, _, _ := cliAuditData(t, dir) // ten trees
	for _, tc := range []struct {
		trees []string
		want  any
	}{{nil, nil}, {[]string{"--trees", "10"}, nil}, {[]string{"--trees", "3"}, 10.0}} {
		var r map[string]any
		runJSON(t, &r, append([]string{"export", "--model", model, "--to", "xgboost", "--out", filepath.Join(dir, "x.json"), "--json"}, tc.trees...)...)
		if got, ok := r["model_trees"]; got != tc.want || ok != (tc.want != nil) {
			t.Errorf("export %v: model_trees %v, want %v", tc.trees, got, tc.want)
		}
	}
	for _, to := range []string{"xgboost", "ranklib"} {
		args := []string{"export", "--model", model, "--to", to, "--out", filepath.Join(dir, "x"), "--header", filepath.Join(dir, "x.h")}
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "--header applies to --to c only") {
			t.Errorf("--to %s --header: exit %d, %q", to, code, errOut)
		}
	}
}

// TestCLIDidYouMean: an unknown flag of up to four letters is
// matched one edit away, not two, and more than three equally near
// flags suggest none.
func TestCLIDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"daxx", []string{"data", "json"}, ""},
		{"dat", []string{"data", "json"}, " (did you mean --data?)"},
		{"datxx", []string{"data", "json"}, " (did you mean --data?)"},
		{"trees", []string{"treea", "treeb", "treec"}, " (did you mean --treea, --treeb or --treec?)"},
		{"trees", []string{"treea", "treeb", "treec", "treed"}, ""},
	} {
		if got := didYouMean("--", tc.name, tc.candidates); got != tc.want {
			t.Errorf("didYouMean(%q, %v) = %q, want %q", tc.name, tc.candidates, got, tc.want)
		}
	}
	// Through the command line: eval has --data and no flag two edits
	// from "daxx" but for it.
	if code, _, errOut := runCLI(t, "eval", "--daxx", "x"); code != 2 || !strings.Contains(errOut, "unknown flag --daxx\n") {
		t.Errorf("eval --daxx: exit %d, %q", code, errOut)
	}
}

// TestCLIInspectRule: inspect says a cascade's exit rule as it is,
// "top-m 5" with its m, and "global" with none.
func TestCLIInspectRule(t *testing.T) {
	dir := t.TempDir()
	model, train, valid, costs := cliAuditData(t, dir)
	for _, tc := range []struct {
		rule []string
		want string
	}{{nil, ", rule top-m 5, σ"}, {[]string{"--rule", "global"}, ", rule global, σ"}} {
		out := filepath.Join(dir, "c.json")
		mustRun(t, append([]string{"cascade", "--model", model, "--train", train, "--valid", valid, "--costs", costs,
			"--stages", "2", "--cycles", "0", "--lambda", "0.05", "--out", out}, tc.rule...)...)
		if got := mustRun(t, "inspect", out); !strings.Contains(got, tc.want) {
			t.Errorf("%v: inspect says\n%s\nwant %q", tc.rule, got, tc.want)
		}
	}
}

// TestCLISweepCascadeOutLines: sweep --cascade-out's report gives
// the chosen cascade's validation and test figures, each its own split's,
// as the curve's rows of its λ have them.
func TestCLISweepCascadeOutLines(t *testing.T) {
	dir := t.TempDir()
	model, train, valid, costs := cliAuditData(t, dir)
	test := filepath.Join(dir, "test.txt")
	writeText(t, test, cliAuditQueries(20, 3))
	curve, out := filepath.Join(dir, "curve.csv"), filepath.Join(dir, "best.json")
	stdout := mustRun(t, "sweep", "--model", model, "--train", train, "--valid", valid, "--test", test, "--costs", costs, "--stages", "3",
		"--cycles", "1", "--lambdas", "0.005:0.5:5", "--out", curve, "--cascade-out", out)
	points, err := baseline.ReadCSV(curve)
	if err != nil {
		t.Fatal(err)
	}
	best, ok := bestCronusRow(points, math.Inf(1))
	if !ok {
		t.Fatal("no cronus row on valid")
	}
	tr := rowAt(t, points, "cronus", "test", best.Lambda)
	if fmt.Sprintf("%.4f %.1f", best.Metrics["ndcg@10"], best.Cost.Total) == fmt.Sprintf("%.4f %.1f", tr.Metrics["ndcg@10"], tr.Cost.Total) {
		t.Fatal("the chosen cascade scores alike on valid and test: the test proves nothing")
	}
	for _, p := range []baseline.Point{best, tr} {
		want := fmt.Sprintf("\n  %-5s ndcg@10 %.4f  cost/doc %.1f\n", p.Split, p.Metrics["ndcg@10"], p.Cost.Total)
		if !strings.Contains(stdout, want) {
			t.Errorf("sweep's report:\n%s\nwant the line %q", stdout, want)
		}
	}
}

// TestCLITrainFlagConflicts: --early-stop from 1 up needs --valid.
func TestCLITrainFlagConflicts(t *testing.T) {
	dir := t.TempDir()
	base := []string{"train", "--train", filepath.Join(dir, "t.txt"), "--out", filepath.Join(dir, "m.json")}
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--early-stop", "1"}, "--early-stop 1 needs --valid FILE"},
	} {
		if code, _, errOut := runCLI(t, append(base, tc.extra...)...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.extra, code, errOut, tc.want)
		}
	}
}

// TestCLIEvalReport: eval's report says the default costs of every
// feature 1 for a model, not for a cascade, whose file has its own.
func TestCLIEvalReport(t *testing.T) {
	dir := t.TempDir()
	model, train, valid, costs := cliAuditData(t, dir)
	const said = "every feature costs 1 without --costs"
	if out := mustRun(t, "eval", "--model", model, "--data", valid); !strings.Contains(out, said) {
		t.Errorf("eval --model without --costs does not say %q:\n%s", said, out)
	}
	c := filepath.Join(dir, "c.json")
	mustRun(t, "cascade", "--model", model, "--train", train, "--valid", valid, "--costs", costs, "--stages", "2", "--cycles", "0", "--lambda", "0.05", "--out", c)
	if out := mustRun(t, "eval", "--cascade", c, "--data", valid); strings.Contains(out, said) || !strings.Contains(out, "cost/doc") {
		t.Errorf("eval --cascade without --costs (the cascade's own costs):\n%s", out)
	}
}

// TestCLIInterruptedWhilePrinting: a command that finished its work
// and was interrupted while printing its report exits 130, as an
// interrupted command does, saying so.
func TestCLIInterruptedWhilePrinting(t *testing.T) {
	dir := t.TempDir()
	model, _, valid, _ := cliAuditData(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errOut strings.Builder
	// The first write of the report is taken, and the interrupt comes
	// with it: the next writes are stopped.
	w := writerFunc(func(p []byte) (int, error) { cancel(); return len(p), nil })
	if code := run(ctx, []string{"eval", "--model", model, "--data", valid}, w, &errOut); code != 130 || !strings.Contains(errOut.String(), "cronus eval: interrupted\n") {
		t.Errorf("exit %d, %q; want 130 and the interrupt", code, errOut.String())
	}
}

// TestCLICount: counts are said with the noun's plural but for one.
func TestCLICount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{{0, "tree", "0 trees"}, {1, "tree", "1 tree"}, {2, "tree", "2 trees"}, {0, "query", "0 queries"}, {1, "query", "1 query"}} {
		if got := count(tc.n, tc.noun); got != tc.want {
			t.Errorf("count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

// TestCLIExportCFirstStage: export --to c --stages 1 compiles the
// cascade's first stage alone, as predict --stages 1 runs it.
func TestCLIExportCFirstStage(t *testing.T) {
	dir := t.TempDir()
	model, train, valid, costs := cliAuditData(t, dir)
	c := filepath.Join(dir, "c.json")
	mustRun(t, "cascade", "--model", model, "--train", train, "--valid", valid, "--costs", costs, "--stages", "3", "--cycles", "0", "--lambda", "0.05", "--out", c)
	var r struct {
		Stages        int
		FirstStagesOf int `json:"first_stages_of"`
	}
	runJSON(t, &r, "export", "--cascade", c, "--to", "c", "--stages", "1", "--out", filepath.Join(dir, "c1.c"), "--json")
	if r.Stages != 1 || r.FirstStagesOf != 3 {
		t.Errorf("export --stages 1: stages %d of %d, want 1 of 3", r.Stages, r.FirstStagesOf)
	}
	if src := readFile(t, filepath.Join(dir, "c1.c")); !strings.Contains(src, "(its first 1 of 3 stages)") {
		t.Errorf("the C file does not say it is the first stage of 3:\n%.400s", src)
	}
}

// TestRangeLedger: a command that parses flags with ranges and never
// checks them is named by rangesOwed, which runCommand turns into a panic
// under test (predict and export once ran --stages -1 as all stages).
func TestRangeLedger(t *testing.T) {
	parse := func(args ...string) *flag.FlagSet {
		fs := flag.NewFlagSet("ledger-test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Int("stages", 0, "")
		fs.Int("trees", 0, "")
		if _, err := parseFlags(fs, args, atLeast("stages", 0), atLeast("trees", 1)); err != nil {
			t.Fatal(err)
		}
		return fs
	}
	parse("--stages", "-1", "--trees", "3")
	if got, want := rangesOwed("ledger-test"), []string{"--stages", "--trees"}; !slices.Equal(got, want) {
		t.Errorf("unchecked: owed %q, want %q", got, want)
	}
	if got := rangesOwed("ledger-test"); got != nil {
		t.Errorf("owed twice: %q", got)
	}
	fs := parse("--stages", "2", "--trees", "3")
	if err := checkRanges(fs, atLeast("trees", 1)); err != nil {
		t.Fatal(err)
	}
	if got, want := rangesOwed("ledger-test"), []string{"--stages"}; !slices.Equal(got, want) {
		t.Errorf("--trees checked: owed %q, want %q", got, want)
	}
	fs = parse("--stages", "-1")
	if err := checkRanges(fs, atLeast("stages", 0)); err == nil {
		t.Error("--stages -1 passed its range")
	}
	rangeChecked(fs, "trees") // not given: nothing to discharge
	if got := rangesOwed("ledger-test"); got != nil {
		t.Errorf("checked, even when refused: owed %q", got)
	}
	parse() // nothing given, nothing owed
	if got := rangesOwed("ledger-test"); got != nil {
		t.Errorf("no flags given: owed %q", got)
	}
}
