package cronus

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The stages Refit refits.
const (
	RefitLast = "last" // the last stage only: the ranking of what reaches it
	RefitAll  = "all"  // every stage with trees, each on the documents that leave there
)

// RefitModes are the modes Refit takes, in the order Optimize tries them.
var RefitModes = []string{RefitLast, RefitAll}

// Refit returns a copy of st whose stages (mode RefitLast: the last;
// RefitAll: every one) have their weights refitted without the penalties
// of eq (8), on the trees they already use: the relaxed lasso (Meinshausen
// 2007), or post-lasso least squares. The ℓ1 terms of eq (8) choose which
// trees each stage uses, and so what it costs; they also shrink the weights
// of the trees they keep, and on the synthetic set that shrinkage cost more
// ranking quality than the trees it saved (bench/MEASURED.md, "Refitting").
//
// Stage k's new weights (its trees and the intercept) minimise the squared
// loss Σ_i ω_i (y_i − s_i^k)² over the training documents that leave the
// cascade at stage k under st's hard rule, which is eq (8)'s loss with hard
// exits: the last stage sees what reaches it, an earlier stage what it
// rejects. A stage stays as it is when fewer documents leave there than it
// has weights, or when its least-squares system is singular even after a
// jitter (solveSPD). The trees, and so the features, of every stage are
// unchanged (but for a tree whose output is 0 on every document the stage
// is fitted to: it gets weight 0 and drops out; a stage before the last
// whose trees would all drop out so stays as it is, since its exit ranks
// by them and a stage without trees passes everything), and so is the number of
// documents that go on past each stage
// on the training data: θ^k is set anew for the refitted weights so that as
// many of the documents that reached stage k under st go on (under
// RuleTopM, counting a query's M best documents at the stage, which always
// go on), and σ_k is scaled by the change of the stage's score spread
// over those documents, so that its soft exit stays as soft. A refit
// cascade is therefore about as dear as st, which the scorer, not
// Refit, measures; Optimize keeps it only when it is better on validation.
//
// Refit stops when ctx ends, before each stage, and returns ctx.Err().
// The result does not depend on the number of cores (GramSubset).
func (pr *Problem) Refit(ctx context.Context, st *State, mode string) (*State, error) {
	K := len(st.Stages)
	first := 0
	switch mode {
	case RefitLast:
		first = K - 1
	case RefitAll:
	default:
		panic(fmt.Sprintf("cronus: Refit: unknown mode %q", mode))
	}
	n, T := pr.Train.N, pr.Train.NumTrees()
	exit := pr.hardExits(&st.Cascade)
	out := st.clone()
	w := make([]float64, n)
	for k := first; k < K; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		act := st.Stages[k].Active()
		m := 0
		for i, x := range exit {
			w[i] = 0
			if x == k {
				w[i] = pr.Omega[i]
				m++
			}
		}
		if len(act) == 0 || m < len(act)+1 {
			continue
		}
		cols := append(slices.Clone(act), T)
		G, r := GramSubset(nil, nil, pr.Train, w, pr.Y, cols, 0)
		x, ok := solveSPD(G, r, len(cols))
		if !ok {
			continue
		}
		if k < K-1 && !slices.ContainsFunc(x[:len(act)], func(b float64) bool { return b != 0 }) {
			continue // no tree left to rank its exit by
		}
		beta := make([]float64, T+1)
		for a, t := range cols {
			beta[t] = x[a]
		}
		if k < K-1 && !math.IsInf(st.Stages[k].Theta, -1) {
			theta, scale := pr.rethreshold(&st.Cascade, k, exit, beta)
			out.Stages[k].Theta = theta
			if scale > 0 && !math.IsInf(scale, 0) && !math.IsNaN(scale) {
				out.Sigma[k] *= scale
			}
		}
		out.Stages[k].Beta = beta
	}
	pr.Objective(out)
	out.Hard = pr.HardFractions(&out.Cascade)
	return out, nil
}

