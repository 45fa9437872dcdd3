package cronus

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/cronus-ltr/cronus/engine/metric"
)

// TestScoreCuts: ScoreCuts's cut k is, field for field and bit for bit,
// what ScoreContext gives for Cascade.FirstStages(k), and EvaluateCuts's
// what EvaluateContext gives, for 40 random cascades (both exit rules,
// thresholds that documents score exactly, stages of no trees) over a
// trained ensemble, with random tree costs; the last cut is the cascade's
// own Result.
func TestScoreCuts(t *testing.T) {
	fx := scLoad(t)
	e, d := fx.e, fx.test
	o := NewOutputs(e, d)
	r := rand.New(rand.NewPCG(17, 19))
	treeCost := make([]float64, len(e.Trees))
	for i := range treeCost {
		treeCost[i] = 0.25 + r.Float64()
	}
	specs := []metric.Spec{{Name: metric.NDCG, K: 10}, {Name: metric.Precision, K: 5}, {Name: metric.ERR, K: 3}}
	ctx := context.Background()
	for trial := range 40 {
		c := scRandomCascade(r, o)
		K := len(c.Stages)
		cuts, err := ScoreCuts(ctx, e, c, d, fx.featCost, treeCost)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := EvaluateCuts(ctx, e, c, d, fx.featCost, treeCost, specs)
		if err != nil {
			t.Fatal(err)
		}
		if len(cuts) != K || len(evs) != K {
			t.Fatalf("trial %d: %d cuts and %d evaluations of %d stages", trial, len(cuts), len(evs), K)
		}
		for k := 1; k <= K; k++ {
			want, err := ScoreContext(ctx, e, c.FirstStages(k), d, fx.featCost, treeCost)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cuts[k-1], want) {
				t.Fatalf("trial %d (%s, %d stages): cut %d differs from FirstStages(%d) scored: cost %v against %v", trial, c.Rule, K, k, k, cuts[k-1].Cost, want.Cost)
			}
			wantEv, err := EvaluateContext(ctx, e, c.FirstStages(k), d, fx.featCost, treeCost, specs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(evs[k-1], wantEv) {
				t.Fatalf("trial %d: evaluation of cut %d differs: %v against %v", trial, k, evs[k-1].Metrics, wantEv.Metrics)
			}
		}
		if whole := Score(e, c, d, fx.featCost, treeCost); !reflect.DeepEqual(cuts[K-1], whole) {
			t.Fatalf("trial %d: the last cut is not the cascade's Result", trial)
		}
	}
}

// TestScoreCutsCancelled: a done context ends ScoreCuts and EvaluateCuts
// with its error; a nil data set gives K zero evaluations.
func TestScoreCutsCancelled(t *testing.T) {
	fx := scLoad(t)
	o := NewOutputs(fx.e, fx.test)
	c := scRandomCascade(rand.New(rand.NewPCG(3, 5)), o)
	treeCost := make([]float64, len(fx.e.Trees))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ScoreCuts(ctx, fx.e, c, fx.test, fx.featCost, treeCost); !errors.Is(err, context.Canceled) {
		t.Errorf("ScoreCuts after cancel: %v", err)
	}
	if _, err := EvaluateCuts(ctx, fx.e, c, fx.test, fx.featCost, treeCost, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("EvaluateCuts after cancel: %v", err)
	}
	evs, err := EvaluateCuts(context.Background(), fx.e, c, nil, fx.featCost, treeCost, nil)
	if err != nil || len(evs) != len(c.Stages) || evs[0].Metrics != nil {
		t.Errorf("EvaluateCuts of no data: %v, %v", evs, err)
	}
}

// BenchmarkScoreCuts scores every cut of a 5-stage cascade over the
// fixture's trees on its test data in one pass (sub-benchmark "one-pass")
// and cut by cut with ScoreContext ("apart"), as the cuts were scored
// before ScoreCuts.
func BenchmarkScoreCuts(b *testing.B) {
	fx := scLoad(b)
	e, d := fx.e, fx.test
	o := NewOutputs(e, d)
	r := rand.New(rand.NewPCG(23, 29))
	var c *Cascade
	for c == nil || len(c.Stages) < 5 {
		c = scRandomCascade(r, o)
	}
	treeCost := make([]float64, len(e.Trees))
	for i := range treeCost {
		treeCost[i] = 1
	}
	ctx := context.Background()
	b.Run("one-pass", func(b *testing.B) {
		for b.Loop() {
			if _, err := ScoreCuts(ctx, e, c, d, fx.featCost, treeCost); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("apart", func(b *testing.B) {
		for b.Loop() {
			for k := 1; k <= len(c.Stages); k++ {
				if _, err := ScoreContext(ctx, e, c.FirstStages(k), d, fx.featCost, treeCost); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
