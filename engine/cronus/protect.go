package cronus

import (
	"cmp"
	"math"
)

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
// their query that reach the stage under the hard rule. It returns nil when
// c's rule protects nothing.
func (pr *Problem) protectedSets(c *Cascade, scores [][]float64) [][]bool {
	if c.Rule != RuleTopM || c.TopM <= 0 {
		return nil
	}
	n := pr.Train.N
	K := len(c.Stages)
	reach := make([]bool, n)
	for i := range reach {
		reach[i] = true
	}
	prot := make([][]bool, K)
	m := c.TopM
	best := make([]int, 0, m+1) // the query's m best so far, best first
	for k := 0; k < K-1; k++ {
		prot[k] = make([]bool, n)
		s := scores[k]
		for q := 0; q+1 < len(pr.Offsets); q++ {
			best = best[:0]
			for i := pr.Offsets[q]; i < pr.Offsets[q+1]; i++ {
				if !reach[i] {
					continue
				}
				// Insertion into the short list (m is small): the documents
				// come in index order, so byScore64's tie-break is kept.
				j := len(best)
				if j == m {
					if byScore64(s, i, best[m-1]) >= 0 {
						continue
					}
					j--
				} else {
					best = append(best, 0)
				}
				for j > 0 && byScore64(s, i, best[j-1]) < 0 {
					best[j] = best[j-1]
					j--
				}
				best[j] = i
			}
			for _, i := range best {
				prot[k][i] = true
			}
		}
		th := c.Stages[k].Theta
		if math.IsInf(th, -1) {
			continue
		}
		for i, ok := range reach {
			if ok && !prot[k][i] && s[i] < th {
				reach[i] = false
			}
		}
	}
	return prot
}

// byScore64 is byScore for global document indices.
func byScore64(s []float64, a, b int) int {
	if c := cmp.Compare(s[b], s[a]); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// passProb is the soft probability of going on past a stage: 1 for a
// protected document, the sigmoid otherwise.
func passProb(prot []bool, i int, s, theta, sigma float64) float64 {
	if prot != nil && prot[i] {
		return 1
	}
	return sigmoid(s, theta, sigma)
}
