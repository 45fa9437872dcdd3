package baseline

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/cronus-ltr/cronus/engine/metric"
)

// Point is one quality/cost point of a method on a data split.
type Point struct {
	Method string  // "prefix", "early-exit", "single-stage", "cronus", "cronus-init", ... (free text)
	Split  string  // "valid", "test", ...
	Lambda float64 // the method's trade-off parameter (number of trees for prefix, s for early exit, λ for the others)
	// Variant names a variant of the cascade of λ (sweep --variants):
	// "k" its first k stages, "pn" its last stage the ensemble's first n
	// trees, "kpn" both; "" for the cascade itself and every other method.
	// A curve writes λ#Variant in the lambda column (LambdaLabel).
	Variant string
	Cost    metric.Cost        // per document: Total, Features, Trees
	Metrics map[string]float64 // by metric.Spec.String(): at least "p@5", "ndcg@10", "err@3"
	// PerQuery holds, per metric of Metrics, its value on each query of
	// the split in the data's order (metric.PerQuery's; Metrics has their
	// mean, metric.MeanOf), for paired comparisons of two points; nil
	// when the point was made without them (read from a curve file).
	PerQuery map[string][]float64
}

// LambdaLabel is the lambda column of p's row in a curve file: λ as
// strconv.FormatFloat(λ, 'g', -1, 64) writes it ("+Inf" for an infinite
// one), followed by "#" and the variant when p has one ("0.05#2p30").
func (p Point) LambdaLabel() string {
	l := strconv.FormatFloat(p.Lambda, 'g', -1, 64)
	if p.Variant != "" {
		l += "#" + p.Variant
	}
	return l
}

// Method names of the points made in this package.
const (
	MethodPrefix    = "prefix"
	MethodEarlyExit = "early-exit"
)

// MethodSingleStage is the method of the single stage's points (a
// one-stage cascade, eq 7; cronus sweep makes them): a baseline, with
// the prefixes and early exit.
const MethodSingleStage = "single-stage"

// IsBaseline reports whether method is one of the baselines a Cronus
// cascade is set against: the prefixes, early exit and the single stage.
func IsBaseline(method string) bool {
	return method == MethodPrefix || method == MethodEarlyExit || method == MethodSingleStage
}

// BestBaseline is the baseline point (IsBaseline) of points on split with
// the best value of metric among those costing no more than cost per
// document (ties: the cheaper, then the first): the point bench/front.py
// sets a Cronus point of that cost against. ok is false when none is
// that cheap; points without the metric, or with NaN, are left out.
func BestBaseline(points []Point, split, metric string, cost float64) (best Point, ok bool) {
	for _, p := range points {
		v, has := p.Metrics[metric]
		if !IsBaseline(p.Method) || p.Split != split || !has || math.IsNaN(v) || !(p.Cost.Total <= cost) {
			continue
		}
		if bv := best.Metrics[metric]; !ok || v > bv || v == bv && p.Cost.Total < best.Cost.Total {
			best, ok = p, true
		}
	}
	return best, ok
}

// Pareto returns the points that no other point dominates on total cost and
// the named metric: q dominates p when q costs no more and scores no less,
// and is strictly better on one of the two. Points without a value for
// metric, or with a NaN value or a NaN cost, are left out. Equal points do
// not dominate each other, so duplicates are all kept. The result is sorted
// by cost, ascending (equal costs by metric, descending, then in input
// order); points is not modified.
func Pareto(points []Point, metric string) []Point {
	var cand []Point
	for _, p := range points {
		if v, ok := p.Metrics[metric]; ok && !math.IsNaN(v) && !math.IsNaN(p.Cost.Total) {
			cand = append(cand, p)
		}
	}
	slices.SortStableFunc(cand, func(a, b Point) int {
		if c := cmp.Compare(a.Cost.Total, b.Cost.Total); c != 0 {
			return c
		}
		return cmp.Compare(b.Metrics[metric], a.Metrics[metric])
	})
	// After the sort, only an earlier point can dominate a later one (a
	// later point costs at least as much, and at equal cost scores no
	// more), so a point is kept when its metric beats every earlier one's,
	// or equals the best so far at the same cost as the point holding it.
	var front []Point
	var best, bestCost float64
	for _, p := range cand {
		v := p.Metrics[metric]
		switch {
		case len(front) == 0 || v > best:
			best, bestCost = v, p.Cost.Total
			front = append(front, p)
		case v == best && p.Cost.Total == bestCost:
			front = append(front, p)
		}
	}
	return front
}

// SplitPareto is Pareto of the points of one split: those that no other
// point of that split dominates.
func SplitPareto(points []Point, split, metric string) []Point {
	var ps []Point
	for _, p := range points {
		if p.Split == split {
			ps = append(ps, p)
		}
	}
	return Pareto(ps, metric)
}
