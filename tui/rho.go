package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// rhoGrid is the ρ grid of `cronus cascade`, which the workbench chooses
// ρ from on validation: with its fixed ρ 0.02, the workbench's cascades
// on the 50,000-document synthetic MSLR-cost set scored test NDCG@10
// 0.47–0.56, where cronus cascade chose 0.0002 and got 0.891 (the full
// ensemble 0.958).
var rhoGrid = cronus.DefaultRhos

// rhoRun is one choice of ρ on validation, as a job.
type rhoRun struct {
	job    *job.Job[rhoSnap, rhoChoice]
	cancel context.CancelFunc
	n      int            // values of ρ
	k      int            // stages of each cascade
	rule   cronus.RhoRule // how the choice is made
}

// rhoSnap is how far a choice of ρ has come: the initialisations done and
// the stages made of the next.
type rhoSnap struct {
	done   int
	stages float64 // of the next initialisation (cronus.InitializeProgress), up to K
}

// rhoChoice is the ρ chosen, with its initialised cascade's NDCG@10 on
// validation (NaN when none scored), and the best ρ and its NDCG@10,
// which the one-standard-error rule may pass over for a larger ρ.
type rhoChoice struct {
	rho, ndcg         float64
	bestRho, bestNDCG float64
}

// rhoRuleTyping says whether s is a rule's word or the start of one, whose
// letters are not stray characters on the ρ line.
func rhoRuleTyping(s string) bool {
	if s == "" {
		return false
	}
	for _, w := range cronus.RhoRules {
		if strings.HasPrefix(w, s) {
			return true
		}
	}
	return false
}

type rhoMsg struct {
	gen int
	ev  job.Event[rhoSnap, rhoChoice]
}

// startRho runs, as a job, `cronus cascade`'s choice of ρ
// (cronus.ChooseRho, which it calls too): the fast initialisation (Algorithm 2) with ρ_1 = ρ_K = each of
// rhos and the other parameters of par, each cascade scored on validation
// NDCG@10 (never on test); by rule, the first best wins (RhoBest) or the
// largest ρ within one standard error of it (RhoOneSE). Its progress is in
// initialisations, the one under way counted by its stages made, as the λ
// sweep's.
func startRho(ctx context.Context, w *workData, par cronus.Params, rhos []float64, rule cronus.RhoRule) *rhoRun {
	ctx, cancel := context.WithCancel(ctx)
	run := &rhoRun{cancel: cancel, n: len(rhos), k: par.K, rule: rule}
	run.job = job.Start(ctx, func(ctx context.Context, r *job.Reporter[rhoSnap]) (rhoChoice, error) {
		r.Phase("choosing ρ", float64(len(rhos)))
		c, err := cronus.ChooseRho(ctx, w.pr, w.sc, par, rhos, rule, func(ctx context.Context, c *cronus.Cascade) ([]float64, error) {
			v, err := cronus.EvaluateContext(ctx, w.e, c, w.valid, w.costs.Cost, w.treeCost, reportSpecs)
			return v.PerQuery[curveSpec], err
		}, func(i int, stages float64) {
			snap := func() rhoSnap { return rhoSnap{done: i, stages: stages} }
			// The end of an initialisation's stages, and the start of the
			// next (the last one scored), at a boundary: none is coalesced
			// away.
			if stages >= float64(par.K) || stages == 0 {
				r.Boundary(float64(i)+stages/float64(par.K), snap)
			} else {
				r.Report(float64(i)+stages/float64(par.K), snap)
			}
		})
		return rhoChoice{rho: c.Rho, ndcg: c.Score, bestRho: c.Best, bestNDCG: c.BestScore}, err
	})
	return run
}

func waitRho(gen int, ch <-chan job.Event[rhoSnap, rhoChoice]) tea.Cmd {
	return waitEvent(ch, func(ev job.Event[rhoSnap, rhoChoice]) tea.Msg { return rhoMsg{gen, ev} })
}

// chooseRho starts the choice of ρ on validation by rule (enter with no
// value typed on the ρ line, or 1se or best), or cancels the running one.
func (m Model) chooseRho(rule cronus.RhoRule) (Model, tea.Cmd) {
	if m.rho != nil {
		m.setStatus(m.stopRho(), false)
		return m, nil
	}
	if s := m.noValid("ρ not chosen"); s != "" {
		m.setStatus(s, true)
		return m, nil
	}
	if m.phase != phaseReady {
		m.sayWait("ρ not chosen yet", "the cascade problem and the baselines", waitProblem)
		return m, nil
	}
	if m.par != m.runPar {
		// The choice is for the parameters of the run it restarts; the
		// edit's restart would cancel it.
		m.setStatus("ρ not chosen: an edit waits to be applied (enter, enter again once it has)", true)
		return m, nil
	}
	// A restart still to come (the tick of edits that undid each other)
	// would cancel the choice.
	m.edits++
	m.rhoGen++
	m.rho = startRho(m.ctx, m.w, m.par.Params, rhoGrid, rule)
	m.rhoDone, m.rhoStages, m.rhoETA = 0, 0, 0
	by := ""
	if rule == cronus.RhoOneSE {
		by = " by the one-standard-error rule"
	}
	m.setStatus(fmt.Sprintf("choosing ρ on validation NDCG@10%s: Algorithm 2 at %d values of ρ (enter, enter cancels)", by, len(rhoGrid)), false)
	m.statusShort = fmt.Sprintf("Algorithm 2 at %d ρ", len(rhoGrid))
	m.statusShortSuffices = true
	return m, waitRho(m.rhoGen, m.rho.job.Events())
}

