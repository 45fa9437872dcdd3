package tree

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// Feature contributions are SHAP values computed exactly by TreeSHAP, the
// path-dependent algorithm of Lundberg, Erion and Lee, "Consistent
// individualized feature attribution for tree ensembles" (2018),
// Algorithm 2, as XGBoost's pred_contribs computes them
// (RegTree::CalculateContributions): the value of a set S of features for
// a document x is the tree's expected value given x's values of S, where
// at a split on a feature outside S both sides are taken, each weighted by
// its share of the split's cover (the hessian sum of the training
// documents that reached it, Tree.Cover and Tree.LeafCover).

// ErrNoCover is the error (wrapped) of Contributions for trees without the
// covers of their splits or leaves, which TreeSHAP weighs the sides of a
// split by: a model imported from RankLib, or a model file written before
// leaf covers were kept.
var ErrNoCover = errors.New("covers are missing")

// coverError is CheckCovers's error: which tree lacks what.
type coverError struct{ msg string }

func (e *coverError) Error() string { return e.msg }
func (e *coverError) Unwrap() error { return ErrNoCover }

// CheckCovers returns an error wrapping ErrNoCover when one of the first k
// trees (k < 0 or k > len(Trees) means all) that has a split lacks the
// covers of its splits (Tree.Cover) or of its leaves (Tree.LeafCover), or
// has one that is negative or not finite; nil when Contributions can
// take them.
func (e *Ensemble) CheckCovers(k int) error {
	trees := e.Trees
	if k >= 0 && k < len(trees) {
		trees = trees[:k]
	}
	for i := range trees {
		t := &trees[i]
		if len(t.Nodes) == 0 {
			continue // its value is its expected value: no cover weighs it
		}
		for _, r := range []statRule{coverRule, leafCoverRule} {
			if n, _, _ := r.count(t); len(*r.of(t)) != n {
				return &coverError{fmt.Sprintf("tree %d has no %ss", i, r.name)}
			}
			if err := r.check(t); err != nil {
				return &coverError{fmt.Sprintf("tree %d: %v", i, err)}
			}
		}
	}
	return nil
}

// Contributions writes into dst the feature contributions (SHAP values) of
// the first k trees (k < 0 or k > len(Trees) means all) to the raw scores
// of n documents held column-major in cols (as Predict): with
// m = NumFeatures+1, dst[i*m+f] is feature f's (0-based) contribution to
// document i's score, and dst[i*m+NumFeatures] the bias, Base plus the
// trees' expected values (ExpectedValue), XGBoost's last column. Each row
// sums to the document's raw score (Predict), up to rounding. A missing
// value (NaN) follows its split's default direction, as in scoring. dst,
// of at least n*m entries, is allocated when nil and returned. The trees
// must have their covers (CheckCovers); otherwise the error wraps
// ErrNoCover. The work is O(leaves × depth²) per tree and document, or
// O(leaves × depth) with the tree's terms tabulated once per call for
// trees of depth at most 20 when there are documents enough
// (contrib_table.go); the results are the same bits either way.
func (e *Ensemble) Contributions(dst []float64, cols [][]float32, n, k int) ([]float64, error) {
	return e.ContributionsCounted(context.Background(), dst, cols, n, k, nil)
}

// ContributionsCounted is Contributions that stops, between two trees of
// the block of documents each core works on, when ctx is done, and then
// returns ctx's error;
// it adds to scored, when it is not nil, the documents of each block as
// it is done, for a progress line.
func (e *Ensemble) ContributionsCounted(ctx context.Context, dst []float64, cols [][]float32, n, k int, scored *atomic.Int64) ([]float64, error) {
	if err := e.CheckCovers(k); err != nil {
		return dst, err
	}
	m := e.NumFeatures + 1
	if dst == nil {
		dst = make([]float64, n*m)
	}
	if len(dst) < n*m {
		panic(fmt.Sprintf("tree: Contributions: dst has %d entries for %d documents of %d columns", len(dst), n, m))
	}
	if len(cols) < e.NumFeatures {
		panic(fmt.Sprintf("tree: Contributions: %d feature columns for a model of %d features", len(cols), e.NumFeatures))
	}
	trees := e.Trees
	if k >= 0 && k < len(trees) {
		trees = trees[:k]
	}
	bias := e.Base
	for t := range trees {
		bias += trees[t].ExpectedValue()
	}
	// As in Predict, only the features the trees split on are gathered
	// when they are few; their contributions are then spread out to
	// their columns, the others' being 0.
	trees, used := compactFeatures(trees, e.NumFeatures)
	d := e.NumFeatures
	if used != nil {
		d = len(used)
	}
	return dst, contribBlocks(ctx, dst[:n*m], cols, n, trees, used, d, m, bias, scored)
}

