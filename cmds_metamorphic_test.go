package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
)

// Metamorphic properties of the commands end to end: how their output must
// change when the input is transformed in a known way, and how two routes
// to one result must agree.

// evalReport is what eval --json reports that these tests compare.
type evalReport struct {
	Metrics map[string]float64
	Queries int
	Docs    int
	Cost    *struct{ Total, Features, Trees float64 }
	Reached []float64
}

// metamorphicMetrics covers every family of metric eval has.
const metamorphicMetrics = "p@5,ndcg@10,err@3,rbp@0.5,map"

// queryBlocks splits the lines of an SVMlight file into runs of
// consecutive lines of one qid.
func queryBlocks(t *testing.T, text []byte) [][]string {
	t.Helper()
	var blocks [][]string
	last := ""
	for _, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[1], "qid:") {
			t.Fatalf("line %q has no qid", line)
		}
		if f[1] != last || len(blocks) == 0 {
			blocks = append(blocks, nil)
			last = f[1]
		}
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], line)
	}
	return blocks
}

func writeLines(t *testing.T, path string, blocks [][]string) {
	t.Helper()
	var b bytes.Buffer
	for _, block := range blocks {
		for _, line := range block {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Property 5. A model scores a document from its own features alone, so
// predict on a file whose lines were reordered within each query (here
// each query's lines reversed) gives every document the score it had,
// bit for bit, at its new place. Documents are matched by their lines,
// which hold their features and LETOR docid.
func TestPredictLineOrderWithinQuery(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 10)
	blocks := queryBlocks(t, builtinTestText(t))
	writeLines(t, p("a.txt"), blocks)
	var orig []string
	for _, block := range blocks {
		orig = append(orig, block...)
	}
	for _, block := range blocks {
		for i, j := 0, len(block)-1; i < j; i, j = i+1, j-1 {
			block[i], block[j] = block[j], block[i]
		}
	}
	writeLines(t, p("b.txt"), blocks)
	var moved []string
	for _, block := range blocks {
		moved = append(moved, block...)
	}
	mustRun(t, "predict", "--model", model, "--data", p("a.txt"), "--out", p("a.scores"))
	mustRun(t, "predict", "--model", model, "--data", p("b.txt"), "--out", p("b.scores"))
	a, b := readNumbers(t, p("a.scores")), readNumbers(t, p("b.scores"))
	if len(a) != len(orig) || len(b) != len(moved) {
		t.Fatalf("%d and %d scores for %d lines", len(a), len(b), len(orig))
	}
	score := map[string]float64{}
	for i, line := range orig {
		score[line] = a[i]
	}
	if len(score) != len(orig) {
		t.Fatalf("%d distinct lines of %d: documents cannot be told apart", len(score), len(orig))
	}
	distinct := map[float64]bool{}
	for i, line := range moved {
		distinct[b[i]] = true
		if b[i] != score[line] {
			t.Fatalf("line %d (%.40s…): score %v, %v before its query's lines were reversed", i+1, line, b[i], score[line])
		}
	}
	if len(distinct) < 10 {
		t.Fatalf("only %d distinct scores: the model does not tell documents apart", len(distinct))
	}
}

// Property 6. eval --model ranks each query by the model's scores; predict
// writes those scores in full (shortest round-trip precision), so eval
// --scores of predict's file ranks every query the same way, ties in input
// order alike, and every metric must be the same, bit for bit.
func TestEvalModelEqualsEvalScores(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 10)
	test := "builtin:mq2008/test"
	mustRun(t, "predict", "--model", model, "--data", test, "--out", p("s.txt"))
	var byModel, byScores evalReport
	runJSON(t, &byModel, "eval", "--model", model, "--data", test, "--metrics", metamorphicMetrics, "--json")
	runJSON(t, &byScores, "eval", "--scores", p("s.txt"), "--data", test, "--metrics", metamorphicMetrics, "--json")
	if len(byModel.Metrics) != 5 || byModel.Queries != byScores.Queries || byModel.Docs != byScores.Docs {
		t.Fatalf("--model %+v, --scores %+v", byModel, byScores)
	}
	for name, v := range byModel.Metrics {
		if w, ok := byScores.Metrics[name]; !ok || w != v {
			t.Errorf("%s: %v by --model, %v by --scores of predict's file", name, v, w)
		}
	}
}

// Property 7. export --to xgboost then import --from xgboost is the same
// trees with their leaves and base score as XGBoost keeps them, float32
// (README, export, Numbers): the model read back scores as the original
// within the 1e-5 README states for such models. Its leaves are float32
// values already, so a second round trip changes nothing: exporting the
// model read back writes the first export's file, byte for byte, and its
// scores are the first model's read back, bit for bit.
func TestExportImportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 10)
	test := "builtin:mq2008/test"
	mustRun(t, "export", "--model", model, "--to", "xgboost", "--out", p("x1.json"))
	mustRun(t, "import", "--from", "xgboost", p("x1.json"), "--out", p("back1.json"))
	mustRun(t, "export", "--model", p("back1.json"), "--to", "xgboost", "--out", p("x2.json"))
	mustRun(t, "import", "--from", "xgboost", p("x2.json"), "--out", p("back2.json"))
	for _, m := range []string{model, p("back1.json"), p("back2.json")} {
		mustRun(t, "predict", "--model", m, "--data", test, "--out", m+".scores")
	}
	want, got1, got2 := readNumbers(t, model+".scores"), readNumbers(t, p("back1.json.scores")), readNumbers(t, p("back2.json.scores"))
	for i := range want {
		if d := want[i] - got1[i]; d > 1e-5 || d < -1e-5 {
			t.Fatalf("document %d: %v after the round trip, %v before", i, got1[i], want[i])
		}
		if got2[i] != got1[i] {
			t.Fatalf("document %d: %v after two round trips, %v after one", i, got2[i], got1[i])
		}
	}
	if x1, x2 := readFile(t, p("x1.json")), readFile(t, p("x2.json")); x1 != x2 {
		t.Errorf("the export of the imported export differs from it (%d and %d bytes)", len(x1), len(x2))
	}
}

