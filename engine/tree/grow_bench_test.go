package tree

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/cronus-ltr/cronus/data"
)

// benchData is a 200,000-document, 136-feature `cronus gen` set (seed 2),
// written once to a temporary directory.
var benchData *data.Dataset

func loadBenchData(b *testing.B) *data.Dataset {
	if benchData != nil {
		return benchData
	}
	dir, err := os.MkdirTemp("", "cronus-bench")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := dir + "/synth.txt"
	ctx := context.Background()
	if _, err := data.WriteSyntheticFile(ctx, p, data.SynthOptions{Queries: 1600, DocsPerQuery: 125, Features: 136, Seed: 2}); err != nil {
		b.Fatal(err)
	}
	d, err := data.ReadFile(ctx, p, data.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchData = d
	return d
}

// BenchmarkGrow grows one 31-leaf tree on 200,000 × 136 binned documents
// with squared-loss gradients at the base score: hessians of 1, which take
// the unit-hessian path, and (hessian=varied) the same gradients with
// hessians in [0.5, 1.5), which take the general one.
func BenchmarkGrow(b *testing.B) {
	d := loadBenchData(b)
	bins := data.ComputeBins(d, 255)
	bd, _ := bins.Apply(d)
	g := NewGrower(bd, bins, GrowParams{MaxLeaves: 31, MinDocs: 50, MinHess: 1e-3, Lambda: 1}, 0)
	for _, varied := range []bool{false, true} {
		gh := make([]GradPair, d.NumDocs())
		for i := range gh {
			gh[i] = GradPair{G: 1 - d.Labels[i], H: 1}
			if varied {
				gh[i].H = 0.5 + float32(i%64)/64
			}
		}
		leafOf := make([]int32, d.NumDocs())
		name := "hessian=1"
		if varied {
			name = "hessian=varied"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				g.Grow(gh, nil, nil, leafOf)
			}
		})
	}
}

// BenchmarkPredict scores 200,000 × 136 documents with 50 trees of 31
// leaves, reporting nanoseconds per document per tree.
func BenchmarkPredict(b *testing.B) {
	d := loadBenchData(b)
	bins := data.ComputeBins(d, 255)
	bd, _ := bins.Apply(d)
	g := NewGrower(bd, bins, GrowParams{MaxLeaves: 31, MinDocs: 50, Lambda: 1}, 0)
	gh := make([]GradPair, d.NumDocs())
	e := &Ensemble{NumFeatures: d.NumFeatures()}
	for t := 0; t < 50; t++ {
		for i := range gh {
			gh[i] = GradPair{G: float32((i*(t+7))%13) - 6 + d.Labels[i], H: 1}
		}
		e.Trees = append(e.Trees, g.Grow(gh, nil, nil, nil).Tree)
	}
	dst := make([]float64, d.NumDocs())
	b.ResetTimer()
	for b.Loop() {
		e.Predict(dst, d.Cols, d.NumDocs(), -1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d.NumDocs())/50, "ns/doc/tree")
}

// BenchmarkPredictStrayWidth scores 4,096 documents of 50,000 features
// (a stray index's width; the columns share one slice) with 20 trees on
// the first 46: only the used columns are gathered (13.6 s before, for
// 9,630 documents of 200,000 features).
func BenchmarkPredictStrayWidth(b *testing.B) {
	const n, d, used = 4096, 50000, 46
	zeros := make([]float32, n)
	cols := make([][]float32, d)
	for f := range cols {
		cols[f] = zeros
	}
	r := rand.New(rand.NewPCG(1, 1))
	for f := range used {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.NormFloat64())
		}
	}
	e := &Ensemble{NumFeatures: d}
	for t := range 20 {
		e.Trees = append(e.Trees, Tree{Nodes: []Node{
			{Feature: int32(t % used), Threshold: 0, Left: 1, Right: Leaf(2)},
			{Feature: int32((t + 7) % used), Threshold: 0.5, Left: Leaf(0), Right: Leaf(1)},
		}, Leaves: []float64{1, 2, 3}})
	}
	dst := make([]float64, n)
	for b.Loop() {
		e.Predict(dst, cols, n, -1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/doc")
}
