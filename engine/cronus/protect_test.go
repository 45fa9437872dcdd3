package cronus

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// smallTopM is the small problem's cascade trained for RuleTopM (m = 5),
// initialised and then one cycle optimised.
func smallTopM(t *testing.T) *State {
	t.Helper()
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = 5, 0.02, 5
	res := oneCycle(t, par)
	if res.Init.Rule != RuleTopM || res.Init.TopM != 5 {
		t.Fatalf("rule %q, m %d: the params ask for top-m 5", res.Init.Rule, res.Init.TopM)
	}
	return res.Final
}

// The protected sets and hard fractions the optimiser uses are those of
// the real scorer: the fraction of training documents it sends to each
// stage, and, recomputed by a plain sort per query, the m best reaching
// each stage.
func TestProtectedMatchesScorer(t *testing.T) {
	st := smallTopM(t)
	pr := smallProblem(t)
	c := &st.Cascade
	res := Score(smallE, c, smallTr, pr.FeatCost, pr.TreeCost)
	hard := pr.HardFractions(c)
	for k := range hard {
		if math.Abs(hard[k]-res.Reached[k]) > 1e-12 {
			t.Errorf("stage %d: optimiser's hard fraction %v, scorer's %v", k, hard[k], res.Reached[k])
		}
	}
	scores := pr.stageScores(st)
	prot := pr.protectedSets(c, scores)
	protectedSomewhere := 0
	for k := 0; k < len(c.Stages)-1; k++ {
		if math.IsInf(c.Stages[k].Theta, -1) {
			if prot[k] != nil {
				t.Errorf("stage %d passes everything, yet protects", k)
			}
			continue
		}
		for q := 0; q+1 < len(pr.Offsets); q++ {
			var alive []int
			for i := pr.Offsets[q]; i < pr.Offsets[q+1]; i++ {
				if res.Exit[i] >= k {
					alive = append(alive, i)
				}
			}
			slices.SortStableFunc(alive, func(a, b int) int {
				switch {
				case scores[k][a] > scores[k][b]:
					return -1
				case scores[k][a] < scores[k][b]:
					return 1
				}
				return 0
			})
			want := map[int]bool{}
			for r, i := range alive {
				if r < 5 {
					want[i] = true
				}
			}
			for i := pr.Offsets[q]; i < pr.Offsets[q+1]; i++ {
				if prot[k][i] != want[i] {
					t.Fatalf("stage %d, query %d, document %d: protected %v, want %v", k, q, i, prot[k][i], want[i])
				}
				if prot[k][i] && scores[k][i] < c.Stages[k].Theta {
					protectedSomewhere++
				}
			}
		}
	}
	if protectedSomewhere == 0 {
		t.Error("no document below a threshold was protected: the test exercises nothing")
	}
}

// With the protected documents' soft exits at 1, the soft fractions of eq
// (8) follow the hard ones, as with the global rule.
func TestSoftHardFractionsAgreeTopM(t *testing.T) {
	st := smallTopM(t)
	for k := range st.Stages {
		if d := math.Abs(st.D[k] - st.Hard[k]); d > 0.05 {
			t.Errorf("stage %d: soft %.3f, hard %.3f", k, st.D[k], st.Hard[k])
		}
	}
}

// The stage gradient with protected documents, against central
// differences (the protected sets are fixed during a stage step).
func TestStageGradientTopM(t *testing.T) {
	pr := smallProblem(t)
	st := smallTopM(t)
	checked := checkStageGradients(t, pr, st, rand.New(rand.NewPCG(2, 2)), func(k int, o *stageObjective) {
		if k < len(st.Stages)-1 && !math.IsInf(st.Stages[k].Theta, -1) && !slices.Contains(o.prot, true) {
			t.Fatalf("stage %d protects nothing", k)
		}
	})
	if checked < 2 {
		t.Fatalf("%d stages with trees", checked)
	}
}

