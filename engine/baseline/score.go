package baseline

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// scoreBlock is how many documents are gathered into a row-major buffer at a
// time while trees are added, as in tree.Ensemble.Predict.
const scoreBlock = 128

// scorer holds the running score of every document of a data set while the
// trees of an ensemble are added in order: after advance(k), scores[i] is
// Base plus the values of the first k trees for document i, summed in the
// same order as tree.Ensemble.Predict sums them, so that it is bit for bit
// e.Predict(nil, cols, n, k).
type scorer struct {
	e      *tree.Ensemble
	cols   [][]float32
	scores []float64
	done   int // trees added so far
}

func newScorer(e *tree.Ensemble, d *data.Dataset) *scorer {
	s := &scorer{e: e, cols: d.Cols, scores: make([]float64, d.NumDocs())}
	for i := range s.scores {
		s.scores[i] = e.Base
	}
	return s
}

// advance adds trees s.done..k-1 to the running scores; each tree is
// evaluated once per document, reading the features of those trees only.
// Blocks of documents are spread over all cores; every document's sum is
// computed the same way whatever their number.
func (s *scorer) advance(k int) {
	if k <= s.done {
		return
	}
	trees := s.e.Trees[s.done:k]
	s.done = k
	n, d := len(s.scores), s.e.NumFeatures
	// Only the features these trees split on are gathered: the trees read
	// no other entry of a row, and a few shallow trees split on a few of
	// the features. When they use at most half of them, the trees are
	// renumbered to read a row of those alone (as tree.Ensemble.Predict
	// does): a row of every feature up to a sparse index of 1,000,000 made
	// each worker allocate 512 MB at every prefix, and sweep pass 3 GB
	// resident on 1,000 documents.
	used := tree.SplitFeatures(trees)
	at := used // where each used feature goes in a row
	if ct, cu := tree.CompactFeatures(trees, d); cu != nil {
		trees, d = ct, len(cu)
		at = make([]int, len(cu))
		for c := range at {
			at[c] = c
		}
	}
	blocks := (n + scoreBlock - 1) / scoreBlock
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(min(runtime.GOMAXPROCS(0), blocks), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows := make([]float32, scoreBlock*d)
			leaf := make([]int32, scoreBlock)
			for {
				b := int(next.Add(1)) - 1
				if b >= blocks {
					return
				}
				lo := b * scoreBlock
				hi := min(lo+scoreBlock, n)
				nan := false
				for c, f := range used {
					p := at[c]
					for j, v := range s.cols[f][lo:hi] {
						rows[j*d+p] = v
						nan = nan || v != v
					}
				}
				out := s.scores[lo:hi]
				for t := range trees {
					trees[t].AddBlock(out, leaf, rows, d, nan)
				}
			}
		}()
	}
	wg.Wait()
}

// evaluate returns the mean of every metric over the queries of d and,
// when each is true, its value on each query (the means are the same bits
// either way), ranking each query's documents by scores, keyed by the
// metric's canonical name.
func evaluate(specs []metric.Spec, scores []float64, d *data.Dataset, opt metric.Options, each bool) (means map[string]float64, perQuery map[string][]float64) {
	means = make(map[string]float64, len(specs))
	if !each {
		for _, spec := range specs {
			means[spec.String()] = metric.Mean(spec, scores, d.Labels, d.QueryOffsets, opt)
		}
		return means, nil
	}
	perQuery = make(map[string][]float64, len(specs))
	for _, spec := range specs {
		pq := metric.PerQuery(spec, scores, d.Labels, d.QueryOffsets, opt, nil)
		means[spec.String()], perQuery[spec.String()] = metric.MeanOf(pq), pq
	}
	return means, perQuery
}

// checkArgs panics unless e can score d and featCost and treeCost can price
// it; the name of the caller goes into the message.
func checkArgs(fn string, e *tree.Ensemble, d *data.Dataset, featCost []float64, treeCost float64) {
	if len(d.Cols) < e.NumFeatures {
		panic(fmt.Sprintf("baseline: %s: %s has %d feature columns for a model of %d features", fn, d.Name, len(d.Cols), e.NumFeatures))
	}
	if len(featCost) < e.NumFeatures {
		panic(fmt.Sprintf("baseline: %s: %d feature costs for a model of %d features", fn, len(featCost), e.NumFeatures))
	}
	if !(treeCost >= 0) || math.IsInf(treeCost, 1) {
		panic(fmt.Sprintf("baseline: %s: tree cost %v is not a finite non-negative number", fn, treeCost))
	}
}
