package tree

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/cronus-ltr/cronus/data"
)

func dataset(cols [][]float32) *data.Dataset {
	n := len(cols[0])
	return &data.Dataset{Cols: cols, Labels: make([]float32, n), QueryIDs: []int64{1}, QueryOffsets: []int{0, n}, HasQID: true}
}

func grower(t testing.TB, d *data.Dataset, p GrowParams, workers int) *Grower {
	bins := data.ComputeBins(d, 255)
	b, err := bins.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	return NewGrower(b, bins, p, workers)
}

// Squared loss at the mean of y = [0 0 10 10]: g = 5 - y, h = 1. The one
// split puts {1,2} left and {3,4} right; the Newton leaf values are
// -ΣG/(ΣH+λ): -10/2 = -5 and 10/2 = 5 with λ = 0, -10/3 and 10/3 with λ = 1.
// The split's gain G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ) is 100/2 + 100/2
// − 0 = 100 with λ = 0 and 100/3 + 100/3 with λ = 1; its cover (ΣH) is 4.
func TestGrowHandWorked(t *testing.T) {
	d := dataset([][]float32{{1, 2, 3, 4}, {7, 7, 7, 7}})
	gh := []GradPair{{5, 1}, {5, 1}, {-5, 1}, {-5, 1}}
	for _, c := range []struct {
		lambda float64
		leaves []float64
		gain   float32
	}{{0, []float64{-5, 5}, 100}, {1, []float64{-10.0 / 3, 10.0 / 3}, 200.0 / 3}} {
		g := grower(t, d, GrowParams{MaxLeaves: 8, MinDocs: 1, Lambda: c.lambda}, 1)
		leafOf := make([]int32, 4)
		tr := g.Grow(gh, nil, nil, leafOf)
		if len(tr.Nodes) != 1 || tr.Nodes[0].Feature != 0 || tr.Nodes[0].Threshold != 2.5 {
			t.Fatalf("λ=%g: nodes %+v, want one split on feature 1 at 2.5", c.lambda, tr.Nodes)
		}
		if !reflect.DeepEqual(tr.Leaves, c.leaves) {
			t.Errorf("λ=%g: leaves %v, want %v", c.lambda, tr.Leaves, c.leaves)
		}
		if !reflect.DeepEqual(leafOf, []int32{0, 0, 1, 1}) {
			t.Errorf("leafOf %v", leafOf)
		}
		if !reflect.DeepEqual(tr.Gain, []float32{c.gain}) || !reflect.DeepEqual(tr.Cover, []float32{4}) {
			t.Errorf("λ=%g: split gain %v and cover %v, want [%v] and [4]", c.lambda, tr.Gain, tr.Cover, c.gain)
		}
		// The split gain is zero inside each side: no further split.
	}
}

// A leaf whose hessian sum is below MinHess, or not positive, gets 0 (as
// XGBoost's CalcWeight gives), and no split leaves a side with a hessian
// sum of 0: with λ = 0 its Newton step -G/H would be infinite. Worked by
// hand: values 0..3, G = [1 1 -2 0.5], H = [0 0 1 1], λ = 0, MinHess 0.
// Only {0,1,2} | {3} has a hessian on both sides: gain 0²/1 + 0.5²/1 −
// 0.5²/2 = 0.125 > 0; the left side cannot split again (one side would
// hold only zero hessians), so the leaves are −0/1 = 0 and −0.5/1. With
// MinHess 3 above the root's 2, the root is one leaf worth 0, not −0.25.
func TestGrowLeafBelowMinHessian(t *testing.T) {
	d := dataset([][]float32{{0, 1, 2, 3}})
	gh := []GradPair{{1, 0}, {1, 0}, {-2, 1}, {0.5, 1}}
	for _, c := range []struct {
		p      GrowParams
		gh     []GradPair
		thr    []float32
		leaves []float64
	}{
		{GrowParams{MaxLeaves: 4, MinDocs: 1}, gh, []float32{2.5}, []float64{0, -0.5}},
		{GrowParams{MaxLeaves: 4, MinDocs: 1, MinHess: 3, Lambda: 1}, gh, nil, []float64{0}},
		// Nothing but zero hessians: one leaf, 0 and not −0/0 = NaN.
		{GrowParams{MaxLeaves: 4, MinDocs: 1}, make([]GradPair, 4), nil, []float64{0}},
	} {
		checkGrown(t, d, c.p, c.gh, c.thr, c.leaves)
	}
}

