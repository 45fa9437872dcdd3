package cronus

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/optimize"
)

// stageObjective is eq (8) as a function of one stage's weights (on its
// active trees and the intercept) and threshold, the other stages fixed and
// the auxiliary variables of eq (11) fixed at their closed-form values:
//
//	|β_t^k|            → ½(β²/σ_t + σ_t)
//	√Σ_j (β_t^j d_j)²  → ½(Σ_j (β_t^j d_j)²/κ_t + κ_t)
//	√Σ_j Σ_t (F_αt β_t^j d_j)² → ½(…/η_α + η_α)
//
// The soft exit of stage k changes the inputs that reach every later stage,
// so d_j (j > k) depends on β^k and θ^k: the gradient carries that term.
type stageObjective struct {
	pr   *Problem
	st   *State
	k    int
	act  []int  // the active trees of stage k; x = (β_act…, intercept, θ)
	last bool   // k is the last stage: no exit, θ absent from x
	prot []bool // documents stage k protects (RuleTopM; nil: none), fixed during the step

	// Per document, fixed while stage k is optimised:
	p []float64   // probability of reaching stage k
	c []float64   // Σ_{j>k} q̃_i^j (y_i − s_i^j)², the later stages' loss per unit of I_i^k
	R [][]float64 // R[j−k−1][i]: probability of going from stage k+1 to stage j, j > k
	E float64     // the loss of stages before k (constant)

	// Auxiliary variables (eq 11) and the cost weights of the other stages.
	sigAux []float64 // σ_t for the active trees of stage k
	kappa  []float64 // κ_t per tree (0: tree unused anywhere)
	eta    []float64 // η_α per feature a tree uses, numbered as tf numbers them
	tf     [][]int   // the features of each tree, numbered by Problem.featSpace
	cost   []float64 // c_α in that numbering
	treeW  []float64 // per tree: e_t/κ_t + Σ_{α∈t} c_α/η_α (0 where κ_t = 0)
	costK  []float64 // per later stage j > k: Σ_t (β_t^j)² treeW_t, so that cost = ½λ Σ_j d_j² costK_j + …
	consts float64   // the surrogate terms that do not depend on stage k

	s     []float64   // scratch: stage-k scores, then ∂J/∂s
	I     []float64   // scratch: soft exits of stage k
	parts []chunkSums // per document chunk: partial sums

	// The last value-only evaluation, while s and I still hold its scores
	// and exits (see eval).
	cached  bool
	cx      []float64
	cf      float64
	cdLater []float64
}

// newStageObjective precomputes what stays fixed while stage k moves.
func newStageObjective(pr *Problem, st *State, k int) *stageObjective {
	n := pr.Train.N
	K := len(st.Stages)
	T := pr.Train.NumTrees()
	o := &stageObjective{pr: pr, st: st, k: k, last: k == K-1, s: make([]float64, n)}
	o.act = st.Stages[k].Active()
	// Scores and soft exits of every stage.
	scores := pr.stageScores(st)
	prot := pr.protectedSets(&st.Cascade, scores)
	o.prot = at(prot, k)
	I := make([][]float64, K)
	for j := range I {
		I[j] = make([]float64, n)
	}
	parallelChunks(func(c int) {
		for j := range st.Stages {
			for i := n * c / evalChunks; i < n*(c+1)/evalChunks; i++ {
				I[j][i] = 1
				if j < K-1 {
					I[j][i] = passProb(at(prot, j), i, scores[j][i], st.Stages[j].Theta, st.Sigma[j])
				}
			}
		}
	})
	o.p = make([]float64, n)
	o.c = make([]float64, n)
	o.R = make([][]float64, K-1-k)
	for j := range o.R {
		o.R[j] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		p := 1.0
		for j := 0; j < k; j++ {
			r := pr.Y[i] - scores[j][i]
			o.E += 0.5 * pr.Omega[i] * p * (1 - I[j][i]) * r * r
			p *= I[j][i]
		}
		o.p[i] = p
		R := 1.0 // probability of reaching stage j from stage k+1
		for j := k + 1; j < K; j++ {
			o.R[j-k-1][i] = R
			r := pr.Y[i] - scores[j][i]
			exit := 1.0
			if j < K-1 {
				exit = 1 - I[j][i]
			}
			o.c[i] += R * exit * r * r
			R *= I[j][i]
		}
	}
	// Auxiliary variables at the current point (closed form, eq 11).
	o.tf, o.cost = pr.featSpace()
	o.kappa, o.eta = pr.groupNorms(st, o.tf, len(o.cost))
	o.treeW = make([]float64, T)
	for t := 0; t < T; t++ {
		if o.kappa[t] == 0 {
			continue
		}
		w := pr.TreeCost[t] / o.kappa[t]
		for _, f := range o.tf[t] {
			w += o.cost[f] / o.eta[f]
		}
		o.treeW[t] = w
	}
	o.sigAux = make([]float64, len(o.act))
	for a, t := range o.act {
		o.sigAux[a] = math.Abs(st.Stages[k].Beta[t])
	}
	o.costK = make([]float64, K-1-k)
	for j := k + 1; j < K; j++ {
		for t, b := range st.Stages[j].Beta[:T] {
			o.costK[j-k-1] += b * b * o.treeW[t]
		}
	}
	// Constant surrogate terms: the auxiliary halves, the earlier stages'
	// weighted cost and every other stage's ℓ1 surrogate (= |β|).
	for t := 0; t < T; t++ {
		if o.kappa[t] > 0 {
			o.consts += 0.5 * st.Lambda * pr.TreeCost[t] * o.kappa[t]
		}
	}
	for f, e := range o.eta {
		if e > 0 {
			o.consts += 0.5 * st.Lambda * o.cost[f] * e
		}
	}
	for j := 0; j < k; j++ {
		for t, b := range st.Stages[j].Beta[:T] {
			o.consts += 0.5*st.Lambda*st.D[j]*st.D[j]*b*b*o.treeW[t] + st.Rho[j]*math.Abs(b)
		}
	}
	for j := k + 1; j < K; j++ {
		for _, b := range st.Stages[j].Beta[:T] {
			o.consts += st.Rho[j] * math.Abs(b)
		}
	}
	for a := range o.act {
		o.consts += 0.5 * st.Rho[k] * o.sigAux[a]
	}
	return o
}

