package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/views"
)

// The panes, in the order of the keys 1-5.
const (
	paneObjective = iota
	paneReach
	paneCurve
	paneFeatures
	paneStages
	numPanes
)

var paneNames = [numPanes]string{"objective", "reach", "curve", "features", "stages"}

// Full layout from this terminal size on; below it one pane at a time.
const fullWidth, fullHeight = 120, 40

// footerLines are the params, status and help lines, always shown.
const footerLines = 3

// panelRows are the rows of the parameter panel (panelLines): its title
// and a line per parameter beyond the params line. It takes them from the
// panes, so with it open the full layout needs fullHeight + panelRows.
const panelRows = 1 + numParams - lineParams

type rect struct{ x, y, w, h int }

// layout is where everything goes on a width × height screen.
type layout struct {
	full  bool
	panes [numPanes]rect // in the full layout; else only panes[0] is used: the one pane
	tabs  rect           // the pane tabs (one-pane layout only)
	body  rect           // everything above the footer
}

// computeLayout places the panes; stages is the number of cascade stages,
// which sizes the stage table. taken rows of the body go to an error
// wrapped onto more than one line: they do not change which layout a
// screen has, only the panes' heights.
func computeLayout(width, height, taken, stages int) layout {
	var l layout
	bodyH := max(height-footerLines-taken, 0)
	l.body = rect{0, 0, width, bodyH}
	if width < fullWidth || height < fullHeight {
		l.tabs = rect{0, 0, width, min(1, bodyH)}
		for i := range l.panes {
			l.panes[i] = rect{0, l.tabs.h, width, max(bodyH-l.tabs.h, 0)}
		}
		return l
	}
	l.full = true
	tableH := min(max(stages+3, 6), bodyH/3)
	topH := (bodyH - tableH) / 2
	midH := bodyH - tableH - topH
	lw := (width - 1) / 2
	rw := width - lw - 1
	l.panes[paneObjective] = rect{0, 0, lw, topH}
	l.panes[paneReach] = rect{lw + 1, 0, rw, topH}
	l.panes[paneCurve] = rect{0, topH, lw, midH}
	l.panes[paneFeatures] = rect{lw + 1, topH, rw, midH}
	l.panes[paneStages] = rect{0, topH + midH, width, tableH}
	return l
}

// fit cuts or pads s to exactly w × h cells; a cut line ends in "…".
func fit(s string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		l = views.Truncate(l, w)
		lines[i] = l + strings.Repeat(" ", max(w-lipgloss.Width(l), 0))
	}
	return lines
}

// View draws the screen.
func (m Model) View() string {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	panel := m.shownPanel()
	// h is from here on what the body and the footer share.
	h -= len(panel)
	status := m.errorLines(w, max(h-footerLines, 0))
	if len(status) == 0 {
		status = []string{m.statusLine(w)}
	}
	// A long error takes its extra lines from the body, which is drawn in
	// the rows left to it (cut afterwards, it lost its last lines: the
	// stage table its ▸ row, a pane its legend, a list its "↓ 3 more").
	taken := len(status) - 1
	bh := max(h-footerLines-taken, 0)
	var body []string
	switch {
	case m.loadScr != nil:
		body = fit(m.loadView(w, bh), w, bh)
	case m.help:
		body = fit(scrollHelp(m.helpFor(w, m.helpRows()), m.helpTop, m.helpRows(), w), w, bh)
	case m.compare:
		body = m.compareView(w, bh)
	case m.phase == phaseLoading || m.phase == phaseFailed:
		sc := m.screen
		sc.HelpLine = ""
		body = fit(views.RenderDataScreen(sc, w, max(bh, 1), m.styles), w, bh)
	case m.phase != phaseReady:
		sc := m.screen
		sc.HelpLine = ""
		top := fit(views.RenderDataScreen(sc, w, max(bh-2, 1), m.styles), w, max(bh-2, 0))
		body = fit(strings.Join(append(top, m.trainLines(w)...), "\n"), w, bh)
	default:
		body = m.panesView(computeLayout(w, h, taken, len(m.snap.Stages)))
	}
	lines := append(body, fit(strings.Join(panel, "\n"), w, len(panel))...)
	lines = append(lines, fit(m.paramsLine(w), w, 1)...)
	lines = append(lines, fit(strings.Join(status, "\n"), w, len(status))...)
	lines = append(lines, fit(m.styles.Dim.Render(keyLine(m.footerKeys(), w)), w, 1)...)
	return strings.Join(fit(strings.Join(lines, "\n"), w, m.height), "\n")
}

