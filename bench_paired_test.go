package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/metric"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// pairedPoint is one curve row for the tests of bench/paired.py: its NDCG@10
// on each query of its split.
type pairedPoint struct {
	method, split, lambda string
	cost                  float64
	ndcg                  []float64
}

// writePairedSweep writes a curve (name.csv) and its per-query file
// (name.queries.tsv, as sweep --per-query writes it) of points to dir; the
// curve's NDCG@10 is the mean of the queries' (shift adds to it, to make
// the two disagree). It returns the curve's path.
func writePairedSweep(t *testing.T, dir, name string, points []pairedPoint, shift float64) string {
	t.Helper()
	var curve, q strings.Builder
	curve.WriteString(curveHead)
	q.WriteString("method\tsplit\tlambda\tqid\tp@5\tndcg@10\terr@3\n")
	for _, p := range points {
		fmt.Fprintf(&curve, "%s,%s,%s,%g,%g,0,0.3,%s,0.2\n", p.method, p.split, p.lambda, p.cost, p.cost,
			strconv.FormatFloat(stat.Mean(p.ndcg, nil)+shift, 'g', -1, 64))
		for i, v := range p.ndcg {
			fmt.Fprintf(&q, "%s\t%s\t%s\t%d\t0.2\t%s\t0.1\n", p.method, p.split, p.lambda, 100+i, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	path := filepath.Join(dir, name+".csv")
	writeText(t, path, curve.String())
	writeText(t, filepath.Join(dir, name+".queries.tsv"), q.String())
	return path
}

// pairedT is the mean of a−b, its standard error and the two-sided p of
// Student's paired t test, by gonum.
func pairedT(a, b []float64) (diff, se, p float64) {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	diff = stat.Mean(d, nil)
	se = stat.StdDev(d, nil) / math.Sqrt(float64(len(d)))
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(d) - 1)}
	return diff, se, 2 * st.CDF(-math.Abs(diff/se))
}

func runPaired(t *testing.T, args ...string) (string, error) {
	t.Helper()
	py := needPython(t)
	out, err := exec.Command(py, append([]string{filepath.Join("bench", "paired.py")}, args...)...).CombinedOutput()
	return string(out), err
}

// randomNDCG is n values in [0, 1] from r.
func randomNDCG(r *rand.Rand, n int, lift float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = min(1, max(0, r.Float64()*0.8+lift))
	}
	return v
}