// stopRho cancels the running choice of ρ, if any; ρ stays as it was (ρ
// changes only once the choice has ended). It says where the choice
// stopped ("" if none ran).
func (m *Model) stopRho() string {
	if m.rho == nil {
		return ""
	}
	said := m.rhoCancelled()
	m.rho.cancel()
	m.rho, m.rhoHeld = nil, nil
	m.rhoGen++
	return said
}

// releaseRho takes the end of the choice of ρ held while an edit waited
// (rhoHeld) once the edits are undone, the settings those of the run the
// choice was made for.
func (m Model) releaseRho() (Model, tea.Cmd) {
	if m.rhoHeld == nil || m.par != m.runPar {
		return m, nil
	}
	msg := *m.rhoHeld
	m.rhoHeld = nil
	return m.rhoEvent(msg)
}

// rhoCancelled says where the running choice of ρ stops when cancelled now.
func (m Model) rhoCancelled() string {
	done := m.rhoDone
	if m.rhoHeld != nil && m.rhoHeld.ev.Err == nil {
		done = m.rho.n // ended, its ρ held for an edit's tick
	}
	return fmt.Sprintf("choosing ρ cancelled at %d of %d", done, m.rho.n)
}

// rhoEvent takes one event of the running choice of ρ; at its end ρ is
// set to the choice and the optimisation restarts as after an edit of ρ
// (warm).
func (m Model) rhoEvent(msg rhoMsg) (Model, tea.Cmd) {
	if msg.gen != m.rhoGen || m.rho == nil {
		return m, nil
	}
	sn := msg.ev.Snapshot
	m.rhoDone, m.rhoStages, m.rhoETA = sn.done, sn.stages, msg.ev.Progress.ETA
	if !msg.ev.Final {
		return m, waitRho(msg.gen, m.rho.job.Events())
	}
	if m.par != m.runPar {
		// An edit waits for its tick, which cancels the choice (apply),
		// or, the edit stepped back, takes this end (releaseRho): ρ set
		// now would go over the edit, and the choice was made for the
		// run's parameters.
		m.rhoHeld = &msg
		return m, nil
	}
	rule := m.rho.rule
	m.rho = nil
	if err := msg.ev.Err; err != nil {
		if !errors.Is(err, context.Canceled) {
			m.setStatus("choosing ρ: "+err.Error(), true)
		}
		return m, nil
	}
	c := msg.ev.Result
	if math.IsNaN(c.ndcg) {
		m.setStatus("ρ not chosen: no initialised cascade has an NDCG@10 on validation", true)
		return m, nil
	}
	by := ""
	if rule == cronus.RhoOneSE {
		// The rule's choice and what it passed over (or that it took the
		// best itself).
		by = " by the one-standard-error rule, the best"
		if c.bestRho != c.rho {
			by = fmt.Sprintf(" by the one-standard-error rule (the best: ρ %s, %.4f)", formatFloat(c.bestRho), c.bestNDCG)
		}
	}
	said := fmt.Sprintf("ρ %s chosen on validation NDCG@10 %.4f%s (of %d: %s … %s)", formatFloat(c.rho), c.ndcg, by,
		len(rhoGrid), formatFloat(rhoGrid[0]), formatFloat(rhoGrid[len(rhoGrid)-1]))
	if c.rho == m.par.Rho1 && c.rho == m.par.RhoK {
		m.setStatus(said+", as it was: no restart", false)
		return m, nil
	}
	m.par.Rho1, m.par.RhoK = c.rho, c.rho
	m.setStatus(said, false)
	m.statusShort = fmt.Sprintf("ρ %s chosen (NDCG@10 %.4f)", formatFloat(c.rho), c.ndcg)
	return m.apply() // which adds a λ sweep it cancels
}

// rhoNote is the status line's note of the running choice of ρ:
// "choosing ρ: initialisation 3 of 6 · stage 4 of 10", or once its stages
// are made "… · scoring"; short, "choosing ρ 3/6". eta is its time left
// (" · ETA 25.3s"), when known.
func (m Model) rhoNote() (note, short, eta string) {
	if m.rho == nil {
		return "", "", ""
	}
	i := min(m.rhoDone+1, m.rho.n)
	short = fmt.Sprintf("choosing ρ %d/%d", i, m.rho.n)
	where := fmt.Sprintf("stage %d of %d", cronus.InitStage(m.rhoStages, m.rho.k), m.rho.k)
	if m.rhoStages >= float64(m.rho.k) {
		where = "scoring"
	}
	if m.rhoETA > 0 {
		eta = " · ETA " + etaText(m.rhoETA)
	}
	return fmt.Sprintf("choosing ρ: initialisation %d of %d · %s", i, m.rho.n, where), short, eta
}
