package cronus

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Params are the cascade's hyper-parameters (Chen et al. §3.4).
type Params struct {
	Lambda   float64 // cost trade-off λ, as a fraction of LambdaMax (the single-stage problem's)
	K        int     // stages (10)
	Epsilon  float64 // ε: at initialisation each stage keeps (1−ε) of its inputs (0.15)
	Sigma    float64 // σ of the soft exits, relative to each stage's score spread (0.05)
	Delta    float64 // δ: initialisation uses λ_k = λ·δ^(K−k) (1.3)
	StageCap float64 // with K > 1, λ_k is at most StageCap × the stage's own λ_max, or λ when that is larger, so the inflation δ^(K−k) leaves no stage empty (0.7; 0 = no cap); a one-stage cascade is eq (7) at λ exactly
	Rho1     float64 // ρ of stages 1..K−1, as a fraction of RhoMax (0.02)
	RhoK     float64 // ρ of the last stage, as a fraction of RhoMax (0.02)
	Workers  int     // goroutines for the Gram products; 0 = GOMAXPROCS
	// TopM > 0 trains the cascade for RuleTopM with that m: a query's TopM
	// best documents at a stage go on whatever θ, in the soft exits of
	// eq (8) as in the scorer (see protectedSets). 0 is the paper's global
	// rule.
	TopM int
}

// DefaultParams returns the paper's settings, with σ relative to the score
// spread and λ relative to λ_max.
func DefaultParams() Params {
	return Params{Lambda: 0.01, K: 10, Epsilon: 0.15, Sigma: 0.05, Delta: 1.3, StageCap: 0.7, Rho1: 0.02, RhoK: 0.02}
}

// The largest λ, ρ and σ Validate accepts. At λ = 1 (λ_max) the
// single-stage problem drops every tree, and at ρ = 1 (ρ_max) the
// least-squares one; a stage, fitting only the documents that reach it, may
// keep some a little beyond, so the bounds leave room. A σ of 10 score
// spreads is already a sigmoid flat across every stage's scores. Far larger
// values only overflow.
const (
	MaxLambda = 100
	MaxRho    = 100
	MaxSigma  = 10
)

// Validate reports the first parameter out of range.
func (p Params) Validate() error {
	switch {
	case !(p.Lambda >= 0 && p.Lambda <= MaxLambda):
		return fmt.Errorf("λ must be in [0, %g], a fraction of λ_max (got %g)", float64(MaxLambda), p.Lambda)
	case p.K < 1:
		return fmt.Errorf("K must be at least 1 (got %d)", p.K)
	case !(p.Epsilon > 0 && p.Epsilon < 1):
		return fmt.Errorf("ε must be in (0, 1) (got %g)", p.Epsilon)
	case !(p.Sigma > 0 && p.Sigma <= MaxSigma):
		return fmt.Errorf("σ must be in (0, %g], a fraction of the stage's score spread (got %g)", float64(MaxSigma), p.Sigma)
	case !(p.Delta >= 1 && !math.IsInf(p.Delta, 1)): // a cascade file cannot record +Inf
		return fmt.Errorf("δ must be a finite number >= 1 (got %g)", p.Delta)
	case !(p.StageCap >= 0 && p.StageCap <= 1):
		return fmt.Errorf("the stage cap must be in [0, 1] (got %g)", p.StageCap)
	case !(p.Rho1 >= 0 && p.Rho1 <= MaxRho) || !(p.RhoK >= 0 && p.RhoK <= MaxRho):
		return fmt.Errorf("ρ must be in [0, %g], a fraction of ρ_max (got %g, %g)", float64(MaxRho), p.Rho1, p.RhoK)
	case p.TopM < 0:
		return fmt.Errorf("top-m must be >= 0 (got %d)", p.TopM)
	}
	return nil
}

// Scales are the problem's natural units: λ and ρ are given as fractions
// of them.
type Scales struct {
	LambdaMax float64 // smallest λ at which the single-stage problem with ρ = 0 drops every tree (so λ/λ_max does not depend on ρ)
	RhoMax    float64 // smallest ρ at which the least-squares problem (λ = 0) drops every tree
	// FreeTrees counts the trees that enter at any λ (with ρ = 0): a tree
	// cost of 0 and only free features, not flat, and off zero in eq (7)'s
	// gradient. LambdaMax leaves them out, so with any, Algorithm 2 does
	// not give the empty cascade from λ_max up.
	FreeTrees int
}

