package cronus

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/cronus-ltr/cronus/engine/metric"
)

// Eval is the quality and cost of a cascade on one data split, scored for
// real with hard exits.
type Eval struct {
	Metrics map[string]float64
	Cost    metric.Cost
	Reached []float64 // fraction of the split's documents reaching each stage
	// PerQuery holds, per metric of Metrics, its value on each query of the
	// split (metric.PerQuery's), for paired comparisons (metric.ComparePaired);
	// nil when the Eval was made without them.
	PerQuery map[string][]float64
}

// Evaluator scores a cascade on the validation and test data. It stops
// when ctx is done and returns ctx's error.
type Evaluator func(ctx context.Context, c *Cascade) (valid, test Eval, err error)

// Options control the optimisation run.
type Options struct {
	MaxCycles int       // cycles of Algorithm 1 (default 5)
	InitOnly  bool      // stop after Algorithm 2
	Tol       float64   // stop when a cycle improves eq (8) by less than Tol (relative; default 1e-3)
	MaxIter   int       // L-BFGS iterations per stage step (default 20)
	Select    string    // metric that picks the best cascade on validation (default "ndcg@10")
	Warm      *Cascade  // start from this cascade instead of Algorithm 2; with another number of stages than Params.K, see resizeWarm
	WarmSigma []float64 // the absolute σ_k the warm cascade was optimised with; nil = derive them from Params.Sigma
	// WarmSame says that Warm was optimised for these same parameters
	// (eq (8) and the targets) on this problem, as when a run is
	// continued: it then competes for Outcome.Best from the start, so
	// that a continuation never returns a cascade worse on validation
	// than the one it was given.
	WarmSame bool
	// Init, when not nil, is what Initialize returned for this problem and
	// these parameters (say, while choosing ρ): the run starts from it
	// instead of initialising again, takes it over, and reports InitTime
	// as the time it took. Warm wins over Init.
	Init     *State
	InitTime time.Duration
	// WarmOrInit, with Warm and without WarmSame, also runs Algorithm 2
	// (or takes Init) and starts from whichever of the two has the lower
	// eq (8) under these parameters; the run is a warm one only when the
	// warm cascade wins (Snapshot.Warm, Outcome.Warm). After a large
	// change of λ a warm start sits in a basin of the old λ: from the
	// λ 0.01 cascade of the workbench's ensemble, λ 5 ended at eq (8)
	// 6854 and cost 367 where Algorithm 2 started at 10360 and the
	// cyclic optimisation from there ended at 6135 and cost 41. A small
	// change keeps the warm start, which then wins (the workbench asks for
	// the comparison after a jump of λ only). A run from Algorithm 2
	// is then a run from scratch, step for step: Reenter, which is for
	// warm starts, is dropped.
	WarmOrInit bool
	// Reenter lets trees at zero re-enter a stage during the cyclic
	// optimisation when that lowers eq (8) (enterTrees). The quadratic
	// bound alone never brings a zero weight back, which is harmless after
	// Algorithm 2 (its stage problems admit every tree that pays its way)
	// but leaves a warm start from a sparser cascade (a larger λ, fewer
	// stages) unable to gain trees. The command line and the workbench set
	// it for warm starts.
	Reenter bool
	// Refit, after the cyclic optimisation, also tries the best cascade
	// with its weights refitted without the penalties (Problem.Refit,
	// every mode of RefitModes), each scored on validation, and keeps the
	// one that scores best there, refitted or not (Outcome.Refit). Not the
	// paper's.
	Refit bool
	// InitProgress, when not nil, is told how far Algorithm 2 has come
	// while the run initialises (InitializeProgress's progress; also while
	// a warm start of another K makes its new stages, resizeWarm), before
	// the first report: on 200,000 documents the initialisation takes
	// seconds with no report. It runs on Optimize's goroutine.
	InitProgress func(stages float64)
}

func (o Options) withDefaults() Options {
	if o.MaxCycles == 0 && !o.InitOnly {
		o.MaxCycles = 5
	}
	if o.InitOnly {
		o.MaxCycles = 0
	}
	if o.Tol == 0 {
		o.Tol = 1e-3
	}
	if o.MaxIter == 0 {
		o.MaxIter = 20
	}
	if o.Select == "" {
		o.Select = "ndcg@10"
	}
	return o
}

