package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// The λ sweep's grid, in fractions of λ_max: log-spaced like the default
// of `cronus sweep --lambdas 0.002:0.5:8`.
const (
	sweepFrom, sweepTo = 0.002, 0.5
	sweepN             = 8
)

// sweepMethod is the method of the sweep's points in the exported CSV:
// each is the cascade of Algorithm 2 alone (README, `cronus sweep`).
const sweepMethod = "cronus-init"

// sweepLambdas is the grid: n values from `from` to `to`, log-spaced.
func sweepLambdas(from, to float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = from
		if n > 1 {
			out[i] = from * math.Pow(to/from, float64(i)/float64(n-1))
		}
	}
	return out
}

// sweepRun is one λ sweep job.
type sweepRun struct {
	job    *job.Job[sweepSnap, []baseline.Point]
	cancel context.CancelFunc
	n      int // values of λ
	k      int // stages of each cascade
}

// sweepSnap is a λ sweep's snapshot: the points so far and how far the
// initialisation of the next λ has come.
type sweepSnap struct {
	pts    []baseline.Point // valid and test of each λ done, in λ order; immutable
	done   int              // values of λ done
	stages float64          // stages made of the next λ's cascade (cronus.InitializeProgress), up to K
}

type sweepMsg struct {
	gen int
	ev  job.Event[sweepSnap, []baseline.Point]
}

// startSweep runs, as a job, the fast initialisation (Algorithm 2) for
// every λ of lambdas with the other parameters of par, scoring each cascade
// on valid and test. Each snapshot holds the points so far, in λ order,
// and how far the next λ's initialisation has come: on 200,000 documents
// each takes 4-5 s, and the status line stood at "λ sweep 2/8" meanwhile.
// The job's progress is in values of λ, the one under way counted by its
// stages made (Done 2.4 of 8: two done, the third's fourth stage of 10
// under way), which gives the ETA. Its reports are coalesced; the points
// of a λ come at a boundary, so none is coalesced away, as does the end
// of its stages (the scoring is left, without a report).
func startSweep(ctx context.Context, w *workData, par cronus.Params, lambdas []float64) *sweepRun {
	ctx, cancel := context.WithCancel(ctx)
	run := &sweepRun{cancel: cancel, n: len(lambdas), k: par.K}
	run.job = job.Start(ctx, func(ctx context.Context, r *job.Reporter[sweepSnap]) ([]baseline.Point, error) {
		r.Phase("λ sweep", float64(len(lambdas)))
		eval := w.evaluator()
		var pts []baseline.Point
		for i, lam := range lambdas {
			if err := ctx.Err(); err != nil {
				return pts, err
			}
			p := par
			p.Lambda = lam
			// pts is clipped: the snapshots share its array, and later
			// appends copy.
			st, err := cronus.InitializeProgress(ctx, w.pr, w.sc, p, func(stages float64) {
				snap := func() sweepSnap { return sweepSnap{pts: pts, done: i, stages: stages} }
				if stages >= float64(p.K) {
					r.Boundary(float64(i+1), snap)
				} else {
					r.Report(float64(i)+stages/float64(p.K), snap)
				}
			})
			if err != nil {
				return pts, err
			}
			v, t, err := eval(ctx, &st.Cascade)
			if err != nil {
				return pts, err
			}
			for _, e := range []struct {
				split string
				ev    cronus.Eval
			}{{"valid", v}, {"test", t}} {
				if e.ev.Metrics != nil {
					pts = append(pts, baseline.Point{Method: sweepMethod, Split: e.split, Lambda: lam, Cost: e.ev.Cost, Metrics: e.ev.Metrics})
				}
			}
			pts = slices.Clip(pts) // the snapshots share the array; later appends copy
			snap := sweepSnap{pts: pts, done: i + 1}
			r.Boundary(float64(i+1), func() sweepSnap { return snap })
		}
		return pts, nil
	})
	return run
}

func waitSweep(gen int, ch <-chan job.Event[sweepSnap, []baseline.Point]) tea.Cmd {
	return waitEvent(ch, func(ev job.Event[sweepSnap, []baseline.Point]) tea.Msg { return sweepMsg{gen, ev} })
}

