package cronus_test

import (
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// Example is the whole workflow as a library: train a base ensemble of
// shallow trees on the built-in MQ2008 data, optimise a three-stage cascade
// of it under the feature costs, and run the test documents through the
// cascade as a search engine would, each paying for the features and trees
// it evaluates before it leaves.
func Example() {
	ctx := context.Background()
	load := func(name string) *data.Dataset {
		d, err := data.LoadDataset(ctx, name, data.ReadOptions{})
		if err != nil {
			log.Fatal(err)
		}
		return d
	}
	train, valid, test := load("builtin:mq2008/train"), load("builtin:mq2008/vali"), load("builtin:mq2008/test")
	costs, err := data.LoadCosts("builtin:mq2008/costs", train.NumFeatures())
	if err != nil {
		log.Fatal(err)
	}

	// A base ensemble of depth-2 trees, each paying for few features.
	p := boost.DefaultParams(boost.Regression)
	p.Trees, p.Grow.MaxLeaves, p.Grow.MaxDepth = 40, 4, 2
	res, err := boost.Train(ctx, train, valid, p, nil)
	if err != nil {
		log.Fatal(err)
	}
	e := res.Ensemble
	treeCost := slices.Repeat([]float64{1}, len(e.Trees)) // e_t = 1 per tree

	// The cascade: three stages at λ = 0.05 λ_max, the best on validation
	// NDCG@10 over two cycles of the optimisation.
	pr, err := cronus.NewProblem(e, train, costs.Cost, 1, cronus.DefaultTargets())
	if err != nil {
		log.Fatal(err)
	}
	sc := cronus.ComputeScales(pr, 0)
	par := cronus.DefaultParams()
	par.K, par.Lambda = 3, 0.05
	ndcg := metric.Spec{Name: metric.NDCG, K: 10}
	eval := cronus.NewEvaluator(e, valid, nil, costs.Cost, treeCost, []metric.Spec{ndcg})
	out, err := cronus.Optimize(ctx, pr, sc, par, cronus.Options{MaxCycles: 2}, eval, nil)
	if err != nil {
		log.Fatal(err)
	}
	c := &out.Best.Cascade

	// The test documents through the cascade, and the full ensemble's
	// cost for comparison.
	r := cronus.Score(e, c, test, costs.Cost, treeCost)
	full := metric.EnsembleCost(e.Features(-1), costs.Cost, len(e.Trees), 1)
	fmt.Printf("%d stages; test documents reaching each: %.2f\n", len(c.Stages), r.Reached)
	fmt.Printf("cost per document %.1f of the full ensemble's %.1f\n", r.Cost.Total, full.Total)
	all := e.Predict(nil, test.Cols, test.NumDocs(), -1)
	fmt.Printf("test NDCG@10 %.3f, the full ensemble's %.3f\n",
		metric.Mean(ndcg, r.Key, test.Labels, test.QueryOffsets, metric.Options{}),
		metric.Mean(ndcg, all, test.Labels, test.QueryOffsets, metric.Options{}))
	// Output:
	// 3 stages; test documents reaching each: [1.00 0.64 0.64]
	// cost per document 359.6 of the full ensemble's 959.0
	// test NDCG@10 0.497, the full ensemble's 0.497
}
