package tree

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// bruteShapley returns the Shapley values of features 0..nf-1 for t's
// value at x, by enumeration of the 2^nf subsets S, and v(∅): v(S) is the
// tree's expectation given x's values of S, where a split on a feature of
// S follows x and a split on another feature averages its two sides,
// weighted by cover(side)/cover(split) (0 where the split's cover is 0).
func bruteShapley(t *Tree, x []float32, nf int) (phi []float64, v0 float64) {
	cover := func(c int32) float64 {
		if c < 0 {
			return float64(t.LeafCover[^c])
		}
		return float64(t.Cover[c])
	}
	var v func(S uint, n int32) float64
	v = func(S uint, n int32) float64 {
		if len(t.Nodes) == 0 {
			return t.Leaves[0]
		}
		if n < 0 {
			return t.Leaves[^n]
		}
		nd := t.Nodes[n]
		if S&(1<<nd.Feature) != 0 {
			xv := x[nd.Feature]
			if xv <= nd.Threshold || math.IsNaN(float64(xv)) && nd.DefaultLeft {
				return v(S, nd.Left)
			}
			return v(S, nd.Right)
		}
		c := float64(t.Cover[n])
		if c == 0 {
			return 0
		}
		return (cover(nd.Left)*v(S, nd.Left) + cover(nd.Right)*v(S, nd.Right)) / c
	}
	fact := func(k int) float64 {
		f := 1.0
		for i := 2; i <= k; i++ {
			f *= float64(i)
		}
		return f
	}
	phi = make([]float64, nf)
	for j := range nf {
		for S := uint(0); S < 1<<nf; S++ {
			if S&(1<<j) != 0 {
				continue
			}
			s := 0
			for b := S; b != 0; b &= b - 1 {
				s++
			}
			w := fact(s) * fact(nf-s-1) / fact(nf)
			phi[j] += w * (v(S|1<<j, 0) - v(S, 0))
		}
	}
	return phi, v(0, 0)
}

// twoLevel is a tree of two levels over 3 features: the root splits on
// feature 0 (cover 10), its left side on feature 1 (cover 6: leaves of
// cover 2 and 4, values 1 and 2), its right side on feature 2 (cover 4:
// leaves of cover 1 and 3, values 3 and 4).
func twoLevel() Tree {
	return Tree{
		Nodes: []Node{
			{Feature: 0, Threshold: 0.5, Left: 1, Right: 2},
			{Feature: 1, Threshold: 0.5, Left: Leaf(0), Right: Leaf(1)},
			{Feature: 2, Threshold: 0.5, Left: Leaf(2), Right: Leaf(3)},
		},
		Leaves:    []float64{1, 2, 3, 4},
		Cover:     []float32{10, 6, 4},
		LeafCover: []float32{2, 4, 1, 3},
	}
}

// The two-level tree at x = (0.2, 0.9, 0.1), which it sends to leaf 1
// (value 2), worked by hand: v(∅) = (2·1 + 4·2 + 1·3 + 3·4)/10 = 2.5,
// v({0}) = 10/6, v({1}) = 0.6·2 + 0.4·15/4 = 2.7, v({2}) = 0.6·10/6 +
// 0.4·3 = 2.2, v({0,1}) = 2, v({0,2}) = 10/6, v({1,2}) = 2.4, v(all) = 2;
// with the weights 1/3 (|S| = 0 or 2) and 1/6 (|S| = 1),
// φ0 = 1/3(−5/6) + 1/6(−0.7) + 1/6(−8/15) + 1/3(−0.4) = −111/180,
// φ1 = 1/3(0.2) + 1/6(1/3) + 1/6(0.2) + 1/3(1/3) = 48/180,
// φ2 = 1/3(−0.3) + 1/6(0) + 1/6(−0.3) + 1/3(0) = −27/180; they sum to
// 2 − 2.5.
func TestContributionsByHand(t *testing.T) {
	tr := twoLevel()
	e := &Ensemble{Trees: []Tree{tr}, Base: 0.25, NumFeatures: 3}
	cols := [][]float32{{0.2}, {0.9}, {0.1}}
	got, err := e.Contributions(nil, cols, 1, -1)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-111.0 / 180, 48.0 / 180, -27.0 / 180, 0.25 + 2.5}
	for f := range want {
		if math.Abs(got[f]-want[f]) > 1e-12 {
			t.Errorf("column %d: %v, worked by hand %v", f, got[f], want[f])
		}
	}
	phi, v0 := bruteShapley(&tr, []float32{0.2, 0.9, 0.1}, 3)
	for f := range phi {
		if math.Abs(phi[f]-want[f]) > 1e-12 {
			t.Errorf("the enumeration's feature %d: %v, by hand %v", f, phi[f], want[f])
		}
	}
	if v0 != 2.5 || tr.ExpectedValue() != 2.5 {
		t.Errorf("expected value %v, the enumeration's %v; want 2.5", tr.ExpectedValue(), v0)
	}
}

