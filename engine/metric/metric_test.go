package metric

import (
	"cmp"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// l3 is log2(3), the discount at rank 2.
var l3 = math.Log2(3)

// The hand-worked query of most cases: labels [2,0,1], scores [0.1,0.9,0.5].
// Ranked by score the documents are 1 (0.9), 2 (0.5), 0 (0.1), so the labels
// in rank order are [0, 1, 2].
var (
	handLabels = []float32{2, 0, 1}
	handScores = []float64{0.1, 0.9, 0.5}
)

func TestPerQueryHandWorked(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name    string
		metric  string
		opt     Options
		labels  []float32
		scores  []float64
		offsets []int // nil: one query holding everything
		want    []float64
	}{
		// NDCG: DCG@3 = (2^0−1)/log2 2 + (2^1−1)/log2 3 + (2^2−1)/log2 4
		//             = 0 + 1/log2 3 + 3/2 = 2.1309;
		// ideal labels [2,1,0]: IDCG@3 = 3/1 + 1/log2 3 + 0 = 3.6309;
		// NDCG@3 = 2.1309/3.6309 = 0.58688.
		{name: "ndcg@3", metric: "ndcg@3", want: []float64{(1/l3 + 1.5) / (3 + 1/l3)}},
		// Cut-off 2: DCG@2 = 1/log2 3, IDCG@2 = 3 + 1/log2 3: 0.17377.
		{name: "ndcg@2", metric: "ndcg@2", want: []float64{(1 / l3) / (3 + 1/l3)}},
		// Cut-off 1: a label-0 document on top, DCG@1 = 0.
		{name: "ndcg@1", metric: "ndcg@1", want: []float64{0}},
		// A cut-off beyond the query and no cut-off both mean all 3 documents.
		{name: "ndcg@10 beyond query", metric: "ndcg@10", want: []float64{(1/l3 + 1.5) / (3 + 1/l3)}},
		{name: "ndcg whole list", metric: "ndcg", want: []float64{(1/l3 + 1.5) / (3 + 1/l3)}},

		// ERR, lmax = 2 (the largest label): R(0) = 0, R(1) = 1/4, R(2) = 3/4.
		// ERR@3 = 1/1·0 + 1/2·(1/4)·1 + 1/3·(3/4)·(1−0)(1−1/4) = 1/8 + 3/16 = 5/16.
		{name: "err@3", metric: "err@3", want: []float64{5.0 / 16}},
		{name: "err@2", metric: "err@2", want: []float64{1.0 / 8}},
		{name: "err@20 beyond query", metric: "err@20", want: []float64{5.0 / 16}},
		// MaxLabel 4: R(1) = 1/16, R(2) = 3/16;
		// ERR = 1/2·1/16 + 1/3·3/16·15/16 = 8/256 + 15/256 = 23/256.
		{name: "err lmax=4", metric: "err", opt: Options{MaxLabel: 4}, want: []float64{23.0 / 256}},
		// MaxLabel 1: label 2 counts as 1, R = 1/2 for both;
		// ERR = 1/2·1/2 + 1/3·1/2·1/2 = 1/4 + 1/12 = 1/3.
		{name: "err lmax=1 clamps", metric: "err", opt: Options{MaxLabel: 1}, want: []float64{1.0 / 3}},

		// P@k, relevant = label >= 1: rank order relevance [0, 1, 1].
		{name: "p@1", metric: "p@1", want: []float64{0}},
		{name: "p@2", metric: "p@2", want: []float64{1.0 / 2}},
		// Two relevant in a query of 3, divided by k = 5, not by 3.
		{name: "p@5 divides by k", metric: "p@5", want: []float64{2.0 / 5}},
		// Relevant = label >= 2: only the document at rank 3.
		{name: "p@2 relevant>=2", metric: "p@2", opt: Options{RelevantLabel: 2}, want: []float64{0}},
		{name: "p@3 relevant>=2", metric: "p@3", opt: Options{RelevantLabel: 2}, want: []float64{1.0 / 3}},

		// RBP, relevance [0, 1, 1]: (1−p)(0 + p + p²).
		// p = 0.5: 0.5·(0.5 + 0.25) = 0.375; p = 0.8: 0.2·(0.8 + 0.64) = 0.288.
		{name: "rbp@0.5", metric: "rbp@0.5", want: []float64{0.375}},
		{name: "rbp@0.8", metric: "rbp@0.8", want: []float64{0.2 * (0.8 + 0.64)}},
		// Relevant = label >= 2: 0.5·0.25.
		{name: "rbp@0.5 relevant>=2", metric: "rbp@0.5", opt: Options{RelevantLabel: 2}, want: []float64{0.125}},

		// MAP: relevant at ranks 2 and 3: (1/2 + 2/3)/2 = 7/12.
		{name: "map", metric: "map", want: []float64{7.0 / 12}},
		// Relevant = label >= 2: one relevant, at rank 3: (1/3)/1.
		{name: "map relevant>=2", metric: "map", opt: Options{RelevantLabel: 2}, want: []float64{1.0 / 3}},
		// MAP@k: precision at the relevant ranks up to k, over all 2
		// relevant documents of the query (trec_eval's map_cut_k).
		{name: "map@2", metric: "map@2", want: []float64{(1.0 / 2) / 2}},
		{name: "map@1", metric: "map@1", want: []float64{0}},
		{name: "map@9 beyond query", metric: "map@9", want: []float64{7.0 / 12}},

		// RR: the first relevant document is at rank 2; at rank 3 for
		// relevant = label >= 2; none in the top 1.
		{name: "rr", metric: "rr", want: []float64{1.0 / 2}},
		{name: "rr@2", metric: "rr@2", want: []float64{1.0 / 2}},
		{name: "rr@1", metric: "rr@1", want: []float64{0}},
		{name: "rr relevant>=2", metric: "rr", opt: Options{RelevantLabel: 2}, want: []float64{1.0 / 3}},

		// Recall@k: relevant in the top k over the query's 2 relevant.
		{name: "recall@1", metric: "recall@1", want: []float64{0}},
		{name: "recall@2", metric: "recall@2", want: []float64{1.0 / 2}},
		{name: "recall@3", metric: "recall@3", want: []float64{1}},
		{name: "recall@2 relevant>=2", metric: "recall@2", opt: Options{RelevantLabel: 2}, want: []float64{0}},

		// Ties keep the input order: the relevant document is last of three
		// equal scores, so it is ranked 3rd.
		// NDCG = (1/log2 4)/(1/log2 2) = 1/2.
		{name: "tie ndcg", metric: "ndcg", labels: []float32{0, 0, 1}, scores: []float64{1, 1, 1}, want: []float64{0.5}},
		{name: "tie ndcg reversed", metric: "ndcg", labels: []float32{1, 0, 0}, scores: []float64{1, 1, 1}, want: []float64{1}},
		{name: "tie p@1", metric: "p@1", labels: []float32{0, 0, 1}, scores: []float64{1, 1, 1}, want: []float64{0}},
		{name: "tie map", metric: "map", labels: []float32{0, 0, 1}, scores: []float64{1, 1, 1}, want: []float64{1.0 / 3}},
		// lmax = 1, R(1) = 1/2 at rank 3: 1/3·1/2.
		{name: "tie err", metric: "err", labels: []float32{0, 0, 1}, scores: []float64{1, 1, 1}, want: []float64{1.0 / 6}},
		{name: "tie rbp@0.5", metric: "rbp@0.5", labels: []float32{0, 0, 1}, scores: []float64{1, 1, 1}, want: []float64{0.5 * 0.25}},
		// Two groups of ties: scores [0.5,0.7,0.5,0.7,0.5], labels [0,1,2,0,1]
		// rank as documents 1,3 (0.7) then 0,2,4 (0.5): labels [1,0,0,2,1].
		// DCG = 1 + 3/log2 5 + 1/log2 6; ideal [2,1,1,0,0]: 3 + 1/log2 3 + 1/2.
		{
			name: "two tie groups ndcg", metric: "ndcg",
			labels: []float32{0, 1, 2, 0, 1}, scores: []float64{0.5, 0.7, 0.5, 0.7, 0.5},
			want: []float64{(1 + 3/math.Log2(5) + 1/math.Log2(6)) / (3 + 1/l3 + 0.5)},
		},
		// Relevant at ranks 1, 4, 5: (1/1 + 2/4 + 3/5)/3 = 0.7.
		{
			name: "two tie groups map", metric: "map",
			labels: []float32{0, 1, 2, 0, 1}, scores: []float64{0.5, 0.7, 0.5, 0.7, 0.5},
			want: []float64{0.7},
		},
		// −0 and +0 are equal scores: input order.
		{name: "signed zeros tie", metric: "p@1", labels: []float32{0, 1}, scores: []float64{math.Copysign(0, -1), 0}, want: []float64{0}},
		// A NaN score ranks last: label 1 at rank 2, NDCG = (1/log2 3)/1.
		{name: "NaN score last", metric: "ndcg", labels: []float32{1, 0}, scores: []float64{nan, -5}, want: []float64{1 / l3}},

		// Fractional labels: gain 2^0.5 − 1 at rank 1, ideal the same.
		{name: "fractional label", metric: "ndcg@1", labels: []float32{0.5, 0}, scores: []float64{2, 1}, want: []float64{1}},

		// Several queries, the first without any relevant document.
		// Query 1: labels [1,0] ranked [1,0]: every metric at its best
		// (NDCG 1, P@1 1, MAP 1, ERR@1 with lmax 1 = 1/2, RBP@0.5 = 0.5).
		{name: "zero query ndcg", metric: "ndcg", labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{0, 1}},
		{name: "zero query ndcg excluded", metric: "ndcg", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		{name: "zero query err", metric: "err@1", labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{0, 0.5}},
		{name: "zero query err excluded", metric: "err@1", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 0.5}},
		{name: "zero query p@1", metric: "p@1", labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{0, 1}},
		{name: "zero query p@1 excluded", metric: "p@1", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		{name: "zero query rbp", metric: "rbp@0.5", labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{0, 0.5}},
		{name: "zero query rbp excluded", metric: "rbp@0.5", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 0.5}},
		{name: "zero query map", metric: "map", labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{0, 1}},
		{name: "zero query map excluded", metric: "map", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		{name: "zero query rr", metric: "rr", labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{0, 1}},
		{name: "zero query rr excluded", metric: "rr@1", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		{name: "zero query recall excluded", metric: "recall@1", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		{name: "zero query map@1 excluded", metric: "map@1", opt: Options{ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		// Ties keep input order: relevant at rank 3 of three equal scores.
		{name: "tie rr", metric: "rr", labels: []float32{0, 0, 1}, scores: []float64{1, 1, 1}, want: []float64{1.0 / 3}},
		{name: "tie recall@2", metric: "recall@2", labels: []float32{0, 0, 1}, scores: []float64{1, 1, 1}, want: []float64{0}},
		// Relevant at ranks 1, 4, 5 (two tie groups, as above): MAP@4 =
		// (1/1 + 2/4)/3 = 0.5; recall@4 = 2/3.
		{
			name: "two tie groups map@4", metric: "map@4",
			labels: []float32{0, 1, 2, 0, 1}, scores: []float64{0.5, 0.7, 0.5, 0.7, 0.5},
			want: []float64{0.5},
		},
		{
			name: "two tie groups recall@4", metric: "recall@4",
			labels: []float32{0, 1, 2, 0, 1}, scores: []float64{0.5, 0.7, 0.5, 0.7, 0.5},
			want: []float64{2.0 / 3},
		},
		// With relevant = label >= 2 query 1 has no relevant document for
		// P/MAP/RR/recall/RBP, but NDCG still counts its label 1.
		{name: "threshold excludes map", metric: "map", opt: Options{RelevantLabel: 2, ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, nan}},
		{name: "threshold keeps ndcg", metric: "ndcg", opt: Options{RelevantLabel: 2, ExcludeNoRelevant: true}, labels: []float32{0, 0, 1, 0}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		// Labels are float32: the label 0.7 of a file is float32(0.7), just
		// below the float64 0.7 of --relevant 0.7, and must still reach it.
		{name: "threshold equal to a float32 label p@1", metric: "p@1", opt: Options{RelevantLabel: 0.7}, labels: []float32{0.7, 0}, scores: []float64{2, 1}, want: []float64{1}},
		{name: "threshold equal to a float32 label map", metric: "map", opt: Options{RelevantLabel: 0.9, ExcludeNoRelevant: true}, labels: []float32{0, 0.9}, scores: []float64{2, 1}, want: []float64{0.5}},
		{name: "threshold equal to a float32 label rbp", metric: "rbp@0.5", opt: Options{RelevantLabel: 0.7}, labels: []float32{0.7, 0.7}, scores: []float64{2, 1}, want: []float64{0.75}},
		// A threshold below every positive float32 still leaves label 0 out.
		{name: "tiny threshold", metric: "p@2", opt: Options{RelevantLabel: 1e-50}, labels: []float32{0, 1e-30}, scores: []float64{2, 1}, want: []float64{0.5}},
		// Negative labels (the -1/+1 data sets the reader accepts) are not
		// relevant: gain 0 and R 0, as a label of 0, never a negative gain.
		// Labels [-1, 1] ranked [-1, 1]: DCG = 0 + 1/log2 3, IDCG = 1, so
		// NDCG = 1/log2 3; ERR with lmax 1: R(-1) = 0, R(1) = 1/2, so
		// ERR = 1/2·1/2 = 1/4. The query of labels [-1, -1] has no relevant
		// document.
		{name: "negative label ndcg", metric: "ndcg", labels: []float32{-1, 1}, scores: []float64{2, 1}, want: []float64{1 / l3}},
		{name: "negative label err", metric: "err@3", labels: []float32{-1, 1}, scores: []float64{2, 1}, want: []float64{0.25}},
		{name: "negative labels only ndcg", metric: "ndcg", labels: []float32{-1, -1, 1, -1}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{0, 1}},
		{name: "negative labels only ndcg excluded", metric: "ndcg@10", opt: Options{ExcludeNoRelevant: true}, labels: []float32{-1, -1, 1, -1}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 1}},
		{name: "negative labels only err excluded", metric: "err@1", opt: Options{ExcludeNoRelevant: true}, labels: []float32{-1, -1, 1, -1}, scores: []float64{1, 2, 0.2, 0.1}, offsets: []int{0, 2, 4}, want: []float64{nan, 0.5}},
		// An empty query has no relevant document.
		{name: "empty query", metric: "ndcg@10", labels: []float32{1}, scores: []float64{1}, offsets: []int{0, 0, 1}, want: []float64{0, 1}},
		{name: "empty query excluded", metric: "p@10", opt: Options{ExcludeNoRelevant: true}, labels: []float32{1}, scores: []float64{1}, offsets: []int{0, 0, 1}, want: []float64{nan, 0.1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := Parse(tt.metric)
			if err != nil {
				t.Fatal(err)
			}
			labels, scores, offsets := tt.labels, tt.scores, tt.offsets
			if labels == nil {
				labels, scores = handLabels, handScores
			}
			if offsets == nil {
				offsets = []int{0, len(labels)}
			}
			got := PerQuery(spec, scores, labels, offsets, tt.opt, nil)
			if len(got) != len(tt.want) {
				t.Fatalf("PerQuery returned %d values, want %d", len(got), len(tt.want))
			}
			for q := range got {
				if !near(got[q], tt.want[q], 1e-12) {
					t.Errorf("query %d: %s = %.15g, want %.15g", q, spec, got[q], tt.want[q])
				}
			}
			wantMean, n := 0.0, 0
			for _, v := range tt.want {
				if !math.IsNaN(v) {
					wantMean += v
					n++
				}
			}
			wantMean /= float64(n) // NaN when every query is excluded
			if m := Mean(spec, scores, labels, offsets, tt.opt); !near(m, wantMean, 1e-12) {
				t.Errorf("Mean = %.15g, want %.15g", m, wantMean)
			}
		})
	}
}

// near reports whether a and b agree within tol, NaN agreeing with NaN.
func near(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}

// TestRankStable checks the ranking against a direct construction: scores
// from a handful of values (so most are tied), then for each distinct score
// from high to low its documents in input order, NaN last. Sizes straddle the
// insertion-sort thresholds of the standard library's sorts (12 for the
// pattern-defeating quicksort rank uses, 20 for the stable sort it used
// before).
func TestRankStable(t *testing.T) {
	values := []float64{2, 1, 0, math.Copysign(0, -1), -1, math.NaN()}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 5, 19, 20, 21, 40, 100, 333} {
		scores := make([]float64, n+3) // 3 documents of another query before
		for i := range scores {
			scores[i] = values[r.IntN(len(values))]
		}
		var want []int
		for _, v := range []float64{2, 1, 0, -1} { // 0 == −0: one group
			for i := 3; i < n+3; i++ {
				if scores[i] == v {
					want = append(want, i)
				}
			}
		}
		for i := 3; i < n+3; i++ {
			if math.IsNaN(scores[i]) {
				want = append(want, i)
			}
		}
		e := newEvaluator(Spec{Name: MAP}, scores, make([]float32, n+3), []int{0, 3, n + 3}, Options{})
		got := e.rank(3, n+3)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("n=%d: rank %d holds document %d, want %d\ngot  %v\nwant %v", n, i+1, got[i], want[i], got, want)
			}
		}
	}
}

// TestRankTop checks that rankTop gives the first k documents of the
// ranking TestRankStable spells out (scores from a handful of values, most
// tied, NaN last), and idealTop the k largest labels, largest first, for
// cut-offs on both sides of topBelow and of the query's size, on random
// orders and on scores rising or falling along the query (every document
// then enters the buffer, or none after the first k).
func TestRankTop(t *testing.T) {
	values := []float64{2, 1, 0, math.Copysign(0, -1), -1, math.NaN()}
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 5, 19, 40, 100, 333} {
		for _, order := range []string{"random", "rising", "falling"} {
			scores := make([]float64, n+3) // 3 documents of another query before
			labels := make([]float32, n+3)
			for i := range scores {
				scores[i] = values[r.IntN(len(values))]
				labels[i] = float32(r.IntN(5))
				switch order {
				case "rising":
					scores[i] = float64(i / 3) // ties in threes
				case "falling":
					scores[i] = -float64(i / 3)
				}
			}
			var want []int
			for _, v := range []float64{2, 1, 0, -1} { // 0 == −0: one group
				for i := 3; i < n+3; i++ {
					if scores[i] == v {
						want = append(want, i)
					}
				}
			}
			if order != "random" {
				want = want[:0]
				for i := 3; i < n+3; i++ {
					want = append(want, i)
				}
				if order == "rising" { // highest first, each three in input order
					slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
				}
			}
			for i := 3; i < n+3; i++ {
				if math.IsNaN(scores[i]) {
					want = append(want, i)
				}
			}
			ideal := slices.Clone(labels[3:])
			slices.Sort(ideal)
			slices.Reverse(ideal)
			for _, k := range []int{1, 2, 3, 10, topBelow, topBelow + 1, 50, 400} {
				e := newEvaluator(Spec{Name: NDCG, K: k}, scores, labels, []int{0, 3, n + 3}, Options{})
				m := min(k, n)
				if got := e.rankTop(3, n+3, k); !slices.Equal(got, want[:m]) {
					t.Fatalf("n=%d %s k=%d: rankTop = %v, want %v", n, order, k, got, want[:m])
				}
				if got := e.idealTop(3, n+3, k); !slices.Equal(got, ideal[:m]) {
					t.Fatalf("n=%d %s k=%d: idealTop = %v, want %v", n, order, k, got, ideal[:m])
				}
			}
		}
	}
}

// TestNDCGOfIdealRanking checks that scoring by label gives NDCG 1 for every
// query with a relevant document, at every cut-off.
func TestNDCGOfIdealRanking(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var labels []float32
	offsets := []int{0}
	for range 50 {
		n := 1 + r.IntN(30)
		for range n {
			labels = append(labels, float32(r.IntN(5)))
		}
		offsets = append(offsets, len(labels))
	}
	scores := make([]float64, len(labels))
	for i, l := range labels {
		scores[i] = float64(l)
	}
	for _, k := range []int{0, 1, 3, 10, 100} {
		spec := Spec{Name: NDCG, K: k}
		for q, v := range PerQuery(spec, scores, labels, offsets, Options{ExcludeNoRelevant: true}, nil) {
			if !math.IsNaN(v) && math.Abs(v-1) > 1e-12 {
				t.Errorf("%s query %d = %v, want 1", spec, q, v)
			}
		}
	}
}

func TestPerQueryReusesDst(t *testing.T) {
	dst := make([]float64, 0, 8)
	got := PerQuery(Spec{Name: MAP}, handScores, handLabels, []int{0, 3}, Options{}, dst)
	if &got[0] != &dst[:1][0] {
		t.Error("PerQuery allocated although dst had the capacity")
	}
}

// TestMeanAllocations checks that Mean allocates its scratch space once, not
// once per query.
func TestMeanAllocations(t *testing.T) {
	scores, labels, offsets := benchData(200, 50)
	for _, name := range []string{"ndcg@10", "err@10", "p@10", "rbp@0.8", "map"} {
		spec, err := Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(10, func() { Mean(spec, scores, labels, offsets, Options{}) })
		if allocs > 4 {
			t.Errorf("%s: %v allocations per Mean over 200 queries, want at most 4", name, allocs)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Spec
		str  string
	}{
		{"ndcg@10", Spec{Name: NDCG, K: 10}, "ndcg@10"},
		{"NDCG@10", Spec{Name: NDCG, K: 10}, "ndcg@10"},
		{" ndcg@5 ", Spec{Name: NDCG, K: 5}, "ndcg@5"},
		{"ndcg", Spec{Name: NDCG}, "ndcg"},
		{"err@3", Spec{Name: ERR, K: 3}, "err@3"},
		{"ERR", Spec{Name: ERR}, "err"},
		{"p@5", Spec{Name: Precision, K: 5}, "p@5"},
		{"P@5", Spec{Name: Precision, K: 5}, "p@5"},
		{"precision@10", Spec{Name: Precision, K: 10}, "p@10"},
		{"rbp@0.8", Spec{Name: RBP, P: 0.8}, "rbp@0.8"},
		{"RBP@.5", Spec{Name: RBP, P: 0.5}, "rbp@0.5"},
		{"rbp@0.95", Spec{Name: RBP, P: 0.95}, "rbp@0.95"},
		{"map", Spec{Name: MAP}, "map"},
		{"MAP", Spec{Name: MAP}, "map"},
		{"map@10", Spec{Name: MAP, K: 10}, "map@10"},
		{"rr", Spec{Name: RR}, "rr"},
		{"MRR@10", Spec{Name: RR, K: 10}, "rr@10"},
		{"mrr", Spec{Name: RR}, "rr"},
		{"recall@100", Spec{Name: Recall, K: 100}, "recall@100"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		if s := got.String(); s != tt.str {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, s, tt.str)
		}
		back, err := Parse(got.String())
		if err != nil || back != got {
			t.Errorf("Parse(%q) = %+v, %v; want %+v (round trip)", got.String(), back, err, got)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{"ndcg@0", "not a positive whole number"},
		{"ndcg@-1", "not a positive whole number"},
		{"ndcg@", "not a positive whole number"},
		{"ndcg@ten", "not a positive whole number"},
		{"ndcg@99999999999999999999", "is too large (at most " + strconv.Itoa(math.MaxInt) + ")"},
		{"p@-99999999999999999999", "not a positive whole number"},
		{"ndcg@1.5", "not a positive whole number"},
		{"ndcg@10-", "not a positive whole number"},
		{"p", "precision needs a positive cut-off"},
		{"err@0", "not a positive whole number"},
		{"rbp@1.5", "not in (0, 1)"},
		{"rbp@1", "not in (0, 1)"},
		{"rbp@0", "not in (0, 1)"},
		{"rbp@-0.2", "not in (0, 1)"},
		{"rbp@NaN", "not in (0, 1)"},
		{"rbp@high", "not a number"},
		{"rbp@0_8", "not a number"},    // Go's syntax, which ParseFloat takes: 8
		{"rbp@0x1p-1", "not a number"}, // and 0.5
		{"rbp", "needs a persistence"},
		{"map@0", "not a positive whole number"},
		{"rr@-2", "not a positive whole number"},
		{"recall", "recall needs a positive cut-off"},
		{"recall@0", "not a positive whole number"},
		{"foo", "unknown metric"},
		{"ndgc@10", "unknown metric"},
		{"", "empty metric name"},
		{"@5", "empty metric name"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", tt.in)
			continue
		}
		if !strings.Contains(err.Error(), tt.msg) || !strings.Contains(err.Error(), `"`+tt.in+`"`) {
			t.Errorf("Parse(%q) error %q, want it to quote the input and say %q", tt.in, err, tt.msg)
		}
	}
}

func TestParseList(t *testing.T) {
	got, err := ParseList("ndcg@10, err@10,P@5,rbp@0.8 ,map")
	if err != nil {
		t.Fatal(err)
	}
	want := []Spec{{Name: NDCG, K: 10}, {Name: ERR, K: 10}, {Name: Precision, K: 5}, {Name: RBP, P: 0.8}, {Name: MAP}}
	if len(got) != len(want) {
		t.Fatalf("ParseList = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ParseList [%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"", "  ", "ndcg@10,,map", "ndcg@10,foo", "ndcg@10,", "map,map", "P@5,p@05"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("ParseList(%q) succeeded, want an error", bad)
		}
	}
	// A metric twice (under any spelling) would be two columns of one name in
	// --per-query's TSV and one key in --json: refused, naming both spellings.
	_, err = ParseList("ndcg@10,rbp@0.80,map,rbp@0.8")
	if want := `metric "rbp@0.8": given twice (as "rbp@0.80" before)`; err == nil || err.Error() != want {
		t.Errorf("ParseList with rbp@0.8 twice: %v, want %q", err, want)
	}
}

func TestConvention(t *testing.T) {
	tests := []struct {
		opt  Options
		want string
	}{
		{Options{}, "NDCG: gain 2^l-1, discount log2(rank+1), ideal DCG at the same cut-off; " +
			"ERR: R=(2^l-1)/2^lmax, lmax=largest label; P@k: relevant in top k / k; " +
			"NDCG/ERR: relevant = label > 0; P/MAP/RR/recall/RBP: relevant = label >= 1; queries without relevant documents score 0; ties broken by input order"},
		{Options{RelevantLabel: 2, MaxLabel: 4, ExcludeNoRelevant: true}, "NDCG: gain 2^l-1, discount log2(rank+1), ideal DCG at the same cut-off; " +
			"ERR: R=(2^l-1)/2^lmax, lmax=4; P@k: relevant in top k / k; " +
			"NDCG/ERR: relevant = label > 0; P/MAP/RR/recall/RBP: relevant = label >= 2; queries without relevant documents are left out of the mean; ties broken by input order"},
	}
	for _, tt := range tests {
		if got := Convention(tt.opt); got != tt.want {
			t.Errorf("Convention(%+v) =\n%s\nwant\n%s", tt.opt, got, tt.want)
		}
	}
}

func TestPanics(t *testing.T) {
	ndcg := Spec{Name: NDCG, K: 10}
	tests := []struct {
		name string
		f    func()
		msg  string
	}{
		{"length mismatch", func() { Mean(ndcg, []float64{1, 2}, []float32{1}, []int{0, 2}, Options{}) }, "2 scores but 1 labels"},
		{"offsets not from 0", func() { Mean(ndcg, []float64{1}, []float32{1}, []int{1, 1}, Options{}) }, "offsets must run from 0"},
		{"offsets short", func() { Mean(ndcg, []float64{1, 2}, []float32{1, 0}, []int{0, 1}, Options{}) }, "offsets must run from 0"},
		{"offsets empty", func() { Mean(ndcg, nil, nil, nil, Options{}) }, "offsets must run from 0"},
		{"offsets decrease", func() { Mean(ndcg, []float64{1, 2}, []float32{1, 0}, []int{0, 2, 1, 2}, Options{}) }, "offsets decrease at query 1"},
		{"bad spec", func() { Mean(Spec{Name: "foo"}, nil, nil, []int{0}, Options{}) }, `unknown metric "foo"`},
		{"bad rbp", func() { PerQuery(Spec{Name: RBP, P: 2}, nil, nil, []int{0}, Options{}, nil) }, "not in (0, 1)"},
		{"negative threshold", func() { Mean(ndcg, nil, nil, []int{0}, Options{RelevantLabel: -1}) }, "RelevantLabel"},
		{"negative lmax", func() { Convention(Options{MaxLabel: -1}) }, "MaxLabel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatal("no panic")
				}
				if s, _ := r.(string); !strings.Contains(s, tt.msg) {
					t.Errorf("panic %v, want it to say %q", r, tt.msg)
				}
			}()
			tt.f()
		})
	}
}

