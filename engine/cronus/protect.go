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
	for k := 0; k < K-1; k++ {
		if !math.IsInf(c.Stages[k].Theta, -1) {
			prot[k] = backing[k*n : (k+1)*n]
		}
	}
	m := c.TopM
	nq := len(pr.Offsets) - 1
	// Queries are independent: each chunk of queries runs every stage.
	parallelChunks(func(ch int) {
		reach := make([]bool, 0, 64)
		best := make([]int, 0, m) // the query's m best so far, best first
		for q := nq * ch / evalChunks; q < nq*(ch+1)/evalChunks; q++ {
			lo, hi := pr.Offsets[q], pr.Offsets[q+1]
			reach = reach[:0]
			for i := lo; i < hi; i++ {
				reach = append(reach, true)
			}
			for k := 0; k < K-1; k++ {
				p := prot[k]
				if p == nil {
					continue // passes everything
				}
				s := scores[k]
				best = best[:0]
				for i := lo; i < hi; i++ {
					if !reach[i-lo] {
						continue
					}
					// Insertion into the short list (m is small). Documents
					// come in index order, so a tie never displaces an
					// earlier one.
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
				th := c.Stages[k].Theta
				for i := lo; i < hi; i++ {
					if reach[i-lo] && !p[i] && s[i] < th {
						reach[i-lo] = false
					}
				}
			}
		}
	})
	return prot
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
