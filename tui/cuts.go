package tui

import (
	"context"
	"fmt"
	"slices"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/views"
)

// cutsMethod is the method of the best cascade's cuts in the exported
// CSV: its first k stages as a cascade of their own (`cronus eval
// --cascade C --stages k`), the λ column holding k, as a prefix's holds
// its number of trees.
const cutsMethod = "first-stages"

// prefixMethod is the method of the best cascade's last-stage prefixes in
// the exported CSV: the cascade with its last stage the base ensemble's
// first n trees (`cronus eval --cascade C --last-prefix n`), the λ column
// holding n.
const prefixMethod = "last-prefix"

// cutSplits are the splits the cuts are scored on, in order.
var cutSplits = []string{"valid", "test"}

// stageCuts scores c's first k stages, k = 1 … K−1, each a cheaper
// cascade of its own (cronus.Cascade.FirstStages: stage k passes nothing
// on), on w's validation and test data, all cuts of a split in one pass
// (cronus.EvaluateCuts): one point per cut and split with data, in order
// of k, valid before test. The whole cascade (k = K) is the run's own
// point. start, if not nil, is told each split as its scoring starts. It
// stops at ctx's end, with the error.
func stageCuts(ctx context.Context, w *workData, c *cronus.Cascade, start func(split int)) ([]baseline.Point, error) {
	evs := make([][]cronus.Eval, len(cutSplits))
	for i, d := range []*data.Dataset{w.valid, w.test} {
		if start != nil {
			start(i)
		}
		ev, err := cronus.EvaluateCuts(ctx, w.e, c, d, w.costs.Cost, w.treeCost, reportSpecs)
		if err != nil {
			return nil, err
		}
		evs[i] = ev
	}
	var pts []baseline.Point
	for k := 1; k < len(c.Stages); k++ {
		for i, split := range cutSplits {
			if ev := evs[i][k-1]; ev.Metrics != nil {
				pts = append(pts, baseline.Point{Method: cutsMethod, Split: split, Lambda: float64(k), Cost: ev.Cost, Metrics: ev.Metrics})
			}
		}
	}
	return pts, nil
}

// stagePrefixes scores c with its last stage the base ensemble's first n
// trees (cronus.Cascade.LastPrefix), for each n of
// cronus.DefaultLastPrefixes up to the ensemble's trees, on w's
// validation and test data: one point per n and split with data, in
// order of n, valid before test, as `cronus sweep --variants last-prefix`
// writes its λ#pn rows. A cascade whose stages before the last keep no
// tree has none: each would be the prefix baseline itself. report, if not
// nil, is told how far it is, in splits done (1.5: half the test split).
// It stops at ctx's end, with the error.
func stagePrefixes(ctx context.Context, w *workData, c *cronus.Cascade, report func(done float64)) ([]baseline.Point, error) {
	if c.FirstKept() >= len(c.Stages)-1 {
		return nil, nil
	}
	var ns []int
	for _, n := range cronus.DefaultLastPrefixes {
		if n <= len(w.e.Trees) {
			ns = append(ns, n)
		}
	}
	evs := make([][]cronus.Eval, len(cutSplits))
	for i, d := range []*data.Dataset{w.valid, w.test} {
		if d == nil {
			continue
		}
		evs[i] = make([]cronus.Eval, len(ns))
		for j, n := range ns {
			if report != nil {
				report(float64(i) + float64(j)/float64(len(ns)))
			}
			ev, err := cronus.EvaluateContext(ctx, w.e, c.LastPrefix(n, w.e.Base), d, w.costs.Cost, w.treeCost, reportSpecs)
			if err != nil {
				return nil, err
			}
			evs[i][j] = ev
		}
	}
	var pts []baseline.Point
	for j, n := range ns {
		for i, split := range cutSplits {
			if evs[i] != nil && evs[i][j].Metrics != nil {
				pts = append(pts, baseline.Point{Method: prefixMethod, Split: split, Lambda: float64(n), Cost: evs[i][j].Cost, Metrics: evs[i][j].Metrics})
			}
		}
	}
	return pts, nil
}

// cutCurve is the best cascade's cuts and last-stage prefixes of the
// split the baselines are drawn for, as the plot's "first k stages" and
// "last stage a prefix" series.
func (m Model) cutCurve() []baseline.Point {
	var cuts, prefixes []baseline.Point
	for _, p := range m.bestCuts {
		if p.Method == prefixMethod {
			prefixes = append(prefixes, p)
		} else {
			cuts = append(cuts, p)
		}
	}
	return slices.Concat(m.splitCurve(cuts, views.MethodStages), m.splitCurve(prefixes, views.MethodLastPrefix))
}

// cutsStatus is the status line's run figures while a finished run's
// cuts or last-stage prefixes are scored, the split under way (p.Done of
// the cutSplits) and the phase's time: "scoring the first k stages on
// test · 1.2s", shorter forms as w requires.
func cutsStatus(p job.Progress, w int, st views.Styles) string {
	split := cutSplits[min(max(int(p.Done), 0), len(cutSplits)-1)]
	// The phase's own time: the run's (Elapsed) counted the optimisation
	// before it and any pause, "· 11.1s" for a scoring of 0.3s.
	took := st.Value.Render(fmt.Sprintf("%.1fs", p.PhaseElapsed.Seconds()))
	short := "cuts"
	if p.Phase == prefixPhase {
		short = "prefixes"
	}
	for _, line := range []string{
		st.Title.Render(p.Phase+" on "+split) + " · " + took,
		st.Title.Render(p.Phase + " on " + split),
		st.Title.Render(p.Phase),
		st.Title.Render(short + " on " + split),
	} {
		if lipgloss.Width(line) <= w {
			return line
		}
	}
	return views.Truncate(st.Title.Render(short), w)
}
