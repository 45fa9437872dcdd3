package tree

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// TreeSHAP tabulated per leaf (the idea of Yang's Fast TreeSHAP v2,
// "Fast TreeSHAP: Accelerating SHAP Value Computation for Trees", 2021).
//
// What TreeSHAP adds to phi at a leaf depends on the document only
// through the fractions "one" of the unique path m it reaches the leaf
// with, and each of them is 1 or 0: whether the document goes, at the
// splits on that feature above the leaf, the leaf's way. So with a bit per
// split above the leaf (1: the document goes the leaf's way there), the
// terms for every pattern of bits can be computed once per tree, by the
// same code in the same order as addTree computes them for a document,
// and a document's contributions are then, per tree, one walk down the
// tree that reads a row of ud terms at each leaf: O(leaves × depth)
// instead of O(leaves × depth²). The walk visits the leaves in addTree's
// order (the document's side of each split first) and adds the same
// numbers, so the contributions are the same bits as addTree's, for any
// number of threads; a leaf that addTree does not reach (a side no subset
// reaches) has a row of zeros, which change no sum.
//
// A leaf k splits deep with ud distinct features above it has 2^k rows of
// ud terms. (A bit per feature instead of per split would do for the
// mathematics: two splits on one feature, the fraction one is the product
// of their bits. But the path m of addTree comes to a leaf by a different
// sequence of EXTENDs and UNWINDs for the bits 1,0 than for 0,0, and so
// with different roundings.) A tree has a table only when it is at most
// maxTableDepth deep, building the table costs no more than the
// documents' work without it, and all the tables hold at most
// tableBudget terms. The other trees take addTree.

const (
	maxTableDepth = 20
	tableBudget   = 1 << 22 // terms: 32 MiB
)

// shapTable is a tree's TreeSHAP terms per leaf and pattern of bits.
// Leaf l, k splits deep, has ud[l] features above it, feats[foff[l]:]
// in the order of its terms, and 2^k rows of ud[l] terms from
// vals[off[l]]; row r is for the documents that go the leaf's way at the
// splits whose depth (from 0 at the root) is a bit of r.
type shapTable struct {
	off, ud, foff []int32
	feats         []int32
	vals          []float64
}

// tableFrame is a node still to visit in addTable's walk: its depth, and
// the bits of the splits above it that the document goes its way at.
type tableFrame struct {
	node  int32
	level int32
	mask  uint32
}

// addTable adds to phi the contributions of t to x's value, as addTree
// does, from t's table tb: down the document's side of each split (the
// side addTree visits first), keeping the other sides for later.
func (s *shapScratch) addTable(phi []float64, t *Tree, tb *shapTable, x []float32) {
	var st [maxTableDepth]tableFrame
	sp := 0
	n, level, mask := int32(0), int32(0), uint32(0)
	for {
		for n >= 0 {
			nd := &t.Nodes[n]
			xv := x[nd.Feature]
			hot, cold := nd.Right, nd.Left
			if xv <= nd.Threshold || (nd.DefaultLeft && xv != xv) {
				hot, cold = nd.Left, nd.Right
			}
			st[sp] = tableFrame{cold, level + 1, mask}
			sp++
			n, mask = hot, mask|1<<level
			level++
		}
		l := ^n
		u := int(tb.ud[l])
		row := tb.vals[int(tb.off[l])+int(mask)*u:][:u]
		fs := tb.feats[tb.foff[l]:][:u]
		for i, v := range row {
			phi[fs[i]] += v
		}
		if sp == 0 {
			return
		}
		sp--
		n, level, mask = st[sp].node, st[sp].level, st[sp].mask
	}
}

