package tree

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"
)

// tableSameBits compares, for every document, the contributions addTree adds
// with those addTable adds from a table built by fill: the same bits,
// feature by feature. It returns the number of trees that had a table.
func tableSameBits(t *testing.T, name string, trees []Tree, cols [][]float32, n, nf int) int {
	t.Helper()
	var s shapScratch
	tabled := 0
	x := make([]float32, nf)
	want, got := make([]float64, nf), make([]float64, nf)
	for k := range trees {
		tr := &trees[k]
		tb, terms, _, _ := shapLayout(tr)
		if tb == nil {
			continue
		}
		tabled++
		tb.vals = make([]float64, terms)
		tb.fill(tr, &s)
		for i := range n {
			for f := range x {
				x[f] = cols[f][i]
			}
			clear(want)
			clear(got)
			s.addTree(want, tr, x)
			s.addTable(got, tr, tb, x)
			for f := range want {
				if math.Float64bits(got[f]) != math.Float64bits(want[f]) {
					t.Fatalf("%s, tree %d, document %d, feature %d: table %v, addTree %v", name, k, i, f, got[f], want[f])
				}
			}
		}
	}
	return tabled
}

// The tabulated TreeSHAP adds exactly addTree's numbers: on random trees
// (features repeated along paths, covers of 0, missing values, leaves no
// subset reaches) and on LightGBM's and XGBoost's MQ2008 models.
func TestContributionsTableSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	const nf, docs = 5, 60
	cols := make([][]float32, nf)
	for f := range cols {
		cols[f] = make([]float32, docs)
	}
	tabled := 0
	for trial := range 300 {
		for f := range cols {
			for i := range cols[f] {
				cols[f][i] = float32(r.IntN(5)) - 0.5
				if r.IntN(6) == 0 {
					cols[f][i] = float32(math.NaN())
				}
			}
		}
		tabled += tableSameBits(t, fmt.Sprintf("random tree %d", trial), []Tree{shapTree(r, nf, 14)}, cols, docs, nf)
	}
	if tabled < 250 {
		t.Errorf("only %d of 300 random trees had a table", tabled)
	}
	docs2 := mq2008Test(t)[:300]
	cols = make([][]float32, testNumFeatures)
	for f := range cols {
		cols[f] = make([]float32, len(docs2))
		for i, x := range docs2 {
			cols[f][i] = x[f]
			if f%3 == 0 && x[f] == 0 {
				cols[f][i] = float32(math.NaN())
			}
		}
	}
	for _, fx := range []struct{ from, file string }{
		{"lightgbm", "lgb-lambdarank.model.txt"},
		{"xgboost", "xgb-rank-ndcg.json"},
		{"xgboost", "xgb-reg-lossguide.json"},
	} {
		e, _, err := ImportFile(fx.from, filepath.Join("testdata", fx.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := tableSameBits(t, fx.file, e.Trees, cols, len(docs2), e.NumFeatures); got != len(e.Trees) {
			t.Errorf("%s: %d of %d trees had a table", fx.file, got, len(e.Trees))
		}
	}
}

// A tree has a table only when it pays: not for one document, not for a
// tree deeper than maxTableDepth nor past tableBudget; and Contributions
// gives the same bits with tables (many documents) as without (one at a
// time).
func TestContributionsTableChoice(t *testing.T) {
	chain := func(depth, nf int) Tree {
		var tr Tree
		for i := range depth {
			tr.Nodes = append(tr.Nodes, Node{Feature: int32(i % nf), Threshold: float32(i), Left: Leaf(i), Right: int32(i + 1)})
			tr.Cover = append(tr.Cover, float32(2*(depth-i)))
			tr.Leaves = append(tr.Leaves, float64(i)/8)
			tr.LeafCover = append(tr.LeafCover, float32(1))
		}
		tr.Nodes[depth-1].Right = Leaf(depth)
		tr.Leaves = append(tr.Leaves, 1)
		tr.LeafCover = append(tr.LeafCover, 1)
		return tr
	}
	deep := chain(maxTableDepth+1, 4)
	big := chain(maxTableDepth, 4) // 2^20 rows of 4 terms for its deepest leaves alone
	ok := chain(10, 4)
	for _, tr := range []Tree{deep, big, ok} {
		if err := tr.Validate(4); err != nil {
			t.Fatal(err)
		}
	}
	if tb, _, _, _ := shapLayout(&deep); tb != nil {
		t.Errorf("a table for a tree deeper than %d", maxTableDepth)
	}
	if tb, _, _, _ := shapLayout(&big); tb != nil {
		t.Errorf("chain of %d: a layout of more than %d terms", maxTableDepth, tableBudget)
	}
	tr := twoLevel()
	if tabs := mustTables(t, []Tree{tr}, 1); tabs[0] != nil {
		t.Errorf("a table for one document")
	}
	if tabs := mustTables(t, []Tree{tr, ok, big, deep}, 1<<30); tabs[0] == nil || tabs[1] == nil || tabs[2] != nil || tabs[3] != nil {
		t.Errorf("tables %v, want for the first two trees only", tabs)
	}
	// Tables together within tableBudget: of two trees of more than
	// half of it each, the first has one; a small tree after them too.
	half := chain(18, 4)
	if _, terms, _, _ := shapLayout(&half); 2*terms <= tableBudget || terms > tableBudget {
		t.Fatalf("chain of 18: %d terms, want more than half of %d and at most all", terms, tableBudget)
	}
	if tabs := mustTables(t, []Tree{half, half, ok}, 1<<30); tabs[0] == nil || tabs[1] != nil || tabs[2] == nil {
		t.Errorf("tables %v, want for the first and last trees", tabs)
	}

	e := &Ensemble{Trees: []Tree{tr, ok, deep}, NumFeatures: 4, Base: 0.25}
	r := rand.New(rand.NewPCG(5, 6))
	const n = 500
	if tabs := mustTables(t, e.Trees, n); tabs[0] == nil || tabs[1] == nil || tabs[2] != nil {
		t.Fatalf("tables %v for %d documents, want for the first two trees", tabs, n)
	}
	cols := make([][]float32, 4)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.IntN(18)) - 0.5
			if r.IntN(7) == 0 {
				cols[f][i] = float32(math.NaN())
			}
		}
	}
	all, err := e.Contributions(nil, cols, n, -1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		one := make([][]float32, 4)
		for f := range one {
			one[f] = cols[f][i : i+1]
		}
		row, err := e.Contributions(nil, one, 1, -1)
		if err != nil {
			t.Fatal(err)
		}
		for f, v := range row {
			if w := all[i*5+f]; math.Float64bits(v) != math.Float64bits(w) {
				t.Fatalf("document %d, column %d: %v alone, %v among %d", i, f, v, w, n)
			}
		}
	}
}

