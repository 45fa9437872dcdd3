package cronus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// outRandomTree returns a tree of exactly leaves leaves, split in halves
// recursively on random features (of F) at standard normal thresholds, with
// standard normal leaf values.
func outRandomTree(rng *rand.Rand, leaves, F int) tree.Tree {
	var tr tree.Tree
	var build func(l int) int32
	build = func(l int) int32 {
		if l == 1 {
			tr.Leaves = append(tr.Leaves, rng.NormFloat64())
			return tree.Leaf(len(tr.Leaves) - 1)
		}
		n := len(tr.Nodes)
		tr.Nodes = append(tr.Nodes, tree.Node{Feature: int32(rng.IntN(F)), Threshold: float32(rng.NormFloat64())})
		left := build(l / 2)
		right := build(l - l/2)
		tr.Nodes[n].Left, tr.Nodes[n].Right = left, right
		return int32(n)
	}
	build(leaves)
	return tr
}

// outRandomData returns n documents of F standard normal features in one
// query, labels 0 or 1.
func outRandomData(rng *rand.Rand, n, F int) *data.Dataset {
	d := &data.Dataset{Name: "random", Cols: make([][]float32, F), Labels: make([]float32, n),
		QueryIDs: []int64{1}, QueryOffsets: []int{0, n}}
	for f := range d.Cols {
		d.Cols[f] = make([]float32, n)
		for i := range d.Cols[f] {
			d.Cols[f][i] = float32(rng.NormFloat64())
		}
	}
	for i := range d.Labels {
		d.Labels[i] = float32(rng.IntN(2))
	}
	return d
}

// outRandomEnsemble returns trees of the given numbers of leaves over F
// features.
func outRandomEnsemble(rng *rand.Rand, F int, leaves ...int) *tree.Ensemble {
	e := &tree.Ensemble{NumFeatures: F, Objective: "regression"}
	for _, l := range leaves {
		e.Trees = append(e.Trees, outRandomTree(rng, l, F))
	}
	return e
}

// outSameColumns fails unless a and b hold the same trees and the same
// values, bit for bit.
func outSameColumns(t *testing.T, a, b *Outputs) {
	t.Helper()
	if a.N != b.N || a.NumTrees() != b.NumTrees() {
		t.Fatalf("%d×%d outputs against %d×%d", a.N, a.NumTrees(), b.N, b.NumTrees())
	}
	bufA, bufB := make([]float32, a.N), make([]float32, b.N)
	for tr := range a.NumTrees() {
		if !slices.Equal(a.Col(tr, bufA), b.Col(tr, bufB)) {
			t.Fatalf("tree %d: the columns differ", tr)
		}
	}
}

