package metric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Metamorphic tests: how a metric must (or must not) change when its input
// is transformed in a known way. Each compares the metric with itself on
// the transformed input, not with a value worked out by hand.

// mmSpecs are the metrics of the metamorphic tests, with cut-offs on both
// sides of topBelow (rankTop's buffer and the full sort) and none.
var mmSpecs = []string{
	"p@1", "p@5", "p@40", "ndcg@3", "ndcg@10", "ndcg@50", "ndcg", "err@3", "err",
	"rbp@0.8", "rbp@0.5", "map", "map@5", "rr", "rr@3", "recall@5", "recall@40",
}

// mmOptions are the option sets the metamorphic tests run under: the
// default, the queries without a relevant document left out (NaN), a
// binary threshold above 1 and a fixed ERR lmax.
var mmOptions = []Options{{}, {ExcludeNoRelevant: true}, {RelevantLabel: 2}, {MaxLabel: 3}}

// mmQueries makes nq queries of 1 to 70 documents with labels from −1 to 4
// (a few of them fractional) and scores from score(r).
func mmQueries(r *rand.Rand, nq int, score func(r *rand.Rand) float64) (scores []float64, labels []float32, offsets []int) {
	offsets = []int{0}
	for range nq {
		n := 1 + r.IntN(70)
		for range n {
			l := float32(r.IntN(6) - 1)
			if r.IntN(10) == 0 {
				l += 0.5
			}
			labels = append(labels, l)
			scores = append(scores, score(r))
		}
		offsets = append(offsets, len(scores))
	}
	return scores, labels, offsets
}

// distinctScore draws a score that is, with overwhelming probability,
// distinct from every other one drawn; mmCheckDistinct makes sure.
func distinctScore(r *rand.Rand) float64 { return r.NormFloat64() * 3 }

// tiedScore draws from a handful of values, so that most scores are tied,
// with −0 beside 0 (equal scores) and NaN (ranked last, ties among
// themselves).
func tiedScore(r *rand.Rand) float64 {
	switch v := r.IntN(9); v {
	case 7:
		return math.Copysign(0, -1)
	case 8:
		return math.NaN()
	default:
		return float64(v-3) / 4
	}
}

func mmCheckDistinct(t *testing.T, scores []float64, offsets []int) {
	t.Helper()
	for q := range len(offsets) - 1 {
		s := slices.Clone(scores[offsets[q]:offsets[q+1]])
		slices.Sort(s)
		if len(slices.Compact(s)) != len(s) {
			t.Fatalf("query %d: the generator made tied scores", q)
		}
	}
}

// sameValues reports whether a and b hold the same float64 bits (every NaN
// alike).
func sameValues(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

// forEachMetric runs check on every metric of mmSpecs under every option
// set of mmOptions.
func forEachMetric(t *testing.T, check func(t *testing.T, spec Spec, opt Options)) {
	for _, name := range mmSpecs {
		spec, err := Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range mmOptions {
			check(t, spec, opt)
		}
	}
}

// TestPermuteDocumentsDistinctScores: a query's metric depends only on
// its documents' ranking, and with distinct scores the ranking is the
// order of the scores, whatever order the documents are given in. So
// moving the documents of each query (score and label together) leaves
// every query's value the same bit for bit: NDCG's ideal DCG is summed over
// the labels sorted, DCG, ERR, RBP and AP in rank order, and ERR's lmax
// is the largest label of all, which a permutation does not change. One
// NaN score per query (ranked last, tied with nothing) is allowed too.
func TestPermuteDocumentsDistinctScores(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 1))
	scores, labels, offsets := mmQueries(r, 60, distinctScore)
	for q := 0; q < len(offsets)-1; q += 3 {
		scores[offsets[q]+r.IntN(offsets[q+1]-offsets[q])] = math.NaN()
	}
	mmCheckDistinct(t, scores, offsets)
	ps, pl := permuteWithin(r, scores, labels, offsets, nil)
	forEachMetric(t, func(t *testing.T, spec Spec, opt Options) {
		want := PerQuery(spec, scores, labels, offsets, opt, nil)
		got := PerQuery(spec, ps, pl, offsets, opt, nil)
		if !sameValues(got, want) {
			t.Errorf("%v %+v: permuting the documents changed the values\n got %v\nwant %v", spec, opt, got, want)
		}
		if m, w := Mean(spec, ps, pl, offsets, opt), Mean(spec, scores, labels, offsets, opt); !sameValues([]float64{m}, []float64{w}) {
			t.Errorf("%v %+v: mean %v, want %v", spec, opt, m, w)
		}
	})
}

