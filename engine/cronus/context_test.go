package cronus

import (
	"context"
	"errors"
	"reflect"
	"testing"
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
	if _, err := ScoreContext(done, smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost); !errors.Is(err, context.Canceled) {
		t.Errorf("ScoreContext: error %v, want context.Canceled", err)
	}
	live := context.Background()
	res, err := ScoreContext(live, smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost)
	if err != nil || !reflect.DeepEqual(res, Score(smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost)) {
		t.Errorf("ScoreContext, live: %v, or it differs from Score", err)
	}
	p2, err := NewProblemContext(live, smallE, smallTr, pr.FeatCost, 1, DefaultTargets())
	if err != nil || !reflect.DeepEqual(p2.Train, pr.Train) || !reflect.DeepEqual(p2.Y, pr.Y) {
		t.Errorf("NewProblemContext, live: %v, or its outputs differ from NewProblem's", err)
	}
}
