package cronus

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Result is what scoring a data set with a cascade gives.
type Result struct {
	// Key ranks the documents of a query in the cascade's order: documents
	// that went further come first, then, among those that left at the same
	// stage, the higher score at that stage, then input order. Key[i] is the
	// number of documents of i's query that come after it (so n−1 for the
	// first of a query of n documents, 0 for the last): sorting a query by
	// Key, highest first, gives exactly that order, with no ties and no
	// rounding. Keys of different queries are not comparable.
	Key []float64
	// Exit is the 0-based stage at which each document left (K−1 for those
	// that reached the last stage).
	Exit []int
	// Score is each document's score at its exit stage.
	Score []float64
	// Reached is, per stage, the fraction of documents that reached it
	// (Reached[0] = 1; all 0 when there are no documents).
	Reached []float64
	// FeatureCost and TreeCost are what each document paid for features
	// and for trees.
	FeatureCost, TreeCost []float64
	// Cost is the average cost per document.
	Cost metric.Cost
}

// Score runs every document of d through cascade c over ensemble e, as a
// search engine would, and returns where each one left, its ranking key
// and what it cost.
//
// Stage by stage, a document evaluates those of the stage's active trees
// (non-zero weight) it has not evaluated at an earlier stage, walking each
// on its feature values and paying e_t = treeCost[t] for it, and pays
// c_α = featCost[α] for every feature of such a tree it has not paid for
// yet: an engine extracts the features a tree may need before evaluating
// it, which is the paper's F_{αt} (eq 1). The stage score
// intercept + Σ_t β_t h_t(x) is accumulated from the tree outputs the
// document already knows (the per-stage accumulators of the paper's
// footnote 5), in ascending tree order. A document leaves at stage k < K−1
// when Cascade.Passes says it does not go on, except that under RuleTopM
// the TopM best documents of its query among those at stage k (by stage-k
// score, ties in input order) always go on.
//
// A document's cost is the sum of the costs it paid, summed in ascending
// feature and tree order once it leaves, so that the same set of features
// and trees always costs the same float64; the averages are the correctly
// rounded means over the documents. The result therefore depends neither
// on the number of goroutines nor on the order of the documents, and a
// cost paid by every document averages to exactly itself.
//
// A tree's output h_t(x) is its leaf value rounded to float32, exactly as
// the optimiser's tree-output matrix (Outputs) holds it, and stage scores
// are summed in the same order as Outputs.Scores sums them: the stages
// were fitted, and their thresholds set, on those numbers, so a document
// leaves here where the optimiser's hard exits say it leaves, even when its
// score equals a threshold. A single stage of all trees with weight 1 and
// intercept e.Base therefore scores as e.Predict up to that rounding
// (about 1e-7 relative to the leaf values), and exactly when the leaf
// values are float32 numbers.
//
// Queries are scored in parallel on GOMAXPROCS goroutines; each goroutine
// allocates its scratch space once. featCost must have at least
// e.NumFeatures entries and treeCost one per tree; every stage's Beta must
// have len(e.Trees)+1 entries. Features beyond d's columns read as 0.
// Score panics when these do not hold.
func Score(e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64) Result {
	res, _ := ScoreContext(context.Background(), e, c, d, featCost, treeCost)
	return res
}

// ScoreContext is Score that stops, within a query on each core, when ctx
// is done, and then returns ctx's error with a Result of no use.
func ScoreContext(ctx context.Context, e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64) (Result, error) {
	checkScoreArgs(c, len(e.Trees), e.NumFeatures, featCost, treeCost, "Score")
	return score(ctx, e, c, d, featCost, treeCost, nil)
}

// stageRecord is, per stage k < K−1 and document i that reached it, the
// document's stage-k score and what it had paid by the end of stage k, for
// features and for trees (ScoreCuts).
type stageRecord struct {
	score, feat, trees [][]float64
}

