package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/baseline"
)

// bestCronusRow is the cronus row of points on valid with the highest
// NDCG@10 among those costing at most budget per document (ties: the
// cheaper), worked out from the curve alone; ok is false when none costs
// that little.
func bestCronusRow(points []baseline.Point, budget float64) (best baseline.Point, ok bool) {
	for _, p := range points {
		if p.Method != "cronus" || p.Split != "valid" || p.Cost.Total > budget {
			continue
		}
		q, bq := p.Metrics["ndcg@10"], best.Metrics["ndcg@10"]
		if !ok || q > bq || q == bq && p.Cost.Total < best.Cost.Total {
			best, ok = p, true
		}
	}
	return best, ok
}

// rowAt is the row of method on split at λ lam.
func rowAt(t *testing.T, points []baseline.Point, method, split string, lam float64) baseline.Point {
	t.Helper()
	for _, p := range points {
		if p.Method == method && p.Split == split && p.Lambda == lam {
			return p
		}
	}
	t.Fatalf("no %s row on %s at λ %g", method, split, lam)
	return baseline.Point{}
}

// TestSweepCascadeOut: sweep --cascade-out writes the cascade of the
// cronus row with the best validation NDCG@10 (within --budget per
// document on validation, when given), and that file, scored by eval,
// gives the row's validation and test figures.
func TestSweepCascadeOut(t *testing.T) {
	if testing.Short() {
		t.Skip("trains and sweeps")
	}
	dir := t.TempDir()
	model := trainShallow(t, dir, 20)
	sweep := func(extra ...string) (curve, cascade, report string) {
		t.Helper()
		sub := t.TempDir()
		curve, cascade = filepath.Join(sub, "curve.csv"), filepath.Join(sub, "best.json")
		code, out, errOut := runCLI(t, append([]string{"sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "1", "--lambdas", "0.005:0.5:5",
			"--out", curve, "--cascade-out", cascade, "--json"}, extra...)...)
		if code != 0 {
			t.Fatalf("sweep %v: %s", extra, errOut)
		}
		return curve, cascade, out
	}
	check := func(name string, budget float64, curve, cascade, report string) {
		t.Helper()
		points, err := baseline.ReadCSV(curve)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := bestCronusRow(points, budget)
		if !ok {
			t.Fatalf("%s: no cronus row within %g", name, budget)
		}
		var r struct {
			Cascade struct {
				File   string
				Lambda float64
				Budget *float64
				Valid  struct{ Metrics map[string]float64 }
			}
		}
		if err := json.Unmarshal([]byte(report), &r); err != nil {
			t.Fatal(err)
		}
		if r.Cascade.File != cascade || r.Cascade.Lambda != want.Lambda {
			t.Errorf("%s: report's cascade %s at λ %g, want %s at λ %g (%s)", name, r.Cascade.File, r.Cascade.Lambda, cascade, want.Lambda, report)
		}
		if got := r.Cascade.Valid.Metrics["ndcg@10"]; got != want.Metrics["ndcg@10"] {
			t.Errorf("%s: report's validation ndcg@10 %v, the curve's %v", name, got, want.Metrics["ndcg@10"])
		}
		if (r.Cascade.Budget != nil) != !math.IsInf(budget, 1) || r.Cascade.Budget != nil && *r.Cascade.Budget != budget {
			t.Errorf("%s: report's budget %v, want %g", name, r.Cascade.Budget, budget)
		}
		// The file, scored on its own, is the row: validation and test.
		for _, split := range []string{"valid", "test"} {
			row := rowAt(t, points, "cronus", split, want.Lambda)
			data := map[string]string{"valid": "builtin:mq2008/vali", "test": "builtin:mq2008/test"}[split]
			code, out, errOut := runCLI(t, "eval", "--cascade", cascade, "--data", data, "--metrics", "ndcg@10", "--json")
			if code != 0 {
				t.Fatalf("%s: eval: %s", name, errOut)
			}
			var ev struct {
				Metrics map[string]float64
				Cost    struct{ Total float64 }
			}
			if err := json.Unmarshal([]byte(out), &ev); err != nil {
				t.Fatal(err)
			}
			if math.Abs(ev.Metrics["ndcg@10"]-row.Metrics["ndcg@10"]) > 1e-12 || math.Abs(ev.Cost.Total-row.Cost.Total) > 1e-9 {
				t.Errorf("%s: %s: the file scores ndcg@10 %v at %v, the curve's row %v at %v", name, split,
					ev.Metrics["ndcg@10"], ev.Cost.Total, row.Metrics["ndcg@10"], row.Cost.Total)
			}
		}
		var f struct{ Params map[string]any }
		if err := json.Unmarshal([]byte(readFile(t, cascade)), &f); err != nil {
			t.Fatal(err)
		}
		if f.Params["lambda"] != want.Lambda || f.Params["sweep"] != curve {
			t.Errorf("%s: the file's params λ %v, sweep %v; want %g, %s", name, f.Params["lambda"], f.Params["sweep"], want.Lambda, curve)
		}
	}

	curve, cascade, report := sweep()
	check("no budget", math.Inf(1), curve, cascade, report)
	points, err := baseline.ReadCSV(curve)
	if err != nil {
		t.Fatal(err)
	}
	best, _ := bestCronusRow(points, math.Inf(1))
	// A budget just under the best's cost leaves it out: another is chosen.
	var cheapest = math.Inf(1)
	for _, p := range points {
		if p.Method == "cronus" && p.Split == "valid" {
			cheapest = min(cheapest, p.Cost.Total)
		}
	}
	if !(cheapest < best.Cost.Total) {
		t.Fatalf("the best cascade on validation is the cheapest (%g): no budget between them to test", cheapest)
	}
	budget := math.Nextafter(best.Cost.Total, 0)
	b := strconv.FormatFloat(budget, 'g', -1, 64)
	curve, cascade, report = sweep("--budget", b)
	check("budget "+b, budget, curve, cascade, report)
	if want, _ := bestCronusRow(points, budget); want.Lambda == best.Lambda {
		t.Errorf("budget %s chose λ %g, the unlimited choice", b, want.Lambda)
	}

	// Under the cheapest: the curve and the per-query file are written,
	// the cascade is not, and the exit status and message say so.
	sub := t.TempDir()
	curve, cascade = filepath.Join(sub, "curve.csv"), filepath.Join(sub, "best.json")
	pq := filepath.Join(sub, "curve.queries.tsv")
	code, _, errOut := runCLI(t, "sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "1", "--lambdas", "0.005:0.5:5",
		"--out", curve, "--per-query", pq, "--cascade-out", cascade, "--budget", strconv.FormatFloat(cheapest/2, 'g', -1, 64))
	if code != 1 || !strings.Contains(errOut, "no cascade of the sweep costs at most") ||
		!strings.Contains(errOut, curve+", "+pq+" written, "+cascade+" not") {
		t.Errorf("a budget under every cascade: exit %d, %q", code, errOut)
	}
	for _, f := range []string{curve, pq} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
	if _, err := os.Stat(cascade); !os.IsNotExist(err) {
		t.Errorf("a cascade was written over budget (%v)", err)
	}

	// --budget alone is a usage error.
	if code, _, errOut := runCLI(t, "sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--out", filepath.Join(sub, "c2.csv"), "--budget", "100"); code != 2 || !strings.Contains(errOut, "--cascade-out") {
		t.Errorf("--budget without --cascade-out: exit %d, %q", code, errOut)
	}
}