// trainLines are the two lines under the data summary while the base
// ensemble trains.
func (m Model) trainLines(w int) []string {
	trees, leaves, cols, obj := m.par.trees, m.par.leaves, m.par.colSample, m.par.objective
	if m.w != nil {
		trees, leaves, cols, obj = m.w.trees, m.w.leaves, m.w.colSample, m.w.objective
	}
	sample := ""
	if cols != 1 {
		sample = ", column sample " + formatFloat(cols)
	}
	loss := "" // the paper's squared loss goes unsaid
	if obj != boost.Regression {
		loss = obj + " "
	}
	// The remark goes when it does not fit whole (at 80 columns it lost
	// its last letter).
	head := fmt.Sprintf("base ensemble: %d depth-%d %s%s of %d leaves%s", trees, depthFor(leaves), loss, treeNoun(trees), leaves, sample)
	if m.w != nil && m.w.files.Model != "" {
		// A model file's trees have the depth they were grown to.
		head = fmt.Sprintf("base ensemble: %d %s of up to %d leaves, depth %d", trees, treeNoun(trees), leaves, m.w.depth)
	}
	head = views.FirstFitting(w, head+" (shallow trees make better cascades)", head)
	if m.phase == phasePreparing {
		return []string{head, "building the cascade problem and the baselines …" + m.prepElapsed()}
	}
	p := m.trainProg
	frac := 0.0
	if p.Total > 0 {
		frac = min(p.Done/p.Total, 1)
	} else {
		// Before the training's first report (its data binned first:
		// about a second on 50,000 documents) the bar read "0/0".
		p.Total = float64(trees)
	}
	cells := max(min(w-40, 50), 5)
	n := int(frac * float64(cells))
	bar := m.styles.Bar.Render(strings.Repeat("█", n)) + strings.Repeat("░", cells-n)
	eta := "–"
	if p.ETA > 0 {
		eta = etaText(p.ETA)
	}
	return []string{head, fmt.Sprintf("training %s %3.0f%% %g/%g  ETA %s", bar, 100*frac, p.Done, p.Total, eta)}
}

// panesView draws the panes of the optimisation screen.
func (m Model) panesView(l layout) []string {
	if !l.full {
		r := l.panes[m.pane]
		out := fit(tabBar(m.pane, l.tabs.w, m.styles), l.tabs.w, l.tabs.h)
		return append(out, fit(m.renderPane(m.pane, r.w, r.h), r.w, r.h)...)
	}
	out := make([]string, l.body.h)
	for i := range out {
		out[i] = ""
	}
	// Panes are laid out in rows, left to right, so appending at x works.
	for i, r := range l.panes {
		for j, line := range fit(m.renderPane(i, r.w, r.h), r.w, r.h) {
			if y := r.y + j; y < len(out) {
				if r.x > 0 {
					line = " " + line
				}
				out[y] += line
			}
		}
	}
	return out
}

// paneShort are the panes' names in a tab bar too narrow for paneNames.
var paneShort = [numPanes]string{"obj", "reach", "curve", "feat", "stages"}

// tabBar is the tabs of the one-pane layout, pane sel selected, in the first
// of these forms that fits in w cells: the full names, padded to line up
// with the selected tab's brackets; the full names; the selected tab's full
// name and the others' short names; the short names; only the selected tab
// named (in full, then short) and the others by number; only numbers.
func tabBar(sel, w int, st views.Styles) string {
	full, short := &paneNames, &paneShort
	forms := []struct {
		name, others *[numPanes]string // nil: the number alone
		pad          bool
	}{
		{full, full, true}, {full, full, false}, {full, short, false}, {short, short, false},
		{full, nil, false}, {short, nil, false}, {nil, nil, false},
	}
	bars := make([]string, len(forms))
	for j, f := range forms {
		tabs := make([]string, numPanes)
		for i := range tabs {
			t, names := fmt.Sprint(i+1), f.others
			if i == sel {
				names = f.name
			}
			if names != nil {
				t += " " + names[i]
			}
			switch {
			case i == sel:
				t = st.Title.Render("[" + t + "]")
			case f.pad:
				t = st.Dim.Render(" " + t + " ")
			default:
				t = st.Dim.Render(t)
			}
			tabs[i] = t
		}
		bars[j] = strings.Join(tabs, " ")
	}
	return views.FirstFitting(w, bars...)
}

