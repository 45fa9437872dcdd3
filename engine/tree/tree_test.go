package tree

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
)

// stump3 is x0 <= 0.5 ? (x1 <= 2 ? 1 : 2) : 3, written by hand.
func stump3() Tree {
	return Tree{
		Nodes: []Node{
			{Feature: 0, Threshold: 0.5, Left: 1, Right: Leaf(2)},
			{Feature: 1, Threshold: 2, Left: Leaf(0), Right: Leaf(1)},
		},
		Leaves: []float64{1, 2, 3},
	}
}

func TestTreePredict(t *testing.T) {
	tr := stump3()
	if err := tr.Validate(2); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		x    []float32
		leaf int
	}{
		{[]float32{0.5, 2}, 0}, // both thresholds are inclusive
		{[]float32{0.4, 2.0001}, 1},
		{[]float32{0.51, -9}, 2},
	}
	for _, c := range cases {
		if got := tr.LeafIndex(c.x); got != c.leaf {
			t.Errorf("LeafIndex(%v) = %d, want %d", c.x, got, c.leaf)
		}
	}
	if fs := tr.Features(); len(fs) != 2 || fs[0] != 0 || fs[1] != 1 {
		t.Errorf("Features() = %v", fs)
	}
	if d := tr.Depth(); d != 2 {
		t.Errorf("Depth() = %d", d)
	}
}