// State is the cascade being optimised with what the objective needs.
type State struct {
	Cascade
	Sigma  []float64 // absolute σ_k of each stage's soft exit
	D      []float64 // soft fraction d_k of training inputs reaching stage k
	Hard   []float64 // fraction reaching stage k under the hard rule
	Lambda float64   // absolute λ
	Rho    []float64 // absolute ρ_k
	// Terms is eq (8) at this state, kept current: Objective sets it, and
	// every change to the state ends with Objective.
	Terms Terms

	scores [][]float64 // cached training scores of each stage; nil = stale
}

// stageScores returns the training scores of every stage, computing those
// that are stale. The caller must mark a stage stale (st.scores[k] = nil)
// when it changes the stage's weights.
func (pr *Problem) stageScores(st *State) [][]float64 {
	if len(st.scores) != len(st.Stages) {
		st.scores = make([][]float64, len(st.Stages))
	}
	for k, stg := range st.Stages {
		if st.scores[k] == nil {
			st.scores[k] = pr.Train.Scores(nil, stg.Beta)
		}
	}
	return st.scores
}

// Terms are the four terms of eq (8) and their sum.
type Terms struct {
	Loss, Reg, TreeCost, FeatCost, Total float64
}

// ComputeScales returns λ_max and ρ_max for the problem.
func ComputeScales(pr *Problem, workers int) Scales {
	sc, _ := ComputeScalesContext(context.Background(), pr, workers)
	return sc
}

// ComputeScalesContext is ComputeScales that stops within its Gram product
// HᵀΩH (which the Problem keeps for Algorithm 2's first stage) when ctx is
// done, and then returns ctx's error: on 200,000 documents × 1,000 trees
// the product takes a second or two, and it grows with the documents.
func ComputeScalesContext(ctx context.Context, pr *Problem, workers int) (Scales, error) {
	return ComputeScalesProgress(ctx, pr, workers, nil)
}

// ComputeScalesProgress is ComputeScalesContext that calls progress (when
// not nil), on the caller's goroutine, every 2,048 documents of the Gram
// product (and within such a block between tiles of products, its share
// done counted as documents) with the documents done and their total, and
// once more at the end with all of them.
func ComputeScalesProgress(ctx context.Context, pr *Problem, workers int, progress func(done, total int)) (Scales, error) {
	sp, ok := pr.stage(nil, 1, 0, 0, nil, workers, func(done int) bool {
		if progress != nil {
			progress(done, pr.Train.N)
		}
		return ctx.Err() != nil
	})
	if !ok {
		return Scales{}, ctx.Err()
	}
	if progress != nil {
		progress(pr.Train.N, pr.Train.N) // done: the last block said what it started at
	}
	rhoMax := 0.0
	for t, b := range sp.interceptGrad() {
		if !sp.isFlat(t) {
			rhoMax = max(rhoMax, b)
		}
	}
	return Scales{LambdaMax: sp.pricedLambdaMax(), RhoMax: rhoMax, FreeTrees: sp.freeTrees()}, nil
}

