package metric_test

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/metric"
)

// TestAgainstXGBoost compares NDCG@k, MAP and P@k with XGBoost's own figures
// for the same scores on MQ2008 Fold1 test (156 queries, 2,874 documents).
// testdata/make_xgb_fixture.py made the fixture with XGBoost 1.7.4; its
// docstring says how the scores were made and how XGBoost was made to
// evaluate given scores.
//
// Queries without relevant documents: XGBoost's "ndcg@k" and "map" score such
// a query 1, while "ndcg@k-" and "map-" score it 0, as we do by default. The
// fixture shows it: 51 of the 156 queries have only label 0, and XGBoost's
// ndcg@10 − ndcg@10- = 0.8105326 − 0.4836096 = 0.3269231 = 51/156, the same
// gap for ndcg@5, ndcg and map. So the minus names are compared with our
// default, and the plain names with our per-query values in which every
// excluded query (ExcludeNoRelevant) is counted as 1.
//
// XGBoost's pre@k counts a document as relevant when its integer label is not
// 0 and divides by k, which is our P@k with RelevantLabel 1 on labels 0-2.
//
// Ties: XGBoost sorts a query with std::stable_sort on float32 predictions,
// we with a stable sort on float64 scores. The fixture's scores are float32
// values with no tie inside a query (the script checks both), so the two
// rankings are identical whatever the tie rule, and the comparison is about
// the formulas.
//
// Tolerance: XGBoost 1.7.4 keeps predictions in float32 but computes each
// query's metric and the sum over queries in double, and the fixture keeps 17
// significant digits. With float32-exact scores the two sides then sum the
// same doubles in the same order, and the figures agree to the last bit. We
// allow 1e-9 for a different summation order or log2 rounding on another
// machine. A formula or ranking difference shows far above that: swapping
// two neighbouring documents of different labels in one of the 156 queries
// moves the mean by more than 1e-8 even near rank 100, and by 1e-5 to 1e-3 in
// the top ten.
func TestAgainstXGBoost(t *testing.T) {
	scores, labels, offsets := readFixture(t, "testdata/mq2008-test.scores.txt")
	figure := readXGBoost(t, "testdata/mq2008-test.xgb.json", len(offsets)-1, len(scores))
	tests := []xgbCase{
		{"ndcg@5-", "ndcg@5", 1, 0},
		{"ndcg@10-", "ndcg@10", 1, 0},
		{"ndcg-", "ndcg", 1, 0},
		{"map-", "map", 1, 0},
		{"ndcg@5", "ndcg@5", 1, 1},
		{"ndcg@10", "ndcg@10", 1, 1},
		{"ndcg", "ndcg", 1, 1},
		{"map", "map", 1, 1},
		{"pre@5", "p@5", 1, 0},
		{"pre@10", "p@10", 1, 0},
	}
	for _, tt := range tests {
		tt.check(t, scores, labels, offsets, figure)
	}
}

// TestAgainstXGBoostTies compares P@k, MAP and NDCG@10 with XGBoost's figures
// for scores with ties: the fixture's scores rounded to one decimal, which
// leaves ties in 152 of the 156 queries (testdata/make_xgb_ties_fixture.py).
// XGBoost ranks with std::stable_sort on float32 predictions, highest first,
// so equal scores keep their input order, as ours do; the scores are float32
// values, so both sides see the same ties. A different tie rule shows: with
// ties broken against input order, map- moves by 1e-2 and pre@1 by 4e-2.
//
// It also covers what the tie-free fixture does not: P@k for k above the
// largest query (119 documents; XGBoost divides by k, as we do), and
// RelevantLabel 2, which is XGBoost's map and pre@k (relevant: label != 0) on
// labels made binary at label >= 2 (the "@rel2" figures).
func TestAgainstXGBoostTies(t *testing.T) {
	scores, labels, offsets := readFixture(t, "testdata/mq2008-test.ties.scores.txt")
	figure := readXGBoost(t, "testdata/mq2008-test.ties.xgb.json", len(offsets)-1, len(scores))
	tied := 0
	for q := range len(offsets) - 1 {
		seen := map[float64]bool{}
		for _, s := range scores[offsets[q]:offsets[q+1]] {
			if seen[s] {
				tied++
				break
			}
			seen[s] = true
		}
	}
	if tied != int(figure("queries_with_ties")) {
		t.Errorf("%d queries with ties, fixture says %v", tied, figure("queries_with_ties"))
	}
	if k := int(figure("largest_query")); k >= 200 {
		t.Fatalf("largest query %d: pre@200 no longer goes past it", k)
	}
	tests := []xgbCase{
		{"map-", "map", 1, 0},
		{"map", "map", 1, 1},
		{"ndcg@10-", "ndcg@10", 1, 0},
		{"ndcg@10", "ndcg@10", 1, 1},
		{"pre@1", "p@1", 1, 0},
		{"pre@3", "p@3", 1, 0},
		{"pre@5", "p@5", 1, 0},
		{"pre@10", "p@10", 1, 0},
		{"pre@20", "p@20", 1, 0},
		{"pre@200", "p@200", 1, 0},
		{"map-@rel2", "map", 2, 0},
		{"map@rel2", "map", 2, 1},
		{"pre@1@rel2", "p@1", 2, 0},
		{"pre@5@rel2", "p@5", 2, 0},
		{"pre@200@rel2", "p@200", 2, 0},
	}
	for _, tt := range tests {
		tt.check(t, scores, labels, offsets, figure)
	}
}