// x returns the current point of stage k.
func (o *stageObjective) x() []float64 {
	stg := o.st.Stages[o.k]
	x := make([]float64, 0, len(o.act)+2)
	for _, t := range o.act {
		x = append(x, stg.Beta[t])
	}
	x = append(x, stg.Beta[len(stg.Beta)-1])
	if !o.last {
		x = append(x, stg.Theta)
	}
	return x
}

// set writes x back into the state's stage k.
func (o *stageObjective) set(x []float64) {
	stg := &o.st.Stages[o.k]
	if o.k < len(o.st.scores) {
		o.st.scores[o.k] = nil // stage k's cached scores are stale
	}
	for a, t := range o.act {
		stg.Beta[t] = x[a]
	}
	stg.Beta[len(stg.Beta)-1] = x[len(o.act)]
	if !o.last {
		stg.Theta = x[len(o.act)+1]
	}
}

// evalChunks is the fixed number of document ranges eval sums over: the
// partial sums are reduced in range order, so results do not depend on the
// number of cores.
const evalChunks = 8

// chunkSums are one document range's partial sums.
type chunkSums struct {
	loss   float64
	dLater []float64
	grad   []float64 // per active tree, then the intercept, then θ
}

// eval returns the surrogate objective at x and, when grad is not nil, its
// gradient.
//
// gonum's line search asks for the value and then the gradient at the same
// point, through separate calls: a value-only call keeps its stage scores,
// soft exits and reach fractions, and a gradient call at bit-for-bit the
// same x starts from them instead of computing them again.
func (o *stageObjective) eval(x, grad []float64) float64 {
	var f float64
	var dLater []float64
	if grad != nil && o.cached && sameBits(x, o.cx) {
		f, dLater = o.cf, o.cdLater
	} else {
		f, dLater = o.value(x)
	}
	o.cached = false
	if grad == nil {
		o.cx = append(o.cx[:0], x...)
		o.cf, o.cdLater, o.cached = f, dLater, true
		return f
	}
	o.gradient(x, grad, dLater)
	return f
}

