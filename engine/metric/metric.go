package metric

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options holds the conventions that a metric name does not carry. The zero
// value is the default of DESIGN.md.
type Options struct {
	// RelevantLabel is the binary relevance threshold of P@k, MAP, RR,
	// recall and RBP: a document is relevant when its label >=
	// RelevantLabel. 0 means 1 (a label ≤ 0 is never relevant, so 0 is no
	// threshold of its own). It must not be negative. Labels are float32, so the threshold is compared as
	// the float32 nearest to it, as a label written the same way reads: the
	// label 0.7 reaches RelevantLabel 0.7.
	RelevantLabel float64
	// MaxLabel is the lmax of ERR's R = (2^l − 1)/2^lmax. 0 means the largest
	// label in the labels given to PerQuery or Mean. Labels above MaxLabel
	// count as MaxLabel. It must not be negative.
	MaxLabel float64
	// ExcludeNoRelevant leaves queries without a relevant document out of the
	// mean (PerQuery reports NaN for them); otherwise they score 0. "Relevant"
	// is label > 0 for NDCG and ERR, whose gains are 0 exactly there, and
	// label >= RelevantLabel for P@k, MAP, RR, recall and RBP.
	ExcludeNoRelevant bool
}

func (o Options) relevantLabel() float64 {
	if o.RelevantLabel == 0 {
		return 1
	}
	return o.RelevantLabel
}

// Convention returns one line describing the conventions in force under opt,
// to be printed with every result.
func Convention(opt Options) string {
	checkOptions(opt)
	lmax := "largest label"
	if opt.MaxLabel > 0 {
		lmax = strconv.FormatFloat(opt.MaxLabel, 'g', -1, 64)
	}
	noRel := "score 0"
	if opt.ExcludeNoRelevant {
		noRel = "are left out of the mean"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "NDCG: gain 2^l-1, discount log2(rank+1), ideal DCG at the same cut-off; ")
	fmt.Fprintf(&b, "ERR: R=(2^l-1)/2^lmax, lmax=%s; ", lmax)
	fmt.Fprintf(&b, "P@k: relevant in top k / k; ")
	fmt.Fprintf(&b, "NDCG/ERR: relevant = label > 0; ")
	fmt.Fprintf(&b, "P/MAP/RR/recall/RBP: relevant = label >= %s; ", strconv.FormatFloat(opt.relevantLabel(), 'g', -1, 64))
	fmt.Fprintf(&b, "queries without relevant documents %s; ties broken by input order", noRel)
	return b.String()
}

// PerQuery computes spec for every query and returns one value per query, NaN
// for a query that opt excludes. Query q holds the documents
// offsets[q]..offsets[q+1]-1 of scores and labels; offsets has one entry more
// than there are queries, starts at 0, never decreases and ends at
// len(scores), and len(labels) == len(scores). Labels may be any finite
// numbers; a label ≤ 0 is never relevant (gain 0 in NDCG, R = 0 in ERR).
// Documents are ranked by score, highest first, equal scores in input order,
// NaN last. dst is reused when it has the capacity.
//
// PerQuery panics if spec, opt or the slices break these rules.
func PerQuery(spec Spec, scores []float64, labels []float32, offsets []int, opt Options, dst []float64) []float64 {
	e := newEvaluator(spec, scores, labels, offsets, opt)
	nq := len(offsets) - 1
	dst = slices.Grow(dst[:0], nq)[:nq]
	for q := range nq {
		dst[q] = e.query(offsets[q], offsets[q+1])
	}
	return dst
}

// MeanOf returns the mean of per-query values as PerQuery returns them,
// leaving out the NaN ones (the queries excluded), NaN if all are: for
// the same values, the same bits as Mean.
func MeanOf(perQuery []float64) float64 {
	var m meanAcc
	for _, v := range perQuery {
		m.add(v)
	}
	return m.mean()
}

// meanAcc is the running mean of Mean and MeanOf: the sum and count of the
// values that are not NaN, in the order added.
type meanAcc struct {
	sum float64
	n   int
}

func (m *meanAcc) add(v float64) {
	if !math.IsNaN(v) {
		m.sum += v
		m.n++
	}
}

func (m *meanAcc) mean() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return m.sum / float64(m.n)
}

// Mean returns the mean of spec over the queries that opt does not exclude,
// NaN if there are none. The arguments are those of PerQuery. Mean allocates
// its scratch space once, not per query.
func Mean(spec Spec, scores []float64, labels []float32, offsets []int, opt Options) float64 {
	e := newEvaluator(spec, scores, labels, offsets, opt)
	var m meanAcc
	for q := range len(offsets) - 1 {
		m.add(e.query(offsets[q], offsets[q+1]))
	}
	return m.mean()
}

