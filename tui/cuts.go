package tui

import (
	"context"
	"fmt"

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

// cutCurve is the best cascade's cuts of the split the baselines are
// drawn for, as the plot's "first k stages" series.
func (m Model) cutCurve() []baseline.Point { return m.splitCurve(m.bestCuts, views.MethodStages) }

// cutsStatus is the status line's run figures while a finished run's
// cuts are scored, the split under way (p.Done of the cutSplits):
// "scoring the first k stages on test · 1.2s", shorter forms as w
// requires.
func cutsStatus(p job.Progress, w int, st views.Styles) string {
	split := cutSplits[min(max(int(p.Done), 0), len(cutSplits)-1)]
	took := st.Value.Render(fmt.Sprintf("%.1fs", p.Elapsed.Seconds()))
	for _, line := range []string{
		st.Title.Render(p.Phase+" on "+split) + " · " + took,
		st.Title.Render(p.Phase + " on " + split),
		st.Title.Render(p.Phase),
		st.Title.Render("cuts on " + split),
	} {
		if lipgloss.Width(line) <= w {
			return line
		}
	}
	return views.Truncate(st.Title.Render("cuts"), w)
}