// A tree of depth 20 whose layout has more terms than an int of 32 bits
// holds (128 leaves 20 splits deep, under 20 distinct features: 128 × 20 ×
// 2^20 terms) gets no table, for any number of documents, and
// Contributions does not panic on 386 counting them.
func TestContributionsTableTermsOverflow(t *testing.T) {
	var tr Tree
	const chain, full = 13, 7 // 13 splits down the right, then 7 full levels
	for i := range chain {
		tr.Nodes = append(tr.Nodes, Node{Feature: int32(i), Threshold: 0.5, Left: Leaf(i), Right: int32(i + 1)})
		tr.Leaves = append(tr.Leaves, float64(i))
	}
	// The full subtree, nodes chain.. in breadth-first order.
	for i := range 1<<full - 1 {
		level := 0
		for (i+1)>>(level+1) != 0 {
			level++
		}
		nd := Node{Feature: int32(chain + level), Threshold: 0.5}
		if 2*i+1 < 1<<full-1 {
			nd.Left, nd.Right = int32(chain+2*i+1), int32(chain+2*i+2)
		} else {
			l := len(tr.Leaves)
			nd.Left, nd.Right = Leaf(l), Leaf(l+1)
			tr.Leaves = append(tr.Leaves, 1, -1)
		}
		tr.Nodes = append(tr.Nodes, nd)
	}
	for range tr.Nodes {
		tr.Cover = append(tr.Cover, 2)
	}
	for range tr.Leaves {
		tr.LeafCover = append(tr.LeafCover, 1)
	}
	if err := tr.Validate(chain + full); err != nil {
		t.Fatal(err)
	}
	if d := tr.Depth(); d != maxTableDepth {
		t.Fatalf("depth %d, want %d", d, maxTableDepth)
	}
	if tabs := mustTables(t, []Tree{tr}, 1<<30); tabs[0] != nil {
		t.Errorf("a table of more than %d terms", tableBudget)
	}
}

func mustTables(t *testing.T, trees []Tree, n int) []*shapTable {
	t.Helper()
	tabs, err := shapTables(context.Background(), trees, n)
	if err != nil {
		t.Fatal(err)
	}
	return tabs
}

// TestShapTablesCancel: the tables stop between trees once the context is
// done (a large model's take a few tenths of a second), and so does
// ContributionsCounted, with the context's error.
func TestShapTablesCancel(t *testing.T) {
	trees := make([]Tree, 200)
	for i := range trees {
		trees[i] = twoLevel()
	}
	ctx := &stopAfter{Context: context.Background()}
	ctx.n.Store(5)
	tabs, err := shapTables(ctx, trees, 1<<30)
	if !errors.Is(err, context.Canceled) || tabs != nil {
		t.Fatalf("cancelled after 4 checks: %d tables, %v", len(tabs), err)
	}
	// At most one tree per check filled: a check precedes each tree.
	if got := ctx.calls.Load(); got > 5+int64(runtime.GOMAXPROCS(0)) {
		t.Errorf("%d checks of the context for 200 trees cancelled at the 5th", got)
	}
	ctx = &stopAfter{Context: context.Background()}
	ctx.n.Store(1)
	e := &Ensemble{Trees: trees, NumFeatures: 4}
	cols := [][]float32{make([]float32, 1000), make([]float32, 1000), make([]float32, 1000), make([]float32, 1000)}
	if _, err := e.ContributionsCounted(ctx, nil, cols, 1000, -1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("contributions under a cancelled context: %v", err)
	}
}