// evaluator computes one metric query by query, reusing its buffers.
type evaluator struct {
	spec    Spec
	scores  []float64
	labels  []float32
	rel     float32   // binary relevance threshold, rounded as labels are
	lmax    float64   // ERR's lmax
	exclude bool      // ExcludeNoRelevant
	idx     []int     // document indices of the current query, ranked
	ideal   []float32 // NDCG: the current query's top labels, largest first (idealTop)
	disc    []float64 // NDCG: disc[i] = 1/log2(i+2), the discount at rank i+1
}

func newEvaluator(spec Spec, scores []float64, labels []float32, offsets []int, opt Options) *evaluator {
	if err := spec.validate(); err != nil {
		panic("metric: " + err.Error())
	}
	checkOptions(opt)
	maxN := checkQueries(scores, labels, offsets)
	e := &evaluator{
		spec:    spec,
		scores:  scores,
		labels:  labels,
		rel:     float32(opt.relevantLabel()),
		lmax:    opt.MaxLabel,
		exclude: opt.ExcludeNoRelevant,
		idx:     make([]int, maxN),
	}
	switch spec.Name {
	case NDCG:
		e.ideal = make([]float32, maxN)
		e.disc = make([]float64, maxN)
		for i := range e.disc {
			e.disc[i] = 1 / math.Log2(float64(i+2))
		}
	case ERR:
		if e.lmax == 0 {
			for _, l := range labels {
				e.lmax = max(e.lmax, float64(l))
			}
		}
	}
	return e
}

func checkOptions(opt Options) {
	if !(opt.RelevantLabel >= 0) {
		panic(fmt.Sprintf("metric: Options.RelevantLabel %v is negative or NaN", opt.RelevantLabel))
	}
	if !(opt.MaxLabel >= 0) {
		panic(fmt.Sprintf("metric: Options.MaxLabel %v is negative or NaN", opt.MaxLabel))
	}
}

// checkQueries panics unless the slices describe queries as PerQuery
// requires, and returns the size of the largest query.
func checkQueries(scores []float64, labels []float32, offsets []int) int {
	if len(scores) != len(labels) {
		panic(fmt.Sprintf("metric: %d scores but %d labels", len(scores), len(labels)))
	}
	if len(offsets) == 0 || offsets[0] != 0 || offsets[len(offsets)-1] != len(scores) {
		panic(fmt.Sprintf("metric: offsets must run from 0 to the number of documents (%d)", len(scores)))
	}
	maxN := 0
	for q := range len(offsets) - 1 {
		n := offsets[q+1] - offsets[q]
		if n < 0 {
			panic(fmt.Sprintf("metric: offsets decrease at query %d", q))
		}
		maxN = max(maxN, n)
	}
	return maxN
}

// rank fills e.idx with the documents lo..hi-1 ordered by score, highest
// first; equal scores keep their input order (ties are broken by index)
// and NaN scores go last.
func (e *evaluator) rank(lo, hi int) []int {
	idx := e.idx[:hi-lo]
	for i := range idx {
		idx[i] = lo + i
	}
	s := e.scores
	// Descending score, equal scores in input order: a total order, so
	// the unstable sort gives the stable sort's ranking, at a fraction of
	// its time (its merges dominated the prefix baseline's scoring).
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(s[b], s[a]); c != 0 {
			return c
		}
		return a - b
	})
	return idx
}

// topBelow is the largest cut-off k for which rankTop selects the top k
// documents instead of sorting the whole query: its insertions move up to
// k indices each, which stays cheaper than a sort at the usual cut-offs.
const topBelow = 32

// rankTop returns the first min(k, hi−lo) documents of rank's order, in
// that order. For a small k it keeps them in a sorted buffer while it scans
// the query once: a document enters when it ranks before the buffer's last
// (a later document ranks before an earlier one only with a higher score,
// NaN lowest, as in rank), so training's evaluation after every tree does
// not sort every query in full.
func (e *evaluator) rankTop(lo, hi, k int) []int {
	n := hi - lo
	if k >= n || k > topBelow {
		return e.rank(lo, hi)[:max(min(k, n), 0)]
	}
	if k <= 0 {
		return nil
	}
	s := e.scores
	top := e.idx[:0]
	for i := lo; i < hi; i++ {
		x := s[i]
		if len(top) == k && cmp.Compare(x, s[top[k-1]]) <= 0 {
			continue
		}
		// The first entry that i ranks before: the buffer holds the
		// scores >= x (in cmp.Compare's order) before those below it.
		p := sort.Search(len(top), func(j int) bool { return cmp.Compare(x, s[top[j]]) > 0 })
		if len(top) < k {
			top = append(top, 0)
		}
		copy(top[p+1:], top[p:len(top)-1])
		top[p] = i
	}
	return top
}

