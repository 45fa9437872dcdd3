package cronus

import (
	"context"
	"math"
	"time"
)

// DefaultRhos is the grid ρ is chosen from (ChooseRho), in fractions of
// ρ_max: cronus cascade's and sweep's --rhos default and the workbench's.
var DefaultRhos = []float64{0.0002, 0.001, 0.005, 0.02, 0.05, 0.1}

// RhoChoice is the ρ whose initialised cascade scored best.
type RhoChoice struct {
	Rho      float64
	Score    float64       // its score; NaN when no cascade scored a number
	Init     *State        // its initialisation (Algorithm 2); nil with a NaN score
	InitTime time.Duration // and the time it took
}

// ChooseRho is the fast choice of ρ (§3.4): Algorithm 2 with ρ_1 = ρ_K =
// each of rhos and the other parameters of par, each cascade scored by
// score (validation NDCG@10 for cronus cascade and the workbench; never
// test), the first best kept. progress, when not nil, is called before
// initialisation i and as it goes, with its stages made so far
// (InitializeProgress).
func ChooseRho(ctx context.Context, pr *Problem, sc Scales, par Params, rhos []float64,
	score func(context.Context, *Cascade) (float64, error), progress func(i int, stages float64)) (RhoChoice, error) {
	best := RhoChoice{Rho: par.Rho1, Score: math.NaN()}
	for i, rho := range rhos {
		var each func(float64)
		if progress != nil {
			each = func(stages float64) { progress(i, stages) }
			each(0)
		}
		try := par
		try.Rho1, try.RhoK = rho, rho
		start := time.Now()
		st, err := InitializeProgress(ctx, pr, sc, try, each)
		if err != nil {
			return best, err
		}
		took := time.Since(start)
		q, err := score(ctx, &st.Cascade)
		if err != nil {
			return best, err
		}
		if q > best.Score || math.IsNaN(best.Score) && !math.IsNaN(q) {
			best = RhoChoice{Rho: rho, Score: q, Init: st, InitTime: took}
		}
	}
	return best, nil
}
