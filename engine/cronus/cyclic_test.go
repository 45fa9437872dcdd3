package cronus

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/tree"
)

var (
	smallOnce sync.Once
	smallPr   *Problem
	smallE    *tree.Ensemble // the trees of smallPr
	smallTr   *data.Dataset  // its training data
)

// smallProblem is MQ2008 train with 40 depth-2 regression trees.
func smallProblem(t testing.TB) *Problem {
	smallOnce.Do(func() {
		ctx := context.Background()
		tr, err := data.LoadDataset(ctx, "builtin:mq2008/train", data.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		costs, err := data.LoadCosts("builtin:mq2008/costs", 46)
		if err != nil {
			t.Fatal(err)
		}
		bp := boost.DefaultParams(boost.Regression)
		bp.Trees, bp.Grow.MaxDepth, bp.Grow.MaxLeaves = 40, 2, 4
		r, err := boost.Train(ctx, tr, nil, bp, nil)
		if err != nil {
			t.Fatal(err)
		}
		smallE, smallTr = r.Ensemble, tr
		smallPr, err = NewProblem(r.Ensemble, tr, costs.Cost, 1, DefaultTargets())
		if err != nil {
			t.Fatal(err)
		}
	})
	return smallPr
}

// The gradient of the stage objective, including the dependence of the
// later stages' reach fractions on this stage, against central differences.
func TestStageGradient(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda = 4, 0.05
	st := initSmall(t, pr, par)
	checkStageGradients(t, pr, st, rand.New(rand.NewPCG(1, 1)), nil)
}

// TestStageEvalReuse: a gradient call at the point of the last value-only
// call reuses its pass (eval's cache); value and gradient must be those of
// a fresh objective, bit for bit, whatever came before: a value call at the
// same point, at another point, a gradient call in between.
func TestStageEvalReuse(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = 4, 0.05, 2
	st := initSmall(t, pr, par)
	k := slices.IndexFunc(st.Stages[:len(st.Stages)-1], func(s Stage) bool { return len(s.Active()) > 0 })
	if k < 0 {
		t.Fatal("no stage with trees before the last")
	}
	x := newStageObjective(pr, st, k).x()
	y := slices.Clone(x)
	y[0] += 0.1
	fresh := func(at []float64) (float64, []float64) {
		g := make([]float64, len(at))
		f := newStageObjective(pr, st, k).eval(at, g)
		return f, g
	}
	fx, gx := fresh(x)
	fy, gy := fresh(y)
	o := newStageObjective(pr, st, k)
	for i, c := range []struct {
		value []float64 // value-only call first (nil: none)
		at    []float64 // then the gradient call
	}{{x, x}, {y, x}, {nil, y}, {y, y}, {x, y}, {nil, x}} {
		if c.value != nil {
			o.eval(c.value, nil)
		}
		g := make([]float64, len(c.at))
		f := o.eval(c.at, g)
		wf, wg := fx, gx
		if &c.at[0] == &y[0] {
			wf, wg = fy, gy
		}
		if math.Float64bits(f) != math.Float64bits(wf) || !sameBits(g, wg) {
			t.Errorf("case %d: value %v, gradient %v; want %v, %v", i, f, g, wf, wg)
		}
	}
}

// checkStageGradients checks the gradient of every non-empty stage's
// objective at a point near st's against central differences, after
// calling check (when not nil) on the stage objective; it returns the
// number of stages checked.
func checkStageGradients(t *testing.T, pr *Problem, st *State, r *rand.Rand, check func(k int, o *stageObjective)) int {
	t.Helper()
	checked := 0
	for k := range st.Stages {
		if len(st.Stages[k].Active()) == 0 {
			continue
		}
		o := newStageObjective(pr, st, k)
		if check != nil {
			check(k, o)
		}
		x := o.x()
		for i := range x {
			x[i] += 0.01 * (r.Float64() - 0.5) * max(1e-2, math.Abs(x[i]))
		}
		g := make([]float64, len(x))
		o.eval(x, g)
		for i := range x {
			h := 1e-6 * max(1, math.Abs(x[i]))
			xp := append([]float64(nil), x...)
			xm := append([]float64(nil), x...)
			xp[i] += h
			xm[i] -= h
			fd := (o.eval(xp, nil) - o.eval(xm, nil)) / (2 * h)
			if math.Abs(fd-g[i]) > 1e-4*max(1, math.Abs(fd)) {
				t.Errorf("stage %d, coordinate %d of %d: gradient %v, finite difference %v", k, i, len(x), g[i], fd)
			}
		}
		checked++
	}
	return checked
}

// The cyclic optimisation never increases eq (8), under either rule, with
// or without trees re-entering.
func TestCyclicDecreases(t *testing.T) {
	for _, m := range []int{0, 5} {
		for _, reenter := range []bool{false, true} {
			t.Run(fmt.Sprintf("top-m=%d/reenter=%v", m, reenter), func(t *testing.T) { testCyclicDecreases(t, m, reenter) })
		}
	}
}

func testCyclicDecreases(t *testing.T, topM int, reenter bool) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = 5, 0.05, topM
	st := initSmall(t, pr, par)
	prev := pr.Objective(st).Total
	for cycle := 0; cycle < 2; cycle++ {
		for k := range st.Stages {
			optimizeStage(context.Background(), pr, st, k, 3, 30, 1e-6, reenter)
			cur := pr.Objective(st).Total
			if cur > prev*(1+1e-12) {
				t.Fatalf("cycle %d stage %d: eq (8) went from %v to %v", cycle, k, prev, cur)
			}
			prev = cur
		}
	}
}

