package baseline

import (
	"bytes"
	"context"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// BenchmarkEarlyExit runs the early-exit baseline (an exit every 10 trees,
// four scales) over 300 depth-2 trees on a 20,000-document, 136-feature
// synthetic set with the MSLR costs: the shape `cronus sweep` scores on
// the synthetic benchmark set, at a tenth of its size.
func BenchmarkEarlyExit(b *testing.B) {
	ctx := context.Background()
	e, d := synthBench(b)
	specs := mustSpecs(b, "ndcg@10")
	costs := data.MSLRCosts()
	b.ResetTimer()
	for b.Loop() {
		if _, err := EarlyExit(ctx, e, d, "test", costs, 1, 10, []float64{0, 0.5, 1, 2}, specs, metric.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrefixEvery scores the prefix baseline as cronus sweep and the
// workbench do since 2026-11-29: every tree count by NDCG@10, then the
// counts kept by the three metrics they report, on BenchmarkEarlyExit's
// set and 300 trees (2026-11-29, loaded machine: 1.7 s when every count
// was scored by all three metrics).
func BenchmarkPrefixEvery(b *testing.B) {
	ctx := context.Background()
	e, d := synthBench(b)
	specs := mustSpecs(b, "p@5,ndcg@10,err@3")
	costs := data.MSLRCosts()
	b.ResetTimer()
	for b.Loop() {
		ks, err := KeptPrefixCounts(ctx, e, []*data.Dataset{d}, costs, 1, PrefixSteps(300, 12), specs[1], metric.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Prefix(ctx, e, d, "test", costs, 1, ks, specs, metric.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// synthBench is the benchmarks' set and ensemble: 300 depth-2 trees on a
// 20,000-document, 136-feature synthetic set.
func synthBench(b *testing.B) (*tree.Ensemble, *data.Dataset) {
	ctx := context.Background()
	var buf bytes.Buffer
	if _, err := data.WriteSynthetic(ctx, &buf, data.SynthOptions{Queries: 160, DocsPerQuery: 125, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	d, err := data.ReadBytes(ctx, "synth", buf.Bytes(), data.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	p := boost.DefaultParams("regression")
	p.Trees, p.Grow.MaxLeaves, p.Grow.MaxDepth = 300, 4, 2
	r, err := boost.Train(ctx, d, nil, p, nil)
	if err != nil {
		b.Fatal(err)
	}
	return r.Ensemble, d
}