// Training for top-m changes the cascade (the objective sees the rule);
// m = 0 is the paper's global rule, unchanged.
func TestTopMChangesTraining(t *testing.T) {
	pr := smallProblem(t)
	sc := ComputeScales(pr, 0)
	par := DefaultParams()
	par.K, par.Lambda = 5, 0.02
	global, err := Initialize(context.Background(), pr, sc, par)
	if err != nil {
		t.Fatal(err)
	}
	if global.Rule != RuleGlobal {
		t.Errorf("rule %q without TopM", global.Rule)
	}
	par.TopM = 5
	topm, err := Initialize(context.Background(), pr, sc, par)
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for k := range global.Stages[:len(global.Stages)-1] {
		same = same && global.Stages[k].Theta == topm.Stages[k].Theta
	}
	if same {
		t.Error("the thresholds do not depend on the protected documents")
	}
	// Each threshold still meets the soft (1−ε) target with the protected
	// documents counted as going on.
	for k := 1; k < len(topm.D); k++ {
		if math.IsInf(topm.Stages[k-1].Theta, -1) {
			continue
		}
		if want := (1 - par.Epsilon) * topm.D[k-1]; math.Abs(topm.D[k]-want) > 1e-6 {
			t.Errorf("stage %d: soft fraction %v, want (1−ε)·%v = %v", k, topm.D[k], topm.D[k-1], want)
		}
	}
}

// IdleFrom finds the first stage that only each query's m best reach: the
// real scorer sends no document away there or at any later stage but the
// last, and sends some away at the stage before.
func TestIdleFrom(t *testing.T) {
	pr := smallProblem(t)
	st := smallTopM(t)
	beta := st.Stages[0].Beta
	inf := math.Inf(1)
	for _, c := range []struct {
		thetas []float64 // θ_k before the last stage
		rule   string
		want   int
	}{
		{[]float64{inf, 0, 0}, RuleTopM, 1},                     // stage 1 leaves each query its m best
		{[]float64{math.Inf(-1), inf, 0, 0}, RuleTopM, 2},       // stage 1 passes everything
		{[]float64{math.Inf(-1), math.Inf(-1), 0}, RuleTopM, 3}, // some leave at stage 3: none idle
		{[]float64{inf}, RuleTopM, 1},                           // the last stage is not idle
		{[]float64{inf, 0, 0}, RuleGlobal, 3},
	} {
		casc := &Cascade{Rule: c.rule}
		if c.rule == RuleTopM {
			casc.TopM = 5
		}
		for _, th := range append(c.thetas, 0) {
			casc.Stages = append(casc.Stages, Stage{Beta: beta, Theta: th})
		}
		got, floor := pr.IdleFrom(casc)
		if got != c.want {
			t.Errorf("θ %v, %s: idle from stage %d, want %d", c.thetas, c.rule, got, c.want)
		}
		if c.rule != RuleTopM {
			continue
		}
		// The scorer's exits: none from got to the last stage, some just
		// before it (when it is not the first).
		res := Score(smallE, casc, smallTr, pr.FeatCost, pr.TreeCost)
		exits := make([]int, len(casc.Stages))
		for _, k := range res.Exit {
			exits[k]++
		}
		for k := got; k < len(casc.Stages)-1; k++ {
			if exits[k] > 0 {
				t.Errorf("θ %v, %s: %d documents leave at stage %d, idle from %d", c.thetas, c.rule, exits[k], k, got)
			}
		}
		if got > 0 && exits[got-1] == 0 {
			t.Errorf("θ %v, %s: none leaves at stage %d, before the first idle one", c.thetas, c.rule, got-1)
		}
		if got < len(casc.Stages)-1 && math.Abs(res.Reached[got]-floor) > 1e-12 {
			t.Errorf("θ %v: %v reach stage %d, floor %v", c.thetas, res.Reached[got], got, floor)
		}
	}
}

// An m at least as long as every query protects every document that
// reaches a stage, as the scorer does, and a huge m does not try to
// allocate m-long lists (--top-m 2^63-1 panicked in makeslice; 10^8 took
// 27 s on 273 documents).
func TestTopMLongerThanQueries(t *testing.T) {
	st := smallTopM(t)
	pr := smallProblem(t)
	scores := pr.stageScores(st)
	for _, m := range []int{math.MaxInt, 1 << 30} {
		c := st.Cascade
		c.TopM = m
		prot := pr.protectedSets(&c, scores)
		res := Score(smallE, &c, smallTr, pr.FeatCost, pr.TreeCost)
		hard := pr.HardFractions(&c)
		for k := range len(c.Stages) - 1 {
			if prot[k] == nil {
				continue
			}
			for i, p := range prot[k] {
				if reaches := res.Exit[i] >= k; p != reaches {
					t.Fatalf("m %d, stage %d, document %d: protected %v, reaches the stage %v", m, k, i, p, reaches)
				}
			}
		}
		// nothing exits: every document reaches every stage
		for k, h := range hard {
			if h != 1 || res.Reached[k] != 1 {
				t.Errorf("m %d, stage %d: hard fraction %v, scorer's %v; want 1", m, k, h, res.Reached[k])
			}
		}
	}
}