// CompactContribs is the first k trees of an ensemble made ready to give
// the contributions of the features they split on alone (Contributions),
// for a model whose features run far past those: a sparse index of
// 1,000,000 in its training file made every document's row of
// contributions a million entries, and inspect --data take 1.7 GB and
// 3.6 s on 1,000 documents of 3 features used. The trees are renumbered
// once, to the features' places in Features.
type CompactContribs struct {
	// Features are the features (0-based, ascending) the trees split on:
	// column c of Contributions is feature Features[c]. Every other
	// feature contributes 0.
	Features []int
	trees    []Tree
	bias     float64
}

// CompactContribs returns the first k trees (k < 0 or k > len(Trees)
// means all) ready for CompactContribs.Contributions, or CheckCovers's
// error.
func (e *Ensemble) CompactContribs(k int) (*CompactContribs, error) {
	if err := e.CheckCovers(k); err != nil {
		return nil, err
	}
	trees := e.Trees
	if k >= 0 && k < len(trees) {
		trees = trees[:k]
	}
	c := &CompactContribs{Features: SplitFeatures(trees), bias: e.Base}
	for t := range trees {
		c.bias += trees[t].ExpectedValue()
	}
	c.trees = renumberFeatures(trees, c.Features)
	return c, nil
}

// Contributions is Ensemble.ContributionsCounted over the features of
// c.Features alone: with u = len(c.Features), cols[c] holds the values of
// feature Features[c] for the n documents, and dst[i*(u+1)+c] is its
// contribution to document i's score, dst[i*(u+1)+u] the bias. The
// numbers are ContributionsCounted's, bit for bit; the memory and the
// work are those of u features, whatever the model's NumFeatures.
func (c *CompactContribs) Contributions(ctx context.Context, dst []float64, cols [][]float32, n int, scored *atomic.Int64) ([]float64, error) {
	u := len(c.Features)
	m := u + 1
	if dst == nil {
		dst = make([]float64, n*m)
	}
	if len(dst) < n*m {
		panic(fmt.Sprintf("tree: CompactContribs.Contributions: dst has %d entries for %d documents of %d columns", len(dst), n, m))
	}
	if len(cols) < u {
		panic(fmt.Sprintf("tree: CompactContribs.Contributions: %d feature columns for %d features", len(cols), u))
	}
	return dst, contribBlocks(ctx, dst[:n*m], cols, n, c.trees, nil, u, m, c.bias, scored)
}

// contribBlocks computes into dst, rows of m entries (the last the bias),
// the contributions of trees, which split on features 0..d-1, to the
// scores of n documents: the columns of those features are cols[0..d-1],
// and their contributions the first d entries of a row; or, when used is
// not nil, the columns cols[used[c]], the contributions going to entry
// used[c] of a row and the others 0.
func contribBlocks(ctx context.Context, dst []float64, cols [][]float32, n int, trees []Tree, used []int, d, m int, bias float64, scored *atomic.Int64) error {
	tables, err := shapTables(ctx, trees, n)
	if err != nil {
		return err
	}
	return parallelBlocks(ctx, n, func(lo, hi int, rows []float32) {
		gather(rows, cols, used, d, lo, hi)
		var s shapScratch
		// The block's contributions, tree by tree (a tree's table stays
		// in cache for the block's documents); each document still
		// adds the trees in their order. Rows of d entries: dst's own
		// when every feature is gathered.
		b := hi - lo
		phis, stride := dst[lo*m:hi*m], m
		if used != nil {
			phis, stride = make([]float64, b*d), d
		}
		clear(phis)
		for t := range trees {
			// A block of a deep model is long work (an imported
			// XGBoost model of 2,000 trees 9 deep: predict
			// --contribs and inspect --data ran on 42-48 s after
			// a SIGINT): it stops between trees, its rows left
			// unfinished, since the call then returns ctx's error.
			if ctx.Err() != nil {
				return
			}
			tr, tb := &trees[t], tables[t]
			for j := range b {
				phi, x := phis[j*stride:][:d], rows[j*d:][:d]
				if tb != nil {
					s.addTable(phi, tr, tb, x)
				} else {
					s.addTree(phi, tr, x)
				}
			}
		}
		for j := range b {
			row := dst[(lo+j)*m:][:m]
			if used != nil {
				clear(row)
				for c, f := range used {
					row[f] = phis[j*d+c]
				}
			}
			row[m-1] = bias
		}
		if scored != nil {
			scored.Add(int64(b))
		}
	}, d)
}

