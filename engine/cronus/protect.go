package cronus

import (
	"cmp"
	"math"
	"slices"
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
	pt := pr.newProtector(c.TopM)
	// Queries are independent: each chunk of them goes through every stage.
	parallelChunks(func(ch int) {
		q0, q1 := pt.queries(ch)
		best := make([]int, 0, pt.m)
		for k, p := range prot[:max(K-1, 0)] {
			if p != nil { // a stage that passes everything changes nothing
				pt.markQueries(q0, q1, scores[k], p, best)
				pt.passQueries(q0, q1, scores[k], p, c.Stages[k].Theta)
			}
		}
	})
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
// An m above the longest query's length protects as much as that length
// does: it is cut to it (the scratch lists are m long, and a huge m
// failed to allocate them, a panic on --top-m 2^63-1).
func (pr *Problem) newProtector(m int) *protector {
	reach := make([]bool, pr.Train.N)
	for i := range reach {
		reach[i] = true
	}
	longest := 0
	for q := range len(pr.Offsets) - 1 {
		longest = max(longest, pr.Offsets[q+1]-pr.Offsets[q])
	}
	return &protector{pr: pr, m: min(m, longest), reach: reach}
}

// queries returns the range of queries of chunk ch (of evalChunks).
func (pt *protector) queries(ch int) (int, int) {
	nq := len(pt.pr.Offsets) - 1
	return nq * ch / evalChunks, nq * (ch + 1) / evalChunks
}

// mark sets p[i] for the m best documents by stage score s among those of
// each query that reach the stage (p is all false on entry), the queries
// in parallel.
func (pt *protector) mark(s []float64, p []bool) {
	parallelChunks(func(ch int) {
		q0, q1 := pt.queries(ch)
		pt.markQueries(q0, q1, s, p, make([]int, 0, pt.m))
	})
}

// pass moves on to the next stage: a document below θ that p (nil: none)
// does not protect leaves.
func (pt *protector) pass(s []float64, p []bool, theta float64) {
	parallelChunks(func(ch int) {
		q0, q1 := pt.queries(ch)
		pt.passQueries(q0, q1, s, p, theta)
	})
}

// markInsertMax is the largest m for which markQueries keeps a query's m
// best in a list by insertion; above it, it sorts the query's documents.
const markInsertMax = 16

// markQueries is mark for the queries [q0, q1), with best as scratch.
func (pt *protector) markQueries(q0, q1 int, s []float64, p []bool, best []int) {
	offsets, m := pt.pr.Offsets, pt.m
	for q := q0; q < q1; q++ {
		if offsets[q+1]-offsets[q] <= m {
			// every document of the query that reaches the stage
			// (insertion into a list as long as the query took time
			// quadratic in it)
			for i := offsets[q]; i < offsets[q+1]; i++ {
				p[i] = pt.reach[i]
			}
			continue
		}
		if m > markInsertMax {
			// Sort the documents that reach the stage and take the first
			// m: the insertion below takes up to m steps a document,
			// n·m for a query of n (on one query of 50,000 documents,
			// --top-m 40000 made cronus cascade take 529 s against 4.5 s
			// at m = 5). The same documents either way.
			best = best[:0]
			for i := offsets[q]; i < offsets[q+1]; i++ {
				if pt.reach[i] {
					best = append(best, i)
				}
			}
			if len(best) > m {
				slices.SortFunc(best, func(a, b int) int {
					if c := cmp.Compare(s[b], s[a]); c != 0 { // higher first, NaN last (better)
						return c
					}
					return cmp.Compare(a, b) // ties to the lower index
				})
				best = best[:m]
			}
			for _, i := range best {
				p[i] = true
			}
			continue
		}
		best = best[:0] // the query's m best so far, best first
		for i := offsets[q]; i < offsets[q+1]; i++ {
			if !pt.reach[i] {
				continue
			}
			// Insertion into the short list (m is small). Documents come in
			// index order, so a tie never displaces an earlier one.
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
}

// passQueries is pass for the documents of the queries [q0, q1).
func (pt *protector) passQueries(q0, q1 int, s []float64, p []bool, theta float64) {
	offsets := pt.pr.Offsets
	for i := offsets[q0]; i < offsets[q1]; i++ {
		if pt.reach[i] && s[i] < theta && (p == nil || !p[i]) {
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

// IdleFrom returns the first stage of c before its last that only each
// query's TopM best training documents reach under the hard rule
// (HardFractions): RuleTopM never exits them, and no fewer can reach a
// later stage, so from there to the last stage none sends a document
// away, and such stages can only add cost. This happens when earlier
// stages have already thinned every query to its m best (after about nine
// stages at ε = 0.15 on MQ2008, m = 5). It returns len(c.Stages)−1 when
// every stage before the last may exit some, as always under RuleGlobal.
// Floor is the fraction of the training documents those stages keep.
func (pr *Problem) IdleFrom(c *Cascade) (k int, floor float64) {
	K := len(c.Stages)
	if c.Rule != RuleTopM || c.TopM <= 0 {
		return K - 1, 0
	}
	top := 0
	for q := 0; q+1 < len(pr.Offsets); q++ {
		top += min(c.TopM, pr.Offsets[q+1]-pr.Offsets[q])
	}
	// As HardFractions divides the count of documents reaching a stage.
	floor = float64(top) / float64(pr.Train.N)
	hard := pr.HardFractions(c)
	for k := range K - 1 {
		if hard[k] == floor {
			return k, floor
		}
	}
	return K - 1, floor
}