// renderPane draws pane i in w × h cells.
func (m Model) renderPane(i, w, h int) string {
	st := m.styles
	switch i {
	case paneObjective:
		return views.RenderObjective(m.snap, w, h, st)
	case paneReach:
		return views.RenderReach(m.snap, w, h, st)
	case paneCurve:
		var cur *baseline.Point
		if ev, _, split := m.reported(); ev.Metrics != nil {
			cur = &baseline.Point{Method: "cronus", Split: split, Lambda: m.runPar.Lambda, Cost: ev.Cost, Metrics: ev.Metrics}
		}
		return views.RenderCurve(m.points(), cur, curveSpec, w, h, st)
	case paneFeatures:
		var sizes []int
		if m.w != nil {
			sizes = m.w.groupSizes
		}
		return views.RenderFeatureGrid(m.snap, sizes, w, h, st)
	default:
		return views.RenderStageTable(m.snap, w, h, st)
	}
}

// points are the baselines, the λ sweep, the best cascade's first k
// stages and last-stage prefixes, and the finished runs.
func (m Model) points() []baseline.Point {
	if m.w == nil {
		return m.finished
	}
	return slices.Concat(m.w.points, m.sweepCurve(), m.cutCurve(), m.finished)
}

// paramItem is parameter i as "name value", highlighted when selected.
func (m Model) paramItem(i int) string {
	v := paramValue(m.par, i)
	if i == m.sel && m.editing {
		v = m.input + "▏"
	}
	it := paramNames[i] + " " + v
	if i == m.sel {
		return m.styles.Title.Render("[" + it + "]")
	}
	return " " + it + " "
}

// panelLines are the parameter panel in w cells: the parameters beyond
// the params line, one a line, with what each does in the longest of its
// forms that fits (the heading's keys go whole too).
func (m Model) panelLines(w int) []string {
	title := m.styles.Title.Render("parameters")
	lines := []string{views.FirstFitting(w, title+m.styles.Dim.Render("  (p hides · ↑↓ select · ←→ step · enter type)"), title)}
	for i := lineParams; i < numParams; i++ {
		it := m.paramItem(i)
		head := "  " + it + strings.Repeat(" ", max(20-lipgloss.Width(it), 1))
		what := paramForms(i, m.retrainRefused())
		forms := make([]string, len(what))
		for j, f := range what {
			forms[j] = head + m.styles.Dim.Render(f)
		}
		lines = append(lines, views.FirstFitting(w, forms...))
	}
	return lines
}

// paramsLine shows λ, K, ε and σ with the selected one highlighted, then
// what an edit waits for and the notes (base trees deeper than the
// workbench's, too many positives), in the longest of these forms that
// fits in w cells: all of it; the notes short; then, while typing,
// without the edit's note. A pending restart and the notes go last:
// "(pending restart)" ("(pending retrain)" for the base ensemble's
// shape, as the status line says), then "(pending)"; then whole parameters give way
// to the short forms, but the selected one; then the notes go, from the
// last one on; "(pending)" goes never (at 40 columns it was cut at the
// edge, and narrower it was left out, so that an edit looked applied;
// the notes went before any parameter did, so that a narrow line hid
// deep base trees or a threshold that leaves few negatives). A note goes
// whole: at 80 columns the positives note was cut to "raise the
// threshold …".
func (m Model) paramsLine(w int) string {
	items := make([]string, lineParams)
	for i := range lineParams {
		items[i] = m.paramItem(i)
	}
	line := "params " + strings.Join(items, " ")
	// The edit's note in its forms, longest first; "" where the line may
	// go without it.
	edits := []string{""}
	switch {
	case m.editing && m.sel == parRho:
		// enter with no value chooses ρ on validation (chooseRho); 1se by
		// the one-standard-error rule
		edits = []string{m.styles.Dim.Render("  enter apply (none: choose on validation; 1se: by the one-standard-error rule) · esc cancel"),
			m.styles.Dim.Render("  enter apply (none: choose on validation) · esc cancel"), m.styles.Dim.Render("  enter apply · esc cancel"), ""}
	case m.editing:
		edits = []string{m.styles.Dim.Render("  enter apply · esc cancel"), ""} // the key line says esc too
	case m.phase == phaseReady && m.par != m.runPar:
		wait := "restart" // of the optimisation; an edit of the base ensemble's shape retrains it
		if m.reshaped() {
			wait = "retrain"
		}
		edits = []string{m.styles.Dim.Render("  (pending " + wait + ")"), m.styles.Dim.Render(" (pending)")}
	}
	var long string
	var shorts []string // each note's short form
	note := func(l, s string) {
		long += "  " + m.styles.Error.Render(l)
		shorts = append(shorts, "  "+m.styles.Error.Render(s))
	}
	if m.w != nil {
		// Deep trees each pay for many features, so early stages cannot
		// be cheap; leaves 4 retrains at depth 2 (not under --absent
		// missing, which needs the model's own trees).
		if d, advice := cronus.DepthAdvice(m.w.depth); d != "" {
			if !m.w.files.AbsentMissing {
				advice, d = advice+" (p: leaves 4)", d+" (p)"
			}
			note(advice, d)
		}
	}
	if m.w != nil && m.w.train != nil && m.w.train.NumDocs() > 0 {
		// From the training labels and the targets in force, not from
		// the problem: the note stays while the ensemble retrains and the
		// problem is rebuilt (it went away until the new problem was
		// built).
		share := float64(m.w.positives) / float64(m.w.train.NumDocs())
		if cronus.TargetsAdvice(share, m.w.tg) != "" {
			p := fmt.Sprintf("%.0f%% positives", 100*share)
			note(p+": raise the threshold (p)", p+" (p)")
		}
	}
	fits := func(l string) bool { return lipgloss.Width(l) <= w }
	short := strings.Join(shorts, "")
	for _, edit := range edits {
		for _, f := range []string{line + edit + long, line + edit + short} {
			if fits(f) {
				return f
			}
		}
	}
	// Too narrow for the parameters whole beside the notes: as many as
	// fit beside the edit's shortest note and the short notes, then the
	// first notes only.
	for n := len(shorts); n >= 0; n-- {
		notes := strings.Join(shorts[:n], "")
		for _, edit := range edits {
			if fits(line + edit + notes) {
				return line + edit + notes
			}
		}
		for _, edit := range slices.Backward(edits) {
			if l := wholeItems(items, m.sel, w-lipgloss.Width(edit+notes)) + edit + notes; fits(l) {
				return l
			}
		}
	}
	return wholeItems(items, m.sel, w)
}

