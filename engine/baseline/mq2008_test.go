package baseline

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

var mq2008 struct {
	once  sync.Once
	e     *tree.Ensemble
	test  *data.Dataset
	costs []float64
	err   error
}

// trainedModel is a small regression ensemble (50 trees of 7 leaves)
// trained on the built-in MQ2008 training split, with the test split it is
// evaluated on. Trained once for all tests.
func trainedModel(t *testing.T) (*tree.Ensemble, *data.Dataset) {
	t.Helper()
	mq2008.once.Do(func() {
		ctx := context.Background()
		train, err := data.LoadDataset(ctx, "builtin:mq2008/train", data.ReadOptions{})
		if err != nil {
			mq2008.err = err
			return
		}
		if mq2008.test, err = data.LoadDataset(ctx, "builtin:mq2008/test", data.ReadOptions{}); err != nil {
			mq2008.err = err
			return
		}
		costs, err := data.LoadCosts("builtin:mq2008/costs", 46)
		if err != nil {
			mq2008.err = err
			return
		}
		mq2008.costs = costs.Cost
		p := boost.DefaultParams("regression")
		p.Trees = 50
		p.Grow.MaxLeaves = 7
		r, err := boost.Train(ctx, train, nil, p, nil)
		if err != nil {
			mq2008.err = err
			return
		}
		mq2008.e = r.Ensemble
	})
	if mq2008.err != nil {
		t.Fatal(mq2008.err)
	}
	return mq2008.e, mq2008.test
}

func TestMQ2008(t *testing.T) {
	e, test := trainedModel(t)
	costs := mq2008.costs
	specs := mustSpecs(t, "p@5,ndcg@10,err@3")
	opt := metric.Options{}
	T := len(e.Trees)
	full := e.Predict(nil, test.Cols, test.NumDocs(), -1)
	fullCost := metric.EnsembleCost(e.Features(-1), costs, T, 1)
	fullMetrics := map[string]float64{}
	for _, s := range specs {
		fullMetrics[s.String()] = metric.Mean(s, full, test.Labels, test.QueryOffsets, opt)
	}
	t.Logf("full ensemble: %d trees, cost %+v, %v", T, fullCost, fullMetrics)

	t.Run("prefix", func(t *testing.T) {
		ks := PrefixSteps(T, 12)
		points := noErr(t)(Prefix(context.Background(), e, test, "test", costs, 1, ks, specs, opt))
		last := points[len(points)-1]
		if last.Lambda != float64(T) || last.Cost != fullCost {
			t.Errorf("k=T: λ=%v cost %+v, want %d and %+v", last.Lambda, last.Cost, T, fullCost)
		}
		for name, want := range fullMetrics {
			if last.Metrics[name] != want {
				t.Errorf("k=T: %s = %v, want the full ensemble's %v", name, last.Metrics[name], want)
			}
		}
		for i, p := range points {
			k := ks[i]
			if want := metric.EnsembleCost(e.Features(k), costs, k, 1); p.Cost != want {
				t.Errorf("k=%d: cost %+v, want %+v", k, p.Cost, want)
			}
			if i > 0 && p.Cost.Total < points[i-1].Cost.Total {
				t.Errorf("k=%d: cost %v below k=%d's %v", k, p.Cost.Total, ks[i-1], points[i-1].Cost.Total)
			}
			t.Logf("k=%4d cost %7.2f ndcg@10 %.4f", k, p.Cost.Total, p.Metrics["ndcg@10"])
		}
	})

	t.Run("early exit", func(t *testing.T) {
		// Descending, so that cost must not rise from one to the next.
		scales := []float64{math.Inf(1), 2, 1, 0.5, 0.3, 0.2, 0.1, 0.05, 0.02, 0}
		points := noErr(t)(EarlyExit(context.Background(), e, test, "test", costs, 1, 5, scales, specs, opt))
		inf := points[0]
		checkCost(t, "s=+Inf", inf.Cost, fullCost)
		for name, want := range fullMetrics {
			if inf.Metrics[name] != want {
				t.Errorf("s=+Inf: %s = %v, want the full ensemble's %v", name, inf.Metrics[name], want)
			}
		}
		for i, p := range points {
			t.Logf("s=%-5v cost %7.2f (features %7.2f, trees %5.2f) p@5 %.4f ndcg@10 %.4f err@3 %.4f",
				p.Lambda, p.Cost.Total, p.Cost.Features, p.Cost.Trees, p.Metrics["p@5"], p.Metrics["ndcg@10"], p.Metrics["err@3"])
			if p.Cost.Total > fullCost.Total*(1+1e-12) || p.Cost.Features > fullCost.Features*(1+1e-12) || p.Cost.Trees > fullCost.Trees*(1+1e-12) {
				t.Errorf("s=%v: cost %+v above the full ensemble's %+v", p.Lambda, p.Cost, fullCost)
			}
			if i > 0 && p.Cost.Total > points[i-1].Cost.Total*(1+1e-12) {
				t.Errorf("s=%v: cost %v above s=%v's %v", p.Lambda, p.Cost.Total, points[i-1].Lambda, points[i-1].Cost.Total)
			}
		}
		// s = 0 sends all but five documents of a query out at the first
		// exit, so it costs more than the first 5 trees, and less than all.
		floor := metric.EnsembleCost(e.Features(5), costs, 5, 1)
		if aggressive := points[len(points)-1]; !(aggressive.Cost.Total > floor.Total && aggressive.Cost.Total < fullCost.Total) {
			t.Errorf("s=0: cost %v, want between the first exit's %v and the full %v", aggressive.Cost.Total, floor.Total, fullCost.Total)
		}
	})
}
