package cronus

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Outputs is the tree-output matrix H of a data set: H[t][i] is the value of
// tree t for document i, as float32 (column-major: one column per tree). The
// constant (intercept) column is implicit. Read a column with Col; the
// package's hot loops (Scores, Gram, the cyclic descent) decode the columns
// they need directly.
//
// A column is stored in one of two ways:
//
//   - dense: the N float32 values (4 bytes per document);
//   - compact: the leaf of every document as a uint8 code, plus the tree's
//     leaf values as float32, H[t][i] = vals[t][code[t][i]] (1 byte per
//     document). Only trees of at most 256 leaves can be stored so; a larger
//     tree keeps a dense column.
//
// The values are the same float32 either way, so everything computed from H
// is the same bit for bit in both modes; compact mode is only slower to read.
// NewOutputs chooses compact mode when the dense matrix would take more than
// denseLimit: MaxDenseOutputBytes, or a quarter of the memory available.
type Outputs struct {
	N     int            // documents
	dense [][]float32    // dense[t]: tree t's N values, when tree t is stored dense
	code  [][]uint8      // code[t]: the leaf (index into vals[t]) of each document, when compact; nil when all dense
	vals  [][256]float32 // vals[t]: tree t's leaf values (zeros past its last leaf), when code[t] != nil
}

// MaxDenseOutputBytes is the largest dense tree-output matrix (N·T·4 bytes)
// that NewOutputs builds: above it, H is held as one-byte leaf codes, a
// quarter of the memory (200,000 documents × 1,000 trees: 200 MB instead of
// 800 MB), at the price of slower reads (Gram, Scores). Default 1 GiB, or a
// quarter of the memory available when that is less (denseLimit).
var MaxDenseOutputBytes int64 = 1 << 30

// availableMemory is data.AvailableMemory (a variable for the tests).
var availableMemory = data.AvailableMemory

// denseLimit is the largest dense H that OutputsAuto builds:
// MaxDenseOutputBytes, or a quarter of the memory available when that is
// less, for H is built for the training, validation and test data alike,
// with the Gram product's work beside them (a 1 GiB H was built dense
// whatever the memory free).
func denseLimit() int64 {
	limit := MaxDenseOutputBytes
	if a := availableMemory(); a > 0 && a/4 < limit {
		limit = a / 4
	}
	return limit
}

// OutputsMode chooses how NewOutputsMode stores H.
type OutputsMode int

const (
	OutputsAuto    OutputsMode = iota // compact when N·T·4 bytes > denseLimit(), dense otherwise
	OutputsDense                      // every column dense
	OutputsCompact                    // leaf codes for every tree of at most 256 leaves
)

// maxCodedLeaves is the most leaves a tree can have for a compact column.
const maxCodedLeaves = 256

// outputsBlockBytes bounds the leaf indices (int32) NewOutputsMode holds at
// a time: it evaluates the trees a block of them at a time.
var outputsBlockBytes = 64 << 20 // a variable for the tests

// NewOutputs evaluates every tree of e on every document of d once, from
// the leaf indices, storing H dense or compact as OutputsAuto chooses.
func NewOutputs(e *tree.Ensemble, d *data.Dataset) *Outputs {
	return NewOutputsMode(e, d, OutputsAuto)
}

// NewOutputsMode is NewOutputs with the storage chosen by mode. The trees are
// evaluated a block at a time, so that the leaf indices of the whole
// ensemble are never held at once.
func NewOutputsMode(e *tree.Ensemble, d *data.Dataset, mode OutputsMode) *Outputs {
	o, _ := NewOutputsContext(context.Background(), e, d, mode)
	return o
}

// NewOutputsContext is NewOutputsMode that stops, within a block of
// documents on each core, when ctx is done, and then returns ctx's error.
func NewOutputsContext(ctx context.Context, e *tree.Ensemble, d *data.Dataset, mode OutputsMode) (*Outputs, error) {
	return NewOutputsProgress(ctx, e, d, mode, nil)
}

// NewOutputsProgress is NewOutputsContext that calls progress (when not
// nil), on the caller's goroutine, after each block of trees with the
// trees done and their total: at 200,000 documents × 1,000 trees H takes
// seconds to build, ten times that on ten times the documents.
func NewOutputsProgress(ctx context.Context, e *tree.Ensemble, d *data.Dataset, mode OutputsMode, progress func(done, total int)) (*Outputs, error) {
	n, T := d.NumDocs(), len(e.Trees)
	compact := mode == OutputsCompact ||
		mode == OutputsAuto && int64(n)*int64(T)*4 > denseLimit()
	o := &Outputs{N: n, dense: make([][]float32, T)}
	if compact {
		o.code = make([][]uint8, T)
		o.vals = make([][256]float32, T)
	}
	cols := d.PaddedCols(e.NumFeatures)
	per := max(1, outputsBlockBytes/(4*max(n, 1)))
	var leaves []int32
	for t0 := 0; t0 < T; t0 += per {
		t1 := min(t0+per, T)
		sub := tree.Ensemble{Trees: e.Trees[t0:t1], NumFeatures: e.NumFeatures}
		if cap(leaves) < (t1-t0)*n {
			leaves = make([]int32, (t1-t0)*n)
		}
		var err error
		if leaves, err = sub.LeafIndicesContext(ctx, leaves[:(t1-t0)*n], cols, n, -1); err != nil {
			return nil, err
		}
		outputsParallel(t1-t0, func(j int) {
			t := t0 + j
			idx := leaves[j*n : (j+1)*n]
			vals := e.Trees[t].Leaves
			if compact && len(vals) <= maxCodedLeaves {
				for l, v := range vals {
					o.vals[t][l] = float32(v)
				}
				code := make([]uint8, n)
				for i, l := range idx {
					code[i] = uint8(l)
				}
				o.code[t] = code
				return
			}
			col := make([]float32, n)
			for i, l := range idx {
				col[i] = float32(vals[l])
			}
			o.dense[t] = col
		})
		if progress != nil {
			progress(t1, T)
		}
	}
	return o, nil
}

