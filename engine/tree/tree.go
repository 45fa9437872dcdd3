// Package tree holds regression trees and ensembles of them as flat node
// arrays, their prediction (all trees or the first k), per-document leaf
// indices, feature contributions (TreeSHAP) and the features each tree
// uses; the growth of one tree from gradient pairs on binned data
// (Grower: histogram split search, leaf-wise); the model file; and the
// importers (LightGBM, XGBoost, RankLib) and exporters (XGBoost JSON,
// RankLib, C).
// The boosting loop and its objectives live in package boost.
package tree

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Node is an internal node: a document goes left when its value of Feature
// is <= Threshold (or when it is NaN and DefaultLeft is set). Left and Right
// are node indices when >= 0, and ^leaf (that is, -leaf-1) for leaves.
type Node struct {
	Feature     int32   // 0-based feature index
	Threshold   float32 // go left when x <= Threshold
	Left, Right int32
	DefaultLeft bool // where NaN goes
}

// Leaf returns the child index that denotes leaf l.
func Leaf(l int) int32 { return ^int32(l) }

// Tree is one regression tree. A tree with no nodes is a single leaf.
type Tree struct {
	Nodes  []Node
	Leaves []float64 // leaf values, already scaled by any shrinkage

	// Gain and Cover, when not nil, hold one value per node (as Nodes):
	// the split's gain G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ), twice the
	// training loss it saved (XGBoost's loss_chg, LightGBM's split_gain),
	// and the sum of the hessians of the training documents that reached
	// the node (XGBoost's sum_hessian, LightGBM's internal_weight; the
	// number of documents under squared loss). Training and the XGBoost
	// and LightGBM importers fill them, for feature importance (cronus
	// inspect) and feature contributions (Ensemble.Contributions); nothing
	// that scores reads them.
	Gain, Cover []float32

	// LeafCover, when not nil, holds one value per leaf (as Leaves): the
	// same statistic as Cover for the training documents that reached the
	// leaf (XGBoost's sum_hessian of a leaf node, LightGBM's leaf_weight).
	// Feature contributions weigh a split's two sides by their covers.
	LeafCover []float32
}

// NumLeaves returns the number of leaves.
func (t *Tree) NumLeaves() int { return len(t.Leaves) }

// LeafIndex returns the leaf a document with features x reaches.
func (t *Tree) LeafIndex(x []float32) int {
	if len(t.Nodes) == 0 {
		return 0
	}
	n := int32(0)
	for n >= 0 {
		nd := &t.Nodes[n]
		v := x[nd.Feature]
		if v <= nd.Threshold || (nd.DefaultLeft && v != v) {
			n = nd.Left
		} else {
			n = nd.Right
		}
	}
	return int(^n)
}

// Predict returns the tree's value for a document with features x.
func (t *Tree) Predict(x []float32) float64 { return t.Leaves[t.LeafIndex(x)] }

// Features returns the sorted distinct features (0-based) the tree splits on.
func (t *Tree) Features() []int { return SplitFeatures([]Tree{*t}) }

// SplitFeatures returns the sorted distinct features (0-based) the trees
// split on.
func SplitFeatures(trees []Tree) []int {
	var seen []bool
	var fs []int
	for _, t := range trees {
		for _, n := range t.Nodes {
			f := int(n.Feature)
			if f >= len(seen) {
				seen = append(seen, make([]bool, f+1-len(seen))...)
			}
			if !seen[f] {
				seen[f] = true
				fs = append(fs, f)
			}
		}
	}
	sort.Ints(fs)
	return fs
}

// Depth returns the length of the longest root-to-leaf path (0 for a stump
// that is a single leaf).
func (t *Tree) Depth() int {
	if len(t.Nodes) == 0 {
		return 0
	}
	// Without recursion, as in Validate: a crafted tree can be millions
	// of splits deep.
	type at struct {
		n     int32
		depth int
	}
	deepest := 0
	stack := []at{{0, 0}}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.n < 0 {
			deepest = max(deepest, a.depth)
			continue
		}
		nd := &t.Nodes[a.n]
		stack = append(stack, at{nd.Right, a.depth + 1}, at{nd.Left, a.depth + 1})
	}
	return deepest
}

