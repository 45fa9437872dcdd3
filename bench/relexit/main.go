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
// scorer (cronus.Score); the tool checks that its own cost accounting
// agrees with the scorer's.
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
	stageCost := stageCosts(e, c, f.FeatureCost, f.TreeCost)
	for _, file := range files {
		d, err := data.ReadFile(context.Background(), file, data.ReadOptions{MinFeatures: e.NumFeatures})
		if err != nil {
			return err
		}
		own := cronus.Score(e, c, d, f.FeatureCost, f.TreeCost)
		if got := meanCost(own.Exit, stageCost); math.Abs(got-own.Cost.Total) > 1e-6*max(1, own.Cost.Total) {
			return fmt.Errorf("%s: cost by exit stage %.6f differs from the scorer's %.6f", file, got, own.Cost.Total)
		}
		exit, score, taus := relative(e, c, d, own.Exit, m)
		key := rankKeys(d.QueryOffsets, exit, score)
		fmt.Printf("%s (%d documents, %d queries)\n", file, d.NumDocs(), d.NumQueries())
		show("  own rule", own.Key, d, meanCost(own.Exit, stageCost), own.Exit, len(c.Stages))
		show("  relative", key, d, meanCost(exit, stageCost), exit, len(c.Stages))
		fmt.Printf("  τ_k:")
		for _, t := range taus {
			fmt.Printf(" %.4g", t)
		}
		fmt.Println()
	}
	return nil
}

func show(name string, key []float64, d *data.Dataset, cost float64, exit []int, K int) {
	fmt.Printf("%s: cost %.1f", name, cost)
	for _, sp := range specs {
		fmt.Printf("  %s %.4f", sp, metric.Mean(sp, key, d.Labels, d.QueryOffsets, metric.Options{}))
	}
	reached := make([]int, K)
	for _, x := range exit {
		for k := 0; k <= x; k++ {
			reached[k]++
		}
	}
	fmt.Printf("  reached")
	for _, r := range reached {
		fmt.Printf(" %.3f", float64(r)/float64(len(exit)))
	}
	fmt.Println()
}

// stageCosts returns, for each stage k, the cost of a document that leaves
// at k: every feature of the trees active in stages 1..k, paid once, and
// every such tree, evaluated once.
func stageCosts(e *tree.Ensemble, c *cronus.Cascade, featCost, treeCost []float64) []float64 {
	paidF := make([]bool, e.NumFeatures)
	paidT := make([]bool, len(e.Trees))
	out := make([]float64, len(c.Stages))
	total := 0.0
	for k := range c.Stages {
		for _, t := range c.Stages[k].Active() {
			if paidT[t] {
				continue
			}
			paidT[t] = true
			total += treeCost[t]
			for _, f := range e.Trees[t].Features() {
				if !paidF[f] {
					paidF[f] = true
					total += featCost[f]
				}
			}
		}
		out[k] = total
	}
	return out
}

func meanCost(exit []int, stageCost []float64) float64 {
	s := 0.0
	for _, x := range exit {
		s += stageCost[x]
	}
	return s / float64(len(exit))
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

// rankKeys ranks within each query by exit stage (later first), then score,
// as the scorer does.
func rankKeys(offsets []int, exit []int, score []float64) []float64 {
	key := make([]float64, len(exit))
	for q := 0; q+1 < len(offsets); q++ {
		lo, hi := offsets[q], offsets[q+1]
		ord := make([]int, hi-lo)
		for j := range ord {
			ord[j] = lo + j
		}
		slices.SortStableFunc(ord, func(a, b int) int {
			if c := cmp.Compare(exit[b], exit[a]); c != 0 {
				return c
			}
			return cmp.Compare(score[b], score[a])
		})
		for r, i := range ord {
			key[i] = float64(len(ord) - 1 - r)
		}
	}
	return key
}