// checkGrown grows one tree of d with p and gh and compares its split
// thresholds, in node order, and its leaf values with thr and leaves.
func checkGrown(t *testing.T, d *data.Dataset, p GrowParams, gh []GradPair, thr []float32, leaves []float64) {
	t.Helper()
	tr := grower(t, d, p, 1).Grow(gh, nil, nil, nil)
	var got []float32
	for _, nd := range tr.Nodes {
		got = append(got, nd.Threshold)
	}
	if !reflect.DeepEqual(got, thr) || !reflect.DeepEqual(tr.Leaves, leaves) {
		t.Errorf("%+v: thresholds %v leaves %v, want %v %v", p, got, tr.Leaves, thr, leaves)
	}
}

// A side whose hessian sum equals MinHess may be a leaf. Values 0-3 with
// g = −1, −1, 1, 1, h = 1, λ = 0: the split at 1.5 leaves H = 2 on each
// side, MinHess 2, and the leaves −ΣG/ΣH are 1 and −1 (at 0.5 or 2.5 one
// side would hold H = 1, below it).
func TestGrowMinHessBoundary(t *testing.T) {
	d := dataset([][]float32{{0, 1, 2, 3}})
	gh := []GradPair{{-1, 1}, {-1, 1}, {1, 1}, {1, 1}}
	checkGrown(t, d, GrowParams{MaxLeaves: 2, MinDocs: 1, MinHess: 2}, gh, []float32{1.5}, []float64{1, -1})
	checkGrown(t, d, GrowParams{MaxLeaves: 2, MinDocs: 1, MinHess: 2.5}, gh, nil, []float64{0})
}

// A grown tree sends each training document to the same leaf whether it
// is walked on the bin codes (LeafBinned, AddTo), on the raw values
// (LeafIndex, by the thresholds) or read from Grow's leafOf. Integer values
// with many ties put documents on the last bin left of every split.
func TestLeafBinnedMatchesLeafIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	n := 300
	cols := [][]float32{make([]float32, n), make([]float32, n), make([]float32, n)}
	gh := make([]GradPair, n)
	for i := range n {
		for j := range cols {
			cols[j][i] = float32(r.IntN(6 + 4*j))
		}
		gh[i] = GradPair{G: float32(cols[0][i] - 2*cols[1][i] + float32(r.NormFloat64())), H: 1}
	}
	d := dataset(cols)
	bins := data.ComputeBins(d, 255)
	b, err := bins.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	leafOf := make([]int32, n)
	tr := NewGrower(b, bins, GrowParams{MaxLeaves: 8, MinDocs: 5, Lambda: 1}, 1).Grow(gh, nil, nil, leafOf)
	if len(tr.Leaves) < 4 {
		t.Fatalf("%d leaves: too few to test", len(tr.Leaves))
	}
	sum := make([]float64, n)
	tr.AddTo(sum, b.Codes, 2)
	row := make([]float32, len(cols))
	for i := range n {
		for j := range cols {
			row[j] = cols[j][i]
		}
		lb, li := tr.LeafBinned(b.Codes, i), tr.LeafIndex(row)
		if lb != int(leafOf[i]) || li != lb {
			t.Fatalf("document %d (%v): LeafBinned %d, LeafIndex %d, Grow's leafOf %d", i, row, lb, li, leafOf[i])
		}
		if sum[i] != 2*tr.Leaves[lb] {
			t.Fatalf("document %d: AddTo gave %v, want 2 × %v", i, sum[i], tr.Leaves[lb])
		}
	}
}