// Validate checks that every node and leaf is reachable exactly once and
// every index is in range; numFeatures bounds the feature indices.
func (t *Tree) Validate(numFeatures int) error {
	if len(t.Nodes) == 0 {
		if len(t.Leaves) != 1 {
			return fmt.Errorf("a tree without splits must have 1 leaf, has %d", len(t.Leaves))
		}
		return t.validateStats()
	}
	if len(t.Leaves) != len(t.Nodes)+1 {
		return fmt.Errorf("%d splits need %d leaves, have %d", len(t.Nodes), len(t.Nodes)+1, len(t.Leaves))
	}
	seenNode := make([]bool, len(t.Nodes))
	seenLeaf := make([]bool, len(t.Leaves))
	// A depth-first walk with a stack of its own, not recursion: a
	// crafted chain of a million splits overflowed the goroutine stack, a
	// fatal error.
	stack := []int32{0}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n < 0 {
			l := int(^n)
			if l >= len(t.Leaves) || seenLeaf[l] {
				return fmt.Errorf("leaf %d out of range or reached twice", l)
			}
			seenLeaf[l] = true
			continue
		}
		if int(n) >= len(t.Nodes) || seenNode[n] {
			return fmt.Errorf("node %d out of range or reached twice", n)
		}
		seenNode[n] = true
		nd := t.Nodes[n]
		if nd.Feature < 0 || int(nd.Feature) >= numFeatures {
			return fmt.Errorf("node %d splits on feature %d; the model has %d features", n, nd.Feature+1, numFeatures)
		}
		if math.IsNaN(float64(nd.Threshold)) {
			return fmt.Errorf("node %d has a NaN threshold", n)
		}
		stack = append(stack, nd.Right, nd.Left)
	}
	// n+1 distinct leaves in range are reached exactly when all n splits
	// are: a split left out of the walk is never checked, and its feature
	// would still be counted (Features) and paid for.
	for n, seen := range seenNode {
		if !seen {
			return fmt.Errorf("split %d is not reached from the root", n)
		}
	}
	for _, v := range t.Leaves {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("leaf value %v is not finite", v)
		}
	}
	return t.validateStats()
}

// statRule is what one of a tree's statistics must be (Tree.Gain,
// Tree.Cover, Tree.LeafCover): absent, or one finite value of at least min
// per split (per leaf when leaves is set).
type statRule struct {
	name, want string
	min        float64
	leaves     bool
	of         func(*Tree) *[]float32
}

var (
	gainRule      = statRule{"split gain", "a finite number", math.Inf(-1), false, func(t *Tree) *[]float32 { return &t.Gain }}
	coverRule     = statRule{"cover", "a finite number >= 0", 0, false, func(t *Tree) *[]float32 { return &t.Cover }}
	leafCoverRule = statRule{"leaf cover", "a finite number >= 0", 0, true, func(t *Tree) *[]float32 { return &t.LeafCover }}
)

// count is how many values of the statistic t has room for, and what
// they are of (singular, plural).
func (r statRule) count(t *Tree) (n int, of, ofs string) {
	if r.leaves {
		return len(t.Leaves), "leaf", "leaves"
	}
	return len(t.Nodes), "split", "splits"
}

// check refuses t's statistic when it breaks the rule.
func (r statRule) check(t *Tree) error {
	v := *r.of(t)
	if v == nil {
		return nil
	}
	n, of, ofs := r.count(t)
	if len(v) != n {
		return fmt.Errorf("%d %s but %d %ss", n, ofs, len(v), r.name)
	}
	for j, x := range v {
		if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) || f < r.min {
			return fmt.Errorf("%s %d: %s %v is not %s", of, j, r.name, x, r.want)
		}
	}
	return nil
}

// complete reports whether trees have a split and every tree with a split
// has the statistic.
func (r statRule) complete(trees []Tree) bool {
	split := false
	for i := range trees {
		t := &trees[i]
		if len(t.Nodes) > 0 {
			if n, _, _ := r.count(t); len(*r.of(t)) != n {
				return false
			}
			split = true
		}
	}
	return split
}

// keepCompleteStats is for the importers, which fill Gain and Cover from
// the source file as they are: it drops a statistic a tree has malformed
// (check), and then every tree's unless every tree with a split has it,
// so that an importance summed over the trees is over all of them. An
// imported model whose statistics are missing or malformed in some trees
// has none, where a model file that holds them malformed is refused.
func (e *Ensemble) keepCompleteStats() {
	for _, r := range []statRule{gainRule, coverRule, leafCoverRule} {
		for i := range e.Trees {
			if r.check(&e.Trees[i]) != nil {
				*r.of(&e.Trees[i]) = nil
			}
		}
		if !r.complete(e.Trees) {
			for i := range e.Trees {
				*r.of(&e.Trees[i]) = nil
			}
		}
	}
}

// HasGain reports whether the ensemble has a split and every tree with a
// split has its splits' gains (Tree.Gain); HasCover likewise their covers.
func (e *Ensemble) HasGain() bool { return gainRule.complete(e.Trees) }

