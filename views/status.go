package views

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/metric"
)

// RenderStatus draws the one-line status of an optimisation run in at most
// width cells: phase, cycle and stage, the objective (eq 8), test P@5 and
// NDCG@10 (validation's without test data: heldOut), the test cost per
// document and its ratio to full, the cost of the full ensemble, and,
// where there is room, the figures of the best cascade so far (the one s
// saves) when it is not the current one, in short where the long form has
// no room for it ("best 0.486 @ 535.9"), and with the cycle and stage in
// short too ("c6 s7/10") where it still has none. When the
// long form does not fit, a short one is used (phase, NDCG@10, cost,
// objective, P@5, best), with as many of its items as fit, whole: a number cut short reads as another ("obj 553" for 5538).
// Only a first item wider than width is cut, and ends in "…".
func RenderStatus(s cronus.Snapshot, full metric.Cost, width int, st Styles) string {
	obj, cost := "–", "–"
	if len(s.Terms) > 0 {
		obj = Num(s.Terms[len(s.Terms)-1].Total)
	}
	ev, split, _ := heldOut(s)
	m := func(k string) string {
		if v, ok := ev.Metrics[k]; ok {
			return st.Value.Render(frac(v))
		}
		return "–"
	}
	if ev.Cost.Total > 0 || len(ev.Reached) > 0 {
		cost = Num(ev.Cost.Total)
	}
	ratio := "–"
	if full.Total > 0 && cost != "–" {
		ratio = fmt.Sprintf("%.1f%%", 100*ev.Cost.Total/full.Total)
	}
	// The short form's place: none for Algorithm 2's cascade, which its
	// phase names already ("initialising init · NDCG@10 …").
	where, short := "Algorithm 2", ""
	if s.Warm {
		// Step 0 of a warm run is the cascade it started from: it skipped
		// Algorithm 2 (the line read "warm start · Algorithm 2").
		where, short = "the cascade it starts from", "step 0"
	}
	if s.Cycle > 0 {
		where = fmt.Sprintf("cycle %d · stage %d/%d", s.Cycle, s.Stage+1, len(s.Stages))
		short = fmt.Sprintf("c%d s%d/%d", s.Cycle, s.Stage+1, len(s.Stages))
	}
	phase := st.Title.Render(cmp.Or(s.Phase, "starting"))
	long := []string{phase, where,
		"objective " + st.Value.Render(obj),
		split + " P@5 " + m("p@5") + " NDCG@10 " + m("ndcg@10"),
		"cost/doc " + st.Value.Render(cost) + " = " + st.Value.Render(ratio) + " of full " + Num(full.Total)}
	// The best cascade on validation, which s saves and k keeps, when it
	// is not the current one: after a run the status line showed the
	// last step's figures, and s then saved other ones.
	bestLong, bestBrief := "", ""
	if bev, bsplit := heldOutBest(s); s.BestCascade != nil && s.BestStep != s.Step && bev.Metrics != nil {
		bcost := Num(bev.Cost.Total)
		bestLong = fmt.Sprintf("best (s saves it): %s NDCG@10 %s cost %s", bsplit, st.Value.Render(frac(bev.Metrics["ndcg@10"])), st.Value.Render(bcost))
		bestBrief = fmt.Sprintf("best %s @ %s", st.Value.Render(frac(bev.Metrics["ndcg@10"])), st.Value.Render(bcost))
	}
	first := phase // the short form's first item
	if short != "" {
		first += " " + short
	}
	if bestBrief != "" {
		// The long form keeps the best with its place in short ("c6
		// s7/10"); else the short form, which keeps it too: from 127 to
		// 148 columns the line dropped the best, and s then saved
		// figures the line did not show.
		mid := append([]string{first}, long[2:]...)
		for _, line := range [][]string{append(long, bestLong), append(long, bestBrief), append(mid, bestBrief)} {
			if line := strings.Join(line, " · "); lipgloss.Width(line) <= width {
				return line
			}
		}
	} else if line := strings.Join(long, " · "); lipgloss.Width(line) <= width {
		return line
	}
	// Quality and cost first: under 90 columns the cost went before
	// P@5 did, in a tool about the two.
	brief := []string{first,
		"NDCG@10 " + m("ndcg@10"),
		"cost " + st.Value.Render(cost) + " (" + st.Value.Render(ratio) + ")",
		"obj " + st.Value.Render(obj),
		"P@5 " + m("p@5")}
	if bestBrief != "" {
		brief = append(brief, bestBrief)
	}
	line := brief[0]
	for _, it := range brief[1:] {
		next := line + " · " + it
		if lipgloss.Width(next) > width {
			break
		}
		line = next
	}
	return Truncate(line, width)
}

