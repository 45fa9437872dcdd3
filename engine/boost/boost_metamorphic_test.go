package boost

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Metamorphic tests of training: how the trained model must change when
// the training data are transformed in a known way. The data are
// continuous random features (no two values of a feature tie, where that
// matters, which metaData checks), so that the bins, and which feature a split prefers,
// are not decided by ties.

// metaData is queries queries of docs documents each, nf continuous
// features (document i's latent relevance z plus noise, weighted by the
// feature) and graded labels 0..3 from z. With untied, no two values of a
// feature are equal (it fails the test if they are: the float32 values of
// a few thousand draws may tie).
func metaData(t testing.TB, seed uint64, queries, docs, nf int, untied bool) *data.Dataset {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 11))
	d := &data.Dataset{Name: "meta", HasQID: true, Cols: make([][]float32, nf)}
	for q := range queries {
		d.QueryIDs = append(d.QueryIDs, int64(q+1))
		d.QueryOffsets = append(d.QueryOffsets, len(d.Labels))
		for range docs {
			z := r.NormFloat64()
			for f := range d.Cols {
				d.Cols[f] = append(d.Cols[f], float32(z*float64(f+1)/float64(nf)+r.NormFloat64()))
			}
			d.Labels = append(d.Labels, float32(min(3, max(0, math.Floor(z+1.2)))))
		}
	}
	d.QueryOffsets = append(d.QueryOffsets, len(d.Labels))
	for f, c := range d.Cols {
		if untied && !distinct(c) {
			t.Fatalf("seed %d: feature %d has tied values; the tests need none", seed, f)
		}
	}
	return d
}

// distinct reports whether no two values of c are equal.
func distinct(c []float32) bool {
	s := slices.Clone(c)
	slices.Sort(s)
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			return false
		}
	}
	return true
}

// withCols is d with other feature columns (the labels and queries shared).
func withCols(d *data.Dataset, cols [][]float32) *data.Dataset {
	c := *d
	c.Cols = cols
	return &c
}