func TestTreeValidate(t *testing.T) {
	bad := []Tree{
		{Leaves: []float64{1, 2}},
		{Nodes: []Node{{Feature: 0, Left: Leaf(0), Right: Leaf(0)}}, Leaves: []float64{1, 2}},
		{Nodes: []Node{{Feature: 5, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{1, 2}},
		{Nodes: []Node{{Feature: 0, Left: 0, Right: Leaf(1)}}, Leaves: []float64{1, 2}},
	}
	for i, tr := range bad {
		if err := tr.Validate(2); err == nil {
			t.Errorf("tree %d: no error", i)
		}
	}
}

// Predict and LeafIndices on column-major data must agree with the row-wise
// tree walk, for any number of trees and any block alignment.
func TestEnsemblePredictMatchesRowWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	e := &Ensemble{Base: 0.25, NumFeatures: 2, Trees: []Tree{stump3(), stump3(), {Leaves: []float64{-0.5}}}}
	e.Trees[1].Nodes[0].Feature = 1
	for _, n := range []int{1, 127, 128, 129, 300} {
		cols := [][]float32{make([]float32, n), make([]float32, n)}
		for i := 0; i < n; i++ {
			cols[0][i], cols[1][i] = r.Float32(), 4*r.Float32()
		}
		for _, k := range []int{-1, 0, 1, 2, 3, 9} {
			got := e.Predict(nil, cols, n, k)
			leaves := e.LeafIndices(nil, cols, n, k)
			kk := k
			if k < 0 || k > len(e.Trees) {
				kk = len(e.Trees)
			}
			for i := 0; i < n; i++ {
				x := []float32{cols[0][i], cols[1][i]}
				want := e.Base
				for ti := 0; ti < kk; ti++ {
					want += e.Trees[ti].Predict(x)
					if int(leaves[ti*n+i]) != e.Trees[ti].LeafIndex(x) {
						t.Fatalf("n=%d k=%d doc %d tree %d: leaf %d", n, k, i, ti, leaves[ti*n+i])
					}
				}
				if got[i] != want {
					t.Fatalf("n=%d k=%d doc %d: got %v want %v", n, k, i, got[i], want)
				}
			}
		}
	}
}

// TestMissingSplits counts the splits where NaN and 0 part ways.
func TestMissingSplits(t *testing.T) {
	e := &Ensemble{NumFeatures: 1, Trees: []Tree{
		{Nodes: []Node{
			{Threshold: 0.5, Left: 1, Right: Leaf(0)},                    // 0 left, NaN right: differ
			{Threshold: 0.5, Left: Leaf(1), Right: 2, DefaultLeft: true}, // both left
			{Threshold: -1, Left: Leaf(2), Right: Leaf(3)},               // both right
		}, Leaves: []float64{0, 1, 2, 3}},
		{Nodes: []Node{{Threshold: -1, Left: Leaf(0), Right: Leaf(1), DefaultLeft: true}}, Leaves: []float64{0, 1}}, // 0 right, NaN left: differ
	}}
	for _, c := range []struct{ k, differ, total int }{{-1, 2, 4}, {1, 1, 3}, {0, 0, 0}, {9, 2, 4}} {
		if d, n := e.MissingSplits(c.k); d != c.differ || n != c.total {
			t.Errorf("k %d: %d of %d, want %d of %d", c.k, d, n, c.differ, c.total)
		}
	}
}

// A split at threshold 0 sends 0 left (0 <= 0): NaN parts from it only when
// it goes right, by default.
func TestMissingSplitsZeroThreshold(t *testing.T) {
	e := &Ensemble{NumFeatures: 1, Trees: []Tree{
		{Nodes: []Node{{Threshold: 0, Left: Leaf(0), Right: Leaf(1), DefaultLeft: true}}, Leaves: []float64{0, 1}}, // both left
		{Nodes: []Node{{Threshold: 0, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{0, 1}},                    // 0 left, NaN right: differ
	}}
	for _, c := range []struct{ k, differ, total int }{{1, 0, 1}, {-1, 1, 2}} {
		if d, n := e.MissingSplits(c.k); d != c.differ || n != c.total {
			t.Errorf("k %d: %d of %d differ, want %d of %d", c.k, d, n, c.differ, c.total)
		}
	}
}

// stopAfter is a context whose Err is Canceled from its n-th call on: a
// cancellation that comes while the work is under way, at a known point.
type stopAfter struct {
	context.Context
	calls, n atomic.Int64
}

func (c *stopAfter) Err() error {
	if c.calls.Add(1) >= c.n.Load() {
		return context.Canceled
	}
	return nil
}

// PredictContext and LeafIndicesContext stop between blocks of documents
// once their context is done, and say so; with a live context they give
// what Predict and LeafIndices give.
func TestPredictContextStops(t *testing.T) {
	const n = 100 * predictBlock
	r := rand.New(rand.NewPCG(4, 4))
	e := &Ensemble{Base: 0.25, NumFeatures: 2, Trees: []Tree{stump3(), stump3()}}
	cols := [][]float32{make([]float32, n), make([]float32, n)}
	for i := 0; i < n; i++ {
		cols[0][i], cols[1][i] = r.Float32(), 4*r.Float32()
	}
	got, err := e.PredictContext(context.Background(), nil, cols, n, -1)
	if err != nil || !slices.Equal(got, e.Predict(nil, cols, n, -1)) {
		t.Fatalf("live context: %v, or scores differ from Predict", err)
	}
	var counted atomic.Int64
	if got, err := e.PredictCounted(context.Background(), nil, cols, n-5, -1, &counted); err != nil || !slices.Equal(got, e.Predict(nil, cols, n-5, -1)) || counted.Load() != n-5 {
		t.Fatalf("PredictCounted: %v, %d documents counted of %d, or scores differ from Predict", err, counted.Load(), n-5)
	}
	leaves, err := e.LeafIndicesContext(context.Background(), nil, cols, n, -1)
	if err != nil || !slices.Equal(leaves, e.LeafIndices(nil, cols, n, -1)) {
		t.Fatalf("live context: %v, or leaves differ from LeafIndices", err)
	}
	for _, after := range []int64{1, 4} { // done before the first block; after three blocks were begun
		ctx := &stopAfter{Context: context.Background()}
		ctx.n.Store(after)
		got, err := e.PredictContext(ctx, nil, cols, n, -1)
		scored := 0
		for _, v := range got {
			if v != 0 { // a score is 0.25 plus two leaf values from 1 to 3
				scored++
			}
		}
		if !errors.Is(err, context.Canceled) || scored != int(after-1)*predictBlock {
			t.Errorf("cancelled at check %d: error %v, %d documents scored, want %d", after, err, scored, int(after-1)*predictBlock)
		}
		ctx = &stopAfter{Context: context.Background()}
		ctx.n.Store(after)
		if _, err := e.LeafIndicesContext(ctx, nil, cols, n, -1); !errors.Is(err, context.Canceled) {
			t.Errorf("LeafIndicesContext cancelled at check %d: error %v", after, err)
		}
	}
}

// randomTree returns a tree of the given number of leaves grown by
// splitting a random leaf each time, so its depth varies from leaf to leaf,
// on random features, thresholds and NaN directions.
func randomTree(r *rand.Rand, leaves, features int) Tree {
	t := Tree{Leaves: []float64{r.NormFloat64()}}
	type ref struct{ node, side int } // where each leaf hangs: node −1 for the root
	at := []ref{{-1, 0}}
	for len(t.Leaves) < leaves {
		l := r.IntN(len(t.Leaves))
		n := int32(len(t.Nodes))
		t.Nodes = append(t.Nodes, Node{Feature: int32(r.IntN(features)), Threshold: float32(r.IntN(5)) - 2,
			Left: Leaf(l), Right: Leaf(len(t.Leaves)), DefaultLeft: r.IntN(2) == 0})
		if p := at[l]; p.node >= 0 {
			if p.side == 0 {
				t.Nodes[p.node].Left = n
			} else {
				t.Nodes[p.node].Right = n
			}
		}
		at[l] = ref{int(n), 0}
		at = append(at, ref{int(n), 1})
		t.Leaves = append(t.Leaves, r.NormFloat64())
	}
	return t
}

// The blocked walk of Predict and LeafIndices (four documents at a time,
// and one by one where a block holds a NaN) agrees with LeafIndex on
// unbalanced trees, on values equal to the thresholds, infinities and NaN.
func TestBlockWalkMatchesLeafIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	const d, n = 5, 3*predictBlock + 7
	e := &Ensemble{Base: 0.5, NumFeatures: d}
	for _, leaves := range []int{1, 2, 3, 31, 64} {
		e.Trees = append(e.Trees, randomTree(r, leaves, d))
	}
	values := []float32{-3, -2, -1.5, -1, 0, 0.5, 1, 2, 3, float32(math.Inf(1)), float32(math.Inf(-1))}
	cols := make([][]float32, d)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = values[r.IntN(len(values))]
		}
	}
	// NaN only in the second block: the others take the four-document walk.
	for i := predictBlock; i < 2*predictBlock; i += 3 {
		cols[r.IntN(d)][i] = float32(math.NaN())
	}
	got := e.Predict(nil, cols, n, -1)
	leaves := e.LeafIndices(nil, cols, n, -1)
	x := make([]float32, d)
	for i := 0; i < n; i++ {
		for f := range x {
			x[f] = cols[f][i]
		}
		want := e.Base
		for ti := range e.Trees {
			l := e.Trees[ti].LeafIndex(x)
			want += e.Trees[ti].Leaves[l]
			if int(leaves[ti*n+i]) != l {
				t.Fatalf("doc %d %v, tree %d: leaf %d, want %d", i, x, ti, leaves[ti*n+i], l)
			}
		}
		if got[i] != want {
			t.Fatalf("doc %d: score %v, want %v", i, got[i], want)
		}
	}
}