// wholeItems is as many whole items as fit in w cells, with the selected
// one (sel, if one of them): from the first or, when that leaves the
// selected out, from the nearest start that shows it, after "…"; a line
// that leaves items out at its end ends in "…". Cut at the edge, the
// params line read "ε 0.1…" for ε 0.15, and a σ selected was not shown.
func wholeItems(items []string, sel, w int) string {
	if sel >= len(items) {
		sel = 0 // a panel parameter: from the first
	}
	for start := 0; start <= sel; start++ {
		line := ""
		if start > 0 {
			line = "…"
		}
		for i := start; i < len(items); i++ {
			next := strings.TrimRight(line+items[i], " ")
			if i < len(items)-1 {
				next += " …" // room for the mark of the items left out
			}
			if lipgloss.Width(next) > w {
				if i > sel {
					return strings.TrimRight(line, " ") + " …"
				}
				break
			}
			line += items[i]
			if i < len(items)-1 {
				line += " "
			}
			if i == len(items)-1 {
				return strings.TrimRight(line, " ")
			}
		}
	}
	return items[sel] // cut at the edge: not even it fits
}

// minRunStatus is the fewest cells the run's status gets beside the notes
// and the message: with fewer, the status line leaves it out.
const minRunStatus = 20

// figureRunStatus is the cells the run's status needs for its phase and
// a first figure ("optimising c12 s10/100 · NDCG@10 0.537"): with fewer,
// a form of the notes and the message that leaves it that much is taken
// where there is one. At 133 to 145 columns a λ sweep's whole message
// left it 20 to 22 cells, minRunStatus and more, which its phase alone
// ("optimising c2 s10/10") filled for the whole sweep.
const figureRunStatus = 38

// roomyRunStatus is the cells the run's status needs for its figures
// ("init · NDCG@10 0.500 · cost 1715 (64.0%)"), which a message with a
// short form that suffices (statusShortSuffices) makes room for.
const roomyRunStatus = 45