// ExpectedValue returns the tree's value averaged over its leaves, each
// weighted by the share of the root's cover that reaches it: the product
// of cover(child)/cover(node) along its path (XGBoost's node mean value of
// the root). A split whose cover is 0 passes no weight on. The tree must
// have its covers unless it is a single leaf.
func (t *Tree) ExpectedValue() float64 {
	if len(t.Nodes) == 0 {
		return t.Leaves[0]
	}
	type at struct {
		n int32
		w float64
	}
	ev := 0.0
	stack := []at{{0, 1}}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.n < 0 {
			ev += a.w * t.Leaves[^a.n]
			continue
		}
		nd := &t.Nodes[a.n]
		stack = append(stack, at{nd.Right, a.w * t.coverShare(nd.Right, a.n)}, at{nd.Left, a.w * t.coverShare(nd.Left, a.n)})
	}
	return ev
}

// cover returns the cover of child c (a node index, or ^leaf).
func (t *Tree) cover(c int32) float64 {
	if c < 0 {
		return float64(t.LeafCover[^c])
	}
	return float64(t.Cover[c])
}

// coverShare is cover(c)/cover(parent), the fraction of the documents of
// split parent that go to its child c; 0 when the split's cover is 0.
func (t *Tree) coverShare(c, parent int32) float64 {
	w := float64(t.Cover[parent])
	if w == 0 {
		return 0
	}
	return t.cover(c) / w
}

// pathElem is an element of TreeSHAP's unique path m: the feature split
// on (-1 for the root's), the fractions of the documents that take that
// path where the feature is absent from S (zero: the cover share) and
// where it is in S (one: 1 on x's path, 0 off it), and the weight of the
// subsets of each size (pweight).
type pathElem struct {
	feature   int32
	zero, one float64
	pweight   float64
}

// shapFrame is a call of the paper's RECURSE, on a stack of its own (a
// crafted tree can be millions of splits deep): node j, reached through
// the path of length depth+1 that starts at from in shapScratch.path and
// that the call extends by (zero, one, feature).
type shapFrame struct {
	node      int32
	depth     int
	from      int
	zero, one float64
	feature   int32
}

// shapScratch is TreeSHAP's working space, reused across trees and
// documents: the unique paths of the calls under way, laid end to end
// (each call's starts after its parent's, as in XGBoost's TreeShap), and
// the calls still to make.
type shapScratch struct {
	path  []pathElem
	stack []shapFrame
}

// extend makes the unique path of call f: its parent's, at f.from, copied
// after it (at at = f.from+depth+1) and extended by f's split. It returns
// the path's depth, where it starts and the path.
func (s *shapScratch) extend(f *shapFrame) (ud, at int, m []pathElem) {
	ud = f.depth
	at = f.from + ud + 1
	if need := at + ud + 1; need > len(s.path) {
		s.path = append(s.path, make([]pathElem, need-len(s.path)+len(s.path))...)
	}
	m = s.path[at : at+ud+1]
	copy(m, s.path[f.from:f.from+ud+1])
	extendPath(m, ud, f.zero, f.one, f.feature)
	return ud, at, m
}