// idealTop sets e.ideal to the k largest labels of lo..hi-1 (all of them
// when the query has fewer), largest first, and returns it.
func (e *evaluator) idealTop(lo, hi, k int) []float32 {
	labels := e.labels[lo:hi]
	if k >= len(labels) || k > topBelow {
		ideal := e.ideal[:len(labels)]
		copy(ideal, labels)
		slices.Sort(ideal)
		slices.Reverse(ideal)
		return ideal[:max(min(k, len(ideal)), 0)]
	}
	if k <= 0 {
		return nil
	}
	top := e.ideal[:0]
	for _, l := range labels {
		if len(top) == k && l <= top[k-1] {
			continue
		}
		p := sort.Search(len(top), func(j int) bool { return l > top[j] })
		if len(top) < k {
			top = append(top, 0)
		}
		copy(top[p+1:], top[p:len(top)-1])
		top[p] = l
	}
	return top
}

// query returns the metric of the documents lo..hi-1, or NaN if the query has
// no relevant document and such queries are excluded.
func (e *evaluator) query(lo, hi int) float64 {
	var v float64
	var ok bool
	switch e.spec.Name {
	case NDCG:
		v, ok = e.ndcg(lo, hi)
	case ERR:
		v, ok = e.expectedReciprocalRank(lo, hi)
	case Precision:
		v, ok = e.precision(lo, hi)
	case RBP:
		v, ok = e.rbp(lo, hi)
	case MAP:
		v, ok = e.averagePrecision(lo, hi)
	case RR:
		v, ok = e.reciprocalRank(lo, hi)
	case Recall:
		v, ok = e.recall(lo, hi)
	}
	if !ok {
		if e.exclude {
			return math.NaN()
		}
		return 0
	}
	return v
}

// cutoff is the number of ranks that count in a query of n documents.
func (e *evaluator) cutoff(n int) int {
	if e.spec.K == 0 {
		return n
	}
	return min(e.spec.K, n)
}

// ndcg returns DCG@k / IDCG@k with gain 2^l − 1 and discount log2(rank + 1);
// ok is false when IDCG@k is 0, that is when no label is above 0.
func (e *evaluator) ndcg(lo, hi int) (v float64, ok bool) {
	k := e.cutoff(hi - lo)
	ideal := e.idealTop(lo, hi, k)
	shift := 0.0
	if len(ideal) > 0 {
		shift = GainShift(float64(ideal[0]))
	}
	var idcg float64
	for i, l := range ideal {
		idcg += ScaledGain(float64(l), shift) * e.disc[i]
	}
	if idcg == 0 {
		return 0, false // no label above 0: the ranking does not matter
	}
	var dcg float64
	for i, d := range e.rankTop(lo, hi, k) {
		dcg += ScaledGain(float64(e.labels[d]), shift) * e.disc[i]
	}
	return dcg / idcg, true
}

// Gain is NDCG's 2^l − 1 for l > 0 and 0 otherwise: a negative label (the
// −1 of −1/+1 data) is not relevant, like a label of 0, rather than a
// negative gain that would let NDCG fall below 0 or give a query without any
// relevant document a non-zero IDCG.
func Gain(l float32) float64 { return ScaledGain(float64(l), 0) }

// maxUnscaled is the largest label whose gain 2^l − 1 is used as it is:
// sums of such gains over up to 2^23 documents stay finite.
const maxUnscaled = 1000

// GainShift returns the shift for ScaledGain that keeps the gains of labels
// up to lmax finite: 0 up to lmax = 1000 (every graded scale in use, whose
// gains are then computed as Gain computes them), lmax − 1000 above.
func GainShift(lmax float64) float64 { return max(0, lmax-maxUnscaled) }

// ScaledGain is Gain(l) / 2^shift, computed without overflow: NDCG and
// ERR are ratios of gains, which the shift leaves as they are, so labels
// above 1023, whose 2^l is +Inf in float64, still get their values.
func ScaledGain(l, shift float64) float64 {
	switch {
	case !(l > 0):
		return 0
	case shift == 0 && l < 1: // 2^l − 1 without cancellation: below 1.6e-16 Exp2(l) − 1 was 0
		return math.Expm1(l * math.Ln2)
	case shift == 0: // every label up to 1000: one Exp2, in LambdaMART's pair loops too
		return math.Exp2(l) - 1
	}
	return math.Exp2(l-shift) - math.Exp2(-shift)
}