// ScoreCuts scores d with every cut of cascade c at once: cuts[k−1] is
// what ScoreContext gives for c.FirstStages(k), k = 1 … K (cuts[K−1] is
// c's own Result), bit for bit, from one pass over the documents. A
// document that leaves c at stage j < k leaves the cut there too, with
// the same score and cost; one that reaches stage k leaves the cut at it,
// with its stage-k score and what it had paid by then, summed as Score
// sums it. It panics as Score does.
func ScoreCuts(ctx context.Context, e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64) ([]Result, error) {
	checkScoreArgs(c, len(e.Trees), e.NumFeatures, featCost, treeCost, "ScoreCuts")
	K, n := len(c.Stages), d.NumDocs()
	// The last stage's figures are the documents' own exits: no record.
	rec := &stageRecord{score: make([][]float64, K-1), feat: make([][]float64, K-1), trees: make([][]float64, K-1)}
	for k := range K - 1 {
		rec.score[k], rec.feat[k], rec.trees[k] = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	whole, err := score(ctx, e, c, d, featCost, treeCost, rec)
	if err != nil {
		return nil, err
	}
	cuts := make([]Result, K)
	cuts[K-1] = whole
	offsets := d.QueryOffsets
	maxDocs := 0
	for q := range len(offsets) - 1 {
		maxDocs = max(maxDocs, offsets[q+1]-offsets[q])
	}
	rs := newRankScratch(maxDocs)
	for k := range K - 1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := Result{
			Key:         make([]float64, n),
			Exit:        make([]int, n),
			Score:       make([]float64, n),
			Reached:     make([]float64, k+1),
			FeatureCost: make([]float64, n),
			TreeCost:    make([]float64, n),
		}
		for i, j := range whole.Exit {
			if j < k {
				r.Exit[i], r.Score[i], r.FeatureCost[i], r.TreeCost[i] = j, whole.Score[i], whole.FeatureCost[i], whole.TreeCost[i]
			} else {
				r.Exit[i], r.Score[i], r.FeatureCost[i], r.TreeCost[i] = k, rec.score[k][i], rec.feat[k][i], rec.trees[k][i]
			}
		}
		for q := range len(offsets) - 1 {
			lo, hi := offsets[q], offsets[q+1]
			rs.order(r.Key[lo:hi], r.Exit[lo:hi], r.Score[lo:hi])
		}
		if n > 0 {
			r.Cost = averageCost(r.FeatureCost, r.TreeCost)
			reachedFractions(r.Reached, r.Exit)
		}
		cuts[k] = r
	}
	return cuts, nil
}

// score is ScoreContext, also filling rec when it is not nil.
func score(ctx context.Context, e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64, rec *stageRecord) (Result, error) {
	F := e.NumFeatures
	n := d.NumDocs()
	K := len(c.Stages)
	res := Result{
		Key:         make([]float64, n),
		Exit:        make([]int, n),
		Score:       make([]float64, n),
		Reached:     make([]float64, K),
		FeatureCost: make([]float64, n),
		TreeCost:    make([]float64, n),
	}
	if n == 0 {
		return res, ctx.Err()
	}
	plan := newScorePlan(e, c)
	cols := d.PaddedCols(F)
	offsets := d.QueryOffsets
	nq := len(offsets) - 1
	maxDocs := 0
	for q := range nq {
		maxDocs = max(maxDocs, offsets[q+1]-offsets[q])
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), nq)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := plan.newWorker(maxDocs)
			for {
				q := int(next.Add(1)) - 1
				if q >= nq || ctx.Err() != nil {
					return
				}
				w.query(q, offsets[q], offsets[q+1], cols, featCost, treeCost, &res, rec)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	res.Cost = averageCost(res.FeatureCost, res.TreeCost)
	reachedFractions(res.Reached, res.Exit)
	return res, nil
}

// checkScoreArgs panics when the cascade or the cost slices do not fit an
// ensemble of T trees over F features.
func checkScoreArgs(c *Cascade, T, F int, featCost, treeCost []float64, fn string) {
	if len(c.Stages) == 0 {
		panic(fmt.Sprintf("cronus: %s: the cascade has no stages", fn))
	}
	for k := range c.Stages {
		if len(c.Stages[k].Beta) != T+1 {
			panic(fmt.Sprintf("cronus: %s: stage %d has %d weights for %d trees and the intercept", fn, k, len(c.Stages[k].Beta), T))
		}
	}
	switch c.Rule {
	case "", RuleGlobal, RuleTopM:
	default:
		panic(fmt.Sprintf("cronus: %s: unknown exit rule %q", fn, c.Rule))
	}
	if c.TopM < 0 {
		panic(fmt.Sprintf("cronus: %s: TopM is %d", fn, c.TopM))
	}
	if len(featCost) < F {
		panic(fmt.Sprintf("cronus: %s: %d feature costs for a model of %d features", fn, len(featCost), F))
	}
	if len(treeCost) != T {
		panic(fmt.Sprintf("cronus: %s: %d tree costs for %d trees", fn, len(treeCost), T))
	}
}