// stage builds the stage problem with instance weights ω_i·p_i (p nil: 1),
// reach fraction d, and the earlier stages' weights (for A and B). It
// gives up, returning false, when stop (nil: never) says to, which its
// Gram product asks every 2,048 documents and between tiles of products
// within them, with the documents done.
func (pr *Problem) stage(p []float64, d, rho, lambda float64, earlier []weighted, workers int, stop func(done int) bool) (*stageProblem, bool) {
	T := pr.Train.NumTrees()
	// At p = 1 (or nil) the weights are ω·1 = ω: the kept product, the
	// same bit for bit.
	w, atOmega := pr.Omega, true
	if p != nil && slices.ContainsFunc(p, func(x float64) bool { return x != 1 }) {
		w, atOmega = make([]float64, len(p)), false
		for i := range w {
			w[i] = pr.Omega[i] * p[i]
		}
	}
	var G, r, own []float64
	if atOmega {
		G, r = pr.baseGramOf()
	}
	if G == nil {
		// Away from ω the product goes in the buffer of an earlier stage's
		// (given back by release), which gram clears: no (T+1)² garbage a
		// stage.
		if !atOmega {
			own, G, r = pr.bufs.takeProduct(T + 1)
		}
		var ok bool
		if G, r, ok = gramStoppable(G, r, pr.Train, w, pr.Y, workers, pr.bufs, stop); !ok {
			pr.bufs.giveProduct(own)
			return nil, false
		}
		if atOmega {
			pr.keepBaseGram(G, r)
		}
	}
	yy := 0.0
	for i, y := range pr.Y {
		yy += w[i] * y * y
	}
	tf, cost := pr.featSpace() // the features the trees use, numbered anew
	sp := &stageProblem{T: T, G: G, r: r, own: own, rho: rho, lambda: lambda, d: d, joint: pr.JointEntry, flat: pr.Flat,
		treeCost: pr.TreeCost, featCost: cost, treeFeats: tf,
		A: make([]float64, T), B: make([]float64, len(cost)),
		noise: gradientNoise(G, T, yy, len(pr.Y))}
	for _, e := range earlier {
		for t, b := range e.beta[:T] {
			if b == 0 {
				continue
			}
			v := (b * e.d) * (b * e.d)
			sp.A[t] += v
			for _, f := range tf[t] {
				sp.B[f] += v
			}
		}
	}
	return sp, true
}

// release gives the buffer of sp's Gram product back to pr for the next
// stage's, once sp is solved; sp must not be used after.
func (pr *Problem) release(sp *stageProblem) {
	pr.bufs.giveProduct(sp.own)
	sp.G, sp.r, sp.own = nil, nil, nil
}

// weighted is an earlier stage's weights with its reach fraction.
type weighted struct {
	beta []float64
	d    float64
}

// sigmoid is the soft exit indicator I = 1/(1+exp(−(s−θ)/σ)).
func sigmoid(s, theta, sigma float64) float64 {
	if math.IsInf(theta, -1) {
		return 1
	}
	return 1 / (1 + math.Exp(-(s-theta)/sigma))
}

// spread is the standard deviation of scores weighted by p.
func spread(s, p []float64) float64 {
	var sw, m float64
	for i, x := range s {
		sw += p[i]
		m += p[i] * x
	}
	if sw == 0 {
		return 0
	}
	m /= sw
	v := 0.0
	for i, x := range s {
		v += p[i] * (x - m) * (x - m)
	}
	return math.Sqrt(v / sw)
}

