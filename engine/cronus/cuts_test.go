package cronus

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
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
	treeCost := unitCosts(len(e.Trees))
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

// TestLastStagePrefix: File.LastStagePrefix(n) leaves every stage but the
// last as it was and makes the last the ensemble's first n trees, each of
// weight 1, with the base score as intercept (read back through
// File.Cascade), recording params.last_prefix; out of range it refuses,
// with the file unchanged. Scored, a document leaves the earlier stages as
// in the cascade itself.
func TestLastStagePrefix(t *testing.T) {
	fx := scLoad(t)
	e, d := fx.e, fx.test
	o := NewOutputs(e, d)
	r := rand.New(rand.NewPCG(31, 37))
	T := len(e.Trees)
	treeCost := unitCosts(T)
	for trial := range 10 {
		c := scRandomCascade(r, o)
		K := len(c.Stages)
		file := func() *File { return NewFile(e, c, fx.featCost, treeCost, 0.05, map[string]any{"lambda": 0.01}) }
		for _, n := range []int{0, -1, T + 1} {
			f := file()
			if err := f.LastStagePrefix(n); err == nil || !strings.Contains(err.Error(), "from 1 to "+strconv.Itoa(T)) {
				t.Fatalf("LastStagePrefix(%d) of %d trees: error %v", n, T, err)
			}
			if !reflect.DeepEqual(f, file()) {
				t.Fatalf("LastStagePrefix(%d) changed the file", n)
			}
		}
		n := 1 + r.IntN(T)
		f := file()
		if err := f.LastStagePrefix(n); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.Params, map[string]any{"lambda": 0.01, "last_prefix": n}) {
			t.Errorf("params %v", f.Params)
		}
		_, got, err := f.Cascade()
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Stages) != K || !reflect.DeepEqual(got.Stages[:K-1], c.Stages[:K-1]) {
			t.Fatalf("trial %d: the earlier stages changed", trial)
		}
		last := got.Stages[K-1]
		if last.Beta[T] != e.Base || !math.IsInf(last.Theta, -1) {
			t.Errorf("trial %d: last stage intercept %v (base %v), θ %v", trial, last.Beta[T], e.Base, last.Theta)
		}
		for tr := range T {
			if want := float64(b2i(tr < n)); last.Beta[tr] != want {
				t.Fatalf("trial %d: n %d: tree %d weighs %v, want %v", trial, n, tr, last.Beta[tr], want)
			}
		}
		own, hyb := Score(e, c, d, fx.featCost, treeCost), Score(e, got, d, fx.featCost, treeCost)
		for i := range own.Exit {
			if (own.Exit[i] < K-1) != (hyb.Exit[i] < K-1) || own.Exit[i] < K-1 && (own.Exit[i] != hyb.Exit[i] || own.Score[i] != hyb.Score[i] || own.FeatureCost[i] != hyb.FeatureCost[i] || own.TreeCost[i] != hyb.TreeCost[i]) {
				t.Fatalf("trial %d: document %d leaves at %d (score %v) in the cascade, at %d (%v) with the prefix last", trial, i, own.Exit[i], own.Score[i], hyb.Exit[i], hyb.Score[i])
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestLastPrefix: Cascade.LastPrefix(n, base) is, stage for stage, the
// cascade of the file File.LastStagePrefix(n) makes (eval --last-prefix
// n's), for 20 random cascades and every n, the earlier stages untouched;
// an n out of range panics.
func TestLastPrefix(t *testing.T) {
	fx := scLoad(t)
	e := fx.e
	o := NewOutputs(e, fx.test)
	r := rand.New(rand.NewPCG(23, 29))
	T := len(e.Trees)
	treeCost := unitCosts(T)
	for trial := range 20 {
		c := scRandomCascade(r, o)
		K := len(c.Stages)
		for n := 1; n <= T; n += 1 + n/3 {
			got := c.LastPrefix(n, e.Base)
			f := NewFile(e, c, fx.featCost, treeCost, 0.1, nil)
			if err := f.LastStagePrefix(n); err != nil {
				t.Fatal(err)
			}
			_, want, err := f.Cascade()
			if err != nil {
				t.Fatal(err)
			}
			if got.Rule != want.Rule || got.TopM != want.TopM || len(got.Stages) != K {
				t.Fatalf("trial %d n %d: rule %s/%d, %d stages; the file's %s/%d, %d", trial, n, got.Rule, got.TopM, len(got.Stages), want.Rule, want.TopM, len(want.Stages))
			}
			for k := range K {
				g, w := got.Stages[k], want.Stages[k]
				if k == K-1 { // the last stage's threshold is never used
					g.Theta, w.Theta = 0, 0
				}
				if !reflect.DeepEqual(g, w) {
					t.Fatalf("trial %d n %d: stage %d is %v; the file's %v", trial, n, k+1, g, w)
				}
				if k < K-1 && !reflect.DeepEqual(got.Stages[k], c.Stages[k]) {
					t.Fatalf("trial %d n %d: stage %d changed", trial, n, k+1)
				}
			}
		}
	}
	for _, n := range []int{0, T + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("LastPrefix(%d) of %d trees did not panic", n, T)
				}
			}()
			scRandomCascade(r, o).LastPrefix(n, 0)
		}()
	}
}

// unitCosts is a cost of 1 for each of n trees.
func unitCosts(n int) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = 1
	}
	return c
}

// TestFirstKept: the first stage with a non-zero tree weight, whatever
// the intercepts and thresholds; len(Stages) when no stage keeps a tree.
func TestFirstKept(t *testing.T) {
	stage := func(weights ...float64) Stage { return Stage{Beta: append(weights, 0.7), Theta: 0.1} }
	for _, tc := range []struct {
		c    Cascade
		want int
	}{
		{Cascade{Stages: []Stage{stage(0, 0), stage(0, 0), stage(0, 0)}}, 3},
		{Cascade{Stages: []Stage{stage(0, 0), stage(0, 0), stage(0, 2)}}, 2},
		{Cascade{Stages: []Stage{stage(0, 0), stage(-0.5, 0), stage(0, 2)}}, 1},
		{Cascade{Stages: []Stage{stage(1e-300, 0), stage(0, 0), stage(0, 0)}}, 0},
		{Cascade{Stages: []Stage{stage(0, 0)}}, 1},
	} {
		if got := tc.c.FirstKept(); got != tc.want {
			t.Errorf("FirstKept of %v = %d, want %d", tc.c.Stages, got, tc.want)
		}
	}
}
