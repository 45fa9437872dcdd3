// Command cutstime times the scoring of every cut of a cascade (its first
// k stages, k = 1 … K, each a cascade of its own) on a data set: in one
// pass over the documents (cronus.EvaluateCuts, what `cronus cascade
// --json`, `sweep --first-stages` and the workbench use) and cut by cut
// (cronus.EvaluateContext of each Cascade.FirstStages(k), as they did
// before), and checks that both give the same figures, bit for bit.
//
//	go run ./bench/cutstime -cascade C.json [-rounds N] DATA
//
// The costs are the cascade file's own (feature_cost, tree_cost), as
// `cronus eval --cascade` takes them. bench/cuts.sh runs it on a `cronus
// gen` set.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
)

func main() {
	cascade := flag.String("cascade", "", "cascade file (cronus cascade --out)")
	rounds := flag.Int("rounds", 3, "timed rounds")
	flag.Parse()
	if *cascade == "" || flag.NArg() != 1 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "usage: cutstime -cascade C.json [-rounds N] DATA")
		os.Exit(2)
	}
	if err := run(*cascade, flag.Arg(0), *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "cutstime:", err)
		os.Exit(1)
	}
}

func run(cascadePath, dataPath string, rounds int) error {
	ctx := context.Background()
	f, err := cronus.ReadFile(cascadePath)
	if err != nil {
		return err
	}
	e, c, err := f.Cascade()
	if err != nil {
		return err
	}
	d, err := data.ReadFile(ctx, dataPath, data.ReadOptions{})
	if err != nil {
		return err
	}
	featCost, treeCost := f.FeatureCost, f.TreeCost
	specs := []metric.Spec{{Name: metric.Precision, K: 5}, {Name: metric.NDCG, K: 10}, {Name: metric.ERR, K: 3}}
	K := len(c.Stages)
	for range rounds {
		start := time.Now()
		cuts, err := cronus.EvaluateCuts(ctx, e, c, d, featCost, treeCost, specs)
		if err != nil {
			return err
		}
		one := time.Since(start)
		start = time.Now()
		apart := make([]cronus.Eval, K)
		for k := 1; k <= K; k++ {
			if apart[k-1], err = cronus.EvaluateContext(ctx, e, c.FirstStages(k), d, featCost, treeCost, specs); err != nil {
				return err
			}
		}
		each := time.Since(start)
		start = time.Now()
		if _, err := cronus.EvaluateContext(ctx, e, c, d, featCost, treeCost, specs); err != nil {
			return err
		}
		whole := time.Since(start)
		if !reflect.DeepEqual(cuts, apart) {
			return fmt.Errorf("the cuts scored in one pass differ from the cuts scored apart")
		}
		fmt.Printf("%d documents, %d stages: one pass %.3f s, cut by cut %.3f s (ratio %.2f), the whole cascade alone %.3f s\n",
			d.NumDocs(), K, one.Seconds(), each.Seconds(), each.Seconds()/one.Seconds(), whole.Seconds())
	}
	return nil
}
