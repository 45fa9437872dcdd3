package boost

import (
	"math/rand/v2"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// BenchmarkLambdaGradients is one round of lambdarank gradients on the
// shape of the speed bench's set (bench/train.sh speed-rank): 1,600
// queries of 125 documents, labels 0-4, random scores; all pairs (the
// default) and one sampled partner per document (--pair-sample 1). The
// rounds alternate between two sets of scores a tree's small step apart
// (0.1 × N(0, 0.1) each), as in training, where each query's ranking
// changes little from one round to the next.
func BenchmarkLambdaGradients(b *testing.B) {
	const nq, per = 1600, 125
	r := rand.New(rand.NewPCG(3, 3))
	labels := make([]float32, nq*per)
	scores := make([]float64, nq*per)
	offsets := make([]int, nq+1)
	for q := range nq {
		offsets[q+1] = (q + 1) * per
	}
	next := make([]float64, nq*per)
	for i := range labels {
		labels[i] = float32(r.IntN(5))
		scores[i] = r.NormFloat64()
		next[i] = scores[i] + 0.01*r.NormFloat64()
	}
	rounds := [2][]float64{scores, next}
	gh := make([]tree.GradPair, len(labels))
	for _, c := range []struct {
		name string
		k    int
	}{{"all-pairs", 0}, {"pair-sample-1", 1}} {
		b.Run(c.name, func(b *testing.B) {
			p := DefaultParams(LambdaRank)
			p.PairSample = c.k
			o, err := newObjective(p, nil)
			if err != nil {
				b.Fatal(err)
			}
			k := 0
			for b.Loop() {
				o.gradients(gh, rounds[k%2], labels, offsets)
				k++
			}
		})
	}
}
