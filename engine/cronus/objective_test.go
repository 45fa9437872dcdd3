package cronus

import (
	"math"
	"testing"
)

// Eq (8) of Chen et al. (2012) on the hand case of the scorer tests,
// computed here term by term from the paper's definitions (§3.2) with the
// tree values written out by hand, against Problem.Objective: the
// expected squared loss under the soft exits, ℓ1 on the tree weights (not
// the intercept), and the tree and feature costs as mixed norms across
// stages weighted by the reach fractions d_k. With the top-m rule a
// query's m best documents by the stage's score pass it with probability
// 1.
func TestObjectiveHandWorked(t *testing.T) {
	d := scHandData()
	d.Labels = []float32{2, 0, 1, 0, 0, 1} // positives: d0, d2, d5
	tg := DefaultTargets()
	tg.NegMultiply = 2
	pr, err := NewProblem(scHandEnsemble(), d, scHandFeatCost, 1, tg)
	if err != nil {
		t.Fatal(err)
	}
	// The trees' values per document (scHandData's comments), the targets
	// and weights, and the features each tree splits on.
	h := [][3]float64{{1, 0, 20}, {-1, 4, 10}, {-1, 2, 10}, {1, 4, 30}, {-1, 0, 10}, {1, 2, 20}}
	y := []float64{1, -1, 1, -1, -1, 1}
	w := []float64{3.5, 2, 3.5, 2, 2, 3.5}
	uses := [][]int{{0}, {1, 2}, {0, 3}} // F_αt = 1 for α in uses[t]
	query := []int{0, 0, 0, 1, 1, 1}

	beta := [][]float64{{1, .25, 0, 0.5}, {0.5, 1, 0.1, -2}} // trees 0-2, then the intercept
	theta, sigma, rho := 1.2, []float64{0.5, 1}, []float64{0.1, 0.2}
	const lambda = 0.01

	for _, topM := range []int{0, 1} {
		st := &State{Cascade: Cascade{Stages: []Stage{{Beta: beta[0], Theta: theta}, {Beta: beta[1], Theta: math.Inf(-1)}}},
			Sigma: sigma, Rho: rho, Lambda: lambda}
		if topM > 0 {
			st.Rule, st.TopM = RuleTopM, topM
		}
		got := pr.Objective(st)

		score := func(k, i int) float64 {
			return beta[k][0]*h[i][0] + beta[k][1]*h[i][1] + beta[k][2]*h[i][2] + beta[k][3]
		}
		// Stage-0 scores: 1.5, 0.5, 0, 2, 0, 2 (queries 0 and 1); the best
		// of each query is d0 and d3.
		best := []int{0, 3}
		var loss, reach float64
		for i := range y {
			pass := 1 / (1 + math.Exp(-(score(0, i)-theta)/sigma[0]))
			if topM > 0 && best[query[i]] == i {
				pass = 1
			}
			q := []float64{1 - pass, pass} // q_i^1 = p_i^1(1 − I), q_i^K = p_i^K
			for k := range q {
				r := y[i] - score(k, i)
				loss += 0.5 * w[i] * q[k] * r * r
			}
			reach += pass
		}
		dk := []float64{1, reach / float64(len(y))}
		var reg, treeCost, featCost float64
		featSq := make([]float64, len(scHandFeatCost))
		for t := range 3 {
			sq := 0.0
			for k := range beta {
				reg += rho[k] * math.Abs(beta[k][t])
				sq += (beta[k][t] * dk[k]) * (beta[k][t] * dk[k])
			}
			treeCost += lambda * 1 * math.Sqrt(sq)
			for _, a := range uses[t] {
				featSq[a] += sq
			}
		}
		for a, sq := range featSq {
			featCost += lambda * scHandFeatCost[a] * math.Sqrt(sq)
		}
		want := Terms{Loss: loss, Reg: reg, TreeCost: treeCost, FeatCost: featCost, Total: loss + reg + treeCost + featCost}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }
		if !near(got.Loss, want.Loss) || !near(got.Reg, want.Reg) || !near(got.TreeCost, want.TreeCost) ||
			!near(got.FeatCost, want.FeatCost) || !near(got.Total, want.Total) {
			t.Errorf("top-m %d: eq (8) terms %+v, by hand %+v", topM, got, want)
		}
		if !near(st.D[0], dk[0]) || !near(st.D[1], dk[1]) {
			t.Errorf("top-m %d: d = %v, by hand %v", topM, st.D, dk)
		}
	}
}
