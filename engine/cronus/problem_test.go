package cronus

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// The targets and instance weights of the binary (paper) and graded set-ups,
// worked by hand for labels 0..4 at threshold 2.
func TestProblemTargets(t *testing.T) {
	d := fiveDocs()
	e := &tree.Ensemble{NumFeatures: 1, Trees: []tree.Tree{{
		Nodes:  []tree.Node{{Feature: 0, Threshold: 2.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
		Leaves: []float64{-1, 1},
	}}}
	tg := Targets{Relevant: 2, PosWeight: 3.5, NegWeight: 1, NegMultiply: 10}
	for _, c := range []struct {
		graded bool
		y      []float64
	}{
		{false, []float64{-1, -1, 1, 1, 1}},
		{true, []float64{-1, -1, 1, 3, 7}},
	} {
		tg.Graded = c.graded
		pr, err := NewProblem(e, d, []float64{1}, 1, tg)
		if err != nil {
			t.Fatal(err)
		}
		wantW := []float64{10, 10, 3.5, 3.5, 3.5}
		for i := range c.y {
			if pr.Y[i] != c.y[i] || pr.Omega[i] != wantW[i] {
				t.Errorf("graded %v, doc %d (label %g): y %g ω %g, want %g and %g", c.graded, i, d.Labels[i], pr.Y[i], pr.Omega[i], c.y[i], wantW[i])
			}
		}
	}
	// Three positives of five (label >= 2) are too many for binary targets;
	// graded targets, or one of five (label >= 4), are not flagged.
	for _, c := range []struct {
		relevant  float64
		graded    bool
		positives int
		advice    string
	}{
		{2, false, 3, "60% of the training documents are positives (label >= 2)"},
		{2, true, 3, ""},
		{4, false, 1, ""},
	} {
		tg.Relevant, tg.Graded = c.relevant, c.graded
		pr, err := NewProblem(e, d, []float64{1}, 1, tg)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Positives != c.positives || !strings.HasPrefix(pr.Advice, c.advice) || (c.advice == "") != (pr.Advice == "") {
			t.Errorf("label >= %g, graded %v: %d positives, advice %q", c.relevant, c.graded, pr.Positives, pr.Advice)
		}
	}
	// A threshold above every label names the file and the largest label,
	// and is ErrNoPositives, so that the caller can name its own setting.
	tg.Relevant, d.Name = 5, "five.txt"
	_, err := NewProblem(e, d, []float64{1}, 1, tg)
	if want := d.Name + ": no training document has a label >= 5 (the largest is 4)"; err == nil || !errors.Is(err, ErrNoPositives) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("threshold above every label: %v; want ErrNoPositives, %q", err, want)
	}
}

// Labels are float32, and the threshold is read as they are: the label 0.7
// is a positive at Relevant 0.7 (float32(0.7) is below the float64 0.7),
// with the graded target of a label at the threshold, 1.
func TestTargetsFloat32Threshold(t *testing.T) {
	labels := []float32{0.7, 0.9, 0.6, 0}
	for _, c := range []struct {
		relevant  float64
		positives int
	}{{0.7, 2}, {0.9, 1}, {0.6, 3}} {
		if n := CountPositives(labels, Targets{Relevant: c.relevant}); n != c.positives {
			t.Errorf("label >= %g: %d positives of %v, want %d", c.relevant, n, labels, c.positives)
		}
	}
	d := fiveDocs()
	d.Labels = []float32{0, 0, 0.7, 0.7, 0.9}
	e := &tree.Ensemble{NumFeatures: 1, Trees: []tree.Tree{{Nodes: []tree.Node{{Feature: 0, Threshold: 2.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}}, Leaves: []float64{-1, 1}}}}
	pr, err := NewProblem(e, d, []float64{1}, 1, Targets{Relevant: 0.7, PosWeight: 1, NegWeight: 1, NegMultiply: 1, Graded: true})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Positives != 3 || pr.Y[2] != 1 {
		t.Errorf("graded, label >= 0.7: %d positives, target of label 0.7 %.17g; want 3 and 1", pr.Positives, pr.Y[2])
	}
}

// The advice's boundary: a third of the documents positive is accepted,
// more is not.
func TestTargetsAdvice(t *testing.T) {
	tg := DefaultTargets()
	if a := TargetsAdvice(100.0/300, tg); a != "" {
		t.Errorf("a third positive: %q", a)
	}
	if a := TargetsAdvice(101.0/300, tg); !strings.HasPrefix(a, "34% of the training documents are positives (label >= 1)") {
		t.Errorf("101 of 300 positive: %q", a)
	}
	if a := TargetsAdvice(0, tg); a != "" {
		t.Errorf("no positives: %q", a)
	}
}

// Distilled targets, worked by hand: the stump scores the five documents
// −1, −1, −1, 1, 1 (mean −0.2, standard deviation √0.96), so the targets
// are −0.8/√0.96 and 1.2/√0.96; the labels still set ω. An ensemble that
// scores every document alike has nothing to distil, and graded targets
// exclude distilled ones.
func TestProblemDistilTargets(t *testing.T) {
	d := fiveDocs()
	stump := func(l, r float64) *tree.Ensemble {
		return &tree.Ensemble{NumFeatures: 1, Trees: []tree.Tree{{
			Nodes:  []tree.Node{{Feature: 0, Threshold: 2.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
			Leaves: []float64{l, r},
		}}}
	}
	tg := Targets{Relevant: 2, PosWeight: 3.5, NegWeight: 1, NegMultiply: 10, Distil: true}
	pr, err := NewProblem(stump(-1, 1), d, []float64{1}, 1, tg)
	if err != nil {
		t.Fatal(err)
	}
	sd := math.Sqrt(0.96)
	wantY := []float64{-0.8 / sd, -0.8 / sd, -0.8 / sd, 1.2 / sd, 1.2 / sd}
	wantW := []float64{10, 10, 3.5, 3.5, 3.5}
	for i := range wantY {
		if math.Abs(pr.Y[i]-wantY[i]) > 1e-12 || pr.Omega[i] != wantW[i] {
			t.Errorf("doc %d: y %g ω %g, want %g and %g", i, pr.Y[i], pr.Omega[i], wantY[i], wantW[i])
		}
	}
	if pr.Advice != "" {
		t.Errorf("distilled targets with 3 positives of 5: advice %q, want none (the targets are not constant among positives)", pr.Advice)
	}
	// The error names the training data, as the other targets' errors
	// do: cascade --distil said only "the ensemble gives every training
	// document the same score" (a helper's review of degenerate data).
	d.Name = "five.txt"
	if _, err := NewProblem(stump(0.5, 0.5), d, []float64{1}, 1, tg); err == nil || !strings.HasPrefix(err.Error(), "five.txt: ") || !strings.Contains(err.Error(), "same score") {
		t.Errorf("a constant ensemble: %v, want an error naming five.txt", err)
	}
	tg.Graded = true
	if _, err := NewProblem(stump(-1, 1), d, []float64{1}, 1, tg); err == nil || !strings.Contains(err.Error(), "exclude") {
		t.Errorf("graded and distilled targets: %v, want an error", err)
	}
}

// fiveDocs is one query of five documents, labels 0..4, whose one feature
// equals the label.
func fiveDocs() *data.Dataset {
	return &data.Dataset{
		Cols:         [][]float32{{0, 1, 2, 3, 4}},
		Labels:       []float32{0, 1, 2, 3, 4},
		QueryIDs:     []int64{1},
		QueryOffsets: []int{0, 5},
		HasQID:       true,
	}
}

// Graded targets 2^(label − r + 1) − 1 are fitted by squared loss: a label
// whose target's square overflows (label 600 at r = 1) would make eq (8)
// +Inf and the weights NaN, so it is refused, naming the data, the query
// and the label; binary targets of the same labels are fine.
func TestProblemGradedTargetTooLarge(t *testing.T) {
	d := fiveDocs()
	d.Name = "train.txt"
	d.Labels = []float32{0, 1, 2, 600, 4}
	e := &tree.Ensemble{NumFeatures: 1, Trees: []tree.Tree{{
		Nodes:  []tree.Node{{Feature: 0, Threshold: 2.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
		Leaves: []float64{-1, 1},
	}}}
	tg := DefaultTargets()
	if _, err := NewProblem(e, d, []float64{1}, 1, tg); err != nil {
		t.Fatalf("binary targets: %v", err)
	}
	tg.Graded = true
	_, err := NewProblem(e, d, []float64{1}, 1, tg)
	if err == nil || !strings.Contains(err.Error(), "train.txt: qid 1, document 4: label 600") {
		t.Fatalf("graded target of label 600: err %v", err)
	}
	d.Labels[3] = 100 // 2^100: large, but its square is finite
	if _, err := NewProblem(e, d, []float64{1}, 1, tg); err != nil {
		t.Errorf("graded target of label 100: %v", err)
	}
	// Square finite, but the weighted sum of squares past what the
	// optimiser can square and sum again: 509 grades up panicked in Gram
	// (a NaN weight) instead of being refused.
	d.Labels[3] = 509
	if _, err := NewProblem(e, d, []float64{1}, 1, tg); err == nil || !strings.Contains(err.Error(), "train.txt: the weighted squared targets sum to") {
		t.Errorf("graded target of label 509: err %v", err)
	}
}

// Base trees are named from one level deeper than ShallowDepth on.
func TestDepthAdvice(t *testing.T) {
	for _, c := range []struct {
		depth       int
		short, long string
	}{
		{0, "", ""},
		{2, "", ""},
		{3, "depth-3 base trees", "depth-3 base trees: depth 2 cascades far better"},
		{12, "depth-12 base trees", "depth-12 base trees: depth 2 cascades far better"},
	} {
		if short, long := DepthAdvice(c.depth); short != c.short || long != c.long {
			t.Errorf("depth %d: %q, %q; want %q, %q", c.depth, short, long, c.short, c.long)
		}
	}
}

// A tree whose output is the same on every training document — a one-leaf
// tree, or one that splits only where no training document goes — is a
// multiple of the intercept, which is free: it can only add its cost and
// ρ. Coordinate descent shrank such a tree by (ρ + λ d e_t)/G_tt a sweep
// while the intercept took each step back, so at 500 sweeps a single stage
// of the 40 MQ2008 trees with two one-leaf trees added (λ 0.01, ρ 0)
// still used both, and every document paid for them. They are held at
// zero (Problem.Flat), in every stage and in warm runs' re-entry.
func TestFlatTreesStayOut(t *testing.T) {
	smallProblem(t) // smallE, smallTr
	e := &tree.Ensemble{NumFeatures: smallE.NumFeatures, Base: smallE.Base}
	e.Trees = append(e.Trees, tree.Tree{Leaves: []float64{0.3}})
	e.Trees = append(e.Trees, smallE.Trees[:20]...)
	e.Trees = append(e.Trees, tree.Tree{Leaves: []float64{-0.2}})
	// Splits above every training value of feature 1: flat on the
	// training data, though its leaves differ.
	e.Trees = append(e.Trees, tree.Tree{
		Nodes:  []tree.Node{{Feature: 0, Threshold: 1e30, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
		Leaves: []float64{0.1, 0.5},
	})
	e.Trees = append(e.Trees, smallE.Trees[20:]...)
	flat := []int{0, 21, 22}
	costs, err := data.LoadCosts("builtin:mq2008/costs", 46)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewProblem(e, smallTr, costs.Cost, 1, DefaultTargets())
	if err != nil {
		t.Fatal(err)
	}
	for tt := range e.Trees {
		if want := slices.Contains(flat, tt); pr.isFlat(tt) != want {
			t.Errorf("tree %d: flat %v, want %v", tt, pr.isFlat(tt), want)
		}
	}
	for _, c := range []struct{ K, topM int }{{1, 0}, {4, 0}, {4, 5}} {
		par := DefaultParams()
		par.K, par.TopM, par.Lambda, par.Rho1, par.RhoK = c.K, c.topM, 0.01, 0, 0
		sc := ComputeScales(pr, 0)
		if math.IsInf(sc.LambdaMax, 0) || !(sc.LambdaMax > 0) {
			t.Fatalf("λ_max %v", sc.LambdaMax)
		}
		out, err := Optimize(context.Background(), pr, sc, par, Options{MaxCycles: 1, Reenter: true}, trainEvaluator(pr), nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, st := range map[string]*State{"initialisation": out.Init, "final": out.Final} {
			for k, stg := range st.Stages {
				for _, tt := range flat {
					if stg.Beta[tt] != 0 {
						t.Errorf("K %d, top-m %d, %s: stage %d gives the flat tree %d the weight %g", c.K, c.topM, name, k+1, tt, stg.Beta[tt])
					}
				}
			}
		}
	}
}

// flatLeafProblem is smallProblem's trees and data with a one-leaf tree
// (output 0.25) added last, which it returns.
func flatLeafProblem(t *testing.T) (*Problem, int) {
	t.Helper()
	smallProblem(t) // smallE, smallTr
	e := &tree.Ensemble{NumFeatures: smallE.NumFeatures, Base: smallE.Base}
	e.Trees = append(append(e.Trees, smallE.Trees...), tree.Tree{Leaves: []float64{0.25}})
	costs, err := data.LoadCosts("builtin:mq2008/costs", 46)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewProblem(e, smallTr, costs.Cost, 1, DefaultTargets())
	if err != nil {
		t.Fatal(err)
	}
	return pr, len(e.Trees) - 1
}

// A warm start may give a flat tree a weight (a cascade written before
// they were held at zero): the stage's step folds it into the intercept,
// which scores every training document the same at no cost, so the
// training scores stay and eq (8) falls by the tree's cost. Before, the
// steps kept the weight.
func TestFlatTreesFoldIntoIntercept(t *testing.T) {
	pr, flat := flatLeafProblem(t)
	sc := ComputeScales(pr, 0)
	par := DefaultParams()
	par.K, par.TopM = 3, 5
	st, err := Initialize(context.Background(), pr, sc, par)
	if err != nil {
		t.Fatal(err)
	}
	warm := st.Cascade
	for k := range warm.Stages {
		warm.Stages[k].Beta[flat] = 0.1 * float64(k+1)
	}
	out, err := Optimize(context.Background(), pr, sc, par, Options{MaxCycles: 1, Warm: &warm, WarmSigma: st.Sigma}, trainEvaluator(pr), nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, stg := range out.Final.Stages {
		if stg.Beta[flat] != 0 {
			t.Errorf("stage %d keeps the flat tree's weight %g", k+1, stg.Beta[flat])
		}
	}
	if !(out.Final.Terms.Total < out.Init.Terms.Total) {
		t.Errorf("eq (8) %g after a cycle from %g", out.Final.Terms.Total, out.Init.Terms.Total)
	}
}

// uncorrelatedDocs is 30 queries of 6 documents whose one feature is the
// document's place i in its query and whose label is (q+i)%3, or i/2 when
// follow: without follow every value of the feature has labels 0, 1 and 2
// ten times each over the queries, so any function of the feature is
// exactly uncorrelated with the targets.
func uncorrelatedDocs(follow bool) *data.Dataset {
	ds := &data.Dataset{Cols: [][]float32{nil}, HasQID: true, QueryOffsets: []int{0}}
	for q := 1; q <= 30; q++ {
		for i := range 6 {
			label := (q + i) % 3
			if follow {
				label = i / 2
			}
			ds.Cols[0] = append(ds.Cols[0], float32(i))
			ds.Labels = append(ds.Labels, float32(label))
		}
		ds.QueryIDs = append(ds.QueryIDs, int64(q))
		ds.QueryOffsets = append(ds.QueryOffsets, len(ds.Labels))
	}
	return ds
}

// Where the targets are exactly uncorrelated with every tree's output,
// each tree's gradient at the intercept-only fit, Σ ω h_t (y − ȳ), is 0
// and so is λ_max; the Gram product's rounding left it at about 10⁻¹⁷
// (relative 10⁻¹⁶) on amd64 and at exactly 0 on 386, so that on amd64
// λ_max was above 0 and a cascade at 0.01 λ_max, ρ 0, kept trees fitted
// to rounding. A gradient within the bound on its rounding error counts
// as 0, in λ_max, ρ_max, the free trees and the stage solver.
func TestUncorrelatedTreesLambdaMaxZero(t *testing.T) {
	e := &tree.Ensemble{NumFeatures: 1}
	leaves := [][]float64{{0.1, -0.37}, {0.23, 0.7}, {-0.31, 0.013}, {0.57, -0.11}, {0.3, 0.9}}
	for k, l := range leaves {
		e.Trees = append(e.Trees, tree.Tree{
			Nodes:  []tree.Node{{Feature: 0, Threshold: float32(k) + 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
			Leaves: l,
		})
	}
	for _, follow := range []bool{false, true} {
		pr, err := NewProblem(e, uncorrelatedDocs(follow), []float64{1}, 1, DefaultTargets())
		if err != nil {
			t.Fatal(err)
		}
		sc := ComputeScales(pr, 0)
		if follow {
			// The targets follow the feature: the tolerance keeps them.
			if !(sc.LambdaMax > 0) || !(sc.RhoMax > 0) {
				t.Fatalf("labels i/2: λ_max %v, ρ_max %v", sc.LambdaMax, sc.RhoMax)
			}
			continue
		}
		if sc.LambdaMax != 0 || sc.RhoMax != 0 || sc.FreeTrees != 0 {
			t.Fatalf("labels (q+i)%%3: scales %+v, want all 0", sc)
		}
		par := DefaultParams()
		par.K, par.Lambda, par.Rho1, par.RhoK = 2, 0.01, 0, 0
		st, err := Initialize(context.Background(), pr, sc, par)
		if err != nil {
			t.Fatal(err)
		}
		for k, s := range st.Stages {
			if slices.ContainsFunc(s.Beta[:len(e.Trees)], func(b float64) bool { return b != 0 }) {
				t.Errorf("stage %d keeps trees: %v", k+1, s.Beta)
			}
		}
	}
}
