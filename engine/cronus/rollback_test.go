package cronus

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
)

// The guarded steps of a stage's step (foldFlat, fitEmptyLast, enterTrees,
// pruneStage's emptyTrial, pruneTrees, optimizeStage's L-BFGS) each roll
// back when they would raise eq (8). The tests here drive those rollbacks
// on States made by hand and check that the State is then exactly as
// before the step (weights and θ bit for bit, d_k, Terms) and consistent:
// eq (8) recomputed from scratch, on a copy without cached scores, is the
// Terms the State reports, and every cached score is the stage's scores.

// stateSnap is what a rolled-back step must leave as it found it.
type stateSnap struct {
	beta  [][]float64
	theta []float64
	d     []float64
	terms Terms
}

func snapState(st *State) stateSnap {
	s := stateSnap{d: slices.Clone(st.D), terms: st.Terms}
	for _, stg := range st.Stages {
		s.beta = append(s.beta, slices.Clone(stg.Beta))
		s.theta = append(s.theta, stg.Theta)
	}
	return s
}

func sameTerms(a, b Terms) bool {
	return sameBits([]float64{a.Loss, a.Reg, a.TreeCost, a.FeatCost, a.Total}, []float64{b.Loss, b.Reg, b.TreeCost, b.FeatCost, b.Total})
}

// checkRestored fails the test unless st is bit for bit as snapped in want.
func checkRestored(t *testing.T, what string, st *State, want stateSnap) {
	t.Helper()
	got := snapState(st)
	for k := range want.beta {
		if !sameBits(got.beta[k], want.beta[k]) {
			t.Errorf("%s: stage %d's weights changed", what, k)
		}
		if !sameBits(got.theta[k:k+1], want.theta[k:k+1]) {
			t.Errorf("%s: stage %d's θ %v, was %v", what, k, got.theta[k], want.theta[k])
		}
	}
	if !sameBits(got.d, want.d) {
		t.Errorf("%s: d_k %v, was %v", what, got.d, want.d)
	}
	if !sameTerms(got.terms, want.terms) {
		t.Errorf("%s: Terms %+v, was %+v", what, got.terms, want.terms)
	}
}

// checkConsistent fails the test unless st's Terms and d_k are eq (8) and
// the reach fractions of its weights, computed afresh on a copy without
// cached scores, bit for bit, and every score st has cached is its
// stage's scores.
func checkConsistent(t *testing.T, what string, pr *Problem, st *State) {
	t.Helper()
	fresh := st.clone() // no cached scores
	want := pr.Objective(fresh)
	if !sameTerms(st.Terms, want) {
		t.Errorf("%s: Terms %+v, eq (8) at the weights is %+v", what, st.Terms, want)
	}
	if !sameBits(st.D, fresh.D) {
		t.Errorf("%s: d_k %v, at the weights %v", what, st.D, fresh.D)
	}
	for k, s := range st.scores {
		if s != nil && !sameBits(s, pr.Train.Scores(nil, st.Stages[k].Beta)) {
			t.Errorf("%s: the cached scores of stage %d are not its weights' scores", what, k)
		}
	}
}

// checkRolledBack is checkRestored and checkConsistent.
func checkRolledBack(t *testing.T, what string, pr *Problem, st *State, want stateSnap) {
	t.Helper()
	checkRestored(t, what, st, want)
	checkConsistent(t, what, pr, st)
}

// rollsBack runs step on st and checks that it leaves st as it was
// (checkRolledBack).
func rollsBack(t *testing.T, what string, pr *Problem, st *State, step func()) {
	t.Helper()
	want := snapState(st)
	step()
	checkRolledBack(t, what, pr, st, want)
}

// rollbackState is Algorithm 2 on pr with K stages, λ 0.05 and top-m topM
// (0: RuleGlobal).
func rollbackState(t *testing.T, pr *Problem, K, topM int) *State {
	t.Helper()
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = K, 0.05, topM
	return initSmall(t, pr, par)
}