func TestMeanNoQueries(t *testing.T) {
	if m := Mean(Spec{Name: NDCG, K: 10}, nil, nil, []int{0}, Options{}); !math.IsNaN(m) {
		t.Errorf("Mean over no query = %v, want NaN", m)
	}
}

// benchData makes nq queries of n documents: labels 0-4 (mostly 0, as in
// web data), random scores.
func benchData(nq, n int) (scores []float64, labels []float32, offsets []int) {
	r := rand.New(rand.NewPCG(5, 6))
	scores = make([]float64, nq*n)
	labels = make([]float32, nq*n)
	offsets = make([]int, nq+1)
	for i := range scores {
		scores[i] = r.NormFloat64()
		labels[i] = float32(max(0, r.IntN(8)-3))
	}
	for q := range offsets {
		offsets[q] = q * n
	}
	return scores, labels, offsets
}

func BenchmarkMean(b *testing.B) {
	const nq, n = 1000, 100
	scores, labels, offsets := benchData(nq, n)
	spec := Spec{Name: NDCG, K: 10}
	b.ReportAllocs()
	for b.Loop() {
		Mean(spec, scores, labels, offsets, Options{})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nq*n), "ns/doc")
}

// BenchmarkMeanMQ2008 is Mean over the MQ2008 test fixture's 156 queries
// (2,874 documents, 5 to 119 a query), the metrics training and the
// cascade's reports measure after every tree or step.
func BenchmarkMeanMQ2008(b *testing.B) {
	scores, labels, offsets := readMQ2008(b)
	for _, name := range []string{"ndcg@10", "err@3", "p@5", "map"} {
		spec, err := Parse(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Mean(spec, scores, labels, offsets, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(scores)), "ns/doc")
		})
	}
}

