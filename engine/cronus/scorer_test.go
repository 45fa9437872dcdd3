package cronus

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// scHandEnsemble is three trees over four features:
//
//	tree 0: f0 <= .5 ? -1 : 1                                  features {0}
//	tree 1: f1 <= .5 ? (f2 <= .5 ? 0 : 2) : 4                  features {1, 2}
//	tree 2: f0 <= .5 ? 10 : (f3 <= .5 ? 20 : 30)               features {0, 3}
func scHandEnsemble() *tree.Ensemble {
	return &tree.Ensemble{NumFeatures: 4, Objective: "regression", Trees: []tree.Tree{
		{Nodes: []tree.Node{{Feature: 0, Threshold: .5, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
			Leaves: []float64{-1, 1}},
		{Nodes: []tree.Node{
			{Feature: 1, Threshold: .5, Left: 1, Right: tree.Leaf(2)},
			{Feature: 2, Threshold: .5, Left: tree.Leaf(0), Right: tree.Leaf(1)},
		}, Leaves: []float64{0, 2, 4}},
		{Nodes: []tree.Node{
			{Feature: 0, Threshold: .5, Left: tree.Leaf(0), Right: 1},
			{Feature: 3, Threshold: .5, Left: tree.Leaf(1), Right: tree.Leaf(2)},
		}, Leaves: []float64{10, 20, 30}},
	}}
}

// scHandData is six documents in two queries. The tree values of each
// (tree 0, tree 1, tree 2) are in the comments.
func scHandData() *data.Dataset {
	rows := [][4]float32{
		{1, 0, 0, 0}, // d0: q0   1, 0, 20
		{0, 1, 0, 0}, // d1: q0  -1, 4, 10
		{0, 0, 1, 1}, // d2: q0  -1, 2, 10
		{1, 1, 0, 1}, // d3: q1   1, 4, 30
		{0, 0, 0, 0}, // d4: q1  -1, 0, 10
		{1, 0, 1, 0}, // d5: q1   1, 2, 20
	}
	d := &data.Dataset{Name: "hand", Cols: make([][]float32, 4), Labels: make([]float32, len(rows)),
		QueryIDs: []int64{1, 2}, QueryOffsets: []int{0, 3, 6}, HasQID: true}
	for _, r := range rows {
		for f := range d.Cols {
			d.Cols[f] = append(d.Cols[f], r[f])
		}
	}
	return d
}

// The costs of the hand case: c = 1, 10, 100, 1000 for features 0..3 (so a
// feature total reads as the set of features paid), e = 1, 2, 4 per tree.
var (
	scHandFeatCost = []float64{1, 10, 100, 1000}
	scHandTreeCost = []float64{1, 2, 4}
)

// scHandCascade is two stages: s⁰ = h0 + h1/2 with threshold theta, then
// s¹ = h1 + h2 − 50. Stage 0 evaluates trees 0 and 1 (cost 1+2 = 3) and
// pays features 0, 1, 2 (111); stage 1 reuses tree 1 and evaluates tree 2
// (4 more: 7), which adds feature 3 (1000 more: 1111). A document leaving
// at stage 0 costs 111 + 3 = 114, one reaching stage 1 costs 1111 + 7.
//
// Stage-0 scores: d0 1, d1 1, d2 0 | d3 3, d4 −1, d5 2.
// Stage-1 scores: d0 −30, d1 −36, d2 −38 | d3 −16, d4 −40, d5 −28.
func scHandCascade(theta float64) *Cascade {
	return &Cascade{Stages: []Stage{
		{Beta: []float64{1, .5, 0, 0}, Theta: theta},
		{Beta: []float64{0, 1, 1, -50}, Theta: math.Inf(-1)},
	}}
}

func TestScoreHandWorked(t *testing.T) {
	topM := func(c *Cascade, m int) *Cascade { c.Rule, c.TopM = RuleTopM, m; return c }
	// An empty first stage that passes everything costs nothing and shifts
	// the exits by one.
	leadingEmpty := func(c *Cascade) *Cascade {
		c.Stages = append([]Stage{{Beta: make([]float64, 4), Theta: math.Inf(-1)}}, c.Stages...)
		return c
	}
	cases := []struct {
		name    string
		c       *Cascade
		exit    []int
		score   []float64
		key     []float64
		reached []float64
		feat    float64 // sum over the documents; the average is this / 6
		trees   float64
	}{{
		// θ = 1: d2 (0) and d4 (−1) leave at stage 0. Within q0, d0 and d1
		// went on and d0 scored higher at stage 1; d2 comes last although
		// its score 0 beats both of theirs.
		name:    "global θ=1",
		c:       scHandCascade(1),
		exit:    []int{1, 1, 0, 1, 0, 1},
		score:   []float64{-30, -36, 0, -16, -1, -28},
		key:     []float64{2, 1, 0, 2, 0, 1},
		reached: []float64{1, 4.0 / 6},
		feat:    2*111 + 4*1111,
		trees:   2*3 + 4*7,
	}, {
		// θ = 2.5: only d3 (3) goes on. q0 is ordered by stage-0 score with
		// the tie d0 = d1 in input order.
		name:    "global θ=2.5",
		c:       scHandCascade(2.5),
		exit:    []int{0, 0, 0, 1, 0, 0},
		score:   []float64{1, 1, 0, -16, -1, 2},
		key:     []float64{2, 1, 0, 2, 0, 1},
		reached: []float64{1, 1.0 / 6},
		feat:    5*111 + 1111,
		trees:   5*3 + 7,
	}, {
		// Top-1 under θ = 2.5: in q0 nobody passes, and the best of the
		// tie d0 = d1 is d0 (input order), which goes on; in q1 the best,
		// d3, passes anyway.
		name:    "top-1 θ=2.5",
		c:       topM(scHandCascade(2.5), 1),
		exit:    []int{1, 0, 0, 1, 0, 0},
		score:   []float64{-30, 1, 0, -16, -1, 2},
		key:     []float64{2, 1, 0, 2, 0, 1},
		reached: []float64{1, 2.0 / 6},
		feat:    2*1111 + 4*111,
		trees:   2*7 + 4*3,
	}, {
		// Top-2 under θ = 2.5: d0, d1 in q0, d3, d5 in q1.
		name:    "top-2 θ=2.5",
		c:       topM(scHandCascade(2.5), 2),
		exit:    []int{1, 1, 0, 1, 0, 1},
		score:   []float64{-30, -36, 0, -16, -1, -28},
		key:     []float64{2, 1, 0, 2, 0, 1},
		reached: []float64{1, 4.0 / 6},
		feat:    2*111 + 4*1111,
		trees:   2*3 + 4*7,
	}, {
		// Top-3 keeps all of q0 (3 documents) and all of q1.
		name:    "top-3 θ=2.5",
		c:       topM(scHandCascade(2.5), 3),
		exit:    []int{1, 1, 1, 1, 1, 1},
		score:   []float64{-30, -36, -38, -16, -40, -28},
		key:     []float64{2, 1, 0, 2, 0, 1},
		reached: []float64{1, 1},
		feat:    6 * 1111,
		trees:   6 * 7,
	}, {
		// A document that left at stage 2 ranks above every one that left
		// at stage 1, whatever the scores.
		name:    "empty stage, then global θ=1",
		c:       leadingEmpty(scHandCascade(1)),
		exit:    []int{2, 2, 1, 2, 1, 2},
		score:   []float64{-30, -36, 0, -16, -1, -28},
		key:     []float64{2, 1, 0, 2, 0, 1},
		reached: []float64{1, 1, 4.0 / 6},
		feat:    2*111 + 4*1111,
		trees:   2*3 + 4*7,
	}, {
		// One stage: everybody stays, whatever the threshold; only trees
		// 0 and 1 are evaluated.
		name:    "single stage",
		c:       &Cascade{Stages: []Stage{{Beta: []float64{1, .5, 0, 0}, Theta: 100}}},
		exit:    []int{0, 0, 0, 0, 0, 0},
		score:   []float64{1, 1, 0, 3, -1, 2},
		key:     []float64{2, 1, 0, 2, 0, 1},
		reached: []float64{1},
		feat:    6 * 111,
		trees:   6 * 3,
	}}
	e, d := scHandEnsemble(), scHandData()
	o := NewOutputs(e, d)
	treeFeats := [][]int{{0}, {1, 2}, {0, 3}}
	for _, tc := range cases {
		r := Score(e, tc.c, d, scHandFeatCost, scHandTreeCost)
		want := metric.Cost{Features: tc.feat / 6, Trees: tc.trees / 6}
		want.Total = want.Features + want.Trees
		if !slices.Equal(r.Exit, tc.exit) || !slices.Equal(r.Score, tc.score) || !slices.Equal(r.Key, tc.key) ||
			!slices.Equal(r.Reached, tc.reached) || r.Cost != want {
			t.Errorf("%s:\n got exit %v score %v key %v reached %v cost %+v\nwant exit %v score %v key %v reached %v cost %+v",
				tc.name, r.Exit, r.Score, r.Key, r.Reached, r.Cost, tc.exit, tc.score, tc.key, tc.reached, want)
		}
		pc, reached := PredictedCost(tc.c, o, d.QueryOffsets, treeFeats, scHandFeatCost, scHandTreeCost)
		if pc != want || !slices.Equal(reached, tc.reached) {
			t.Errorf("%s: PredictedCost %+v reached %v, want %+v %v", tc.name, pc, reached, want, tc.reached)
		}
	}
}

// scTrained trains a small regression ensemble on the built-in MQ2008
// training data, once for all tests, and returns it with the test data and
// the built-in feature costs.
var scTrained = sync.OnceValues(func() (*scFixture, error) {
	ctx := context.Background()
	train, err := data.LoadDataset(ctx, "builtin:mq2008/train", data.ReadOptions{})
	if err != nil {
		return nil, err
	}
	test, err := data.LoadDataset(ctx, "builtin:mq2008/test", data.ReadOptions{})
	if err != nil {
		return nil, err
	}
	p := boost.DefaultParams(boost.Regression)
	p.Trees, p.Grow.MaxLeaves = 30, 7
	res, err := boost.Train(ctx, train, nil, p, nil)
	if err != nil {
		return nil, err
	}
	costs, err := data.LoadCosts("builtin:mq2008/costs", res.Ensemble.NumFeatures)
	if err != nil {
		return nil, err
	}
	return &scFixture{e: res.Ensemble, test: test, featCost: costs.Cost}, nil
})

type scFixture struct {
	e        *tree.Ensemble
	test     *data.Dataset
	featCost []float64
}

func scLoad(tb testing.TB) *scFixture {
	tb.Helper()
	fx, err := scTrained()
	if err != nil {
		tb.Fatal(err)
	}
	return fx
}

// scFloat32Leaves returns a copy of e whose leaf values are rounded to
// float32, so that Score's tree outputs are exactly the leaf values.
func scFloat32Leaves(e *tree.Ensemble) *tree.Ensemble {
	c := *e
	c.Trees = make([]tree.Tree, len(e.Trees))
	for t, tr := range e.Trees {
		c.Trees[t] = tree.Tree{Nodes: tr.Nodes, Leaves: make([]float64, len(tr.Leaves))}
		for l, v := range tr.Leaves {
			c.Trees[t].Leaves[l] = float64(float32(v))
		}
	}
	return &c
}

// scRandomCascade makes a cascade of 1 to 5 sparse stages over the T trees
// of o, with thresholds at random quantiles of the stage scores (so that
// some documents score exactly the threshold) or −Inf, under a random rule.
func scRandomCascade(r *rand.Rand, o *Outputs) *Cascade {
	T := o.NumTrees()
	K := 1 + r.IntN(5)
	c := &Cascade{Rule: RuleGlobal}
	if r.IntN(2) == 0 {
		c.Rule, c.TopM = RuleTopM, 1+r.IntN(4)
	}
	s := make([]float64, o.N)
	p := 0.05 + 0.4*r.Float64()
	for range K {
		beta := make([]float64, T+1)
		for t := range T {
			if r.Float64() < p {
				beta[t] = r.NormFloat64()
				if r.IntN(4) == 0 {
					beta[t] = 1
				}
			}
		}
		beta[T] = r.NormFloat64()
		theta := math.Inf(-1)
		if r.IntN(5) > 0 {
			o.Scores(s, beta)
			slices.Sort(s)
			theta = s[r.IntN(len(s))]
		}
		c.Stages = append(c.Stages, Stage{Beta: beta, Theta: theta})
	}
	return c
}

// scReferenceExits decides the exits from the tree outputs the simplest
// way: for every query and stage, a document stays when it passes θ or,
// under top-M, fewer than M documents still in rank above it.
func scReferenceExits(c *Cascade, o *Outputs, offsets []int) (exit []int, score []float64) {
	n := o.N
	exit, score = make([]int, n), make([]float64, n)
	in := make([]bool, n)
	for i := range in {
		in[i] = true
	}
	s := make([]float64, n)
	K := len(c.Stages)
	for k, st := range c.Stages {
		o.Scores(s, st.Beta)
		stay := make([]bool, n)
		for q := 0; q+1 < len(offsets); q++ {
			for i := offsets[q]; i < offsets[q+1]; i++ {
				if !in[i] {
					continue
				}
				score[i], exit[i] = s[i], k
				if k == K-1 {
					continue
				}
				above := 0
				for j := offsets[q]; j < offsets[q+1]; j++ {
					if in[j] && (s[j] > s[i] || s[j] == s[i] && j < i) {
						above++
					}
				}
				stay[i] = math.IsInf(st.Theta, -1) || s[i] >= st.Theta || c.Rule == RuleTopM && above < c.TopM
			}
		}
		copy(in, stay)
	}
	return exit, score
}

func scTreeFeatures(e *tree.Ensemble) [][]int {
	fs := make([][]int, len(e.Trees))
	for t := range e.Trees {
		fs[t] = e.Trees[t].Features()
	}
	return fs
}

// TestScoreMatchesPrediction runs random cascades over a real ensemble: the
// scorer, which walks the trees, must leave the documents where the tree
// outputs say they leave, and cost exactly what PredictedCost says.
func TestScoreMatchesPrediction(t *testing.T) {
	fx := scLoad(t)
	e, d := fx.e, fx.test
	o := NewOutputs(e, d)
	treeFeats := scTreeFeatures(e)
	r := rand.New(rand.NewPCG(3, 5))
	treeCost := make([]float64, len(e.Trees))
	for t := range treeCost {
		treeCost[t] = 0.5 + r.Float64()
	}
	rules := map[string]int{}
	for trial := range 40 {
		c := scRandomCascade(r, o)
		rules[c.Rule]++
		res := Score(e, c, d, fx.featCost, treeCost)
		exit, score := scReferenceExits(c, o, d.QueryOffsets)
		if !slices.Equal(res.Exit, exit) || !slices.Equal(res.Score, score) {
			t.Fatalf("trial %d (%s, %d stages): exits or scores differ from the tree outputs'", trial, c.Rule, len(c.Stages))
		}
		if got := ResultOfExits(c, d.QueryOffsets, res.Exit, res.Score, treeFeats, fx.featCost, treeCost); !slices.Equal(got.Key, res.Key) ||
			got.Cost != res.Cost || !slices.Equal(got.Reached, res.Reached) {
			t.Fatalf("trial %d (%s, %d stages): ResultOfExits on the scorer's exits differs from its result", trial, c.Rule, len(c.Stages))
		}
		cost, reached := PredictedCost(c, o, d.QueryOffsets, treeFeats, fx.featCost, treeCost)
		if cost != res.Cost || !slices.Equal(reached, res.Reached) {
			t.Fatalf("trial %d (%s, %d stages): scorer cost %+v reached %v, predicted %+v %v",
				trial, c.Rule, len(c.Stages), res.Cost, res.Reached, cost, reached)
		}
		if full := metric.EnsembleCost(e.Features(-1), fx.featCost, 0, 0).Total + scSum(treeCost); reached[0] != 1 || cost.Total > full {
			t.Fatalf("trial %d: reached %v, cost %+v", trial, reached, cost)
		}
		scCheckKeys(t, res, d.QueryOffsets)
	}
	if rules[RuleGlobal] == 0 || rules[RuleTopM] == 0 {
		t.Fatalf("rules tried: %v", rules)
	}
}

func scSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// scCheckKeys checks the order the keys give within every query: a later
// exit first, then a higher exit score, then input order.
func scCheckKeys(t *testing.T, res Result, offsets []int) {
	t.Helper()
	for q := 0; q+1 < len(offsets); q++ {
		for i := offsets[q]; i < offsets[q+1]; i++ {
			for j := i + 1; j < offsets[q+1]; j++ {
				iFirst := res.Exit[i] > res.Exit[j] ||
					res.Exit[i] == res.Exit[j] && res.Score[i] >= res.Score[j]
				if iFirst != (res.Key[i] > res.Key[j]) {
					t.Fatalf("documents %d (exit %d, score %v, key %v) and %d (exit %d, score %v, key %v) are out of order",
						i, res.Exit[i], res.Score[i], res.Key[i], j, res.Exit[j], res.Score[j], res.Key[j])
				}
			}
		}
	}
}

// TestScoreSingleStageIsTheEnsemble: one stage of all trees with weight 1
// and the base score as intercept is the ensemble itself, in ranking and
// cost, and in scores up to the float32 rounding of the tree outputs
// (exactly when the leaf values are float32 numbers).
func TestScoreSingleStageIsTheEnsemble(t *testing.T) {
	fx := scLoad(t)
	d := fx.test
	for _, rounded := range []bool{false, true} {
		e := fx.e
		if rounded {
			e = scFloat32Leaves(e)
		}
		T := len(e.Trees)
		beta := make([]float64, T+1)
		for t := range T {
			beta[t] = 1
		}
		beta[T] = e.Base
		c := &Cascade{Stages: []Stage{{Beta: beta, Theta: math.Inf(-1)}}}
		treeCost := make([]float64, T)
		for t := range treeCost {
			treeCost[t] = 1
		}
		res := Score(e, c, d, fx.featCost, treeCost)
		pred := e.Predict(nil, d.Cols, d.NumDocs(), -1)
		for i := range pred {
			if rounded && res.Score[i] != pred[i] || math.Abs(res.Score[i]-pred[i]) > 1e-6 {
				t.Fatalf("rounded leaves %v: document %d scores %v, Predict %v", rounded, i, res.Score[i], pred[i])
			}
		}
		ndcg := metric.Spec{Name: metric.NDCG, K: 10}
		got := metric.Mean(ndcg, res.Key, d.Labels, d.QueryOffsets, metric.Options{})
		want := metric.Mean(ndcg, pred, d.Labels, d.QueryOffsets, metric.Options{})
		if got != want {
			t.Errorf("rounded leaves %v: NDCG@10 of the keys %v, of Predict %v", rounded, got, want)
		}
		if wc := metric.EnsembleCost(e.Features(-1), fx.featCost, T, 1); res.Cost != wc {
			t.Errorf("rounded leaves %v: cost %+v, want %+v", rounded, res.Cost, wc)
		}
		for _, r := range []string{RuleGlobal, RuleTopM} {
			c.Rule, c.TopM = r, 3
			if r2 := Score(e, c, d, fx.featCost, treeCost); !reflect.DeepEqual(r2, res) {
				t.Errorf("rule %s: the result of a single stage changed", r)
			}
		}
	}
}

// TestScoreGoroutines: the result does not depend on GOMAXPROCS.
func TestScoreGoroutines(t *testing.T) {
	fx := scLoad(t)
	d := fx.test
	o := NewOutputs(fx.e, d)
	r := rand.New(rand.NewPCG(8, 9))
	treeCost := make([]float64, len(fx.e.Trees))
	for t := range treeCost {
		treeCost[t] = r.Float64() // non-integer costs: the sums must not depend on the split
	}
	featCost := slices.Clone(fx.featCost)
	for f := range featCost {
		featCost[f] *= 1 + r.Float64()
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for trial := range 6 {
		c := scRandomCascade(r, o)
		var results []Result
		for _, p := range []int{1, 2, 3} {
			runtime.GOMAXPROCS(p)
			results = append(results, Score(fx.e, c, d, featCost, treeCost))
		}
		for i := 1; i < len(results); i++ {
			if !reflect.DeepEqual(results[0], results[i]) {
				t.Fatalf("trial %d: results with GOMAXPROCS 1 and %d differ", trial, i+1)
			}
		}
	}
}

// TestScoreAllocations: scratch space is per goroutine, not per document or
// query.
func TestScoreAllocations(t *testing.T) {
	fx := scLoad(t)
	d := fx.test
	half := scFirstQueries(d, d.NumQueries()/2)
	o := NewOutputs(fx.e, d)
	c := scRandomCascade(rand.New(rand.NewPCG(1, 1)), o)
	c.Rule, c.TopM = RuleTopM, 2
	treeCost := make([]float64, len(fx.e.Trees))
	allocs := func(d *data.Dataset) float64 {
		return testing.AllocsPerRun(5, func() { Score(fx.e, c, d, fx.featCost, treeCost) })
	}
	a, b := allocs(half), allocs(d)
	// A few allocations depend on the values (the exact sums), none on the
	// number of queries or documents.
	if b > a+4 || b > 60+8*float64(runtime.GOMAXPROCS(0)) {
		t.Errorf("%v allocations for %d queries, %v for %d", a, half.NumQueries(), b, d.NumQueries())
	}
}

// scFirstQueries returns the first nq queries of d (sharing d's memory).
func scFirstQueries(d *data.Dataset, nq int) *data.Dataset {
	n := d.QueryOffsets[nq]
	h := &data.Dataset{Name: d.Name, Labels: d.Labels[:n], QueryIDs: d.QueryIDs[:nq],
		QueryOffsets: d.QueryOffsets[:nq+1], HasQID: d.HasQID, Cols: make([][]float32, len(d.Cols))}
	for f, col := range d.Cols {
		h.Cols[f] = col[:n]
	}
	return h
}

func TestExactMean(t *testing.T) {
	xs := []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	if m := exactMean(xs); m != 0.1 {
		t.Errorf("mean of ten 0.1 = %v", m)
	}
	xs = []float64{1e100, 1, -1e100, 1}
	if m := exactMean(xs); m != 0.5 {
		t.Errorf("mean of %v = %v, want 0.5", xs, m)
	}
	r := rand.New(rand.NewPCG(4, 4))
	xs = make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(r.IntN(1000)) / 7
	}
	a := exactMean(xs)
	sort.Float64s(xs)
	if b := exactMean(xs); a != b || math.Abs(a-scSum(xs)/1000) > 1e-12 {
		t.Errorf("mean %v, sorted %v, naive %v", a, b, scSum(xs)/1000)
	}
	if m := exactMean(nil); m != 0 {
		t.Errorf("mean of nothing = %v", m)
	}
}

func TestScoreEmpty(t *testing.T) {
	e := scHandEnsemble()
	d := &data.Dataset{Cols: make([][]float32, 4), QueryOffsets: []int{0}}
	r := Score(e, scHandCascade(1), d, scHandFeatCost, scHandTreeCost)
	if len(r.Exit) != 0 || !slices.Equal(r.Reached, []float64{0, 0}) || r.Cost != (metric.Cost{}) {
		t.Errorf("empty data: %+v", r)
	}
}

func TestScorePanics(t *testing.T) {
	e, d := scHandEnsemble(), scHandData()
	cases := map[string]func(){
		"short beta": func() {
			Score(e, &Cascade{Stages: []Stage{{Beta: []float64{1, 0}}}}, d, scHandFeatCost, scHandTreeCost)
		},
		"no stages":     func() { Score(e, &Cascade{}, d, scHandFeatCost, scHandTreeCost) },
		"feature costs": func() { Score(e, scHandCascade(1), d, scHandFeatCost[:3], scHandTreeCost) },
		"tree costs":    func() { Score(e, scHandCascade(1), d, scHandFeatCost, scHandTreeCost[:2]) },
		"unknown rule":  func() { c := scHandCascade(1); c.Rule = "best"; Score(e, c, d, scHandFeatCost, scHandTreeCost) },
		"predicted feats": func() {
			PredictedCost(scHandCascade(1), NewOutputs(e, d), d.QueryOffsets, nil, scHandFeatCost, scHandTreeCost)
		},
	}
	for name, fn := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			fn()
		}()
	}
}