func mustTrain(t *testing.T, d *data.Dataset, p Params) *tree.Ensemble {
	t.Helper()
	r, err := Train(context.Background(), d, nil, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Ensemble
}

// metaParams are small-data parameters for objective: few trees of a few
// leaves, no subsampling unless a test asks for it.
func metaParams(objective string) Params {
	p := DefaultParams(objective)
	p.Trees, p.Grow.MaxLeaves, p.Grow.MinDocs = 15, 8, 10
	return p
}

// sameStructure compares the trees of got with those of want up to a
// renaming of the features (want's feature f is got's feature rename[f];
// nil for none): the same nodes, split features, leaves and statistics,
// the leaf values times leafScale and the gains times gainScale (both
// powers of two, so the products are exact). Thresholds are compared only
// when thresholds is set.
func sameStructure(t *testing.T, name string, want, got *tree.Ensemble, rename []int32, leafScale float64, gainScale float32, thresholds bool) {
	t.Helper()
	if len(got.Trees) != len(want.Trees) {
		t.Fatalf("%s: %d trees, want %d", name, len(got.Trees), len(want.Trees))
	}
	splits := 0
	for k := range want.Trees {
		w, g := &want.Trees[k], &got.Trees[k]
		if len(g.Nodes) != len(w.Nodes) || len(g.Leaves) != len(w.Leaves) {
			t.Fatalf("%s: tree %d has %d nodes and %d leaves, want %d and %d", name, k, len(g.Nodes), len(g.Leaves), len(w.Nodes), len(w.Leaves))
		}
		splits += len(w.Nodes)
		for n, wn := range w.Nodes {
			gn := g.Nodes[n]
			if rename != nil {
				wn.Feature = rename[wn.Feature]
			}
			if !thresholds {
				wn.Threshold = gn.Threshold
			}
			if gn != wn {
				t.Fatalf("%s: tree %d node %d is %+v, want %+v", name, k, n, gn, wn)
			}
			if g.Gain[n] != gainScale*w.Gain[n] || g.Cover[n] != w.Cover[n] {
				t.Fatalf("%s: tree %d node %d has gain %v and cover %v, want %v and %v", name, k, n, g.Gain[n], g.Cover[n], gainScale*w.Gain[n], w.Cover[n])
			}
		}
		for l, v := range w.Leaves {
			if g.Leaves[l] != leafScale*v || g.LeafCover[l] != w.LeafCover[l] {
				t.Fatalf("%s: tree %d leaf %d is %v (cover %v), want %v (%v)", name, k, l, g.Leaves[l], g.LeafCover[l], leafScale*v, w.LeafCover[l])
			}
		}
	}
	if splits < len(want.Trees) {
		t.Fatalf("%s: only %d splits in %d trees: the test needs trees that split", name, splits, len(want.Trees))
	}
}

// samePredictions checks that got predicts the documents of gotCols as
// want predicts those of wantCols, times scale (a power of two), bit for
// bit.
func samePredictions(t *testing.T, name string, want, got *tree.Ensemble, wantCols, gotCols [][]float32, scale float64) {
	t.Helper()
	n := len(wantCols[0])
	pw := want.Predict(nil, wantCols, n, -1)
	pg := got.Predict(nil, gotCols, n, -1)
	for i := range pw {
		if pg[i] != scale*pw[i] {
			t.Fatalf("%s: document %d scores %v, want %v", name, i, pg[i], scale*pw[i])
		}
	}
}

// A strictly increasing transform of a feature keeps the order of its
// values and their counts, and the bins are chosen from those alone (one
// bin per distinct value, or quantiles of the counts): every document gets
// the same bin code, so training sees the same histograms and grows the
// same trees, split for split and leaf for leaf, bit for bit. Only the
// thresholds move, as they are placed between neighbouring values (a
// float32 below their midpoint), so that each still parts the training
// documents as before: their predictions are the same bit for bit. (Values
// not in the training data, between two neighbours, may fall on the other
// side of a moved threshold under a non-linear transform: the property is
// about the training documents.) It holds for every objective, with the
// quantile bins (fewer bins than values) too, and with row and column
// sampling, whose draws do not read the features.
func TestMonotoneTransformKeepsModel(t *testing.T) {
	// 400 documents: quantile bins (more values than 255 bins, or 16);
	// 200: one bin per value with 255 bins.
	for _, d := range []*data.Dataset{metaData(t, 1, 8, 50, 5, true), metaData(t, 6, 5, 40, 5, true)} {
		monotoneTransformKeepsModel(t, d)
	}
}

func monotoneTransformKeepsModel(t *testing.T, d *data.Dataset) {
	transforms := []struct {
		name string
		f    func(float64) float64
	}{
		{"3x+7", func(x float64) float64 { return 3*x + 7 }},
		{"exp", math.Exp},
		{"-1/(x+10)", func(x float64) float64 { return -1 / (x + 10) }},
	}
	for _, tr := range transforms {
		cols := slices.Clone(d.Cols)
		for _, f := range []int{0, 3, 4} { // some features only
			c := make([]float32, len(d.Cols[f]))
			for i, v := range d.Cols[f] {
				c[i] = float32(tr.f(float64(v)))
			}
			if !increasingWith(d.Cols[f], c) {
				t.Fatalf("%s of feature %d is not strictly increasing in float32 on these values", tr.name, f)
			}
			cols[f] = c
		}
		moved := withCols(d, cols)
		for _, obj := range []string{Regression, Binary, LambdaRank} {
			for _, bins := range []int{255, 16} {
				p := metaParams(obj)
				p.MaxBins = bins
				if bins == 16 {
					p.RowSample, p.ColSample = 0.7, 0.6
				}
				name := fmt.Sprintf("%d documents, %s %s bins %d", d.NumDocs(), tr.name, obj, bins)
				want, got := mustTrain(t, d, p), mustTrain(t, moved, p)
				if got.Base != want.Base {
					t.Fatalf("%s: base %v, want %v", name, got.Base, want.Base)
				}
				sameStructure(t, name, want, got, nil, 1, 1, false)
				samePredictions(t, name, want, got, d.Cols, moved.Cols, 1)
			}
		}
	}
}

// increasingWith reports whether a → b (document by document) is strictly
// increasing: a[i] < a[j] exactly when b[i] < b[j].
func increasingWith(a, b []float32) bool {
	idx := make([]int, len(a))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		if a[i] < a[j] {
			return -1
		}
		if a[i] > a[j] {
			return 1
		}
		return 0
	})
	for k := 1; k < len(idx); k++ {
		if !(a[idx[k-1]] < a[idx[k]]) || !(b[idx[k-1]] < b[idx[k]]) {
			return false
		}
	}
	return true
}

// A feature that is the same on every document cannot be split on, and no
// draw of the trainer depends on its values: adding one changes no tree
// and no prediction. Added as the last feature it keeps every index; added
// in the middle, the features after it move up by one.
// (TestTrainSkipsConstantFeatures covers many constant columns for
// lambdarank; this is every objective, with sampling, and the predictions.)
func TestConstantFeatureChangesNothing(t *testing.T) {
	d := metaData(t, 2, 6, 50, 4, true)
	n := d.NumDocs()
	constant := make([]float32, n)
	for i := range constant {
		constant[i] = 2.5
	}
	last := withCols(d, append(slices.Clone(d.Cols), constant))
	middle := withCols(d, slices.Concat(d.Cols[:2], [][]float32{constant}, d.Cols[2:]))
	shift := []int32{0, 1, 3, 4} // d's feature f is middle's shift[f]
	for _, obj := range []string{Regression, Binary, LambdaRank} {
		p := metaParams(obj)
		want := mustTrain(t, d, p)
		got := mustTrain(t, last, p)
		sameStructure(t, obj+" last", want, got, nil, 1, 1, true)
		samePredictions(t, obj+" last", want, got, d.Cols, last.Cols, 1)
		got = mustTrain(t, middle, p)
		sameStructure(t, obj+" middle", want, got, shift, 1, 1, true)
		samePredictions(t, obj+" middle", want, got, d.Cols, middle.Cols, 1)
	}
}