// freeTree returns the first tree no stage of st uses, failing the test if
// there is none.
func freeTree(t *testing.T, pr *Problem, st *State) int {
	t.Helper()
	for tr := 0; tr < pr.Train.NumTrees(); tr++ {
		if !slices.ContainsFunc(st.Stages, func(s Stage) bool { return s.Beta[tr] != 0 }) {
			return tr
		}
	}
	t.Fatal("every tree is in some stage; the test needs a free one")
	return -1
}

// lossSign returns the sign of a weight of tree tr in stage k that lowers
// eq (8)'s loss at st.
func lossSign(pr *Problem, st *State, k, tr int) float64 {
	with := func(b float64) float64 {
		s := st.clone()
		s.Stages[k].Beta[tr] = b
		return pr.Objective(s).Loss
	}
	if with(1e-4) > with(-1e-4) {
		return -1
	}
	return 1
}

// objectiveOf returns eq (8) of a copy of st after change, from scratch.
func objectiveOf(pr *Problem, st *State, change func(s *State)) float64 {
	s := st.clone()
	change(s)
	return pr.Objective(s).Total
}

// withoutCosts sets λ and every ρ_k of st to 0 and brings its Terms up to
// date: eq (8) is then the loss alone, and a weight of the sign that lowers
// the loss cannot be removed without raising eq (8).
func withoutCosts(pr *Problem, st *State) {
	st.Lambda = 0
	clear(st.Rho)
	pr.Objective(st)
}

// pruneTrees tries a tree negligible in two stages (1e-3 beside weights of
// 0.1 and more) in both at once; with no costs, and the weights of the
// sign that lowers the loss, the removal raises eq (8), so nothing
// changes: the trial's reach fractions, which objectiveWith left in st.D,
// are put back, and the State is as before. Under both exit rules.
func TestRollbackPruneTreesNoChange(t *testing.T) {
	pr := smallProblem(t)
	for _, topM := range []int{0, 5} {
		st := rollbackState(t, pr, 4, topM)
		withoutCosts(pr, st)
		tr := freeTree(t, pr, st)
		for _, k := range []int{1, 2} {
			st.Stages[k].Beta[tr] = 1e-3 * lossSign(pr, st, k, tr)
			if big := slices.Max(st.Stages[k].Beta[:len(st.Stages[k].Beta)-1]); !(big >= 0.1) {
				t.Fatalf("top-m %d: stage %d's largest weight %v; the test needs 0.1 or more", topM, k, big)
			}
		}
		st.scores = nil
		pr.Objective(st)
		before := st.Terms.Total
		if without := objectiveOf(pr, st, func(s *State) { s.Stages[1].Beta[tr], s.Stages[2].Beta[tr] = 0, 0 }); !(without > before) {
			t.Fatalf("top-m %d: eq (8) %v without tree %d, %v with: the test needs the removal to raise it", topM, without, tr, before)
		}
		rollsBack(t, fmt.Sprintf("top-m %d", topM), pr, st, func() { pruneTrees(context.Background(), pr, st, 1) })
	}
}

