package cronus

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Outputs is the tree-output matrix H of a data set: H[t][i] is the value of
// tree t for document i (column-major: one contiguous column per tree). The
// constant (intercept) column is implicit.
type Outputs struct {
	N int         // documents
	H [][]float32 // one column of N values per tree
}

// NewOutputs evaluates every tree of e on every document of d once, from
// the leaf indices.
func NewOutputs(e *tree.Ensemble, d *data.Dataset) *Outputs {
	n := d.NumDocs()
	leaves := e.LeafIndices(nil, padCols(d, e.NumFeatures), n, -1)
	o := &Outputs{N: n, H: make([][]float32, len(e.Trees))}
	block := make([]float32, n*len(e.Trees))
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for t := k; t < len(e.Trees); t += w {
				col := block[t*n : (t+1)*n : (t+1)*n]
				vals := e.Trees[t].Leaves
				for i, l := range leaves[t*n : (t+1)*n] {
					col[i] = float32(vals[l])
				}
				o.H[t] = col
			}
		}(k)
	}
	wg.Wait()
	return o
}

// padCols returns d's columns, with all-zero columns added up to want.
func padCols(d *data.Dataset, want int) [][]float32 {
	cols := d.Cols
	for len(cols) < want {
		cols = append(cols[:len(cols):len(cols)], make([]float32, d.NumDocs()))
	}
	return cols
}

// Scores writes dst[i] = beta[T] + Σ_t beta[t]·H[t][i] (beta has T+1 entries,
// the last one the intercept), skipping zero weights.
func (o *Outputs) Scores(dst []float64, beta []float64) []float64 {
	if dst == nil {
		dst = make([]float64, o.N)
	}
	T := len(o.H)
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
		for i, h := range o.H[t] {
			dst[i] += b * float64(h)
		}
	}
	return dst
}

// Problem is the fixed part of a cascade optimisation: the training tree
// outputs, binary targets and instance weights, and the cost structure.
type Problem struct {
	Train     *Outputs
	Y         []float64 // +1 (relevant) or −1 per training document
	Omega     []float64 // instance weight ω_i per training document
	TreeFeats [][]int   // features (0-based) each tree uses: the matrix F
	FeatCost  []float64 // c_α per feature
	TreeCost  []float64 // e_t per tree
}

// Targets are the choices that turn graded labels into the paper's binary
// weighted regression problem.
type Targets struct {
	Relevant    float64 // label >= Relevant is positive (+1); default 1
	PosWeight   float64 // ω⁺ (default 3.5)
	NegWeight   float64 // ω⁻ (default 1)
	NegMultiply float64 // extra factor on ω⁻, in place of replicating negatives (the paper replicates them 10 times); default 1
}

// DefaultTargets returns the paper's choices (§3.4, §4), with negatives
// weighted instead of replicated.
func DefaultTargets() Targets {
	return Targets{Relevant: 1, PosWeight: 3.5, NegWeight: 1, NegMultiply: 1}
}

// NewProblem sets up the optimisation of ensemble e on training data d with
// feature costs and a cost per tree evaluation.
func NewProblem(e *tree.Ensemble, d *data.Dataset, featCost []float64, treeCost float64, tg Targets) (*Problem, error) {
	if len(featCost) < e.NumFeatures {
		return nil, fmt.Errorf("cronus: %d feature costs for a model of %d features", len(featCost), e.NumFeatures)
	}
	if len(e.Trees) == 0 {
		return nil, fmt.Errorf("cronus: the ensemble has no trees")
	}
	p := &Problem{Train: NewOutputs(e, d), FeatCost: featCost}
	n := d.NumDocs()
	p.Y = make([]float64, n)
	p.Omega = make([]float64, n)
	pos := 0
	for i, l := range d.Labels {
		if float64(l) >= tg.Relevant {
			p.Y[i], p.Omega[i] = 1, tg.PosWeight
			pos++
		} else {
			p.Y[i], p.Omega[i] = -1, tg.NegWeight*tg.NegMultiply
		}
	}
	if pos == 0 {
		return nil, fmt.Errorf("cronus: no training document has a label >= %g: nothing is relevant", tg.Relevant)
	}
	p.TreeFeats = make([][]int, len(e.Trees))
	p.TreeCost = make([]float64, len(e.Trees))
	for t := range e.Trees {
		p.TreeFeats[t] = e.Trees[t].Features()
		p.TreeCost[t] = treeCost
	}
	return p, nil
}