// StageView is what the views draw of one stage.
type StageView struct {
	Theta       float64
	Sigma       float64 // σ_k: the absolute scale of the stage's soft exit, fixed for the run
	Active      int     // trees with a non-zero weight
	SoftTrain   float64 // d_k: soft fraction of training inputs reaching the stage
	HardTrain   float64 // the same under the hard rule
	Valid, Test float64 // fraction of validation / test documents reaching it (hard, real scorer)
	NewFeatures []int   // per cost group (ascending cost): features first extracted at this stage
	NewTrees    int     // trees first evaluated at this stage
	CostAdded   float64 // feature and tree cost first paid at this stage (per document that reaches it)
}

// Snapshot is the state of an optimisation run, for the views and the
// command line. Its slices belong to the receiver.
type Snapshot struct {
	Phase       string // "initialising" (or "warm start"), "optimising", "done"
	Warm        bool   // the run started from Options.Warm, not from Algorithm 2
	Cycle       int    // 1-based; 0 during initialisation
	Stage       int    // the stage just optimised (0-based)
	Step        int    // stage steps so far
	Terms       []Terms
	Stages      []StageView
	CostGroups  []float64   // the costs of the groups NewFeatures counts
	Valid, Test Eval        // of the current cascade
	Best        Eval        // validation of the best cascade so far
	BestTest    Eval        // its test
	BestStages  []StageView // its stages
	BestStep    int
	// BestCascade is the best cascade so far itself (nil until there is
	// one), the one Best and BestTest score and Outcome.Best ends as: a
	// copy the optimiser never writes again, shared by every snapshot that
	// holds it, so readers must not write it either.
	BestCascade *Cascade
	// Refit is the refit the best cascade is (RefitLast or RefitAll;
	// "" for none), set once the run is done (Options.Refit).
	Refit     string
	LambdaMax float64
}

// Outcome is what Optimize returns.
type Outcome struct {
	Init    *State // after Algorithm 2
	Final   *State // at the end of the cyclic optimisation
	Best    *State // the best on validation (by Options.Select) seen at any step
	History Snapshot
	Warm    bool   // the run started from Options.Warm (see Options.WarmOrInit)
	Refit   string // Best is a refit (Options.Refit) of this mode; "" for none
	// Unrefit is, when Best is a refit, the run's own best on validation
	// that it refits (nil when Best is no refit); see Own.
	Unrefit *State

	InitTime, CyclicTime time.Duration // in Algorithm 2 and in Algorithm 1 (evaluations included)
}

// Own is the run's own best on validation, before any refit: Unrefit when
// Best is a refit, else Best. It is a point of eq (8), as a refit is not,
// and what a warm start continues from (past λ_max, `cronus sweep` from a
// refit ended at 210 per document where from the own best it ended at 64).
func (o *Outcome) Own() *State {
	if o.Unrefit != nil {
		return o.Unrefit
	}
	return o.Best
}

// ErrStopped is what Optimize returns when its report function returned
// false while ctx was not done: the caller stopped the run (cronus
// cascade's report does when it cannot write its trace).
var ErrStopped = errors.New("cronus: the optimisation was stopped by its report")

// stopErr is the error of a run whose report returned false: ctx's, or
// ErrStopped when ctx is not done.
func stopErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return ErrStopped
}

