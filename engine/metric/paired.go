package metric

import (
	"context"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"
)

// Paired is the comparison of two systems, A and B, on one metric, query by
// query: the queries are the same, so the per-query differences carry the
// comparison and the queries' own difficulty cancels out.
type Paired struct {
	Queries int     // the queries both systems have a value for
	A, B    float64 // their means over those queries
	Diff    float64 // the mean of A − B, query by query (= A − B up to rounding)
	SE      float64 // its standard error: the differences' sample deviation over √Queries
	T       float64 // Diff / SE, Student's paired t
	PT      float64 // two-sided p of T under Student's t with Queries − 1 degrees of freedom
	// PRand is the two-sided p of the paired randomisation test (Fisher's
	// sign-flip test, Smucker et al. 2007): under the null hypothesis that
	// A and B are exchangeable within each query, every sign of each
	// difference is as likely, so p is the fraction of random sign flips
	// whose mean difference is at least as far from 0 as the observed one,
	// estimated from Rounds flips as (hits + 1) / (Rounds + 1), which never
	// reports 0.
	PRand  float64
	Rounds int // the sign flips PRand counts; 0: not run (PRand NaN)
}

// ComparePaired compares per-query values a and b (as PerQuery returns
// them, one per query of the same data; NaN for a query left out) over the
// queries where both are defined. The randomisation test draws rounds sign
// flips from a PCG generator seeded with seed, so the same inputs give the
// same p bit for bit; with rounds 0 it is not run, and PRand is NaN. With no query every figure is NaN; with one, SE, T
// and PT are. When every difference is the same, SE is 0: T and PT are 0
// and 1 when that difference is 0, ±Inf and 0 otherwise. "The same" and
// "0" are within a relative 1e-12 of the mean magnitude of the values
// compared, for rounding: Diff is then exactly 0.
//
// The sign flips cost rounds × queries additions: ComparePaired adds the
// rounds done to flipped (when not nil) as it goes, for a progress line,
// and stops when ctx ends, every 256 rounds, returning ctx.Err().
//
// ComparePaired panics if len(a) != len(b) or rounds < 0.
func ComparePaired(ctx context.Context, a, b []float64, rounds int, seed uint64, flipped *atomic.Int64) (Paired, error) {
	if len(a) != len(b) {
		panic("metric: ComparePaired: a and b differ in length")
	}
	if rounds < 0 {
		panic("metric: ComparePaired: rounds < 0")
	}
	var d []float64
	var sa, sb, mag float64
	for q := range a {
		if math.IsNaN(a[q]) || math.IsNaN(b[q]) {
			continue
		}
		sa += a[q]
		sb += b[q]
		mag += math.Abs(a[q]) + math.Abs(b[q])
		d = append(d, a[q]-b[q])
	}
	n := len(d)
	nan := math.NaN()
	p := Paired{Queries: n, A: nan, B: nan, Diff: nan, SE: nan, T: nan, PT: nan, PRand: nan, Rounds: rounds}
	if n == 0 {
		return p, nil
	}
	p.A, p.B = sa/float64(n), sb/float64(n)
	var sum, abs float64
	for _, x := range d {
		sum += x
		abs += math.Abs(x)
	}
	p.Diff = sum / float64(n)
	// Differences that are all the same, or sum to 0, in exact arithmetic
	// can come out otherwise after rounding (0.6 − 0.4 is not 0.2 in
	// float64): a spread or mean within a relative 1e-12 of the values'
	// mean magnitude is 0 (a t of 8.5·10¹⁵ was printed for two equal
	// differences of 1/3).
	tol := 1e-12 * mag / float64(n)
	if math.Abs(p.Diff) <= tol {
		p.Diff = 0
	}
	if rounds > 0 {
		var err error
		if p.PRand, err = signFlip(ctx, d, sum, abs, rounds, seed, flipped); err != nil {
			return Paired{}, err
		}
	}
	if n == 1 {
		return p, nil
	}
	var ss float64 // two passes: the deviations about the mean, not E[x²] − E[x]²
	for _, x := range d {
		ss += (x - p.Diff) * (x - p.Diff)
	}
	sd := math.Sqrt(ss / float64(n-1))
	if sd <= tol {
		sd = 0
	}
	p.SE = sd / math.Sqrt(float64(n))
	switch {
	case p.SE > 0:
		p.T = p.Diff / p.SE
		p.PT = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Survival(math.Abs(p.T))
		p.PT = min(p.PT, 1)
	case p.Diff == 0:
		p.T, p.PT = 0, 1
	default:
		p.T, p.PT = math.Copysign(math.Inf(1), p.Diff), 0
	}
	return p, nil
}

// signFlip is the randomisation test's p for the differences d, whose sum
// is sum and sum of magnitudes abs: the share of rounds random sign
// patterns, one bit per difference, whose signed sum is at least |sum| in
// magnitude (a relative 1e-12 of abs counts as equal, for the rounding of
// a sum in another order), counted as (hits + 1) / (rounds + 1).
func signFlip(ctx context.Context, d []float64, sum, abs float64, rounds int, seed uint64, flipped *atomic.Int64) (float64, error) {
	if abs == 0 {
		if flipped != nil {
			flipped.Add(int64(rounds))
		}
		return 1, nil // every flip is the observed 0
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed5eed5eed5eed))
	obs := math.Abs(sum) - 1e-12*abs
	hits := 0
	for round := range rounds {
		if round%256 == 0 && round > 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			if flipped != nil {
				flipped.Add(256)
			}
		}
		var s float64
		var word uint64
		for i, x := range d {
			if i%64 == 0 {
				word = r.Uint64()
			}
			if word&1 == 1 {
				x = -x
			}
			word >>= 1
			s += x
		}
		if math.Abs(s) >= obs {
			hits++
		}
	}
	if flipped != nil {
		flipped.Add(int64((rounds-1)%256 + 1))
	}
	return float64(hits+1) / float64(rounds+1), nil
}
