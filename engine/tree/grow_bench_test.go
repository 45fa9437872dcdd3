package tree

import (
	"context"
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