// The pruning trials' evaluator gives eq (8) as objectiveWith does, for a
// change to the first, a middle and the last stage, with the global and
// the top-m rule, and leaves st.D as objectiveWith would.
func TestStageTrialMatchesObjective(t *testing.T) {
	pr := smallProblem(t)
	for _, topM := range []int{0, 5} {
		par := DefaultParams()
		par.K, par.Lambda, par.TopM = 5, 0.02, topM
		st := initSmall(t, pr, par)
		scores := pr.stageScores(st)
		prot := pr.protectedSets(&st.Cascade, scores)
		for _, k := range []int{0, 2, par.K - 1} {
			act := st.Stages[k].Active()
			if len(act) == 0 {
				t.Fatalf("top-m %d: stage %d has no trees to try", topM, k)
			}
			// As pruneStage does: eq (8) first, with the current protected
			// documents, so that st.D is current.
			pr.objectiveWith(st, scores, prot)
			o := newStageObjective(pr, st, k)
			beta := st.Stages[k].Beta
			sk := scores[k]
			// As pruneStage does: drop trees one at a time, the scores of
			// stage k following the weights.
			for _, tt := range append([]int{-1}, act[:min(3, len(act))]...) {
				trial := sk
				if tt >= 0 {
					trial = make([]float64, len(sk))
					for i, h := range pr.Train.Col(tt, nil) {
						trial[i] = sk[i] - beta[tt]*float64(h)
					}
					beta[tt] = 0
					sk = trial
				}
				got := o.exactTotal(trial)
				gotD := append([]float64(nil), st.D...)
				scores[k] = trial
				want := pr.objectiveWith(st, scores, prot)
				if math.Abs(got-want.Total) > 1e-12*math.Abs(want.Total) {
					t.Errorf("top-m %d, stage %d, tree %d dropped: trial %v, objective %v", topM, k, tt, got, want.Total)
				}
				for j := range gotD {
					if math.Abs(gotD[j]-st.D[j]) > 1e-12 {
						t.Errorf("top-m %d, stage %d, tree %d dropped: d_%d %v, want %v", topM, k, tt, j, gotD[j], st.D[j])
					}
				}
			}
			scores = pr.stageScores(st) // fresh for the next stage
			prot = pr.protectedSets(&st.Cascade, scores)
		}
	}
}

// entryViolations' slopes are eq (8)'s: for every tree at zero in every
// stage of a cascade initialised at a large λ and then given a small one
// (as a warm start is), moving the weight off zero by ±δ changes eq (8) by
// δ(±slope + bound), bound being the penalty's slope at zero; the trees it
// returns are exactly those for which one direction lowers eq (8).
func TestEntryViolations(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = 4, 0.3, 0
	st := initSmall(t, pr, par)
	sc := ComputeScales(pr, 0)
	st.Lambda = 0.01 * sc.LambdaMax
	base := pr.Objective(st).Total
	const delta = 1e-5
	flagged, checked := 0, 0
	for k := range st.Stages {
		viol := map[int]entry{}
		_, viol0 := entryViolations(pr, st, k)
		for _, e := range viol0 {
			viol[e.t] = e
		}
		beta := st.Stages[k].Beta
		for tr := 0; tr < pr.Train.NumTrees(); tr++ {
			if beta[tr] != 0 {
				continue
			}
			slope := [2]float64{}
			for d, dir := range []float64{1, -1} {
				beta[tr] = dir * delta
				st.scores[k] = nil
				slope[d] = (pr.Objective(st).Total - base) / delta
				beta[tr] = 0
				st.scores[k] = nil
			}
			pr.Objective(st)
			// slope[0] = g + bound, slope[1] = −g + bound.
			g, bound := (slope[0]-slope[1])/2, (slope[0]+slope[1])/2
			e, isViol := viol[tr]
			lowers := min(slope[0], slope[1]) < 0
			margin := 1e-3 * (math.Abs(g) + bound)
			if math.Abs(math.Abs(g)-bound) < margin {
				continue // too close to call by finite differences
			}
			checked++
			if isViol != lowers {
				t.Errorf("stage %d tree %d: flagged %v, but eq (8)'s one-sided slopes are %.6g and %.6g", k, tr, isViol, slope[0], slope[1])
			}
			if isViol {
				flagged++
				if math.Abs(e.slope-g) > margin || math.Abs(e.excess-(math.Abs(g)-bound)) > margin {
					t.Errorf("stage %d tree %d: slope %.6g excess %.6g; finite differences %.6g, %.6g", k, tr, e.slope, e.excess, g, math.Abs(g)-bound)
				}
			}
		}
	}
	if flagged == 0 || checked <= flagged {
		t.Errorf("checked %d trees at zero, %d flagged: the test needs both kinds", checked, flagged)
	}
	t.Logf("checked %d trees at zero, %d flagged", checked, flagged)
}