// RenderInitStatus draws the one-line status of a run while it
// initialises, before its first figures: how far Algorithm 2 has come, p
// being the run's job progress in that phase (Done of Total stages made;
// Elapsed, and ETA when known), in at most width cells: "initialising ·
// Algorithm 2: stage 3 of 10 · 1.2s, about 2.9s left". Once every stage is
// made, the cascade is being scored ("10 stages made, scoring them").
// Narrower, it leaves out the time left, then the time, then takes the
// short form "init 3/10 · 1.2s"; a first item wider than width is cut,
// and ends in "…". With compare, Algorithm 2 runs for a warm start to be
// compared with (cronus.Options.WarmOrInit), whose phase p names: "warm
// start · comparing with Algorithm 2: stage 3 of 10 · …", then "…: 10
// stages made, scoring the lower on eq (8)"; the line said "initialising"
// over a run that then went on from the warm start.
func RenderInitStatus(p job.Progress, compare bool, width int, st Styles) string {
	k := max(int(p.Total), 1)
	stage := cronus.InitStage(p.Done, k) // the one being made
	algo, scoring := "Algorithm 2", "scoring them"
	if compare {
		algo, scoring = "comparing with Algorithm 2", "scoring the lower on eq (8)"
	}
	where := fmt.Sprintf("%s: stage %d of %d", algo, stage, k)
	short := fmt.Sprintf("init %d/%d", stage, k)
	done := p.Done >= p.Total && p.Total > 0
	if done {
		where = fmt.Sprintf("%s: %d stages made, %s", algo, k, scoring)
		short = fmt.Sprintf("init %d/%d", k, k)
	}
	phase := st.Title.Render(cmp.Or(p.Phase, "initialising"))
	took := st.Value.Render(seconds(p.Elapsed))
	left := ""
	if p.ETA > 0 && !done {
		left = ", about " + st.Value.Render(seconds(p.ETA)) + " left"
	}
	for _, line := range []string{
		phase + " · " + where + " · " + took + left,
		phase + " · " + where + " · " + took,
		phase + " · " + where,
		st.Title.Render(short) + " · " + took,
	} {
		if lipgloss.Width(line) <= width {
			return line
		}
	}
	return Truncate(st.Title.Render(short), width)
}

// seconds is a time in seconds to a tenth: "1.2s".
func seconds(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }

// heldOutBest is heldOut for the best cascade so far: its test figures,
// or its validation figures without test data, with the split's name.
func heldOutBest(s cronus.Snapshot) (cronus.Eval, string) {
	if s.BestTest.Metrics == nil && s.Best.Metrics != nil {
		return s.Best, "valid"
	}
	return s.BestTest, "test"
}

// heldOut is what the views report s on: its test figures, or its
// validation figures when the run has no test data (Test unscored, Valid
// scored), with the split's name and a stage's fraction of it reaching
// the stage.
func heldOut(s cronus.Snapshot) (cronus.Eval, string, func(cronus.StageView) float64) {
	if s.Test.Metrics == nil && s.Valid.Metrics != nil {
		return s.Valid, "valid", func(v cronus.StageView) float64 { return v.Valid }
	}
	return s.Test, "test", func(v cronus.StageView) float64 { return v.Test }
}