// Property 8. A stage whose θ is −∞ (null in the file) passes every
// document, so with every θ null every document reaches the last stage,
// stays there and is ranked by the last stage's score, intercept +
// Σ weight·h_t(x) with h_t(x) the leaf value rounded to float32 (README,
// File formats). Its metrics are then those of eval --scores of that
// score, worked out here from the file's trees, and every document pays
// every tree some stage lists with a non-zero weight, and every feature
// those trees split on, once: that is eval's cost per document, up to the
// rounding of a mean of equal values.
func TestEvalCascadeAllPass(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 10)
	test := "builtin:mq2008/test"
	mustRun(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "0", "--lambda", "0.05", "--out", p("c.json"))
	b, err := os.ReadFile(p("c.json"))
	if err != nil {
		t.Fatal(err)
	}
	theta := regexp.MustCompile(`"theta": *-?[0-9][^,}\s]*`)
	if len(theta.FindAll(b, -1)) == 0 {
		t.Fatal("the cascade has no finite θ to edit: every document reaches its last stage already")
	}
	b = theta.ReplaceAll(b, []byte(`"theta": null`))
	if err := os.WriteFile(p("open.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cf, err := cronus.ReadFile(p("open.json"))
	if err != nil {
		t.Fatal(err)
	}
	for k, st := range cf.Stages {
		if st.Theta != nil {
			t.Fatalf("stage %d: θ %v after the edit", k+1, *st.Theta)
		}
	}
	e, err := cf.Ensemble.Ensemble()
	if err != nil {
		t.Fatal(err)
	}
	d, err := data.LoadDataset(context.Background(), test, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// The last stage's score of every document, and what each pays.
	last := cf.Stages[len(cf.Stages)-1]
	var sb strings.Builder
	x := make([]float32, len(d.Cols))
	for i := range d.NumDocs() {
		for f := range d.Cols {
			x[f] = d.Cols[f][i]
		}
		s := last.Intercept
		for j, tr := range last.Trees {
			s += last.Weights[j] * float64(float32(e.Trees[tr].Predict(x)))
		}
		sb.WriteString(strconv.FormatFloat(s, 'g', -1, 64))
		sb.WriteByte('\n')
	}
	if err := os.WriteFile(p("last.scores"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	paidTree, paidFeat := map[int]bool{}, map[int32]bool{}
	var want struct{ Features, Trees float64 }
	for _, st := range cf.Stages {
		for j, tr := range st.Trees {
			if st.Weights[j] == 0 || paidTree[tr] {
				continue
			}
			paidTree[tr] = true
			want.Trees += cf.TreeCost[tr]
			for _, n := range e.Trees[tr].Nodes {
				if !paidFeat[n.Feature] {
					paidFeat[n.Feature] = true
					want.Features += cf.FeatureCost[n.Feature]
				}
			}
		}
	}

	var casc, scores evalReport
	runJSON(t, &casc, "eval", "--cascade", p("open.json"), "--data", test, "--metrics", metamorphicMetrics, "--json")
	runJSON(t, &scores, "eval", "--scores", p("last.scores"), "--data", test, "--metrics", metamorphicMetrics, "--json")
	for name, v := range scores.Metrics {
		if w, ok := casc.Metrics[name]; !ok || w != v {
			t.Errorf("%s: %v by eval --cascade, %v by the last stage's scores", name, w, v)
		}
	}
	for k, r := range casc.Reached {
		if r != 1 {
			t.Errorf("stage %d reached by %v of the documents, want all", k+1, r)
		}
	}
	if casc.Cost == nil {
		t.Fatal("eval --cascade reports no cost")
	}
	near := func(a, b float64) bool { return a-b <= 1e-9*max(1, b) && b-a <= 1e-9*max(1, b) }
	if !near(casc.Cost.Features, want.Features) || !near(casc.Cost.Trees, want.Trees) || !near(casc.Cost.Total, want.Features+want.Trees) {
		t.Errorf("cost %+v, want features %v and trees %v: every tree of the stages and its features", *casc.Cost, want.Features, want.Trees)
	}
}

// sweepRows runs sweep and returns its curve's rows, header first.
func sweepRows(t *testing.T, out string, args ...string) [][]string {
	t.Helper()
	mustRun(t, append([]string{"sweep", "--out", out}, args...)...)
	rows := readCSVFile(t, out)
	if len(rows) < 2 || strings.Join(rows[0][:6], ",") != "method,split,lambda,cost,feature_cost,tree_cost" {
		t.Fatalf("curve %v", rows)
	}
	return rows
}

// readCSVFile is the rows of the CSV file path, its header first.
func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func parseNum(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Property 3, end to end. Costs enter every method of sweep only through
// sums of feature and tree costs, their means, and λ, which is a fraction
// of λ_max: doubling every cost halves λ_max, so that λ_max·cost, and
// every decision of the optimiser and of the baselines, is what it was.
// Scaling by a power of two commutes with floating-point rounding (far
// from overflow and underflow), so every row of the curve (single stage,
// Cronus, prefix, early exit) must keep its metrics bit for bit and
// double its costs bit for bit when every feature cost and the tree cost
// are doubled.
func TestSweepCostScale(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 20)
	b, err := os.ReadFile("data/builtin/mq2008/costs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var doubled strings.Builder
	for _, s := range strings.Fields(string(b)) {
		doubled.WriteString(strconv.FormatFloat(2*parseNum(t, s), 'g', -1, 64) + "\n")
	}
	if err := os.WriteFile(p("costs2.txt"), []byte(doubled.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--test", "builtin:mq2008/test",
		"--lambdas", "0.05:0.5:3", "--cycles", "0", "--exit-every", "5"}
	base := sweepRows(t, p("c1.csv"), append(args, "--costs", "builtin:mq2008/costs", "--tree-cost", "0.5")...)
	scaled := sweepRows(t, p("c2.csv"), append(args, "--costs", p("costs2.txt"), "--tree-cost", "1")...)
	if len(scaled) != len(base) {
		t.Fatalf("%d rows with doubled costs, %d before", len(scaled), len(base))
	}
	methods := map[string]bool{}
	for i, row := range base[1:] {
		got := scaled[i+1]
		methods[row[0]] = true
		if !slices.Equal(got[:3], row[:3]) || !slices.Equal(got[6:], row[6:]) {
			t.Errorf("row %d: %v with doubled costs, was %v", i+2, got, row)
			continue
		}
		for c := 3; c < 6; c++ {
			if parseNum(t, got[c]) != 2*parseNum(t, row[c]) {
				t.Errorf("row %d (%s %s λ=%s): %s %s with doubled costs, want twice %s", i+2, row[0], row[1], row[2], base[0][c], got[c], row[c])
			}
		}
	}
	for _, m := range []string{"single-stage", "cronus", "prefix", "early-exit"} {
		if !methods[m] {
			t.Errorf("no %s rows in the curve", m)
		}
	}
}

// Two routes to a prefix point: sweep's prefix row for k trees on test and
// eval --model --trees k on the test data with the same costs measure the
// same ranking and the same cost model, so they must agree bit for bit.
func TestSweepPrefixEqualsEval(t *testing.T) {
	dir := t.TempDir()
	model := trainShallow(t, dir, 10)
	rows := sweepRows(t, filepath.Join(dir, "c.csv"), "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs", "--tree-cost", "0.5", "--lambdas", "0.1:0.1:1", "--cycles", "0", "--every-prefix")
	seen := 0
	for _, row := range rows[1:] {
		if row[0] != "prefix" || row[1] != "test" {
			continue
		}
		seen++
		var ev evalReport
		runJSON(t, &ev, "eval", "--model", model, "--trees", row[2], "--data", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs",
			"--tree-cost", "0.5", "--metrics", strings.Join(rows[0][6:], ","), "--json")
		if ev.Cost == nil {
			t.Fatal("eval --model reports no cost")
		}
		want := []float64{ev.Cost.Total, ev.Cost.Features, ev.Cost.Trees}
		for c := 3; c < 6; c++ {
			if parseNum(t, row[c]) != want[c-3] {
				t.Errorf("k=%s: sweep's %s %s, eval's %v", row[2], rows[0][c], row[c], want[c-3])
			}
		}
		for c := 6; c < len(row); c++ {
			if v := parseNum(t, row[c]); v != ev.Metrics[rows[0][c]] {
				t.Errorf("k=%s: sweep's %s %v, eval's %v", row[2], rows[0][c], v, ev.Metrics[rows[0][c]])
			}
		}
	}
	if seen != 10 {
		t.Errorf("%d prefix rows on test, want one per tree count, 10", seen)
	}
}