// readMQ2008 reads the scores and labels of the MQ2008 test fixture
// (testdata/mq2008-test.scores.txt and .labels.txt, a qid and a label a
// line), a query a run of one qid.
func readMQ2008(b *testing.B) (scores []float64, labels []float32, offsets []int) {
	sc, err := os.ReadFile("testdata/mq2008-test.scores.txt")
	if err != nil {
		b.Fatal(err)
	}
	lb, err := os.ReadFile("testdata/mq2008-test.labels.txt")
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range strings.Fields(string(sc)) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			b.Fatal(err)
		}
		scores = append(scores, v)
	}
	prev := ""
	for i, line := range strings.Split(strings.TrimSpace(string(lb)), "\n") {
		qid, l, _ := strings.Cut(line, " ")
		v, err := strconv.ParseFloat(l, 32)
		if err != nil {
			b.Fatal(err)
		}
		if qid != prev {
			offsets = append(offsets, i)
			prev = qid
		}
		labels = append(labels, float32(v))
	}
	offsets = append(offsets, len(labels))
	if len(labels) != len(scores) {
		b.Fatalf("%d labels, %d scores", len(labels), len(scores))
	}
	return scores, labels, offsets
}

func TestEnsembleCost(t *testing.T) {
	got := EnsembleCost([]int{0, 3}, []float64{1, 10, 20, 50}, 7, 1)
	if got != (Cost{Total: 58, Features: 51, Trees: 7}) {
		t.Errorf("got %+v", got)
	}
}