// HasCover: see HasGain.
func (e *Ensemble) HasCover() bool { return coverRule.complete(e.Trees) }

// validateStats checks Gain, Cover and LeafCover (statRule).
func (t *Tree) validateStats() error {
	for _, r := range []statRule{gainRule, coverRule, leafCoverRule} {
		if err := r.check(t); err != nil {
			return err
		}
	}
	return nil
}

// Ensemble is an additive model: the score of a document is Base plus the
// sum of its trees' values (a raw score, no link function).
type Ensemble struct {
	Trees       []Tree
	Base        float64
	NumFeatures int
	Objective   string // "regression", "binary", "lambdarank", or the source library's name for imported models
}

// Depth returns the depth of the deepest tree (0 without trees).
func (e *Ensemble) Depth() int {
	d := 0
	for i := range e.Trees {
		d = max(d, e.Trees[i].Depth())
	}
	return d
}

// predictBlock is how many documents Predict gathers into a row-major
// buffer at a time: small enough to stay in cache, large enough that each
// tree's nodes are reused across many documents.
const predictBlock = 128

// Predict writes into dst the raw scores of n documents held column-major in
// cols (as data.Dataset.Cols: cols[f][i] is feature f of document i) using
// the first k trees; k < 0 or k > len(Trees) means all. cols must have at
// least NumFeatures columns. dst is allocated when nil and returned. Blocks
// of documents are scored on all cores; each score is computed the same way
// whatever the number of cores.
func (e *Ensemble) Predict(dst []float64, cols [][]float32, n, k int) []float64 {
	dst, _ = e.PredictContext(context.Background(), dst, cols, n, k)
	return dst
}

// PredictContext is Predict that stops, within a block of documents on
// each core, when ctx is done, and then returns ctx's error (and dst with
// only some documents scored).
func (e *Ensemble) PredictContext(ctx context.Context, dst []float64, cols [][]float32, n, k int) ([]float64, error) {
	return e.PredictCounted(ctx, dst, cols, n, k, nil)
}

// PredictCounted is PredictContext that adds to scored, when it is not
// nil, the documents of each block as it is scored, for a progress line
// (a 300,000-document set took 37 s on 2,000 trees of 256 leaves).
func (e *Ensemble) PredictCounted(ctx context.Context, dst []float64, cols [][]float32, n, k int, scored *atomic.Int64) ([]float64, error) {
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) < n {
		panic(fmt.Sprintf("tree: Predict: dst has %d entries for %d documents", len(dst), n))
	}
	if len(cols) < e.NumFeatures {
		panic(fmt.Sprintf("tree: Predict: %d feature columns for a model of %d features", len(cols), e.NumFeatures))
	}
	trees := e.Trees
	if k >= 0 && k < len(trees) {
		trees = trees[:k]
	}
	trees, used := compactFeatures(trees, e.NumFeatures)
	d := e.NumFeatures
	if used != nil {
		d = len(used)
	}
	err := parallelBlocks(ctx, n, func(lo, hi int, rows []float32) {
		nan := gather(rows, cols, used, d, lo, hi)
		out := dst[lo:hi]
		for j := range out {
			out[j] = e.Base
		}
		var leaf [predictBlock]int32
		for t := range trees {
			trees[t].AddBlock(out, leaf[:], rows, d, nan)
		}
		if scored != nil {
			scored.Add(int64(hi - lo))
		}
	}, d)
	return dst, err
}

// gather copies documents lo..hi-1 of d columns into rows, row-major, and
// reports whether any value is NaN: the first d columns, or, when used is
// not nil, columns used[0..d-1].
func gather(rows []float32, cols [][]float32, used []int, d, lo, hi int) (nan bool) {
	for f := 0; f < d; f++ {
		col := cols[f]
		if used != nil {
			col = cols[used[f]]
		}
		for j, v := range col[lo:hi] {
			rows[j*d+f] = v
			nan = nan || v != v
		}
	}
	return nan
}

// CompactFeatures is compactFeatures for the other engine packages that
// walk trees over row blocks of their own (baseline's running scores).
func CompactFeatures(trees []Tree, d int) ([]Tree, []int) { return compactFeatures(trees, d) }

// compactFeatures returns trees with the features they split on numbered
// 0..m-1 in the order of used, the sorted distinct features (0-based), when
// they use at most half of the model's d; otherwise trees as they are and
// nil. Prediction then gathers only the used columns into its row blocks:
// with one stray index of 200,000 on a line of MQ2008, every block copied
// 200,000 columns, and 20 trees took 13.6 s to score the set instead of
// milliseconds. The walk, the thresholds and the order of the sums are
// those of the trees given, so are the scores, bit for bit. The trees keep
// their covers (shared, for Contributions).
func compactFeatures(trees []Tree, d int) ([]Tree, []int) {
	used := SplitFeatures(trees)
	if 2*len(used) > d {
		return trees, nil
	}
	return renumberFeatures(trees, used), used
}

