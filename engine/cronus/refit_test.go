package cronus

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// oneCycle is the small problem's cascade under par, initialised and
// optimised for one cycle.
func oneCycle(t *testing.T, par Params) *Outcome {
	t.Helper()
	pr := smallProblem(t)
	res, err := Optimize(context.Background(), pr, ComputeScales(pr, 0), par, Options{MaxCycles: 1}, trainEvaluator(pr), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// refitSmall is the small problem's 5-stage cascade under rule (top-m with
// m = 5, or global), initialised and optimised for one cycle.
func refitSmall(t *testing.T, topM int) *State {
	t.Helper()
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = 5, 0.02, topM
	return oneCycle(t, par).Final
}

// The optimiser's hard exits are the real scorer's on the training data.
func TestHardExitsMatchScorer(t *testing.T) {
	pr := smallProblem(t)
	for _, m := range []int{0, 5} {
		st := refitSmall(t, m)
		got := pr.hardExits(&st.Cascade)
		want := Score(smallE, &st.Cascade, smallTr, pr.FeatCost, pr.TreeCost).Exit
		if !slices.Equal(got, want) {
			t.Errorf("top-m %d: hard exits differ from the scorer's", m)
		}
		if k := slices.Max(got); k == 0 {
			t.Errorf("top-m %d: every document leaves at the first stage; the test needs a cascade that passes some", m)
		}
		// A θ equal to a training score, as a refit's is (the score of
		// the last document it passes): that document stays (s ≥ θ) in
		// both, else many exits differed (θ set to the stage's median
		// score on each stage before the last that has trees).
		c := st.Cascade
		c.Stages = slices.Clone(c.Stages)
		s := make([]float64, pr.Train.N)
		tied := 0
		for k := range len(c.Stages) - 1 {
			if len(c.Stages[k].Active()) == 0 {
				continue
			}
			pr.Train.Scores(s, c.Stages[k].Beta)
			sorted := slices.Sorted(slices.Values(s))
			c.Stages[k].Theta = sorted[len(sorted)/2]
			tied++
		}
		if tied == 0 {
			t.Fatalf("top-m %d: no stage before the last has trees", m)
		}
		got = pr.hardExits(&c)
		want = Score(smallE, &c, smallTr, pr.FeatCost, pr.TreeCost).Exit
		if !slices.Equal(got, want) {
			n := 0
			for i := range got {
				if got[i] != want[i] {
					n++
				}
			}
			t.Errorf("top-m %d, θ at a training score: %d of %d hard exits differ from the scorer's", m, n, len(got))
		}
	}
}

// Each refitted stage is the weighted least-squares fit, on the trees it
// had, to the documents that leave there: the gradient of
// Σ_i ω_i (y_i − s_i)² over those documents vanishes in every weight it
// has (computed here from the tree outputs directly), its loss there is
// no higher than before, its trees are the same, and under RefitAll the
// thresholds pass on as many of the documents that reached each stage
// as before (checkPassCount).
func TestRefitIsLeastSquaresOnSupport(t *testing.T) {
	pr := smallProblem(t)
	T := pr.Train.NumTrees()
	for _, m := range []int{0, 5} {
		st := refitSmall(t, m)
		exit := pr.hardExits(&st.Cascade)
		for _, mode := range RefitModes {
			t.Run(fmt.Sprintf("top-m=%d/%s", m, mode), func(t *testing.T) {
				out, err := pr.Refit(context.Background(), st, mode)
				if err != nil {
					t.Fatal(err)
				}
				refitted := 0
				for k := range st.Stages {
					old, got := st.Stages[k], out.Stages[k]
					if !slices.Equal(old.Active(), got.Active()) && len(got.Active()) != 0 {
						t.Errorf("stage %d: trees %v became %v", k, old.Active(), got.Active())
					}
					if slices.Equal(old.Beta, got.Beta) {
						leave := 0 // a stage is refitted when as many documents leave there as it has weights
						for _, x := range exit {
							if x == k {
								leave++
							}
						}
						due := leave >= len(old.Active())+1 && len(old.Active()) > 0
						if due && (mode == RefitAll || k == len(st.Stages)-1) {
							t.Errorf("stage %d (%d trees, %d documents leave there) was not refitted", k, len(old.Active()), leave)
						}
						continue
					}
					if mode == RefitLast && k < len(st.Stages)-1 {
						t.Errorf("%s changed stage %d", mode, k)
					}
					refitted++
					cols := append(got.Active(), T)
					sOld := pr.Train.Scores(nil, old.Beta)
					sNew := pr.Train.Scores(nil, got.Beta)
					grad := make([]float64, len(cols))
					var scale, lossOld, lossNew float64
					for i, x := range exit {
						if x != k {
							continue
						}
						r := pr.Y[i] - sNew[i]
						lossNew += pr.Omega[i] * r * r
						ro := pr.Y[i] - sOld[i]
						lossOld += pr.Omega[i] * ro * ro
						for a, c := range cols {
							h := 1.0
							if c < T {
								h = float64(pr.Train.Col(c, nil)[i])
							}
							grad[a] += pr.Omega[i] * r * h
							scale += math.Abs(pr.Omega[i] * pr.Y[i] * h)
						}
					}
					for a, g := range grad {
						if math.Abs(g) > 1e-8*scale {
							t.Errorf("stage %d, column %d: gradient %g of the loss over %g", k, cols[a], g, scale)
						}
					}
					if lossNew > lossOld*(1+1e-12) {
						t.Errorf("stage %d: loss where documents leave rose from %g to %g", k, lossOld, lossNew)
					}
					if k < len(st.Stages)-1 && !math.IsInf(old.Theta, -1) {
						checkPassCount(t, pr, &st.Cascade, &out.Cascade, k, exit)
					}
				}
				if refitted == 0 {
					t.Error("no stage refitted")
				}
				// Terms and fractions are those of the new cascade.
				check := out.clone()
				if pr.Objective(check); check.Terms != out.Terms {
					t.Errorf("terms %+v, want %+v", out.Terms, check.Terms)
				}
				if h := pr.HardFractions(&out.Cascade); !slices.Equal(h, out.Hard) {
					t.Errorf("hard fractions %v, want %v", out.Hard, h)
				}
			})
		}
	}
}

// checkPassCount: among the documents that reached stage k of old (exit ≥
// k), as many go on under the new stage k (score ≥ θ, or among their
// query's m best of those by the new score) as went on under old, but for
// documents that score θ exactly: they all go on.
func checkPassCount(t *testing.T, pr *Problem, old, nw *Cascade, k int, exit []int) {
	t.Helper()
	s := pr.Train.Scores(nil, nw.Stages[k].Beta)
	want, got, tied := 0, 0, 0
	for q := 0; q+1 < len(pr.Offsets); q++ {
		var alive []int
		for i := pr.Offsets[q]; i < pr.Offsets[q+1]; i++ {
			if exit[i] >= k {
				alive = append(alive, i)
			}
			if exit[i] > k {
				want++
			}
		}
		slices.SortStableFunc(alive, func(a, b int) int { return -cmpFloat(s[a], s[b]) })
		for j, i := range alive {
			if s[i] >= nw.Stages[k].Theta || nw.Rule == RuleTopM && j < nw.TopM {
				got++
			}
			if s[i] == nw.Stages[k].Theta {
				tied++
			}
		}
	}
	if got < want || got > want && got-want >= tied {
		t.Errorf("stage %d: %d of the documents that reached it go on (%d of them at θ); %d did", k, got, tied, want)
	}
}

// A stage before the last whose trees output 0 on every document that
// leaves there would lose them all to the refit (least squares gives such
// a tree weight 0), and kept its finite θ: a stage without trees and with
// a threshold, which sends documents away by its intercept alone, every
// one alike. It stays as it is. Here stage 0 scores by one added tree,
// 0 left of a split and 1 right, with θ 0.5: the documents going left
// leave, and on them the tree is 0.
func TestRefitKeepsStageWhoseTreesWouldAllGo(t *testing.T) {
	smallProblem(t)
	e := *smallE
	e.Trees = append(slices.Clone(smallE.Trees), tree.Tree{
		Nodes:  []tree.Node{{Feature: 0, Threshold: 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
		Leaves: []float64{0, 1},
	})
	pr, err := NewProblem(&e, smallTr, smallProblem(t).FeatCost, 1, DefaultTargets())
	if err != nil {
		t.Fatal(err)
	}
	par := DefaultParams()
	par.K, par.Lambda = 3, 0.02
	st := initSmall(t, pr, par)
	T := len(e.Trees)
	b := st.Stages[0].Beta
	clear(b)
	b[T-1], st.Stages[0].Theta = 1, 0.5
	st.scores = nil
	pr.Objective(st)
	exit := pr.hardExits(&st.Cascade)
	leave, pass := 0, 0
	for _, x := range exit {
		if x == 0 {
			leave++
		} else {
			pass++
		}
	}
	if leave < 2 || pass == 0 {
		t.Fatalf("stage 0 sends %d documents away and passes %d: the test needs both", leave, pass)
	}
	out, err := pr.Refit(context.Background(), st, RefitAll)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Stages[0]; !slices.Equal(got.Beta, b) || got.Theta != 0.5 {
		t.Errorf("stage 0 refitted to trees %v, θ %v; want it as it was (tree %d, θ 0.5)", got.Active(), got.Theta, T-1)
	}
}

// Refit gives the same cascade, bit for bit, on one core and on many, and
// stops when its context ends.
func TestRefitDeterministicAndCancellable(t *testing.T) {
	pr := smallProblem(t)
	st := refitSmall(t, 5)
	run := func(procs int) *State {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		out, err := pr.Refit(context.Background(), st, RefitAll)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := run(1), run(4)
	for k := range a.Stages {
		if !sameBits(a.Stages[k].Beta, b.Stages[k].Beta) || math.Float64bits(a.Stages[k].Theta) != math.Float64bits(b.Stages[k].Theta) {
			t.Errorf("stage %d differs between 1 and 4 cores", k)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pr.Refit(ctx, st, RefitAll); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

// With Options.Refit the result is the best on validation of the run's own
// best cascade and its refits: never worse than the run without it, the
// same trees in every stage, and Outcome.Refit names the refit kept. The
// evaluator here prefers a low training loss where documents leave (hard
// exits), which a refit lowers, so a refit must win.
func TestOptimizeRefitKeepsTheBetter(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = 5, 0.02, 5
	hardLoss := func(_ context.Context, c *Cascade) (Eval, Eval, error) {
		exit := pr.hardExits(c)
		scores := make([][]float64, len(c.Stages))
		loss := 0.0
		for i, k := range exit {
			if scores[k] == nil {
				scores[k] = pr.Train.Scores(nil, c.Stages[k].Beta)
			}
			r := pr.Y[i] - scores[k][i]
			loss += pr.Omega[i] * r * r
		}
		return Eval{Metrics: map[string]float64{"ndcg@10": -loss}}, Eval{}, nil
	}
	run := func(refit bool) *Outcome {
		res, err := Optimize(context.Background(), pr, ComputeScales(pr, 0), par, Options{MaxCycles: 1, Refit: refit}, hardLoss, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	plain, refit := run(false), run(true)
	if plain.Refit != "" || plain.Unrefit != nil {
		t.Errorf("without Options.Refit, Outcome.Refit %q, Unrefit %v", plain.Refit, plain.Unrefit)
	}
	if refit.Refit == "" {
		t.Fatal("no refit kept, though each lowers the loss the evaluator scores")
	}
	if plain.Own() != plain.Best || refit.Own() != refit.Unrefit {
		t.Error("Own is not the run's best before any refit")
	}
	vp, _, _ := hardLoss(context.Background(), &plain.Best.Cascade)
	vr, _, _ := hardLoss(context.Background(), &refit.Best.Cascade)
	if !(vr.Metrics["ndcg@10"] > vp.Metrics["ndcg@10"]) {
		t.Errorf("refit best %v, plain best %v", vr.Metrics, vp.Metrics)
	}
	if got := refit.History.Best.Metrics["ndcg@10"]; got != vr.Metrics["ndcg@10"] || refit.History.Refit != refit.Refit || refit.History.BestCascade != &refit.Best.Cascade {
		t.Errorf("the snapshot's best (%v, refit %q) is not the outcome's (%v, %q)", got, refit.History.Refit, vr.Metrics["ndcg@10"], refit.Refit)
	}
	for k := range plain.Best.Stages {
		if a, b := plain.Best.Stages[k].Active(), refit.Best.Stages[k].Active(); !slices.Equal(a, b) {
			t.Errorf("stage %d: trees %v, refit %v", k, a, b)
		}
		// The cascade refitted is the run's own best, the one without Refit.
		if refit.Unrefit == nil || !sameBits(refit.Unrefit.Stages[k].Beta, plain.Best.Stages[k].Beta) {
			t.Errorf("stage %d: Outcome.Unrefit is not the run's own best", k)
		}
	}
}

// solveSPD: a well-posed system is solved; a repeated column (singular)
// is solved with a jitter, and the two copies share the weight; a column
// of zeros gets a zero weight.
func TestSolveSPD(t *testing.T) {
	// G = AᵀA for A = [[1 0] [1 1] [0 2]], r = Aᵀb for b = (1, 2, 3): the
	// least-squares x of A x ≈ b.
	G := []float64{2, 1, 1, 5}
	r := []float64{3, 8}
	x, ok := solveSPD(G, r, 2)
	// Solve by hand: 2x+y = 3, x+5y = 8 → y = 13/9, x = 7/9.
	if !ok || math.Abs(x[0]-7.0/9) > 1e-12 || math.Abs(x[1]-13.0/9) > 1e-12 {
		t.Errorf("solve: %v %v", x, ok)
	}
	// Columns 0 and 1 equal, column 2 zero: G = [[a a 0] [a a 0] [0 0 0]].
	G = []float64{4, 4, 0, 4, 4, 0, 0, 0, 0}
	r = []float64{8, 8, 0}
	x, ok = solveSPD(G, r, 3)
	if !ok || math.Abs(x[0]+x[1]-2) > 1e-6 || math.Abs(x[0]-x[1]) > 1e-9 || x[2] != 0 {
		t.Errorf("singular: %v %v; want x0 = x1 with sum 2, x2 = 0", x, ok)
	}
}

// Under RefitAll a stage past which only protected documents went on
// (top-m: each query's first m) still passes none but them: its new θ is
// above every unprotected score there, so the hard fraction reaching the
// next stage stays at that floor. Here 12 stages that send 30% away each
// leave the later ones only the queries' top 5. (A θ equal to the best
// unprotected score let that document through: a tie checkPassCount
// allows, and the mutant survived the suite.)
func TestRefitAllKeepsProtectedOnly(t *testing.T) {
	pr := smallProblem(t)
	par := DefaultParams()
	par.K, par.Epsilon, par.TopM = 12, 0.3, 5
	st := oneCycle(t, par).Final
	out, err := pr.Refit(context.Background(), st, RefitAll)
	if err != nil {
		t.Fatal(err)
	}
	floor := st.Hard[par.K-1] // the protected documents alone
	idle := 0
	for k := 1; k < par.K; k++ {
		if st.Hard[k] == floor {
			idle++
			if out.Hard[k] != floor {
				t.Errorf("stage %d: %.5f of the training documents reach it after RefitAll, want the protected %.5f (before: %v; after: %v)", k, out.Hard[k], floor, st.Hard, out.Hard)
			}
		}
	}
	if idle < 2 {
		t.Fatalf("hard fractions %v: the test needs stages past which only the protected go on", st.Hard)
	}
}