// statusLine is the notes and the last message, then the run's status.
// Where the longest form of the notes and the message that fits leaves
// the run's status too little room, a form that keeps the message whole
// and leaves it room is taken (statusBeside): at 120 columns the λ
// sweep's note with its stage and ETA, beside its start message, left the
// run's figures out for the whole sweep (minutes on 200,000 documents),
// where "λ sweep 2/8" had left them room.
func (m Model) statusLine(w int) string {
	msg := views.FirstFitting(w, m.statusForms(w)...)
	if m.phase != phaseReady {
		return msg
	}
	if msg == "" {
		return m.runStatus(w)
	}
	rest := w - lipgloss.Width(msg) - 3
	// A message whose short form says all it needs to gives way to it
	// until the figures have room for NDCG@10 and the cost, not just the
	// phase: after an ε edit, from 110 to 119 columns the whole message
	// left the run's status "initialising" alone for the whole run. Not
	// beside the notes of work under way (a λ sweep's keeps its ETA).
	if notes, _, _ := m.notes(); m.statusShortSuffices && etaNote(notes) < 0 && rest < roomyRunStatus {
		if beside := m.statusBeside(w-roomyRunStatus-3, false); beside != "" {
			msg, rest = beside, w-lipgloss.Width(beside)-3
		}
	}
	if rest < figureRunStatus {
		// Both short where nothing else leaves the figures room: from 100
		// to 112 columns choosing ρ left the run's status "done c8
		// s10/10" alone. Where even that leaves no room for a figure (80
		// columns) the notes keep their stage, below.
		if beside := m.statusBeside(w-figureRunStatus-3, true); beside != "" {
			msg, rest = beside, w-lipgloss.Width(beside)-3
		}
	}
	if rest < minRunStatus {
		beside := m.statusBeside(w-minRunStatus-3, false)
		if beside == "" {
			return msg
		}
		msg, rest = beside, w-lipgloss.Width(beside)-3
	}
	return msg + " │ " + m.runStatus(rest)
}

// statusBeside is the longest of the forms of the notes and the message
// (statusForms) that fits in w cells and keeps the message whole (a path
// in it is not shortened for the run's status, a save keeps its
// figures), "" if none does: all of it; with the message's short form
// where that says all it needs to (statusShortSuffices), then so without
// the ETA (kept before the whole message: with the whole message and
// without the ETA as the sweep's note said "scoring", the line changed
// form at every λ); without the ETA; with the notes short; and, with
// bothShort, last, the notes and the message both short (with the ETA,
// then without). Without bothShort never both short: at 80 columns the
// sweep's note with its stage stays, beside the short message, rather
// than "λ sweep 2/8" beside a few of the run's figures; statusLine asks
// for both short where that alone leaves the figures their phase and
// NDCG@10 (figureRunStatus).
func (m Model) statusBeside(w int, bothShort bool) string {
	notes, shortNotes, eta := m.notes()
	n := len(notes)
	forms := []string{m.statusForm(notes, n, eta, fullMsg, math.MaxInt)}
	if m.statusShortSuffices {
		forms = append(forms, m.statusForm(notes, n, eta, shortMsg, w), m.statusForm(notes, n, "", shortMsg, w))
	}
	forms = append(forms, m.statusForm(notes, n, "", fullMsg, math.MaxInt), m.statusForm(shortNotes, n, "", fullMsg, math.MaxInt))
	if bothShort && m.statusShortSuffices {
		forms = append(forms, m.statusForm(shortNotes, n, eta, shortMsg, w), m.statusForm(shortNotes, n, "", shortMsg, w))
	}
	for _, f := range forms {
		if f != "" && lipgloss.Width(f) <= w {
			return f
		}
	}
	return ""
}

// runStatus is the run's figures in w cells (views.RenderStatus). While
// the run initialises, how far Algorithm 2 has come
// (views.RenderInitStatus). From a restart to the new run's first event,
// only "restarting": the figures would be the cancelled run's
// ("restarting c4 s5/10 · obj 5616", which stayed for as long as the new
// run was held paused). From an edit of the base ensemble's shape to its
// retrain, only "pending retrain": the figures are of the ensemble the
// edit replaces ("trees = 70 │ … cost/doc 331.4 = 58.8% of full 564.0"
// gave the cost of 20 trees beside 70).
func (m Model) runStatus(w int) string {
	switch {
	case m.initProg.Phase != "" && !m.reshaped():
		return views.RenderInitStatus(m.initProg, m.initProg.Phase == comparePhase, w, m.styles)
	case m.snap.Phase == phaseRestarting:
		return views.Truncate(m.styles.Title.Render(phaseRestarting), w)
	case m.cutsProg.Phase != "":
		return cutsStatus(m.cutsProg, w, m.styles)
	case m.reshaped():
		return views.Truncate(m.styles.Title.Render("pending retrain"), w)
	}
	return views.RenderStatus(m.snap, m.w.full, w, m.styles)
}

