package tree

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// Scaling the gradient pairs scales the tree as the formulas say. A leaf's
// value is −G/(H+λ) and a split's gain G_L²/(H_L+λ) + G_R²/(H_R+λ) −
// G²/(H+λ). With every gradient doubled (hessians and λ as they were),
// leaves double and gains quadruple: the same split wins at every leaf
// (MinDocs and MinHess read counts and hessians, which did not change).
// With gradients, hessians, λ and MinHess all doubled, leaves are the same
// and gains and covers double. Doubling is exact in floating point and
// commutes with the rounding of sums, products and quotients, so all of
// this holds bit for bit; MinGain is 0, as a positive one is compared with
// the gains unscaled. Hessians of 1 (squared loss: the grower's unit-hessian
// histograms) and varied ones, all documents and a subset, 1 and 2
// workers.
func TestGrowScaledGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	const n, nf = 3000, 6
	cols := normalCols(r, nf, n)
	d := dataset(cols)
	var rows []int32
	for i := range n {
		if i%3 != 0 {
			rows = append(rows, int32(i))
		}
	}
	for _, unit := range []bool{true, false} {
		gh := make([]GradPair, n)
		for i := range gh {
			gh[i] = GradPair{G: cols[1][i] - 2*cols[4][i] + float32(r.NormFloat64()), H: 1}
			if !unit {
				gh[i].H = 0.05 + float32(r.Float64())
			}
		}
		twiceG, twiceGH := make([]GradPair, n), make([]GradPair, n)
		for i, p := range gh {
			twiceG[i] = GradPair{G: 2 * p.G, H: p.H}
			twiceGH[i] = GradPair{G: 2 * p.G, H: 2 * p.H}
		}
		for _, sub := range [][]int32{nil, rows} {
			for _, workers := range []int{1, 2} {
				name := fmt.Sprintf("unit hessians %v, %d rows, %d workers", unit, len(sub), workers)
				p := GrowParams{MaxLeaves: 20, MinDocs: 5, MinHess: 0.5, Lambda: 1}
				want := grower(t, d, p, workers).Grow(gh, sub, nil, nil)
				if len(want.Nodes) < 10 {
					t.Fatalf("%s: %d splits; the test needs more", name, len(want.Nodes))
				}

				got := grower(t, d, p, workers).Grow(twiceG, sub, nil, nil)
				checkScaledTree(t, name+", gradients doubled", want, got, 2, 4, 1)

				p2 := p
				p2.Lambda, p2.MinHess = 2*p.Lambda, 2*p.MinHess
				got = grower(t, d, p2, workers).Grow(twiceGH, sub, nil, nil)
				checkScaledTree(t, name+", gradients, hessians, λ and MinHess doubled", want, got, 1, 2, 2)
			}
		}
	}
}

// checkScaledTree checks that got has want's splits (features,
// thresholds, bins), its leaves times leaf, its gains times gain and its
// covers times cover, bit for bit.
func checkScaledTree(t *testing.T, name string, want, got BinnedTree, leaf float64, gain, cover float32) {
	t.Helper()
	if !reflect.DeepEqual(got.Nodes, want.Nodes) || !reflect.DeepEqual(got.Bin, want.Bin) {
		t.Fatalf("%s: the splits differ:\n got %v\nwant %v", name, got.Nodes, want.Nodes)
	}
	for k, v := range want.Leaves {
		if got.Leaves[k] != leaf*v || got.LeafCover[k] != cover*want.LeafCover[k] {
			t.Fatalf("%s: leaf %d is %v (cover %v), want %v (%v)", name, k, got.Leaves[k], got.LeafCover[k], leaf*v, cover*want.LeafCover[k])
		}
	}
	for k := range want.Nodes {
		if got.Gain[k] != gain*want.Gain[k] || got.Cover[k] != cover*want.Cover[k] {
			t.Fatalf("%s: node %d has gain %v and cover %v, want %v and %v", name, k, got.Gain[k], got.Cover[k], gain*want.Gain[k], cover*want.Cover[k])
		}
	}
}
