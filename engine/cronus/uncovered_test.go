package cronus

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
)

// ChooseRho keeps the first ρ of the best score, skips NaN scores (a NaN
// never beats a number, a number always beats NaN), returns that ρ's own
// initialisation (the same as Initialize with ρ_1 = ρ_K = ρ), and calls
// progress with (i, 0) before initialisation i and with stages up to K.
func TestChooseRhoPicksFirstBest(t *testing.T) {
	pr := smallProblem(t)
	sc := ComputeScales(pr, 0)
	par := DefaultParams()
	par.K = 3
	rhos := []float64{0.001, 0.005, 0.02, 0.05, 0.1}
	scores := []float64{math.NaN(), 2, 5, 5, 1}
	calls := 0
	score := func(_ context.Context, c *Cascade) ([]float64, error) {
		if len(c.Stages) != par.K {
			t.Errorf("scored a cascade of %d stages, want %d", len(c.Stages), par.K)
		}
		q := scores[calls]
		calls++
		return []float64{q}, nil
	}
	var starts []int
	last := map[int]float64{}
	progress := func(i int, stages float64) {
		if stages == 0 && (len(starts) == 0 || starts[len(starts)-1] != i) {
			starts = append(starts, i)
		}
		if stages < last[i] {
			t.Errorf("initialisation %d: progress went back from %g to %g", i, last[i], stages)
		}
		last[i] = stages
	}
	got, err := ChooseRho(context.Background(), pr, sc, par, rhos, RhoBest, score, progress)
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(rhos) {
		t.Errorf("%d cascades scored, want %d", calls, len(rhos))
	}
	if got.Rho != 0.02 || got.Score != 5 || got.Init == nil {
		t.Fatalf("chose ρ %g (score %g, init %v), want the first of the best: ρ 0.02, score 5", got.Rho, got.Score, got.Init != nil)
	}
	if len(starts) != len(rhos) {
		t.Errorf("progress started %v, want each of 0..%d", starts, len(rhos)-1)
	}
	for i := range starts {
		if starts[i] != i {
			t.Errorf("progress started %v, want 0..%d in order", starts, len(rhos)-1)
			break
		}
	}
	for i := range rhos {
		if last[i] != float64(par.K) {
			t.Errorf("initialisation %d: progress ended at %g stages, want %d", i, last[i], par.K)
		}
	}
	wantInitAt(t, pr, sc, par, 0.02, got.Init)
}

// wantInitAt fails t unless init is Initialize's with ρ_1 = ρ_K = rho and
// the other parameters of par, bit for bit, at absolute ρ rho·ρ_max.
func wantInitAt(t *testing.T, pr *Problem, sc Scales, par Params, rho float64, init *State) {
	t.Helper()
	want := par
	want.Rho1, want.RhoK = rho, rho
	ref, err := Initialize(context.Background(), pr, sc, want)
	if err != nil {
		t.Fatal(err)
	}
	for k := range ref.Stages {
		if !sameBits(ref.Stages[k].Beta, init.Stages[k].Beta) || math.Float64bits(ref.Stages[k].Theta) != math.Float64bits(init.Stages[k].Theta) {
			t.Errorf("stage %d: the chosen initialisation is not Initialize's at ρ = %g", k, rho)
		}
		if math.Abs(init.Rho[k]-rho*sc.RhoMax) > 1e-12*sc.RhoMax {
			t.Errorf("stage %d: absolute ρ %g, want %g·ρ_max = %g", k, init.Rho[k], rho, rho*sc.RhoMax)
		}
	}
}

