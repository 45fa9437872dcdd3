package cronus

import (
	"context"
	"math"
	"testing"
)

// Under RhoOneSE ChooseRho picks the largest ρ whose per-query scores are,
// on average, within one standard error of the best ρ's: here, over four
// queries, ρ 0.005 is best (mean 0.78 over five); over the four queries
// where 0.05 has a number it trails 0.005 by 0.01 with a standard error
// of about 0.0129 (differences 0.02, −0.02, 0.04, 0: sd √(0.002/3)), so
// it is picked; 0.02 trails by 0.05 with se ≈ 0.0289, 0.1 by 0.06 with
// se 0.04 (within two standard errors, not one): not within. A NaN query is left out of the comparison, a ρ whose
// every query is NaN out of the choice. The ρ's initialisation is
// Initialize's, though its training-score cache was dropped; under
// RhoBest the same scores pick 0.005.
func TestChooseRhoOneSE(t *testing.T) {
	pr := smallProblem(t)
	sc := ComputeScales(pr, 0)
	par := DefaultParams()
	par.K = 3
	nan := math.NaN()
	perQuery := map[float64][]float64{
		0.001: {0.5, 0.5, 0.5, 0.5, nan},
		0.005: {0.9, 0.7, 0.8, 0.6, 0.9},
		0.01:  {nan, nan, nan, nan, nan},
		0.02:  {0.8, 0.7, 0.7, 0.6, nan},
		0.05:  {0.88, 0.72, 0.76, 0.6, nan},
		0.1:   {0.8, 0.8, 0.7, 0.5, 0.8},
	}
	rhos := []float64{0.1, 0.001, 0.005, 0.01, 0.02, 0.05} // the order does not matter: the largest within wins
	for _, c := range []struct {
		rule            RhoRule
		rho, score      float64
		best, bestScore float64
	}{
		{RhoOneSE, 0.05, 0.74, 0.005, 0.78},
		{RhoBest, 0.005, 0.78, 0.005, 0.78},
	} {
		i := 0
		got, err := ChooseRho(context.Background(), pr, sc, par, rhos, c.rule, func(context.Context, *Cascade) ([]float64, error) {
			i++
			return perQuery[rhos[i-1]], nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
		if got.Rho != c.rho || !near(got.Score, c.score) || got.Best != c.best || !near(got.BestScore, c.bestScore) || got.Init == nil {
			t.Fatalf("%v: chose ρ %g (score %g; best %g, %g; init %v), want ρ %g (%g; best %g, %g)", c.rule, got.Rho, got.Score, got.Best, got.BestScore, got.Init != nil, c.rho, c.score, c.best, c.bestScore)
		}
		wantInitAt(t, pr, sc, par, c.rho, got.Init)
	}
	for _, r := range []RhoRule{RhoBest, RhoOneSE} {
		if p, err := ParseRhoRule(r.String()); err != nil || p != r {
			t.Errorf("ParseRhoRule(%q) = %v, %v", r.String(), p, err)
		}
	}
	if _, err := ParseRhoRule("2se"); err == nil {
		t.Error("ParseRhoRule(2se): no error")
	}
}