// sameBits reports whether a and b hold the same float64s bit for bit.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// value computes, at x, the stage scores (into o.s), the soft exits (o.I),
// the later stages' reach fractions d_j and the surrogate objective.
func (o *stageObjective) value(x []float64) (float64, []float64) {
	pr, st, k := o.pr, o.st, o.k
	n := pr.Train.N
	na := len(o.act)
	nl := len(o.R)
	icpt := x[na]
	theta := 0.0
	if !o.last {
		theta = x[na+1]
	}
	sig := st.Sigma[k]
	if o.parts == nil {
		o.parts = make([]chunkSums, evalChunks)
		for c := range o.parts {
			o.parts[c] = chunkSums{dLater: make([]float64, nl), grad: make([]float64, na+2)}
		}
		o.I = make([]float64, n)
	}
	bounds := func(c int) (int, int) { return n * c / evalChunks, n * (c + 1) / evalChunks }
	s := o.s
	// Pass 1: stage scores, soft exits, the loss and the later reach
	// fractions, per chunk.
	parallelChunks(func(c int) {
		lo, hi := bounds(c)
		part := &o.parts[c]
		for i := lo; i < hi; i++ {
			s[i] = icpt
		}
		a := 0
		for ; a+1 < len(o.act); a += 2 {
			pr.Train.addScaled2(s[lo:hi], o.act[a], o.act[a+1], lo, x[a], x[a+1])
		}
		if a < len(o.act) {
			pr.Train.addScaled(s[lo:hi], o.act[a], lo, x[a])
		}
		// The sums run in document order into local accumulators (not
		// through memory, which would chain every addition on a store).
		loss := 0.0
		for i := lo; i < hi; i++ {
			r := pr.Y[i] - s[i]
			I := 1.0
			if !o.last {
				I = passProb(o.prot, i, s[i], theta, sig)
			}
			o.I[i] = I
			w := pr.Omega[i] * o.p[i]
			if o.last {
				loss += 0.5 * w * r * r
			} else {
				loss += 0.5 * w * ((1-I)*r*r + I*o.c[i])
			}
		}
		part.loss = loss
		p, I := o.p[lo:hi], o.I[lo:hi]
		for j := 0; j < nl; j++ {
			acc := 0.0
			for i, r := range o.R[j][lo:hi] {
				acc += p[i] * I[i] * r
			}
			part.dLater[j] = acc
		}
	})
	loss := o.E
	dLater := make([]float64, nl)
	for c := range o.parts {
		loss += o.parts[c].loss
		for j, v := range o.parts[c].dLater {
			dLater[j] += v
		}
	}
	for j := range dLater {
		dLater[j] /= float64(n)
	}
	// Surrogate costs and ℓ1 of stage k and of the later stages.
	lam := st.Lambda
	dk := st.D[k]
	f := loss + o.consts
	for a, t := range o.act {
		b := x[a]
		f += 0.5 * lam * dk * dk * b * b * o.treeW[t]
		if o.sigAux[a] > 0 {
			f += 0.5 * st.Rho[k] * b * b / o.sigAux[a]
		}
	}
	for j, cj := range o.costK {
		f += 0.5 * lam * dLater[j] * dLater[j] * cj
	}
	return f, dLater
}

// gradient writes into grad the surrogate's gradient at x, from what value
// computed at x; it overwrites o.s.
func (o *stageObjective) gradient(x, grad, dLater []float64) {
	pr, st, k := o.pr, o.st, o.k
	n := pr.Train.N
	na := len(o.act)
	nl := len(o.R)
	sig := st.Sigma[k]
	lam := st.Lambda
	dk := st.D[k]
	bounds := func(c int) (int, int) { return n * c / evalChunks, n * (c + 1) / evalChunks }
	s := o.s
	// ∂J/∂d_j for the later stages (d_j = (1/n) Σ_i p_i I_i^k R_ij).
	dCost := make([]float64, nl)
	for j, cj := range o.costK {
		dCost[j] = lam * dLater[j] * cj / float64(n)
	}
	// Pass 2: ∂J/∂s_i per document, then the partial gradients per chunk.
	parallelChunks(func(c int) {
		lo, hi := bounds(c)
		part := &o.parts[c]
		clear(part.grad)
		gs := s[lo:hi] // s_i is read before g_i overwrites it
		for i := lo; i < hi; i++ {
			r := pr.Y[i] - s[i]
			w := pr.Omega[i] * o.p[i]
			var g float64
			if o.last {
				g = -w * r
			} else {
				I := o.I[i]
				gI := 0.5 * w * (o.c[i] - r*r)
				for j := 0; j < nl; j++ {
					gI += dCost[j] * o.p[i] * o.R[j][i]
				}
				dIds := I * (1 - I) / sig
				g = -w*(1-I)*r + gI*dIds
				part.grad[na+1] -= gI * dIds
			}
			gs[i-lo] = g
			part.grad[na] += g
		}
		for a, t := range o.act {
			part.grad[a] = pr.Train.dot(t, lo, gs)
		}
	})
	for a, t := range o.act {
		v := lam * dk * dk * x[a] * o.treeW[t]
		if o.sigAux[a] > 0 {
			v += st.Rho[k] * x[a] / o.sigAux[a]
		}
		grad[a] = v
	}
	grad[na] = 0
	if !o.last {
		grad[na+1] = 0
	}
	for c := range o.parts {
		for a := 0; a <= na; a++ {
			grad[a] += o.parts[c].grad[a]
		}
		if !o.last {
			grad[na+1] += o.parts[c].grad[na+1]
		}
	}
}

// parallelChunks runs fn on every chunk 0..evalChunks-1, on all cores.
func parallelChunks(fn func(c int)) {
	w := min(runtime.GOMAXPROCS(0), evalChunks)
	if w <= 1 {
		for c := 0; c < evalChunks; c++ {
			fn(c)
		}
		return
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1)) - 1
				if c >= evalChunks {
					return
				}
				fn(c)
			}
		}()
	}
	wg.Wait()
}

