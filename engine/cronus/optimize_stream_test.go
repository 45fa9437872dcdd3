package cronus

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// The stream tests run whole optimisations with the real evaluator on
// MQ2008 validation and test, and check every snapshot the run reports
// against figures computed here, independently of the optimiser: a
// reference scorer (refScore) that walks each tree on each document's
// features, and the features and trees read off the cascade itself.

var (
	streamOnce         sync.Once
	streamVa, streamTe *data.Dataset
	streamCosts        []float64
)

func streamData(t *testing.T) (*Problem, *data.Dataset, *data.Dataset) {
	t.Helper()
	pr := smallProblem(t)
	streamOnce.Do(func() {
		ctx := context.Background()
		var err error
		if streamVa, err = data.LoadDataset(ctx, "builtin:mq2008/vali", data.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		if streamTe, err = data.LoadDataset(ctx, "builtin:mq2008/test", data.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		c, err := data.LoadCosts("builtin:mq2008/costs", 46)
		if err != nil {
			t.Fatal(err)
		}
		streamCosts = c.Cost
	})
	if streamVa == nil || streamTe == nil {
		t.Fatal("no validation or test data")
	}
	return pr, streamVa, streamTe
}

// refResult is what the reference scorer finds for a cascade on a data set.
type refResult struct {
	key     []float64
	reached []float64
	cost    float64 // per document
	ndcg    float64 // NDCG@10 of the cascade's ranking
}

// refScore scores d with cascade c over e the slow, obvious way: document
// by document, stage by stage, each stage score the intercept plus the
// weighted float32 leaf values of the stage's trees in tree order; a
// document goes on when its score is at or above θ (always when θ = −∞;
// under the top-m rule also when it is among the query's m best at the
// stage, ties in input order); it pays for every tree of the stages it
// reached and every feature those trees split on, once each. The ranking
// puts documents that went further first, then the higher exit score,
// then input order.
func refScore(e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64) refResult {
	K, T, n := len(c.Stages), len(e.Trees), d.NumDocs()
	// costAt[k]: what a document leaving at stage k paid.
	costAt := make([]float64, K)
	trees, feats := map[int]bool{}, map[int]bool{}
	for k, stg := range c.Stages {
		for t := 0; t < T; t++ {
			if stg.Beta[t] != 0 && !trees[t] {
				trees[t] = true
				for _, f := range e.Trees[t].Features() {
					feats[f] = true
				}
			}
		}
		sum := 0.0
		for t := range trees {
			sum += treeCost[t]
		}
		for f := range feats {
			sum += featCost[f]
		}
		costAt[k] = sum
	}
	row := make([]float32, max(e.NumFeatures, len(d.Cols)))
	score := func(i, k int) float64 {
		for f := range row {
			row[f] = 0
			if f < len(d.Cols) {
				row[f] = d.Cols[f][i]
			}
		}
		beta := c.Stages[k].Beta
		s := beta[T]
		for t := 0; t < T; t++ {
			if beta[t] != 0 {
				s += float64(beta[t] * float64(float32(e.Trees[t].Predict(row))))
			}
		}
		return s
	}
	res := refResult{key: make([]float64, n), reached: make([]float64, K)}
	exit, last := make([]int, n), make([]float64, n)
	count := make([]int, K)
	totalCost := 0.0
	for q := 0; q+1 < len(d.QueryOffsets); q++ {
		lo, hi := d.QueryOffsets[q], d.QueryOffsets[q+1]
		var alive []int
		for i := lo; i < hi; i++ {
			alive = append(alive, i)
		}
		for k := 0; k < K && len(alive) > 0; k++ {
			for _, i := range alive {
				last[i], exit[i] = score(i, k), k
			}
			if k == K-1 {
				break
			}
			keep := map[int]bool{}
			if c.Rule == RuleTopM && c.TopM > 0 {
				ord := slices.Clone(alive)
				slices.SortStableFunc(ord, func(a, b int) int { return cmp.Compare(last[b], last[a]) })
				for _, i := range ord[:min(c.TopM, len(ord))] {
					keep[i] = true
				}
			}
			th := c.Stages[k].Theta
			var next []int
			for _, i := range alive {
				if keep[i] || math.IsInf(th, -1) || last[i] >= th {
					next = append(next, i)
				}
			}
			alive = next
		}
		ord := make([]int, 0, hi-lo)
		for i := lo; i < hi; i++ {
			ord = append(ord, i)
			count[exit[i]]++
			totalCost += costAt[exit[i]]
		}
		slices.SortStableFunc(ord, func(a, b int) int {
			if c := cmp.Compare(exit[b], exit[a]); c != 0 {
				return c
			}
			return cmp.Compare(last[b], last[a])
		})
		for r, i := range ord {
			res.key[i] = float64(len(ord) - 1 - r)
		}
	}
	for k := K - 1; k >= 0; k-- {
		reached := 0
		for j := k; j < K; j++ {
			reached += count[j]
		}
		res.reached[k] = float64(reached) / float64(n)
	}
	res.cost = totalCost / float64(n)
	res.ndcg = metric.Mean(metric.Spec{Name: metric.NDCG, K: 10}, res.key, d.Labels, d.QueryOffsets, metric.Options{})
	return res
}

// near says whether a and b agree to rel relative (or absolute, near 0).
func near(a, b, rel float64) bool {
	return a == b || math.Abs(a-b) <= rel*max(1, math.Abs(a), math.Abs(b))
}

// checkEval compares an Eval the optimiser reported with the reference
// scorer's figures for cascade c on d.
func checkEval(t *testing.T, what string, ev Eval, c *Cascade, d *data.Dataset, pr *Problem) {
	t.Helper()
	ref := refScore(smallE, c, d, pr.FeatCost, pr.TreeCost)
	if got := ev.Metrics["ndcg@10"]; !near(got, ref.ndcg, 1e-12) {
		t.Errorf("%s: ndcg@10 %v, the reference scorer gives %v", what, got, ref.ndcg)
	}
	if !near(ev.Cost.Total, ref.cost, 1e-9) || !near(ev.Cost.Features+ev.Cost.Trees, ev.Cost.Total, 1e-12) {
		t.Errorf("%s: cost %+v, the reference scorer gives %v per document", what, ev.Cost, ref.cost)
	}
	if !slices.Equal(ev.Reached, ref.reached) {
		t.Errorf("%s: reached %v, the reference scorer gives %v", what, ev.Reached, ref.reached)
	}
}

// wantNewFeatures is, per stage and cost group, the features of c's active
// trees first split on at that stage, read off the trees.
func wantNewFeatures(c *Cascade, groups []float64, featCost []float64) ([][]int, int) {
	seen := map[int]bool{}
	out := make([][]int, len(c.Stages))
	for k, stg := range c.Stages {
		out[k] = make([]int, len(groups))
		for t := range smallE.Trees {
			if stg.Beta[t] == 0 {
				continue
			}
			for _, f := range smallE.Trees[t].Features() {
				if !seen[f] {
					seen[f] = true
					out[k][slices.Index(groups, featCost[f])]++
				}
			}
		}
	}
	return out, len(seen)
}

// checkStages checks the stage views of cascade c, and their reach on
// validation and test against the reference scorer; with train, the reach
// on train too, and with refTrain that against the reference scorer.
func checkStages(t *testing.T, what string, views []StageView, c *Cascade, groups []float64, pr *Problem, va, te *data.Dataset, train, refTrain bool) {
	t.Helper()
	K := len(c.Stages)
	if len(views) != K {
		t.Fatalf("%s: %d stage views for %d stages", what, len(views), K)
	}
	newF, distinct := wantNewFeatures(c, groups, pr.FeatCost)
	total := 0
	refV := refScore(smallE, c, va, pr.FeatCost, pr.TreeCost).reached
	refT := refScore(smallE, c, te, pr.FeatCost, pr.TreeCost).reached
	var refTr []float64
	if refTrain {
		refTr = refScore(smallE, c, smallTr, pr.FeatCost, pr.TreeCost).reached
	}
	for k, v := range views {
		active := 0
		for _, b := range c.Stages[k].Beta[:len(smallE.Trees)] {
			if b != 0 {
				active++
			}
		}
		if v.Active != active || v.Theta != c.Stages[k].Theta && !(math.IsNaN(v.Theta) && math.IsNaN(c.Stages[k].Theta)) {
			t.Errorf("%s: stage %d view has %d active trees and θ %v; the cascade %d and %v", what, k+1, v.Active, v.Theta, active, c.Stages[k].Theta)
		}
		if !slices.Equal(v.NewFeatures, newF[k]) {
			t.Errorf("%s: stage %d new features by group %v, the trees say %v", what, k+1, v.NewFeatures, newF[k])
		}
		for _, n := range v.NewFeatures {
			total += n
		}
		fr := []float64{v.HardTrain, v.Valid, v.Test}
		if train {
			fr = append(fr, v.SoftTrain)
		}
		for _, f := range fr {
			if !(f >= 0 && f <= 1) {
				t.Errorf("%s: stage %d fraction %v outside [0, 1]", what, k+1, f)
			}
		}
		if v.Valid != refV[k] || v.Test != refT[k] {
			t.Errorf("%s: stage %d reached by %v of valid and %v of test; the reference scorer %v and %v", what, k+1, v.Valid, v.Test, refV[k], refT[k])
		}
		if refTrain && v.HardTrain != refTr[k] {
			t.Errorf("%s: stage %d reached by %v of train (hard); the reference scorer %v", what, k+1, v.HardTrain, refTr[k])
		}
		if k == 0 {
			if v.Valid != 1 || v.Test != 1 || train && (v.HardTrain != 1 || v.SoftTrain != 1) {
				t.Errorf("%s: stage 1 reached by %v (train, hard), %v (soft), %v (valid), %v (test); every document enters", what, v.HardTrain, v.SoftTrain, v.Valid, v.Test)
			}
			continue
		}
		p := views[k-1]
		if v.Valid > p.Valid || v.Test > p.Test || train && (v.HardTrain > p.HardTrain || v.SoftTrain > p.SoftTrain*(1+1e-12)) {
			t.Errorf("%s: stage %d reached by more than stage %d: %+v after %+v", what, k+1, k, v, p)
		}
		if active := views[k-1].Active; active == 0 && k-1 < K-1 {
			if !math.IsInf(p.Theta, -1) || v.Valid != p.Valid || v.Test != p.Test || train && v.HardTrain != p.HardTrain {
				t.Errorf("%s: stage %d has no trees but θ %v, and passes %v→%v (train) %v→%v (valid) %v→%v (test)", what, k, p.Theta, p.HardTrain, v.HardTrain, p.Valid, v.Valid, p.Test, v.Test)
			}
		}
	}
	if total != distinct {
		t.Errorf("%s: %d new features over the stages; the cascade's trees use %d", what, total, distinct)
	}
}

type streamCase struct {
	name  string
	K     int
	topM  int
	joint bool
	warm  bool
	refit bool
}

func TestOptimizeStream(t *testing.T) {
	for _, c := range []streamCase{
		{name: "K3-global", K: 3},
		{name: "K6-global", K: 6},
		{name: "K3-top-m", K: 3, topM: 3},
		{name: "K3-joint", K: 3, joint: true},
		{name: "K3-warm", K: 3, warm: true},
		{name: "K3-refit", K: 3, refit: true},
	} {
		t.Run(c.name, func(t *testing.T) { testOptimizeStream(t, c) })
	}
}

func testOptimizeStream(t *testing.T, c streamCase) {
	pr, va, te := streamData(t)
	if c.joint {
		pj := *pr // smallProblem is shared: change a copy
		pj.JointEntry = true
		pr = &pj
	}
	sc := ComputeScales(pr, 0)
	par := DefaultParams()
	par.K, par.Lambda, par.TopM = c.K, 0.05, c.topM
	specs := []metric.Spec{{Name: metric.NDCG, K: 10}}
	base := NewEvaluator(smallE, va, te, pr.FeatCost, pr.TreeCost, specs)
	// The cascade last evaluated is the one the next snapshot shows.
	var current *Cascade
	eval := func(ctx context.Context, cc *Cascade) (Eval, Eval, error) {
		cp := *cc
		cp.Stages = nil
		for _, s := range cc.Stages {
			cp.Stages = append(cp.Stages, Stage{Beta: slices.Clone(s.Beta), Theta: s.Theta})
		}
		current = &cp
		return base(ctx, cc)
	}
	opt := Options{MaxCycles: 2, Refit: c.refit}
	if c.warm {
		first, err := Optimize(context.Background(), pr, sc, par, Options{MaxCycles: 1}, base, nil)
		if err != nil {
			t.Fatal(err)
		}
		par.Lambda = 0.1
		opt.Warm, opt.WarmSigma, opt.Reenter = &first.Final.Cascade, first.Final.Sigma, true
	}
	var snaps []Snapshot
	var currents []*Cascade
	var dones []float64
	res, err := Optimize(context.Background(), pr, sc, par, opt, eval, func(done float64, snap func() Snapshot) bool {
		snaps = append(snaps, snap())
		currents = append(currents, current)
		dones = append(dones, done)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) < 2 {
		t.Fatalf("%d snapshots", len(snaps))
	}
	groups := slices.Clone(streamCosts)
	slices.Sort(groups)
	groups = slices.Compact(groups)

	all := append(slices.Clone(snaps), res.History)
	bestScore, bestCost := math.Inf(-1), math.Inf(1)
	for i, s := range all {
		what := fmt.Sprintf("snapshot %d (%s, step %d)", i, s.Phase, s.Step)
		final := i == len(all)-1
		// 6. Phases, steps, cycles.
		switch {
		case i == 0:
			want := "initialising"
			if c.warm {
				want = "warm start"
			}
			if s.Phase != want || s.Warm != c.warm || s.Step != 0 || s.Cycle != 0 {
				t.Errorf("%s: first snapshot phase %q warm %v step %d cycle %d, want %q", what, s.Phase, s.Warm, s.Step, s.Cycle, want)
			}
		case final:
			if s.Phase != "done" || s.Step != all[i-1].Step || s.Cycle != all[i-1].Cycle {
				t.Errorf("%s: the outcome's history is phase %q step %d cycle %d after step %d cycle %d", what, s.Phase, s.Step, s.Cycle, all[i-1].Step, all[i-1].Cycle)
			}
		default:
			p := all[i-1]
			if s.Phase != "optimising" || s.Step != p.Step+1 || s.Cycle < p.Cycle || s.Cycle < 1 || s.Cycle > opt.MaxCycles || s.Stage != (s.Step-1)%c.K {
				t.Errorf("%s: phase %q step %d cycle %d stage %d after step %d cycle %d", what, s.Phase, s.Step, s.Cycle, s.Stage, p.Step, p.Cycle)
			}
			if dones[i] <= dones[i-1] {
				t.Errorf("%s: done %v after %v", what, dones[i], dones[i-1])
			}
		}
		// 1. Terms: one entry per snapshot so far, each adding up, eq (8)
		// never rising from one step to the next.
		if len(s.Terms) != s.Step+1 {
			t.Errorf("%s: %d terms", what, len(s.Terms))
		}
		for j, tm := range s.Terms {
			if !near(tm.Loss+tm.Reg+tm.TreeCost+tm.FeatCost, tm.Total, 1e-12) {
				t.Errorf("%s: terms %d %+v do not add up", what, j, tm)
			}
			if j > 0 && tm.Total > s.Terms[j-1].Total*(1+1e-12) {
				t.Errorf("%s: eq (8) rose at step %d from %.15g to %.15g", what, j, s.Terms[j-1].Total, tm.Total)
			}
		}
		if i > 0 && !slices.Equal(s.Terms[:len(all[i-1].Terms)], all[i-1].Terms) {
			t.Errorf("%s: the terms of earlier steps changed", what)
		}
		if !slices.Equal(s.CostGroups, groups) {
			t.Errorf("%s: cost groups %v, the cost table's are %v", what, s.CostGroups, groups)
		}
		// 2, 3, 4. The current cascade: its stages and its evaluation.
		cur := res.Final.Cascade
		if !final {
			cur = *currents[i]
		}
		// The reach on train, against the reference scorer on every third
		// snapshot and the last (it walks every training document).
		checkStages(t, what, s.Stages, &cur, groups, pr, va, te, true, i%3 == 0 || final)
		checkEval(t, what+" valid", s.Valid, &cur, va, pr)
		checkEval(t, what+" test", s.Test, &cur, te, pr)
		// 5. The best so far.
		if s.BestCascade == nil {
			if s.Best.Metrics != nil || !math.IsInf(bestScore, -1) {
				t.Errorf("%s: no best cascade, but best %v (before: %v)", what, s.Best.Metrics, bestScore)
			}
			continue
		}
		v := s.Best.Metrics["ndcg@10"]
		if v < bestScore || v == bestScore && s.Best.Cost.Total > bestCost && s.Refit == "" {
			t.Errorf("%s: best %v at cost %v after %v at cost %v", what, v, s.Best.Cost.Total, bestScore, bestCost)
		}
		bestScore, bestCost = v, s.Best.Cost.Total
		if s.Refit == "" && (s.BestStep > s.Step || v < s.Valid.Metrics["ndcg@10"] && (!c.warm || s.Step >= c.K)) {
			t.Errorf("%s: best %v from step %d, but the current cascade scores %v", what, v, s.BestStep, s.Valid.Metrics["ndcg@10"])
		}
		checkEval(t, what+" best", s.Best, s.BestCascade, va, pr)
		checkEval(t, what+" best test", s.BestTest, s.BestCascade, te, pr)
		checkStages(t, what+" best", s.BestStages, s.BestCascade, groups, pr, va, te, false, false)
	}
	// 1. The last term is the final state's eq (8).
	h := res.History
	fin := res.Final.clone()
	if got := pr.Objective(fin).Total; !near(h.Terms[len(h.Terms)-1].Total, got, 1e-12) {
		t.Errorf("the last term %v; the final state's eq (8) is %v", h.Terms[len(h.Terms)-1].Total, got)
	}
	// 5. The outcome's best is the last snapshot's.
	if res.Best == nil || h.BestCascade != &res.Best.Cascade {
		t.Fatal("the outcome's history does not hold the outcome's best cascade")
	}
	if c.refit && h.Refit != res.Refit {
		t.Errorf("history refit %q, outcome %q", h.Refit, res.Refit)
	}
	if last := snaps[len(snaps)-1]; h.Refit == "" && sameStages(last.BestCascade, &res.Best.Cascade) != "" {
		t.Error("the outcome's best is not the last snapshot's best cascade")
	}
}
