package boost

import (
	"math"
	"testing"

	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// expectedSampled is the expectation of sampledRank's gradients over the
// draws, computed directly: every document a draws its partners uniformly
// from the m_a documents with another label, so the pair of a and b has
// weight |ΔNDCG(a, b)|/m_a, where ΔNDCG is measured by swapping the two
// scores and recomputing NDCG over the whole list.
func expectedSampled(scores []float64, labels []float32) (g, h []float64) {
	n := len(labels)
	ndcg := func(s []float64) float64 {
		return metric.Mean(metric.Spec{Name: metric.NDCG}, s, labels, []int{0, n}, metric.Options{})
	}
	g, h = make([]float64, n), make([]float64, n)
	for a := 0; a < n; a++ {
		m := 0
		for b := 0; b < n; b++ {
			if labels[b] != labels[a] {
				m++
			}
		}
		for b := 0; b < n; b++ {
			if labels[b] == labels[a] {
				continue
			}
			hi, lo := a, b
			if labels[b] > labels[a] {
				hi, lo = b, a
			}
			swapped := append([]float64(nil), scores...)
			swapped[hi], swapped[lo] = swapped[lo], swapped[hi]
			w := math.Abs(ndcg(scores)-ndcg(swapped)) / float64(m)
			p := 1 / (1 + math.Exp(scores[lo]-scores[hi]))
			g[hi] += w * (p - 1)
			g[lo] -= w * (p - 1)
			h[hi] += 2 * w * p * (1 - p)
			h[lo] += 2 * w * p * (1 - p)
		}
	}
	return g, h
}

func TestSampledRankExactWhenThereIsOnePartner(t *testing.T) {
	// Each of the two documents has exactly one partner, so every draw is
	// the same pair and the gradients are exact.
	labels := []float32{1, 0}
	scores := []float64{-0.4, 0.9}
	for _, k := range []int{1, 3} {
		o := &sampledRank{k: k, seed: 7, workers: 1}
		gh := make([]tree.GradPair, 2)
		o.gradients(gh, scores, labels, []int{0, 2})
		g, h := expectedSampled(scores, labels)
		for i := range gh {
			if math.Abs(float64(gh[i].G)-g[i]) > 1e-6 || math.Abs(float64(gh[i].H)-h[i]) > 1e-6 {
				t.Errorf("k=%d doc %d: got (%g, %g), want (%g, %g)", k, i, gh[i].G, gh[i].H, g[i], h[i])
			}
		}
	}
}

func TestSampledRankMatchesItsExpectation(t *testing.T) {
	// The second label set's gains 2^label − 1 overflow float64.
	for _, labels := range [][]float32{{0, 2, 1, 0, 1, 3, 0, 2}, {0, 1100, 1099, 0, 1099, 1101, 0, 1100}} {
		sampledRankMatchesItsExpectation(t, labels)
	}
}

func sampledRankMatchesItsExpectation(t *testing.T, labels []float32) {
	scores := []float64{0.3, -0.2, 1.1, 0.05, 0.7, -1.0, 0.4, 0.2}
	const k = 20000
	o := &sampledRank{k: k, seed: 3, workers: 1}
	gh := make([]tree.GradPair, len(labels))
	o.gradients(gh, scores, labels, []int{0, len(labels)})
	g, h := expectedSampled(scores, labels)
	scale := 0.0
	for i := range g {
		scale = max(scale, math.Abs(g[i]), h[i])
	}
	for i := range gh {
		// k draws per anchor: the sampling error is about scale/√k ≈ 0.007·scale.
		if !(math.Abs(float64(gh[i].G)-g[i]) <= 0.03*scale && math.Abs(float64(gh[i].H)-h[i]) <= 0.03*scale) || scale == 0 { // NaN fails
			t.Errorf("labels %v: doc %d: got (%g, %g), expected (%g, %g)", labels, i, gh[i].G, gh[i].H, g[i], h[i])
		}
	}
}

func TestSampledRankDeterministic(t *testing.T) {
	var labels []float32
	var scores []float64
	offsets := []int{0}
	for q := 0; q < 9; q++ {
		for d := 0; d < 5+q; d++ {
			labels = append(labels, float32((q*7+d*3)%4))
			scores = append(scores, math.Sin(float64(q*31+d)))
		}
		offsets = append(offsets, len(labels))
	}
	run := func(workers int, seed uint64, rounds int) []tree.GradPair {
		o := &sampledRank{k: 1, seed: seed, workers: workers}
		gh := make([]tree.GradPair, len(labels))
		for range rounds {
			o.gradients(gh, scores, labels, offsets)
		}
		return gh
	}
	a, b := run(1, 5, 2), run(3, 5, 2)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("doc %d: 1 worker %+v, 3 workers %+v", i, a[i], b[i])
		}
	}
	// Another seed, or another round, draws other partners.
	differs := func(x, y []tree.GradPair) bool {
		for i := range x {
			if x[i] != y[i] {
				return true
			}
		}
		return false
	}
	if !differs(a, run(1, 6, 2)) {
		t.Error("seeds 5 and 6 gave the same gradients")
	}
	if !differs(a, run(1, 5, 1)) {
		t.Error("rounds 1 and 2 gave the same gradients")
	}
}