// statusForms are the notes and the message, " · " between them, in the
// forms the status line picks from for w cells, longest first: all of it;
// without the training's or the sweep's ETA; the same two with the message's short form
// (statusShort), if it has one; the work's note short with the message,
// then with its short form (beside "training the base ensemble: 5 of 300
// trees" a save's short form did not fit at 80 columns, nor an error);
// without the message, then so with the notes short; then without the
// notes from the last on, each whole or short (the sweep's note with its
// stage is too wide for 30 columns, "λ sweep 2/8" is not). A part goes
// whole, never cut: at 80 columns a paused training read "… 1512 of 3000
// trees · ETA 400m…". A message that names a path has the path shortened
// from the left to whole names where the form is too wide (messageIn). A
// message alone, too wide for the line, is the last form (cut, with "…").
func (m Model) statusForms(w int) []string {
	notes, shortNotes, eta := m.notes()
	line := func(notes []string, n int, eta string, msgForm int) string {
		return m.statusForm(notes, n, eta, msgForm, w)
	}
	n := len(notes)
	var forms []string
	for _, f := range []string{line(notes, n, eta, fullMsg), line(notes, n, "", fullMsg), line(notes, n, eta, shortMsg),
		line(notes, n, "", shortMsg), line(shortNotes, n, "", fullMsg), line(shortNotes, n, "", shortMsg),
		line(notes, n, eta, noMsg), line(notes, n, "", noMsg), line(shortNotes, n, "", noMsg),
		line(notes, n-1, "", noMsg), line(shortNotes, n-1, "", noMsg), line(notes, 1, "", noMsg)} {
		if f != "" {
			forms = append(forms, f)
		}
	}
	if len(forms) == 0 {
		return []string{""}
	}
	return forms
}

// The forms of the status message in a status line (statusForm): none,
// the message (its path shortened to fit), its short form (statusShort).
const noMsg, fullMsg, shortMsg = 0, 1, 2

// statusForm is the first n of notes, " · " between them, eta after the
// last that says something, then the message in msgForm for a line of w
// cells; "" for a short form the message does not have.
func (m Model) statusForm(notes []string, n int, eta string, msgForm, w int) string {
	var parts []string
	last := etaNote(notes[:n])
	for i, note := range notes[:n] {
		if note == "" {
			continue
		}
		if i == last {
			note += eta
		}
		parts = append(parts, m.styles.Title.Render(note))
	}
	room := w
	if len(parts) > 0 {
		room -= lipgloss.Width(strings.Join(parts, " · ")) + len(" · ")
	}
	msg := ""
	switch msgForm {
	case fullMsg:
		msg = m.messageIn(room)
	case shortMsg:
		if m.statusShort == "" || m.message() != m.status {
			return ""
		}
		msg = m.styleMessage(m.statusShort)
	}
	if msg != "" {
		parts = append(parts, msg)
	}
	return strings.Join(parts, " · ")
}

// messageIn is the status message for w cells, styled: when it names a
// path with a directory (statusPath) and is wider than w, the path is
// shortened from the left to whole names (views.ShortenPath) to fit, or to
// "…/" and its file name when even that leaves too little room, so that a
// cut at the line's end takes what follows the path, not its file name.
func (m Model) messageIn(w int) string {
	msg := m.message()
	p := m.statusPath
	if i := strings.LastIndex(p, "/"); i > 0 && msg == m.status && lipgloss.Width(msg) > w {
		room := max(w-(lipgloss.Width(msg)-lipgloss.Width(p)), 1+lipgloss.Width(p[i:]))
		msg = strings.Replace(msg, p, views.ShortenPath(p, room), 1)
	}
	return m.styleMessage(msg)
}

// styleMessage styles msg, a form of the status message: red for an error.
func (m Model) styleMessage(msg string) string {
	if msg != "" && m.errLine {
		msg = m.styles.Error.Render(msg)
	}
	return msg
}

// maxErrorLines is the most lines an error too long for the status line
// is wrapped on.
const maxErrorLines = 3

