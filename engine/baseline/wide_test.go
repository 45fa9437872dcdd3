package baseline

import (
	"runtime"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// A model whose highest feature index is 1,000,000 (a sparse data set
// with a few lines that name it) but whose trees split on four features:
// the running scores gather those four into their rows. They gathered a
// row of every feature, 128 × 1,000,000 float32 per worker at every
// prefix, 512 MB each, and sweep passed 3 GB resident on 1,000 documents.
// The scores are the trees' sums, worked out here by hand.
func TestScorerWideModel(t *testing.T) {
	const d, n = 1_000_000, 300
	zero := make([]float32, n)
	cols := make([][]float32, d)
	for f := range cols {
		cols[f] = zero // every document 0 on the features no tree uses
	}
	for _, f := range []int{0, 1, 2, d - 1} {
		cols[f] = make([]float32, n)
		for i := range n {
			cols[f][i] = float32((i*(f+7))%10) / 10
		}
	}
	labels := make([]float32, n)
	ds := handData(t, cols, labels, n)
	e := &tree.Ensemble{Base: 0.25, NumFeatures: d, Objective: "regression", Trees: []tree.Tree{
		stump(0, 0.45, 1, 2),
		stump(d-1, 0.35, 10, 20),
		stump(1, 0.55, 100, 200),
		stump(2, 0.15, 1000, 2000),
	}}
	s := newScorer(e, ds)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for _, k := range []int{1, 2, 3, 4} {
		s.advance(k)
		for i := range n {
			want := e.Base
			for _, tr := range e.Trees[:k] {
				nd := tr.Nodes[0]
				if cols[nd.Feature][i] <= nd.Threshold {
					want += tr.Leaves[0]
				} else {
					want += tr.Leaves[1]
				}
			}
			if s.scores[i] != want {
				t.Fatalf("%d trees: document %d scores %v, want %v", k, i, s.scores[i], want)
			}
		}
	}
	runtime.ReadMemStats(&m1)
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 16<<20 {
		t.Errorf("four prefixes of four stumps on %d documents allocated %d MB", n, a>>20)
	}
}