// optimizeStage runs the inner loop of Algorithm 1 for stage k: auxiliary
// variables in closed form, then L-BFGS on the surrogate, until eq (8)
// stops improving (relative tol) or maxOuter rounds. Weights of stage k
// whose removal does not increase eq (8) are then set to exactly zero.
//
// With reenter, trees at zero whose entry lowers eq (8) are first let into
// the stage (enterTrees), which the quadratic bound alone never does. A
// stage without trees is skipped, but for the intercept of the last stage
// (fitEmptyLast).
//
// ctx is looked at after each evaluation of the L-BFGS (lbfgsProblem) and
// before the pruning: when it is done the stage is put back to where its
// L-BFGS started and ctx.Err() is returned (on 400,000 documents one step
// took seconds, and an interrupt waited for it).
func optimizeStage(ctx context.Context, pr *Problem, st *State, k int, maxOuter, maxIter int, tol float64, reenter bool) error {
	foldFlat(pr, st, k)
	fitEmptyLast(pr, st, k) // before the entry slopes, which it moves
	if reenter {
		enterTrees(pr, st, k)
	}
	if len(st.Stages[k].Active()) == 0 {
		// The steps and warm starts never leave an empty stage with a
		// finite θ (passEmptied, emptyPasses); a State made otherwise may.
		passIfEmpty(pr, st, k)
		return nil // an empty stage passes everything at no cost
	}
	best := st.Terms.Total // current: every change to st ends with Objective
	for outer := 0; outer < maxOuter; outer++ {
		o := newStageObjective(pr, st, k)
		x0 := o.x()
		prob := lbfgsProblem(ctx, o)
		res, err := optimize.Minimize(prob, x0, &optimize.Settings{MajorIterations: maxIter, GradientThreshold: 1e-10}, &optimize.LBFGS{})
		if err := ctx.Err(); err != nil {
			o.set(x0) // the point L-BFGS started from
			pr.Objective(st)
			return err
		}
		if res == nil || (err != nil && res.F > o.eval(x0, nil)) {
			return nil
		}
		saved := append([]float64(nil), x0...)
		o.set(res.X)
		obj := pr.Objective(st).Total
		if !(obj <= best) { // a NaN step (none seen) is no better either
			o.set(saved) // the surrogate step did not help eq (8): keep the old point
			pr.Objective(st)
			break
		}
		improved := best - obj
		best = obj
		if improved <= tol*math.Abs(best) {
			break
		}
	}
	if err := prune(ctx, pr, st, k); err != nil {
		return err
	}
	fitEmptyLast(pr, st, k) // the intercept L-BFGS fitted beside the trees pruning took
	return nil
}

// statusCancelled ends an L-BFGS run whose context is done.
var statusCancelled = optimize.NewStatus("Cancelled", true, nil)

// lbfgsProblem is stage o's problem for L-BFGS: eq (8) and its gradient,
// and a Status that ends the run after the first evaluation that finds ctx
// done. Looked at once a major iteration instead (a Converger), a stop
// waited for a whole line search: on 400,000 documents × 300 trees an
// evaluation takes about 0.3 s, and SIGINT ended cascade 2.3 s later.
func lbfgsProblem(ctx context.Context, o *stageObjective) optimize.Problem {
	return optimize.Problem{
		Func: func(x []float64) float64 { return o.eval(x, nil) },
		Grad: func(g, x []float64) { o.eval(x, g) },
		Status: func() (optimize.Status, error) {
			if ctx.Err() != nil {
				return statusCancelled, nil
			}
			return optimize.NotTerminated, nil
		},
	}
}

// foldFlat moves the weights stage k gives flat trees (Problem.Flat) into
// its intercept, which scores every training document the same at no
// cost, when eq (8) does not rise. The solver never gives such a tree a
// weight, but a warm start may (a cascade written before it held them at
// zero, or by hand), and the stage's own steps only shrank it.
func foldFlat(pr *Problem, st *State, k int) {
	beta := st.Stages[k].Beta
	T := len(beta) - 1
	saved := slices.Clone(beta)
	var buf []float32
	moved := false
	for t, b := range beta[:T] {
		if b == 0 || !pr.isFlat(t) {
			continue
		}
		col := pr.Train.Col(t, buf)
		beta[T] += float64(b * float64(col[0])) // rounded as Outputs.Scores rounds it
		beta[t] = 0
		moved = true
	}
	if !moved {
		return
	}
	before := st.Terms.Total // current: every change to st ends with Objective
	stale := func() {
		if k < len(st.scores) {
			st.scores[k] = nil
		}
	}
	stale()
	if pr.Objective(st).Total > before {
		copy(beta, saved)
		stale()
		pr.Objective(st)
	}
}

// prune is the end of stage k's step: its negligible weights, then the
// trees negligible in every stage that uses them, go to exactly zero when
// eq (8) does not rise (pruneStage, pruneTrees), and a stage that leaves
// without trees passes everything (passEmptied). Only pruneStage can
// empty a stage, and only stage k (emptyTrial): the trials of both never
// take a stage's largest weight one by one.
//
// Each trial looks at ctx first: when it is done the stages are put back
// as they were before the pruning and ctx.Err() is returned (the trials of
// one step took 0.6 s on 400,000 documents, and an interrupt waited for
// them).
func prune(ctx context.Context, pr *Problem, st *State, k int) error {
	saved, before := saveStages(st), st.Terms.Total
	pruneStage(ctx, pr, st, k)
	pruneTrees(ctx, pr, st, k)
	if err := ctx.Err(); err != nil {
		restoreStages(pr, st, saved)
		return err
	}
	passEmptied(pr, st, saved, before)
	return nil
}