// renumberFeatures returns trees with their split features numbered by
// their place in used (sorted, and holding every feature they split on),
// sharing their leaves and covers.
func renumberFeatures(trees []Tree, used []int) []Tree {
	out := make([]Tree, len(trees))
	for t := range trees {
		nodes := slices.Clone(trees[t].Nodes)
		for i := range nodes {
			c, _ := slices.BinarySearch(used, int(nodes[i].Feature))
			nodes[i].Feature = int32(c)
		}
		out[t] = Tree{Nodes: nodes, Leaves: trees[t].Leaves, Cover: trees[t].Cover, LeafCover: trees[t].LeafCover}
	}
	return out
}

// parallelBlocks calls fn on consecutive blocks of predictBlock documents,
// spread over GOMAXPROCS goroutines, each with its own row buffer of
// predictBlock × d values. Once ctx is done no block is begun, and it
// returns ctx's error.
func parallelBlocks(ctx context.Context, n int, fn func(lo, hi int, rows []float32), d int) error {
	blocks := (n + predictBlock - 1) / predictBlock
	w := min(runtime.GOMAXPROCS(0), blocks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := 0; k < max(w, 1); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows := make([]float32, predictBlock*d)
			for {
				b := int(next.Add(1)) - 1
				if b >= blocks || ctx.Err() != nil {
					return
				}
				lo := b * predictBlock
				fn(lo, min(lo+predictBlock, n), rows)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// LeafIndices writes, for each of the first k trees and each of n documents
// (column-major in cols), the index of the leaf the document reaches:
// dst[t*n+i] is tree t, document i. It is the tree-output matrix the cascade
// optimiser builds on. dst is allocated when nil and returned.
func (e *Ensemble) LeafIndices(dst []int32, cols [][]float32, n, k int) []int32 {
	dst, _ = e.LeafIndicesContext(context.Background(), dst, cols, n, k)
	return dst
}

// LeafIndicesContext is LeafIndices that stops, within a block of
// documents on each core, when ctx is done, and then returns ctx's error.
func (e *Ensemble) LeafIndicesContext(ctx context.Context, dst []int32, cols [][]float32, n, k int) ([]int32, error) {
	trees := e.Trees
	if k >= 0 && k < len(trees) {
		trees = trees[:k]
	}
	if dst == nil {
		dst = make([]int32, len(trees)*n)
	}
	trees, used := compactFeatures(trees, e.NumFeatures)
	d := e.NumFeatures
	if used != nil {
		d = len(used)
	}
	err := parallelBlocks(ctx, n, func(lo, hi int, rows []float32) {
		nan := gather(rows, cols, used, d, lo, hi)
		for t := range trees {
			tr := &trees[t]
			tr.LeafIndexBlock(dst[t*n+lo:t*n+hi], rows, d, nan)
		}
	}, d)
	return dst, err
}

// MissingSplits counts, over the first k trees (k < 0 or k > len(Trees)
// means all), the splits where a missing value (NaN) goes the other way
// than 0, and all the splits. A model trained where absent values are
// missing (XGBoost) scores data that gives those values as 0 differently
// at such splits.
func (e *Ensemble) MissingSplits(k int) (differ, total int) {
	return e.MissingSplitsOf(k, nil)
}

// MissingSplitsOf is MissingSplits counting in differ only the splits on
// a feature (0-based) for which absent is true (nil: every feature): those
// on features that a data file gives on every line score it alike however
// its left-out values are read.
func (e *Ensemble) MissingSplitsOf(k int, absent func(feature int) bool) (differ, total int) {
	if k < 0 || k > len(e.Trees) {
		k = len(e.Trees)
	}
	for _, t := range e.Trees[:k] {
		for _, nd := range t.Nodes {
			total++
			if nd.DefaultLeft != (0 <= nd.Threshold) && (absent == nil || absent(int(nd.Feature))) {
				differ++
			}
		}
	}
	return differ, total
}

// Features returns the sorted distinct features (0-based) that the first k
// trees split on (k < 0 or k > len(Trees) means all).
func (e *Ensemble) Features(k int) []int {
	trees := e.Trees
	if k >= 0 && k < len(trees) {
		trees = trees[:k]
	}
	return SplitFeatures(trees)
}
