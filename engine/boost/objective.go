package boost

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/cronus-ltr/cronus/engine/metric"
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

// newObjective is p's objective. The lambdarank objectives stop going
// through the queries once done (nil: never) is closed, leaving the
// round's gradients unfinished: the caller then stops.
func newObjective(p Params, done <-chan struct{}) (objective, error) {
	switch p.Objective {
	case Regression:
		return squared{}, nil
	case Binary:
		return logistic{}, nil
	case LambdaRank:
		if p.PairSample > 0 {
			return &sampledRank{k: p.PairSample, seed: p.Seed, workers: p.Workers, done: done}, nil
		}
		return &lambdaRank{truncation: p.Truncation, sigma: p.Sigma, norm: !p.NoLambdaNorm, workers: p.Workers, done: done}, nil
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
// divided by (0.01 + |s_hi − s_lo|) when the query's scores are not all
// equal, and a query's λs are scaled by log2(1+Σλ)/Σλ.
type lambdaRank struct {
	truncation int
	sigma      float64
	norm       bool
	workers    int
	done       <-chan struct{} // closed: stop (newObjective)

	queryTables // the ideal DCG at the truncation level
}

// queryTables are what the lambdarank objectives read of the labels and
// the queries, which do not change during a training run: computed on the
// first round, and again for other data.
type queryTables struct {
	invIDCG []float64 // 1/maxDCG@cut per query (0 for a query without relevant documents)
	disc    []float64 // the discount of every rank, up to the longest query's
	gains   []float64 // every document's gain, scaled as invIDCG
	ranks   []int32   // each query's ranking in the last round (byRank's prev)
	forL    []float32 // the labels and offsets they were computed for
	forO    []int
}

// update computes the tables for labels and offsets, with the ideal DCG at
// cut, unless they are of these already; it reports whether it did.
func (t *queryTables) update(labels []float32, offsets []int, cut int) bool {
	if same(t.forL, labels) && same(t.forO, offsets) {
		return false
	}
	t.disc = rankDiscounts(offsets)
	t.invIDCG = invIdealDCGs(labels, offsets, cut, t.disc)
	t.gains = docGains(labels, offsets)
	t.ranks = identityRanks(offsets)
	t.forL, t.forO = labels, offsets
	return true
}

// same reports whether a and b are the same slice (same array and length).
func same[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (*lambdaRank) base([]float32) float64 { return 0 }

// lambdaScratch is one worker's reusable buffers.
type lambdaScratch struct {
	byRank   []rankedDoc
	lam, hes []float64 // by rank
	// For lambdaPairs4, by rank: the documents' scores, gains,
	// exponentials and labels, each in an array of its own.
	s, gain, e, l []float64
	c             lambdaConsts
}

// rankedDoc is a document of the query being worked on, in the order of
// its current ranking: its score, label and gain, and its place in the
// query. The pair loop reads its operands from one array in rank order
// instead of through an index into three (about a tenth off a round of
// all-pairs gradients, BenchmarkLambdaGradients).
type rankedDoc struct {
	s    float64
	gain float64
	e    float64 // exp(σ·(s − the query's best score)), set by query
	l    float32
	i    int32
}

// docGains returns every document's gain 2^label − 1, scaled by its
// query's gainShift (as invIdealDCGs scales the ideal DCG).
func docGains(labels []float32, offsets []int) []float64 {
	g := make([]float64, len(labels))
	for q := 0; q+1 < len(offsets); q++ {
		lo, hi := offsets[q], offsets[q+1]
		shift := gainShift(labels[lo:hi])
		for i := lo; i < hi; i++ {
			g[i] = metric.ScaledGain(float64(labels[i]), shift)
		}
	}
	return g
}

// byRank returns buf refilled with the query's documents ordered by
// descending score, ties in index order: its current ranking. prev is the
// ranking of the round before (the documents' places in the query), which
// it updates: the documents are laid out in that order before sorting, so
// that the sort (insertion sort, or pdqsort where that would take long)
// has little to move after a round's small change of the scores. The
// order is total, so the result does not depend on prev.
func byRank(buf []rankedDoc, s []float64, labels []float32, gains []float64, prev []int32) []rankedDoc {
	buf = buf[:0]
	for _, i := range prev {
		buf = append(buf, rankedDoc{s: s[i], gain: gains[i], l: labels[i], i: i})
	}
	if !insertionSort(buf, 4*len(buf)) {
		slices.SortFunc(buf, rankOrder)
	}
	for r, d := range buf {
		prev[r] = d.i
	}
	return buf
}

// rankOrder orders documents by descending score, ties by index.
func rankOrder(a, b rankedDoc) int {
	if c := cmp.Compare(b.s, a.s); c != 0 {
		return c
	}
	return cmp.Compare(a.i, b.i)
}

// insertionSort sorts buf by rankOrder unless that takes more than moves
// moves, and reports whether it did. On a query's last ranking, which a
// round changes little, it takes a few moves a document where
// pattern-defeating quicksort took log n comparisons (a fifth of a round
// of all-pairs gradients, BenchmarkLambdaGradients); given up, it leaves
// buf a permutation of what it was.
func insertionSort(buf []rankedDoc, moves int) bool {
	for k := 1; k < len(buf); k++ {
		d := buf[k]
		j := k
		for ; j > 0 && rankOrder(d, buf[j-1]) < 0; j-- {
			buf[j] = buf[j-1]
		}
		buf[j] = d
		if moves -= k - j; moves < 0 {
			return false
		}
	}
	return true
}

// identityRanks returns, for every query, its documents' places 0, 1, …:
// the ranking of equal scores, byRank's prev before the first round.
func identityRanks(offsets []int) []int32 {
	if len(offsets) == 0 {
		return nil
	}
	r := make([]int32, offsets[len(offsets)-1])
	for q := 0; q+1 < len(offsets); q++ {
		for i := offsets[q]; i < offsets[q+1]; i++ {
			r[i] = int32(i - offsets[q])
		}
	}
	return r
}

// rankDiscounts returns the discount of every rank from 0 to the longest
// query's last.
func rankDiscounts(offsets []int) []float64 {
	longest := 0
	for q := 0; q+1 < len(offsets); q++ {
		longest = max(longest, offsets[q+1]-offsets[q])
	}
	disc := make([]float64, longest)
	for r := range disc {
		disc[r] = discount(r)
	}
	return disc
}

func (o *lambdaRank) gradients(gh []tree.GradPair, scores []float64, labels []float32, offsets []int) {
	nq := len(offsets) - 1
	o.update(labels, offsets, o.truncation)
	eachQuery(o.workers, nq, o.done, func(q int, sc *lambdaScratch) {
		lo, hi := offsets[q], offsets[q+1]
		o.query(gh[lo:hi], scores[lo:hi], labels[lo:hi], o.gains[lo:hi], o.ranks[lo:hi], o.invIDCG[q], sc)
	})
}

// eachQuery calls fn for the queries 0..nq−1 on workers goroutines (<= 0:
// GOMAXPROCS), each with its own reusable scratch S. Query q goes to worker
// q mod workers, so a query's result never depends on the others'. Once
// done (nil: never) is closed, the workers take no more queries: a round
// with many pairs (--pair-sample 10^9) went on for minutes after an
// interrupt.
func eachQuery[S any](workers, nq int, done <-chan struct{}, fn func(q int, sc *S)) {
	w := workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			var sc S
			for q := k; q < nq && !stopped(done); q += w {
				fn(q, &sc)
			}
		}(k)
	}
	wg.Wait()
}

// stopped reports whether done (nil: never) is closed.
func stopped(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// invIdealDCGs returns 1/maxDCG@cut of every query (0 for a query without
// relevant documents), with gain 2^label − 1 scaled by the query's
// gainShift and the discount of rank r from disc(r).
func invIdealDCGs(labels []float32, offsets []int, cut int, disc []float64) []float64 {
	nq := len(offsets) - 1
	inv := make([]float64, nq)
	var sorted []float32
	for q := 0; q < nq; q++ {
		sorted = append(sorted[:0], labels[offsets[q]:offsets[q+1]]...)
		slices.SortFunc(sorted, func(a, b float32) int { return cmp.Compare(b, a) })
		dcg, shift := 0.0, gainShift(sorted)
		for r := 0; r < len(sorted) && r < cut; r++ {
			dcg += metric.ScaledGain(float64(sorted[r]), shift) * disc[r]
		}
		if dcg > 0 {
			inv[q] = 1 / dcg
		}
	}
	return inv
}

// gainShift is the metric.GainShift of a query's labels: its gains and
// its ideal DCG are scaled alike, so that labels above 1023 do not make
// them +Inf and |ΔNDCG| Inf/Inf.
func gainShift(labels []float32) float64 {
	if len(labels) == 0 {
		return 0
	}
	return metric.GainShift(float64(slices.Max(labels)))
}

// expSpread bounds σ times a query's score range for the per-document
// exponentials of lambdaRank.query: exp(−700) is still a normal float64.
const expSpread = 700

func discount(rank int) float64 { return 1 / math.Log2(float64(rank)+2) } // rank from 0

// grow returns buf resized to n zeros.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// storePairs writes the gradients g and hessians h into gh.
func storePairs(gh []tree.GradPair, g, h []float64) {
	for i := range gh {
		gh[i] = tree.GradPair{G: float32(g[i]), H: float32(h[i])}
	}
}

// query computes the gradients of one query, whose 1/maxDCG is inv. It
// works in rank order (lam and hes are by rank) and adds to each document's
// sums in the same order as a loop over document indices would, so the
// result is the same to the bit.
func (o *lambdaRank) query(gh []tree.GradPair, s []float64, labels []float32, gains []float64, ranks []int32, inv float64, sc *lambdaScratch) {
	n := len(s)
	if inv == 0 || n < 2 {
		clear(gh)
		return
	}
	lam := grow(sc.lam, n)
	hes := grow(sc.hes, n)
	sc.lam, sc.hes = lam, hes
	docs := byRank(sc.byRank, s, labels, gains, ranks)
	sc.byRank = docs
	disc := o.disc[:n]
	norm := o.norm && docs[0].s != docs[n-1].s
	sigma := o.sigma
	// p = 1/(1+exp(σ(s_hi − s_lo))) is E_lo/(E_lo+E_hi) with E = exp(σ(s −
	// s_best)): one exponential per document instead of one per pair,
	// which took most of a round's time. E is in (0, 1]; when the scores
	// spread so far that it would underflow, every pair takes the
	// exponential of its own difference.
	perDoc := sigma*(docs[0].s-docs[n-1].s) < expSpread
	if perDoc {
		for r := range docs {
			docs[r].e = math.Exp(sigma * (docs[r].s - docs[0].s))
		}
	}
	// With AVX, the pairs go four at a time through lambdaPairs4 (about
	// half the time of a round of BenchmarkLambdaGradients/all-pairs), which
	// reads its operands from arrays of their own; the Go loop below takes
	// the last partners of each document, and all of them without AVX or
	// per-document exponentials. The sums are the same bit for bit.
	asm := perDoc && haveLambdaAsm
	if asm {
		sc.c.setQuery(inv, sigma)
		sc.s, sc.gain, sc.e, sc.l = sc.s[:0], sc.gain[:0], sc.e[:0], sc.l[:0]
		for _, d := range docs {
			sc.s, sc.gain, sc.e, sc.l = append(sc.s, d.s), append(sc.gain, d.gain), append(sc.e, d.e), append(sc.l, float64(d.l))
		}
	}
	sumLambda := 0.0
	for i := 0; i < n-1 && i < o.truncation; i++ {
		if i&1023 == 1023 && stopped(o.done) {
			// a single query of thousands of documents with a deep
			// truncation took seconds a round past an interrupt
			return
		}
		di := &docs[i]
		// i's sums are kept in registers through the loop over j: through
		// memory, each pair waited on the previous pair's store. They take
		// the same additions in the same order.
		lamI, hesI := lam[i], hes[i]
		j := i + 1
		if m := (n - j) &^ 3; asm && m > 0 {
			// The partners four at a time, then the rest below.
			sc.c.setDoc(di.s, di.gain, di.e, float64(di.l), disc[i])
			sums := [3]float64{lamI, hesI, sumLambda}
			lambdaPairs4(&sc.c, &sc.s[j], &sc.gain[j], &sc.e[j], &sc.l[j], &disc[j], &lam[j], &hes[j], m, norm, &sums)
			lamI, hesI, sumLambda = sums[0], sums[1], sums[2]
			j += m
		}
		for ; j < n; j++ {
			dj := &docs[j]
			if di.l == dj.l {
				continue
			}
			// i is the better labelled document when up is 1, j when up
			// is 0, so that i's sums, kept apart from the others', take
			// +l or −l by a sign; multiplying by 0, 1 or −1 is exact.
			u := 0
			if di.l > dj.l {
				u = 1
			}
			up := float64(u)
			ds := math.Abs(di.s - dj.s)
			delta := math.Abs(di.gain-dj.gain) * math.Abs(disc[i]-disc[j]) * inv
			if norm {
				delta /= 0.01 + ds
			}
			var p, q float64 // p and 1 − p
			if perDoc {
				t := 1 / (di.e + dj.e)
				eh := up*di.e + (1-up)*dj.e
				el := up*dj.e + (1-up)*di.e
				p, q = el*t, eh*t
			} else {
				p = 1 / (1 + math.Exp(sigma*(2*up-1)*(di.s-dj.s)))
				q = 1 - p
			}
			// The conversions keep a compiler that fuses multiply-adds
			// (GOAMD64=v3) from fusing the last products into the sums
			// below, so the sums are rounded as lambdaPairs4 rounds them.
			l := -sigma * p * delta
			h := float64(sigma * sigma * p * q * delta)
			sl := float64((2*up - 1) * l) // l added to i's λ, −l to j's
			lamI += sl
			hesI += h
			lam[j] -= sl
			hes[j] += h
			sumLambda -= 2 * l
		}
		lam[i], hes[i] = lamI, hesI
	}
	scale := o.norm && sumLambda > 0
	f := math.Log2(1+sumLambda) / sumLambda
	for r, d := range docs {
		g, h := lam[r], hes[r]
		if scale {
			g, h = g*f, h*f
		}
		gh[d.i] = tree.GradPair{G: float32(g), H: float32(h)}
	}
}