// toggleSweep starts a λ sweep, or cancels the running one.
func (m Model) toggleSweep() (Model, tea.Cmd) {
	if m.sweep != nil {
		m.setStatus(m.stopSweep(), false)
		return m, nil
	}
	if m.phase != phaseReady {
		m.sayWait("no λ sweep yet", "the cascade problem and the baselines", waitProblem)
		return m, nil
	}
	if m.par != m.runPar {
		// The edit's restart, 300 ms later, would cancel the sweep at
		// once (it started, and "Algorithm 2 at 8 values of λ … (w
		// cancels)" stood beside "λ sweep cancelled at 0 of 8"): refused,
		// as the choice of ρ is.
		m.setStatus("no λ sweep: an edit waits to be applied (w again once it has)", true)
		return m, nil
	}
	m.sweepGen++
	m.sweep = startSweep(m.ctx, m.w, m.par.Params, sweepLambdas(sweepFrom, sweepTo, sweepN))
	m.sweepPts, m.sweepDone, m.sweepStages, m.sweepETA = nil, 0, 0, 0
	m.setStatus(fmt.Sprintf("Algorithm 2 at %d values of λ, %g to %g × λ_max (w cancels)", sweepN, sweepFrom, sweepTo), false)
	// Short enough for the sweep's note with its stage and ETA beside it
	// at 80 columns (the note alone stood beside the whole message).
	m.statusShort = fmt.Sprintf("Algorithm 2 at %d λ (w cancels)", sweepN)
	m.statusShortSuffices = true // where the run's figures would not fit beside the whole message (statusBeside)
	return m, waitSweep(m.sweepGen, m.sweep.job.Events())
}

// stopSweep cancels the running sweep, if any, keeping its points so far;
// its remaining events are of an older generation and dropped. It says
// where the sweep stopped ("" if none ran), for the caller to say with
// what it did: an edit's restart said "λ sweep cancelled at 1 of 8" in
// place of "λ = 0.015" (apply, r).
func (m *Model) stopSweep() string {
	if m.sweep == nil {
		return ""
	}
	said := m.sweepCancelled()
	m.sweep.cancel()
	m.sweep = nil
	m.sweepGen++
	return said
}

// sweepCancelled says where the running sweep stops when cancelled now.
func (m Model) sweepCancelled() string {
	return fmt.Sprintf("λ sweep cancelled at %d of %d", m.sweepDone, m.sweep.n)
}

// dropSweep cancels the sweep and forgets its points: they are of data or
// an ensemble that is gone (why: "old data", "old ensemble"). It says
// where a running sweep stopped, or that a finished one's points went
// ("dropped the λ sweep (old data)"); "" when there was neither.
func (m *Model) dropSweep(why string) string {
	said := m.stopSweep()
	if said == "" && len(m.sweepPts) > 0 {
		said = "dropped the λ sweep (" + why + ")"
	}
	m.sweepPts, m.sweepDone = nil, 0
	return said
}

// sweepEvent takes one event of the running sweep.
func (m Model) sweepEvent(msg sweepMsg) (Model, tea.Cmd) {
	if msg.gen != m.sweepGen || m.sweep == nil {
		return m, nil
	}
	sn := msg.ev.Snapshot
	m.sweepPts, m.sweepDone, m.sweepStages, m.sweepETA = sn.pts, sn.done, sn.stages, msg.ev.Progress.ETA
	if !msg.ev.Final {
		return m, waitSweep(msg.gen, m.sweep.job.Events())
	}
	n := m.sweep.n
	m.sweep = nil
	if msg.ev.Err != nil {
		if !errors.Is(msg.ev.Err, context.Canceled) {
			m.setStatus("λ sweep: "+msg.ev.Err.Error(), true)
		}
		return m, nil
	}
	m.sweepPts, m.sweepDone = msg.ev.Result, n
	m.setStatus(fmt.Sprintf("λ sweep done: %d values of λ (e exports them as %s)", n, sweepMethod), false)
	return m, nil
}

// sweepCurve is the sweep's points of the split the baselines are drawn
// for, as the plot's "λ sweep" series.
func (m Model) sweepCurve() []baseline.Point { return m.splitCurve(m.sweepPts, views.MethodSweep) }

// splitCurve is pts of the split the baselines are drawn for, as the
// plot's series method.
func (m Model) splitCurve(pts []baseline.Point, method string) []baseline.Point {
	_, split := m.w.report()
	var out []baseline.Point
	for _, p := range pts {
		if p.Split == split {
			p.Method = method
			out = append(out, p)
		}
	}
	return out
}

// sweepNote is the status line's note of the running sweep: the values of
// λ done and the next one's initialisation, "λ sweep 2/8 · 3rd λ: stage 4
// of 10", or once its stages are made "3rd λ: scoring"; short, "λ sweep
// 2/8". eta is the sweep's time left (" · ETA 25.3s"), when known.
func (m Model) sweepNote() (note, short, eta string) {
	if m.sweep == nil {
		return "", "", ""
	}
	short = fmt.Sprintf("λ sweep %d/%d", m.sweepDone, m.sweep.n)
	if m.sweepDone >= m.sweep.n {
		return short, short, ""
	}
	where := fmt.Sprintf("stage %d of %d", cronus.InitStage(m.sweepStages, m.sweep.k), m.sweep.k)
	if m.sweepStages >= float64(m.sweep.k) {
		where = "scoring"
	}
	if m.sweepETA > 0 {
		eta = " · ETA " + etaText(m.sweepETA)
	}
	return fmt.Sprintf("%s · %s λ: %s", short, ordinal(m.sweepDone+1), where), short, eta
}

// ordinal is n (from 1) as "1st", "2nd", "3rd", "4th", ….
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