// With no score a number, ChooseRho reports par's ρ_1, a NaN score and no
// initialisation; a score's error and an invalid ρ stop it with that error.
func TestChooseRhoNoNumberAndErrors(t *testing.T) {
	pr := smallProblem(t)
	sc := ComputeScales(pr, 0)
	par := DefaultParams()
	par.K, par.Rho1, par.RhoK = 2, 0.03, 0.03
	ctx := context.Background()
	nan := func(context.Context, *Cascade) ([]float64, error) { return []float64{math.NaN()}, nil }
	got, err := ChooseRho(ctx, pr, sc, par, []float64{0.001, 0.01}, RhoBest, nan, nil)
	if err != nil || got.Rho != 0.03 || !math.IsNaN(got.Score) || got.Init != nil {
		t.Errorf("all NaN: got ρ %g, score %g, init %v, err %v; want ρ 0.03, NaN, nil, nil", got.Rho, got.Score, got.Init != nil, err)
	}

	boom := errors.New("validation failed")
	n := 0
	failSecond := func(context.Context, *Cascade) ([]float64, error) {
		n++
		if n == 2 {
			return nil, boom
		}
		return []float64{0.5}, nil
	}
	got, err = ChooseRho(ctx, pr, sc, par, []float64{0.001, 0.01, 0.1}, RhoBest, failSecond, nil)
	if !errors.Is(err, boom) || n != 2 {
		t.Errorf("score error: err %v after %d scores, want %v after 2", err, n, boom)
	}
	if got.Rho != 0.001 || got.Score != 0.5 {
		t.Errorf("score error: best so far ρ %g score %g, want 0.001, 0.5", got.Rho, got.Score)
	}

	_, err = ChooseRho(ctx, pr, sc, par, []float64{-0.1}, RhoBest, nan, nil)
	if err == nil || !strings.Contains(err.Error(), "ρ") {
		t.Errorf("ρ = -0.1: err %v, want one naming ρ", err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = ChooseRho(cctx, pr, sc, par, []float64{0.01}, RhoBest, nan, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}

// Optimize's early ends: invalid parameters are refused before any work,
// with an error naming the parameter; an evaluator's error on the first
// (initialised) cascade is returned with that cascade as Final and no
// Best; a report that returns false on the first snapshot stops the run
// with ErrStopped, Final and Best the initialised cascade; an evaluator's
// error on a refit candidate is returned with the run's own best kept.
func TestOptimizeEarlyEnds(t *testing.T) {
	pr := smallProblem(t)
	sc := ComputeScales(pr, 0)
	par := DefaultParams()
	par.K, par.Lambda = 3, 0.05
	ctx := context.Background()
	good := trainEvaluator(pr)
	opt := Options{MaxCycles: 1}

	bad := par
	bad.K = 0
	out, err := Optimize(ctx, pr, sc, bad, opt, good, nil)
	if out != nil || err == nil || !strings.Contains(err.Error(), "K must be at least 1") {
		t.Errorf("K = 0: outcome %v, err %v; want none and an error naming K", out != nil, err)
	}

	init := initSmall(t, pr, par)
	sameCascade := func(what string, a, b *Cascade) {
		t.Helper()
		if len(a.Stages) != len(b.Stages) {
			t.Fatalf("%s: %d stages, want %d", what, len(a.Stages), len(b.Stages))
		}
		for k := range a.Stages {
			if !sameBits(a.Stages[k].Beta, b.Stages[k].Beta) || math.Float64bits(a.Stages[k].Theta) != math.Float64bits(b.Stages[k].Theta) {
				t.Errorf("%s: stage %d differs", what, k)
			}
		}
	}

	boom := errors.New("cannot score validation")
	failing := func(context.Context, *Cascade) (Eval, Eval, error) { return Eval{}, Eval{}, boom }
	out, err = Optimize(ctx, pr, sc, par, opt, failing, nil)
	if !errors.Is(err, boom) || out == nil || out.Final == nil || out.Best != nil {
		t.Fatalf("evaluator error: err %v, outcome %+v; want %v, Final and no Best", err, out, boom)
	}
	sameCascade("evaluator error: Final", &out.Final.Cascade, &init.Cascade)

	reports := 0
	stop := func(done float64, _ func() Snapshot) bool { reports++; return false }
	out, err = Optimize(ctx, pr, sc, par, opt, good, stop)
	if !errors.Is(err, ErrStopped) || reports != 1 || out == nil || out.Final == nil || out.Best == nil {
		t.Fatalf("report false: err %v after %d reports, outcome %+v; want ErrStopped after 1, Final and Best", err, reports, out)
	}
	sameCascade("report false: Final", &out.Final.Cascade, &init.Cascade)
	sameCascade("report false: Best", &out.Best.Cascade, &init.Cascade)

	calls := 0
	counting := func(ctx context.Context, c *Cascade) (Eval, Eval, error) { calls++; return good(ctx, c) }
	plain, err := Optimize(ctx, pr, sc, par, opt, counting, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := calls
	calls = 0
	failRefit := func(ctx context.Context, c *Cascade) (Eval, Eval, error) {
		calls++
		if calls > n {
			return Eval{}, Eval{}, boom
		}
		return good(ctx, c)
	}
	ropt := opt
	ropt.Refit = true
	out, err = Optimize(ctx, pr, sc, par, ropt, failRefit, nil)
	if !errors.Is(err, boom) || calls != n+1 || out == nil || out.Final == nil || out.Best == nil || out.Refit != "" {
		t.Fatalf("refit evaluator error: err %v after %d calls (want %v after %d), outcome %+v", err, calls, boom, n+1, out)
	}
	sameCascade("refit evaluator error: Best", &out.Best.Cascade, &plain.Best.Cascade)
	sameCascade("refit evaluator error: Final", &out.Final.Cascade, &plain.Final.Cascade)
}

// solveSPD on systems Cholesky alone cannot take: a singular but
// consistent G is solved with the jitter fallback (G x = r to rounding),
// a zero column gets a zero weight, and an indefinite G, which no jitter
// up to 1e-4 makes positive definite, is reported as failed.
func TestSolveSPDFallbacks(t *testing.T) {
	// Rank one: G = v vᵀ with v = (1, 2), r = G·(1, 1) = (3, 6).
	G := []float64{1, 2, 2, 4}
	x, ok := solveSPD(G, []float64{3, 6}, 2)
	if !ok {
		t.Fatal("singular consistent system: reported failure")
	}
	if r0, r1 := x[0]+2*x[1], 2*x[0]+4*x[1]; math.Abs(r0-3) > 1e-6 || math.Abs(r1-6) > 1e-6 {
		t.Errorf("singular consistent system: x = %v gives G x = (%g, %g), want (3, 6)", x, r0, r1)
	}

	// The middle output is zero on every document: its weight is 0 and
	// the others solve diag(2, 4) x = (2, 8).
	G = []float64{2, 0, 0, 0, 0, 0, 0, 0, 4}
	x, ok = solveSPD(G, []float64{2, 0, 8}, 3)
	if !ok || math.Abs(x[0]-1) > 1e-12 || x[1] != 0 || math.Abs(x[2]-2) > 1e-12 {
		t.Errorf("zero column: x = %v, ok %v; want (1, 0, 2), true", x, ok)
	}

	// Eigenvalues 3 and -1: not positive semi-definite.
	G = []float64{1, 2, 2, 1}
	if x, ok = solveSPD(G, []float64{1, 1}, 2); ok {
		t.Errorf("indefinite system: x = %v reported solved", x)
	}

	// Every output zero: all weights 0.
	if x, ok = solveSPD(make([]float64, 4), []float64{1, 1}, 2); !ok || x[0] != 0 || x[1] != 0 {
		t.Errorf("all-zero system: x = %v, ok %v; want zeros, true", x, ok)
	}

	// Off-diagonal 1+e: the eigenvalues are 2+e and −e, so the jitter
	// must pass e, and the documented ladder goes up to 1e-4: e = 5e-6
	// and 5e-5 are solved (x near (1/2, 1/2), to within the jitter), e =
	// 2e-4 is not. A ladder cut at 1e-6 gave up on the first two.
	for _, c := range []struct {
		e  float64
		ok bool
	}{{5e-6, true}, {5e-5, true}, {2e-4, false}} {
		G = []float64{1, 1 + c.e, 1 + c.e, 1}
		x, ok = solveSPD(G, []float64{1, 1}, 2)
		if ok != c.ok {
			t.Errorf("off-diagonal 1+%g: ok %v, want %v (x = %v)", c.e, ok, c.ok, x)
		}
		if ok && (math.Abs(x[0]-0.5) > 1e-3 || math.Abs(x[1]-0.5) > 1e-3) {
			t.Errorf("off-diagonal 1+%g: x = %v, want about (0.5, 0.5)", c.e, x)
		}
	}
}

// NewProblem refuses, before building anything, targets out of range, a
// tree cost that is no cost, fewer feature costs than the model has
// features, an ensemble without trees and a training set without
// documents, each with an error that names what is wrong and its value.
func TestNewProblemRefusals(t *testing.T) {
	base := smallProblem(t)
	e, tr, cost := smallE, smallTr, base.FeatCost
	tg := DefaultTargets()
	with := func(change func(*Targets)) Targets { x := tg; change(&x); return x }
	noTrees := *e
	noTrees.Trees = nil
	empty := &data.Dataset{Name: "empty.txt", Cols: make([][]float32, tr.NumFeatures()), QueryOffsets: []int{0}}
	for f := range empty.Cols {
		empty.Cols[f] = []float32{}
	}
	for _, c := range []struct {
		name     string
		run      func() (*Problem, error)
		contains string
	}{
		{"NaN threshold", func() (*Problem, error) {
			return NewProblem(e, tr, cost, 1, with(func(x *Targets) { x.Relevant = math.NaN() }))
		}, "relevance threshold must be a finite number (got NaN)"},
		{"zero ω⁺", func() (*Problem, error) {
			return NewProblem(e, tr, cost, 1, with(func(x *Targets) { x.PosWeight = 0 }))
		}, "ω⁺ (the weight of positives) must be a finite number > 0 (got 0)"},
		{"infinite ω⁻", func() (*Problem, error) {
			return NewProblem(e, tr, cost, 1, with(func(x *Targets) { x.NegWeight = math.Inf(1) }))
		}, "ω⁻ (the weight of negatives) must be a finite number > 0 (got +Inf)"},
		{"negative multiplier", func() (*Problem, error) {
			return NewProblem(e, tr, cost, 1, with(func(x *Targets) { x.NegMultiply = -2 }))
		}, "multiplier must be a finite number > 0 (got -2)"},
		{"graded and distil", func() (*Problem, error) {
			return NewProblem(e, tr, cost, 1, with(func(x *Targets) { x.Graded, x.Distil = true, true }))
		}, "exclude each other"},
		{"negative tree cost", func() (*Problem, error) { return NewProblem(e, tr, cost, -1, tg) }, "tree cost must be a number from 0 to"},
		{"NaN tree cost", func() (*Problem, error) { return NewProblem(e, tr, cost, math.NaN(), tg) }, "(got NaN)"},
		{"too few feature costs", func() (*Problem, error) { return NewProblem(e, tr, cost[:10], 1, tg) }, "10 feature costs for a model of 46 features"},
		{"no trees", func() (*Problem, error) { return NewProblem(&noTrees, tr, cost, 1, tg) }, "the ensemble has no trees"},
		{"no documents", func() (*Problem, error) { return NewProblem(e, empty, cost, 1, tg) }, "empty.txt: no training documents"},
	} {
		pr, err := c.run()
		if pr != nil || err == nil || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s: problem %v, err %v; want none and an error containing %q", c.name, pr != nil, err, c.contains)
		}
	}
}

// entryPrice, worked by hand: tree 0 costs 5 and splits on features 0
// (cost 2) and 1 (cost 3). It pays its own cost only while no stage pays
// for it, and each feature only while nobody has paid for it. (A tree
// charged e_t again in a later stage survived the suite: λ_max came out
// finite where it is +Inf, and the entry bound too high.)
func TestEntryPriceHandWorked(t *testing.T) {
	treeCost, featCost, feats := []float64{5}, []float64{2, 3}, [][]int{{0, 1}}
	for _, c := range []struct {
		treeUse, f0, f1 float64
		want            float64
	}{
		{0, 0, 0, 10},
		{1, 0, 0, 5},
		{0, 1, 0, 8},
		{2, 0, 0.5, 2},
		{1, 1, 1, 0},
	} {
		got := entryPrice(0, treeCost, featCost, feats, []float64{c.treeUse}, []float64{c.f0, c.f1})
		if got != c.want {
			t.Errorf("tree used %g, features used (%g, %g): price %g, want %g", c.treeUse, c.f0, c.f1, got, c.want)
		}
	}
}

// spread is the standard deviation weighted by p, worked by hand: scores
// 1 and 3 are 1 from their mean with any equal weights, and with weights
// 1 and 3 the mean is 2.5 and the variance (1·1.5² + 3·0.5²)/4 = 0.75. A
// zero weight leaves its score out. (A spread that divided by the number
// of documents instead of Σ p survived all but an Example's output.)
func TestSpreadHandWorked(t *testing.T) {
	for _, c := range []struct {
		s, p []float64
		want float64
	}{
		{[]float64{1, 3}, []float64{1, 1}, 1},
		{[]float64{1, 3}, []float64{0.5, 0.5}, 1},
		{[]float64{1, 3}, []float64{1, 3}, math.Sqrt(0.75)},
		{[]float64{1, 3, 100}, []float64{0.25, 0.25, 0}, 1},
		{[]float64{1, 3}, []float64{0, 0}, 0},
	} {
		if got := spread(c.s, c.p); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("spread(%v, %v) = %v, want %v", c.s, c.p, got, c.want)
		}
	}
}
