package baseline

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// DefaultExitMargins is the grid of early exit's margins s the sweep and the
// workbench use, in raw score units: it suits MQ2008 regression models
// (scores from about −0.1 to 1.2); +Inf is the full ensemble.
var DefaultExitMargins = []float64{0, 0.05, 0.1, 0.2, 0.5, 1, 2, math.Inf(1)}

// DefaultExitEvery is the number of trees between early exits: the Cronus
// paper's "an exit every 10 trees".
const DefaultExitEvery = 10

// exitRank is the rank of the document whose running score the proximity
// threshold is measured from: "the fifth best input" (Chen et al. 2012, §4).
const exitRank = 5

// EarlyExit returns the quality and cost on d of e scored with Cambazoglu
// et al.'s (2010) "early exits using proximity threshold", as the Cronus
// paper runs it (§4, Comparison): one Point per scale s in scales, in that
// order, with Method "early-exit", the given split, Lambda = s and
// PerQuery, each metric on each query of d.
//
// The rule. Let T = len(e.Trees) and M = ⌈T/every⌉ (at least 1). Exit i,
// for i = 1..M−1, comes after the first i·every trees; the end, after tree
// T, is the M-th. At exit i, within each query, take the documents still in
// the ranking, ordered by running score (Base plus the trees so far),
// highest first, equal scores in input order. If fewer than five remain,
// nobody leaves. Otherwise let f be the fifth one's score: every document
// ranked below the fifth whose score r has
//
//	f − r ≥ (M−i)/(M−1) · s
//
// leaves, keeping r as its score. The margin shrinks linearly from s at the
// first exit to s/(M−1) at the last (the paper: an exit every 10 of 5000
// trees, margin (500−i)/499·s). The top five are never removed, so s = 0,
// the most aggressive setting, keeps exactly the top five at the first exit
// and scores only them further; s = +Inf keeps every document to the end
// and is the full ensemble. Negative s would act as s = 0 and is refused.
// every >= T means no exit before the end, so every s gives the full
// ensemble.
//
// Ranking. Within a query, documents still in at the end rank first by their
// final score, then those that left at exit M−1 by the score they left
// with, then exit M−2, and so on; equal scores keep input order. A document
// that left is never ranked above one that stayed longer, whatever the
// scores (its score is for fewer trees, so it is not comparable).
//
// Cost. A document that left at exit i paid for i·every trees (i·every·
// treeCost) and once for every feature those trees split on (featCost[f]); a
// document still in at the end paid for the whole ensemble. Cost is the
// average over the documents of d. With s = +Inf it is
// metric.EnsembleCost(e.Features(-1), featCost, T, treeCost), up to rounding
// in the average.
//
// EarlyExit stops, with ctx's error and no points, at the first exit after
// ctx is done. It panics if every < 1, if a scale is negative or NaN, or on
// the conditions under which Prefix panics.
func EarlyExit(ctx context.Context, e *tree.Ensemble, d *data.Dataset, split string, featCost []float64, treeCost float64, every int, scales []float64, specs []metric.Spec, opt metric.Options) ([]Point, error) {
	checkArgs("EarlyExit", e, d, featCost, treeCost)
	if every < 1 {
		panic(fmt.Sprintf("baseline: EarlyExit: an exit every %d trees", every))
	}
	for _, s := range scales {
		if !(s >= 0) {
			panic(fmt.Sprintf("baseline: EarlyExit: scale %v is negative or NaN", s))
		}
	}
	T := len(e.Trees)
	M := max((T+every-1)/every, 1)
	// levelCost[i] is what a document leaving at exit i paid; level M is the
	// end.
	levelCost := make([]metric.Cost, M+1)
	for i := 1; i <= M; i++ {
		k := min(i*every, T)
		levelCost[i] = metric.EnsembleCost(e.Features(k), featCost, k, treeCost)
	}
	states, err := runExits(ctx, e, d, every, scales)
	if err != nil {
		return nil, err
	}

	n := d.NumDocs()
	points := make([]Point, len(scales))
	rank := make([]float64, n)
	var idx []int
	for j, st := range states {
		counts := make([]int, M+1)
		for _, l := range st.level {
			counts[l]++
		}
		idx = st.rankScores(rank, d.QueryOffsets, idx)
		m, pq := evaluate(specs, rank, d, opt, true)
		points[j] = Point{
			Method:   MethodEarlyExit,
			Split:    split,
			Lambda:   st.s,
			Cost:     averageCost(levelCost, counts, n),
			Metrics:  m,
			PerQuery: pq,
		}
	}
	return points, nil
}