// permuteWithin returns copies of scores and labels with each query's
// documents in a random order; with keep (not nil) the permutation keeps
// the relative order of any two documents for which keep says so.
func permuteWithin(r *rand.Rand, scores []float64, labels []float32, offsets []int, keep func(a, b float64) bool) ([]float64, []float32) {
	ps, pl := slices.Clone(scores), slices.Clone(labels)
	for q := range len(offsets) - 1 {
		lo, hi := offsets[q], offsets[q+1]
		perm := r.Perm(hi - lo)
		if keep != nil {
			// Sort each class of documents kept together by its input
			// position within the positions the permutation gives the class.
			for i := range perm {
				for j := i + 1; j < len(perm); j++ {
					if keep(scores[lo+perm[i]], scores[lo+perm[j]]) && perm[i] > perm[j] {
						perm[i], perm[j] = perm[j], perm[i]
					}
				}
			}
		}
		for i, p := range perm {
			ps[lo+i], pl[lo+i] = scores[lo+p], labels[lo+p]
		}
	}
	return ps, pl
}

// tiedScores reports whether a and b are tied under the ranking's
// convention: equal (0 and −0 alike) or both NaN.
func tiedScores(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestPermuteDocumentsTiesInInputOrder: README ("Ties in score are broken
// by input order") makes the ranking of tied documents depend on their
// order, so a permutation may change the metric; what must not is a
// permutation that keeps every two tied documents (equal scores, −0 and 0
// included, or both NaN) in their relative order, since it leaves the
// ranking as it is. And breaking the ties explicitly by input order
// (replacing each score by its place in a stable sort) must give the same
// values: the convention is then the only thing that orders them.
func TestPermuteDocumentsTiesInInputOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2))
	scores, labels, offsets := mmQueries(r, 60, tiedScore)
	ps, pl := permuteWithin(r, scores, labels, offsets, tiedScores)
	// Every query's distinct scores in input order, as a stable sort by
	// descending score with NaN last orders them; the score becomes n − place.
	broken := slices.Clone(scores)
	for q := range len(offsets) - 1 {
		lo, hi := offsets[q], offsets[q+1]
		idx := make([]int, hi-lo)
		for i := range idx {
			idx[i] = lo + i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			sa, sb := scores[a], scores[b]
			switch {
			case math.IsNaN(sa) || math.IsNaN(sb):
				return boolInt(math.IsNaN(sa)) - boolInt(math.IsNaN(sb))
			case sa > sb:
				return -1
			case sa < sb:
				return 1
			}
			return 0
		})
		for place, i := range idx {
			broken[i] = float64(len(idx) - place)
		}
	}
	moved := 0
	for i := range scores {
		if math.Float64bits(ps[i]) != math.Float64bits(scores[i]) {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("the permutation moved nothing")
	}
	forEachMetric(t, func(t *testing.T, spec Spec, opt Options) {
		want := PerQuery(spec, scores, labels, offsets, opt, nil)
		if got := PerQuery(spec, ps, pl, offsets, opt, nil); !sameValues(got, want) {
			t.Errorf("%v %+v: a permutation keeping tied documents in order changed the values\n got %v\nwant %v", spec, opt, got, want)
		}
		if got := PerQuery(spec, broken, labels, offsets, opt, nil); !sameValues(got, want) {
			t.Errorf("%v %+v: ties broken explicitly by input order give other values\n got %v\nwant %v", spec, opt, got, want)
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestIncreasingTransformOfScores: the metrics depend on the scores only
// through the ranking, which a strictly increasing transform keeps (ties
// stay ties, in input order; NaN stays NaN, last). So x → 2x + 1, exp(x)
// and x³ leave every value the same bit for bit, on distinct and on tied
// scores, when the transform keeps distinct scores distinct in float64
// (checked: rounding can merge two, which would be a tie the original
// does not have).
func TestIncreasingTransformOfScores(t *testing.T) {
	transforms := map[string]func(float64) float64{
		"2x+1": func(x float64) float64 { return 2*x + 1 },
		"exp":  math.Exp,
		"x^3":  func(x float64) float64 { return x * x * x },
	}
	for _, gen := range []struct {
		name  string
		score func(*rand.Rand) float64
	}{{"distinct", distinctScore}, {"tied", tiedScore}} {
		r := rand.New(rand.NewPCG(11, 3))
		scores, labels, offsets := mmQueries(r, 60, gen.score)
		for tname, f := range transforms {
			ts := make([]float64, len(scores))
			for i, x := range scores {
				ts[i] = f(x)
			}
			for q := range len(offsets) - 1 {
				for i := offsets[q]; i < offsets[q+1]; i++ {
					for j := offsets[q]; j < offsets[q+1]; j++ {
						if scores[i] < scores[j] && !(ts[i] < ts[j]) {
							t.Fatalf("%s on %s scores: %v < %v but %v, %v", tname, gen.name, scores[i], scores[j], ts[i], ts[j])
						}
					}
				}
			}
			forEachMetric(t, func(t *testing.T, spec Spec, opt Options) {
				want := PerQuery(spec, scores, labels, offsets, opt, nil)
				if got := PerQuery(spec, ts, labels, offsets, opt, nil); !sameValues(got, want) {
					t.Errorf("%s on %s scores, %v %+v: values changed\n got %v\nwant %v", tname, gen.name, spec, opt, got, want)
				}
			})
		}
	}
}

// TestReorderQueries: a query's value depends on its own documents alone
// (and, for ERR without a fixed lmax, on the largest label of all, which
// reordering the queries does not change), so moving whole queries moves
// their values with them, bit for bit. The mean sums the values in the
// order of the queries (Mean, MeanOf), so it is the same only up to the
// rounding of that sum: within (n−1)·u·Σ|v|/n of the original's, two sums
// each off the exact one by at most (n−1)·u·Σ|v| (u = 2⁻⁵³). And Mean on
// the reordered data is MeanOf of the reordered values, bit for bit, as
// MeanOf promises.
func TestReorderQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 4))
	scores, labels, offsets := mmQueries(r, 80, tiedScore)
	nq := len(offsets) - 1
	perm := r.Perm(nq)
	var ps []float64
	var pl []float32
	po := []int{0}
	for _, q := range perm {
		ps = append(ps, scores[offsets[q]:offsets[q+1]]...)
		pl = append(pl, labels[offsets[q]:offsets[q+1]]...)
		po = append(po, len(ps))
	}
	forEachMetric(t, func(t *testing.T, spec Spec, opt Options) {
		want := PerQuery(spec, scores, labels, offsets, opt, nil)
		got := PerQuery(spec, ps, pl, po, opt, nil)
		moved := make([]float64, nq)
		for i, q := range perm {
			moved[i] = want[q]
		}
		if !sameValues(got, moved) {
			t.Errorf("%v %+v: the values did not move with their queries\n got %v\nwant %v", spec, opt, got, moved)
		}
		m, w := Mean(spec, ps, pl, po, opt), Mean(spec, scores, labels, offsets, opt)
		if of := MeanOf(got); !sameValues([]float64{m}, []float64{of}) {
			t.Errorf("%v %+v: Mean %v but MeanOf its values %v", spec, opt, m, of)
		}
		abs, n := 0.0, 0
		for _, v := range want {
			if !math.IsNaN(v) {
				abs += math.Abs(v)
				n++
			}
		}
		if tol := 2 * float64(n) * 0x1p-53 * abs / float64(n); !(math.Abs(m-w) <= tol) {
			t.Errorf("%v %+v: mean %v after reordering, %v before (tolerance %g)", spec, opt, m, w, tol)
		}
	})
}