// TreeSHAP equals the Shapley values enumerated over all subsets, on
// random trees (repeated features, covers of 0, missing values), and each
// row sums to the raw score.
func TestContributionsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const nf, docs = 5, 40
	for trial := range 60 {
		var trees []Tree
		for range 1 + r.IntN(3) {
			trees = append(trees, shapTree(r, nf, 12))
		}
		e := &Ensemble{Trees: trees, Base: -0.5, NumFeatures: nf}
		if err := e.Trees[0].Validate(nf); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		cols := shapCols(r, nf, docs)
		got, err := e.Contributions(nil, cols, docs, -1)
		if err != nil {
			t.Fatal(err)
		}
		scores := e.Predict(nil, cols, docs, -1)
		x := make([]float32, nf)
		for i := range docs {
			for f := range x {
				x[f] = cols[f][i]
			}
			want := make([]float64, nf+1)
			want[nf] = e.Base
			for k := range trees {
				phi, v0 := bruteShapley(&trees[k], x, nf)
				for f := range phi {
					want[f] += phi[f]
				}
				want[nf] += v0
			}
			row := got[i*(nf+1) : (i+1)*(nf+1)]
			sum := 0.0
			for f := range row {
				sum += row[f]
				if math.Abs(row[f]-want[f]) > 1e-9 {
					t.Fatalf("trial %d, document %d: column %d: %v, enumerated %v", trial, i, f, row[f], want[f])
				}
			}
			if math.Abs(sum-scores[i]) > 1e-9 {
				t.Fatalf("trial %d, document %d: the row sums to %v, the score is %v", trial, i, sum, scores[i])
			}
		}
	}
}

// shapTree grows a random tree of up to splits splits over nf features
// (features repeat along paths), thresholds among -0.5..3.5's grid,
// random default directions, and covers drawn independently (some 0; a
// split's cover need not be its children's sum: TreeSHAP takes the
// fractions the covers give, and so does the enumeration).
func shapTree(r *rand.Rand, nf, splits int) Tree {
	var t Tree
	type slot struct {
		node int32
		left bool
	}
	open := []slot{{-1, false}} // -1: the root
	for range r.IntN(splits + 1) {
		k := r.IntN(len(open))
		s := open[k]
		n := int32(len(t.Nodes))
		t.Nodes = append(t.Nodes, Node{Feature: int32(r.IntN(nf)), Threshold: float32(r.IntN(4)), DefaultLeft: r.IntN(2) == 0})
		if s.node >= 0 {
			if s.left {
				t.Nodes[s.node].Left = n
			} else {
				t.Nodes[s.node].Right = n
			}
		}
		open = append(open[:k], open[k+1:]...)
		open = append(open, slot{n, true}, slot{n, false})
	}
	for l, s := range open {
		if s.node >= 0 {
			if s.left {
				t.Nodes[s.node].Left = Leaf(l)
			} else {
				t.Nodes[s.node].Right = Leaf(l)
			}
		}
		t.Leaves = append(t.Leaves, math.Round(r.NormFloat64()*100)/100)
	}
	cover := func() float32 {
		if r.IntN(8) == 0 {
			return 0
		}
		return float32(1 + r.IntN(20))
	}
	for range t.Nodes {
		t.Cover = append(t.Cover, cover())
	}
	for range t.Leaves {
		t.LeafCover = append(t.LeafCover, cover())
	}
	return t
}