// MinGain bounds the gain of a split, G_L²/(H_L+λ) + G_R²/(H_R+λ) −
// G²/(H+λ), from below. Values 0-3 with g = −3, −1, 1, 3, h = 1, λ = 0:
// the root splits at 1.5 with gain 16/2 + 16/2 − 0 = 16 (at 0.5 or 2.5 only
// 9 + 9/3 = 12); each half then splits with gain 9 + 1 − 16/2 = 2 (the
// left half first, of equal gains the lower-numbered leaf; a left child
// keeps its parent's number).
func TestGrowMinGain(t *testing.T) {
	d := dataset([][]float32{{0, 1, 2, 3}})
	gh := []GradPair{{-3, 1}, {-1, 1}, {1, 1}, {3, 1}}
	for _, c := range []struct {
		minGain float64
		thr     []float32
		leaves  []float64
	}{
		{0, []float32{1.5, 0.5, 2.5}, []float64{3, -1, 1, -3}},
		{1.9, []float32{1.5, 0.5, 2.5}, []float64{3, -1, 1, -3}},
		{2, []float32{1.5}, []float64{2, -2}}, // a gain must exceed it
		{15.9, []float32{1.5}, []float64{2, -2}},
		{16, nil, []float64{0}},
	} {
		checkGrown(t, d, GrowParams{MaxLeaves: 4, MinDocs: 1, MinGain: c.minGain}, gh, c.thr, c.leaves)
	}
}

func TestGrowConstraints(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	n := 400
	cols := [][]float32{make([]float32, n), make([]float32, n), make([]float32, n)}
	gh := make([]GradPair, n)
	for i := 0; i < n; i++ {
		for f := range cols {
			cols[f][i] = float32(r.IntN(50))
		}
		y := float64(cols[0][i]) + 0.5*float64(cols[1][i]) + r.NormFloat64()
		gh[i] = GradPair{G: float32(-y), H: 1}
	}
	d := dataset(cols)
	for _, p := range []GrowParams{
		{MaxLeaves: 31, MinDocs: 30},
		{MaxLeaves: 31, MinDocs: 1, MaxDepth: 2},
		{MaxLeaves: 5, MinDocs: 1},
		{MaxLeaves: 31, MinDocs: 1, MinHess: 50},
	} {
		g := grower(t, d, p, 2)
		leafOf := make([]int32, n)
		tr := g.Grow(gh, nil, nil, leafOf)
		if err := tr.Validate(3); err != nil {
			t.Fatal(err)
		}
		counts := make([]int, len(tr.Leaves))
		for i, l := range leafOf {
			counts[l]++
			x := []float32{cols[0][i], cols[1][i], cols[2][i]}
			if tr.LeafIndex(x) != int(l) {
				t.Fatalf("%+v: raw-value routing disagrees with the partition for doc %d", p, i)
			}
		}
		minDocs := max(p.MinDocs, int(p.MinHess)) // h = 1: hessian sums are counts
		for l, c := range counts {
			if c < minDocs {
				t.Errorf("%+v: leaf %d has %d documents", p, l, c)
			}
		}
		if len(tr.Leaves) > p.MaxLeaves {
			t.Errorf("%+v: %d leaves", p, len(tr.Leaves))
		}
		if p.MaxDepth > 0 && tr.Depth() > p.MaxDepth {
			t.Errorf("%+v: depth %d", p, tr.Depth())
		}
	}
}