// restoreStages puts the weights and thresholds of saved (saveStages)
// back into st, and eq (8) with them.
func restoreStages(pr *Problem, st *State, saved []Stage) {
	for j, sv := range saved {
		stg := &st.Stages[j]
		if !slices.Equal(stg.Beta, sv.Beta) {
			copy(stg.Beta, sv.Beta)
			st.scores[j] = nil
		}
		stg.Theta = sv.Theta
	}
	pr.Objective(st)
}

// saveStages copies the weights and thresholds of every stage of st.
func saveStages(st *State) []Stage {
	saved := make([]Stage, len(st.Stages))
	for j, stg := range st.Stages {
		saved[j] = Stage{Beta: slices.Clone(stg.Beta), Theta: stg.Theta}
	}
	return saved
}

// passEmptied makes every stage before the last that the pruning of a
// step has left without trees pass everything (θ = −∞), as issue 4
// defines a stage with no trees. The pruning trials kept θ as it was, so
// they could empty a stage whose finite θ is above its intercept, now its
// score for every document: the stage then sent away every document but
// those the top-m rule protects, and with every score equal those are a
// query's first m in input order (ties go to the lower index), an
// arbitrary cut the scorer then ranks by; eq (8) took it for the cost it
// saves in the stages after. Such a stage now passes everything, and if
// eq (8) then ends above where it was before the pruning (before, with
// the stages as in saved), the pruning is undone whole: the stage keeps
// its trees, however small, and scores by them. But not when those
// trees score every training document alike, as weights of 1e-20 beside
// an intercept of 0.1 do in float64 (the README's Fold1 cascade had
// stages of weights down to 4e-22): the undone stage would be that same
// arbitrary cut, every score the intercept and θ above it, behind one
// tree. The stage then stays empty and passes everything though eq (8)
// rises. A stage whose θ its intercept already meets passes everything
// under the hard rule anyway; it takes θ = −∞ whatever eq (8)'s soft
// tail says (passIfEmpty). These are the two ways a step can raise eq (8).
func passEmptied(pr *Problem, st *State, saved []Stage, before float64) {
	var cut []int // the stages emptied with θ above their intercept
	changed := false
	for j := range st.Stages {
		stg := &st.Stages[j]
		th := emptyPasses(*stg, j, len(st.Stages))
		if th == stg.Theta {
			continue
		}
		if stg.Beta[len(stg.Beta)-1] < stg.Theta {
			cut = append(cut, j)
		}
		stg.Theta = th
		changed = true
	}
	if !changed {
		return
	}
	if pr.Objective(st).Total <= before || len(cut) == 0 {
		return
	}
	for _, j := range cut {
		if s := pr.Train.Scores(nil, saved[j].Beta); len(s) == 0 || slices.Min(s) == slices.Max(s) {
			return
		}
	}
	restoreStages(pr, st, saved)
}

// maxEnter is the most trees enterTrees lets into a stage at one step.
const maxEnter = 8

// enterTrees lets into stage k trees at zero whose entry lowers eq (8),
// and reports how many entered. The quadratic bound of Algorithm 1 holds a
// zero weight at zero (its auxiliary variable is 0), so a tree the stage
// does not have stays out whatever λ: a warm start from a cascade of a
// larger λ, or of more stages, could only lose trees.
//
// Zero is optimal for β_t^k (the others fixed) when the slope of eq (8)'s
// smooth part along it, g_t = Σ_i h_t(x_i) ∂J/∂s_i^k (the loss, and the
// later stages' costs through their reach), is within the slope of its
// penalty at zero: ρ_k + λ d_k (e_t if no stage uses tree t, plus c_α for
// each of its features no stage has paid for). The trees that exceed it
// most (at most maxEnter) are tried in that order, each at the step a
// Newton step on the weighted squared loss suggests, halved until eq (8)
// (exact, not the surrogate) falls, at most 6 times; a tree whose step
// does not lower eq (8) stays out. Under RuleTopM the protected documents
// are held fixed during the trials, and if eq (8) with them recomputed
// ends higher than before, the stage's weights are restored.
func enterTrees(pr *Problem, st *State, k int) int {
	o, cands := entryViolations(pr, st, k)
	if len(cands) == 0 {
		return 0
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].excess > cands[b].excess })
	cands = cands[:min(len(cands), maxEnter)]
	beta := st.Stages[k].Beta
	saved := append([]float64(nil), beta...)
	before := st.Terms.Total // current: every change to st ends with Objective
	// o's fixed parts (reach of stage k, the other stages' loss and reach,
	// the protected documents) serve the trials, as in pruneStage.
	sk := append([]float64(nil), pr.stageScores(st)[k]...)
	cur := o.exactTotal(sk)
	trial := make([]float64, len(sk))
	buf := make([]float32, len(sk))
	entered := 0
	for _, c := range cands {
		col := pr.Train.Col(c.t, buf)
		curv := 0.0
		for i, h := range col {
			curv += pr.Omega[i] * o.p[i] * float64(h) * float64(h)
		}
		if !(curv > 0) {
			continue
		}
		step := -math.Copysign(c.excess/curv, c.slope)
		for try := 0; try <= 6; try, step = try+1, step/2 {
			for i, h := range col {
				trial[i] = sk[i] + step*float64(h)
			}
			beta[c.t] = step
			if v := o.exactTotal(trial); v < cur {
				cur = v
				sk, trial = trial, sk
				entered++
				break
			}
			beta[c.t] = 0
		}
	}
	// As in pruneStage: the scores afresh, and the protected sets again.
	st.scores[k] = nil
	if after := pr.Objective(st).Total; entered == 0 || after > before {
		copy(beta, saved)
		st.scores[k] = nil
		pr.Objective(st)
		return 0
	}
	return entered
}