// Optimize runs Algorithm 2 (or starts from Options.Warm) and then the
// cyclic optimisation of Algorithm 1, reporting a snapshot after every
// stage step. It stops on a relative tolerance, the cycle cap, or when
// ctx is done or report returns false (cancellation: ctx.Err() is returned,
// or ErrStopped when report stopped the run while ctx was not done, with
// the cascade the run was at as Final and the best cascade so far in the
// result, nil when none was evaluated whole).
func Optimize(ctx context.Context, pr *Problem, sc Scales, par Params, opt Options, eval Evaluator, report func(done float64, snap func() Snapshot) bool) (*Outcome, error) {
	opt = opt.withDefaults()
	if err := par.Validate(); err != nil {
		return nil, err
	}
	var st *State
	var err error
	start := time.Now()
	initTime := time.Duration(0)
	warm := opt.Warm != nil
	switch {
	case warm && len(opt.Warm.Stages) == par.K:
		st = warmState(pr, sc, par, opt.Warm, opt.WarmSigma)
	case warm:
		if st, err = resizeWarm(ctx, pr, sc, par, opt.Warm, opt.WarmSigma, opt.InitProgress); err != nil {
			return nil, err
		}
	}
	if !warm || opt.WarmOrInit && !opt.WarmSame {
		init, t := opt.Init, opt.InitTime
		if init == nil {
			if init, err = InitializeProgress(ctx, pr, sc, par, opt.InitProgress); err != nil {
				return nil, err
			}
		}
		// Ties keep the warm start: it is where the user was.
		if st == nil || init.Terms.Total < st.Terms.Total {
			if warm {
				opt.Reenter = false
			}
			st, initTime, warm = init, t, false
		}
	}
	res := &Outcome{Init: st.clone(), InitTime: initTime + time.Since(start), Warm: warm}
	start = time.Now()
	defer func() { res.CyclicTime = time.Since(start) }()
	groups := costGroups(pr.FeatCost)
	snap := Snapshot{Phase: "initialising", LambdaMax: sc.LambdaMax, CostGroups: groups, Warm: warm}
	if warm {
		snap.Phase = "warm start" // the first snapshot is the cascade started from, not Algorithm 2's
	}
	bestScore := math.Inf(-1)
	bestCost := math.Inf(1) // on validation: of steps equal on the metric, the cheapest is kept
	// A warm start is a cascade optimised for other parameters: it, and the
	// mixtures of old and new stages of the first cycle, are not results of
	// this run's parameters. So in a warm run the best on validation is
	// chosen from the end of the first cycle on; otherwise a raised λ would
	// keep returning the (dearer) cascade it started from. A cascade of
	// the same parameters (WarmSame) is one of this run's results.
	eligible := !warm || opt.WarmSame && len(opt.Warm.Stages) == par.K
	consider := func() {
		// Of equals the cheaper (the first of those equal in cost too): a
		// step that dropped a tree without changing the ranking of the
		// validation queries scored the same and was passed over. A step
		// that scores NaN (a mean over no query) ranks below every one
		// that scores a number, as −∞: before, it was never kept, and a
		// run whose every step scored NaN finished with Best nil. Without
		// the metric at all (no validation data: the workbench without a
		// validation file) no step is chosen.
		v, ok := snap.Valid.Metrics[opt.Select]
		if !ok {
			return
		}
		if math.IsNaN(v) {
			v = math.Inf(-1)
		}
		if res.Best == nil || v > bestScore || v == bestScore && snap.Valid.Cost.Total < bestCost {
			bestScore, bestCost = v, snap.Valid.Cost.Total
			res.Best = st.clone()
			snap.Best, snap.BestTest, snap.BestStep = snap.Valid, snap.Test, snap.Step
			snap.BestCascade = &res.Best.Cascade
			snap.BestStages = snap.Stages
		}
	}
	record := func(hardFresh bool) error {
		// st.Terms is current: Initialize, warmState and optimizeStage end
		// with Objective. Initialize and warmState end with HardFractions
		// too (hardFresh; 67 ms on 200,000 documents × 10 stages); a
		// given Options.Init may not have them.
		if !hardFresh || len(st.Hard) != len(st.Stages) {
			st.Hard = pr.HardFractions(&st.Cascade)
		}
		valid, test, err := eval(ctx, &st.Cascade)
		if err != nil {
			return err
		}
		snap.Terms = append(snap.Terms, st.Terms)
		snap.Valid, snap.Test = valid, test
		snap.Stages = stageViews(pr, st, valid, test, groups)
		if eligible {
			consider()
		}
		return nil
	}
	copySnap := func() Snapshot {
		s := snap
		s.Terms = slices.Clone(snap.Terms)
		s.Stages = slices.Clone(snap.Stages)
		s.BestStages = slices.Clone(snap.BestStages)
		return s
	}
	if err := record(true); err != nil {
		res.Final = st
		return res, err
	}
	if report != nil && !report(1, copySnap) {
		res.Final = st
		return res, stopErr(ctx)
	}
	prev := st.Terms.Total
	snap.Phase = "optimising"
	for cycle := 1; cycle <= opt.MaxCycles; cycle++ {
		snap.Cycle = cycle
		for k := range st.Stages {
			if err := ctx.Err(); err != nil {
				res.Final = st
				return res, err
			}
			beta, theta := slices.Clone(st.Stages[k].Beta), st.Stages[k].Theta
			if err := optimizeStage(ctx, pr, st, k, 1, opt.MaxIter, opt.Tol, opt.Reenter); err != nil {
				res.Final = st
				return res, err
			}
			snap.Stage, snap.Step = k, snap.Step+1
			if slices.Equal(beta, st.Stages[k].Beta) && theta == st.Stages[k].Theta {
				// Nothing moved (an empty stage, or no step that lowers eq
				// (8)): the cascade and its evaluation are those of the
				// last step.
				snap.Terms = append(snap.Terms, st.Terms)
			} else if err := record(false); err != nil {
				res.Final = st
				return res, err
			}
			if !eligible && k == par.K-1 {
				// snap holds the evaluation of the current cascade: the
				// last step that moved anything recorded it.
				eligible = true
				consider()
			}
			if report != nil && !report(float64(1+(cycle-1)*par.K+k+1), copySnap) {
				res.Final = st
				return res, stopErr(ctx)
			}
		}
		cur := st.Terms.Total
		if prev-cur <= opt.Tol*math.Abs(cur) {
			break
		}
		prev = cur
	}
	if !eligible { // a warm start with no cycles: it is all there is
		consider()
	}
	if opt.Refit && res.Best != nil {
		// Each refit is of the best cascade of the run; the best of them
		// on validation, if it is better than the run's, is the result.
		from := res.Best
		for _, mode := range RefitModes {
			cand, err := pr.Refit(ctx, from, mode)
			if err != nil {
				res.Final = st
				return res, err
			}
			valid, test, err := eval(ctx, &cand.Cascade)
			if err != nil {
				res.Final = st
				return res, err
			}
			if v, ok := valid.Metrics[opt.Select]; ok && v > bestScore {
				bestScore = v
				res.Best, res.Refit, res.Unrefit = cand, mode, from
				snap.Best, snap.BestTest, snap.Refit = valid, test, mode
				snap.BestCascade = &cand.Cascade
				snap.BestStages = stageViews(pr, cand, valid, test, groups)
			}
		}
	}
	snap.Phase = "done"
	res.Final = st
	res.History = copySnap()
	return res, nil
}