// runExits scores the documents of d with e, exiting every `every` trees
// as EarlyExit describes, and returns one finished state per scale: every
// document's level is set (M for those still in at the end) and its score
// is the one it left with, or its final score. It stops, with ctx's error,
// at the first exit after ctx is done.
func runExits(ctx context.Context, e *tree.Ensemble, d *data.Dataset, every int, scales []float64) ([]*exitState, error) {
	T := len(e.Trees)
	M := max((T+every-1)/every, 1)
	n := d.NumDocs()
	states := make([]*exitState, len(scales))
	for j, s := range scales {
		states[j] = &exitState{s: s, level: make([]int32, n), score: make([]float64, n)}
	}
	sc := newScorer(e, d)
	for i := 1; i < M; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sc.advance(i * every)
		frac := float64(M-i) / float64(M-1)
		var wg sync.WaitGroup
		for _, st := range states {
			if math.IsInf(st.s, 1) {
				continue
			}
			wg.Go(func() { st.exit(sc.scores, d.QueryOffsets, frac*st.s, int32(i)) })
		}
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sc.advance(T)
	for _, st := range states {
		for i, l := range st.level {
			if l == 0 {
				st.level[i], st.score[i] = int32(M), sc.scores[i]
			}
		}
	}
	return states, nil
}

// exitState is the progress of one scale through the exits.
type exitState struct {
	s     float64
	level []int32   // exit at which each document left; 0 while it is in
	score []float64 // the running score it left with
}

// exit applies exit number level with margin thr to every query.
func (st *exitState) exit(scores []float64, offsets []int, thr float64, level int32) {
	for q := range len(offsets) - 1 {
		lo, hi := offsets[q], offsets[q+1]
		// The top five of the documents still in, best first. Documents
		// come in input order, so a later one displaces an earlier one only
		// with a strictly higher score.
		var top [exitRank]int
		nt := 0
		for i := lo; i < hi; i++ {
			if st.level[i] != 0 {
				continue
			}
			if nt == exitRank && cmp.Compare(scores[i], scores[top[nt-1]]) <= 0 {
				continue
			}
			p := min(nt, exitRank-1)
			for p > 0 && cmp.Compare(scores[i], scores[top[p-1]]) > 0 {
				top[p] = top[p-1]
				p--
			}
			top[p] = i
			nt = min(nt+1, exitRank)
		}
		if nt < exitRank {
			continue
		}
		fifth := scores[top[exitRank-1]]
	docs:
		for i := lo; i < hi; i++ {
			if st.level[i] != 0 || !(fifth-scores[i] >= thr) {
				continue
			}
			for _, t := range top {
				if t == i {
					continue docs
				}
			}
			st.level[i], st.score[i] = level, scores[i]
		}
	}
}

// rankScores writes into dst, for every query, scores whose ranking (highest
// first, as package metric ranks) is the early-exit ranking: by exit level,
// later first, then by the score at exit, then by input order. idx is
// scratch space, returned for reuse.
func (st *exitState) rankScores(dst []float64, offsets []int, idx []int) []int {
	for q := range len(offsets) - 1 {
		lo, hi := offsets[q], offsets[q+1]
		idx = idx[:0]
		for i := lo; i < hi; i++ {
			idx = append(idx, i)
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			if c := cmp.Compare(st.level[b], st.level[a]); c != 0 {
				return c
			}
			return cmp.Compare(st.score[b], st.score[a])
		})
		for p, i := range idx {
			dst[i] = float64(hi - lo - p)
		}
	}
	return idx
}

// averageCost is the mean cost of n documents of which counts[i] paid
// levelCost[i]. With no documents it is the cost of the full ensemble.
func averageCost(levelCost []metric.Cost, counts []int, n int) metric.Cost {
	if n == 0 {
		return levelCost[len(levelCost)-1]
	}
	var c metric.Cost
	for i, k := range counts {
		c.Features += float64(k) * levelCost[i].Features
		c.Trees += float64(k) * levelCost[i].Trees
	}
	c.Features /= float64(n)
	c.Trees /= float64(n)
	c.Total = c.Features + c.Trees
	return c
}