// TestBenchPaired: bench/paired.py pairs the points bench/front.py
// compares and tests each pair on the queries: its difference, standard
// error and p match gonum's paired t test; a baseline point above
// Cronus's front is tested against the best Cronus point at no higher
// cost; the by-budget pairs are those chosen on validation.
func TestBenchPaired(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(4, 2))
	const n = 30
	var pts []pairedPoint
	for _, split := range []string{"valid", "test"} {
		pts = append(pts,
			pairedPoint{"cronus", split, "0.1", 90, randomNDCG(r, n, 0.15)},
			pairedPoint{"cronus", split, "0.01", 400, randomNDCG(r, n, 0.1)},
			pairedPoint{"prefix", split, "1", 53, randomNDCG(r, n, 0)},
			pairedPoint{"prefix", split, "50", 300, randomNDCG(r, n, 0.3)},
			pairedPoint{"early-exit", split, "+Inf", 1240, randomNDCG(r, n, 0.05)},
		)
	}
	curve := writePairedSweep(t, dir, "curve", pts, 0)
	out, err := runPaired(t, curve)
	if err != nil {
		t.Fatalf("paired.py: %v\n%s", err, out)
	}
	at := func(split, method, lambda string) []float64 {
		for _, p := range pts {
			if p.split == split && p.method == method && p.lambda == lambda {
				return p.ndcg
			}
		}
		t.Fatalf("no %s %s %s", split, method, lambda)
		return nil
	}
	want := func(a, b []float64) string {
		d, se, p := pairedT(a, b)
		return fmt.Sprintf("diff %+.4f se %.4f p %.3g", d, se, p)
	}
	// The test split: cronus λ 0.1 (cost 90) against prefix 1, λ 0.01
	// (cost 400) against prefix 50, the best at no higher cost.
	testPart := out[strings.Index(out, "test, "):]
	for _, c := range []struct{ lambda, base string }{{"0.1", "1"}, {"0.01", "50"}} {
		line := fmt.Sprintf("prefix %s: cost", c.base)
		w := want(at("test", "cronus", c.lambda), at("test", "prefix", c.base))
		if !strings.Contains(testPart, "λ "+c.lambda) || !strings.Contains(testPart, line) || !strings.Contains(testPart, w) {
			t.Errorf("test: cronus λ %s against prefix %s: want %q in\n%s", c.lambda, c.base, w, out)
		}
	}
	// Prefix 50 (cost 300) is above cronus's front there (λ 0.1's mean,
	// at 90, is lower): tested against λ 0.1.
	if mean := stat.Mean(at("test", "prefix", "50"), nil); mean <= stat.Mean(at("test", "cronus", "0.1"), nil) {
		t.Fatalf("the test's data: prefix 50's mean %v is not above cronus λ 0.1's", mean)
	}
	if !strings.Contains(testPart, "baseline points lie above cronus's front") || !strings.Contains(out, "(30 queries)") {
		t.Errorf("no count of the baseline points above cronus's front, or of the queries:\n%s", out)
	}
	// By budget: at validation cost 400 the best cronus point on
	// validation and the best baseline (among those at no more than
	// 400), compared on test.
	best := func(method string, budget float64) string {
		lam, q := "", -1.0
		for _, p := range pts {
			if p.split == "valid" && (p.method == method || method == "baseline" && p.method != "cronus") && p.cost <= budget {
				if m := stat.Mean(p.ndcg, nil); m > q {
					lam, q = p.method+" "+p.lambda, m
				}
			}
		}
		return lam
	}
	cr, bl := best("cronus", 400), best("baseline", 400)
	cf, bf := strings.Fields(cr), strings.Fields(bl)
	w := want(at("test", cf[0], cf[1]), at("test", bf[0], bf[1]))
	byBudget := out[strings.Index(out, "by budget"):]
	if !strings.Contains(byBudget, "cronus λ "+cf[1]) || !strings.Contains(byBudget, w) {
		t.Errorf("by budget: %s against %s: want %q in\n%s", cr, bl, w, byBudget)
	}
}

// TestBenchPairedFolds: with two folds a point's queries are both folds',
// weighted so that the mean difference is the difference of the folds'
// mean NDCG@10 averaged, front.py's; folds of 2 and 4 queries weigh each
// of the first fold's queries twice as much.
func TestBenchPairedFolds(t *testing.T) {
	dir := t.TempDir()
	fold := func(name string, c, p, e []float64) string {
		var pts []pairedPoint
		for _, split := range []string{"valid", "test"} {
			pts = append(pts, pairedPoint{"cronus", split, "0.1", 90, c}, pairedPoint{"prefix", split, "1", 50, p},
				pairedPoint{"early-exit", split, "+Inf", 900, e})
		}
		return writePairedSweep(t, dir, name, pts, 0)
	}
	a := fold("a", []float64{0.5, 0.9}, []float64{0.1, 0.5}, []float64{1, 1})
	b := fold("b", []float64{0.2, 0.4, 0.6, 0.8}, []float64{0.2, 0.3, 0.7, 0.9}, []float64{1, 1, 1, 1})
	out, err := runPaired(t, a, b)
	if err != nil {
		t.Fatalf("paired.py: %v\n%s", err, out)
	}
	// Fold means of cronus − prefix: 0.4 and −0.025; front.py's
	// difference is their mean, 0.1875. The weighted differences are
	// 0.4·1.5 twice (6 queries / (2 folds × 2)) and b's 0.75 × (0, 0.1,
	// −0.1, −0.1).
	d := []float64{0.6, 0.6, 0, 0.075, -0.075, -0.075}
	w := fmt.Sprintf("diff %+.4f se %.4f", stat.Mean(d, nil), stat.StdDev(d, nil)/math.Sqrt(6))
	if !strings.Contains(out, "(6 queries)") || !strings.Contains(out, w) || !strings.Contains(out, "diff +0.1875") {
		t.Errorf("two folds: want 6 queries and %q in\n%s", w, out)
	}
}