// thresholdFor finds θ with (1/n) Σ p_i I(s_i; θ, σ) = target by bisection
// (the left side decreases in θ); a protected document (prot, nil for none)
// has I = 1. When the protected documents alone exceed the target, θ ends
// above every score. It gives up, returning false, when stop (nil: never)
// says to, which it asks before every step of the bisection: on 200,000
// documents the whole takes about 80 ms, a step 2.
func thresholdFor(s, p []float64, prot []bool, sigma, target float64, stop func() bool) (float64, bool) {
	n := float64(len(s))
	frac := func(th float64) float64 {
		t := 0.0
		for i, x := range s {
			t += p[i] * passProb(prot, i, x, th, sigma)
		}
		return t / n
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range s {
		lo, hi = min(lo, x), max(hi, x)
	}
	lo -= 40 * sigma
	hi += 40 * sigma
	for iter := 0; iter < 200 && hi-lo > 1e-12*max(1, math.Abs(hi)); iter++ {
		if stop != nil && stop() {
			return 0, false
		}
		mid := 0.5 * (lo + hi)
		if frac(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi), true
}

// Initialize builds the cascade by Algorithm 2: stage by stage, each
// solved exactly as if it were the last (the convex problem of eq (13)-(14),
// by coordinate descent), with λ_k = λ·δ^(K−k) (inflated early, exactly λ
// at the last stage; with K > 1 the inflation capped at StageCap·λ_max of
// the stage, so that it leaves no early stage empty, but never below λ:
// a stage whose own λ_max is below λ is empty, and from λ_max up the
// cascade costs nothing), and θ_k chosen
// so that the soft fraction reaching the next stage is (1−ε) of this one's.
// A stage without trees passes everything (θ = −Inf) at no cost. It returns
// ctx.Err() when ctx ends, checked before each stage (one Gram product, one
// coordinate descent and the bisection for θ_k: about half a second on
// 200,000 documents × 300 trees, most of it the Gram product), within its
// Gram product every 2,048 documents, at every step of the bisection, and
// before the objective and the hard fractions of the whole (about 0.1 s
// each there).
func Initialize(ctx context.Context, pr *Problem, sc Scales, par Params) (*State, error) {
	return initialize(ctx, pr, sc, par, nil, nil, nil)
}

// InitStage is the stage (1-based) an initialisation of k stages is
// making once InitializeProgress has said stages: from 1 to k, k too once
// every stage is made.
func InitStage(stages float64, k int) int { return min(int(stages)+1, k) }

// InitializeProgress is Initialize that says how far it has come: it calls
// progress (nil: never), on the caller's goroutine, with the stages made
// so far, from 0 to par.K: k before stage k, k plus the fraction of the
// documents done within stage k's Gram product (the bulk of a stage's
// time) every 2,048 documents (but for the first stage's, at the weights ω,
// which the Problem keeps from ComputeScales or an earlier
// initialisation), and par.K once every stage is made (the
// objective and the hard fractions of the whole are left). On 200,000
// documents × 300 trees the ten stages take 4-5 s. The calls are many
// (about a hundred a stage there): progress should be cheap, and
// coalesce what it passes on (job.Reporter.Report does).
func InitializeProgress(ctx context.Context, pr *Problem, sc Scales, par Params, progress func(stages float64)) (*State, error) {
	return initialize(ctx, pr, sc, par, nil, nil, progress)
}

// initialize is InitializeProgress with some stages given: a stage k with
// given[k].Beta not nil is taken as it is (weights and θ, but for
// emptyPasses), with σ_k
// givenSigma[k] when there is one, instead of being solved; the stages
// after it are solved from the reach it leaves, warm from its weights.
// given is nil or has par.K entries.
func initialize(ctx context.Context, pr *Problem, sc Scales, par Params, given []Stage, givenSigma []float64, progress func(stages float64)) (*State, error) {
	if err := par.Validate(); err != nil {
		return nil, err
	}
	n := pr.Train.N
	T := pr.Train.NumTrees()
	st := &State{Lambda: par.Lambda * sc.LambdaMax}
	p := make([]float64, n)
	for i := range p {
		p[i] = 1
	}
	d := 1.0
	var earlier []weighted
	scores := make([]float64, n)
	beta := make([]float64, T+1)
	var pt *protector // with TopM: who reaches each stage, for its protected documents
	if par.TopM > 0 {
		st.Rule, st.TopM = RuleTopM, par.TopM
		pt = pr.newProtector(par.TopM)
	} else {
		st.Rule = RuleGlobal
	}
	stopped := func() bool { return ctx.Err() != nil }
	say := func(stages float64) {
		if progress != nil {
			progress(stages)
		}
	}
	for k := 0; k < par.K; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		say(float64(k))
		rho := par.Rho1 * sc.RhoMax
		if k == par.K-1 {
			rho = par.RhoK * sc.RhoMax
		}
		isGiven := given != nil && given[k].Beta != nil
		var stage Stage
		if isGiven {
			beta = slices.Clone(given[k].Beta)
			stage = Stage{Beta: beta}
			stage.Theta = emptyPasses(given[k], k, par.K)
		} else {
			lambdaK := st.Lambda * math.Pow(par.Delta, float64(par.K-1-k))
			sp, ok := pr.stage(p, d, rho, 0, earlier, par.Workers, func(done int) bool {
				if done > 0 {
					say(float64(k) + float64(done)/float64(n))
				}
				return stopped()
			})
			if !ok {
				return nil, ctx.Err()
			}
			if par.StageCap > 0 && par.K > 1 {
				if lm := sp.lambdaMax(); !math.IsInf(lm, 1) {
					lambdaK = min(lambdaK, max(par.StageCap*lm, st.Lambda))
				}
			}
			sp.lambda = lambdaK
			beta = append([]float64(nil), beta...) // warm start from the previous stage
			sp.solve(beta, solveOptions{maxSweeps: 500, tol: 1e-9})
			pr.release(sp)
			stage = Stage{Beta: beta, Theta: math.Inf(-1)}
		}
		st.Rho = append(st.Rho, rho)
		st.D = append(st.D, d)
		pr.Train.Scores(scores, beta)
		sigma := par.Sigma * spread(scores, p)
		if isGiven && k < len(givenSigma) && givenSigma[k] > 0 {
			sigma = givenSigma[k]
		}
		// The documents this stage protects (its θ does not change who is
		// protected).
		var prot []bool
		if pt != nil && k < par.K-1 {
			prot = make([]bool, n)
			pt.mark(scores, prot)
		}
		if !isGiven && k < par.K-1 && len(stage.Active()) > 0 && sigma > 0 {
			theta, ok := thresholdFor(scores, p, prot, sigma, (1-par.Epsilon)*d, stopped)
			if !ok {
				return nil, ctx.Err()
			}
			stage.Theta = theta
		}
		if prot != nil && !math.IsInf(stage.Theta, -1) {
			pt.pass(scores, prot, stage.Theta)
		}
		if sigma == 0 {
			sigma = par.Sigma
		}
		st.Sigma = append(st.Sigma, sigma)
		st.Stages = append(st.Stages, stage)
		earlier = append(earlier, weighted{beta: beta, d: d})
		if k < par.K-1 {
			sum := 0.0
			for i := range p {
				p[i] *= passProb(prot, i, scores[i], stage.Theta, sigma)
				sum += p[i]
			}
			d = sum / float64(n)
		}
	}
	say(float64(par.K))
	st.scores = nil
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pr.Objective(st)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st.Hard = pr.HardFractions(&st.Cascade)
	return st, nil
}

// Objective evaluates eq (8) at st: the expected squared loss under the soft
// exits, the ℓ1 regularisation, and the tree and feature costs with their
// mixed norms across stages weighted by the soft fractions d_k. It also
// refreshes st.D and sets st.Terms.
func (pr *Problem) Objective(st *State) Terms {
	st.Terms = pr.objectiveFromScores(st, pr.stageScores(st))
	return st.Terms
}

// objectiveFromScores is Objective with the stage scores given.
func (pr *Problem) objectiveFromScores(st *State, scores [][]float64) Terms {
	return pr.objectiveWith(st, scores, pr.protectedSets(&st.Cascade, scores))
}

// objectiveWith is Objective with the stage scores and the protected
// documents (protectedSets; nil for none) given.
func (pr *Problem) objectiveWith(st *State, scores [][]float64, prot [][]bool) Terms {
	n := pr.Train.N
	K := len(st.Stages)
	// Per document, stage after stage: the probability of reaching the
	// stage, the loss of leaving there, the probability of going on.
	loss, d := lossByChunks(n, K, func(lo, hi int, d []float64) float64 {
		loss := 0.0
		for i := lo; i < hi; i++ {
			p := 1.0
			for k, stg := range st.Stages {
				d[k] += p
				q := p
				I := 1.0
				s := scores[k][i]
				if k < K-1 {
					I = passProb(at(prot, k), i, s, stg.Theta, st.Sigma[k])
					q *= 1 - I
				}
				r := pr.Y[i] - s
				loss += 0.5 * pr.Omega[i] * q * r * r
				p *= I
			}
		}
		return loss
	})
	st.D = append(st.D[:0], d...)
	for k := range st.D {
		st.D[k] /= float64(n)
	}
	return pr.termsWith(st, loss)
}

// lossByChunks sums fn over the documents 0..n-1 cut into evalChunks fixed
// ranges, run on all cores and summed in range order, so that the result
// does not depend on the number of cores. fn returns its range's loss and
// adds its range's reach sums into d (m of them, zero on entry).
func lossByChunks(n, m int, fn func(lo, hi int, d []float64) float64) (loss float64, d []float64) {
	type part struct {
		loss float64
		d    []float64
	}
	parts := make([]part, evalChunks)
	parallelChunks(func(c int) {
		d := make([]float64, m)
		parts[c] = part{loss: fn(n*c/evalChunks, n*(c+1)/evalChunks, d), d: d}
	})
	d = make([]float64, m)
	for _, pt := range parts {
		loss += pt.loss
		for k, v := range pt.d {
			d[k] += v
		}
	}
	return loss, d
}

// termsWith completes eq (8) from its loss term: the ℓ1 regularisation and
// the tree and feature costs at st's weights and reach fractions st.D.
func (pr *Problem) termsWith(st *State, loss float64) Terms {
	T := pr.Train.NumTrees()
	tm := Terms{Loss: loss}
	for k, stg := range st.Stages {
		for _, b := range stg.Beta[:T] {
			tm.Reg += st.Rho[k] * math.Abs(b)
		}
	}
	tf, cost := pr.featSpace()
	kappa, eta := pr.groupNorms(st, tf, len(cost))
	for t, v := range kappa {
		tm.TreeCost += st.Lambda * pr.TreeCost[t] * v
	}
	for f, v := range eta {
		tm.FeatCost += st.Lambda * cost[f] * v
	}
	tm.Total = tm.Loss + tm.Reg + tm.TreeCost + tm.FeatCost
	return tm
}

// featSpace numbers the features the trees use 0..m-1 in ascending order
// (so that sums over them run in the order of the feature indices, as
// before): tf[t] is pr.TreeFeats[t] in that numbering and cost[a] the cost
// of the feature numbered a. The optimiser's per-feature terms (η, the
// stage solver's sums) live there: a feature no tree uses has none. Sized
// by pr.FeatCost, whose length is the data's highest feature index, every
// objective evaluation allocated and scanned the whole feature range (8 MB
// a call at a sparse index of 1,000,000, gigabytes of garbage before the
// collector ran, its goal set by the data's dense matrices). The numbering
// is made once, with the problem (numberFeatures); the costs are read from
// FeatCost at each call, so a changed FeatCost counts. tf must not be
// written.
func (pr *Problem) featSpace() (tf [][]int, cost []float64) {
	used, tf := pr.featUsed, pr.treeFeatsNum
	if len(tf) != len(pr.TreeFeats) { // a Problem not made by NewProblem
		used, tf = numberFeatures(pr.TreeFeats)
	}
	cost = make([]float64, len(used))
	for a, f := range used {
		cost[a] = pr.FeatCost[f]
	}
	return tf, cost
}

// numberFeatures returns the distinct features of treeFeats, ascending,
// and each tree's features as their places in that list (featSpace).
func numberFeatures(treeFeats [][]int) (used []int, tf [][]int) {
	for _, fs := range treeFeats {
		used = append(used, fs...)
	}
	slices.Sort(used)
	used = slices.Compact(used)
	tf = make([][]int, len(treeFeats))
	for t, fs := range treeFeats {
		tf[t] = make([]int, len(fs))
		for i, f := range fs {
			tf[t][i], _ = slices.BinarySearch(used, f)
		}
	}
	return used, tf
}

// groupNorms returns the mixed norms of the cost terms of eq (8) at st:
// κ_t = ‖(β_t^k d_k)_k‖₂ for every tree and η_α = ‖(β_t^k d_k)_{k, t∋α}‖₂
// for every feature a tree uses, numbered as tf numbers them (featSpace).
// They are also the auxiliary variables of eq (11) in closed form.
func (pr *Problem) groupNorms(st *State, tf [][]int, nfeat int) (kappa, eta []float64) {
	T := pr.Train.NumTrees()
	kappa = make([]float64, T)
	featSq := make([]float64, nfeat)
	for t := 0; t < T; t++ {
		sq := 0.0
		for k, stg := range st.Stages {
			v := stg.Beta[t] * st.D[k]
			sq += v * v
		}
		kappa[t] = math.Sqrt(sq)
		for _, f := range tf[t] {
			featSq[f] += sq
		}
	}
	eta = featSq
	for f, sq := range featSq {
		eta[f] = math.Sqrt(sq)
	}
	return kappa, eta
}

// HardFractions returns the fraction of training documents reaching each
// stage under the hard rule of c (exit when the score is below θ_k; under
// RuleTopM not for a query's TopM best there), walked stage by stage with
// the protector the optimiser uses.
func (pr *Problem) HardFractions(c *Cascade) []float64 {
	out := make([]float64, len(c.Stages))
	if pr.Train.N == 0 {
		return out
	}
	reach := make([]int, len(c.Stages))
	for _, x := range pr.hardExits(c) {
		reach[x]++
	}
	// reach[k] counts the documents that leave at k; those that reach k
	// leave at k or later.
	n := 0
	for k := len(reach) - 1; k >= 0; k-- {
		n += reach[k]
		out[k] = float64(n) / float64(pr.Train.N)
	}
	return out
}

// at returns xs[k], or nil when xs is nil.
func at[T any](xs [][]T, k int) []T {
	if xs == nil {
		return nil
	}
	return xs[k]
}
