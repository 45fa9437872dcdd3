package tui

import (
	"context"
	"fmt"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/job"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/views"
)

// cutsMethod is the method of the best cascade's cuts in the exported
// CSV: its first k stages as a cascade of their own (`cronus eval
// --cascade C --stages k`), the λ column holding k, as a prefix's holds
// its number of trees.
const cutsMethod = "first-stages"

// stageCuts scores c's first k stages, k = 1 … K−1, each a cheaper
// cascade of its own (cronus.Cascade.FirstStages: stage k passes nothing
// on), with eval on validation and test: one point per cut and split the
// evaluator scores, in order of k, valid before test. The whole cascade
// (k = K) is the run's own point. done, if not nil, is told each k scored.
// It stops at ctx's end, with the error.
func stageCuts(ctx context.Context, eval cronus.Evaluator, c *cronus.Cascade, done func(k int)) ([]baseline.Point, error) {
	var pts []baseline.Point
	for k := 1; k < len(c.Stages); k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, t, err := eval(ctx, c.FirstStages(k))
		if err != nil {
			return nil, err
		}
		for _, e := range []struct {
			split string
			ev    cronus.Eval
		}{{"valid", v}, {"test", t}} {
			if e.ev.Metrics != nil {
				pts = append(pts, baseline.Point{Method: cutsMethod, Split: e.split, Lambda: float64(k), Cost: e.ev.Cost, Metrics: e.ev.Metrics})
			}
		}
		if done != nil {
			done(k)
		}
	}
	return pts, nil
}

// cutCurve is the best cascade's cuts of the split the baselines are
// drawn for, as the plot's "first k stages" series.
func (m Model) cutCurve() []baseline.Point {
	_, split := m.w.report()
	var out []baseline.Point
	for _, p := range m.bestCuts {
		if p.Split == split {
			p.Method = views.MethodStages
			out = append(out, p)
		}
	}
	return out
}

// cutsStatus is the status line's run figures while a finished run's
// cuts are scored: "scoring the first k stages · 3 of 9 · 1.2s, about
// 2.0s left", shorter forms as w requires.
func cutsStatus(p job.Progress, w int, st views.Styles) string {
	phase := st.Title.Render(p.Phase)
	of := fmt.Sprintf("%d of %d", int(p.Done), int(p.Total))
	took := st.Value.Render(fmt.Sprintf("%.1fs", p.Elapsed.Seconds()))
	left := ""
	if p.ETA > 0 {
		left = ", about " + st.Value.Render(fmt.Sprintf("%.1fs", p.ETA.Seconds())) + " left"
	}
	for _, line := range []string{
		phase + " · " + of + " · " + took + left,
		phase + " · " + of + " · " + took,
		phase + " · " + of,
		st.Title.Render("cuts " + fmt.Sprintf("%d/%d", int(p.Done), int(p.Total))),
	} {
		if lipgloss.Width(line) <= w {
			return line
		}
	}
	return views.Truncate(st.Title.Render(fmt.Sprintf("cuts %d/%d", int(p.Done), int(p.Total))), w)
}