// errorLines is the status message, when it is an error too wide for w
// cells, wrapped on up to maxErrorLines lines (spare + 1 at most) instead
// of the status line; the run's status is left out. Nil when the status
// line holds the message. A load error names a file, a line and what is
// wrong, and its end was cut off: at 80 columns, "…/bad.txt:2: feature 2: va".
func (m Model) errorLines(w, spare int) []string {
	if !m.errLine || spare < 1 {
		return nil
	}
	notes, short, eta := m.notes()
	with := func(notes []string, eta string) string {
		msg := m.status
		last := etaNote(notes)
		for i := len(notes) - 1; i >= 0; i-- {
			if note := notes[i]; note != "" {
				if i == last {
					note += eta
				}
				msg = note + " · " + msg
			}
		}
		return msg
	}
	// The status line holds it whole beside the notes in some form
	// (statusForms): without the ETA, or with the work's note short.
	if lipgloss.Width(with(notes, "")) <= w || lipgloss.Width(with(short, "")) <= w {
		return nil
	}
	msg := with(notes, eta)
	lines := views.WrapWords(views.ShortenPaths(msg, w), w)
	if n := min(maxErrorLines, spare+1); len(lines) > n {
		// The last line shown ends in "…" (fit cuts it).
		lines = append(lines[:n-1:n-1], strings.Join(lines[n-1:], " "))
	}
	for i, l := range lines {
		lines[i] = m.styles.Error.Render(l)
	}
	return lines
}

// notes are what the status line says before the message, in its order:
// the pause, the λ sweep, the choice of ρ, the work under way before the
// optimisation; eta
// (" · ETA 3s", or empty) belongs to the last that says something
// (etaNote), and is the first thing a narrow line leaves out. short are
// the same with the sweep's, the choice's and the work's notes in fewer
// words (sweepNote, rhoNote, flowNote).
func (m Model) notes() (notes, short []string, eta string) {
	flow, flowShort, eta := m.flowNote()
	sweep, sweepShort, sweepETA := m.sweepNote()
	if flow == "" {
		// The sweep runs once the problem is built, never beside the
		// training or the building.
		eta = sweepETA
	}
	rho, rhoShort, rhoETA := m.rhoNote()
	if rho != "" {
		eta = rhoETA // the last note of the two that run once the problem is built
	}
	paused := m.pausedNote()
	return []string{paused, sweep, rho, flow}, []string{paused, sweepShort, rhoShort, flowShort}, eta
}

// etaNote is the index of the note the ETA goes with: the last of notes
// that says something (-1: none).
func etaNote(notes []string) int {
	for i := len(notes) - 1; i >= 0; i-- {
		if notes[i] != "" {
			return i
		}
	}
	return -1
}

// flowNote says what goes on while the base ensemble trains or the
// problem is built: only the panes showed it, and not under the help or
// the compare view; short says it in fewer words, for beside a message.
// eta is the training's time left (" · ETA 3s"), when known.
func (m Model) flowNote() (note, short, eta string) {
	switch m.phase {
	case phaseTraining:
		p := m.trainProg
		if p.Total == 0 {
			return "training the base ensemble …", "training …", ""
		}
		if p.ETA > 0 {
			eta = " · ETA " + etaText(p.ETA)
		}
		return fmt.Sprintf("training the base ensemble: %g of %g trees", p.Done, p.Total), fmt.Sprintf("training: %g of %g trees", p.Done, p.Total), eta
	case phasePreparing:
		return "building the cascade problem and the baselines …" + m.prepElapsed(), "building the problem …" + m.prepElapsed(), ""
	}
	return "", "", ""
}

// pausedNote is "paused" while a paused run is under way; with none, the
// pause holds the next run.
func (m Model) pausedNote() string {
	switch {
	case !m.paused:
		return ""
	case m.running:
		return "paused"
	}
	return "next run starts paused"
}

// etaText is an estimated time left, to a tenth of a second.
func etaText(d time.Duration) string { return d.Round(100 * time.Millisecond).String() }

// The help's columns: "  " + the key column + " " + the description, which
// gets at least helpMinWhat cells; below 45 columns the key column narrows
// (to helpMinKey at least) and a key wider than it gets a line of its own,
// its description under the column.
const helpKeyW, helpMinKey, helpMinWhat = 22, 6, 20

