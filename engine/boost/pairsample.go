package boost

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// sampledRank is LambdaMART with sampled pairs, as XGBoost 1.7 computes
// rank:ndcg: for every document, k partners are drawn uniformly from the
// documents of its query with another label; each pair (hi, lo) weighs
// |ΔNDCG| of swapping the two at their places in the current ranking (the
// ideal DCG taken over the whole list) divided by k, and adds
// g = w·(p − 1), h = 2·w·max(p(1 − p), 1e-16) with p = 1/(1 + exp(s_lo − s_hi))
// to hi (and −g, h to lo). The draws depend on the seed, the round and the
// query only, so the gradients do not depend on the number of workers.
type sampledRank struct {
	k       int
	seed    uint64
	workers int
	done    <-chan struct{} // closed: stop (newObjective)

	round       uint64
	queryTables            // the ideal DCG over the whole list
	byLabel     []labelled // each query's documents by descending label, ties in index order
}

func (*sampledRank) base([]float32) float64 { return 0 }

func (o *sampledRank) gradients(gh []tree.GradPair, scores []float64, labels []float32, offsets []int) {
	if o.update(labels, offsets, math.MaxInt) {
		o.byLabel = make([]labelled, len(labels))
		for q := 0; q+1 < len(offsets); q++ {
			lo, hi := offsets[q], offsets[q+1]
			byLabel := o.byLabel[lo:hi]
			for i, l := range labels[lo:hi] {
				byLabel[i] = labelled{l, int32(i)}
			}
			slices.SortFunc(byLabel, func(a, b labelled) int {
				if c := cmp.Compare(b.l, a.l); c != 0 {
					return c
				}
				return cmp.Compare(a.i, b.i)
			})
		}
	}
	o.round++
	eachQuery(o.workers, len(offsets)-1, o.done, func(q int, sc *sampleScratch) {
		lo, hi := offsets[q], offsets[q+1]
		if sc.rng == nil {
			sc.rng = rand.New(&sc.pcg)
		}
		sc.pcg.Seed(o.seed^0x7861_6d70_6c65_7273, o.round<<32|uint64(q))
		o.query(gh[lo:hi], scores[lo:hi], labels[lo:hi], o.gains[lo:hi], o.byLabel[lo:hi], o.ranks[lo:hi], o.invIDCG[q], sc.rng, sc)
	})
}

// MaxPairSample is the most partners drawn per document: XGBoost's
// rank:ndcg draws 1, and beyond a thousand a round costs seconds for no
// gain over all pairs (--pair-sample 0); 2·10^9 ran for minutes a round.
const MaxPairSample = 1000

// labelled is a document's label and its place in the query.
type labelled struct {
	l float32
	i int32
}

// sampleScratch is one worker's reusable memory, its generator included
// (re-seeded for every query and round).
type sampleScratch struct {
	docs       []rankedDoc
	g, h, disc []float64
	pcg        rand.PCG
	rng        *rand.Rand
}

// query computes the gradients of one query from its scores s, labels,
// gains, documents by label, last ranking (byRank's prev) and 1/maxDCG inv.
func (o *sampledRank) query(gh []tree.GradPair, s []float64, labels []float32, gain []float64, byLabel []labelled, ranks []int32, inv float64, rng *rand.Rand, sc *sampleScratch) {
	n := len(s)
	g, h := grow(sc.g, n), grow(sc.h, n)
	sc.g, sc.h = g, h
	defer storePairs(gh, g, h)
	if inv == 0 || n < 2 {
		return
	}
	// Each document's discount at its current rank, computed once per
	// query instead of once per sampled pair.
	docs := byRank(sc.docs, s, labels, gain, ranks)
	disc := grow(sc.disc, n)
	sc.docs, sc.disc = docs, disc
	for r, d := range docs {
		disc[d.i] = o.disc[r]
	}
	scale := 1 / float64(o.k)
	for i := 0; i < n; {
		j := i
		for j < n && byLabel[j].l == byLabel[i].l {
			j++
		}
		others := i + n - j // documents with a higher label, then a lower one
		if others > 0 {
			for range o.k {
				for a := i; a < j; a++ {
					r := rng.IntN(others)
					hi, lo := byLabel[a].i, int32(0)
					if r < i {
						hi, lo = byLabel[r].i, byLabel[a].i
					} else {
						lo = byLabel[r+j-i].i
					}
					delta := math.Abs((gain[hi] - gain[lo]) * (disc[hi] - disc[lo]) * inv)
					p := 1 / (1 + math.Exp(s[lo]-s[hi]))
					w := delta * scale
					gr, he := w*(p-1), 2*w*max(p*(1-p), 1e-16)
					g[hi] += gr
					h[hi] += he
					g[lo] -= gr
					h[lo] += he
				}
			}
		}
		i = j
	}
}
