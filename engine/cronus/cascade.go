package cronus

import "math"

// Stage is one stage of a cascade: weights over the trees (the last entry is
// the intercept) and the exit threshold. A document whose stage score
// h(x)ᵀβ is below Theta leaves the cascade here. Theta = −Inf passes every
// document; the last stage's Theta is ignored.
type Stage struct {
	Beta  []float64
	Theta float64
}

// Active returns the trees (indices) with a non-zero weight.
func (s *Stage) Active() []int {
	var ts []int
	for t, b := range s.Beta[:len(s.Beta)-1] {
		if b != 0 {
			ts = append(ts, t)
		}
	}
	return ts
}

// Exit rules beyond the paper's global threshold (see Cascade.Rule).
const (
	RuleGlobal = "global" // exit when the stage score is below θ^k (the paper)
	RuleTopM   = "top-m"  // as global, but a query's M best documents at the stage never exit
)

// Cascade is a K-stage cascade over the trees of an ensemble.
type Cascade struct {
	Stages []Stage
	Rule   string // RuleGlobal (default) or RuleTopM
	TopM   int    // with RuleTopM: documents per query that always go on
}

// Passes reports whether a document with stage score s goes on past stage
// k under the global rule.
func (c *Cascade) Passes(k int, s float64) bool {
	if k == len(c.Stages)-1 {
		return false
	}
	th := c.Stages[k].Theta
	return math.IsInf(th, -1) || s >= th
}