// scorePlan is what Score derives from the cascade once: the active trees
// of every stage, the features of every tree, and a compact numbering of
// the trees any stage uses (so that per-document scratch holds only those).
type scorePlan struct {
	e      *tree.Ensemble
	c      *Cascade
	active [][]int32 // per stage: active trees, ascending
	used   []int32   // trees active in some stage, ascending
	slot   []int32   // tree → its position in used (−1 when unused)
	feats  [][]int32 // per tree in used order: the features it splits on, ascending, as positions in paidFeats
	// paidFeats are the features some used tree splits on, ascending: the
	// per-document scratch and the cost sums run over these alone (a
	// model of 200,000 features, one stray index wide, whose trees use
	// 46, summed 200,000 flags per document).
	paidFeats []int32
}

func newScorePlan(e *tree.Ensemble, c *Cascade) *scorePlan {
	T := len(e.Trees)
	p := &scorePlan{e: e, c: c, active: make([][]int32, len(c.Stages)), slot: make([]int32, T)}
	for t := range p.slot {
		p.slot[t] = -1
	}
	nact := 0
	for k := range c.Stages {
		for _, b := range c.Stages[k].Beta[:T] {
			if b != 0 {
				nact++
			}
		}
	}
	act := make([]int32, 0, nact)
	for k := range c.Stages {
		lo := len(act)
		for t, b := range c.Stages[k].Beta[:T] {
			if b != 0 {
				act = append(act, int32(t))
				p.slot[t] = 0
			}
		}
		p.active[k] = act[lo:len(act):len(act)]
	}
	// The features of each used tree, ascending, in one backing array.
	seen := make([]int32, e.NumFeatures)
	var fs []int32
	var ends []int
	for t := range p.slot {
		if p.slot[t] < 0 {
			continue
		}
		p.slot[t] = int32(len(p.used))
		p.used = append(p.used, int32(t))
		lo := len(fs)
		for _, nd := range e.Trees[t].Nodes {
			if seen[nd.Feature] != int32(t+1) {
				seen[nd.Feature] = int32(t + 1)
				fs = append(fs, nd.Feature)
			}
		}
		slices.Sort(fs[lo:])
		ends = append(ends, len(fs))
	}
	p.feats = make([][]int32, len(p.used))
	lo := 0
	for u, hi := range ends {
		p.feats[u] = fs[lo:hi:hi]
		lo = hi
	}
	// Number the features by their place among those used, which keeps
	// their order, and so the order of the cost sums.
	p.paidFeats = slices.Clone(fs)
	slices.Sort(p.paidFeats)
	p.paidFeats = slices.Compact(p.paidFeats)
	for i, f := range fs {
		c, _ := slices.BinarySearch(p.paidFeats, f)
		fs[i] = int32(c)
	}
	return p
}

// scoreWorker is one goroutine's scratch space for the documents of one
// query: for local document j, done[j*U+u] and paid[j*F+c] equal the
// current stamp when used tree u has been evaluated (its output in
// h[j*U+u]) and feature paidFeats[c] paid for.
type scoreWorker struct {
	*scorePlan
	nf    int // features per document in paid: len(paidFeats)
	stamp int32
	done  []int32
	h     []float64
	paid  []int32
	alive []int32
	rank  rankScratch
}

func (p *scorePlan) newWorker(maxDocs int) *scoreWorker {
	U, F := len(p.used), len(p.paidFeats)
	return &scoreWorker{
		scorePlan: p,
		nf:        F,
		done:      make([]int32, maxDocs*U),
		h:         make([]float64, maxDocs*U),
		paid:      make([]int32, maxDocs*F),
		alive:     make([]int32, 0, maxDocs),
		rank:      newRankScratch(maxDocs),
	}
}