// BenchmarkScore scores the MQ2008 test set with a 3-stage cascade over 30
// trees: the first 5 trees keep half the documents, the first 15 a third,
// the last stage uses all.
func BenchmarkScore(b *testing.B) { benchScore(b, 0) }

// BenchmarkScoreWide is BenchmarkScore with a model of 50,000 features (a
// stray index's width) whose trees use MQ2008's 46: the scorer's scratch
// and cost sums run over the features the trees use (before, 50,000 flags
// per document).
func BenchmarkScoreWide(b *testing.B) { benchScore(b, 50000) }

// benchScore is BenchmarkScore with the model's features widened to width
// (0: as it is), each extra one costing 1.
func benchScore(b *testing.B, width int) {
	fx := scLoad(b)
	e, d := fx.e, fx.test
	featCost := fx.featCost
	if width > e.NumFeatures {
		wide := *e
		wide.NumFeatures = width
		e = &wide
		featCost = append(slices.Clip(featCost), make([]float64, width-len(featCost))...)
		for f := len(fx.featCost); f < width; f++ {
			featCost[f] = 1
		}
	}
	T := len(e.Trees)
	o := NewOutputs(e, d)
	c := &Cascade{Rule: RuleGlobal}
	s := make([]float64, d.NumDocs())
	for _, st := range []struct {
		trees int
		keep  float64
	}{{5, 0.5}, {15, 0.33}, {T, 0}} {
		beta := make([]float64, T+1)
		for t := range st.trees {
			beta[t] = 1
		}
		beta[T] = e.Base
		theta := math.Inf(-1)
		if st.keep > 0 {
			o.Scores(s, beta)
			slices.Sort(s)
			theta = s[int(float64(len(s))*(1-st.keep))]
		}
		c.Stages = append(c.Stages, Stage{Beta: beta, Theta: theta})
	}
	treeCost := make([]float64, T)
	for t := range treeCost {
		treeCost[t] = 1
	}
	var res Result
	b.ReportAllocs()
	for b.Loop() {
		res = Score(e, c, d, featCost, treeCost)
	}
	b.ReportMetric(float64(d.NumDocs())*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(res.Cost.Total, "cost/doc")
}

// TestResultOfExitsHandWorked: exits chosen by hand, not by the cascade's
// rule. Later exits rank first, then the exit score, then input order
// (d0 and d2 tie); a document leaving at stage 0 costs 111 + 3, at stage 1
// 1111 + 7 (scHandCascade).
func TestResultOfExitsHandWorked(t *testing.T) {
	d := scHandData()
	exit := []int{1, 0, 1, 0, 0, 1}
	score := []float64{-30, 1, -30, 3, -1, -28}
	res := ResultOfExits(scHandCascade(1), d.QueryOffsets, exit, score, scTreeFeatures(scHandEnsemble()), scHandFeatCost, scHandTreeCost)
	if want := []float64{2, 0, 1, 1, 0, 2}; !slices.Equal(res.Key, want) {
		t.Errorf("keys %v, want %v", res.Key, want)
	}
	if want := []float64{1, 0.5}; !slices.Equal(res.Reached, want) {
		t.Errorf("reached %v, want %v", res.Reached, want)
	}
	if want := (metric.Cost{Features: 611, Trees: 5, Total: 616}); res.Cost != want {
		t.Errorf("cost %+v, want %+v", res.Cost, want)
	}
}
