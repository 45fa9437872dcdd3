package baseline

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// Pareto against its definition, point by point: a point is on the front
// exactly when it has a value for the metric (not NaN, nor a NaN cost)
// and no other such point costs no more and scores no less while being
// strictly better on one of the two. Costs and scores are drawn from small
// grids so that ties, duplicates and infinities are common; the front must
// be in the documented order (cost ascending, then metric descending,
// then input order).
func TestParetoMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 8))
	costs := []float64{0, 1, 2, 3, math.Inf(1), math.NaN()}
	scores := []float64{0, 0.25, 0.5, 0.75, 1, math.Inf(-1), math.NaN()}
	for trial := range 3000 {
		n := r.IntN(12)
		points := make([]Point, n)
		for i := range points {
			points[i] = pt(string(rune('a'+i)), costs[r.IntN(len(costs))])
			if r.IntN(8) > 0 { // sometimes no value at all
				points[i].Metrics["ndcg@10"] = scores[r.IntN(len(scores))]
			}
		}
		valid := func(p Point) bool {
			v, ok := p.Metrics["ndcg@10"]
			return ok && !math.IsNaN(v) && !math.IsNaN(p.Cost.Total)
		}
		var want []int
		for i, p := range points {
			if !valid(p) {
				continue
			}
			dominated := false
			for j, q := range points {
				if j == i || !valid(q) {
					continue
				}
				pc, qc, pv, qv := p.Cost.Total, q.Cost.Total, p.Metrics["ndcg@10"], q.Metrics["ndcg@10"]
				if qc <= pc && qv >= pv && (qc < pc || qv > pv) {
					dominated = true
					break
				}
			}
			if !dominated {
				want = append(want, i)
			}
		}
		slices.SortStableFunc(want, func(a, b int) int {
			pa, pb := points[a], points[b]
			switch {
			case pa.Cost.Total < pb.Cost.Total:
				return -1
			case pa.Cost.Total > pb.Cost.Total:
				return 1
			case pa.Metrics["ndcg@10"] > pb.Metrics["ndcg@10"]:
				return -1
			case pa.Metrics["ndcg@10"] < pb.Metrics["ndcg@10"]:
				return 1
			}
			return a - b
		})
		var wantNames, gotNames []string
		for _, i := range want {
			wantNames = append(wantNames, points[i].Method)
		}
		for _, p := range Pareto(points, "ndcg@10") {
			gotNames = append(gotNames, p.Method)
		}
		if !slices.Equal(gotNames, wantNames) {
			t.Fatalf("trial %d: Pareto of %v = %v, want %v", trial, describe(points), gotNames, wantNames)
		}
	}
}

// describe lists points as method(cost, ndcg@10) for a failure message.
func describe(points []Point) []string {
	var s []string
	for _, p := range points {
		v, ok := p.Metrics["ndcg@10"]
		if !ok {
			s = append(s, p.Method+"(-)")
			continue
		}
		s = append(s, p.Method+"("+ftoa(p.Cost.Total)+","+ftoa(v)+")")
	}
	return s
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