// TestSweepCascadeOutFirstStages: with --first-stages, sweep --cascade-out
// also weighs each cascade's first k stages and writes the best on
// validation within the budget, cut or whole. The candidates are worked
// out apart: each λ's cascade rebuilt by cronus cascade (the same
// arguments give the sweep's row) and its cuts' figures from its --json.
func TestSweepCascadeOutFirstStages(t *testing.T) {
	if testing.Short() {
		t.Skip("trains and sweeps")
	}
	dir := t.TempDir()
	model := trainShallow(t, dir, 20)
	common := []string{"--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "1"}
	type cand struct {
		lam       float64
		k         int // 0: the whole cascade
		cost, q   float64
		testQ     float64
		testTotal float64
	}
	var cands []cand
	curve0 := filepath.Join(dir, "curve0.csv")
	if code, _, errOut := runCLI(t, append([]string{"sweep", "--lambdas", "0.005:0.5:5", "--out", curve0}, common...)...); code != 0 {
		t.Fatal(errOut)
	}
	points, err := baseline.ReadCSV(curve0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range points {
		if p.Method != "cronus" || p.Split != "valid" {
			continue
		}
		type figs struct {
			Metrics map[string]float64
			Cost    struct{ Total float64 }
		}
		var r struct {
			Valid, Test figs
			Stages      []struct {
				FirstStages map[string]figs `json:"first_stages"`
			}
		}
		lam := strconv.FormatFloat(p.Lambda, 'g', -1, 64)
		runJSON(t, &r, append([]string{"cascade", "--lambda", lam, "--out", filepath.Join(dir, "c"+lam+".json"), "--json"}, common...)...)
		if r.Valid.Metrics["ndcg@10"] != p.Metrics["ndcg@10"] || r.Valid.Cost.Total != p.Cost.Total {
			t.Fatalf("cascade --lambda %s: valid %v at %v; the sweep's row %v at %v", lam, r.Valid.Metrics, r.Valid.Cost.Total, p.Metrics, p.Cost.Total)
		}
		for k, st := range r.Stages {
			v, te := st.FirstStages["valid"], st.FirstStages["test"]
			c := cand{p.Lambda, k + 1, v.Cost.Total, v.Metrics["ndcg@10"], te.Metrics["ndcg@10"], te.Cost.Total}
			if k == len(r.Stages)-1 {
				c.k = 0
			}
			cands = append(cands, c)
		}
	}
	best := func(budget float64) (b cand, ok bool) {
		for _, c := range cands {
			if c.cost <= budget && (!ok || c.q > b.q || c.q == b.q && c.cost < b.cost) {
				b, ok = c, true
			}
		}
		return b, ok
	}
	// The budgets: no limit, and each cut's cost where it is the one
	// best choice (a cut that ties another candidate, as a first stage
	// that is the whole cascade of a large λ, may lose the tie to it).
	budgets := []float64{math.Inf(1)}
	for _, c := range cands {
		if b, _ := best(c.cost); c.k > 0 && b == c {
			tie := 0
			for _, o := range cands {
				if o.q == c.q && o.cost == c.cost {
					tie++
				}
			}
			if tie == 1 {
				budgets = append(budgets, c.cost)
			}
		}
	}
	if len(budgets) == 1 {
		t.Fatal("no cut is ever the best within its own cost: the test proves nothing")
	}
	for _, budget := range budgets {
		want, _ := best(budget)
		b := strconv.FormatFloat(budget, 'g', -1, 64)
		out := filepath.Join(dir, "best.json")
		var r struct {
			Cascade struct {
				Lambda        float64
				Stages        int
				FirstStagesOf int `json:"first_stages_of"`
				Valid, Test   struct {
					Metrics map[string]float64
					Cost    struct{ Total float64 }
				}
			}
		}
		runJSON(t, &r, append([]string{"sweep", "--lambdas", "0.005:0.5:5", "--out", filepath.Join(dir, "curve.csv"),
			"--cascade-out", out, "--budget", b, "--first-stages", "--json"}, common...)...)
		c := r.Cascade
		if c.Valid.Metrics["ndcg@10"] != want.q || c.Valid.Cost.Total != want.cost || c.Test.Metrics["ndcg@10"] != want.testQ {
			t.Errorf("budget %s: chose valid %v at %v (λ %g, stages %d of %d); want %+v", b, c.Valid.Metrics["ndcg@10"], c.Valid.Cost.Total, c.Lambda, c.Stages, c.FirstStagesOf, want)
		}
		if want.k > 0 && (c.Lambda != want.lam || c.Stages != want.k || c.FirstStagesOf != 3) {
			t.Errorf("budget %s: report says stages %d of %d; want %+v", b, c.Stages, c.FirstStagesOf, want)
		}
		// The file written is the cut: eval gives its figures.
		var ev struct {
			Metrics map[string]float64
			Cost    struct{ Total float64 }
			Reached []float64
		}
		runJSON(t, &ev, "eval", "--cascade", out, "--data", "builtin:mq2008/test", "--metrics", "ndcg@10", "--json")
		if ev.Metrics["ndcg@10"] != want.testQ || math.Abs(ev.Cost.Total-want.testTotal) > 1e-9 || want.k > 0 && len(ev.Reached) != want.k {
			t.Errorf("budget %s: the file scores test %v at %v over %d stages; want %+v", b, ev.Metrics["ndcg@10"], ev.Cost.Total, len(ev.Reached), want)
		}
	}
	if code, _, errOut := runCLI(t, append([]string{"sweep", "--lambdas", "0.005:0.5:5", "--out", filepath.Join(dir, "c3.csv"), "--first-stages"}, common...)...); code != 2 ||
		!strings.Contains(errOut, "--first-stages weighs the cuts of the cascades for the one --cascade-out FILE writes") {
		t.Errorf("--first-stages without --cascade-out: exit %d, %q", code, errOut)
	}
}