// The compact outputs hold exactly the dense ones' values, and everything
// computed from them is the same bit for bit: Gram (both kernels),
// GramSubset, Scores, Algorithm 2 and a short cyclic optimisation.
func TestOutputsCompactSameResults(t *testing.T) {
	pr := smallProblem(t)
	dense := NewOutputsMode(smallE, smallTr, OutputsDense)
	compact := NewOutputsMode(smallE, smallTr, OutputsCompact)
	T := dense.NumTrees()
	for tr := range T {
		if dense.Compact(tr) || !compact.Compact(tr) {
			t.Fatalf("tree %d: compact %v in dense mode, %v in compact mode", tr, dense.Compact(tr), compact.Compact(tr))
		}
	}
	outSameColumns(t, pr.Train, dense)
	outSameColumns(t, dense, compact)
	if db, cb := dense.Bytes(), compact.Bytes(); cb >= db || db != int64(dense.N*T*4) {
		t.Errorf("Bytes: dense %d (want %d), compact %d", db, dense.N*T*4, cb)
	}

	gramKernels(t, func(t *testing.T) {
		g1, r1 := Gram(nil, nil, dense, pr.Omega, pr.Y, 2)
		g2, r2 := Gram(nil, nil, compact, pr.Omega, pr.Y, 2)
		if !slices.Equal(g1, g2) || !slices.Equal(r1, r2) {
			t.Error("Gram differs between dense and compact outputs")
		}
		cols := []int{0, 3, 7, 20, T - 1, T}
		g1, r1 = GramSubset(nil, nil, dense, pr.Omega, pr.Y, cols, 2)
		g2, r2 = GramSubset(nil, nil, compact, pr.Omega, pr.Y, cols, 2)
		if !slices.Equal(g1, g2) || !slices.Equal(r1, r2) {
			t.Error("GramSubset differs between dense and compact outputs")
		}
	})

	rng := rand.New(rand.NewPCG(3, 4))
	beta := make([]float64, T+1)
	for tr := range beta {
		if rng.IntN(3) > 0 {
			beta[tr] = rng.NormFloat64()
		}
	}
	if !slices.Equal(dense.Scores(nil, beta), compact.Scores(nil, beta)) {
		t.Error("Scores differ between dense and compact outputs")
	}

	cpr := *pr
	cpr.Train = compact
	par := DefaultParams()
	par.K, par.Lambda = 3, 0.05
	sc, csc := ComputeScales(pr, 2), ComputeScales(&cpr, 2)
	if sc != csc {
		t.Fatalf("scales: %+v dense, %+v compact", sc, csc)
	}
	s1, err := Initialize(context.Background(), pr, sc, par)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Initialize(context.Background(), &cpr, sc, par)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s1.Stages, s2.Stages) || s1.Terms != s2.Terms {
		t.Error("Initialize differs between dense and compact outputs")
	}
	opt := Options{MaxCycles: 1}
	o1, err := Optimize(context.Background(), pr, sc, par, opt, trainEvaluator(pr), nil)
	if err != nil {
		t.Fatal(err)
	}
	o2, err := Optimize(context.Background(), &cpr, sc, par, opt, trainEvaluator(&cpr), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o1.Final.Stages, o2.Final.Stages) || o1.Final.Terms != o2.Final.Terms ||
		!reflect.DeepEqual(o1.Best.Stages, o2.Best.Stages) {
		t.Error("Optimize differs between dense and compact outputs")
	}
}

// OutputsAuto turns compact just above MaxDenseOutputBytes, or above a
// quarter of the memory available when that is less.
func TestOutputsAutoLimit(t *testing.T) {
	defer func(v int64, a func() int64) { MaxDenseOutputBytes, availableMemory = v, a }(MaxDenseOutputBytes, availableMemory)
	rng := rand.New(rand.NewPCG(1, 2))
	const n, F = 1000, 5
	e := outRandomEnsemble(rng, F, 8, 8, 8)
	d := outRandomData(rng, n, F)
	for _, tc := range []struct {
		limit, avail int64 // avail 0: cannot tell
		compact      bool
	}{
		{n * 3 * 4, 0, false}, {n*3*4 - 1, 0, true},
		{1 << 30, 4 * n * 3 * 4, false}, {1 << 30, 4*n*3*4 - 4, true},
		{n*3*4 - 1, 1 << 40, true},
	} {
		MaxDenseOutputBytes = tc.limit
		availableMemory = func() int64 { return tc.avail }
		o := NewOutputs(e, d)
		for tr := range o.NumTrees() {
			if o.Compact(tr) != tc.compact {
				t.Errorf("limit %d, %d bytes available: tree %d compact %v, want %v", tc.limit, tc.avail, tr, o.Compact(tr), tc.compact)
			}
		}
		outSameColumns(t, o, NewOutputsMode(e, d, OutputsDense))
	}
}

// In compact mode a tree of more than 256 leaves keeps a dense column; the
// others are coded, and the values are those of dense mode.
func TestOutputsWideTreeStaysDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, F = 3000, 4
	e := outRandomEnsemble(rng, F, 300, 4, 256, 257, 1)
	d := outRandomData(rng, n, F)
	dense := NewOutputsMode(e, d, OutputsDense)
	compact := NewOutputsMode(e, d, OutputsCompact)
	want := []bool{false, true, true, false, true}
	for tr, w := range want {
		if compact.Compact(tr) != w {
			t.Errorf("tree %d (%d leaves): compact %v, want %v", tr, len(e.Trees[tr].Leaves), compact.Compact(tr), w)
		}
	}
	outSameColumns(t, dense, compact)
	if want := int64(n*4*2 + (n+256*4)*3); compact.Bytes() != want {
		t.Errorf("Bytes = %d, want %d", compact.Bytes(), want)
	}
	w := make([]float64, n)
	y := make([]float64, n)
	for i := range w {
		w[i], y[i] = rng.Float64(), float64(2*rng.IntN(2)-1)
	}
	g1, r1 := Gram(nil, nil, dense, w, y, 2)
	g2, r2 := Gram(nil, nil, compact, w, y, 2)
	if !slices.Equal(g1, g2) || !slices.Equal(r1, r2) {
		t.Error("Gram differs between dense and compact outputs")
	}
}

