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
// with squared-loss gradients at the base score.
func BenchmarkGrow(b *testing.B) {
	d := loadBenchData(b)
	bins := data.ComputeBins(d, 255)
	bd, _ := bins.Apply(d)
	g := NewGrower(bd, bins, GrowParams{MaxLeaves: 31, MinDocs: 50, MinHess: 1e-3, Lambda: 1}, 0)
	gh := make([]GradPair, d.NumDocs())
	for i := range gh {
		gh[i] = GradPair{G: 1 - d.Labels[i], H: 1}
	}
	leafOf := make([]int32, d.NumDocs())
	b.ResetTimer()
	for b.Loop() {
		g.Grow(gh, nil, nil, leafOf)
	}
}
