package baseline

import (
	"bytes"
	"context"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// BenchmarkEarlyExit runs the early-exit baseline (an exit every 10 trees,
// four scales) over 300 depth-2 trees on a 20,000-document, 136-feature
// synthetic set with the MSLR costs: the shape `cronus sweep` scores on
// the synthetic benchmark set, at a tenth of its size.
func BenchmarkEarlyExit(b *testing.B) {
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
	specs := mustSpecs(b, "ndcg@10")
	costs := data.MSLRCosts()
	b.ResetTimer()
	for b.Loop() {
		if _, err := EarlyExit(ctx, r.Ensemble, d, "test", costs, 1, 10, []float64{0, 0.5, 1, 2}, specs, metric.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