// resizeWarm continues from a cascade c of another number of stages than
// par.K. Its first stages, up to K−1 of them, are kept with their weights,
// θ and σ_k (sigmas, when known), and its last stage, which ranks what
// reaches it, stays the last. With fewer stages, those before c's last
// from stage K on are dropped; with more, the new stages go before the
// last and are made as Algorithm 2 makes them (λ_k schedule, θ_k for the
// (1 − ε) target), from the reach the kept stages leave. The rule is c's.
// progress is InitializeProgress's.
func resizeWarm(ctx context.Context, pr *Problem, sc Scales, par Params, c *Cascade, sigmas []float64, progress func(stages float64)) (*State, error) {
	K, old := par.K, len(c.Stages)
	given := make([]Stage, K)
	givenSigma := make([]float64, K)
	keep := func(to, from int) {
		given[to] = c.Stages[from]
		if len(sigmas) == old {
			givenSigma[to] = sigmas[from]
		}
	}
	for k := 0; k < min(K, old)-1; k++ {
		keep(k, k)
	}
	keep(K-1, old-1)
	par.TopM = 0
	if c.Rule == RuleTopM {
		par.TopM = c.TopM
	}
	return initialize(ctx, pr, sc, par, given, givenSigma, progress)
}

// warmState continues from a given cascade with (possibly) new λ, σ, ρ.
// A stage before the last without trees passes everything (emptyPasses).
func warmState(pr *Problem, sc Scales, par Params, c *Cascade, sigmas []float64) *State {
	st := &State{Lambda: par.Lambda * sc.LambdaMax}
	n := pr.Train.N
	p := make([]float64, n)
	for i := range p {
		p[i] = 1
	}
	s := make([]float64, n)
	lastSpread := 0.0 // of the last stage before k with trees
	var pt *protector // with the top-m rule: who reaches each stage
	if c.Rule == RuleTopM && c.TopM > 0 {
		pt = pr.newProtector(c.TopM)
	}
	for k, stg := range c.Stages {
		stg.Beta = slices.Clone(stg.Beta)
		stg.Theta = emptyPasses(stg, k, len(c.Stages))
		st.Stages = append(st.Stages, stg)
		rho := par.Rho1 * sc.RhoMax
		if k == len(c.Stages)-1 {
			rho = par.RhoK * sc.RhoMax
		}
		st.Rho = append(st.Rho, rho)
		pr.Train.Scores(s, stg.Beta)
		sd := spread(s, p)
		if len(stg.Active()) == 0 {
			// A stage without trees scores every document alike: its
			// spread is 0 but for rounding (4e-19), a step for a soft
			// exit should trees re-enter it. It takes the spread of the
			// stage before it with trees, or σ itself.
			sd = lastSpread
		} else {
			lastSpread = sd
		}
		sigma := par.Sigma * sd
		if len(sigmas) == len(c.Stages) {
			sigma = sigmas[k]
		} else if sigma == 0 {
			sigma = par.Sigma
		}
		st.Sigma = append(st.Sigma, sigma)
		// As Algorithm 2 does (initialize): under the top-m rule a
		// query's protected documents pass whatever their score, so that
		// the next stage's spread is weighted by the reach the rule gives.
		var prot []bool
		if pt != nil && k < len(c.Stages)-1 {
			prot = make([]bool, n)
			pt.mark(s, prot)
			if !math.IsInf(stg.Theta, -1) {
				pt.pass(s, prot, stg.Theta)
			}
		}
		for i := range p {
			p[i] *= passProb(prot, i, s[i], stg.Theta, sigma)
		}
	}
	st.Rule, st.TopM = c.Rule, c.TopM
	pr.Objective(st)
	st.Hard = pr.HardFractions(&st.Cascade)
	return st
}