// TestBenchPairedRefuses: paired.py needs each curve's per-query file of
// the same sweep; without one, or with one whose means are not the
// curve's, it stops with an error naming the file.
func TestBenchPairedRefuses(t *testing.T) {
	dir := t.TempDir()
	pts := []pairedPoint{{"cronus", "test", "0.1", 90, []float64{0.5, 0.6}}, {"prefix", "test", "1", 50, []float64{0.4, 0.4}},
		{"early-exit", "test", "+Inf", 900, []float64{0.7, 0.7}}}
	good := writePairedSweep(t, dir, "good", pts, 0)
	other := writePairedSweep(t, dir, "other", pts, 0.01)
	lone := filepath.Join(dir, "lone.csv")
	writeText(t, lone, readFile(t, good))
	for _, c := range []struct {
		curve, want string
	}{
		{lone, filepath.Join(dir, "lone.queries.tsv") + ": No such file or directory (run cronus sweep"},
		{other, "the curve says"},
	} {
		out, err := runPaired(t, c.curve)
		if err == nil || !strings.Contains(out, c.want) || strings.Contains(out, "Traceback") {
			t.Errorf("paired.py %s: err %v, output\n%s\nwant an error with %q", c.curve, err, out, c.want)
		}
	}
	if out, err := runPaired(t, good); err != nil {
		t.Errorf("paired.py %s: %v\n%s", good, err, out)
	}
}

// TestBenchPairedTies: where two baselines at no higher cost tie on
// NDCG@10, paired.py (through front.py's best_baseline) sets the Cronus
// point against the cheaper, as baseline.BestBaseline does for sweep
// --json's against_baseline, whatever their order in the curve: the two
// name the same pair, and so the same standard error and p. They had
// taken the first in the file (the dearer single stage) and the cheaper.
func TestBenchPairedTies(t *testing.T) {
	dir := t.TempDir()
	// Eighths, so that a permutation has the same mean bit for bit.
	a := []float64{0.125, 0.5, 0.875, 0.25, 0.625, 0.375, 0.75, 0}
	b := []float64{0.75, 0.125, 0.25, 0.875, 0, 0.5, 0.375, 0.625}
	c := []float64{0.5, 0.625, 0.75, 0.375, 0.875, 0.25, 0.125, 0.125}
	if stat.Mean(a, nil) != stat.Mean(b, nil) {
		t.Fatal("the test's data: the two baselines do not tie")
	}
	var pts []pairedPoint
	var bp []baseline.Point
	for _, split := range []string{"valid", "test"} {
		pts = append(pts,
			pairedPoint{"single-stage", split, "0.01", 155, a},
			pairedPoint{"prefix", split, "1", 21, b},
			pairedPoint{"cronus", split, "0.01", 160, c},
		)
	}
	for _, p := range pts {
		bp = append(bp, baseline.Point{Method: p.method, Split: p.split, Cost: metric.Cost{Total: p.cost},
			Metrics: map[string]float64{"ndcg@10": stat.Mean(p.ndcg, nil)}})
	}
	best, ok := baseline.BestBaseline(bp, "test", "ndcg@10", 160)
	if !ok || best.Method != "prefix" {
		t.Fatalf("BestBaseline: %+v, %v; want the cheaper prefix 1", best, ok)
	}
	out, err := runPaired(t, writePairedSweep(t, dir, "curve", pts, 0))
	if err != nil {
		t.Fatalf("paired.py: %v\n%s", err, out)
	}
	d, se, p := pairedT(c, b)
	want := fmt.Sprintf("prefix 1: cost 21.0 ndcg@10 %.4f   diff %+.4f se %.4f p %.3g", stat.Mean(b, nil), d, se, p)
	testPart := out[strings.Index(out, "test, "):]
	if !strings.Contains(testPart, want) {
		t.Errorf("want %q (the cheaper of the tied baselines) in\n%s", want, out)
	}
}
