package cronus

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/cronus-ltr/cronus/engine/metric"
)

// DefaultRhos is the grid ρ is chosen from (ChooseRho), in fractions of
// ρ_max: cronus cascade's and sweep's --rhos default and the workbench's.
var DefaultRhos = []float64{0.0002, 0.001, 0.005, 0.02, 0.05, 0.1}

// RhoRule is how ChooseRho picks ρ from the scores of the initialised
// cascades.
type RhoRule int

const (
	// RhoBest picks the best mean score, the first of equals (§3.4).
	RhoBest RhoRule = iota
	// RhoOneSE picks the largest ρ (the sparsest cascade) whose mean
	// score is within one standard error of the best's: the mean of the
	// per-query differences from the best ρ's cascade at most their
	// standard error (metric.ComparePaired), the one-standard-error rule
	// of model selection (Breiman et al. 1984; glmnet's lambda.1se). Not
	// the paper's.
	RhoOneSE
)

// RhoRules are the rules' names, as --rho-rule takes them.
var RhoRules = []string{"best", "1se"}

func (r RhoRule) String() string {
	if r >= 0 && int(r) < len(RhoRules) {
		return RhoRules[r]
	}
	return fmt.Sprintf("RhoRule(%d)", int(r))
}

// ParseRhoRule reads a rule's name (RhoRules).
func ParseRhoRule(s string) (RhoRule, error) {
	for i, n := range RhoRules {
		if s == n {
			return RhoRule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown ρ rule %q (want best or 1se)", s)
}

// RhoChoice is the ρ the rule picked.
type RhoChoice struct {
	Rho      float64
	Score    float64       // its mean score; NaN when no cascade scored a number
	Init     *State        // its initialisation (Algorithm 2); nil with a NaN score
	InitTime time.Duration // and the time it took
	// Best is the ρ with the best mean score, and BestScore that score:
	// Rho and Score under RhoBest.
	Best, BestScore float64
}

// ChooseRho is the fast choice of ρ (§3.4): Algorithm 2 with ρ_1 = ρ_K =
// each of rhos and the other parameters of par, each cascade scored by
// score, which returns its value on each query (validation NDCG@10 for
// cronus cascade and the workbench; never test) and whose mean
// (metric.MeanOf) is the cascade's score; rule picks the ρ from them.
// progress, when not nil, is called before initialisation i and as it
// goes, with its stages made so far (InitializeProgress).
func ChooseRho(ctx context.Context, pr *Problem, sc Scales, par Params, rhos []float64, rule RhoRule,
	score func(context.Context, *Cascade) ([]float64, error), progress func(i int, stages float64)) (RhoChoice, error) {
	type tried struct {
		choice   RhoChoice
		perQuery []float64
	}
	var all []tried
	best := -1 // index in all of the best mean
	// sofar is the best mean's choice so far (par's ρ_1 and a NaN score
	// before any): what an error returns beside it.
	sofar := func() RhoChoice {
		if best < 0 {
			return RhoChoice{Rho: par.Rho1, Score: math.NaN(), Best: par.Rho1, BestScore: math.NaN()}
		}
		c := all[best].choice
		c.Best, c.BestScore = c.Rho, c.Score
		return c
	}
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
			return sofar(), err
		}
		took := time.Since(start)
		pq, err := score(ctx, &st.Cascade)
		if err != nil {
			return sofar(), err
		}
		q := metric.MeanOf(pq)
		if math.IsNaN(q) {
			continue
		}
		t := tried{RhoChoice{Rho: rho, Score: q, Init: st, InitTime: took}, pq}
		switch {
		case rule == RhoBest && best < 0:
			all, best = append(all, t), 0
		case rule == RhoBest:
			if q > all[0].choice.Score {
				all[0] = t // RhoBest keeps the best alone, at 0
			}
		default:
			st.scores = nil // the training scores' cache, K × documents: recomputed if this ρ is picked
			all = append(all, t)
			if best < 0 || q > all[best].choice.Score {
				best = len(all) - 1
			}
		}
	}
	if best < 0 {
		return sofar(), nil
	}
	pick := best
	if rule == RhoOneSE {
		for i, t := range all {
			if t.choice.Rho <= all[pick].choice.Rho {
				continue
			}
			p, err := metric.ComparePaired(ctx, all[best].perQuery, t.perQuery, 0, 0, nil)
			if err != nil {
				return sofar(), err
			}
			if p.Diff <= 0 || p.Diff <= p.SE {
				pick = i
			}
		}
	}
	c := all[pick].choice
	c.Best, c.BestScore = all[best].choice.Rho, all[best].choice.Score
	return c, nil
}