// TestAgainstXGBoostMAPAtK compares MAP@k with XGBoost's map@k on the
// scores of TestAgainstXGBoost (testdata/make_xgb_mapk_fixture.py): the
// precision at each relevant rank up to k, summed, over all the relevant
// documents of the query, within the cut-off or not (trec_eval's
// map_cut_k). XGBoost's map@k scores a query without relevant documents 1,
// map@k- 0. Dividing by the relevant documents in the top k instead
// moves map@5- from 0.3647 to 0.4819 (and map@10- from 0.4220 to 0.4767);
// map@200, past every query, is XGBoost's map.
func TestAgainstXGBoostMAPAtK(t *testing.T) {
	scores, labels, offsets := readFixture(t, "testdata/mq2008-test.scores.txt")
	figure := readXGBoost(t, "testdata/mq2008-test.mapk.xgb.json", len(offsets)-1, len(scores))
	for _, tt := range []xgbCase{
		{"map@1", "map@1", 1, 1},
		{"map@3", "map@3", 1, 1},
		{"map@5", "map@5", 1, 1},
		{"map@10", "map@10", 1, 1},
		{"map@200", "map@200", 1, 1},
		{"map@200", "map", 1, 1},
		{"map@5-", "map@5", 1, 0},
		{"map@10-", "map@10", 1, 0},
	} {
		tt.check(t, scores, labels, offsets, figure)
	}
}

// xgbCase is one of XGBoost's figures and our metric that must equal it.
type xgbCase struct {
	xgbName  string  // XGBoost's metric name in the fixture
	ours     string  // our metric
	relevant float64 // Options.RelevantLabel, 1 for XGBoost's labels 0-2 as they are
	noRelAs  float64 // the value XGBoost gives a query without relevant documents
}

// check computes tt.ours per query, counts every query without a relevant
// document as tt.noRelAs, and compares the mean with XGBoost's figure.
func (tt xgbCase) check(t *testing.T, scores []float64, labels []float32, offsets []int, figure func(string) float64) {
	t.Helper()
	// See TestAgainstXGBoost for the tolerance.
	const tol = 1e-9
	spec, err := metric.Parse(tt.ours)
	if err != nil {
		t.Fatal(err)
	}
	opt := metric.Options{RelevantLabel: tt.relevant}
	excludeOpt := opt
	excludeOpt.ExcludeNoRelevant = true
	perQuery := metric.PerQuery(spec, scores, labels, offsets, excludeOpt, nil)
	sum, excluded := 0.0, 0
	for _, v := range perQuery {
		if math.IsNaN(v) {
			v = tt.noRelAs
			excluded++
		}
		sum += v
	}
	got := sum / float64(len(perQuery))
	if tt.relevant == 1 && excluded != int(figure("queries_without_relevant")) {
		t.Errorf("%s: %d queries without relevant documents, fixture says %v", spec, excluded, figure("queries_without_relevant"))
	}
	if tt.noRelAs == 0 {
		// Scoring those queries 0 is our default: Mean must agree.
		if m := metric.Mean(spec, scores, labels, offsets, opt); math.Abs(m-got) > 1e-15 {
			t.Errorf("%s: Mean %.17g, per-query mean %.17g", spec, m, got)
		}
	}
	want := figure(tt.xgbName)
	if math.Abs(got-want) > tol {
		t.Errorf("%s (relevant %g): ours %.17g, XGBoost %s %.17g (diff %.3g)", spec, tt.relevant, got, tt.xgbName, want, got-want)
	}
	t.Logf("%-8s ours %.10f  XGBoost %-12s %.10f  diff %+.2g", spec, got, tt.xgbName, want, got-want)
}

// readXGBoost reads a fixture of XGBoost's figures, checks its counts of
// queries and documents, and returns a lookup of its numbers.
func readXGBoost(t *testing.T, path string, queries, docs int) func(string) float64 {
	t.Helper()
	var xgb map[string]any
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &xgb); err != nil {
		t.Fatal(err)
	}
	figure := func(name string) float64 {
		v, ok := xgb[name].(float64)
		if !ok {
			t.Fatalf("%s has no number %q", path, name)
		}
		return v
	}
	if queries != int(figure("queries")) || docs != int(figure("docs")) {
		t.Fatalf("fixture has %d queries, %d docs; %s says %v, %v", queries, docs, path, xgb["queries"], xgb["docs"])
	}
	return figure
}

// readFixture reads scoresPath and testdata/mq2008-test.labels.txt and builds
// the offsets from runs of equal qid.
func readFixture(t *testing.T, scoresPath string) (scores []float64, labels []float32, offsets []int) {
	t.Helper()
	lines := func(path string) []string {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		sc := bufio.NewScanner(strings.NewReader(string(raw)))
		for sc.Scan() {
			out = append(out, sc.Text())
		}
		return out
	}
	const labelsPath = "testdata/mq2008-test.labels.txt"
	for i, line := range lines(scoresPath) {
		s, err := strconv.ParseFloat(line, 64)
		if err != nil {
			t.Fatalf("%s:%d: %v", scoresPath, i+1, err)
		}
		scores = append(scores, s)
	}
	prevQID := ""
	for i, line := range lines(labelsPath) {
		qid, label, ok := strings.Cut(line, " ")
		l, err := strconv.ParseFloat(label, 32)
		if !ok || err != nil {
			t.Fatalf("%s:%d: want \"qid label\", got %q", labelsPath, i+1, line)
		}
		if qid != prevQID {
			offsets = append(offsets, i)
			prevQID = qid
		}
		labels = append(labels, float32(l))
	}
	if len(scores) != len(labels) {
		t.Fatalf("%d scores but %d labels", len(scores), len(labels))
	}
	return scores, labels, append(offsets, len(labels))
}
