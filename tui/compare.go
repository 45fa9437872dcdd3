package tui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// Keeping and comparing cascades, and exporting the curves.
const (
	maxKept   = 4
	curvesCSV = "cronus-curves.csv"
	curvesSVG = "cronus-curves.svg"
	frontCSV  = "cronus-front.csv"
)

type exportedMsg struct {
	csv, svg, front string
	err             error
}

// keep records the best cascade of the current run for comparison; a fifth
// replaces the oldest. Kept cascades are of the base ensemble shown: a
// retrain or other data drop them.
func (m Model) keep() (Model, tea.Cmd) {
	if s := m.noValid("nothing to keep"); s != "" {
		m.setStatus(s, true)
		return m, nil
	}
	_, best, split := m.reported()
	if best.Metrics == nil {
		until := "the optimisation to report a cascade"
		switch {
		case m.snapRun.w != nil && !m.ofEnsemble(m.snapRun):
			// The snapshot is of the ensemble a retrain replaces, its run
			// cancelled: it will report nothing more.
			until = newEnsembleWait
		case m.snap.Warm && m.snap.Phase != phaseRestarting:
			// Its cascades are reported from step 0 on, but its best on
			// validation is chosen from the end of its first cycle on
			// (cronus.Optimize): the message read as if none had come.
			until = "the end of the warm run's first cycle (its best on validation is chosen from there)"
		}
		m.sayWait("nothing to keep yet", until, waitKeep)
		return m, nil
	}
	if !m.ofEnsemble(m.snapRun) {
		// The cascade shown last is of the ensemble a retrain replaces.
		m.sayWait("nothing to keep yet", newEnsembleWait, waitKeep)
		return m, nil
	}
	same := "" // the cascade kept before, when it is kept again
	for i, sv := range m.keptSave {
		if sv.c != nil && sv.c == m.snap.BestCascade {
			same = fmt.Sprintf("; the same cascade as #%d", m.kept[i].N)
		}
	}
	m.keptN++
	stages := m.snap.BestStages
	par := m.snapRun.par
	k := views.KeptCascade{N: m.keptN, Lambda: par.Lambda, K: par.K, Epsilon: par.Epsilon, Sigma: par.Sigma,
		Valid: m.snap.Best, Test: best, Split: split, Stages: stages}
	if m.snapRun.w != nil {
		set := settings{Params: par, tg: m.snapRun.w.tg}
		for _, i := range []int{parRho, parPosWeight, parDelta, parRelevant, parTargets} {
			name := paramNames[i]
			if i == parRelevant {
				name = "rel ≥"
			}
			k.Extra = append(k.Extra, views.Param{Name: name, Value: paramValue(set, i)})
		}
	}
	kept, save := slices.Clip(m.kept), slices.Clip(m.keptSave)
	if len(kept) == maxKept {
		same += fmt.Sprintf("; #%d, the oldest, makes way", kept[0].N)
		kept, save = kept[1:], save[1:]
	}
	m.kept = append(kept, k)
	// A hand-made snapshot (tests) may lack the cascade: nil is not saved.
	m.keptSave = append(save, savable{c: m.snap.BestCascade, sigma: stageSigma(m.snap.BestStages), run: m.snapRun})
	m.setStatus(fmt.Sprintf("kept #%d (λ %s, NDCG@10 %s, cost %s%s)", k.N, paramValue(settings{Params: par}, parLambda),
		metricValue(k.Test.Metrics, curveSpec), views.Num(k.Test.Cost.Total), same), false) // as the status line and the compare view
	return m, nil
}

// reported is the snapshot's figures on the split the workbench reports
// cascades on (workData.report), of the current cascade and of the best so
// far, and the split.
func (m Model) reported() (cur, best cronus.Eval, split string) {
	if _, split = m.snapRun.w.report(); split == "valid" {
		return m.snap.Valid, m.snap.Best, split
	}
	return m.snap.Test, m.snap.BestTest, split
}

// keptName is the file 's' in the compare view saves kept cascade N to.
const keptName = "cronus-kept-N.json"

// keptPath is keptName of kept cascade n.
func keptPath(n int) string { return strings.Replace(keptName, "N", strconv.Itoa(n), 1) }

// saveKept saves every kept cascade to its keptPath.
func (m Model) saveKept() (Model, tea.Cmd) {
	var cs []savable
	var paths []string
	for i, k := range m.kept {
		if s := m.keptSave[i]; s.c != nil && s.run.w != nil {
			cs, paths = append(cs, s), append(paths, keptPath(k.N))
		}
	}
	if len(cs) == 0 {
		m.setStatus("no kept cascade to save: k keeps the best cascade of the run", true)
		return m, nil
	}
	m.pendingWrites++
	return m, saveCmd(m.base, m.writes, "the kept cascades", cs, paths)
}

func metricValue(ms map[string]float64, key string) string {
	if v, ok := ms[key]; ok {
		return fmt.Sprintf("%.3f", v) // as the status line and the compare view give it
	}
	return "–"
}

// curvePoints are what 'e' exports: the baselines, the kept cascades, the
// λ sweep, the best cascade's first k stages and last-stage prefixes, and
// the finished runs.
func (m Model) curvePoints() []baseline.Point {
	var pts []baseline.Point
	if m.w != nil {
		pts = append(pts, m.w.points...)
	}
	for _, k := range m.kept {
		pts = append(pts, k.Point())
	}
	pts = append(pts, m.sweepPts...)
	pts = append(pts, m.bestCuts...)
	return append(pts, m.finished...)
}

// exportFront is the Pareto front of the exported points, as cronus sweep
// reports it: split by split (in the order the points first name them),
// the points that no other point of the split beats on cost per document
// and NDCG@10, in order of cost.
func exportFront(pts []baseline.Point) []baseline.Point {
	var splits []string
	for _, p := range pts {
		if !slices.Contains(splits, p.Split) {
			splits = append(splits, p.Split)
		}
	}
	var front []baseline.Point
	for _, s := range splits {
		front = append(front, baseline.SplitPareto(pts, s, curveSpec)...)
	}
	return front
}

// exportCmd writes the points, after the baselines more returns, as CSV
// and as an SVG plot with that title, and their Pareto front as CSV, off
// the UI goroutine; a write that waits is given up once ctx is done, as
// a save's (saveCmd).
func exportCmd(ctx context.Context, g *writeGuard, pts []baseline.Point, more func() ([]baseline.Point, error), title string) tea.Cmd {
	return func() tea.Msg {
		if !g.begin() {
			return exportedMsg{err: errQuit}
		}
		defer g.end()
		extra, err := more()
		if err != nil {
			return exportedMsg{err: err}
		}
		pts = append(extra, pts...)
		// All three or none, as cronus sweep writes its curve and plot: one
		// by one, a failed plot left the new curves beside the last
		// export's front.
		plot, err := baseline.PlotOutput(curvesSVG, pts, curveSpec, title)
		if err != nil {
			return exportedMsg{err: err}
		}
		if err := data.WriteAtomicAllContext(ctx, []data.Output{baseline.CSVOutput(curvesCSV, pts), plot, baseline.CSVOutput(frontCSV, exportFront(pts))}); err != nil {
			return exportedMsg{err: err}
		}
		return exportedMsg{csv: curvesCSV, svg: curvesSVG, front: frontCSV}
	}
}

// compareView draws the compare state in w × h cells.
func (m Model) compareView(w, h int) []string {
	var base []baseline.Point
	if m.w != nil {
		base = m.w.points
	}
	return fit(views.RenderCompare(m.kept, base, w, h, m.styles), w, h)
}