// Lambdarank reads the queries through their boundaries only; their ids
// name them in messages. Renaming the ids by a bijection that keeps the
// order of the documents (q → 1000+7q) leaves the model the same.
func TestQueryIDRenamingKeepsLambdaRankModel(t *testing.T) {
	d := metaData(t, 3, 8, 40, 4, true)
	renamed := *d
	renamed.QueryIDs = make([]int64, len(d.QueryIDs))
	for q, id := range d.QueryIDs {
		renamed.QueryIDs[q] = 1000 + 7*id
	}
	for _, ps := range []int{0, 2} { // all pairs, and sampled pairs
		p := metaParams(LambdaRank)
		p.PairSample, p.RowSample = ps, 0.8
		want, got := mustTrain(t, d, p), mustTrain(t, &renamed, p)
		sameStructure(t, "lambdarank", want, got, nil, 1, 1, true)
		samePredictions(t, "lambdarank", want, got, d.Cols, d.Cols, 1)
	}
}

// Permuting the feature columns permutes the features' histograms: each
// feature's histogram is the same (same values, same documents, same
// order of summing), and so are the gains of its splits. Split search
// breaks exact ties between features by index, but continuous random
// features with at least MinDocs documents a side give none, so the
// same splits win: the model is the same with its features renamed, and
// predicts the permuted data bit for bit as the original. (No column
// sampling: its draw is by feature index.)
func TestFeaturePermutationRenamesModel(t *testing.T) {
	// The larger set has its histograms built by 2 workers, in groups
	// of features that the permutation mixes. Values tied within a
	// feature do no harm: they tie in the permuted data too.
	for _, d := range []*data.Dataset{metaData(t, 4, 8, 50, 6, true), metaData(t, 7, 40, 100, 20, false)} {
		r := rand.New(rand.NewPCG(uint64(d.NumFeatures()), 1))
		perm := make([]int32, d.NumFeatures()) // d's feature f is column perm[f] of the permuted data
		for f, to := range r.Perm(len(perm)) {
			perm[f] = int32(to)
		}
		cols := make([][]float32, len(perm))
		for f, to := range perm {
			cols[to] = d.Cols[f]
		}
		permuted := withCols(d, cols)
		for _, obj := range []string{Regression, Binary, LambdaRank} {
			p := metaParams(obj)
			p.RowSample, p.Workers = 0.8, 2
			name := fmt.Sprintf("%d documents %s", d.NumDocs(), obj)
			want, got := mustTrain(t, d, p), mustTrain(t, permuted, p)
			sameStructure(t, name, want, got, perm, 1, 1, true)
			samePredictions(t, name, want, got, d.Cols, permuted.Cols, 1)
		}
	}
}

// Squared loss's gradients are score − label with hessians 1: doubling
// the labels doubles the base score (their mean) and every gradient, while
// the hessians stay 1. A leaf's value −G/(H+λ) then doubles and a split's
// gain (G_L²/(H_L+λ) + … ) quadruples, so the same split wins everywhere
// (MinDocs and MinHess read the counts and hessians, which do not change),
// and every score stays twice what it was. Doubling is exact in floating
// point, and commutes with the rounding of every operation, so this holds
// bit for bit. MinGain is 0 here: a positive one is compared with the
// unscaled gain and would let through splits it stopped before (set by
// design in the units of the gain, like XGBoost's gamma).
func TestRegressionDoubledLabelsDoubleModel(t *testing.T) {
	d := metaData(t, 5, 6, 50, 4, true)
	doubled := *d
	doubled.Labels = make([]float32, len(d.Labels))
	r := rand.New(rand.NewPCG(5, 5))
	for i := range d.Labels {
		d.Labels[i] += float32(r.NormFloat64()) // continuous labels
		doubled.Labels[i] = 2 * d.Labels[i]
	}
	for _, lambda := range []float64{0, 1} {
		p := metaParams(Regression)
		p.Grow.Lambda, p.RowSample, p.ColSample = lambda, 0.8, 0.8
		want, got := mustTrain(t, d, p), mustTrain(t, &doubled, p)
		if got.Base != 2*want.Base {
			t.Fatalf("λ %v: base %v, want %v", lambda, got.Base, 2*want.Base)
		}
		sameStructure(t, "regression", want, got, nil, 2, 4, true)
		samePredictions(t, "regression", want, got, d.Cols, d.Cols, 2)
	}
}
