package baseline

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Prefix returns the GBRT curve of the Cronus paper (footnote 11: "the
// precision and cost as more trees are added"): for every k in ks, the
// quality on d of the first k trees of e, and their cost per document — every
// feature any of them splits on, each paid once (featCost[f] for feature f),
// plus k·treeCost. That is metric.EnsembleCost(e.Features(k), featCost, k,
// treeCost), the same for every document.
//
// The trees are added to running scores in one pass, and the metrics are
// measured whenever k trees are in; the scores at k are those of
// e.Predict(nil, d.Cols, n, k), bit for bit. There is one Point per distinct
// k, in ascending order of k, with Method "prefix", the given split,
// Lambda = k and PerQuery, each metric on each query of d. k = 0 is the
// base score alone: every document ties, and the ranking is the input
// order.
//
// Prefix stops, with ctx's error and no points, at the first k after ctx is
// done. It panics if a k is outside 0..len(e.Trees), if d has fewer feature
// columns or featCost fewer entries than e.NumFeatures, or if treeCost is
// negative, infinite or NaN.
func Prefix(ctx context.Context, e *tree.Ensemble, d *data.Dataset, split string, featCost []float64, treeCost float64, ks []int, specs []metric.Spec, opt metric.Options) ([]Point, error) {
	return scorePrefixes(ctx, e, d, split, featCost, treeCost, ks, specs, opt, true)
}

// scorePrefixes is Prefix, its points' PerQuery nil unless perQuery:
// KeptPrefixCounts scores every prefix for its means alone.
func scorePrefixes(ctx context.Context, e *tree.Ensemble, d *data.Dataset, split string, featCost []float64, treeCost float64, ks []int, specs []metric.Spec, opt metric.Options, perQuery bool) ([]Point, error) {
	checkArgs("Prefix", e, d, featCost, treeCost)
	ks = slices.Clone(ks)
	slices.Sort(ks)
	ks = slices.Compact(ks)
	if len(ks) > 0 && (ks[0] < 0 || ks[len(ks)-1] > len(e.Trees)) {
		panic(fmt.Sprintf("baseline: Prefix: tree counts must be in 0..%d, got %v", len(e.Trees), ks))
	}
	s := newScorer(e, d)
	points := make([]Point, 0, len(ks))
	for _, k := range ks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.advance(k)
		m, pq := evaluate(specs, s.scores, d, opt, perQuery)
		points = append(points, Point{
			Method:   MethodPrefix,
			Split:    split,
			Lambda:   float64(k),
			Cost:     metric.EnsembleCost(e.Features(k), featCost, k, treeCost),
			Metrics:  m,
			PerQuery: pq,
		})
	}
	return points, nil
}

// PrefixSteps returns n tree counts from 1 to T for Prefix, ascending and
// distinct, spaced geometrically so that they are dense where a curve
// changes fastest, at few trees; the last is always T. When T <= n it is
// every count 1..T; n < 2 gives just T. PrefixSteps panics if T < 1.
func PrefixSteps(T int, n int) []int {
	if T < 1 {
		panic(fmt.Sprintf("baseline: PrefixSteps: %d trees", T))
	}
	if n < 2 {
		return []int{T}
	}
	if T <= n {
		ks := make([]int, T)
		for i := range ks {
			ks[i] = i + 1
		}
		return ks
	}
	ks := make([]int, n)
	ks[0] = 1
	for j := 1; j < n; j++ {
		// The ratio is recomputed from where the steps are, so that a step
		// forced up to prev+1 at small counts (where rounding would repeat a
		// count) leaves a smooth geometric run to T.
		prev, left := ks[j-1], n-j
		r := math.Pow(float64(T)/float64(prev), 1/float64(left))
		k := max(int(math.Round(float64(prev)*r)), prev+1)
		ks[j] = min(k, T-(left-1)) // room for the counts still to come
	}
	return ks
}

// AllSteps is every tree count 1..T, for Prefix before KeepPrefix.
func AllSteps(T int) []int {
	ks := make([]int, T)
	for i := range ks {
		ks[i] = i + 1
	}
	return ks
}

// KeepPrefix thins the prefix points of every tree count (of one or more
// splits; Prefix with AllSteps) to those a curve needs: the counts in steps
// (PrefixSteps', for the plot's even spread) and every count k whose key
// metric on some split is above that of every shorter prefix on that
// split. A prefix's cost never falls as trees are added, so those are the
// prefixes no shorter one dominates: the baseline front made of the kept
// points is the front of every prefix, exactly. A count kept is kept on
// every split, so that a k chosen on one split is scored on the others.
// Other methods' points pass through; the order is kept.
func KeepPrefix(points []Point, steps []int, key string) []Point {
	keep := map[float64]bool{}
	for _, k := range steps {
		keep[float64(k)] = true
	}
	best := map[string]float64{}
	for _, p := range points { // Prefix gives each split's in ascending k
		if p.Method != MethodPrefix {
			continue
		}
		if b, seen := best[p.Split]; !seen || p.Metrics[key] > b {
			best[p.Split] = p.Metrics[key]
			keep[p.Lambda] = true
		}
	}
	out := make([]Point, 0, len(points))
	for _, p := range points {
		if p.Method != MethodPrefix || keep[p.Lambda] {
			out = append(out, p)
		}
	}
	return out
}

// KeptPrefixCounts returns the tree counts KeepPrefix keeps of every
// prefix of e on the data sets ds (each a split; nil ones are skipped):
// steps and every count above every shorter prefix on some d by key. Only
// key is measured, so that the prefixes kept can then be scored with every
// metric (Prefix with the counts) at a fraction of the cost of scoring
// them all.
func KeptPrefixCounts(ctx context.Context, e *tree.Ensemble, ds []*data.Dataset, featCost []float64, treeCost float64, steps []int, key metric.Spec, opt metric.Options) ([]int, error) {
	var all []Point
	for i, d := range ds {
		if d == nil {
			continue
		}
		pts, err := scorePrefixes(ctx, e, d, fmt.Sprint(i), featCost, treeCost, AllSteps(len(e.Trees)), []metric.Spec{key}, opt, false)
		if err != nil {
			return nil, err
		}
		all = append(all, pts...)
	}
	seen := map[int]bool{}
	var ks []int
	for _, p := range KeepPrefix(all, steps, key.String()) {
		if k := int(p.Lambda); !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks, nil
}
