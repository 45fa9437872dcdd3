package cronus

import (
	"context"
	"errors"
	"slices"
	"testing"
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
