package baseline

import (
	"cmp"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Metamorphic properties of the baselines: how their points must change
// when the model's costs or the data are transformed in a known way, and
// how two routes to one point must agree.

// usedCost is the cost per document of the first k trees of e, worked out
// apart from metric.EnsembleCost and Ensemble.Features: every node of those
// trees is visited, each feature found is paid once, then k tree costs.
func usedCost(e *tree.Ensemble, k int, featCost []float64, treeCost float64) metric.Cost {
	seen := map[int32]bool{}
	var c metric.Cost
	for _, t := range e.Trees[:k] {
		for _, n := range t.Nodes {
			if !seen[n.Feature] {
				seen[n.Feature] = true
				c.Features += featCost[n.Feature]
			}
		}
	}
	c.Trees = float64(k) * treeCost
	c.Total = c.Features + c.Trees
	return c
}

// Property 1. The prefix of all T trees is the full ensemble: its quality
// is NDCG@10 of the ensemble's own scores (Predict with every tree, ranked
// by metric.Mean, as eval does), bit for bit since Prefix promises
// Predict's sums; its cost is every feature the model splits on plus T
// trees. Adding a tree can only add features and a tree cost, never take
// one away, so the cost is non-decreasing in k (features and trees parts
// alike) and the tree part is k·treeCost.
func TestPrefixFullAndMonotoneCost(t *testing.T) {
	e, test := trainedModel(t)
	costs := mq2008.costs
	const treeCost = 0.75
	T := len(e.Trees)
	specs := mustSpecs(t, "ndcg@10")
	points := noErr(t)(Prefix(context.Background(), e, test, "test", costs, treeCost, AllSteps(T), specs, metric.Options{}))
	if len(points) != T {
		t.Fatalf("%d points for %d trees", len(points), T)
	}
	full := e.Predict(nil, test.Cols, test.NumDocs(), -1)
	want := metric.Mean(specs[0], full, test.Labels, test.QueryOffsets, metric.Options{})
	last := points[T-1]
	if last.Lambda != float64(T) || last.Metrics["ndcg@10"] != want {
		t.Errorf("k=%v: ndcg@10 %v, want the full ensemble's %v", last.Lambda, last.Metrics["ndcg@10"], want)
	}
	checkCost(t, "k=T", last.Cost, usedCost(e, T, costs, treeCost))
	for i, p := range points {
		k := i + 1
		checkCost(t, "prefix", p.Cost, usedCost(e, k, costs, treeCost))
		if p.Cost.Trees != float64(k)*treeCost {
			t.Errorf("k=%d: tree cost %v, want %v", k, p.Cost.Trees, float64(k)*treeCost)
		}
		if i == 0 {
			continue
		}
		q := points[i-1]
		if p.Cost.Total < q.Cost.Total || p.Cost.Features < q.Cost.Features || p.Cost.Trees <= q.Cost.Trees {
			t.Errorf("k=%d: cost %+v below k=%d's %+v", k, p.Cost, k-1, q.Cost)
		}
	}
}

// Property 2a. A finite margin so large that no document trails the fifth
// best by it never sends one out: every document is scored by the whole
// ensemble, so the point has the full ensemble's metrics bit for bit (the
// same scores, the same ranking) and its cost (up to rounding in the mean
// over documents, which EarlyExit says it takes).
func TestEarlyExitNeverTriggers(t *testing.T) {
	e, test := trainedModel(t)
	costs := mq2008.costs
	specs := mustSpecs(t, "p@5,ndcg@10,err@3")
	points := noErr(t)(EarlyExit(context.Background(), e, test, "test", costs, 1, DefaultExitEvery, []float64{1e300, math.Inf(1)}, specs, metric.Options{}))
	full := e.Predict(nil, test.Cols, test.NumDocs(), -1)
	for _, p := range points {
		for _, s := range specs {
			if want := metric.Mean(s, full, test.Labels, test.QueryOffsets, metric.Options{}); p.Metrics[s.String()] != want {
				t.Errorf("s=%v: %s = %v, want the full ensemble's %v", p.Lambda, s, p.Metrics[s.String()], want)
			}
		}
		checkCost(t, "never exits", p.Cost, usedCost(e, len(e.Trees), costs, 1))
	}
}

// Property 2b. Margin 0 sends out at the first exit (after 10 trees) every
// document ranked below its query's fifth by the 10-tree score (f − r ≥ 0
// holds for all of them), and no one at a later exit (five are left, none
// below the fifth); a query of fewer than five loses no one. So the cost is
// the mean of the full ensemble's cost over the documents that stay and of
// the 10-tree prefix's over those that leave, and the ranking is: the five
// who stayed by their final score, then the rest by their 10-tree score,
// ties in input order. Both are worked out here from Predict and the trees.
func TestEarlyExitAlwaysTriggers(t *testing.T) {
	e, test := trainedModel(t)
	costs := mq2008.costs
	const every = DefaultExitEvery
	specs := mustSpecs(t, "p@5,ndcg@10,err@3")
	points := noErr(t)(EarlyExit(context.Background(), e, test, "test", costs, 2, every, []float64{0}, specs, metric.Options{}))
	n := test.NumDocs()
	at10 := e.Predict(nil, test.Cols, n, every)
	full := e.Predict(nil, test.Cols, n, -1)
	fullCost, firstCost := usedCost(e, len(e.Trees), costs, 2), usedCost(e, every, costs, 2)

	rank := make([]float64, n)
	stay, leave := 0, 0
	for q := range len(test.QueryOffsets) - 1 {
		lo, hi := test.QueryOffsets[q], test.QueryOffsets[q+1]
		idx := make([]int, 0, hi-lo)
		for i := lo; i < hi; i++ {
			idx = append(idx, i)
		}
		byScore := func(s []float64) func(a, b int) int {
			return func(a, b int) int { return cmp.Compare(s[b], s[a]) }
		}
		slices.SortStableFunc(idx, byScore(at10))
		top := min(5, len(idx)) // a query of fewer than five keeps them all
		slices.Sort(idx[:top])  // the stayers by final score, ties in input order
		slices.SortStableFunc(idx[:top], byScore(full))
		for p, i := range idx {
			rank[i] = float64(hi - lo - p)
		}
		stay += top
		leave += len(idx) - top
	}
	if leave == 0 {
		t.Fatal("no document leaves: the test data has no query of more than five")
	}
	var want metric.Cost
	want.Features = (float64(stay)*fullCost.Features + float64(leave)*firstCost.Features) / float64(n)
	want.Trees = (float64(stay)*fullCost.Trees + float64(leave)*firstCost.Trees) / float64(n)
	want.Total = want.Features + want.Trees
	checkCost(t, "s=0", points[0].Cost, want)
	for _, s := range specs {
		if w := metric.Mean(s, rank, test.Labels, test.QueryOffsets, metric.Options{}); points[0].Metrics[s.String()] != w {
			t.Errorf("s=0: %s = %v, want %v", s, points[0].Metrics[s.String()], w)
		}
	}
}

// Property 3. Costs enter a baseline only as sums of feature and tree costs
// and their mean over documents; which documents leave an early exit, and
// every ranking, depend on scores alone. So doubling every feature cost and
// the tree cost doubles every point's cost and leaves its metrics as they
// were. Doubling is exact in floating point (a power of two, far from
// overflow), and so are the sums and the division of doubled terms: the
// costs must double bit for bit.
func TestBaselinesCostScale(t *testing.T) {
	e, test := trainedModel(t)
	costs := mq2008.costs
	double := make([]float64, len(costs))
	for i, c := range costs {
		double[i] = 2 * c
	}
	specs := mustSpecs(t, "p@5,ndcg@10,err@3")
	ctx := context.Background()
	scales := []float64{0, 0.05, 0.2, 1, math.Inf(1)}
	runs := func(fc []float64, tc float64) []Point {
		ps := noErr(t)(Prefix(ctx, e, test, "test", fc, tc, AllSteps(len(e.Trees)), specs, metric.Options{}))
		return append(ps, noErr(t)(EarlyExit(ctx, e, test, "test", fc, tc, DefaultExitEvery, scales, specs, metric.Options{}))...)
	}
	base, scaled := runs(costs, 0.5), runs(double, 1)
	for i, p := range base {
		q := scaled[i]
		if q.Cost.Total != 2*p.Cost.Total || q.Cost.Features != 2*p.Cost.Features || q.Cost.Trees != 2*p.Cost.Trees {
			t.Errorf("%s λ=%v: cost %+v with doubled costs, want twice %+v", p.Method, p.Lambda, q.Cost, p.Cost)
		}
		for name, v := range p.Metrics {
			if q.Metrics[name] != v {
				t.Errorf("%s λ=%v: %s = %v with doubled costs, was %v", p.Method, p.Lambda, name, q.Metrics[name], v)
			}
		}
	}
}

// permuteQueries returns d with its queries in the order perm gives
// (perm[j] is the query that goes j-th), each query's documents kept
// together and in their order.
func permuteQueries(t *testing.T, d *data.Dataset, perm []int) *data.Dataset {
	t.Helper()
	out := &data.Dataset{Name: d.Name + " permuted", Cols: make([][]float32, len(d.Cols)), HasQID: true, QueryOffsets: []int{0}}
	for _, q := range perm {
		lo, hi := d.QueryOffsets[q], d.QueryOffsets[q+1]
		for f := range d.Cols {
			out.Cols[f] = append(out.Cols[f], d.Cols[f][lo:hi]...)
		}
		out.Labels = append(out.Labels, d.Labels[lo:hi]...)
		out.QueryIDs = append(out.QueryIDs, d.QueryIDs[q])
		out.QueryOffsets = append(out.QueryOffsets, len(out.Labels))
	}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Property 4. A document's score depends on its own features alone, and
// every decision of a baseline (the ranking, who leaves an early exit) is
// taken within a query, so moving whole queries elsewhere in the file
// changes no query's metric value and no document's cost. The cost is the
// same bit for bit: a prefix's is one number for every document, and early
// exit's mean is taken from the count of documents leaving at each exit,
// which the order does not change. The metrics are means over queries
// summed in file order (metric.Mean adds them one after the other), so
// they agree up to the rounding of a sum in another order: within a few
// hundred ulps of a mean of 784 values in [0, 1], not bit for bit.
func TestBaselinesQueryOrder(t *testing.T) {
	e, test := trainedModel(t)
	costs := mq2008.costs
	nq := len(test.QueryIDs)
	perm := make([]int, nq)
	for j := range perm {
		// Odd queries first, backwards, then the even ones: every query
		// moves and the blocks interleave differently in the scorer.
		if j < nq/2 {
			perm[j] = nq - 1 - 2*j - nq%2
		} else {
			perm[j] = 2 * (j - nq/2)
		}
	}
	seen := make([]bool, nq)
	for _, q := range perm {
		if seen[q] {
			t.Fatalf("perm %v is not a permutation", perm)
		}
		seen[q] = true
	}
	moved := permuteQueries(t, test, perm)
	specs := mustSpecs(t, "p@5,ndcg@10,err@3,map")
	ctx := context.Background()
	scales := []float64{0, 0.05, 0.2, 1, math.Inf(1)}
	runs := func(d *data.Dataset) []Point {
		ps := noErr(t)(Prefix(ctx, e, d, "test", costs, 1, AllSteps(len(e.Trees)), specs, metric.Options{}))
		return append(ps, noErr(t)(EarlyExit(ctx, e, d, "test", costs, 1, DefaultExitEvery, scales, specs, metric.Options{}))...)
	}
	base, got := runs(test), runs(moved)
	for i, p := range base {
		q := got[i]
		if q.Cost != p.Cost {
			t.Errorf("%s λ=%v: cost %+v with the queries moved, was %+v", p.Method, p.Lambda, q.Cost, p.Cost)
		}
		for name, v := range p.Metrics {
			if math.Abs(q.Metrics[name]-v) > 1e-13 {
				t.Errorf("%s λ=%v: %s = %v with the queries moved, was %v", p.Method, p.Lambda, name, q.Metrics[name], v)
			}
		}
	}
}