// A cascade of a large λ warm-started at a small one gains trees in its
// cyclic steps only when trees may re-enter, and eq (8) ends lower.
func TestReenterWarm(t *testing.T) {
	pr := smallProblem(t)
	sc := ComputeScales(pr, 0)
	for _, topM := range []int{0, 5} {
		par := DefaultParams()
		par.K, par.Lambda, par.TopM = 4, 0.3, topM
		coarse := initSmall(t, pr, par)
		par.Lambda = 0.01
		final := map[bool]*State{}
		for _, reenter := range []bool{false, true} {
			out, err := Optimize(context.Background(), pr, sc, par, Options{Warm: &coarse.Cascade, MaxCycles: 2, Reenter: reenter},
				func(context.Context, *Cascade) (Eval, Eval, error) { return Eval{}, Eval{}, nil }, nil)
			if err != nil {
				t.Fatal(err)
			}
			final[reenter] = out.Final
		}
		count := func(st *State) (n int) {
			for _, s := range st.Stages {
				n += len(s.Active())
			}
			return n
		}
		was, without, with := count(coarse), count(final[false]), count(final[true])
		if without > was || with <= was || !(final[true].Terms.Total < final[false].Terms.Total) {
			t.Errorf("top-m %d: %d active weights warm, %d after 2 cycles without re-entry, %d with; eq (8) %.6g without, %.6g with",
				topM, was, without, with, final[false].Terms.Total, final[true].Terms.Total)
		}
	}
}

// With WarmOrInit a run starts from whichever of the warm cascade and
// Algorithm 2 has the lower eq (8): after a large rise of λ that is
// Algorithm 2, and the run is then a run from scratch, step for step
// (without the re-entry asked for the warm start); after a small one it is
// the warm cascade.
func TestWarmOrInit(t *testing.T) {
	pr := smallProblem(t)
	sc := ComputeScales(pr, 0)
	noEval := func(context.Context, *Cascade) (Eval, Eval, error) { return Eval{}, Eval{}, nil }
	par := DefaultParams()
	par.K, par.Lambda = 4, 0.01
	out, err := Optimize(context.Background(), pr, sc, par, Options{MaxCycles: 2}, noEval, nil)
	if err != nil {
		t.Fatal(err)
	}
	from := out.Final
	for _, tc := range []struct {
		lambda float64
		warm   bool
	}{{1, false}, {0.012, true}} {
		par.Lambda = tc.lambda
		init := initSmall(t, pr, par)
		warmStart := warmState(pr, sc, par, &from.Cascade, from.Sigma)
		if (warmStart.Terms.Total <= init.Terms.Total) != tc.warm {
			t.Fatalf("λ %g: eq (8) %.6g warm, %.6g from Algorithm 2: the case does not test what it says", tc.lambda, warmStart.Terms.Total, init.Terms.Total)
		}
		var first Snapshot
		out, err := Optimize(context.Background(), pr, sc, par,
			Options{Warm: &from.Cascade, WarmSigma: from.Sigma, WarmOrInit: true, Reenter: true, MaxCycles: 2}, noEval,
			func(_ float64, snap func() Snapshot) bool {
				if first.Phase == "" {
					first = snap()
				}
				return true
			})
		if err != nil {
			t.Fatal(err)
		}
		want, phase := init, "initialising"
		if tc.warm {
			want, phase = warmStart, "warm start"
		}
		if out.Warm != tc.warm || first.Warm != tc.warm || first.Phase != phase || out.Init.Terms != want.Terms {
			t.Errorf("λ %g: started warm %v (snapshot %v, phase %q) at eq (8) %.6g; want warm %v at %.6g", tc.lambda, out.Warm, first.Warm, first.Phase, out.Init.Terms.Total, tc.warm, want.Terms.Total)
		}
		if tc.warm {
			continue
		}
		cold, err := Optimize(context.Background(), pr, sc, par, Options{MaxCycles: 2}, noEval, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.Final.Cascade, cold.Final.Cascade) || out.Final.Terms != cold.Final.Terms {
			t.Errorf("λ %g: from Algorithm 2 the run ends at eq (8) %.6g; from scratch at %.6g", tc.lambda, out.Final.Terms.Total, cold.Final.Terms.Total)
		}
	}
}