// entry is a tree at zero in a stage whose weight would lower eq (8) when
// it moves off zero: slope is the derivative of eq (8)'s smooth part along
// the weight, excess how far |slope| exceeds the penalty's slope at zero.
type entry struct {
	t             int
	slope, excess float64
}

// entryViolations returns the trees at zero in stage k whose weight is not
// optimal at zero (see enterTrees), in tree order, and the stage objective
// it computed their slopes with.
func entryViolations(pr *Problem, st *State, k int) (*stageObjective, []entry) {
	T := pr.Train.NumTrees()
	beta := st.Stages[k].Beta
	o := newStageObjective(pr, st, k)
	x := o.x()
	o.eval(x, make([]float64, len(x))) // o.s: ∂J/∂s_i of stage k's scores
	var out []entry
	for t := 0; t < T; t++ {
		if beta[t] != 0 || pr.isFlat(t) { // a flat tree is the free intercept's multiple (Problem.Flat)
			continue
		}
		price := entryPrice(t, pr.TreeCost, o.cost, o.tf, o.kappa, o.eta)
		bound := st.Rho[k] + st.Lambda*st.D[k]*price
		g := pr.Train.dot(t, 0, o.s)
		if v := math.Abs(g) - bound; v > 1e-9*bound {
			out = append(out, entry{t, g, v})
		}
	}
	return o, out
}

// passIfEmpty makes stage k, when it is a stage before the last without
// trees, pass everything (θ = −Inf), as issue 4 defines a stage with no
// trees: its score is its intercept alone, the same for every document,
// so a finite θ either passes all of them already (the intercept at or
// above θ: only eq (8)'s soft tail changes, by rounding when θ is far
// below the intercept, or for real when it is within a few σ_k) or sends
// away all but those the top-m rule protects, who with every score equal
// are a query's first m in input order. Neither the steps' pruning
// (passEmptied) nor a warm start (emptyPasses) leaves such a stage; a
// State made otherwise would get θ = −Inf at the stage's step whatever
// eq (8) says.
func passIfEmpty(pr *Problem, st *State, k int) {
	stg := &st.Stages[k]
	if th := emptyPasses(*stg, k, len(st.Stages)); th != stg.Theta {
		stg.Theta = th
		pr.Objective(st)
	}
}

// fitEmptyLast sets the intercept of stage k, when k is the last stage and
// has no trees, to its minimiser of eq (8). The stage then scores every
// document that reaches it with its intercept b alone, so b enters eq (8)
// only through that stage's loss, ½ Σ_i ω_i p_i (y_i − b)² with p_i the
// soft probability of reaching it (no penalty or cost term holds an
// intercept, and the last stage has no exit): the minimiser is the mean
// of y weighted by ω_i p_i. The L-BFGS step, which moves the intercept of
// a stage with trees, never runs on a stage without any, so the intercept
// stayed where the stage's last step with trees had left it while the
// earlier stages changed who reaches it: 0.713 where 0.681 minimises on
// the package tests' problem (README). Behind θ = −∞ the intercept of an
// empty stage before the last changes nothing, and the hard rule ranks
// the documents reaching an empty last stage alike whatever b, so only
// eq (8), and the steps that follow through it, move. The new b is kept
// unless eq (8) comes out higher, as rounding can make it when b was
// optimal already.
func fitEmptyLast(pr *Problem, st *State, k int) {
	stg := &st.Stages[k]
	if k != len(st.Stages)-1 || len(stg.Active()) > 0 {
		return
	}
	o := newStageObjective(pr, st, k)
	num, den := 0.0, 0.0
	for i, p := range o.p {
		num += pr.Omega[i] * p * pr.Y[i]
		den += pr.Omega[i] * p
	}
	icpt := &stg.Beta[len(stg.Beta)-1]
	b := num / den
	if !(den > 0) || math.IsInf(b, 0) || b == *icpt {
		return
	}
	before, old := st.Terms.Total, *icpt
	*icpt = b
	st.scores[k] = nil
	if pr.Objective(st).Total > before {
		*icpt = old
		st.scores[k] = nil
		pr.Objective(st)
	}
}

