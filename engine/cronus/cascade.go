package cronus

import (
	"fmt"
	"math"
	"slices"

	"github.com/cronus-ltr/cronus/engine/tree"
)

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

// FirstStages returns the cascade of c's first k stages (1 <= k <=
// len(c.Stages)), as File.FirstStages cuts a file: stage k, now the last,
// passes nothing on, so its threshold is −Inf; the weights are c's own,
// shared. It panics when k is out of range.
func (c *Cascade) FirstStages(k int) *Cascade {
	if k < 1 || k > len(c.Stages) {
		panic(fmt.Sprintf("cronus: FirstStages(%d) of a cascade of %d stages", k, len(c.Stages)))
	}
	cut := &Cascade{Stages: slices.Clone(c.Stages[:k]), Rule: c.Rule, TopM: c.TopM}
	cut.Stages[k-1].Theta = math.Inf(-1)
	return cut
}

// DefaultLastPrefixes are the prefix lengths n whose LastPrefix variants
// `cronus sweep --variants` and the workbench score by default (those up
// to the ensemble's trees): the lengths bench/last-prefix.sh tried.
var DefaultLastPrefixes = []int{10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500}

// FirstKept is the index of c's first stage that keeps a tree, or
// len(c.Stages) when none does. A LastPrefix variant of c filters
// documents before its last stage only when FirstKept is below the last
// stage; otherwise it is the ensemble's prefix itself.
func (c *Cascade) FirstKept() int {
	for k := range c.Stages {
		if len(c.Stages[k].Active()) > 0 {
			return k
		}
	}
	return len(c.Stages)
}

// LastPrefix returns c with its last stage the base ensemble's first n
// trees, each of weight 1, and the intercept base (the ensemble's base
// score): the cascade File.LastStagePrefix makes of a file, which `eval
// --last-prefix n` runs. The earlier stages are c's, shared. It panics
// when n is not from 1 to the trees (len(Beta) − 1).
func (c *Cascade) LastPrefix(n int, base float64) *Cascade {
	K := len(c.Stages)
	T := len(c.Stages[K-1].Beta) - 1
	if n < 1 || n > T {
		panic(fmt.Sprintf("cronus: LastPrefix(%d) of a cascade over %d trees", n, T))
	}
	beta := make([]float64, T+1)
	for t := range n {
		beta[t] = 1
	}
	beta[T] = base
	out := &Cascade{Stages: slices.Clone(c.Stages), Rule: c.Rule, TopM: c.TopM}
	out.Stages[K-1] = Stage{Beta: beta, Theta: c.Stages[K-1].Theta}
	return out
}

// StageEnsemble returns stage k of c over the trees of e as an ensemble of
// its own: the trees with a non-zero weight, in order, each leaf value
// h (rounded to float32, as the stage scores it) times the tree's weight,
// and the intercept as the base score. Its Predict is the stage's score
// up to rounding, so the stage can be served by any tool that scores an
// ensemble (tree.ExportXGBoost). The trees keep their statistics (the
// weight scales a tree's feature contributions, which stay exact). The
// objective is regression: a stage score is the fit of squared loss.
func StageEnsemble(e *tree.Ensemble, c *Cascade, k int) *tree.Ensemble {
	s := &c.Stages[k]
	T := len(s.Beta) - 1
	out := &tree.Ensemble{Base: s.Beta[T], NumFeatures: e.NumFeatures, Objective: "regression"}
	for _, t := range s.Active() {
		src := &e.Trees[t]
		leaves := make([]float64, len(src.Leaves))
		for l, v := range src.Leaves {
			leaves[l] = s.Beta[t] * float64(float32(v))
		}
		out.Trees = append(out.Trees, tree.Tree{Nodes: src.Nodes, Leaves: leaves, Gain: src.Gain, Cover: src.Cover, LeafCover: src.LeafCover})
	}
	return out
}
