package baseline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// threeStumps is an ensemble of three stumps over two features, feature 0
// costing 1 and feature 1 costing 10, and one query of four documents:
//
//	doc  f0 f1 label   after tree 1   2    3
//	d0   0  1  2               -1     2    2
//	d1   1  0  1                1     1    1
//	d2   2  0  0                1     1    1.5
//	d3   0  0  0               -1    -1   -1
func threeStumps(t *testing.T) (*tree.Ensemble, *data.Dataset) {
	e := &tree.Ensemble{
		Trees: []tree.Tree{
			stump(0, 0.5, -1, 1),
			stump(1, 0.5, 0, 3),
			stump(0, 1.5, 0, 0.5),
		},
		NumFeatures: 2,
		Objective:   "regression",
	}
	d := handData(t, [][]float32{{0, 1, 2, 0}, {1, 0, 0, 0}}, []float32{2, 1, 0, 0}, 4)
	return e, d
}

func TestPrefixHandWorked(t *testing.T) {
	e, d := threeStumps(t)
	// Gains 3 (label 2) and 1 (label 1); the ideal order has them at ranks 1
	// and 2.
	idcg := 3 + 1/math.Log2(3)
	cases := []struct {
		k     int
		order string // ranking, for the reader
		cost  metric.Cost
		ndcg  float64
	}{
		{0, "d0 d1 d2 d3 (all tie: input order)", metric.Cost{}, 1},
		{1, "d1 d2 d0 d3", metric.Cost{Total: 2, Features: 1, Trees: 1}, (1 + 3/math.Log2(4)) / idcg},
		{2, "d0 d1 d2 d3", metric.Cost{Total: 13, Features: 11, Trees: 2}, 1},
		{3, "d0 d2 d1 d3", metric.Cost{Total: 14, Features: 11, Trees: 3}, (3 + 1/math.Log2(4)) / idcg},
	}
	// Out of order and repeated on purpose: one point per distinct k, sorted.
	points := noErr(t)(Prefix(context.Background(), e, d, "test", []float64{1, 10}, 1, []int{3, 1, 0, 3, 2}, mustSpecs(t, "ndcg@10,p@5"), metric.Options{}))
	if len(points) != len(cases) {
		t.Fatalf("%d points, want %d", len(points), len(cases))
	}
	for i, c := range cases {
		p := points[i]
		if p.Method != "prefix" || p.Split != "test" || p.Lambda != float64(c.k) {
			t.Errorf("k=%d: point %q %q λ=%v", c.k, p.Method, p.Split, p.Lambda)
		}
		checkCost(t, "k="+c.order, p.Cost, c.cost)
		if !near(p.Metrics["ndcg@10"], c.ndcg, 1e-12) {
			t.Errorf("k=%d (%s): ndcg@10 = %v, want %v", c.k, c.order, p.Metrics["ndcg@10"], c.ndcg)
		}
		// Two relevant documents in a query of four: 2/5 whatever the order.
		if p.Metrics["p@5"] != 0.4 {
			t.Errorf("k=%d: p@5 = %v, want 0.4", c.k, p.Metrics["p@5"])
		}
	}
}

// The running scores are those of Ensemble.Predict with the first k trees,
// bit for bit, on a data set larger than one block of documents.
func TestScorerMatchesPredict(t *testing.T) {
	e, d := trainedModel(t)
	s := newScorer(e, d)
	for _, k := range []int{0, 1, 7, 8, 30, len(e.Trees)} {
		s.advance(k)
		want := e.Predict(nil, d.Cols, d.NumDocs(), k)
		if !reflect.DeepEqual(s.scores, want) {
			t.Fatalf("k=%d: running scores differ from Predict", k)
		}
	}
}

func TestPrefixSteps(t *testing.T) {
	cases := []struct {
		T, n int
		want []int
	}{
		{1000, 10, []int{1, 2, 4, 9, 20, 44, 96, 210, 458, 1000}},
		{5, 10, []int{1, 2, 3, 4, 5}},
		{10, 10, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{11, 10, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 11}},
		{1, 5, []int{1}},
		{100, 1, []int{100}},
		{100, 0, []int{100}},
		{7, 2, []int{1, 7}},
	}
	for _, c := range cases {
		if got := PrefixSteps(c.T, c.n); !reflect.DeepEqual(got, c.want) {
			t.Errorf("PrefixSteps(%d, %d) = %v, want %v", c.T, c.n, got, c.want)
		}
	}
	for _, T := range []int{12, 50, 500, 5000, 123457} {
		for _, n := range []int{3, 20, 60} {
			ks := PrefixSteps(T, n)
			if len(ks) != min(n, T) || ks[0] != 1 || ks[len(ks)-1] != T {
				t.Errorf("PrefixSteps(%d, %d) = %v", T, n, ks)
			}
			for i := 1; i < len(ks); i++ {
				if ks[i] <= ks[i-1] {
					t.Errorf("PrefixSteps(%d, %d) = %v: not increasing", T, n, ks)
				}
			}
		}
	}
}