// pruneStage sets to zero, one at a time in tree order, the weights of
// stage k (those under 1e-2 of its largest) whose removal does not
// increase eq (8). Under the quadratic bound a weight can
// only shrink towards zero geometrically; this is the test that decides
// when it is gone, on the true objective rather than a magnitude threshold.
// Under RuleTopM each trial holds the protected documents fixed (as the
// stage step does); if eq (8), with them recomputed, ends higher than
// before the pruning, the stage's weights are restored.
func pruneStage(ctx context.Context, pr *Problem, st *State, k int) {
	beta := st.Stages[k].Beta
	saved := append([]float64(nil), beta...)
	act := st.Stages[k].Active()
	big := 0.0
	for _, t := range act {
		big = max(big, math.Abs(beta[t]))
	}
	scores := pr.stageScores(st)
	prot := pr.protectedSets(&st.Cascade, scores)
	before := pr.objectiveWith(st, scores, prot).Total
	sk := scores[k]
	var o *stageObjective
	var cur float64
	trial := make([]float64, len(sk))
	buf := make([]float32, len(sk))
	for _, t := range act {
		if math.Abs(beta[t]) > 1e-2*big {
			continue
		}
		if ctx.Err() != nil {
			return // prune puts the stages back
		}
		if o == nil { // only now: most steps try nothing
			o = newStageObjective(pr, st, k)
			cur = o.exactTotal(sk)
		}
		old := beta[t]
		for i, h := range pr.Train.Col(t, buf) {
			trial[i] = sk[i] - old*float64(h)
		}
		beta[t] = 0
		if v := o.exactTotal(trial); v <= cur {
			cur = v
			sk, trial = trial, sk
		} else {
			beta[t] = old
		}
	}
	if ctx.Err() != nil {
		return
	}
	if emptyTrial(pr, st, k, o, sk, trial, buf, cur, big) {
		sk = trial
	}
	scores[k] = sk
	// Recompute stage k's scores afresh: the incremental ones above differ
	// from Outputs.Scores in the last bits, and thresholds must see the same
	// scores as the scorer.
	st.scores[k] = nil
	if after := pr.Objective(st).Total; prot != nil && after > before {
		copy(beta, saved)
		st.scores[k] = nil
		pr.Objective(st)
	}
}

// emptyTrial tries, after pruneStage's one-by-one trials, setting every
// remaining weight of stage k to zero at once, when the largest of them is
// negligible: under 1e-2 of the largest weight in the other stages, as the
// one-by-one trials take weights under 1e-2 of their stage's largest. Those
// trials never try the largest itself, so a stage the quadratic bound has
// shrunk towards zero as a whole (every weight 1e-22, say, or 1e-3 where
// the other stages' weights reach 10) kept its trees for ever: listed in
// the cascade, though scoring nothing. As for each weight, eq (8) itself
// decides: the stage is emptied only if eq (8) does not increase. It then
// returns true, with the trial scores in trial; otherwise stage k's weights
// are as they were. passEmptied then lets an emptied stage pass everything.
func emptyTrial(pr *Problem, st *State, k int, o *stageObjective, sk, trial []float64, buf []float32, cur, big float64) bool {
	act := st.Stages[k].Active()
	if len(act) == 0 {
		return false
	}
	others := 0.0
	for j := range st.Stages {
		if j != k {
			for _, b := range st.Stages[j].Beta[:len(st.Stages[j].Beta)-1] {
				others = max(others, math.Abs(b))
			}
		}
	}
	if !(big < 1e-2*others) {
		return false
	}
	if o == nil {
		o = newStageObjective(pr, st, k)
		cur = o.exactTotal(sk)
	}
	beta := st.Stages[k].Beta
	old := make([]float64, len(act))
	copy(trial, sk)
	for a, t := range act {
		old[a] = beta[t]
		for i, h := range pr.Train.Col(t, buf) {
			trial[i] -= old[a] * float64(h)
		}
		beta[t] = 0
	}
	if o.exactTotal(trial) <= cur {
		return true
	}
	for a, t := range act {
		beta[t] = old[a]
	}
	return false
}