// The root split must be the best over every feature and every threshold
// between distinct values, found here by brute force on the raw values.
func TestGrowRootSplitIsBest(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 20; trial++ {
		n, nf := 60+r.IntN(60), 1+r.IntN(4)
		cols := make([][]float32, nf)
		for f := range cols {
			cols[f] = make([]float32, n)
			for i := range cols[f] {
				cols[f][i] = float32(r.IntN(12)) // few distinct values: one bin each
			}
		}
		gh := make([]GradPair, n)
		for i := range gh {
			gh[i] = GradPair{G: float32(r.NormFloat64()), H: float32(0.5 + r.Float64())}
		}
		const lambda, minDocs = 0.5, 3
		score := func(g, h float64) float64 { return g * g / (h + lambda) }
		var G, H float64
		for _, p := range gh {
			G += float64(p.G)
			H += float64(p.H)
		}
		best := 0.0
		for f := range cols {
			for th := float32(0); th < 12; th++ {
				var gl, hl float64
				nl := 0
				for i, p := range gh {
					if cols[f][i] <= th {
						gl += float64(p.G)
						hl += float64(p.H)
						nl++
					}
				}
				if nl >= minDocs && n-nl >= minDocs {
					best = max(best, score(gl, hl)+score(G-gl, H-hl)-score(G, H))
				}
			}
		}
		g := grower(t, dataset(cols), GrowParams{MaxLeaves: 2, MinDocs: minDocs, Lambda: lambda}, 1)
		tr := g.Grow(gh, nil, nil, nil)
		if best <= 0 {
			if len(tr.Nodes) != 0 {
				t.Errorf("trial %d: split found where none improves", trial)
			}
			continue
		}
		// Recompute the gain of the split the grower chose.
		nd := tr.Nodes[0]
		var gl, hl float64
		for i, p := range gh {
			if cols[nd.Feature][i] <= nd.Threshold {
				gl += float64(p.G)
				hl += float64(p.H)
			}
		}
		got := score(gl, hl) + score(G-gl, H-hl) - score(G, H)
		if math.Abs(got-best) > 1e-6*max(1, best) {
			t.Errorf("trial %d: chosen split gains %v, best is %v", trial, got, best)
		}
	}
}

// normalCols is nf columns of n standard normal values drawn from r.
func normalCols(r *rand.Rand, nf, n int) [][]float32 {
	cols := make([][]float32, nf)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.NormFloat64())
		}
	}
	return cols
}

// Same inputs, same tree, whatever the number of workers; row subsets too.
func TestGrowDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	n := 5000
	cols := normalCols(r, 10, n)
	gh := make([]GradPair, n)
	for i := range gh {
		gh[i] = GradPair{G: cols[0][i]*cols[3][i] + float32(r.NormFloat64()), H: 1}
	}
	var rows []int32
	for i := 0; i < n; i += 2 {
		rows = append(rows, int32(i))
	}
	d := dataset(cols)
	p := GrowParams{MaxLeaves: 31, MinDocs: 5}
	for _, rs := range [][]int32{nil, rows} {
		a := grower(t, d, p, 1).Grow(gh, rs, nil, nil)
		b := grower(t, d, p, 2).Grow(gh, rs, nil, nil)
		c := grower(t, d, p, 7).Grow(gh, rs, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, nil)
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
			t.Fatal("trees differ with the number of workers")
		}
		if len(a.Leaves) != 31 {
			t.Errorf("%d leaves, want 31", len(a.Leaves))
		}
	}
}

func TestGrowFeatureSubset(t *testing.T) {
	d := dataset([][]float32{{1, 2, 3, 4}, {4, 3, 2, 1}, {0, 0, 1, 1}})
	gh := []GradPair{{5, 1}, {5, 1}, {-5, 1}, {-5, 1}}
	g := grower(t, d, GrowParams{MaxLeaves: 4, MinDocs: 1}, 1)
	for _, fs := range [][]int{{1}, {2}, {1, 2}} {
		tr := g.Grow(gh, nil, fs, nil)
		for _, nd := range tr.Nodes {
			ok := false
			for _, f := range fs {
				ok = ok || int(nd.Feature) == f
			}
			if !ok {
				t.Errorf("features %v: split on %d", fs, nd.Feature)
			}
		}
	}
}

// The parallel partition of a large segment equals the serial one.
func TestPartitionParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	n := 200_000
	col := make([]uint8, n)
	for i := range col {
		col[i] = uint8(r.IntN(256))
	}
	for _, w := range []int{2, 3} {
		g := &Grower{workers: w, tmp: make([]int32, n)}
		for i := 0; i < n; i++ {
			if r.IntN(2) == 0 {
				g.idx = append(g.idx, int32(i))
			}
		}
		want := append([]int32(nil), g.idx...)
		mid := partitionPart(want[7:], make([]int32, len(want)), col, 100) + 7
		got := g.partition(7, len(g.idx), col, 100)
		if got != mid || !reflect.DeepEqual(g.idx, want) {
			t.Fatalf("workers %d: boundary %d (want %d) or order differs", w, got, mid)
		}
	}
}