// XGBoost's own pred_contribs (XGBoost 1.7.4) on three small models
// trained on MQ2008 (rank:ndcg depthwise, reg:squarederror lossguide, and
// one trained with zeros as missing values, scored with zeros as NaN):
// testdata/make_xgb_contrib_fixtures.py. XGBoost computes in float32.
func TestContributionsXGBoost(t *testing.T) {
	b, err := os.ReadFile("testdata/xgb-shap.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixtures map[string]struct {
		NanZeros bool        `json:"nan_zeros"`
		Contribs [][]float64 `json:"contribs"`
		Margin   []float64   `json:"margin"`
	}
	if err := json.Unmarshal(b, &fixtures); err != nil {
		t.Fatal(err)
	}
	if len(fixtures) != 3 {
		t.Fatalf("%d fixtures, want 3", len(fixtures))
	}
	docs := mq2008Test(t)
	for name, fx := range fixtures {
		e, _, err := ImportFile("xgboost", filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		n := len(fx.Contribs)
		cols := make([][]float32, testNumFeatures)
		for f := range cols {
			cols[f] = make([]float32, n)
			for i := range n {
				v := docs[i][f]
				if fx.NanZeros && v == 0 {
					v = float32(math.NaN())
				}
				cols[f][i] = v
			}
		}
		got, err := e.Contributions(nil, cols, n, -1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		scores := e.Predict(nil, cols, n, -1)
		m := e.NumFeatures + 1
		worst, worstRel := 0.0, 0.0
		for i, want := range fx.Contribs {
			if len(want) != m {
				t.Fatalf("%s: %d columns, the model has %d features", name, len(want), e.NumFeatures)
			}
			if math.Abs(scores[i]-fx.Margin[i]) > 1e-5 {
				t.Fatalf("%s: document %d scores %v, XGBoost %v", name, i, scores[i], fx.Margin[i])
			}
			for f, w := range want {
				d := math.Abs(got[i*m+f] - w)
				worst = max(worst, d)
				worstRel = max(worstRel, d/max(math.Abs(w), 1e-3))
				if d > 1e-5 {
					t.Errorf("%s: document %d, column %d: %v, XGBoost %v", name, i, f, got[i*m+f], w)
				}
			}
		}
		t.Logf("%s: largest difference from XGBoost %.2g (relative %.2g)", name, worst, worstRel)
	}
}

// On real models of many trees (LightGBM's and XGBoost's, MQ2008), every
// row sums to the raw score, with all the trees and with the first k.
func TestContributionsRowSum(t *testing.T) {
	docs := mq2008Test(t)[:500]
	cols := make([][]float32, testNumFeatures)
	for f := range cols {
		cols[f] = make([]float32, len(docs))
		for i, x := range docs {
			cols[f][i] = x[f]
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
		for _, k := range []int{-1, 7} {
			got, err := e.Contributions(nil, cols, len(docs), k)
			if err != nil {
				t.Fatal(err)
			}
			scores := e.Predict(nil, cols, len(docs), k)
			m := e.NumFeatures + 1
			for i := range docs {
				sum := 0.0
				for _, v := range got[i*m : (i+1)*m] {
					sum += v
				}
				if math.Abs(sum-scores[i]) > 1e-9*max(1, math.Abs(scores[i])) {
					t.Fatalf("%s, k %d: document %d: the row sums to %v, the score is %v", fx.file, k, i, sum, scores[i])
				}
			}
		}
	}
}

// A model without covers (RankLib's) is refused with ErrNoCover, naming
// the tree; a tree of a single leaf needs none; a cancelled context stops
// the work.
func TestContributionsRefused(t *testing.T) {
	e, _, err := ImportFile("ranklib", "testdata/ranklib-mart.txt")
	if err != nil {
		t.Fatal(err)
	}
	cols := make([][]float32, e.NumFeatures)
	for f := range cols {
		cols[f] = make([]float32, 3)
	}
	if _, err := e.Contributions(nil, cols, 3, -1); !errors.Is(err, ErrNoCover) {
		t.Errorf("RankLib model: %v, want ErrNoCover", err)
	}
	tr := twoLevel()
	noLeaf := tr
	noLeaf.LeafCover = nil
	e = &Ensemble{Trees: []Tree{{Leaves: []float64{0.5}}, tr, noLeaf}, NumFeatures: 3}
	if err := e.CheckCovers(2); err != nil {
		t.Errorf("a leaf and a tree with covers: %v", err)
	}
	if err := e.CheckCovers(-1); !errors.Is(err, ErrNoCover) || err.Error() != "tree 2 has no leaf covers" {
		t.Errorf("no leaf covers: %v", err)
	}
	neg := tr
	neg.Cover = []float32{10, -1, 4}
	e.Trees[2] = neg
	if err := e.CheckCovers(-1); !errors.Is(err, ErrNoCover) {
		t.Errorf("a negative cover: %v", err)
	}
	e.Trees = e.Trees[:2]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.ContributionsCounted(ctx, nil, [][]float32{{1}, {1}, {1}}, 1, -1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// BenchmarkContributions: LightGBM's 100-tree lambdarank model (31 leaves)
// on 1,000 MQ2008 documents.
func BenchmarkContributions(b *testing.B) {
	benchContributions(b, "lightgbm", "testdata/lgb-lambdarank.model.txt", 1000)
}

// BenchmarkContributionsDepth4: bench/contribs.sh's model (XGBoost's
// 100-tree rank:ndcg model, depth 4) on the 2,874 MQ2008 test documents.
func BenchmarkContributionsDepth4(b *testing.B) {
	benchContributions(b, "xgboost", "testdata/xgb-rank-ndcg.json", 0)
}

// benchContributions times Contributions of the model imported from file
// on the first n MQ2008 test documents (all for n = 0), per document and
// tree.
func benchContributions(b *testing.B, from, file string, n int) {
	docs, err := readDense("testdata/mq2008-test.txt.gz")
	if err != nil {
		b.Fatal(err)
	}
	if n > 0 {
		docs = docs[:n]
	}
	e, _, err := ImportFile(from, file)
	if err != nil {
		b.Fatal(err)
	}
	cols := make([][]float32, testNumFeatures)
	for f := range cols {
		cols[f] = make([]float32, len(docs))
		for i, x := range docs {
			cols[f][i] = x[f]
		}
	}
	dst := make([]float64, len(docs)*(e.NumFeatures+1))
	b.ResetTimer()
	for range b.N {
		if _, err := e.Contributions(dst, cols, len(docs), -1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)*len(e.Trees)), "ns/doc/tree")
}

// chainTree is a tree of depth splits, one below the other, each on a
// feature of its own (feature i at depth i), with its covers: deeper than
// the tables take (maxTableDepth), so TreeSHAP walks it for each
// document, O(leaves × depth²).
func chainTree(depth int) Tree {
	t := Tree{Leaves: make([]float64, depth+1), LeafCover: make([]float32, depth+1)}
	for i := range depth {
		t.Nodes = append(t.Nodes, Node{Feature: int32(i), Threshold: 0.5, Left: Leaf(i), Right: int32(i + 1)})
		t.Cover = append(t.Cover, float32(depth+1-i))
		t.Leaves[i], t.LeafCover[i] = float64(i)/100, 1
	}
	t.Nodes[depth-1].Right = Leaf(depth)
	t.Leaves[depth], t.LeafCover[depth] = 1, 1
	return t
}

// TestContributionsCancelWithinBlock: an interrupt stops the
// contributions between two trees of a block of documents, not only
// between blocks. A block of a deep model is long work: inspect --data
// on an imported XGBoost model of 2,000 trees 9 deep ran on 42-48 s
// after a SIGINT; here one block of 2,000 trees 40 deep runs past the
// test's 10 s bound (it did, before the fix), and the call must return
// well within it once its context is done.
func TestContributionsCancelWithinBlock(t *testing.T) {
	const depth, n = 40, predictBlock
	tr := chainTree(depth)
	e := &Ensemble{Trees: make([]Tree, 2000), NumFeatures: depth}
	for i := range e.Trees {
		e.Trees[i] = tr
	}
	r := rand.New(rand.NewPCG(7, 7))
	cols := make([][]float32, depth)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = r.Float32()
		}
	}
	// The trees' contributions are right: each row sums to the score.
	small := &Ensemble{Trees: e.Trees[:3], NumFeatures: depth}
	phi, err := small.Contributions(nil, cols, n, -1)
	if err != nil {
		t.Fatal(err)
	}
	scores := small.Predict(nil, cols, n, -1)
	for i := range n {
		sum := 0.0
		for _, v := range phi[i*(depth+1) : (i+1)*(depth+1)] {
			sum += v
		}
		if math.Abs(sum-scores[i]) > 1e-9 {
			t.Fatalf("document %d: contributions sum to %v, score %v", i, sum, scores[i])
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := e.ContributionsCounted(ctx, nil, cols, n, -1, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("cancelled: %v, want the context's error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("still computing %v after the context was done 50 ms in", time.Since(start))
	}
}

// CompactContribs gives the contributions of the features the trees split
// on, the same bits as Contributions's columns of them, whether the trees
// use few of the model's features (Contributions then computes them
// compact too) or most; with tables and without (few documents), for any
// number of trees.
func TestCompactContribsSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 40 {
		nf := 3 + r.IntN(12)
		docs := []int{5, 300}[trial%2]
		split := 1 + r.IntN(nf) // the trees split on features below split, and on the last
		var trees []Tree
		for range 1 + r.IntN(6) {
			tr := shapTree(r, split, 10)
			for i := range tr.Nodes {
				if r.IntN(4) == 0 {
					tr.Nodes[i].Feature = int32(nf - 1)
				}
			}
			trees = append(trees, tr)
		}
		e := &Ensemble{Trees: trees, Base: 0.25, NumFeatures: nf}
		cols := shapCols(r, nf, docs)
		for _, k := range []int{-1, 1, len(trees) / 2} {
			want, err := e.Contributions(nil, cols, docs, k)
			if err != nil {
				t.Fatal(err)
			}
			cc, err := e.CompactContribs(k)
			if err != nil {
				t.Fatal(err)
			}
			if fs := e.Features(k); !slices.Equal(cc.Features, fs) {
				t.Fatalf("trial %d, %d trees: features %v, want %v", trial, k, cc.Features, fs)
			}
			u := len(cc.Features)
			ccols := make([][]float32, u)
			for c, f := range cc.Features {
				ccols[c] = cols[f]
			}
			got, err := cc.Contributions(context.Background(), nil, ccols, docs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range docs {
				row, wrow := got[i*(u+1):][:u+1], want[i*(nf+1):][:nf+1]
				spread := make([]float64, nf+1)
				for c, f := range cc.Features {
					spread[f] = row[c]
				}
				spread[nf] = row[u]
				for f := range spread {
					if math.Float64bits(spread[f]) != math.Float64bits(wrow[f]) {
						t.Fatalf("trial %d, %d trees, document %d, column %d: %v compact, %v", trial, k, i, f, spread[f], wrow[f])
					}
				}
			}
		}
	}
}

// The work of CompactContribs is that of the features the trees split on:
// a model of 1,000,000 features that splits on two allocates a few of its
// own bytes per document, not a row of the model's features.
func TestCompactContribsWide(t *testing.T) {
	const nf, docs = 1_000_000, 64
	tr := twoLevel()
	for i := range tr.Nodes {
		tr.Nodes[i].Feature = []int32{5, nf - 1}[tr.Nodes[i].Feature%2]
	}
	e := &Ensemble{Trees: []Tree{tr, tr}, NumFeatures: nf}
	cc, err := e.CompactContribs(-1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cc.Features, e.Features(-1)) || len(cc.Features) > 2 {
		t.Fatalf("features %v", cc.Features)
	}
	cols := make([][]float32, len(cc.Features))
	for c := range cols {
		cols[c] = make([]float32, docs)
	}
	dst := make([]float64, docs*(len(cc.Features)+1))
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	if _, err := cc.Contributions(context.Background(), dst, cols, docs, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<20 {
		t.Errorf("%d documents allocated %d bytes", docs, a)
	}
}

// shapCols makes nf random columns of docs values for the contribution
// tests: the half-integers −0.5 to 3.5, and NaN one time in six.
func shapCols(r *rand.Rand, nf, docs int) [][]float32 {
	cols := make([][]float32, nf)
	for f := range cols {
		cols[f] = make([]float32, docs)
		for i := range cols[f] {
			cols[f][i] = float32(r.IntN(5)) - 0.5
			if r.IntN(6) == 0 {
				cols[f][i] = float32(math.NaN())
			}
		}
	}
	return cols
}
