package tui

import (
	"context"

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
// (k = K) is the run's own point. It stops at ctx's end, with the error.
func stageCuts(ctx context.Context, eval cronus.Evaluator, c *cronus.Cascade) ([]baseline.Point, error) {
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
