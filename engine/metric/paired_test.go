package metric

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
)

// compare is ComparePaired without a context to end or a count to keep;
// it also checks that flipped ends at rounds.
func compare(t *testing.T, a, b []float64, rounds int, seed uint64) Paired {
	t.Helper()
	var flipped atomic.Int64
	p, err := ComparePaired(context.Background(), a, b, rounds, seed, &flipped)
	if err != nil {
		t.Fatal(err)
	}
	if got := flipped.Load(); got != int64(rounds) && p.Queries > 0 {
		t.Errorf("flipped %d, want the %d rounds", got, rounds)
	}
	return p
}

// pairedA and pairedB are two systems' values on 8 queries, with a ninth
// query (index 4) that B leaves out (NaN), so it is skipped.
var (
	pairedA = []float64{0.5, 0.7, 0.2, 0.9, 0.1, 0.4, 0.6, 0.3, 0.8}
	pairedB = []float64{0.4, 0.5, 0.3, 0.6, math.NaN(), 0.4, 0.2, 0.35, 0.55}
)

// The expected figures come from SciPy 1.10.1 on the 8 complete pairs:
// scipy.stats.ttest_rel(a, b) gives t = 2.17528011424253 and p =
// 0.06609972027098945; numpy gives the mean difference 0.1375 and the
// standard error d.std(ddof=1)/√8 = 0.06321025007295662; enumerating the
// 2^8 sign patterns, 24 have a sum at least as far from 0 as the observed
// one, so the exact randomisation p is 24/256 = 0.09375.
func TestComparePairedAgainstSciPy(t *testing.T) {
	const rounds = 100000
	p := compare(t, pairedA, pairedB, rounds, 1)
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.15g, want %.15g (±%g)", name, got, want, tol)
		}
	}
	if p.Queries != 8 || p.Rounds != rounds {
		t.Fatalf("queries %d, rounds %d; want 8, %d", p.Queries, p.Rounds, rounds)
	}
	near("A", p.A, (0.5+0.7+0.2+0.9+0.4+0.6+0.3+0.8)/8, 1e-15)
	near("B", p.B, (0.4+0.5+0.3+0.6+0.4+0.2+0.35+0.55)/8, 1e-15)
	near("Diff", p.Diff, 0.1375, 1e-15)
	near("SE", p.SE, 0.06321025007295662, 1e-15)
	near("T", p.T, 2.17528011424253, 1e-12)
	near("PT", p.PT, 0.06609972027098945, 1e-10)
	// The estimate's standard error is √(p(1−p)/rounds) ≈ 0.00092; 5 of them.
	near("PRand", p.PRand, 0.09375, 0.0046)

	// B against A: the same test with the sign turned.
	q := compare(t, pairedB, pairedA, rounds, 1)
	near("reversed T", q.T, -p.T, 1e-12)
	near("reversed PT", q.PT, p.PT, 1e-12)
	near("reversed PRand", q.PRand, p.PRand, 0.0046)

	// No rounds: the t test alone.
	if r := compare(t, pairedA, pairedB, 0, 1); !math.IsNaN(r.PRand) || r.PT != p.PT || r.T != p.T {
		t.Errorf("rounds 0: PRand %v (want NaN), PT %v, T %v (want %v, %v)", r.PRand, r.PT, r.T, p.PT, p.T)
	}
	// Same inputs and seed, the same p bit for bit; another seed, another
	// estimate of the same p.
	if r := compare(t, pairedA, pairedB, rounds, 1); r.PRand != p.PRand {
		t.Errorf("seed 1 again: PRand %v, then %v", p.PRand, r.PRand)
	}
	near("seed 2 PRand", compare(t, pairedA, pairedB, rounds, 2).PRand, 0.09375, 0.0046)
}

// More queries than one word of random bits holds: 100 queries where A
// is ahead on 60 by 0.01 and behind on 40 by 0.01. The exact sign-flip p
// is that of a two-sided binomial test: P(|2X − 100| ≥ 20) for X ~
// Binomial(100, ½), which is 0.05688793364098088 (SciPy 1.10.1,
// scipy.stats.binomtest(60, 100).pvalue).
func TestComparePairedManyQueries(t *testing.T) {
	a := make([]float64, 100)
	b := make([]float64, 100)
	for i := range a {
		a[i] = 0.5
		b[i] = 0.49
		if i%5 >= 3 { // 40 of 100
			b[i] = 0.51
		}
	}
	p := compare(t, a, b, 200000, 7)
	// Differences: 60 of +0.01, 40 of −0.01; mean 0.002; sample variance
	// (60·0.008² + 40·0.012²)/99 = 0.0096/99; SE = √(0.0096/99)/10.
	se := math.Sqrt(0.0096/99) / 10
	if math.Abs(p.Diff-0.002) > 1e-15 || math.Abs(p.SE-se) > 1e-14 {
		t.Errorf("Diff %v, SE %v; want 0.002, %v", p.Diff, p.SE, se)
	}
	// scipy.stats.ttest_rel(a, b): t = 2.0310096011589898, p = 0.04493472521263044.
	if math.Abs(p.T-2.0310096011589898) > 1e-9 || math.Abs(p.PT-0.04493472521263044) > 1e-10 {
		t.Errorf("T %v, PT %v; want 2.0310096011589898, 0.04493472521263044", p.T, p.PT)
	}
	// √(p(1−p)/200000) ≈ 0.00052; 5 of them.
	if math.Abs(p.PRand-0.05688793364098088) > 0.0026 {
		t.Errorf("PRand %v, want 0.0569 (the binomial test's)", p.PRand)
	}
}

