package boost_test

import (
	"context"
	"fmt"
	"log"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// ExampleTrain trains LambdaMART on the built-in MQ2008 data with early
// stopping on validation NDCG@10, then goes on from the model it kept with
// 20 trees more (Params.Init, as train --init-model), and scores the test
// set with each.
func ExampleTrain() {
	ctx := context.Background()
	load := func(name string) *data.Dataset {
		d, err := data.LoadDataset(ctx, name, data.ReadOptions{})
		if err != nil {
			log.Fatal(err)
		}
		return d
	}
	train, valid, test := load("builtin:mq2008/train"), load("builtin:mq2008/vali"), load("builtin:mq2008/test")

	p := boost.DefaultParams(boost.LambdaRank)
	p.Trees, p.EarlyStop = 200, 20
	res, err := boost.Train(ctx, train, valid, p, nil)
	if err != nil {
		log.Fatal(err)
	}
	h := res.History
	fmt.Printf("stopped at %d trees, kept the best %d (valid NDCG@10 %.4f)\n", h.StoppedAt, len(res.Ensemble.Trees), h.BestValid)

	p.Init, p.Trees, p.EarlyStop = res.Ensemble, 20, 0
	more, err := boost.Train(ctx, train, valid, p, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range []*boost.Result{res, more} {
		scores := e.Ensemble.Predict(nil, test.Cols, test.NumDocs(), -1)
		fmt.Printf("%d trees: test NDCG@10 %.4f\n", len(e.Ensemble.Trees), metric.Mean(p.Metric, scores, test.Labels, test.QueryOffsets, metric.Options{}))
	}
	// Output:
	// stopped at 30 trees, kept the best 10 (valid NDCG@10 0.5376)
	// 10 trees: test NDCG@10 0.4968
	// 30 trees: test NDCG@10 0.4827
}