func TestPrefixPanics(t *testing.T) {
	e, d := threeStumps(t)
	ctx := context.Background()
	cases := map[string]func(){
		"k > T":          func() { Prefix(ctx, e, d, "", []float64{1, 10}, 1, []int{4}, nil, metric.Options{}) },
		"k < 0":          func() { Prefix(ctx, e, d, "", []float64{1, 10}, 1, []int{-1}, nil, metric.Options{}) },
		"few costs":      func() { Prefix(ctx, e, d, "", []float64{1}, 1, []int{1}, nil, metric.Options{}) },
		"NaN tree cost":  func() { Prefix(ctx, e, d, "", []float64{1, 10}, math.NaN(), []int{1}, nil, metric.Options{}) },
		"no trees":       func() { PrefixSteps(0, 3) },
		"every 0":        func() { EarlyExit(ctx, e, d, "", []float64{1, 10}, 1, 0, []float64{1}, nil, metric.Options{}) },
		"negative scale": func() { EarlyExit(ctx, e, d, "", []float64{1, 10}, 1, 1, []float64{-1}, nil, metric.Options{}) },
		"NaN scale":      func() { EarlyExit(ctx, e, d, "", []float64{1, 10}, 1, 1, []float64{math.NaN()}, nil, metric.Options{}) },
		"too few columns": func() {
			Prefix(ctx, e, handData(t, [][]float32{{0}}, []float32{0}, 1), "", []float64{1, 10}, 1, nil, nil, metric.Options{})
		},
	}
	for name, f := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// A baseline whose context is done returns its error and no points, as
// sweep needs to stop on an interrupt (it scored on and exited 0).
func TestBaselinesCancelled(t *testing.T) {
	e, d := threeStumps(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	specs := mustSpecs(t, "ndcg@10")
	if points, err := Prefix(ctx, e, d, "test", []float64{1, 10}, 1, []int{1, 3}, specs, metric.Options{}); !errors.Is(err, context.Canceled) || len(points) > 0 {
		t.Errorf("Prefix: %d points, error %v; want none and %v", len(points), err, context.Canceled)
	}
	for _, every := range []int{1, 3} { // exits before the end; only the end
		if points, err := EarlyExit(ctx, e, d, "test", []float64{1, 10}, 1, every, []float64{0, math.Inf(1)}, specs, metric.Options{}); !errors.Is(err, context.Canceled) || len(points) > 0 {
			t.Errorf("EarlyExit every %d: %d points, error %v; want none and %v", every, len(points), err, context.Canceled)
		}
	}
}

// KeepPrefix keeps the counts of steps and, split by split, each count
// above every shorter prefix: here valid's 1, 2, 5 and test's 1, 4 with
// steps 1 and 6, so that only 3 goes; other methods pass through.
func TestKeepPrefixHand(t *testing.T) {
	valid := []float64{0.3, 0.5, 0.4, 0.45, 0.6, 0.2}
	test := []float64{0.2, 0.1, 0.15, 0.3, 0.25, 0.1}
	var points []Point
	for _, s := range []struct {
		name string
		ndcg []float64
	}{{"valid", valid}, {"test", test}} {
		for k, v := range s.ndcg {
			points = append(points, Point{Method: MethodPrefix, Split: s.name, Lambda: float64(k + 1), Metrics: map[string]float64{"ndcg@10": v}})
		}
		points = append(points, Point{Method: MethodEarlyExit, Split: s.name, Lambda: 0.5, Metrics: map[string]float64{"ndcg@10": 0}})
	}
	var got []string
	for _, p := range KeepPrefix(points, []int{1, 6}, "ndcg@10") {
		got = append(got, fmt.Sprintf("%s %s %g", p.Method, p.Split, p.Lambda))
	}
	want := []string{
		"prefix valid 1", "prefix valid 2", "prefix valid 4", "prefix valid 5", "prefix valid 6", "early-exit valid 0.5",
		"prefix test 1", "prefix test 2", "prefix test 4", "prefix test 5", "prefix test 6", "early-exit test 0.5",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
}

// On a trained ensemble the kept prefixes make the same front as every
// prefix, and PrefixSteps' 12 counts alone can miss some of it.
func TestKeepPrefixFront(t *testing.T) {
	e, d := trainedModel(t)
	specs := mustSpecs(t, "ndcg@10")
	all := noErr(t)(Prefix(context.Background(), e, d, "test", mq2008.costs, 1, AllSteps(len(e.Trees)), specs, metric.Options{}))
	if len(all) != len(e.Trees) {
		t.Fatalf("%d points for %d trees", len(all), len(e.Trees))
	}
	kept := KeepPrefix(all, PrefixSteps(len(e.Trees), 12), "ndcg@10")
	want := SplitPareto(all, "test", "ndcg@10")
	if got := SplitPareto(kept, "test", "ndcg@10"); !reflect.DeepEqual(got, want) {
		t.Errorf("front of the kept prefixes %v, of all %v", got, want)
	}
	steps := noErr(t)(Prefix(context.Background(), e, d, "test", mq2008.costs, 1, PrefixSteps(len(e.Trees), 12), specs, metric.Options{}))
	if got := SplitPareto(steps, "test", "ndcg@10"); reflect.DeepEqual(got, want) {
		t.Errorf("here the 12 geometric counts already make the whole front (%d points): the test shows nothing", len(want))
	}
	if len(kept) >= len(all) {
		t.Errorf("kept all %d prefixes", len(all))
	}
}

// KeepPrefix keeps a count only when its metric is strictly above every
// shorter prefix's: a tie is dominated (costs more, scores no more). The
// first prefix of a split has no shorter one, so it is kept even at 0 (a
// split without a relevant document).
func TestKeepPrefixTiesAndZero(t *testing.T) {
	kept := func(ndcg ...float64) []float64 {
		var points []Point
		for k, v := range ndcg {
			points = append(points, Point{Method: MethodPrefix, Split: "valid", Lambda: float64(k + 1), Metrics: map[string]float64{"ndcg@10": v}})
		}
		var ks []float64
		for _, p := range KeepPrefix(points, nil, "ndcg@10") {
			ks = append(ks, p.Lambda)
		}
		return ks
	}
	if got := kept(0.5, 0.5, 0.6, 0.6); !reflect.DeepEqual(got, []float64{1, 3}) {
		t.Errorf("ties: kept %v, want [1 3]", got)
	}
	if got := kept(0, 0, 0); !reflect.DeepEqual(got, []float64{1}) {
		t.Errorf("all 0: kept %v, want [1]", got)
	}
}

// Prefix's points carry each metric on each query (PerQuery), whose mean
// is Metrics'. threeStumps has one query: NDCG@10 (1 + 3/2)/idcg at k = 1,
// 1 at k = 2 (TestPrefixHandWorked); p@5 2/5 at both.
func TestPrefixPerQuery(t *testing.T) {
	e, d := threeStumps(t)
	idcg := 3 + 1/math.Log2(3)
	points := noErr(t)(Prefix(context.Background(), e, d, "test", []float64{1, 10}, 1, []int{1, 2}, mustSpecs(t, "ndcg@10,p@5"), metric.Options{}))
	for i, want := range []float64{(1 + 3/math.Log2(4)) / idcg, 1} {
		pq := points[i].PerQuery
		if len(pq["ndcg@10"]) != 1 || !near(pq["ndcg@10"][0], want, 1e-12) || !reflect.DeepEqual(pq["p@5"], []float64{0.4}) {
			t.Errorf("k=%d: PerQuery %v, want ndcg@10 [%v] and p@5 [0.4]", i+1, pq, want)
		}
	}
}

// A missing value (NaN) goes where the node says (Node.DefaultLeft), as in
// Ensemble.Predict: right, here. The block of four documents is walked by
// the unrolled loop, which assumes no NaN unless told.
func TestScorerNaN(t *testing.T) {
	e := &tree.Ensemble{Trees: []tree.Tree{stump(0, 0.5, 1, 2)}, NumFeatures: 1, Objective: "regression"}
	d := handData(t, [][]float32{{0, 1, float32(math.NaN()), 0}}, []float32{0, 0, 0, 0}, 4)
	s := newScorer(e, d)
	s.advance(1)
	if want := []float64{1, 2, 2, 1}; !reflect.DeepEqual(s.scores, want) {
		t.Errorf("scores %v, want %v (NaN goes right)", s.scores, want)
	}
}

// A tree cost of 0 is allowed (features alone are priced); +Inf is not.
func TestTreeCostBounds(t *testing.T) {
	e, d := threeStumps(t)
	points := noErr(t)(Prefix(context.Background(), e, d, "test", []float64{1, 10}, 0, []int{2}, mustSpecs(t, "ndcg@10"), metric.Options{}))
	checkCost(t, "tree cost 0, k=2", points[0].Cost, metric.Cost{Total: 11, Features: 11, Trees: 0})
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Prefix with tree cost +Inf: no panic")
			}
		}()
		Prefix(context.Background(), e, d, "test", []float64{1, 10}, math.Inf(1), []int{2}, nil, metric.Options{})
	}()
}