// OutputsFromColumns returns dense Outputs holding the columns h (one per
// tree, each of n values; not copied).
func OutputsFromColumns(n int, h [][]float32) *Outputs {
	for t, col := range h {
		if len(col) != n {
			panic(fmt.Sprintf("cronus: OutputsFromColumns: tree %d has %d outputs for %d documents", t, len(col), n))
		}
	}
	return &Outputs{N: n, dense: h}
}

// outputsParallel calls do(0), …, do(n-1), spread over GOMAXPROCS
// goroutines.
func outputsParallel(n int, do func(j int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Go(func() {
			for j := k; j < n; j += w {
				do(j)
			}
		})
	}
	wg.Wait()
}

// NumTrees returns T, the number of tree columns.
func (o *Outputs) NumTrees() int { return len(o.dense) }

// Compact reports whether tree t's column is stored as leaf codes.
func (o *Outputs) Compact(t int) bool { return o.code != nil && o.code[t] != nil }

// Bytes returns the memory the columns take: 4 bytes per value of a dense
// column, 1 byte per document plus the leaf-value table of a compact one.
func (o *Outputs) Bytes() int64 {
	var b int64
	for t := range o.dense {
		if o.Compact(t) {
			b += int64(len(o.code[t])) + int64(len(o.vals[t]))*4
		} else {
			b += int64(len(o.dense[t])) * 4
		}
	}
	return b
}

// Col returns column t of H, its N values: the stored column when it is
// dense, else decoded into buf (a new slice when buf is too short). The
// result may be the stored column: do not modify it, and keep buf apart from
// it (h := o.Col(t, buf), not buf = o.Col(t, buf), or the next decoding
// would overwrite a stored column).
func (o *Outputs) Col(t int, buf []float32) []float32 {
	if !o.Compact(t) {
		return o.dense[t]
	}
	if cap(buf) < o.N {
		buf = make([]float32, o.N)
	}
	buf = buf[:o.N]
	vals := &o.vals[t]
	for i, c := range o.code[t] {
		buf[i] = vals[c]
	}
	return buf
}

// addScaled adds b·H[t][lo+i] to dst[i] for every i of dst, the product
// rounded before the sum (float64(…) forbids a fused multiply-add), as the
// scorer rounds it: on arm64, or amd64 built with GOAMD64=v3, the compiler
// fused it, and the scores that place θ and count the hard exits and the
// predicted cost parted from the scorer's in the last bit.
func (o *Outputs) addScaled(dst []float64, t, lo int, b float64) {
	if !o.Compact(t) {
		for i, h := range o.dense[t][lo : lo+len(dst)] {
			dst[i] += float64(b * float64(h))
		}
		return
	}
	vals := &o.vals[t]
	for i, c := range o.code[t][lo : lo+len(dst)] {
		dst[i] += float64(b * float64(vals[c]))
	}
}

// addScaled2 is addScaled for trees t and u with weights b and c, in one
// pass when both columns are dense: each entry gets (dst + b·H_t) + c·H_u,
// rounded exactly as two calls would round it.
func (o *Outputs) addScaled2(dst []float64, t, u, lo int, b, c float64) {
	if o.Compact(t) || o.Compact(u) {
		o.addScaled(dst, t, lo, b)
		o.addScaled(dst, u, lo, c)
		return
	}
	ht := o.dense[t][lo : lo+len(dst)]
	hu := o.dense[u][lo : lo+len(dst)]
	for i := range dst {
		dst[i] = (dst[i] + float64(b*float64(ht[i]))) + float64(c*float64(hu[i]))
	}
}

// dot returns Σ_i x[i]·H[t][lo+i] over the entries of x, added in order.
func (o *Outputs) dot(t, lo int, x []float64) float64 {
	v := 0.0
	if !o.Compact(t) {
		for i, h := range o.dense[t][lo : lo+len(x)] {
			v += x[i] * float64(h)
		}
		return v
	}
	vals := &o.vals[t]
	for i, c := range o.code[t][lo : lo+len(x)] {
		v += x[i] * float64(vals[c])
	}
	return v
}

// scaleInto sets dst[i] = s[i]·H[t][lo+i] for every i of dst (s has at
// least len(dst) entries): Gram's conversion of a block of a column.
func (o *Outputs) scaleInto(dst, s []float64, t, lo int) {
	s = s[:len(dst)]
	if !o.Compact(t) {
		h := o.dense[t][lo : lo+len(dst)]
		for i := range dst {
			dst[i] = s[i] * float64(h[i])
		}
		return
	}
	vals := &o.vals[t]
	for i, c := range o.code[t][lo : lo+len(dst)] {
		dst[i] = s[i] * float64(vals[c])
	}
}

// Scores writes dst[i] = beta[T] + Σ_t beta[t]·H[t][i] (beta has T+1 entries,
// the last one the intercept), skipping zero weights.
func (o *Outputs) Scores(dst []float64, beta []float64) []float64 {
	if dst == nil {
		dst = make([]float64, o.N)
	}
	T := o.NumTrees()
	if len(beta) != T+1 {
		panic(fmt.Sprintf("cronus: Scores: %d weights for %d trees and the intercept", len(beta), T))
	}
	for i := range dst[:o.N] {
		dst[i] = beta[T]
	}
	for t, b := range beta[:T] {
		if b == 0 {
			continue
		}
		o.addScaled(dst[:o.N], t, 0, b)
	}
	return dst
}