// addTree adds to phi[f] the contribution of feature f to t's value for
// the document x (Algorithm 2); phi has an entry per feature.
func (s *shapScratch) addTree(phi []float64, t *Tree, x []float32) {
	if len(t.Nodes) == 0 {
		return // a single leaf: all of it is the expected value
	}
	if len(s.path) < 2 {
		s.path = make([]pathElem, 64)
	}
	s.stack = append(s.stack[:0], shapFrame{node: 0, depth: 0, from: 0, zero: 1, one: 1, feature: -1})
	for len(s.stack) > 0 {
		f := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		ud, at, m := s.extend(&f)
		if f.node < 0 {
			v := t.Leaves[^f.node]
			for i := 1; i <= ud; i++ {
				w := unwoundPathSum(m, ud, i)
				el := &m[i]
				phi[el.feature] += float64(w * (el.one - el.zero) * v) // rounded as in a shapTable
			}
			continue
		}
		nd := &t.Nodes[f.node]
		xv := x[nd.Feature]
		hot, cold := nd.Right, nd.Left
		if xv <= nd.Threshold || (nd.DefaultLeft && xv != xv) {
			hot, cold = nd.Left, nd.Right
		}
		// A feature already on the path is taken off it and put back
		// with this split: its fractions are the product of both.
		ud, iz, io := unwindFeature(m, ud, nd.Feature)
		hz, cz := t.coverShare(hot, f.node)*iz, t.coverShare(cold, f.node)*iz
		// A side that no subset reaches (both fractions 0: no cover, and
		// off x's path) contributes nothing; XGBoost walks it for 0s, or
		// for NaNs where a later split on the feature divides by its
		// fractions.
		if cz != 0 {
			s.stack = append(s.stack, shapFrame{node: cold, depth: ud + 1, from: at, zero: cz, one: 0, feature: nd.Feature})
		}
		if hz != 0 || io != 0 {
			s.stack = append(s.stack, shapFrame{node: hot, depth: ud + 1, from: at, zero: hz, one: io, feature: nd.Feature})
		}
	}
}

// extendPath is the paper's EXTEND: it grows the path m[0..ud-1] by an
// element for feature with fractions zero and one, updating the weights
// of the subset sizes.
func extendPath(m []pathElem, ud int, zero, one float64, feature int32) {
	m[ud] = pathElem{feature: feature, zero: zero, one: one}
	if ud == 0 {
		m[ud].pweight = 1
	}
	for i := ud - 1; i >= 0; i-- {
		m[i+1].pweight += one * m[i].pweight * float64(i+1) / float64(ud+1)
		m[i].pweight = zero * m[i].pweight * float64(ud-i) / float64(ud+1)
	}
}

// unwindPath is the paper's UNWIND: it takes element p off the path
// m[0..ud], undoing its EXTEND on the weights.
func unwindPath(m []pathElem, ud, p int) {
	one, zero := m[p].one, m[p].zero
	next := m[ud].pweight
	for i := ud - 1; i >= 0; i-- {
		if one != 0 {
			tmp := m[i].pweight
			m[i].pweight = next * float64(ud+1) / (float64(i+1) * one)
			next = tmp - m[i].pweight*zero*float64(ud-i)/float64(ud+1)
		} else {
			m[i].pweight = m[i].pweight * float64(ud+1) / (zero * float64(ud-i))
		}
	}
	for i := p; i < ud; i++ {
		m[i].feature, m[i].zero, m[i].one = m[i+1].feature, m[i+1].zero, m[i+1].one
	}
}

// unwoundPathSum is the total weight of the path m[0..ud] with element p
// unwound (UNWIND followed by a sum of the weights, without changing m).
//
// It is most of TreeSHAP's time. With one != 0 each step's next depends on
// the last's, so the step divides by nothing: the two divisions of the
// paper's form (by (i+1)·one and by ud+1) are a reciprocal taken off that
// chain and factors taken once (BenchmarkContributions, one core: 2,290
// ns per document and tree before, 1,860-1,970 after); the sums differ from
// the paper's form in the last bits.
func unwoundPathSum(m []pathElem, ud, p int) float64 {
	one, zero := m[p].one, m[p].zero
	next := m[ud].pweight
	total := 0.0
	n1 := float64(ud + 1)
	switch {
	case one != 0:
		up, down := n1/one, zero/n1 // next·(ud+1)/one, and tmp·zero/(ud+1)
		for i := ud - 1; i >= 0; i-- {
			// The factors of next and of tmp do not wait for next.
			a, b := up/float64(i+1), down*float64(ud-i)
			tmp := next * a
			total += tmp
			next = m[i].pweight - tmp*b
		}
	case zero != 0:
		for i := ud - 1; i >= 0; i-- {
			total += m[i].pweight / zero / (float64(ud-i) / n1)
		}
	}
	return total
}

// unwindFeature takes the split feature f off the unique path m of depth
// ud when it is on it (a feature already on the path is put back with the
// new split, its fractions the product of both) and returns the path's
// depth and the fractions it had there (1 and 1 when it was not on it).
func unwindFeature(m []pathElem, ud int, f int32) (int, float64, float64) {
	for p := 0; p <= ud; p++ {
		if m[p].feature == f {
			iz, io := m[p].zero, m[p].one
			unwindPath(m, ud, p)
			return ud - 1, iz, io
		}
	}
	return ud, 1, 1
}