// Labels are any finite numbers: above 1023, 2^label overflows float64, and
// NDCG and ERR must still be the ratio of gains, not NaN. The hand-worked
// query with 1099 added to its relevant labels, [1101, 0, 1100], ranks
// them [0, 1100, 1101]; with 2^l − 1 = 2^l to 2^-1100 relative, NDCG@3 is
// (2^1100/log2 3 + 2^1101/2)/(2^1101 + 2^1100/log2 3) = (1/l3 + 1)/(2 + 1/l3)
// and ERR@3, R = 1/2 and 1 below lmax = 1101, is 0.5/2 + 0.5·1/3.
func TestHugeLabels(t *testing.T) {
	labels := []float32{1101, 0, 1100}
	cases := []struct {
		spec Spec
		want float64
	}{
		{Spec{Name: NDCG, K: 3}, (1/l3 + 1) / (2 + 1/l3)},
		{Spec{Name: NDCG, K: 1}, 0},
		{Spec{Name: NDCG, K: 2}, (1 / l3) / (2 + 1/l3)},
		{Spec{Name: ERR, K: 3}, 0.25 + 0.5/3},
	}
	for _, c := range cases {
		got := PerQuery(c.spec, handScores, labels, []int{0, 3}, Options{}, nil)[0]
		if !(math.Abs(got-c.want) < 1e-12) {
			t.Errorf("%v of labels %v = %v, want %v", c.spec, labels, got, c.want)
		}
	}
}