// emptyPasses returns the θ stage k of K takes: −Inf when it is a stage
// before the last without trees, as issue 4 defines such a stage; its own
// θ otherwise. Warm starts (warmState, resizeWarm), the end of a step's
// pruning (passEmptied) and the start of a step (passIfEmpty) all ask
// it. A cascade file may give an empty stage a finite θ (one hand-edited,
// or written before 2026-11-29, when the pruning could leave one above the
// intercept): the scorer then takes it at its word, and with every score
// equal to the intercept it passes every document or sends away all but
// each query's first top_m in input order. Kept, it made the run's start,
// its eq (8) and, in a continuation (WarmSame) or with no cycles, its
// result such a cascade, and the stage's own step then gave it θ = −Inf
// whatever eq (8) said.
func emptyPasses(stg Stage, k, K int) float64 {
	if k < K-1 && len(stg.Active()) == 0 {
		return math.Inf(-1)
	}
	return stg.Theta
}

func (st *State) clone() *State {
	c := *st
	c.scores = nil // the cache's buffers belong to st
	c.Stages = make([]Stage, len(st.Stages))
	for k, s := range st.Stages {
		c.Stages[k] = Stage{Beta: slices.Clone(s.Beta), Theta: s.Theta}
	}
	c.Sigma, c.D, c.Hard, c.Rho = slices.Clone(st.Sigma), slices.Clone(st.D), slices.Clone(st.Hard), slices.Clone(st.Rho)
	return &c
}

// costGroups returns the distinct feature costs, ascending.
func costGroups(featCost []float64) []float64 {
	g := slices.Clone(featCost)
	slices.Sort(g)
	return slices.Compact(g)
}

// stageViews describes each stage: which features and trees it is the
// first to need (Figure 4 of the paper), and how many inputs reach it.
func stageViews(pr *Problem, st *State, valid, test Eval, groups []float64) []StageView {
	T := pr.Train.NumTrees()
	treeDone := make([]bool, T)
	featDone := make([]bool, len(pr.FeatCost))
	out := make([]StageView, len(st.Stages))
	for k, stg := range st.Stages {
		v := StageView{Theta: stg.Theta, NewFeatures: make([]int, len(groups))}
		if k < len(st.Sigma) {
			v.Sigma = st.Sigma[k]
		}
		if k < len(st.D) {
			v.SoftTrain = st.D[k]
		}
		if k < len(st.Hard) {
			v.HardTrain = st.Hard[k]
		}
		if k < len(valid.Reached) {
			v.Valid = valid.Reached[k]
		}
		if k < len(test.Reached) {
			v.Test = test.Reached[k]
		}
		for _, t := range stg.Active() {
			v.Active++
			if treeDone[t] {
				continue
			}
			treeDone[t] = true
			v.NewTrees++
			v.CostAdded += pr.TreeCost[t]
			for _, f := range pr.TreeFeats[t] {
				if featDone[f] {
					continue
				}
				featDone[f] = true
				v.CostAdded += pr.FeatCost[f]
				g, _ := slices.BinarySearch(groups, pr.FeatCost[f])
				v.NewFeatures[g]++
			}
		}
		out[k] = v
	}
	return out
}