// expectedReciprocalRank returns ERR@k = Σ_{r≤k} (1/r) R_r Π_{i<r} (1 − R_i) with
// R = (2^l − 1)/2^lmax; ok is false when no label in the query is above 0.
func (e *evaluator) expectedReciprocalRank(lo, hi int) (v float64, ok bool) {
	for _, l := range e.labels[lo:hi] {
		if l > 0 {
			ok = true
			break
		}
	}
	if !ok {
		return 0, false
	}
	idx := e.rankTop(lo, hi, e.cutoff(hi-lo))
	shift := GainShift(e.lmax)
	scale := math.Exp2(e.lmax - shift)
	stop := 1.0 // probability that the user reaches rank r
	for r := range idx {
		l := min(float64(e.labels[idx[r]]), e.lmax) // a label ≤ 0 has R = 0
		R := ScaledGain(l, shift) / scale
		v += stop * R / float64(r+1)
		stop *= 1 - R
	}
	return v, true
}

// relevant reports whether label l is relevant for P@k, MAP, RR, recall
// and RBP. l > 0
// keeps a label of 0 out when the threshold rounds to float32 0.
func (e *evaluator) relevant(l float32) bool { return l > 0 && l >= e.rel }

// hasRelevant reports whether a document of lo..hi-1 is relevant.
func (e *evaluator) hasRelevant(lo, hi int) bool {
	for _, l := range e.labels[lo:hi] {
		if e.relevant(l) {
			return true
		}
	}
	return false
}

// precision returns the relevant documents in the top k divided by k, also
// when the query has fewer than k documents (trec_eval's P_k).
func (e *evaluator) precision(lo, hi int) (v float64, ok bool) {
	if !e.hasRelevant(lo, hi) {
		return 0, false
	}
	return float64(e.hitsInTop(lo, hi)) / float64(e.spec.K), true
}

// hitsInTop returns the number of relevant documents in the top k of
// lo..hi-1.
func (e *evaluator) hitsInTop(lo, hi int) int {
	hits := 0
	for _, i := range e.rankTop(lo, hi, e.cutoff(hi-lo)) {
		if e.relevant(e.labels[i]) {
			hits++
		}
	}
	return hits
}

// rbp returns (1 − p) Σ_i rel_i p^(i−1) over all documents, rel_i binary.
func (e *evaluator) rbp(lo, hi int) (v float64, ok bool) {
	if !e.hasRelevant(lo, hi) {
		return 0, false
	}
	p := e.spec.P
	w := 1 - p // weight of rank 1
	for _, i := range e.rank(lo, hi) {
		if e.relevant(e.labels[i]) {
			v += w
		}
		w *= p
	}
	return v, true
}

// countRelevant returns the number of relevant documents of lo..hi-1.
func (e *evaluator) countRelevant(lo, hi int) int {
	n := 0
	for _, l := range e.labels[lo:hi] {
		if e.relevant(l) {
			n++
		}
	}
	return n
}

// averagePrecision returns Σ_{relevant ranks r ≤ k} (relevant in top r)/r
// divided by the number of relevant documents of the query (all of them,
// within the cut-off or not: trec_eval's map_cut_k, XGBoost's map@k).
func (e *evaluator) averagePrecision(lo, hi int) (v float64, ok bool) {
	rel := e.countRelevant(lo, hi)
	if rel == 0 {
		return 0, false
	}
	hits := 0
	for r, i := range e.rankTop(lo, hi, e.cutoff(hi-lo)) {
		if e.relevant(e.labels[i]) {
			hits++
			v += float64(hits) / float64(r+1)
		}
	}
	return v / float64(rel), true
}

// reciprocalRank returns 1/r for the first relevant document, at rank r ≤
// k, and 0 when none is in the top k (trec_eval's recip_rank, RankLib's
// RR@k).
func (e *evaluator) reciprocalRank(lo, hi int) (v float64, ok bool) {
	if !e.hasRelevant(lo, hi) {
		return 0, false
	}
	for r, i := range e.rankTop(lo, hi, e.cutoff(hi-lo)) {
		if e.relevant(e.labels[i]) {
			return 1 / float64(r+1), true
		}
	}
	return 0, true
}

// recall returns the relevant documents in the top k divided by all the
// relevant documents of the query (trec_eval's recall_k).
func (e *evaluator) recall(lo, hi int) (v float64, ok bool) {
	rel := e.countRelevant(lo, hi)
	if rel == 0 {
		return 0, false
	}
	return float64(e.hitsInTop(lo, hi)) / float64(rel), true
}