// TestTinyLabels: a label just above 0 is relevant for NDCG with its own
// gain; 2^l − 1 computed as Exp2(l) − 1 was 0 below 1.6e-16, so the query
// had no ideal DCG and scored 0 (NaN with ExcludeNoRelevant).
func TestTinyLabels(t *testing.T) {
	scores := []float64{1, 2} // the relevant document second
	for _, l := range []float32{1e-20, 1e-30, 0.25} {
		labels := []float32{l, 0}
		got := PerQuery(Spec{Name: NDCG, K: 2}, scores, labels, []int{0, 2}, Options{ExcludeNoRelevant: true}, nil)[0]
		if want := 1 / l3; math.Abs(got-want) > 1e-12 {
			t.Errorf("NDCG@2 with label %g second = %v, want 1/log2(3) = %v", l, got, want)
		}
	}
	// The gain itself, against 2^l − 1 to first order (l ln 2) and exactly.
	tiny := float32(1e-20)
	if g, want := Gain(tiny), float64(tiny)*math.Ln2; math.Abs(g-want) > 1e-15*want {
		t.Errorf("Gain(%g) = %g, want %g", tiny, g, want)
	}
	for _, l := range []float32{1, 2, 3, 4, 31} {
		if g, want := Gain(l), math.Exp2(float64(l))-1; g != want {
			t.Errorf("Gain(%g) = %v, want %v", l, g, want)
		}
	}
}