// With σ_k = 0 the soft exit of stage k is the hard step: eq (8) is finite
// (no score sits on θ), but its gradient along θ, I(1−I)/σ_k, is 0/0. L-BFGS
// then stops at its starting point with an error (gonum: a starting
// location whose gradient is not finite) and no location better than +Inf;
// the step gives up, and leaves the stage as it was.
func TestRollbackLBFGSError(t *testing.T) {
	pr := smallProblem(t)
	for _, topM := range []int{0, 5} {
		st := rollbackState(t, pr, 4, topM)
		const k = 1
		if len(st.Stages[k].Active()) == 0 {
			t.Fatalf("top-m %d: stage %d has no trees; the test needs some", topM, k)
		}
		st.Sigma[k] = 0
		pr.Objective(st)
		if tot := st.Terms.Total; math.IsNaN(tot) || math.IsInf(tot, 0) {
			t.Fatalf("top-m %d: eq (8) %v with σ_%d = 0; the test needs it finite", topM, tot, k)
		}
		o := newStageObjective(pr, st, k)
		x := o.x()
		g := make([]float64, len(x))
		o.eval(x, g)
		if !slices.ContainsFunc(g, math.IsNaN) {
			t.Fatalf("top-m %d: the stage objective's gradient %v is a number; the test needs L-BFGS to fail", topM, g)
		}
		rollsBack(t, fmt.Sprintf("top-m %d", topM), pr, st, func() {
			if err := optimizeStage(context.Background(), pr, st, k, 3, 20, 1e-6, false); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// pruneStage tries no weight of a stage of one tree alone (the trials take
// weights under 1e-2 of the stage's largest), so emptyTrial makes its own
// stage objective, and tries the tree when it is under 1e-2 of the other
// stages' largest weight. A weight of 1e-12, in a stage that passes
// everything, goes (its costs are more than the loss it saves); a weight of
// 1e-3 of the sign that lowers the loss, in a stage that sends documents
// away by it, stays when there are no costs, and the stage is as it was.
func TestRollbackEmptyTrialOwnObjective(t *testing.T) {
	pr := smallProblem(t)
	for _, topM := range []int{0, 5} {
		for _, w := range []float64{1e-12, 1e-3} {
			st := rollbackState(t, pr, 4, topM)
			const k = 1
			tr := freeTree(t, pr, st)
			if w == 1e-3 {
				withoutCosts(pr, st)
			}
			b := st.Stages[k].Beta
			clear(b[:len(b)-1])
			b[tr] = w * lossSign(pr, st, k, tr)
			if w == 1e-12 {
				// It passes everything, whatever its scores: under RuleTopM
				// the emptied stage would otherwise keep each query's first
				// m, which can cost more than the tree.
				st.Stages[k].Theta = b[len(b)-1] - 1e3*st.Sigma[k]
			}
			if big := slices.Max(st.Stages[2].Beta[:len(b)-1]); !(w < 1e-2*big) {
				t.Fatalf("top-m %d: stage 2's largest weight %v; the test needs one over 100 × %v", topM, big, w)
			}
			st.scores = nil
			pr.Objective(st)
			before := st.Terms.Total
			without := objectiveOf(pr, st, func(s *State) { s.Stages[k].Beta[tr] = 0 })
			name := fmt.Sprintf("top-m %d, weight %g", topM, w)
			want := snapState(st)
			pruneStage(context.Background(), pr, st, k)
			checkConsistent(t, name, pr, st)
			if w == 1e-3 {
				if !(without > before) {
					t.Fatalf("%s: eq (8) %v without the tree, %v with: the test needs the removal to raise it", name, without, before)
				}
				checkRestored(t, name, st, want)
				continue
			}
			if !(without <= before) {
				t.Fatalf("%s: eq (8) %v without the tree, %v with: the test needs the removal not to raise it", name, without, before)
			}
			if n := len(st.Stages[k].Active()); n != 0 || st.Terms.Total != without {
				t.Errorf("%s: %d trees left, eq (8) %v; want none, and eq (8) %v", name, n, st.Terms.Total, without)
			}
		}
	}
}

// enterTrees skips a candidate whose curvature Σ ω_i p_i h_i² is not
// positive. On documents that reach stage k with the probability of a
// denormal (two earlier stages without trees whose θ is far above their
// intercept), every term of the curvature underflows to 0, while the
// slope Σ h_i ω_i p_i (s_i − y_i), with stage k's scores 1e12 away from
// the targets, does not; with no costs every tree at zero is a candidate.
// None can enter, and the stage is as it was. Under RuleGlobal only: the
// top-m rule passes each query's m best documents for sure.
func TestRollbackEnterTreesNoCurvature(t *testing.T) {
	pr := smallProblem(t)
	for _, topM := range []int{0} {
		st := rollbackState(t, pr, 3, topM)
		withoutCosts(pr, st)
		const k = 2
		for j, gap := range []float64{690, 53.6} { // pass probabilities near 1e-300 and 5e-24
			b := st.Stages[j].Beta
			clear(b[:len(b)-1])
			st.Sigma[j] = 1
			st.Stages[j].Theta = b[len(b)-1] + gap
		}
		last := st.Stages[k].Beta
		last[len(last)-1] += 1e12
		st.scores = nil
		pr.Objective(st)
		o, cands := entryViolations(pr, st, k)
		if len(cands) == 0 {
			t.Fatalf("top-m %d: no tree is a candidate to enter; the test needs some", topM)
		}
		for _, c := range cands {
			curv := 0.0
			for i, h := range pr.Train.Col(c.t, nil) {
				curv += pr.Omega[i] * o.p[i] * float64(h) * float64(h)
			}
			if curv != 0 {
				t.Fatalf("top-m %d: tree %d: curvature %v; the test needs 0 (p_i up to %v)", topM, c.t, curv, slices.Max(o.p))
			}
		}
		rollsBack(t, fmt.Sprintf("top-m %d", topM), pr, st, func() {
			if n := enterTrees(pr, st, k); n != 0 {
				t.Errorf("top-m %d: %d trees entered", topM, n)
			}
		})
	}
}

// pruneStage on a stage without trees (optimizeStage never prunes one, but
// nothing stops a caller) tries nothing: emptyTrial has no trees to take,
// and the State is as it was.
func TestRollbackPruneEmptyStage(t *testing.T) {
	pr := smallProblem(t)
	for _, topM := range []int{0, 5} {
		st := rollbackState(t, pr, 4, topM)
		const k = 1
		b := st.Stages[k].Beta
		clear(b[:len(b)-1])
		st.scores = nil
		pr.Objective(st)
		rollsBack(t, fmt.Sprintf("top-m %d", topM), pr, st, func() { pruneStage(context.Background(), pr, st, k) })
	}
}

// fitEmptyLast's intercept minimises eq (8) exactly, so near it eq (8)
// moves by rounding alone: from an intercept a few ulps off, eq (8) at the
// fitted one comes out higher now and then (under RuleTopM here), and the
// fit is then undone. Whether it rises is decided here from scratch, on
// copies.
func TestRollbackFitEmptyLast(t *testing.T) {
	pr := smallProblem(t)
	undone := 0
	for _, topM := range []int{0, 5} {
		st := rollbackState(t, pr, 4, topM)
		const k = 3
		b := st.Stages[k].Beta
		T := len(b) - 1
		clear(b[:T])
		st.scores = nil
		pr.Objective(st)
		fit := st.clone()
		fitEmptyLast(pr, fit, k)
		bstar := fit.Stages[k].Beta[T]
		// Intercepts 1, −1, 2, −2, … ulps off, up to 64 (where eq (8)
		// rises depends on the rounding: with fused multiply-adds, on
		// arm64, none within 8 did), until both ways have been seen.
		kept, undoneHere := 0, 0
		for i := 2; i <= 129 && (kept == 0 || undoneHere == 0); i++ {
			ulps := i / 2
			if i%2 == 1 {
				ulps = -ulps
			}
			old := math.Float64frombits(uint64(int64(math.Float64bits(bstar)) + int64(ulps)))
			b[T] = old
			st.scores = nil
			pr.Objective(st)
			name := fmt.Sprintf("top-m %d, intercept %d ulps off", topM, ulps)
			if objectiveOf(pr, st, func(s *State) { s.Stages[k].Beta[T] = bstar }) > st.Terms.Total {
				undone++
				undoneHere++
				rollsBack(t, name, pr, st, func() { fitEmptyLast(pr, st, k) })
				continue
			}
			kept++
			fitEmptyLast(pr, st, k)
			if b[T] != bstar {
				t.Errorf("%s: intercept %v, want %v", name, b[T], bstar)
			}
			checkConsistent(t, name, pr, st)
		}
	}
	if undone == 0 {
		t.Errorf("eq (8) never rose at the fitted intercept; the test shows no rollback")
	}
}

// foldFlat moves a flat tree's weight into the intercept: the training
// scores stay but for rounding, and with no costs eq (8) moves by that
// rounding alone. For a weight of 10⁴ (offset in the intercept), the fold
// raises eq (8) for some weights and is then undone; whether it rises is
// decided here from scratch, on copies.
func TestRollbackFoldFlat(t *testing.T) {
	pr, flat := flatLeafProblem(t)
	if !pr.isFlat(flat) {
		t.Fatal("the one-leaf tree is not flat")
	}
	undone := 0
	for _, topM := range []int{0, 5} {
		init := rollbackState(t, pr, 3, topM)
		withoutCosts(pr, init)
		const k = 1
		for i := range 16 {
			st := init.clone()
			b := st.Stages[k].Beta
			T := len(b) - 1
			w := 1e4 * (1 + float64(i)/16)
			b[flat] = w
			b[T] -= w * 0.25
			pr.Objective(st)
			name := fmt.Sprintf("top-m %d, weight %v", topM, w)
			folded := func(s *State) {
				s.Stages[k].Beta[T] += w * float64(float32(0.25))
				s.Stages[k].Beta[flat] = 0
			}
			if objectiveOf(pr, st, folded) > st.Terms.Total {
				undone++
				rollsBack(t, name, pr, st, func() { foldFlat(pr, st, k) })
				continue
			}
			want := st.clone()
			folded(want)
			foldFlat(pr, st, k)
			if !sameBits(b, want.Stages[k].Beta) {
				t.Errorf("%s: the weights are not folded", name)
			}
			checkConsistent(t, name, pr, st)
		}
	}
	if undone == 0 {
		t.Error("eq (8) never rose with the fold; the test shows no rollback")
	}
}

// Under RuleTopM pruneTrees' trials hold the protected documents fixed; a
// removal they accept can raise eq (8) once those are recomputed, and the
// weights of every stage it touched are then put back. Here a tree at zero
// is given a weight of ±1e-3 in stages 1 and 2, for each such tree; for
// each, the test decides from scratch, on copies, whether the trial
// accepts the removal (eq (8) with the old protected documents) and
// whether eq (8) then rises, and checks what pruneTrees leaves.
func TestRollbackPruneTreesAfterChange(t *testing.T) {
	pr := smallProblem(t)
	init := rollbackState(t, pr, 4, 5)
	undone := 0
	for tr := range pr.Train.NumTrees() {
		for _, w := range []float64{1e-3, -1e-3} {
			st := init.clone()
			if st.Stages[1].Beta[tr] != 0 || st.Stages[2].Beta[tr] != 0 {
				continue
			}
			st.Stages[1].Beta[tr], st.Stages[2].Beta[tr] = w, w
			pr.Objective(st)
			before := st.Terms.Total
			zero := func(s *State) { s.Stages[1].Beta[tr], s.Stages[2].Beta[tr] = 0, 0 }
			without := objectiveOf(pr, st, zero)
			trial := st.clone()
			zero(trial)
			prot := pr.protectedSets(&st.Cascade, pr.stageScores(st.clone()))
			accepted := pr.objectiveWith(trial, pr.stageScores(trial), prot).Total <= before
			name := fmt.Sprintf("tree %d, weight %g", tr, w)
			switch {
			case accepted && without > before:
				undone++
				rollsBack(t, name, pr, st, func() { pruneTrees(context.Background(), pr, st, 1) })
			case accepted:
				pruneTrees(context.Background(), pr, st, 1)
				if st.Stages[1].Beta[tr] != 0 || st.Stages[2].Beta[tr] != 0 || st.Terms.Total != without {
					t.Errorf("%s: weights %g, %g, eq (8) %v; want the tree gone, eq (8) %v", name, st.Stages[1].Beta[tr], st.Stages[2].Beta[tr], st.Terms.Total, without)
				}
				checkConsistent(t, name, pr, st)
			}
		}
	}
	if undone == 0 {
		t.Error("no removal the trials accept raised eq (8); the test shows no rollback")
	}
}