// rethreshold returns the θ under which new stage weights beta pass on as
// many of the training documents that reach stage k under c (exit[i] ≥ k)
// as c's stage k did (exit[i] > k), with c's protection rule, and the ratio
// of the new scores' spread to the old over those documents.
func (pr *Problem) rethreshold(c *Cascade, k int, exit []int, beta []float64) (theta, scale float64) {
	n := pr.Train.N
	old := pr.Train.Scores(nil, c.Stages[k].Beta)
	s := pr.Train.Scores(nil, beta)
	reach := make([]float64, n)
	pass := 0
	for i, x := range exit {
		if x >= k {
			reach[i] = 1
		}
		if x > k {
			pass++
		}
	}
	var prot []bool
	if c.Rule == RuleTopM && c.TopM > 0 {
		pt := pr.newProtector(c.TopM)
		for i := range pt.reach {
			pt.reach[i] = reach[i] == 1
		}
		prot = make([]bool, n)
		pt.mark(s, prot)
	}
	var free []float64 // the scores of the reaching documents nothing protects
	for i, r := range reach {
		if r == 0 {
			continue
		}
		if prot != nil && prot[i] {
			pass--
			continue
		}
		free = append(free, s[i])
	}
	if so := spread(old, reach); so > 0 {
		scale = spread(s, reach) / so
	}
	slices.SortFunc(free, func(a, b float64) int { return -cmpFloat(a, b) })
	switch {
	case len(free) == 0:
		theta = c.Stages[k].Theta // nothing to pass or stop
	case pass <= 0:
		theta = math.Nextafter(free[0], math.Inf(1)) // none goes on but the protected
	case pass >= len(free):
		theta = free[len(free)-1]
	default:
		theta = free[pass-1]
	}
	return theta, scale
}

// cmpFloat orders float64s, NaN first (lowest).
func cmpFloat(a, b float64) int {
	switch {
	case better(a, b):
		return 1
	case better(b, a):
		return -1
	}
	return 0
}

// solveSPD solves G x = r for the p×p symmetric positive semi-definite G
// (row-major), equilibrated to a unit diagonal and factorised by Cholesky;
// when that fails, with a jitter of 1e-10 on the diagonal, raised tenfold
// up to 1e-4. A column with a zero diagonal (an output that is zero on
// every weighted document) gets a zero weight. It reports false when no
// jitter makes the system positive definite or the solution is not finite.
func solveSPD(G, r []float64, p int) ([]float64, bool) {
	d := make([]float64, p)
	var live []int
	for a := 0; a < p; a++ {
		if g := G[a*p+a]; g > 0 {
			d[a] = 1 / math.Sqrt(g)
			live = append(live, a)
		}
	}
	q := len(live)
	x := make([]float64, p)
	if q == 0 {
		return x, true
	}
	rhs := mat.NewVecDense(q, nil)
	for i, a := range live {
		rhs.SetVec(i, r[a]*d[a])
	}
	for try := 0; try <= 7; try++ {
		jitter := 0.0 // then 1e-10, 1e-9, …, 1e-4
		if try > 0 {
			jitter = math.Pow(10, float64(try-11))
		}
		A := mat.NewSymDense(q, nil)
		for i, a := range live {
			for j, b := range live[i:] {
				A.SetSym(i, i+j, G[a*p+b]*d[a]*d[b])
			}
			A.SetSym(i, i, A.At(i, i)+jitter)
		}
		var ch mat.Cholesky
		if !ch.Factorize(A) {
			continue
		}
		var y mat.VecDense
		if err := ch.SolveVecTo(&y, rhs); err != nil {
			continue
		}
		ok := true
		for i, a := range live {
			x[a] = y.AtVec(i) * d[a]
			ok = ok && !math.IsNaN(x[a]) && !math.IsInf(x[a], 0)
		}
		return x, ok
	}
	return x, false
}

// hardExits returns, per training document, the 0-based stage at which it
// leaves cascade c under the hard rule (K−1 for those that reach the last
// stage), walked stage by stage with the protector the optimiser uses.
func (pr *Problem) hardExits(c *Cascade) []int {
	n, K := pr.Train.N, len(c.Stages)
	pt := pr.newProtector(c.TopM)
	var prot []bool // the documents the current stage protects (RuleTopM)
	if c.Rule == RuleTopM && c.TopM > 0 {
		prot = make([]bool, n)
	}
	exit := make([]int, n)
	for i := range exit {
		exit[i] = K - 1
	}
	s := make([]float64, n)
	for k, stg := range c.Stages {
		if k == K-1 || math.IsInf(stg.Theta, -1) {
			continue
		}
		pr.Train.Scores(s, stg.Beta)
		if prot != nil {
			clear(prot)
			pt.mark(s, prot)
		}
		pt.pass(s, prot, stg.Theta)
		for i, r := range pt.reach {
			if !r && exit[i] == K-1 {
				exit[i] = k
			}
		}
	}
	return exit
}