// TestCutoffMetricsAgainstDefinitions: MAP@k, RR@k and recall@k on random
// queries (ties, labels 0-4, cut-offs from 1 past the query's length, the
// fast top-k path and the full sort) equal their definitions computed on a
// stable sort of the query: Σ_{relevant r ≤ k} hits(r)/r / relevant,
// 1/(first relevant rank ≤ k), hits in the top k / relevant.
func TestCutoffMetricsAgainstDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for trial := range 400 {
		n := 1 + r.IntN(60)
		labels := make([]float32, n)
		scores := make([]float64, n)
		for i := range n {
			labels[i] = float32(r.IntN(5))
			scores[i] = float64(r.IntN(8)) // ties
		}
		k := 1 + r.IntN(n+40)
		rel := float32(1 + r.IntN(3))
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
		total, hits, first := 0, 0, 0
		ap := 0.0
		for _, l := range labels {
			if l >= rel {
				total++
			}
		}
		for pos, i := range idx[:min(k, n)] {
			if labels[i] >= rel {
				hits++
				ap += float64(hits) / float64(pos+1)
				if first == 0 {
					first = pos + 1
				}
			}
		}
		want := map[string]float64{"map": 0, "rr": 0, "recall": 0}
		if total > 0 {
			want["map"] = ap / float64(total)
			want["recall"] = float64(hits) / float64(total)
			if first > 0 {
				want["rr"] = 1 / float64(first)
			}
		}
		for name, w := range want {
			spec := Spec{Name: name, K: k}
			got := PerQuery(spec, scores, labels, []int{0, n}, Options{RelevantLabel: float64(rel)}, nil)[0]
			if math.Abs(got-w) > 1e-12 {
				t.Fatalf("trial %d: %s (relevant %v) = %v, want %v", trial, spec, rel, got, w)
			}
		}
	}
}

// ERR's R_i = (2^l_i − 1)/2^lmax takes lmax from the labels even when it is
// below 1: labels {0.5, 0}, the 0.5 first, give R_1 = (2^0.5 − 1)/2^0.5 =
// 1 − 2^−0.5 and ERR = R_1.
func TestERRFractionalMaxLabel(t *testing.T) {
	got := PerQuery(Spec{Name: ERR}, []float64{2, 1}, []float32{0.5, 0}, []int{0, 2}, Options{}, nil)[0]
	if want := 1 - math.Pow(2, -0.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("ERR %v, want %v", got, want)
	}
}