func TestComparePairedDegenerate(t *testing.T) {
	// No query both define: every figure NaN.
	p := compare(t, []float64{math.NaN(), 0.3}, []float64{0.2, math.NaN()}, 10, 1)
	if p.Queries != 0 || !math.IsNaN(p.A) || !math.IsNaN(p.Diff) || !math.IsNaN(p.PT) || !math.IsNaN(p.PRand) {
		t.Errorf("no query: %+v", p)
	}
	// One query: a difference, but no spread to test it against.
	p = compare(t, []float64{0.5}, []float64{0.25}, 10, 1)
	if p.Queries != 1 || p.Diff != 0.25 || !math.IsNaN(p.SE) || !math.IsNaN(p.T) || !math.IsNaN(p.PT) {
		t.Errorf("one query: %+v", p)
	}
	// The same values: nothing to tell apart.
	v := []float64{0.1, 0.4, 0.9}
	p = compare(t, v, v, 1000, 1)
	if p.Diff != 0 || p.SE != 0 || p.T != 0 || p.PT != 1 || p.PRand != 1 {
		t.Errorf("identical: %+v", p)
	}
	// Every difference the same, and not 0: no spread, a certain sign. Of
	// the 2^6 sign patterns only all-plus and all-minus reach the
	// observed sum: exact p 2/64.
	// (Binary fractions, so that every difference is exactly 0.125.)
	a := []float64{0.75, 0.5, 1, 0.25, 0.875, 0.625}
	b := []float64{0.625, 0.375, 0.875, 0.125, 0.75, 0.5}
	p = compare(t, a, b, 200000, 3)
	if !math.IsInf(p.T, 1) || p.PT != 0 {
		t.Errorf("constant difference: T %v, PT %v; want +Inf, 0", p.T, p.PT)
	}
	if math.Abs(p.PRand-2.0/64) > 0.002 {
		t.Errorf("constant difference: PRand %v, want %v", p.PRand, 2.0/64)
	}
	// The same, with differences equal in exact arithmetic but not after
	// rounding (review 2026-11-29: 1 − 2/3 and 2/3 − 1/3 gave SE 3.9e-17
	// and T 8.5e15, not +Inf), and with a mean of 0 after rounding (a
	// cascade against itself read "diff -0.0000").
	p = compare(t, []float64{1, 2.0 / 3, 0.6}, []float64{2.0 / 3, 1.0 / 3, 0.6 - 1.0/3}, 0, 1)
	if p.SE != 0 || !math.IsInf(p.T, 1) || p.PT != 0 {
		t.Errorf("differences of 1/3 after rounding: SE %v, T %v, PT %v; want 0, +Inf, 0", p.SE, p.T, p.PT)
	}
	tenth, fifth := 0.1, 0.2 // variables: a constant 0.1 + 0.2 is 0.3 exactly
	p = compare(t, []float64{0.3, tenth + fifth, 0.5}, []float64{tenth + fifth, 0.3, 0.5}, 0, 1)
	if p.Diff != 0 || p.SE != 0 || p.T != 0 || p.PT != 1 {
		t.Errorf("differences of 0 after rounding: %+v; want Diff, SE and T 0, PT 1", p)
	}
}

// A context that ends stops the sign flips: with 10⁹ rounds of 1,000
// queries (about 10¹² additions) ComparePaired returns ctx's error once
// some rounds are done.
func TestComparePairedCancelled(t *testing.T) {
	a := make([]float64, 1000)
	b := make([]float64, 1000)
	for i := range a {
		a[i] = float64(i%7) / 7
		b[i] = float64(i%5) / 5
	}
	ctx, cancel := context.WithCancel(context.Background())
	var flipped atomic.Int64
	go func() {
		for flipped.Load() < 1024 {
			// spin until the flips are under way
		}
		cancel()
	}()
	if _, err := ComparePaired(ctx, a, b, 1_000_000_000, 1, &flipped); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if n := flipped.Load(); n < 1024 || n >= 1_000_000_000 {
		t.Errorf("flipped %d rounds before stopping", n)
	}
}

// MeanOf over PerQuery's values is Mean, bit for bit, with queries left out
// or not: Evaluate takes its means that way, and eval and the cascade
// report must agree to the last bit.
func TestMeanOfIsMean(t *testing.T) {
	labels := []float32{2, 0, 1, 0, 0, 0, 3, 1, 0, 1}
	scores := []float64{0.3, 0.1, 0.7, 0.2, 0.5, 0.4, 0.05, 0.9, 0.6, 0.8}
	offsets := []int{0, 3, 6, 10} // the second query has no relevant document
	for _, name := range []string{"ndcg@3", "err@2", "p@2", "map"} {
		sp, err := Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{}, {ExcludeNoRelevant: true}} {
			got := MeanOf(PerQuery(sp, scores, labels, offsets, opt, nil))
			if want := Mean(sp, scores, labels, offsets, opt); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s %+v: MeanOf %v, Mean %v", name, opt, got, want)
			}
		}
	}
	if !math.IsNaN(MeanOf([]float64{math.NaN()})) || !math.IsNaN(MeanOf(nil)) {
		t.Error("MeanOf of nothing is not NaN")
	}
}

// The randomisation test's p is (hits+1)/(rounds+1), never 0: 30 equal
// differences are matched in |sum| only by the 2 of 2^30 sign patterns
// that are all alike, which 1000 rounds do not draw, so p is 1/1001.
func TestComparePairedPRandFloor(t *testing.T) {
	a, b := make([]float64, 30), make([]float64, 30)
	for i := range a {
		a[i] = 1
	}
	p, err := ComparePaired(context.Background(), a, b, 1000, 1, nil)
	if err != nil || p.PRand != 1.0/1001 {
		t.Errorf("PRand %v, err %v; want 1/1001", p.PRand, err)
	}
}