// helpView lists every key, each description wrapped to width w under its
// own column.
func (m Model) helpView(w int) string {
	kw := min(helpKeyW, max(w-3-helpMinWhat, helpMinKey))
	whatW := max(w-3-kw, 1)
	indent := strings.Repeat(" ", kw+3)
	lines := []string{m.styles.Title.Render("keys") + m.styles.Dim.Render("  (? or esc closes)"), ""}
	for _, k := range keyHelp {
		what := views.WrapWords(k.what, whatW)
		if lipgloss.Width(k.keys) > kw {
			for _, l := range views.WrapWords(k.keys, max(w-2, 1)) {
				lines = append(lines, "  "+l)
			}
			for _, l := range what {
				lines = append(lines, indent+l)
			}
			continue
		}
		for i, l := range what {
			key := ""
			if i == 0 {
				key = k.keys
			}
			lines = append(lines, "  "+key+strings.Repeat(" ", kw-lipgloss.Width(key))+" "+l)
		}
	}
	// The load's warnings: the status line shows the first, and the data
	// screen, which lists them all, is gone once the session runs.
	if ws := m.screen.Warnings; len(ws) > 0 {
		lines = append(lines, "", m.styles.Title.Render("warnings of the last load"), "")
		for _, warning := range ws {
			for i, l := range views.WrapWords(warning, max(w-4, 1)) {
				lead := "    "
				if i == 0 {
					lead = "  • "
				}
				lines = append(lines, lead+l)
			}
		}
	}
	// The status line's error, whole: past maxErrorLines lines the status
	// line cuts it with "…", and shortens its paths, and it could not be
	// read whole anywhere. Last, as the warnings, so that the keys above
	// stay where they are when it goes. The load's first warning, which
	// the status line shows in red too, is listed above already.
	ws := m.screen.Warnings
	if m.errLine && m.status != "" && (len(ws) == 0 || !strings.HasPrefix(m.status, warningStatus(ws))) {
		lines = append(lines, "", m.styles.Title.Render("the error on the status line"), "")
		for _, l := range views.WrapWords(m.status, max(w-2, 1)) {
			lines = append(lines, "  "+m.styles.Error.Render(l))
		}
	}
	return strings.Join(lines, "\n")
}

// helpFor is the help for w cells in h rows: on a screen too short to
// show a key under the help's title, the blank line after the title goes,
// then the title (the key line says how to close the help). At 20×6 the
// help showed its title and the scroll hint, no key.
func (m Model) helpFor(w, h int) string {
	help := m.helpView(w)
	lines := strings.Split(help, "\n")
	switch {
	case len(lines) <= h || h >= 4:
		return help
	case h == 3:
		return strings.Join(slices.Delete(lines, 1, 2), "\n")
	}
	return strings.Join(lines[2:], "\n")
}

// scrollHelp shows the help's lines from top on (clamped so that the last
// screenful is the furthest it goes) in h rows of w cells; when they do not
// all fit, the last row says how to see the rest, in shorter forms where
// the long one does not fit (it was cut at 30 columns, "lines 10-12 of 96
// · ↑↓ scro…", and below 22 the shorter one lost the arrows): "10-12 of
// 96 · ↑↓ scroll", "10-12/96 ↑↓", "↑↓". In one row, the line at top alone.
func scrollHelp(help string, top, h, w int) string {
	lines := strings.Split(help, "\n")
	switch {
	case len(lines) <= h || h < 1:
		return help
	case h == 1:
		return lines[min(top, len(lines)-1)] // no row for the hint: the key line says ↑↓ scroll
	}
	rows := h - 1
	top = min(top, helpMaxTop(len(lines), h))
	shown := fmt.Sprint(top + 1)
	if rows > 1 {
		shown += fmt.Sprintf("-%d", top+rows)
	}
	more := views.FirstFitting(w,
		fmt.Sprintf("  %s of %d · ↑↓ scroll", data.LineRange(top+1, top+rows), len(lines)),
		fmt.Sprintf("  %s of %d · ↑↓ scroll", shown, len(lines)),
		fmt.Sprintf("%s/%d ↑↓", shown, len(lines)),
		"↑↓",
	)
	return strings.Join(append(lines[top:top+rows:top+rows], more), "\n")
}

// helpMaxTop is the furthest scrollHelp goes: n help lines in h rows.
func helpMaxTop(n, h int) int {
	switch {
	case n <= h || h < 1:
		return 0
	case h == 1:
		return n - 1
	}
	return n - (h - 1)
}

// helpMaxTop is the furthest the help scrolls on the current screen.
func (m Model) helpMaxTop() int {
	return helpMaxTop(strings.Count(m.helpFor(m.width, m.helpRows()), "\n")+1, m.helpRows())
}

// shownPanel is the parameter panel's lines when it is on and fits: it
// never takes the whole body.
func (m Model) shownPanel() []string {
	if !m.panel {
		return nil
	}
	if p := m.panelLines(m.width); len(p) <= m.height-footerLines-1 {
		return p
	}
	return nil
}

// helpRows is the number of rows the help overlay gets (as View lays it
// out): the body's, less those an error wrapped onto more than one line
// takes from it.
func (m Model) helpRows() int {
	rows := max(m.height-len(m.shownPanel())-footerLines, 0)
	return max(rows-max(len(m.errorLines(m.width, rows))-1, 0), 0)
}
