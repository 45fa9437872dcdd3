package boost

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// Objectives.
const (
	Regression = "regression" // squared loss: the base the Cronus paper re-weights
	Binary     = "binary"     // logistic loss; a label > 0 is positive
	LambdaRank = "lambdarank" // LambdaMART: λ-gradients weighted by |ΔNDCG|
)

// objective computes gradients of the loss at the current scores.
type objective interface {
	// base is the constant the ensemble starts from.
	base(labels []float32) float64
	// gradients writes the gradient pair of every document into gh.
	gradients(gh []tree.GradPair, scores []float64, labels []float32, offsets []int)
}

func newObjective(p Params) (objective, error) {
	switch p.Objective {
	case Regression:
		return squared{}, nil
	case Binary:
		return logistic{}, nil
	case LambdaRank:
		return &lambdaRank{truncation: p.Truncation, sigma: p.Sigma, norm: !p.NoLambdaNorm, workers: p.Workers}, nil
	}
	return nil, fmt.Errorf("unknown objective %q; expected regression, binary or lambdarank", p.Objective)
}

type squared struct{}

func (squared) base(labels []float32) float64 {
	var s float64
	for _, l := range labels {
		s += float64(l)
	}
	return s / float64(max(len(labels), 1))
}

func (squared) gradients(gh []tree.GradPair, scores []float64, labels []float32, _ []int) {
	for i, s := range scores {
		gh[i] = tree.GradPair{G: float32(s - float64(labels[i])), H: 1}
	}
}

type logistic struct{}

func (logistic) base(labels []float32) float64 {
	pos := 0
	for _, l := range labels {
		if l > 0 {
			pos++
		}
	}
	p := (float64(pos) + 0.5) / (float64(len(labels)) + 1)
	return math.Log(p / (1 - p))
}

func (logistic) gradients(gh []tree.GradPair, scores []float64, labels []float32, _ []int) {
	for i, s := range scores {
		p := 1 / (1 + math.Exp(-s))
		y := 0.0
		if labels[i] > 0 {
			y = 1
		}
		gh[i] = tree.GradPair{G: float32(p - y), H: float32(max(p*(1-p), 1e-16))}
	}
}

// lambdaRank is LambdaMART as LightGBM computes it: for every pair of
// documents with different labels where the better-placed one is within
// the truncation level, the λ-gradient σ·|ΔNDCG|/(1+exp(σ(s_hi−s_lo))),
// with |ΔNDCG| = |gain_hi − gain_lo|·|disc_hi − disc_lo| / maxDCG@truncation,
// gain 2^label − 1 and discount 1/log2(rank+1). With norm, |ΔNDCG| is
// divided by (0.01 + |s_hi − s_lo|) and a query's λs are scaled by
// log2(1+Σλ)/Σλ.
type lambdaRank struct {
	truncation int
	sigma      float64
	norm       bool
	workers    int
}

func (*lambdaRank) base([]float32) float64 { return 0 }

func (o *lambdaRank) gradients(gh []tree.GradPair, scores []float64, labels []float32, offsets []int) {
	nq := len(offsets) - 1
	w := o.workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			var order []int
			var lam, hes []float64
			for q := k; q < nq; q += w {
				lo, hi := offsets[q], offsets[q+1]
				order, lam, hes = o.query(gh[lo:hi], scores[lo:hi], labels[lo:hi], order, lam, hes)
			}
		}(k)
	}
	wg.Wait()
}

func gain(l float32) float64    { return math.Exp2(float64(l)) - 1 }
func discount(rank int) float64 { return 1 / math.Log2(float64(rank)+2) } // rank from 0
func maxDCG(labels []float32, k int) float64 {
	sorted := append([]float32(nil), labels...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a] > sorted[b] })
	dcg := 0.0
	for r := 0; r < len(sorted) && r < k; r++ {
		dcg += gain(sorted[r]) * discount(r)
	}
	return dcg
}

// query computes the gradients of one query; the slices are scratch space.
func (o *lambdaRank) query(gh []tree.GradPair, s []float64, labels []float32, order []int, lam, hes []float64) ([]int, []float64, []float64) {
	n := len(s)
	lam = append(lam[:0], make([]float64, n)...)
	hes = append(hes[:0], make([]float64, n)...)
	defer func() {
		for i := range gh {
			gh[i] = tree.GradPair{G: float32(lam[i]), H: float32(hes[i])}
		}
	}()
	idcg := maxDCG(labels, o.truncation)
	if idcg <= 0 || n < 2 {
		return order, lam, hes
	}
	inv := 1 / idcg
	order = order[:0]
	for i := 0; i < n; i++ {
		order = append(order, i)
	}
	sort.SliceStable(order, func(a, b int) bool { return s[order[a]] > s[order[b]] })
	best, worst := s[order[0]], s[order[n-1]]
	sumLambda := 0.0
	for i := 0; i < n-1 && i < o.truncation; i++ {
		for j := i + 1; j < n; j++ {
			a, b := order[i], order[j]
			if labels[a] == labels[b] {
				continue
			}
			hr, lr := i, j // ranks of the better and the worse labelled document
			if labels[b] > labels[a] {
				hr, lr = j, i
			}
			high, low := order[hr], order[lr]
			ds := s[high] - s[low]
			delta := (gain(labels[high]) - gain(labels[low])) * math.Abs(discount(hr)-discount(lr)) * inv
			if o.norm && best != worst {
				delta /= 0.01 + math.Abs(ds)
			}
			p := 1 / (1 + math.Exp(o.sigma*ds))
			l := -o.sigma * p * delta
			h := o.sigma * o.sigma * p * (1 - p) * delta
			lam[high] += l
			hes[high] += h
			lam[low] -= l
			hes[low] += h
			sumLambda -= 2 * l
		}
	}
	if o.norm && sumLambda > 0 {
		f := math.Log2(1+sumLambda) / sumLambda
		for i := range lam {
			lam[i] *= f
			hes[i] *= f
		}
	}
	return order, lam, hes
}