// query scores documents lo..hi-1, one query, writing their results and
// costs in place, and into rec (when not nil) each stage's scores and
// costs so far.
func (w *scoreWorker) query(q, lo, hi int, cols [][]float32, featCost, treeCost []float64, res *Result, rec *stageRecord) {
	// Query q's stamp: slots of earlier queries hold other stamps, so the
	// scratch never needs clearing.
	w.stamp = int32(q + 1)
	n, U, F := hi-lo, len(w.used), w.nf
	score, exit := res.Score[lo:hi], res.Exit[lo:hi]
	alive := w.alive[:n]
	for j := range alive {
		alive[j] = int32(j)
	}
	K := len(w.c.Stages)
	for k := 0; k < K && len(alive) > 0; k++ {
		beta := w.c.Stages[k].Beta
		act := w.active[k]
		for _, j := range alive {
			i := lo + int(j)
			done := w.done[int(j)*U : int(j+1)*U]
			h := w.h[int(j)*U : int(j+1)*U]
			paid := w.paid[int(j)*F : int(j+1)*F]
			s := beta[len(beta)-1]
			for _, t := range act {
				u := w.slot[t]
				if done[u] != w.stamp {
					done[u] = w.stamp
					for _, f := range w.feats[u] {
						paid[f] = w.stamp
					}
					h[u] = walkCols(&w.e.Trees[t], cols, i)
				}
				s += float64(beta[t] * h[u]) // rounded as Outputs.Scores rounds (no fused multiply-add)
			}
			score[j] = s
		}
		recorded := rec != nil && k < K-1
		if recorded {
			for _, j := range alive {
				i := lo + int(j)
				rec.score[k][i] = score[j]
				rec.feat[k][i], rec.trees[k][i] = w.paidCost(int(j), U, F, featCost, treeCost)
			}
		}
		next := advance(w.c, k, alive, score, &w.rank)
		for _, j := range alive[len(next):] {
			exit[j] = k
			i := lo + int(j)
			if recorded { // what it paid is summed already
				res.FeatureCost[i], res.TreeCost[i] = rec.feat[k][i], rec.trees[k][i]
			} else {
				res.FeatureCost[i], res.TreeCost[i] = w.paidCost(int(j), U, F, featCost, treeCost)
			}
		}
		alive = next
	}
	w.rank.order(res.Key[lo:hi], exit, score)
}

// paidCost returns what local document j paid for features and for trees,
// each summed in ascending order.
func (w *scoreWorker) paidCost(j, U, F int, featCost, treeCost []float64) (feat, trees float64) {
	for c, s := range w.paid[j*F : (j+1)*F] {
		if s == w.stamp {
			feat += featCost[w.paidFeats[c]]
		}
	}
	for u, s := range w.done[j*U : (j+1)*U] {
		if s == w.stamp {
			trees += treeCost[w.used[u]]
		}
	}
	return feat, trees
}

// walkCols returns the output of tree t for document i of the
// column-major features cols: its leaf value rounded to float32, as
// NewOutputs stores it. The walk is tree.Tree.LeafIndex's.
func walkCols(t *tree.Tree, cols [][]float32, i int) float64 {
	if len(t.Nodes) == 0 {
		return float64(float32(t.Leaves[0]))
	}
	n := int32(0)
	for n >= 0 {
		nd := &t.Nodes[n]
		v := cols[nd.Feature][i]
		if v <= nd.Threshold || (nd.DefaultLeft && v != v) {
			n = nd.Left
		} else {
			n = nd.Right
		}
	}
	return float64(float32(t.Leaves[^n]))
}

// advance applies the exit rule of stage k to the documents alive there
// (query-local indices, ascending) whose stage-k scores are s[j]. It
// returns the documents that go on, compacted at the front of alive in
// their order, followed in alive by those that leave.
func advance(c *Cascade, k int, alive []int32, s []float64, rs *rankScratch) []int32 {
	if k == len(c.Stages)-1 {
		return alive[:0]
	}
	// Under RuleTopM the documents that rank at or above the TopM-th best
	// (pivot) always go on.
	pivot := int32(-1)
	if c.Rule == RuleTopM && c.TopM > 0 {
		if len(alive) <= c.TopM {
			return alive
		}
		ord := rs.ord[:len(alive)]
		copy(ord, alive)
		slices.SortFunc(ord, func(a, b int32) int { return byScore(s, a, b) })
		pivot = ord[c.TopM-1]
	}
	// Stable partition: goers to the front, leavers after them, each in
	// input order.
	leave := rs.ord[:0]
	m := 0
	for _, j := range alive {
		if c.Passes(k, s[j]) || pivot >= 0 && byScore(s, j, pivot) <= 0 {
			alive[m] = j
			m++
		} else {
			leave = append(leave, j)
		}
	}
	copy(alive[m:], leave)
	return alive[:m]
}

