package cronus

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// cancelBench is the set-up of BenchmarkCancel, built once: the built-in
// MQ2008 with 500 depth-2 regression trees (the speed set), the
// problem on train and an evaluator on valid and test, as the workbench
// has them.
var cancelBench = sync.OnceValues(func() (*struct {
	pr   *Problem
	eval Evaluator
}, error) {
	ctx := context.Background()
	var sets [3]*data.Dataset
	for i, name := range []string{"train", "vali", "test"} {
		d, err := data.LoadDataset(ctx, "builtin:mq2008/"+name, data.ReadOptions{})
		if err != nil {
			return nil, err
		}
		sets[i] = d
	}
	p := boost.DefaultParams(boost.Regression)
	p.Trees, p.Grow.MaxDepth, p.Grow.MaxLeaves = 500, 2, 4
	res, err := boost.Train(ctx, sets[0], nil, p, nil)
	if err != nil {
		return nil, err
	}
	costs, err := data.LoadCosts("builtin:mq2008/costs", res.Ensemble.NumFeatures)
	if err != nil {
		return nil, err
	}
	pr, err := NewProblem(res.Ensemble, sets[0], costs.Cost, 1, DefaultTargets())
	if err != nil {
		return nil, err
	}
	treeCost := make([]float64, len(res.Ensemble.Trees))
	for t := range treeCost {
		treeCost[t] = 1
	}
	specs := []metric.Spec{{Name: metric.Precision, K: 5}, {Name: metric.NDCG, K: 10}, {Name: metric.ERR, K: 3}}
	return &struct {
		pr   *Problem
		eval Evaluator
	}{pr, NewEvaluator(res.Ensemble, sets[1], sets[2], costs.Cost, treeCost, specs)}, nil
})

// BenchmarkCancel measures how long Optimize takes to return once its
// context is cancelled: DESIGN.md asks for within one optimisation step,
// well under 100 ms on the built-in data. Each of the b.N runs (the
// default parameters at λ 0.01, 10 cycles, with the workbench's
// evaluation on valid and test after every step) is cancelled at its own
// point, spread evenly over the length of a whole run, initialisation
// included. It reports the mean and the largest latency, and the length
// of the uncancelled run.
func BenchmarkCancel(b *testing.B) {
	fx, err := cancelBench()
	if err != nil {
		b.Fatal(err)
	}
	sc := ComputeScales(fx.pr, 0)
	par := DefaultParams()
	par.Lambda = 0.01
	opt := Options{MaxCycles: 10}
	measureCancel(b, func(ctx context.Context) error {
		_, err := Optimize(ctx, fx.pr, sc, par, opt, fx.eval, func(float64, func() Snapshot) bool { return ctx.Err() == nil })
		return err
	})
}

// BenchmarkOutputsInterrupt measures how long building the tree outputs (the
// set-up of a cascade: NewProblem) takes to return once its context is
// cancelled, on 200,000 documents × 1,000 trees of 32 leaves (as
// BenchmarkNewOutputs). Each run is cancelled at its own point, spread
// evenly over an uncancelled build; it reports the mean and the largest
// latency, and the length of the uncancelled build.
func BenchmarkOutputsInterrupt(b *testing.B) {
	const n, T, F = 200_000, 1000, 46
	rng := rand.New(rand.NewPCG(2012, 15))
	e := outRandomEnsemble(rng, F, slices.Repeat([]int{32}, T)...)
	d := outRandomData(rng, n, F)
	measureCancel(b, func(ctx context.Context) error {
		_, err := NewOutputsContext(ctx, e, d, OutputsAuto)
		return err
	})
}

// measureCancel times run uncancelled, then runs it b.N times, each
// cancelled at its own point spread evenly over that time, and reports the
// mean and the largest time from cancel to return, and the uncancelled
// run's length.
func measureCancel(b *testing.B, run func(ctx context.Context) error) {
	start := time.Now()
	if err := run(context.Background()); err != nil {
		b.Fatal(err)
	}
	whole := time.Since(start)
	b.ResetTimer()
	var lat []time.Duration
	for i := range b.N {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run(ctx) }()
		select {
		case err := <-done: // finished before its point: nothing to measure
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			continue
		case <-time.After(time.Duration(float64(whole) * (float64(i) + 0.5) / float64(b.N))):
		}
		t0 := time.Now()
		cancel()
		err := <-done
		lat = append(lat, time.Since(t0))
		if err != nil && !errors.Is(err, context.Canceled) {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportLatency(b, lat, whole)
}

// reportLatency reports the mean and largest of the latencies, and the
// length of the uncancelled run.
func reportLatency(b *testing.B, lat []time.Duration, whole time.Duration) {
	if len(lat) == 0 {
		return
	}
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	b.ReportMetric(float64(sum.Microseconds())/float64(len(lat))/1000, "mean-ms")
	b.ReportMetric(float64(slices.Max(lat).Microseconds())/1000, "max-ms")
	b.ReportMetric(whole.Seconds(), "run-s")
	b.ReportMetric(0, "ns/op")
}
