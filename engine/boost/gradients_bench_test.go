package boost

import (
	"math/rand/v2"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// BenchmarkLambdaGradients is one round of lambdarank gradients on the
// shape of the speed bench's set (bench/train.sh speed-rank): 1,600
// queries of 125 documents, labels 0-4, random scores; all pairs (the
// default) and one sampled partner per document (--pair-sample 1).
func BenchmarkLambdaGradients(b *testing.B) {
	const nq, per = 1600, 125
	r := rand.New(rand.NewPCG(3, 3))
	labels := make([]float32, nq*per)
	scores := make([]float64, nq*per)
	offsets := make([]int, nq+1)
	for q := range nq {
		offsets[q+1] = (q + 1) * per
	}
	for i := range labels {
		labels[i] = float32(r.IntN(5))
		scores[i] = r.NormFloat64()
	}
	gh := make([]tree.GradPair, len(labels))
	for _, c := range []struct {
		name string
		k    int
	}{{"all-pairs", 0}, {"pair-sample-1", 1}} {
		b.Run(c.name, func(b *testing.B) {
			p := DefaultParams(LambdaRank)
			p.PairSample = c.k
			o, err := newObjective(p)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				o.gradients(gh, scores, labels, offsets)
			}
		})
	}
}
