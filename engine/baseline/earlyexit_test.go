package baseline

import (
	"cmp"
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// sevenDocs is one query of seven documents d0..d6 (feature values f0 = f1 =
// i for d_i) and three trees, each giving document d_i the value in its row:
//
//	tree (feature)  d0  d1  d2  d3  d4  d5  d6
//	0 (f0, cost 1)   5   4   3   2   1   0  -1
//	1 (f1, cost 10)  0   0   0   0   0   3  10
//	2 (f0)           0   2   0   0   5   0   0
//	labels           0   0   0   0   1   1   2
//
// With an exit after every tree, M = 3: exits after trees 1 and 2, margins
// s and s/2, and the end after tree 3.
func sevenDocs(t *testing.T) (*tree.Ensemble, *data.Dataset) {
	e := &tree.Ensemble{
		Trees: []tree.Tree{
			chain(0, []float64{5, 4, 3, 2, 1, 0, -1}),
			chain(1, []float64{0, 0, 0, 0, 0, 3, 10}),
			chain(0, []float64{0, 2, 0, 0, 5, 0, 0}),
		},
		NumFeatures: 2,
	}
	f := []float32{0, 1, 2, 3, 4, 5, 6}
	d := handData(t, [][]float32{f, f}, []float32{0, 0, 0, 0, 1, 1, 2}, 7)
	return e, d
}

func TestEarlyExitHandWorked(t *testing.T) {
	e, d := sevenDocs(t)
	idcg := 3 + 1/math.Log2(3) + 1/math.Log2(4)
	cases := []struct {
		s     float64
		level []int32 // exit each document left at; 3 = still in at the end
		order []int   // the ranking the metrics see
		cost  metric.Cost
		ndcg  float64
	}{
		{
			// Exit 1 (scores 5 4 3 2 1 0 -1, fifth best 1): with margin 0
			// everyone below the top five leaves: d5, d6. Exit 2: five are
			// left, none below the fifth. End: d0 5, d1 6, d2 3, d3 2, d4 6.
			s:     0,
			level: []int32{3, 3, 3, 3, 3, 1, 1},
			order: []int{1, 4, 0, 2, 3, 5, 6},
			cost:  metric.Cost{Total: 74.0 / 7, Features: (5*11 + 2*1) / 7.0, Trees: (5*3 + 2*1) / 7.0},
			ndcg:  (1/math.Log2(3) + 1/math.Log2(7) + 3/math.Log2(8)) / idcg,
		},
		{
			// Exit 1, margin 2: 1 − r ≥ 2 only for d6 (−1), which leaves
			// before its +10. Exit 2 (d0..d5: 5 4 3 2 1 3, fifth best 2),
			// margin 1: 2 − r ≥ 1 for d4 (1), which leaves before its +5.
			// End: d0 5, d1 6, d2 3, d3 2, d5 3 (d2 before d5: input order).
			s:     2,
			level: []int32{3, 3, 3, 3, 2, 3, 1},
			order: []int{1, 0, 2, 5, 3, 4, 6},
			cost:  metric.Cost{Total: 85.0 / 7, Features: (6*11 + 1) / 7.0, Trees: (5*3 + 2 + 1) / 7.0},
			ndcg:  (1/math.Log2(5) + 1/math.Log2(7) + 3/math.Log2(8)) / idcg,
		},
		{
			// Exit 1 margin 7, exit 2 margin 3.5: nobody trails that far.
			s:     7,
			level: []int32{3, 3, 3, 3, 3, 3, 3},
			order: []int{6, 1, 4, 0, 2, 5, 3},
			cost:  metric.Cost{Total: 14, Features: 11, Trees: 3},
			ndcg:  (3 + 1/math.Log2(4) + 1/math.Log2(7)) / idcg,
		},
		{
			// The full ensemble: 5 6 3 2 6 3 9.
			s:     math.Inf(1),
			level: []int32{3, 3, 3, 3, 3, 3, 3},
			order: []int{6, 1, 4, 0, 2, 5, 3},
			cost:  metric.Cost{Total: 14, Features: 11, Trees: 3},
			ndcg:  (3 + 1/math.Log2(4) + 1/math.Log2(7)) / idcg,
		},
	}
	scales := make([]float64, len(cases))
	for i, c := range cases {
		scales[i] = c.s
	}
	states, err := runExits(context.Background(), e, d, 1, scales)
	if err != nil {
		t.Fatal(err)
	}
	points := noErr(t)(EarlyExit(context.Background(), e, d, "valid", []float64{1, 10}, 1, 1, scales, mustSpecs(t, "ndcg@10"), metric.Options{}))
	for i, c := range cases {
		st := states[i]
		if !reflect.DeepEqual(st.level, c.level) {
			t.Errorf("s=%v: exit levels %v, want %v", c.s, st.level, c.level)
		}
		rank := make([]float64, d.NumDocs())
		st.rankScores(rank, d.QueryOffsets, nil)
		if got := rankingOf(rank); !reflect.DeepEqual(got, c.order) {
			t.Errorf("s=%v: ranking %v, want %v", c.s, got, c.order)
		}
		p := points[i]
		if p.Method != "early-exit" || p.Split != "valid" || p.Lambda != c.s {
			t.Errorf("s=%v: point %q %q λ=%v", c.s, p.Method, p.Split, p.Lambda)
		}
		checkCost(t, "s="+formatFloat(c.s), p.Cost, c.cost)
		if !near(p.Metrics["ndcg@10"], c.ndcg, 1e-12) {
			t.Errorf("s=%v: ndcg@10 = %v, want %v", c.s, p.Metrics["ndcg@10"], c.ndcg)
		}
	}
}

// rankingOf returns the documents in the order package metric ranks them:
// by score, highest first, ties in input order.
func rankingOf(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	return idx
}

// One exit on a single query: who leaves, with ties at the fifth place
// broken by input order as in the ranking.
func TestExitStep(t *testing.T) {
	scores := []float64{3, 1, 1, 1, 1, 1, 2}
	cases := []struct {
		name  string
		out   []int // documents already gone before the exit
		thr   float64
		leave []int
	}{
		// Top five: d0 (3), d6 (2), d1 d2 d3 (1, first in input order).
		{"margin 0: ties after the fifth leave", nil, 0, []int{4, 5}},
		{"margin 0.5: nobody trails by 0.5", nil, 0.5, nil},
		{"margin 0, d0 gone: top five d6 d1 d2 d3 d4", []int{0}, 0, []int{5}},
		{"margin 0, four left: nobody leaves", []int{0, 1, 2}, 0, nil},
	}
	for _, c := range cases {
		st := &exitState{level: make([]int32, len(scores)), score: make([]float64, len(scores))}
		for _, i := range c.out {
			st.level[i] = 1
		}
		st.exit(scores, []int{0, len(scores)}, c.thr, 2)
		var leave []int
		for i, l := range st.level {
			if l == 2 {
				leave = append(leave, i)
			}
		}
		if !reflect.DeepEqual(leave, c.leave) {
			t.Errorf("%s: %v leave, want %v", c.name, leave, c.leave)
		}
	}
}

// A query of fewer than five documents never loses one, even at s = 0.
func TestEarlyExitSmallQuery(t *testing.T) {
	e, d := threeStumps(t)
	got := noErr(t)(EarlyExit(context.Background(), e, d, "test", []float64{1, 10}, 1, 1, []float64{0}, mustSpecs(t, "ndcg@10"), metric.Options{}))
	full := noErr(t)(Prefix(context.Background(), e, d, "test", []float64{1, 10}, 1, []int{3}, mustSpecs(t, "ndcg@10"), metric.Options{}))
	checkCost(t, "s=0", got[0].Cost, full[0].Cost)
	if got[0].Metrics["ndcg@10"] != full[0].Metrics["ndcg@10"] {
		t.Errorf("ndcg@10 %v, want the full ensemble's %v", got[0].Metrics["ndcg@10"], full[0].Metrics["ndcg@10"])
	}
}

// checkExitLevels checks the level (exit) each of sevenDocs' documents
// leaves at with an exit every `every` trees and margin scale s, and
// returns the model and data.
func checkExitLevels(t *testing.T, every int, s float64, want []int32) (*tree.Ensemble, *data.Dataset) {
	t.Helper()
	e, d := sevenDocs(t)
	states, err := runExits(context.Background(), e, d, every, []float64{s})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(states[0].level, want) {
		t.Errorf("every %d, s %g: levels %v, want %v", every, s, states[0].level, want)
	}
	return e, d
}

// sevenDocs with an exit every 2 of its 3 trees: M = ⌈3/2⌉ = 2, one exit
// after trees 0 and 1 (margin s), then the end after tree 2. After two
// trees the scores are 5 4 3 2 1 3 9: top five d6 d0 d1 d2 d5, fifth 3; at
// s = 0 d3 (2) and d4 (1) leave, having paid f0, f1 and two trees (13);
// the rest pay 11 + 3 = 14. End: d0 5, d1 6, d2 3, d5 3, d6 9, so the
// ranking is d6 d1 d0 d2 d5, then d3 d4; relevant d6 (2), d5, d4 (1).
func TestEarlyExitUnevenExits(t *testing.T) {
	e, d := checkExitLevels(t, 2, 0, []int32{2, 2, 2, 1, 1, 2, 2})
	points := noErr(t)(EarlyExit(context.Background(), e, d, "valid", []float64{1, 10}, 1, 2, []float64{0}, mustSpecs(t, "ndcg@10"), metric.Options{}))
	checkCost(t, "every 2, s=0", points[0].Cost, metric.Cost{Total: 96.0 / 7, Features: 11, Trees: 19.0 / 7})
	idcg := 3 + 1/math.Log2(3) + 1/math.Log2(4)
	if want := (3 + 1/math.Log2(6) + 1/math.Log2(8)) / idcg; !near(points[0].Metrics["ndcg@10"], want, 1e-12) {
		t.Errorf("ndcg@10 %v, want %v", points[0].Metrics["ndcg@10"], want)
	}
}

// The margin shrinks from s at the first exit to s/(M−1) at the last:
// with sevenDocs, an exit every tree (M = 3) and s = 1.2, the margins are
// 1.2 and 0.6. Exit 1 (5 4 3 2 1 0 −1, fifth 1): only d6 trails by 1.2 or
// more (d5 by 1). Exit 2 (5 4 3 2 1 3, fifth 2): d4 trails by 1 ≥ 0.6.
// Costs: d6 2 (f0, one tree), d4 13 (f0, f1, two trees), the rest 14.
func TestEarlyExitMarginSchedule(t *testing.T) {
	e, d := checkExitLevels(t, 1, 1.2, []int32{3, 3, 3, 3, 2, 3, 1})
	points := noErr(t)(EarlyExit(context.Background(), e, d, "valid", []float64{1, 10}, 1, 1, []float64{1.2}, mustSpecs(t, "ndcg@10"), metric.Options{}))
	checkCost(t, "s=1.2", points[0].Cost, metric.Cost{Total: 85.0 / 7, Features: 67.0 / 7, Trees: 18.0 / 7})
}

// With no documents the mean cost is the full ensemble's.
func TestAverageCostNoDocuments(t *testing.T) {
	levels := []metric.Cost{{}, {Total: 13, Features: 11, Trees: 2}, {Total: 14, Features: 11, Trees: 3}}
	if got, want := averageCost(levels, []int{0, 0, 0}, 0), (metric.Cost{Total: 14, Features: 11, Trees: 3}); got != want {
		t.Errorf("averageCost of no documents %+v, want %+v", got, want)
	}
}