// byScore orders local documents a and b by score, highest first (NaN
// last), then in input order.
func byScore(s []float64, a, b int32) int {
	if c := cmp.Compare(s[b], s[a]); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// rankScratch is scratch space for ordering the documents of one query.
type rankScratch struct {
	ord []int32
}

func newRankScratch(maxDocs int) rankScratch {
	return rankScratch{ord: make([]int32, 0, maxDocs)}
}

// order writes the ranking keys of one query (see Result.Key) from its
// documents' exit stages and exit scores.
func (rs *rankScratch) order(key []float64, exit []int, score []float64) {
	ord := rs.ord[:len(key)]
	for j := range ord {
		ord[j] = int32(j)
	}
	slices.SortFunc(ord, func(a, b int32) int {
		if c := cmp.Compare(exit[b], exit[a]); c != 0 {
			return c
		}
		return byScore(score, a, b)
	})
	for r, j := range ord {
		key[j] = float64(len(ord) - 1 - r)
	}
}

// averageCost returns the mean cost per document from each document's
// feature and tree cost.
func averageCost(docFeat, docTree []float64) metric.Cost {
	c := metric.Cost{Features: exactMean(docFeat), Trees: exactMean(docTree)}
	c.Total = c.Features + c.Trees
	return c
}

// reachedFractions writes into dst, for each stage, the fraction of
// documents whose exit stage is at or after it.
func reachedFractions(dst []float64, exit []int) {
	clear(dst)
	if len(exit) == 0 {
		return
	}
	count := make([]int, len(dst))
	for _, k := range exit {
		count[k]++
	}
	reached := 0
	for k := len(dst) - 1; k >= 0; k-- {
		reached += count[k]
		dst[k] = float64(reached) / float64(len(exit))
	}
}

// exactMean returns the mean of the finite values xs correctly rounded:
// the sum is kept exactly as a list of non-overlapping partial sums
// (Shewchuk's algorithm, as Python's math.fsum) and divided once at the
// end, so the result does not depend on the order of xs and the mean of n
// copies of x is x.
func exactMean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	partials := make([]float64, 0, 16)
	for _, x := range xs {
		i := 0
		for _, y := range partials {
			if math.Abs(x) < math.Abs(y) {
				x, y = y, x
			}
			hi := x + y
			lo := y - (hi - x)
			if lo != 0 {
				partials[i] = lo
				i++
			}
			x = hi
		}
		partials = append(partials[:i], x)
	}
	// The partials do not overlap, so a sum in 2200 bits (more than the
	// whole float64 exponent range) is exact.
	sum := new(big.Float).SetPrec(2200)
	for _, p := range partials {
		sum.Add(sum, new(big.Float).SetFloat64(p))
	}
	mean := new(big.Float).SetPrec(53).Quo(sum, new(big.Float).SetInt64(int64(len(xs))))
	f, _ := mean.Float64()
	return f
}

// PredictedCost computes the average cost per document of cascade c from
// the tree-output matrix H of a data set, without walking any tree: the
// stage scores are Hβ^k (Outputs.Scores), the exit rule is Score's, and a
// document that leaves at stage k costs Σ e_t over the union of the active
// trees of stages 0..k plus Σ c_α over the union of those trees'
// features (treeFeats[t], 0-based). Documents of query q are
// offsets[q]..offsets[q+1]-1. It also returns the fraction of documents
// reaching each stage. On the outputs of the same ensemble and data set it
// gives exactly Score's exits, cost and fractions.
func PredictedCost(c *Cascade, o *Outputs, offsets []int, treeFeats [][]int, featCost, treeCost []float64) (metric.Cost, []float64) {
	T := o.NumTrees()
	checkExitArgs(c, T, o.N, offsets, treeFeats, featCost, treeCost, "PredictedCost")
	K := len(c.Stages)
	reached := make([]float64, K)
	if o.N == 0 {
		return metric.Cost{}, reached
	}

	// Hard exits, stage by stage.
	n := o.N
	exit := make([]int, n)
	s := make([]float64, n)
	alive := make([]int32, n)
	live := make([][]int32, len(offsets)-1) // per query: its documents still in
	maxDocs := 0
	for q := range live {
		lo, hi := offsets[q], offsets[q+1]
		live[q] = alive[lo:hi]
		for j := range live[q] {
			live[q][j] = int32(j)
		}
		maxDocs = max(maxDocs, hi-lo)
	}
	rs := newRankScratch(maxDocs)
	for k := range c.Stages {
		if k < K-1 { // at the last stage everybody leaves, whatever the score
			o.Scores(s, c.Stages[k].Beta)
		}
		for q, a := range live {
			lo := offsets[q]
			next := advance(c, k, a, s[lo:offsets[q+1]], &rs)
			for _, j := range a[len(next):] {
				exit[lo+int(j)] = k
			}
			live[q] = next
		}
	}
	reachedFractions(reached, exit)
	return exitCost(c, T, exit, treeFeats, featCost, treeCost), reached
}

