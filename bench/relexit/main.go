// Command relexit compares a cascade's own exit rule with thresholds
// relative to each query's m-th best score, at the same cost.
//
//	go run ./bench/relexit -cascade C.json DATA...
//
// The issue on cascades names two query-aware exits: never rejecting a
// query's top-m documents at a stage (what `cronus cascade --rule top-m`
// trains for), or thresholds relative to the query's best score. This tool
// measures the second on a cascade trained for the first, without
// re-training: at stage k a document goes on when its stage score is at
// least the query's m-th best stage score (among the documents that reach
// the stage) minus τ_k ≥ 0, so the m best always go on. Each τ_k is set, in
// stage order, so that exactly as many documents of DATA go on as under
// the cascade's own rule. It looks at DATA's scores but not its labels.
// Since a document's cost depends only on the stage it leaves at, both
// rules then cost the same per document, and their P@5, NDCG@10 and ERR@3
// compare the exits alone. The cascade's own figures come from the real
// scorer (cronus.Score); the relative rule's ranking keys, cost and
// reached fractions come from its exits through cronus.ResultOfExits,
// which the tool first checks against the scorer on the scorer's exits.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

var specs = []metric.Spec{{Name: metric.Precision, K: 5}, {Name: metric.NDCG, K: 10}, {Name: metric.ERR, K: 3}}

func main() {
	path := flag.String("cascade", "", "cascade `FILE` (cronus cascade --out)")
	m := flag.Int("m", 0, "the m of the relative rule (default: the cascade's top-m, else 5)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./bench/relexit -cascade FILE [-m M] DATA...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *path == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*path, *m, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "relexit:", err)
		os.Exit(1)
	}
}

func run(path string, m int, files []string) error {
	f, err := cronus.ReadFile(path)
	if err != nil {
		return err
	}
	e, c, err := f.Cascade()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if m == 0 {
		m = 5
		if c.Rule == cronus.RuleTopM {
			m = c.TopM
		}
	}
	if m < 1 {
		return errors.New("-m must be at least 1")
	}
	fmt.Printf("%s: %d stages, rule %s", path, len(c.Stages), c.Rule)
	if c.Rule == cronus.RuleTopM {
		fmt.Printf(" (m %d)", c.TopM)
	}
	fmt.Printf("; relative rule with m %d\n", m)
	treeFeats := make([][]int, len(e.Trees))
	for t := range e.Trees {
		treeFeats[t] = e.Trees[t].Features()
	}
	for _, file := range files {
		d, err := data.ReadFile(context.Background(), file, data.ReadOptions{MinFeatures: e.NumFeatures})
		if err != nil {
			return err
		}
		own := cronus.Score(e, c, d, f.FeatureCost, f.TreeCost)
		ofExits := func(exit []int, score []float64) cronus.Result {
			return cronus.ResultOfExits(c, d.QueryOffsets, exit, score, treeFeats, f.FeatureCost, f.TreeCost)
		}
		if again := ofExits(own.Exit, own.Score); again.Cost != own.Cost || !slices.Equal(again.Key, own.Key) || !slices.Equal(again.Reached, own.Reached) {
			return fmt.Errorf("%s: the result of the scorer's exits differs from the scorer's", file)
		}
		exit, score, taus := relative(e, c, d, own.Exit, m)
		fmt.Printf("%s (%d documents, %d queries)\n", file, d.NumDocs(), d.NumQueries())
		show("  own rule", own, d)
		show("  relative", ofExits(exit, score), d)
		fmt.Printf("  τ_k:")
		for _, t := range taus {
			fmt.Printf(" %.4g", t)
		}
		fmt.Println()
	}
	return nil
}

func show(name string, r cronus.Result, d *data.Dataset) {
	fmt.Printf("%s: cost %.1f", name, r.Cost.Total)
	for _, sp := range specs {
		fmt.Printf("  %s %.4f", sp, metric.Mean(sp, r.Key, d.Labels, d.QueryOffsets, metric.Options{}))
	}
	fmt.Printf("  reached")
	for _, x := range r.Reached {
		fmt.Printf(" %.3f", x)
	}
	fmt.Println()
}

// relative runs d through the cascade with the relative rule, τ_k set stage
// by stage so that as many documents go on past stage k as own says.
func relative(e *tree.Ensemble, c *cronus.Cascade, d *data.Dataset, own []int, m int) (exit []int, score []float64, taus []float64) {
	K, n := len(c.Stages), d.NumDocs()
	o := cronus.NewOutputs(e, d)
	S := make([][]float64, K)
	for k := range c.Stages {
		S[k] = o.Scores(nil, c.Stages[k].Beta)
	}
	exit, score = make([]int, n), make([]float64, n)
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	taus = make([]float64, K-1)
	for k := range K {
		for i := range n {
			if alive[i] {
				exit[i], score[i] = k, S[k][i]
			}
		}
		if k == K-1 {
			break
		}
		want := 0 // documents going on past stage k under the own rule
		for _, x := range own {
			if x > k {
				want++
			}
		}
		// margin: stage score minus the query's m-th best among the alive
		// (+Inf for queries of at most m alive documents: all go on).
		margin := make([]float64, 0, n)
		idx := make([]int, 0, n)
		for q := 0; q+1 < len(d.QueryOffsets); q++ {
			var docs []int
			for i := d.QueryOffsets[q]; i < d.QueryOffsets[q+1]; i++ {
				if alive[i] {
					docs = append(docs, i)
				}
			}
			pivot := math.Inf(-1)
			if len(docs) > m {
				sc := make([]float64, len(docs))
				for j, i := range docs {
					sc[j] = S[k][i]
				}
				slices.SortFunc(sc, func(a, b float64) int { return cmp.Compare(b, a) })
				pivot = sc[m-1]
			}
			for _, i := range docs {
				margin, idx = append(margin, S[k][i]-pivot), append(idx, i)
			}
		}
		sorted := append([]float64(nil), margin...)
		slices.SortFunc(sorted, func(a, b float64) int { return cmp.Compare(b, a) })
		tau := math.Inf(1)
		if want < len(sorted) {
			tau = max(0, -sorted[max(want, 1)-1])
		}
		taus[k] = tau
		for j, i := range idx {
			if !(margin[j] >= -tau) {
				alive[i] = false
			}
		}
	}
	return exit, score, taus
}
