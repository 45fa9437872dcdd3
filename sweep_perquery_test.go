package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// perQueryLines reads a TSV of per-query values: its header and its lines
// split at tabs.
func perQueryLines(t *testing.T, path string) (header []string, rows [][]string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(readFile(t, path), "\n"), "\n")
	for _, l := range lines[1:] {
		rows = append(rows, strings.Split(l, "\t"))
	}
	return strings.Split(lines[0], "\t"), rows
}

// TestSweepPerQuery: sweep --per-query writes, for every row of the
// curve, its split's queries in order with the row's P@5, NDCG@10 and
// ERR@3 on each; their means are the curve's columns bit for bit; a
// prefix's lines are eval --trees k --per-query's, and the chosen
// cascade's are eval --cascade --per-query's, another path through the
// cascade (the scorer run for real).
func TestSweepPerQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("trains and sweeps")
	}
	dir := t.TempDir()
	model := trainShallow(t, dir, 20)
	curve, pq, cascade := filepath.Join(dir, "curve.csv"), filepath.Join(dir, "q.tsv"), filepath.Join(dir, "best.json")
	splits := map[string]string{"valid": "builtin:mq2008/vali", "test": "builtin:mq2008/test"}
	args := []string{"sweep", "--model", model, "--train", "builtin:mq2008/train", "--valid", splits["valid"], "--test", splits["test"],
		"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "1", "--lambdas", "0.01:0.3:3", "--out", curve, "--cascade-out", cascade}
	code, report, errOut := runCLI(t, append(args, "--per-query", pq, "--json")...)
	if code != 0 {
		t.Fatalf("sweep: %s", errOut)
	}
	if !strings.Contains(report, `"per_query": "`+pq+`"`) {
		t.Errorf("the report does not name the per-query file %s:\n%s", pq, report)
	}
	points, err := baseline.ReadCSV(curve)
	if err != nil {
		t.Fatal(err)
	}
	header, rows := perQueryLines(t, pq)
	metrics := []string{"p@5", "ndcg@10", "err@3"}
	if want := append([]string{"method", "split", "lambda", "qid"}, metrics...); !slices.Equal(header, want) {
		t.Fatalf("header %q, want %q", header, want)
	}
	// eval --per-query: each split's query ids in order and the values
	// of a system on them.
	evalLines := func(split string, system ...string) [][]string {
		t.Helper()
		f := filepath.Join(t.TempDir(), "e.tsv")
		a := append([]string{"eval", "--data", splits[split], "--costs", "builtin:mq2008/costs", "--metrics", strings.Join(metrics, ","), "--per-query", f}, system...)
		if code, _, errOut := runCLI(t, a...); code != 0 {
			t.Fatalf("eval %v: %s", system, errOut)
		}
		h, r := perQueryLines(t, f)
		if want := append([]string{"qid"}, metrics...); !slices.Equal(h, want) {
			t.Fatalf("eval's header %q, want %q", h, want)
		}
		return r
	}
	qids := map[string][]string{}
	for split := range splits {
		for _, r := range evalLines(split, "--model", model) {
			qids[split] = append(qids[split], r[0])
		}
	}
	// The lines, by row of the curve, in the curve's order.
	type key struct{ method, split, lambda string }
	byRow := map[key][][]string{}
	var order []key
	for i, r := range rows {
		if len(r) != 7 {
			t.Fatalf("line %d: %d fields: %q", i+2, len(r), r)
		}
		k := key{r[0], r[1], r[2]}
		if _, ok := byRow[k]; !ok {
			order = append(order, k)
		}
		byRow[k] = append(byRow[k], r[3:])
	}
	if len(order) != len(points) {
		t.Fatalf("%d rows' lines for a curve of %d rows", len(order), len(points))
	}
	methods := map[string]bool{}
	for i, p := range points {
		k := key{p.Method, p.Split, strconv.FormatFloat(p.Lambda, 'g', -1, 64)}
		if order[i] != k {
			t.Fatalf("the %d-th row's lines are %v, the curve's row %v", i+1, order[i], k)
		}
		methods[p.Method] = true
		lines := byRow[k]
		if len(lines) != len(qids[p.Split]) {
			t.Fatalf("%v: %d lines for %d queries", k, len(lines), len(qids[p.Split]))
		}
		for j, m := range metrics {
			sum := 0.0
			for q, l := range lines {
				if l[0] != qids[p.Split][q] {
					t.Fatalf("%v: line %d has query %s, the split's %d-th query is %s", k, q+1, l[0], q+1, qids[p.Split][q])
				}
				v, err := strconv.ParseFloat(l[1+j], 64)
				if err != nil || v < 0 || v > 1 {
					t.Fatalf("%v: query %s: %s %q", k, l[0], m, l[1+j])
				}
				sum += v
			}
			if mean := sum / float64(len(lines)); mean != p.Metrics[m] {
				t.Errorf("%v: the mean of the lines' %s is %v, the curve's %v", k, m, mean, p.Metrics[m])
			}
		}
	}
	for _, m := range []string{"cronus", "cronus-init", "single-stage", "prefix", "early-exit"} {
		if !methods[m] {
			t.Errorf("no %s rows", m)
		}
	}
	same := func(what string, got, want [][]string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d lines, eval's %d", what, len(got), len(want))
		}
		for q := range want {
			if !slices.Equal(got[q], want[q]) {
				t.Errorf("%s: line %d %q, eval's %q", what, q+1, got[q], want[q])
				return
			}
		}
	}
	// Prefixes: the first tree alone, a middle one, the whole model.
	for _, k := range []int{1, 6, 20} {
		for split := range splits {
			lines, ok := byRow[key{"prefix", split, strconv.Itoa(k)}]
			if !ok {
				continue // not a kept prefix count
			}
			same(fmt.Sprintf("prefix %d on %s", k, split), lines, evalLines(split, "--model", model, "--trees", strconv.Itoa(k)))
		}
	}
	if _, ok := byRow[key{"prefix", "test", "20"}]; !ok {
		t.Error("no lines for the whole model's prefix on test")
	}
	// The cascade --cascade-out chose: its λ is the best validation row's.
	best, ok := bestCronusRow(points, 1e300)
	if !ok {
		t.Fatal("no cronus row")
	}
	for split := range splits {
		same("the chosen cascade on "+split, byRow[key{"cronus", split, strconv.FormatFloat(best.Lambda, 'g', -1, 64)}], evalLines(split, "--cascade", cascade))
	}
	// --json: each λ's cascade against the best baseline at no higher
	// cost on each split, worked out here from the curve, and the paired
	// t test on the lines of the two (gonum's).
	var r struct {
		Lambdas []struct {
			Lambda          float64
			AgainstBaseline map[string]struct {
				Method  string
				Lambda  *float64
				Cost    float64
				NDCG    float64 `json:"ndcg@10"`
				Diff    float64
				Queries int
				SE      float64
				PT      float64 `json:"p_t"`
			} `json:"against_baseline"`
		}
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatal(err)
	}
	ndcgOf := func(k key) []float64 {
		var v []float64
		for _, l := range byRow[k] {
			x, _ := strconv.ParseFloat(l[2], 64)
			v = append(v, x)
		}
		return v
	}
	tested := 0
	for _, e := range r.Lambdas {
		for split := range splits {
			cr := rowAt(t, points, "cronus", split, e.Lambda)
			var best *baseline.Point
			for i, p := range points {
				if (p.Method == "prefix" || p.Method == "early-exit" || p.Method == "single-stage") && p.Split == split && p.Cost.Total <= cr.Cost.Total &&
					(best == nil || p.Metrics["ndcg@10"] > best.Metrics["ndcg@10"] || p.Metrics["ndcg@10"] == best.Metrics["ndcg@10"] && p.Cost.Total < best.Cost.Total) {
					best = &points[i]
				}
			}
			got, ok := e.AgainstBaseline[split]
			if best == nil {
				if ok {
					t.Errorf("λ %g, %s: against %v, but no baseline costs %g or less", e.Lambda, split, got, cr.Cost.Total)
				}
				continue
			}
			if !ok || got.Method != best.Method || got.Lambda == nil || *got.Lambda != best.Lambda || got.NDCG != best.Metrics["ndcg@10"] ||
				got.Diff != cr.Metrics["ndcg@10"]-best.Metrics["ndcg@10"] {
				t.Errorf("λ %g, %s: against %+v, want %s %g (ndcg@10 %v, diff %v)", e.Lambda, split, got, best.Method, best.Lambda, best.Metrics["ndcg@10"], cr.Metrics["ndcg@10"]-best.Metrics["ndcg@10"])
				continue
			}
			a := ndcgOf(key{"cronus", split, strconv.FormatFloat(e.Lambda, 'g', -1, 64)})
			b := ndcgOf(key{best.Method, split, strconv.FormatFloat(best.Lambda, 'g', -1, 64)})
			d := make([]float64, len(a))
			for i := range d {
				d[i] = a[i] - b[i]
			}
			se := stat.StdDev(d, nil) / math.Sqrt(float64(len(d)))
			pt := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(d) - 1)}.CDF(-math.Abs(stat.Mean(d, nil)/se))
			if got.Queries != len(d) || math.Abs(got.SE-se) > 1e-12 || se > 0 && math.Abs(got.PT-pt) > 1e-9 {
				t.Errorf("λ %g, %s: %d queries, se %v, p %v; want %d, %v, %v", e.Lambda, split, got.Queries, got.SE, got.PT, len(d), se, pt)
			}
			tested++
		}
	}
	if tested == 0 {
		t.Error("no λ has a baseline at no higher cost")
	}
	// The file is another output: not the curve's name.
	if code, _, errOut := runCLI(t, append(args, "--per-query", curve)...); code != 2 || !strings.Contains(errOut, curve) {
		t.Errorf("--per-query naming the curve: exit %d, %q", code, errOut)
	}
}