// Col decodes into the buffer it is given when it is long enough.
func TestOutputsColBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	e := outRandomEnsemble(rng, 3, 16)
	d := outRandomData(rng, 100, 3)
	o := NewOutputsMode(e, d, OutputsCompact)
	buf := make([]float32, 0, 200)
	if col := o.Col(0, buf); len(col) != 100 || &col[0] != &buf[:1][0] {
		t.Errorf("Col did not decode into buf (len %d)", len(col))
	}
	if col := o.Col(0, nil); len(col) != 100 {
		t.Errorf("Col(0, nil) has %d values", len(col))
	}
}

// BenchmarkNewOutputs builds H for 200,000 documents × 1,000 trees of 32
// leaves in each mode, reporting the bytes the columns hold (bytes-held)
// next to -benchmem's allocations (which include the leaf indices of one
// block of trees).
func BenchmarkNewOutputs(b *testing.B) {
	const n, T, F = 200_000, 1000, 46
	rng := rand.New(rand.NewPCG(2012, 15))
	e := outRandomEnsemble(rng, F, slices.Repeat([]int{32}, T)...)
	d := outRandomData(rng, n, F)
	for _, mode := range []struct {
		name string
		m    OutputsMode
	}{{"dense", OutputsDense}, {"compact", OutputsCompact}} {
		b.Run(fmt.Sprintf("N=%d/T=%d/mode=%s", n, T, mode.name), func(b *testing.B) {
			var o *Outputs
			for b.Loop() {
				o = NewOutputsMode(e, d, mode.m)
			}
			b.ReportMetric(float64(o.Bytes()), "bytes-held")
		})
	}
}

// addScaled2 rounds exactly as two addScaled calls, dense or compact.
func TestAddScaled2(t *testing.T) {
	smallProblem(t)
	r := rand.New(rand.NewPCG(5, 5))
	for _, mode := range []OutputsMode{OutputsDense, OutputsCompact} {
		o := NewOutputsMode(smallE, smallTr, mode)
		lo, n := 17, 1000
		base := make([]float64, n)
		for i := range base {
			base[i] = r.NormFloat64()
		}
		for trial := 0; trial < 20; trial++ {
			tr, u := r.IntN(o.NumTrees()), r.IntN(o.NumTrees())
			b, c := r.NormFloat64()*3, r.NormFloat64()/3
			want := slices.Clone(base)
			o.addScaled(want, tr, lo, b)
			o.addScaled(want, u, lo, c)
			got := slices.Clone(base)
			o.addScaled2(got, tr, u, lo, b, c)
			if !sameBits(got, want) {
				t.Fatalf("mode %d, trees %d and %d: one pass differs from two", mode, tr, u)
			}
		}
	}
}

// NewOutputsProgress reports each block of trees as it is built, up to
// all of them, and builds what NewOutputsMode builds.
func TestOutputsProgress(t *testing.T) {
	defer func(b int) { outputsBlockBytes = b }(outputsBlockBytes)
	outputsBlockBytes = 4 * 100 * 3 // three trees of 100 documents a block
	rng := rand.New(rand.NewPCG(3, 4))
	const n, F = 100, 5
	e := outRandomEnsemble(rng, F, 4, 4, 4, 4, 4, 4, 4, 4)
	d := outRandomData(rng, n, F)
	var got [][2]int
	o, err := NewOutputsProgress(context.Background(), e, d, OutputsAuto, func(done, total int) { got = append(got, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{3, 8}, {6, 8}, {8, 8}}; !reflect.DeepEqual(got, want) {
		t.Errorf("reports %v, want %v", got, want)
	}
	outSameColumns(t, o, NewOutputsMode(e, d, OutputsAuto))
}