// With every hessian 1 the histograms skip the hessian sums and count
// documents instead (Grower.unitH). Doubling every gradient and hessian
// leaves the best splits and the Newton leaf values (λ = 0) unchanged in
// exact arithmetic, and doubling is exact in floating point, so the general
// path on (2g, 2) must give the very tree of the unit path on (g, 1) — also
// on a row subset whose other documents have other hessians, and with the
// minimum hessian doubled alongside.
func TestGrowUnitHessian(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	n := 6000
	cols := make([][]float32, 9)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.IntN(40 + 30*f))
		}
	}
	// unit has hessians of 1; unitRows too on rows, but 0.25 on a third of
	// the other documents, which must not turn the unit path off.
	unit, unitRows, double := make([]GradPair, n), make([]GradPair, n), make([]GradPair, n)
	var rows []int32
	for i := range unit {
		g := cols[1][i] - 2*cols[4][i] + float32(r.NormFloat64())
		unit[i], unitRows[i], double[i] = GradPair{G: g, H: 1}, GradPair{G: g, H: 1}, GradPair{G: 2 * g, H: 2}
		if i%3 == 0 {
			rows = append(rows, int32(i))
		} else if i%3 == 1 {
			unitRows[i].H = 0.25
		}
	}
	d := dataset(cols)
	for _, rs := range [][]int32{nil, rows} {
		unit := unit
		if rs != nil {
			unit = unitRows
		}
		for _, minHess := range []float64{0, 40} {
			g1 := grower(t, d, GrowParams{MaxLeaves: 31, MinDocs: 3, MinHess: minHess}, 2)
			a := g1.Grow(unit, rs, nil, nil)
			if !g1.unitH {
				t.Fatal("hessians of 1: the unit path was not taken")
			}
			g2 := grower(t, d, GrowParams{MaxLeaves: 31, MinDocs: 3, MinHess: 2 * minHess}, 2)
			b := g2.Grow(double, rs, nil, nil)
			if g2.unitH {
				t.Fatal("hessians of 2: the unit path was taken")
			}
			// Doubling G and H doubles every gain and cover (exactly: a
			// power of 2 changes no rounding), and changes nothing else.
			for k := range b.Gain {
				b.Gain[k] /= 2
				b.Cover[k] /= 2
			}
			for k := range b.LeafCover {
				b.LeafCover[k] /= 2
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("rows %v, min hessian %g: the unit path's tree differs from the general path's", rs != nil, minHess)
			}
			if len(a.Leaves) < 20 {
				t.Errorf("only %d leaves: too few to test much", len(a.Leaves))
			}
		}
	}
}

// NewGrowerContext stops once its context is done: laying the codes out
// row-major took seconds on a large data set, and an interrupt waited.
func TestNewGrowerCancelled(t *testing.T) {
	d := dataset([][]float32{{1, 2, 3, 4}, {7, 7, 7, 7}})
	bins := data.ComputeBins(d, 255)
	b, err := bins.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if g, err := NewGrowerContext(ctx, b, bins, GrowParams{MaxLeaves: 8, MinDocs: 1}, 2); !errors.Is(err, context.Canceled) || g != nil {
		t.Errorf("NewGrowerContext: %v, %v; want nil, context.Canceled", g, err)
	}
}