// shapTables returns, for each tree, its table or nil, for n documents.
// It stops between trees once ctx is done, with ctx's error: the tables of
// a large model take a few tenths of a second.
func shapTables(ctx context.Context, trees []Tree, n int) ([]*shapTable, error) {
	tables := make([]*shapTable, len(trees))
	total := 0
	var todo []int
	for i := range trees {
		tb, terms, build, direct := shapLayout(&trees[i])
		if tb == nil || build > float64(n)*direct || total+terms > tableBudget {
			continue
		}
		total += terms
		tb.vals = make([]float64, terms)
		tables[i] = tb
		todo = append(todo, i)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s shapScratch
			for ctx.Err() == nil {
				j := int(next.Add(1)) - 1
				if j >= len(todo) {
					return
				}
				i := todo[j]
				tables[i].fill(&trees[i], &s)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return tables, nil
}

// shapLayout lays out t's table without its terms: nil when t is a single
// leaf, deeper than maxTableDepth, or of more than tableBudget terms (the
// count stops there: a tree 20 deep can have 2^40 terms, past an int on
// 386). It also returns the number of terms, and estimates of the work of
// building them (Σ 2^k·ud² over the leaves) and of one document's addTree
// (Σ ud²).
func shapLayout(t *Tree) (tb *shapTable, terms int, build, direct float64) {
	if len(t.Nodes) == 0 {
		return nil, 0, 0, 0
	}
	type at struct{ n, k int32 }
	st := []at{{0, 0}}
	for len(st) > 0 {
		a := st[len(st)-1]
		st = st[:len(st)-1]
		if a.n < 0 {
			continue
		}
		if a.k+1 > maxTableDepth {
			return nil, 0, 0, 0
		}
		nd := &t.Nodes[a.n]
		st = append(st, at{nd.Left, a.k + 1}, at{nd.Right, a.k + 1})
	}
	nl := len(t.Leaves)
	tb = &shapTable{off: make([]int32, nl), ud: make([]int32, nl), foff: make([]int32, nl)}
	// The features of the path m at a leaf: a split on a feature already
	// on it takes it off and puts it back at the end (addTree's unwind).
	var walk func(n int32, path []int32, k int)
	walk = func(n int32, path []int32, k int) {
		if terms > tableBudget {
			return
		}
		if n < 0 {
			l := ^n
			u := len(path)
			tb.foff[l] = int32(len(tb.feats))
			tb.feats = append(tb.feats, path...)
			tb.ud[l] = int32(u)
			tb.off[l] = int32(terms)
			terms += u << k
			build += float64(u*u) * float64(int(1)<<k)
			direct += float64(u * u)
			return
		}
		nd := &t.Nodes[n]
		next := make([]int32, 0, len(path)+1)
		for _, g := range path {
			if g != nd.Feature {
				next = append(next, g)
			}
		}
		next = append(next, nd.Feature)
		walk(nd.Left, next, k+1)
		walk(nd.Right, next, k+1)
	}
	walk(0, nil, 0)
	if terms > tableBudget {
		return nil, 0, 0, 0
	}
	return tb, terms, build, direct
}

// fillFrame is a call of fill's walk: addTree's frame, with the depth of
// its node and the bits of its row so far.
type fillFrame struct {
	shapFrame
	level int32
	mask  uint32
}

// fill computes tb's terms: addTree's walk, where each side of a split is
// taken twice, with the document going that way (bit 1, one as on
// addTree's side the document takes) and not (bit 0, one 0), and each row
// written as addTree adds it.
func (tb *shapTable) fill(t *Tree, s *shapScratch) {
	if len(s.path) < 2 {
		s.path = make([]pathElem, 64)
	}
	st := []fillFrame{{shapFrame: shapFrame{node: 0, depth: 0, from: 0, zero: 1, one: 1, feature: -1}}}
	for len(st) > 0 {
		f := st[len(st)-1]
		st = st[:len(st)-1]
		ud, at, m := s.extend(&f.shapFrame)
		if f.node < 0 {
			l := ^f.node
			if int(tb.ud[l]) != ud {
				panic("tree: shapTable: a leaf's path differs from its layout")
			}
			v := t.Leaves[l]
			row := tb.vals[int(tb.off[l])+int(f.mask)*ud:][:ud]
			for i := 1; i <= ud; i++ {
				w := unwoundPathSum(m, ud, i)
				el := &m[i]
				row[i-1] = float64(w * (el.one - el.zero) * v)
			}
			continue
		}
		nd := &t.Nodes[f.node]
		ud, iz, io := unwindFeature(m, ud, nd.Feature)
		for _, c := range [2]int32{nd.Left, nd.Right} {
			z := t.coverShare(c, f.node) * iz
			// As in addTree: a side no subset reaches is not walked.
			if z != 0 {
				st = append(st, fillFrame{shapFrame{node: c, depth: ud + 1, from: at, zero: z, one: 0, feature: nd.Feature}, f.level + 1, f.mask})
			}
			if z != 0 || io != 0 {
				st = append(st, fillFrame{shapFrame{node: c, depth: ud + 1, from: at, zero: z, one: io, feature: nd.Feature}, f.level + 1, f.mask | 1<<f.level})
			}
		}
	}
}
