package cronus

import "math"

// Under RuleTopM a query's m best documents at a stage never exit there.
// When the cascade is trained with that rule (Params.TopM > 0), eq (8)'s
// soft exit of such a document is 1 instead of the sigmoid: the objective
// sees the cascade the scorer runs. Which documents are protected is a
// step function of the scores; the stage step holds it fixed while L-BFGS
// moves the stage (as it holds the auxiliary variables), and every
// evaluation of eq (8) itself recomputes it.

// protectedSets returns, for every stage but the last, which training
// documents are protected there: the TopM best by that stage's score (ties
// to the lower index, as the scorer breaks them) among the documents of
// their query that reach the stage under the hard rule. A stage that
// passes everything (θ = −Inf) gets nil: protection changes nothing there.
// It returns nil when c's rule protects nothing.
func (pr *Problem) protectedSets(c *Cascade, scores [][]float64) [][]bool {
	if c.Rule != RuleTopM || c.TopM <= 0 {
		return nil
	}
	n := pr.Train.N
	K := len(c.Stages)
	prot := make([][]bool, K)
	backing := make([]bool, n*max(K-1, 0))
	pt := pr.newProtector(c.TopM)
	for k := 0; k < K-1; k++ {
		th := c.Stages[k].Theta
		if math.IsInf(th, -1) {
			continue
		}
		prot[k] = backing[k*n : (k+1)*n]
		pt.mark(scores[k], prot[k])
		pt.pass(scores[k], prot[k], th)
	}
	return prot
}

// protector finds the protected documents of one stage after another,
// keeping which training documents reach the next stage.
type protector struct {
	pr    *Problem
	m     int
	reach []bool
}

// newProtector starts at the first stage, which every document reaches.
func (pr *Problem) newProtector(m int) *protector {
	reach := make([]bool, pr.Train.N)
	for i := range reach {
		reach[i] = true
	}
	return &protector{pr: pr, m: m, reach: reach}
}

// mark sets p[i] for the m best documents by stage score s among those of
// each query that reach the stage (p is all false on entry). Queries are
// independent: they are split into evalChunks ranges run in parallel.
func (pt *protector) mark(s []float64, p []bool) {
	offsets, m := pt.pr.Offsets, pt.m
	nq := len(offsets) - 1
	parallelChunks(func(ch int) {
		best := make([]int, 0, m) // the query's m best so far, best first
		for q := nq * ch / evalChunks; q < nq*(ch+1)/evalChunks; q++ {
			best = best[:0]
			for i := offsets[q]; i < offsets[q+1]; i++ {
				if !pt.reach[i] {
					continue
				}
				// Insertion into the short list (m is small). Documents come
				// in index order, so a tie never displaces an earlier one.
				j := len(best)
				if j == m {
					if !better(s[i], s[best[m-1]]) {
						continue
					}
					j--
				} else {
					best = append(best, 0)
				}
				for j > 0 && better(s[i], s[best[j-1]]) {
					best[j] = best[j-1]
					j--
				}
				best[j] = i
			}
			for _, i := range best {
				p[i] = true
			}
		}
	})
}

// pass moves on to the next stage: a document below θ that p does not
// protect leaves.
func (pt *protector) pass(s []float64, p []bool, theta float64) {
	for i, ok := range pt.reach {
		if ok && !p[i] && s[i] < theta {
			pt.reach[i] = false
		}
	}
}

// better reports whether score x ranks strictly above y: higher, NaN
// lowest (the order of byScore, without its tie-break).
func better(x, y float64) bool {
	return x > y || y != y && x == x
}

// passProb is the soft probability of going on past a stage: 1 for a
// protected document, the sigmoid otherwise.
func passProb(prot []bool, i int, s, theta, sigma float64) float64 {
	if prot != nil && prot[i] {
		return 1
	}
	return sigmoid(s, theta, sigma)
}
