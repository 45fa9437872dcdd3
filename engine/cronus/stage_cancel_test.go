package cronus

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/cronus-ltr/cronus/internal/cancelctx"
	"gonum.org/v1/gonum/optimize"
)

// A stage step stops when its context is done: it returns ctx's error and
// leaves the stage where it was, where it ran its L-BFGS and pruning to the
// end (on 400,000 documents a step took seconds, and cascade and sweep
// waited for it after a SIGINT).
func TestOptimizeStageStopsWhenCancelled(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda = 4, 0.05
	const k = 1
	// The same step with a live context moves the stage: the cancelled
	// one below has work to skip.
	live := initSmall(t, pr, par)
	before := slices.Clone(live.Stages[k].Beta)
	if err := optimizeStage(context.Background(), pr, live, k, 1, 20, 1e-6, false); err != nil {
		t.Fatal(err)
	}
	if slices.Equal(before, live.Stages[k].Beta) {
		t.Fatal("the step moved nothing: the test shows nothing")
	}
	st := initSmall(t, pr, par)
	beta, theta, total := slices.Clone(st.Stages[k].Beta), st.Stages[k].Theta, st.Terms.Total
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := optimizeStage(ctx, pr, st, k, 1, 20, 1e-6, false)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if !slices.Equal(beta, st.Stages[k].Beta) || theta != st.Stages[k].Theta {
		t.Errorf("the cancelled step moved stage %d: β %v → %v, θ %v → %v", k, beta, st.Stages[k].Beta, theta, st.Stages[k].Theta)
	}
	if want := pr.Objective(st).Total; st.Terms.Total != want || want != total {
		t.Errorf("Terms.Total %v, eq (8) at the weights %v, before %v", st.Terms.Total, want, total)
	}
}

// The L-BFGS of a stage ends at the first evaluation after its context is
// done, not at the end of the major iteration, whose line search can take
// several evaluations (0.3 s each on 400,000 documents × 300 trees: SIGINT
// ended cascade 2.3 s later there). Here the context is done from its
// third look on: gonum looks once before it starts and once after each
// evaluation, so the run ends after two evaluations.
func TestStageLBFGSStopsAfterAnEvaluation(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda = 4, 0.05
	st := initSmall(t, pr, par)
	o := newStageObjective(pr, st, 1)
	x0 := o.x()
	// Uncancelled, the run takes more than two evaluations: the test has
	// something to cut short.
	count := func(prob optimize.Problem, n *int) optimize.Problem { // evaluations of eq (8); each also asks for the gradient
		f := prob.Func
		prob.Func = func(x []float64) float64 { *n++; return f(x) }
		return prob
	}
	var full int
	if _, err := optimize.Minimize(count(lbfgsProblem(context.Background(), o), &full), slices.Clone(x0), &optimize.Settings{MajorIterations: 20, GradientThreshold: 1e-10}, &optimize.LBFGS{}); err != nil {
		t.Fatal(err)
	}
	if full <= 2 {
		t.Fatalf("the uncancelled run took %d evaluations", full)
	}
	var n int
	ctx := cancelctx.New(2)
	res, err := optimize.Minimize(count(lbfgsProblem(ctx, o), &n), slices.Clone(x0), &optimize.Settings{MajorIterations: 20, GradientThreshold: 1e-10}, &optimize.LBFGS{})
	if err != nil || res.Status != statusCancelled || n > 2 {
		t.Errorf("cancelled at the third look: status %v, err %v, %d evaluations (uncancelled %d); want Cancelled after at most 2", res.Status, err, n, full)
	}
}

// The pruning at the end of a stage step looks at its context before each
// trial, and when it is done puts every stage back as it was before the
// pruning, eq (8) with them (its trials took 0.6 s on 400,000 documents,
// and an interrupt waited for them). Cancelled at each of its looks in
// turn, it returns context.Canceled and leaves the state as it found it.
func TestPruneStopsWhenCancelled(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda = 4, 0.05
	base := initSmall(t, pr, par)
	// Tiny weights on trees no stage uses, for the trials to take: three
	// in stage 1 alone (pruneStage's) and three in stages 1 and 2
	// (pruneTrees').
	T := pr.Train.NumTrees()
	added := 0
	for c := 0; c < T && added < 6; c++ {
		used := false
		for _, stg := range base.Stages {
			used = used || stg.Beta[c] != 0
		}
		if used {
			continue
		}
		base.Stages[1].Beta[c] = 1e-9
		if added >= 3 {
			base.Stages[2].Beta[c] = 1e-9
		}
		added++
	}
	if added < 6 {
		t.Fatalf("only %d unused trees", added)
	}
	base.scores = nil
	pr.Objective(base)
	const k = 1
	live := base.clone()
	ctx := cancelctx.New(1 << 30)
	if err := prune(ctx, pr, live, k); err != nil {
		t.Fatal(err)
	}
	looks, changed := ctx.Looked, false
	for i := range live.Stages {
		changed = changed || !slices.Equal(live.Stages[i].Beta, base.Stages[i].Beta)
	}
	if !changed || looks < 2 {
		t.Fatalf("the pruning changed %v in %d looks: the test shows nothing", changed, looks)
	}
	for n := 0; n < looks-1; n++ {
		st := base.clone()
		if err := prune(cancelctx.New(n), pr, st, k); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at look %d of %d: err %v", n+1, looks, err)
		}
		for i := range st.Stages {
			if !slices.Equal(st.Stages[i].Beta, base.Stages[i].Beta) || st.Stages[i].Theta != base.Stages[i].Theta {
				t.Errorf("cancelled at look %d: stage %d changed", n+1, i)
			}
		}
		if st.Terms != base.Terms || !slices.Equal(st.D, base.D) {
			t.Errorf("cancelled at look %d: eq (8) %+v, D %v; before %+v, %v", n+1, st.Terms, st.D, base.Terms, base.D)
		}
	}
}
