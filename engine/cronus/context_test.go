package cronus

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/cronus-ltr/cronus/engine/metric"
)

// The set-up and the scorer stop when their context is done and say so
// (NewProblem's tree outputs, which take seconds on large data, and
// Score); with a live context they give what their plain forms give.
func TestContextVariantsStop(t *testing.T) {
	pr := smallProblem(t)
	st := smallTopM(t)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewProblemContext(done, smallE, smallTr, pr.FeatCost, 1, DefaultTargets()); !errors.Is(err, context.Canceled) {
		t.Errorf("NewProblemContext: error %v, want context.Canceled", err)
	}
	if _, err := NewOutputsContext(done, smallE, smallTr, OutputsCompact); !errors.Is(err, context.Canceled) {
		t.Errorf("NewOutputsContext: error %v, want context.Canceled", err)
	}
	if res, err := ScoreContext(done, smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost); !errors.Is(err, context.Canceled) {
		t.Errorf("ScoreContext: error %v, want context.Canceled", err)
	} else if scored := slices.IndexFunc(res.TreeCost, func(c float64) bool { return c != 0 }); scored >= 0 {
		// Done before it began, it scores no query (the workers ask
		// before each one): a scorer that went through them all and
		// then said "canceled" passed.
		t.Errorf("ScoreContext, done before it began: document %d was scored", scored)
	}
	if _, err := EvaluateContext(done, smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost, evalSpecs); !errors.Is(err, context.Canceled) {
		t.Errorf("EvaluateContext: error %v, want context.Canceled", err)
	}
	if _, _, err := NewEvaluator(smallE, smallTr, nil, pr.FeatCost, pr.TreeCost, evalSpecs)(done, &st.Cascade); !errors.Is(err, context.Canceled) {
		t.Errorf("NewEvaluator's Evaluator: error %v, want context.Canceled", err)
	}
	live := context.Background()
	res, err := ScoreContext(live, smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost)
	if err != nil || !reflect.DeepEqual(res, Score(smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost)) {
		t.Errorf("ScoreContext, live: %v, or it differs from Score", err)
	}
	ev, err := EvaluateContext(live, smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost, evalSpecs)
	if err != nil || !reflect.DeepEqual(ev, Evaluate(smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost, evalSpecs)) || len(ev.Metrics) != len(evalSpecs) {
		t.Errorf("EvaluateContext, live: %v, or it differs from Evaluate (%v)", err, ev.Metrics)
	}
	p2, err := NewProblemContext(live, smallE, smallTr, pr.FeatCost, 1, DefaultTargets())
	if err != nil || !reflect.DeepEqual(p2.Train, pr.Train) || !reflect.DeepEqual(p2.Y, pr.Y) {
		t.Errorf("NewProblemContext, live: %v, or its outputs differ from NewProblem's", err)
	}
}

var evalSpecs = []metric.Spec{{Name: metric.NDCG, K: 10}, {Name: metric.Precision, K: 5}}

// TestOptimizeStopsInEvaluation: Optimize stops as soon as its Evaluator
// reports that ctx is done (scoring valid and test is most of a step on
// large data), evaluates nothing more, and returns ctx's error with the
// cascade it was at.
func TestOptimizeStopsInEvaluation(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda = 3, 0.05
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	eval := func(ctx context.Context, c *Cascade) (Eval, Eval, error) {
		calls++
		if calls == 3 {
			cancel() // as an interrupt arriving while scoring
			return Eval{}, Eval{}, ctx.Err()
		}
		h := pr.HardFractions(c)
		return Eval{Metrics: map[string]float64{"ndcg@10": -h[len(h)-1]}}, Eval{}, nil
	}
	reports := 0
	res, err := Optimize(ctx, pr, ComputeScales(pr, 0), par, Options{MaxCycles: 5}, eval, func(float64, func() Snapshot) bool {
		reports++
		return true
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if calls != 3 {
		t.Errorf("%d evaluations, want 3 (none after the one that was stopped)", calls)
	}
	if reports >= calls {
		t.Errorf("%d snapshots after %d evaluations: the stopped one was reported", reports, calls)
	}
	if res == nil || res.Final == nil || res.Best == nil {
		t.Fatalf("result %+v: want the cascade it was at and the best so far", res)
	}
}

// A report that returns false stops the run though ctx is not done (as
// cronus cascade's does when its trace line cannot be written): Optimize
// says so with ErrStopped, not nil, and the result holds the cascade the
// run was at, as on a cancellation. It returned nil, and Final was nil
// when the first report stopped it.
func TestOptimizeReportStopsWithError(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda = 3, 0.05
	for _, after := range []int{1, 3} {
		reports := 0
		res, err := Optimize(context.Background(), pr, ComputeScales(pr, 0), par, Options{MaxCycles: 5}, trainEvaluator(pr), func(float64, func() Snapshot) bool {
			reports++
			return reports < after
		})
		if !errors.Is(err, ErrStopped) {
			t.Errorf("stopped at report %d: error %v, want ErrStopped", after, err)
		}
		if res == nil || res.Final == nil {
			t.Errorf("stopped at report %d: result %+v has no final cascade", after, res)
		}
	}
}

// A cancellation that comes while a snapshot is reported (the report
// returns true, but ctx is done by its end) stops the run before the next
// stage step begins: the result's Final is the cascade the last snapshot
// showed, its eq (8) terms, θs and active trees, with no tree a step
// re-entered after it.
func TestOptimizeCancelledInReportKeepsReported(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda = 3, 0.05
	for _, at := range []int{1, 2, 4, 6} {
		ctx, cancel := context.WithCancel(context.Background())
		reports := 0
		var last Snapshot
		res, err := Optimize(ctx, pr, ComputeScales(pr, 0), par, Options{MaxCycles: 5, Reenter: true}, trainEvaluator(pr), func(_ float64, snap func() Snapshot) bool {
			reports++
			last = snap()
			if reports == at {
				cancel()
			}
			return true
		})
		cancel()
		if !errors.Is(err, context.Canceled) || reports != at {
			t.Fatalf("cancelled at report %d: error %v after %d reports, want context.Canceled after %d", at, err, reports, at)
		}
		fin := res.Final
		if got, want := fin.Terms, last.Terms[len(last.Terms)-1]; got != want {
			t.Errorf("cancelled at report %d: Final's terms %+v, the last snapshot's %+v", at, got, want)
		}
		for k, s := range fin.Stages {
			if s.Theta != last.Stages[k].Theta || len(s.Active()) != last.Stages[k].Active {
				t.Errorf("cancelled at report %d: stage %d: θ %v with %d active trees, the last snapshot showed θ %v with %d",
					at, k+1, s.Theta, len(s.Active()), last.Stages[k].Theta, last.Stages[k].Active)
			}
		}
	}
}