// ResultOfExits is the Result of documents that left cascade c at the
// stages exit with the exit scores score, by whatever rule: the ranking
// keys, the fractions reaching each stage and the average cost, computed
// as Score computes them (a document that leaves at stage k has paid for
// the active trees of stages 0..k and their features, treeFeats[t]
// 0-based). Given Score's own Exit and Score it gives Score's Result bit
// for bit. Documents of query q are offsets[q]..offsets[q+1]-1.
func ResultOfExits(c *Cascade, offsets []int, exit []int, score []float64, treeFeats [][]int, featCost, treeCost []float64) Result {
	T, n, K := len(treeFeats), len(exit), len(c.Stages)
	checkExitArgs(c, T, n, offsets, treeFeats, featCost, treeCost, "ResultOfExits")
	if len(score) != n {
		panic(fmt.Sprintf("cronus: ResultOfExits: %d scores for %d exits", len(score), n))
	}
	res := Result{Key: make([]float64, n), Exit: exit, Score: score, Reached: make([]float64, K)}
	for i, k := range exit {
		if k < 0 || k >= K {
			panic(fmt.Sprintf("cronus: ResultOfExits: document %d exits at stage %d of %d", i, k, K))
		}
	}
	if n == 0 {
		return res
	}
	maxDocs := 0
	for q := 0; q+1 < len(offsets); q++ {
		maxDocs = max(maxDocs, offsets[q+1]-offsets[q])
	}
	rs := newRankScratch(maxDocs)
	for q := 0; q+1 < len(offsets); q++ {
		lo, hi := offsets[q], offsets[q+1]
		rs.order(res.Key[lo:hi], exit[lo:hi], score[lo:hi])
	}
	reachedFractions(res.Reached, exit)
	res.Cost = exitCost(c, T, exit, treeFeats, featCost, treeCost)
	return res
}

// checkExitArgs panics when the arguments of PredictedCost or
// ResultOfExits do not fit together.
func checkExitArgs(c *Cascade, T, n int, offsets []int, treeFeats [][]int, featCost, treeCost []float64, fn string) {
	if len(treeFeats) != T {
		panic(fmt.Sprintf("cronus: %s: features of %d trees for %d trees", fn, len(treeFeats), T))
	}
	checkScoreArgs(c, T, numFeats(treeFeats), featCost, treeCost, fn)
	if len(offsets) == 0 || offsets[0] != 0 || offsets[len(offsets)-1] != n {
		panic(fmt.Sprintf("cronus: %s: query offsets do not cover the %d documents", fn, n))
	}
}

// numFeats is one more than the largest feature any tree uses.
func numFeats(treeFeats [][]int) int {
	F := 0
	for _, fs := range treeFeats {
		for _, f := range fs {
			F = max(F, f+1)
		}
	}
	return F
}

// exitCost is the average cost per document of documents that leave c at
// the stages exit: one that leaves at stage k has paid Σ e_t over the
// active trees of stages 0..k and Σ c_α over their features, each summed
// in ascending order as Score sums it.
func exitCost(c *Cascade, T int, exit []int, treeFeats [][]int, featCost, treeCost []float64) metric.Cost {
	K := len(c.Stages)
	stageFeat, stageTree := make([]float64, K), make([]float64, K)
	evaluated, paid := make([]bool, T), make([]bool, numFeats(treeFeats))
	for k := range c.Stages {
		for t, b := range c.Stages[k].Beta[:T] {
			if b != 0 && !evaluated[t] {
				evaluated[t] = true
				for _, f := range treeFeats[t] {
					paid[f] = true
				}
			}
		}
		for t, ok := range evaluated {
			if ok {
				stageTree[k] += treeCost[t]
			}
		}
		for f, ok := range paid {
			if ok {
				stageFeat[k] += featCost[f]
			}
		}
	}
	docFeat, docTree := make([]float64, len(exit)), make([]float64, len(exit))
	for i, k := range exit {
		docFeat[i], docTree[i] = stageFeat[k], stageTree[k]
	}
	return averageCost(docFeat, docTree)
}