// Every split's gain and cover agree with sums taken afresh over the
// documents that reach it (the grower's come from histograms, the larger
// child's by subtraction), with row sampling and an L2 penalty.
func TestGrowGainCoverRecomputed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, nf, lambda = 3000, 5, 2.0
	cols := make([][]float32, nf)
	for f := range cols {
		cols[f] = make([]float32, n)
		for i := range cols[f] {
			cols[f][i] = float32(r.IntN(50 + 20*f))
		}
	}
	gh := make([]GradPair, n)
	var rows []int32
	for i := range gh {
		gh[i] = GradPair{G: cols[0][i] - cols[3][i] + float32(r.NormFloat64()), H: 0.5 + float32(r.Float64())}
		if i%4 != 0 {
			rows = append(rows, int32(i))
		}
	}
	d := dataset(cols)
	g := grower(t, d, GrowParams{MaxLeaves: 31, MinDocs: 5, Lambda: lambda}, 2)
	tr := g.Grow(gh, rows, nil, nil)
	if len(tr.Nodes) < 20 || len(tr.Gain) != len(tr.Nodes) || len(tr.Cover) != len(tr.Nodes) {
		t.Fatalf("%d splits, %d gains, %d covers", len(tr.Nodes), len(tr.Gain), len(tr.Cover))
	}
	// Sums of G and H at each node, and on each node's left side; of H
	// at each leaf.
	G, H, GL, HL := make([]float64, len(tr.Nodes)), make([]float64, len(tr.Nodes)), make([]float64, len(tr.Nodes)), make([]float64, len(tr.Nodes))
	HLeaf := make([]float64, len(tr.Leaves))
	x := make([]float32, nf)
	for _, i := range rows {
		for f := range x {
			x[f] = cols[f][i]
		}
		k := int32(0)
		for k >= 0 {
			nd := tr.Nodes[k]
			G[k] += float64(gh[i].G)
			H[k] += float64(gh[i].H)
			if x[nd.Feature] <= nd.Threshold {
				GL[k] += float64(gh[i].G)
				HL[k] += float64(gh[i].H)
				k = nd.Left
			} else {
				k = nd.Right
			}
		}
		HLeaf[^k] += float64(gh[i].H)
	}
	if len(tr.LeafCover) != len(tr.Leaves) {
		t.Fatalf("%d leaves, %d leaf covers", len(tr.Leaves), len(tr.LeafCover))
	}
	for l, h := range HLeaf {
		if d := math.Abs(float64(tr.LeafCover[l]) - h); d > 1e-5*h {
			t.Errorf("leaf %d: cover %v, recomputed %v", l, tr.LeafCover[l], h)
		}
	}
	for k := range tr.Nodes {
		gr, hr := G[k]-GL[k], H[k]-HL[k]
		gain := GL[k]*GL[k]/(HL[k]+lambda) + gr*gr/(hr+lambda) - G[k]*G[k]/(H[k]+lambda)
		if d := math.Abs(float64(tr.Gain[k]) - gain); d > 1e-4*math.Abs(gain) {
			t.Errorf("split %d: gain %v, recomputed %v", k, tr.Gain[k], gain)
		}
		if d := math.Abs(float64(tr.Cover[k]) - H[k]); d > 1e-5*H[k] {
			t.Errorf("split %d: cover %v, recomputed %v", k, tr.Cover[k], H[k])
		}
	}
}

// A leaf that can no longer split (too few documents, at --max-depth, or
// no split past MinGain) gives its histogram back at once: Grow kept every
// leaf's histogram until the tree ended, MaxLeaves of them (24 bytes × 256
// bins × features each) alive at once, 3.6 GB for 4,096 leaves on 136
// features. The buffers a tree allocated are those in the free list after it.
func TestGrowReleasesUnsplittableHistograms(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	n := 4000
	cols := normalCols(r, 8, n)
	gh := make([]GradPair, n)
	for i := range gh {
		gh[i] = GradPair{G: cols[0][i] + cols[1][i]*cols[2][i] + float32(r.NormFloat64()), H: 1}
	}
	d := dataset(cols)
	for _, c := range []struct {
		p    GrowParams
		most int
	}{
		{GrowParams{MaxLeaves: 400, MinDocs: 5}, 180},
		{GrowParams{MaxLeaves: 64, MaxDepth: 6, MinDocs: 1}, 26},
	} {
		g := grower(t, d, c.p, 2)
		tr := g.Grow(gh, nil, nil, nil)
		if len(tr.Leaves) <= 2*c.most {
			t.Fatalf("%+v: %d leaves, want more than %d", c.p, len(tr.Leaves), 2*c.most)
		}
		if len(g.free) > c.most {
			t.Errorf("%+v: %d histograms allocated for %d leaves, want at most %d", c.p, len(g.free), len(tr.Leaves), c.most)
		}
		t.Logf("%+v: %d histograms for %d leaves", c.p, len(g.free), len(tr.Leaves))
	}
}