// A model of many features whose trees use few of them (a stray index on
// one training line made d 200,000) gathers only the used columns into its
// row blocks; the scores and leaves are those of each tree walked on each
// document's own row, bit for bit, NaNs in used and unused columns alike.
func TestPredictFewFeaturesUsed(t *testing.T) {
	const d, n = 1000, 3*predictBlock + 5
	r := rand.New(rand.NewPCG(9, 9))
	cols := make([][]float32, d)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.NormFloat64())
			if r.IntN(20) == 0 {
				cols[f][i] = float32(math.NaN())
			}
		}
	}
	e := &Ensemble{NumFeatures: d, Base: 0.25, Trees: []Tree{
		{Nodes: []Node{
			{Feature: 900, Threshold: 0.1, Left: 1, Right: Leaf(2), DefaultLeft: true},
			{Feature: 2, Threshold: -0.3, Left: Leaf(0), Right: Leaf(1)},
		}, Leaves: []float64{0.5, -1.5, 2.25}},
		{Nodes: []Node{{Feature: 999, Threshold: 0, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{1e-3, -7}},
		{Leaves: []float64{0.125}}, // a single leaf
	}}
	if _, used := compactFeatures(e.Trees, d); !slices.Equal(used, []int{2, 900, 999}) {
		t.Fatalf("used %v, want [2 900 999]: the compact path is not taken", used)
	}
	scores := e.Predict(nil, cols, n, -1)
	leaves := e.LeafIndices(nil, cols, n, -1)
	x := make([]float32, d)
	for i := range n {
		for f := range x {
			x[f] = cols[f][i]
		}
		want := e.Base
		for k := range e.Trees {
			tr := &e.Trees[k]
			want += tr.Predict(x)
			if got := leaves[k*n+i]; int(got) != tr.LeafIndex(x) {
				t.Fatalf("document %d, tree %d: leaf %d, want %d", i, k, got, tr.LeafIndex(x))
			}
		}
		if scores[i] != want {
			t.Fatalf("document %d: score %v, want %v", i, scores[i], want)
		}
	}
	if e.Trees[0].Nodes[0].Feature != 900 {
		t.Errorf("the model's trees were renumbered: feature %d", e.Trees[0].Nodes[0].Feature)
	}
}