// pruneTrees tries, for each tree of stage k that pruneStage kept at a
// negligible weight (under 1e-2 of the stage's largest) and that is as
// negligible in every other stage that uses it, setting its weight to zero
// in all those stages at once; smallest mixed norm κ_t first, each kept
// only if eq (8) does not increase. pruneStage's trials cannot drop such a
// tree: they take one stage's weight at a time, and while the tree keeps
// a weight in another stage, its cost term λ e_t κ_t (and its features')
// hardly falls, since κ_t = ‖(β_t^j d_j)_j‖₂ is smooth away from zero,
// while the loss moves at first order. So a tree the quadratic bound had
// shrunk towards zero in several stages at once stayed in the cascade:
// the Fold1 bench cascade of commit 12da274 kept 12 trees with weights of
// 1e-10 to 2e-7 in stages 8 to 10 and nowhere else, each costing e_t
// (and its features) for every document that reached stage 8, for
// nothing. Zeroing the whole group saves all of λ e_t κ_t, the first-order
// term that eq (8) trades against the loss. Under RuleTopM the trials hold
// the protected documents fixed, as pruneStage's do, and if eq (8), with
// them recomputed, ends higher than before, every weight is restored.
func pruneTrees(ctx context.Context, pr *Problem, st *State, k int) {
	T := pr.Train.NumTrees()
	big := make([]float64, len(st.Stages))
	for j, stg := range st.Stages {
		for _, b := range stg.Beta[:T] {
			big[j] = max(big[j], math.Abs(b))
		}
	}
	negligible := func(t int) bool {
		stages := 0
		for j, stg := range st.Stages {
			if b := math.Abs(stg.Beta[t]); b != 0 {
				if b > 1e-2*big[j] {
					return false
				}
				stages++
			}
		}
		return stages > 1 // a tree of stage k alone is pruneStage's
	}
	var cands []int
	for _, t := range st.Stages[k].Active() {
		if negligible(t) {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return
	}
	tf, cost := pr.featSpace()
	kappa, _ := pr.groupNorms(st, tf, len(cost))
	sort.SliceStable(cands, func(a, b int) bool { return kappa[cands[a]] < kappa[cands[b]] })
	saved := make([][]float64, len(st.Stages))
	for j, stg := range st.Stages {
		saved[j] = append([]float64(nil), stg.Beta...)
	}
	before := st.Terms.Total     // current: every change to st ends with Objective
	savedD := slices.Clone(st.D) // objectiveWith sets st.D
	scores := slices.Clone(pr.stageScores(st))
	prot := pr.protectedSets(&st.Cascade, scores)
	cur := pr.objectiveWith(st, scores, prot).Total
	trial := slices.Clone(scores)
	buf := make([]float32, pr.Train.N)
	touched := make([]bool, len(st.Stages)) // stages whose weights changed
	changed := false
	for _, t := range cands {
		if ctx.Err() != nil {
			return // prune puts the stages back
		}
		col := pr.Train.Col(t, buf)
		old := make([]float64, len(st.Stages))
		for j := range st.Stages {
			if old[j] = st.Stages[j].Beta[t]; old[j] == 0 {
				trial[j] = scores[j]
				continue
			}
			s := make([]float64, len(scores[j]))
			for i, h := range col {
				s[i] = scores[j][i] - old[j]*float64(h)
			}
			trial[j] = s
			st.Stages[j].Beta[t] = 0
		}
		if v := pr.objectiveWith(st, trial, prot).Total; v <= cur {
			cur, changed = v, true
			copy(scores, trial)
			for j, b := range old {
				touched[j] = touched[j] || b != 0
			}
			continue
		}
		for j, b := range old {
			st.Stages[j].Beta[t] = b
		}
	}
	if !changed {
		st.D = append(st.D[:0], savedD...)
		return
	}
	// The scores of the stages changed afresh (the incremental ones differ
	// in the last bits), and the protected sets again.
	for j, tj := range touched {
		if tj {
			st.scores[j] = nil
		}
	}
	if after := pr.Objective(st).Total; after > before {
		for j, tj := range touched {
			if tj {
				copy(st.Stages[j].Beta, saved[j])
				st.scores[j] = nil
			}
		}
		pr.Objective(st)
	}
}

// exactTotal returns eq (8) itself, not the surrogate, with sk as stage k's
// scores, the other stages as when o was built, and st's weights as they
// are now: the trials of pruneStage, emptyTrial and enterTrees. The parts
// that stay fixed while stage k changes (reach of stage k, the earlier
// stages' loss, the later stages' loss and reach per unit of going on)
// are o's, so a trial costs one sigmoid per document instead of K. st.D
// must hold the reach fractions of stages 0..k, as Objective leaves them;
// it is left at the trial's. It equals objectiveWith up to rounding (a test checks 1e-12).
func (o *stageObjective) exactTotal(sk []float64) float64 {
	pr, st, k := o.pr, o.st, o.k
	n := pr.Train.N
	stg := st.Stages[k]
	loss, d := lossByChunks(n, len(o.R), func(lo, hi int, d []float64) float64 {
		loss := 0.0
		for i := lo; i < hi; i++ {
			p := o.p[i]
			I, q := 1.0, p // the last stage keeps whoever reaches it
			if !o.last {
				I = passProb(o.prot, i, sk[i], stg.Theta, st.Sigma[k])
				q *= 1 - I
			}
			r := pr.Y[i] - sk[i]
			on := p * I
			loss += 0.5 * pr.Omega[i] * (q*r*r + on*o.c[i])
			for j, R := range o.R {
				d[j] += on * R[i]
			}
		}
		return loss
	})
	st.D = append(st.D[:k+1], d...)
	for j := k + 1; j < len(st.D); j++ {
		st.D[j] /= float64(n)
	}
	return pr.termsWith(st, o.E+loss).Total
}
