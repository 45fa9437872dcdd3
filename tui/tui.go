// Package tui is the workbench: the one Bubble Tea model that routes keys,
// runs long work through the engine's event streams and draws the views.
//
// The flow: load the data (a command) → train the base ensemble (a job) →
// build the cascade problem and the baselines (a command) → optimise the
// cascade (a job), restarted after every parameter edit. Every job and its
// messages carry a generation number; messages of an older generation are
// dropped, so a cancelled run can never draw over the current one.
package tui

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/tree"
	tea "github.com/cronus-ltr/cronus/internal/tea"
	"github.com/cronus-ltr/cronus/views"
)

// Config names the files the workbench opens with.
type Config struct {
	Train, Valid, Test, Costs string
	Model                     string // start from this ensemble instead of training one
	ModelTrees                int    // with Model: its first k trees only (cronus tui --trees k); 0 = all
	AbsentMissing             bool   // features a line leaves out read as missing (NaN), not 0
	// Objective is the loss of the base ensemble the workbench trains
	// (cronus tui --objective): boost.Regression (also when empty) or
	// boost.LambdaRank, the panel's loss row at the start. Not with Model,
	// whose trees bring their own.
	Objective string
	// ModelRead is Model's file already read (cronus tui reads it to hold
	// it to --trees before the workbench opens): the first load takes it
	// instead of reading the file again; a reload reads the file. nil:
	// read it.
	ModelRead *tree.Model

	trees int // base ensemble size; 0 = baseTrees (tests use fewer)
}

// phase is where the workbench stands.
type phase int

const (
	phaseLoading phase = iota
	phaseTraining
	phasePreparing
	phaseReady // the problem is built; optimisation runs or has run
	phaseFailed
)

// Model is the root model of the workbench.
type Model struct {
	cfg     Config
	ctx     context.Context
	cancel  context.CancelFunc // ends all background work (quit)
	base    context.Context    // parent of ctx; ctx is renewed on each load
	loadGen int                // background loads (reload with a session); older ones are dropped
	// loadCancel ends the background load under way, which a newer one
	// replaces: it read on to the end, its data then dropped (0.4 GB and
	// a core's seconds for the 200,000-document synthetic set), and one
	// of a FIFO nobody writes to waited for ever.
	loadCancel context.CancelFunc
	// loadProg is how far the load under way that the loading screen
	// shows has read (the first load, or a restart's), for its tick.
	loadProg *loadProgress
	// notLoaded are the files of the last background load, when it
	// failed: the load screen opens on them, for the bad one to be
	// corrected (it opened on the session's, and the others had to be
	// picked again); nil once a load succeeds.
	notLoaded *[numFields]string
	// badField is the load screen's field of the file the last load
	// failed on, which o opens on (it opened on the train file's);
	// fieldTrain after a load that worked.
	badField   int
	flowCancel context.CancelFunc // ends the work of the current load only
	loadScr    *loadScreen        // the load screen, when shown
	// writes guards the files being written (saves, exports): Run waits
	// for those started before it returns. pendingWrites counts the ones
	// asked for and not yet reported; a quit while there are some waits
	// for them (quitting), so that s then q still saves.
	writes        *writeGuard
	pendingWrites int
	quitting      bool
	// quitStopped is what the quit that waits for a write cancelled (the
	// λ sweep, the choice of ρ), for the status line to say should the
	// write fail and the workbench stay open: they were gone unsaid.
	quitStopped string
	// quitHeld: what came while a quit waited for a write and would have
	// started work (heldByQuit): an edit's restart (debounceMsg), the end
	// of a training, of a cascade problem's build or of a load, in the
	// order they came. A write that fails, keeping the workbench open,
	// takes them then (applyHeld).
	quitHeld  []tea.Msg
	exporting bool // an export (e) is being written: another waits for it
	// prepStart is when the cascade problem and the baselines began to be
	// built (phasePreparing), for the seconds the screen counts: seconds
	// on large data, with nothing else changing on screen. ticking says a
	// tick is due (Init's, or one started here).
	prepStart     time.Time
	ticking       bool
	width, height int
	styles        views.Styles
	screen        views.DataScreen
	phase         phase

	gen         int // generation of the current job; older messages are dropped
	trainProg   job.Progress
	trainEvents <-chan job.Event[boost.Snapshot, *boost.Result]
	w           *workData // set once prepared; read-only afterwards

	par    settings // as edited
	runPar settings // of the current optimisation run
	run    *optRun
	// cancelled is the run the last restart cancelled, until the run that
	// restart starts has started (m.run is nil till then): a second
	// restart before then starts from its best too, not from m.best.
	cancelled *optRun
	running   bool
	// resume says a targets edit stopped a run under way: when the
	// problem for the new targets is refused, that run starts again
	// (warm); a finished run is left finished, not run again unasked.
	resume bool
	snap   cronus.Snapshot
	// initProg is how far the current run's Algorithm 2 has come (its
	// initPhase events), until its first step's snapshot: the status line
	// said "starting · Algorithm 2" for 4 s on 200,000 documents. The
	// panes keep showing m.snap meanwhile (after a restart, the cancelled
	// run's cascade).
	initProg job.Progress
	// cutsProg is how far a finished run's scoring of its best cascade's
	// first k stages (cutsPhase) and last-stage prefixes (prefixPhase) has
	// come, until the run's final event.
	cutsProg job.Progress
	best     *cronus.State    // best cascade on validation of the last finished run
	bestOwn  *cronus.State    // that run's own best, before any refit (Outcome.Own): a restart goes on from it
	bestRun  runInfo          // the run m.best comes from
	finished []baseline.Point // the best test point of every finished run on this ensemble
	bestCuts []baseline.Point // m.best's first k stages and last-stage prefixes on valid and test (optRun.cuts), as plotted and exported

	runs     int                 // optimisation runs started, numbering them for the user
	snapRun  runInfo             // the run m.snap comes from
	kept     []views.KeptCascade // oldest first, at most maxKept
	keptSave []savable           // the cascades of kept, where the snapshot had them
	keptN    int                 // cascades kept so far, numbering them
	compare  bool                // the compare view is shown

	sweep     *sweepRun        // the running λ sweep, if any
	sweepGen  int              // generation of the sweep; older events are dropped
	sweepPts  []baseline.Point // of the last sweep (valid and test), until the data or ensemble changes
	sweepDone int              // values of λ done by the running sweep
	// How far the running sweep's next λ has come: its stages made
	// (of sweep.k) and the sweep's time left (0: unknown).
	sweepStages float64
	sweepETA    time.Duration

	rho     *rhoRun // the running choice of ρ on validation, if any
	rhoGen  int     // generation of the choice; older events are dropped
	rhoDone int     // initialisations done by the running choice
	// How far its next initialisation has come: its stages made (of
	// rho.k) and the choice's time left (0: unknown).
	rhoStages float64
	rhoETA    time.Duration
	// The end of the choice, come while an edit waited for its tick:
	// the edit's tick cancels the choice or, the edit stepped back,
	// takes this end (releaseRho), rather than ρ set over the edit.
	rhoHeld *rhoMsg

	pane    int  // shown below the full-layout size
	sel     int  // selected parameter
	panel   bool // the parameter panel is shown
	editing bool // typing a value into sel
	input   string
	edits   int // edit counter: only the debounce tick of the latest edit fires
	// stepped are the parameters (1<<i) edited since the last edit's tick
	// or restart, for what a tick that finds them all as they were says
	// (undone).
	stepped uint32
	help    bool
	helpTop int   // first help line shown, when the help is taller than the screen
	gate    *gate // holds the optimisation between steps while paused
	paused  bool
	status  string
	errLine bool // status is an error
	// statusPath is the path status names, if any: the status line
	// shortens it from the left to whole names when status is too wide
	// (setPathStatus).
	statusPath string
	// statusShort is a shorter form of status, for a line too narrow for
	// it beside the notes (a save's time and file without its figures):
	// paused at 80 columns, a save went by without a word.
	statusShort string
	// statusShortSuffices: statusShort says all the message needs to
	// beside the notes (the λ sweep's start message, whose note says how
	// far it is), so the status line takes it to give the run's figures
	// room (statusBeside); a save's short form leaves out its figures.
	statusShortSuffices bool
	// pauseSaid is space's hint when it is the status, as said then; the
	// line shows what is true now (pauseHint).
	pauseSaid string
	// runeSaid: status is the refusal of a character typed into a value
	// ("',': a value takes digits …"); once the value holds none (backspace)
	// or the typing ends (esc), it goes: it stayed, red, after esc.
	runeSaid bool
	// stepsSaid: status is n's count of the steps a run not yet started
	// takes once it has ("n: 2 steps, once the run has started"). Its
	// first event, or a restart or stop that drops the steps, takes it off.
	stepsSaid bool
	// noRunSaid: status is n's "no run to step", said while none ran;
	// the next run, held by the pause, takes it off for space's hint: it
	// stayed, red, over the run it denied.
	noRunSaid bool
	// waitSaid: status is a key's refusal that waits for something to
	// come ("nothing to keep yet: wait for …"); once it has, the message
	// goes (waitOver), or it stayed beside the figures it waited for.
	waitSaid waitKind
	// retrainWarnings are the load's warnings as they read once the
	// workbench retrains the model file's ensemble (loadedMsg): a warning
	// that the model does not use features 45-46 of the data stayed after
	// the retrain, whose trees may split on them.
	retrainWarnings []string
	// leafWarning is the warning of the base ensemble's training when its
	// trees all came out single leaves (baseLeafWarning), first in
	// screen.Warnings while that ensemble is in use; a retrain or a load
	// takes it off. The workbench built cascades of such an ensemble
	// without a word, where cronus train warned.
	leafWarning string
}

// waitKind is what a refused key waits for (Model.waitSaid).
type waitKind int

const (
	waitNone      waitKind = iota
	waitProblem            // r, w: the cascade problem and the baselines
	waitBaselines          // e: the baselines
	waitSave               // s: a cascade of the ensemble in use to save
	waitKeep               // k: one to keep
)

// sayWait sets status to what's refusal, waiting for until (notYet), and
// notes what it waits for; after a failure notYet says nothing waits.
func (m *Model) sayWait(what, until string, w waitKind) {
	m.setStatus(m.notYet(what, until), true)
	if m.phase != phaseFailed {
		m.waitSaid = w
	}
}

// waitOver reports whether what the status's refusal waits for has come.
func (m Model) waitOver() bool {
	switch m.waitSaid {
	case waitProblem:
		return m.phase == phaseReady
	case waitBaselines:
		return m.w != nil && m.w.points != nil
	case waitSave:
		_, ok := m.savable()
		return ok
	case waitKeep:
		_, best, _ := m.reported()
		return best.Metrics != nil && m.ofEnsemble(m.snapRun)
	}
	return false
}

// defaultParams are the optimiser's defaults, trained for the workbench's
// exit rule (top-m).
func defaultParams() cronus.Params {
	p := cronus.DefaultParams()
	p.TopM = topM
	return p
}

// New returns the workbench model for cfg; cancelling ctx (or quitting)
// cancels its background work.
func New(ctx context.Context, cfg Config, styles views.Styles) Model {
	base, cancel := context.WithCancel(ctx)
	ctx, flowCancel := context.WithCancel(base)
	if cfg.trees == 0 {
		cfg.trees = baseTrees
	}
	return Model{cfg: cfg, ctx: ctx, cancel: cancel, base: base, flowCancel: flowCancel, width: 80, height: 24, styles: styles,
		par:  settings{Params: defaultParams(), tg: cronus.DefaultTargets()}.withDefaultShape(cfg),
		gate: newGate(), writes: newWriteGuard(), ticking: true, // Init's tick
		loadProg: &loadProgress{},
		screen: views.DataScreen{
			Loading: cfg.Train,
			Costs:   cfg.Costs,
		}}
}

// freeMemory is debug.FreeOSMemory; a test counts its calls.
var freeMemory = debug.FreeOSMemory

// releaseMemory returns the garbage of a finished run to the system: a
// run allocates as it steps (about 80 MB a second on 400,000 documents ×
// 300 trees), so the heap ends at twice its live size, and an idle
// workbench allocates too little for the collector to run again. Bubble
// Tea runs it outside the event loop; a collection of the cascade
// problem, flat float slices, takes milliseconds.
func releaseMemory() tea.Msg {
	freeMemory()
	return nil
}

type tickMsg struct{}

func tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

// Init starts loading the data.
func (m Model) Init() tea.Cmd { return tea.Batch(m.load, tick()) }

// Update handles one message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	if nm, ok := next.(Model); ok && nm.waitSaid != waitNone && nm.waitOver() {
		nm.setStatus("", false) // what the refusal waited for has come
		next = nm
	}
	return next, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.quitting && m.heldByQuit(msg) {
		// The quit holds it: the optimisation (and a retrain, a rebuild,
		// a load's new session) would start while the write finished.
		m.quitHeld = append(slices.Clip(m.quitHeld), msg)
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			// Keys typed faster than the UI reads them (key repeat, a busy
			// screen) arrive as one message: each is a key of its own.
			var cmds []tea.Cmd
			var next tea.Model = m
			for _, r := range msg.Runes {
				var cmd tea.Cmd
				open := next.(Model).loadScr != nil
				next, cmd = next.(Model).key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
				cmds = append(cmds, cmd)
				if next.(Model).base.Err() != nil {
					break // quit: the keys after q are not for this session
				}
				if open && next.(Model).loadScr == nil {
					// The load screen closed (l loads): the keys after
					// were typed for it. Held down, l loaded and then
					// stepped λ on the session it was replacing.
					break
				}
			}
			return next, tea.Batch(cmds...)
		}
		return m.key(msg)
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		// Scrolled on a smaller screen, the help would stay at its end
		// for as many ↑ as the smaller screen had lines more to scroll.
		m.helpTop = min(m.helpTop, m.helpMaxTop())
		if m.sel >= m.shownParams() {
			if m.editing {
				// The value typed was the panel's parameter's: enter set λ
				// to it once the mark had gone to λ.
				m.editing = false
				m.setStatus(paramNames[m.sel]+": not set: the terminal is now too short for the parameter panel", true)
			}
			m.sel = 0 // the panel went off screen: its mark goes to λ, which → then steps
		}
		if strings.HasPrefix(m.status, panelRefused) {
			// It gave the rows of the terminal p was pressed on.
			m.sayPanelRefused()
		}
	case tickMsg:
		if m.phase == phaseLoading || m.phase == phasePreparing {
			m.screen.Frame++
			if m.phase == phaseLoading && m.screen.Loading != "" {
				if name, how := m.loadProg.get(); name != "" {
					m.screen.Loading, m.screen.Progress = name, how
				}
			}
			return m, tick()
		}
		m.ticking = false
	case pendingLoadMsg:
		return m.loaded(msg)
	case reloadedMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		if msg.err == nil {
			// As after a load over a session (loaded): resetFlow said
			// "loading", which the base ensemble's training would keep.
			m.setPathStatus("loaded "+m.cfg.Train, m.cfg.Train)
		}
		return m.Update(msg.loadedMsg)
	case loadedMsg:
		m.cfg.ModelRead = nil // the first load has taken it: the session keeps its own trees
		m.screen.Loading, m.screen.Progress = "", ""
		m.screen.Splits, m.screen.Warnings = msg.splits, printable(msg.warnings)
		m.leafWarning = "" // of the old data's ensemble
		m.retrainWarnings = printable(msg.retrainWarnings)
		m.badField = msg.bad
		if msg.err != nil {
			m.screen.Err = msg.err.Error()
			m.phase = phaseFailed
			m.setStatus(msg.err.Error(), true)
			return m, nil
		}
		m.w = &workData{train: msg.train, valid: msg.valid, test: msg.test, costs: msg.costs, tg: m.par.tg, files: m.cfg, source: msg.source, modelParams: msg.modelParams,
			positives: cronus.CountPositives(msg.train.Labels, m.par.tg)}
		if len(msg.warnings) > 0 {
			m.setStatus(warningStatus(msg.warnings), true)
		}
		if msg.e != nil {
			// A model file brings its own trees: they replace a shape
			// edited for a training while no session ran (after a
			// failed load, or during the first), as a load over a
			// session replaces the session's; the user is told which
			// edits went (they went silently).
			edited := m.par
			m.par = m.par.withShape(len(msg.e.Trees), maxLeaves(msg.e), 1, msg.e.Objective)
			if note := m.shapeReplaced(edited); note != "" {
				if m.errLine {
					note += "; " + m.status // the data's warning stays said
				}
				m.setStatus(note, true)
			}
			// As cronus cascade: no more stages than trees; said, as a
			// lowered K stays lowered for the next ensemble.
			if k := m.par.trees; m.par.K > k {
				note := fmt.Sprintf("K %d → %d: a cascade has no more stages than the model's %d %s", m.par.K, k, k, treeNoun(k))
				if mk := m.cfg.ModelTrees; mk > 0 {
					// Of a larger model: as cascade --trees says it.
					note = fmt.Sprintf("K %d → %d: a cascade has no more stages than its trees (--trees %d takes %d %s of the model %s)", m.par.K, k, mk, k, treeNoun(k), m.cfg.Model)
				}
				if m.errLine {
					note = m.status + "; " + note
				}
				m.par.K = k
				m.setStatus(note, true)
			}
			// m.w says its shape too, for the base ensemble's line while
			// the problem is built (it read "0 depth-2 trees of 0 leaves").
			shaped := *m.w
			shaped.trees, shaped.leaves, shaped.depth, shaped.colSample, shaped.objective = m.par.trees, m.par.leaves, msg.e.Depth(), m.par.colSample, m.par.objective
			m.w = &shaped
			w := shaped
			w.e = msg.e
			m.gen++
			return m, tea.Batch(prepare(m.ctx, m.gen, w), m.startPreparing())
		}
		return m.retrain()
	case trainMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.trainProg = msg.ev.Progress
		if !msg.ev.Final {
			return m, waitTrain(msg.gen, m.trainEvents)
		}
		if msg.ev.Err != nil {
			m.fail("training: " + msg.ev.Err.Error())
			return m, nil
		}
		w := *m.w
		w.e = msg.ev.Result.Ensemble
		if lw := baseLeafWarning(&w); lw != "" {
			m.leafWarning = lw
			m.screen.Warnings = append([]string{lw}, m.screen.Warnings...)
			m.setStatus(warningStatus(m.screen.Warnings), true)
		}
		return m, tea.Batch(prepare(m.ctx, m.gen, w), m.startPreparing())
	case preparedMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		if msg.err != nil && m.w.pr != nil {
			// A rebuild for new targets failed: keep the problem we have.
			m.par.tg = m.w.tg
			m.phase = phaseReady
			failed := msg.err.Error() + "; the targets stay as they were"
			m.setStatus(failed, true)
			if m.reshaped() {
				// A shape edit made while it was built waited for it
				// (editWaits: "retrains once the cascade problem is
				// built"): it retrains now. It was dropped, the panel
				// showing the edited shape over the old ensemble's runs.
				m, cmd := m.apply()
				if m.status != failed {
					m.setStatus(strings.TrimSuffix(failed+"; "+m.status, "; "), true)
				}
				return m, cmd
			}
			if !m.resume {
				// The run had finished: its figures stay, and nothing
				// runs that no one asked for.
				return m, nil
			}
			return m.restart(true)
		}
		if msg.err != nil {
			// With the ensemble, so that a targets edit can build the
			// problem again (recovers).
			m.w = msg.w
			m.fail(msg.err.Error())
			return m, nil
		}
		if m.w.e != msg.w.e {
			// Of another ensemble: its cascade is not drawn over the new
			// baselines (◆), kept or saved; the panes show none until the
			// new run's first step, as after a load.
			m.best, m.bestOwn, m.bestRun, m.bestCuts = nil, nil, runInfo{}, nil
			m.snap, m.snapRun = cronus.Snapshot{}, runInfo{}
		} else if m.w.pr != msg.w.pr {
			// A threshold, ω⁺ or targets edit built a new problem for the
			// same ensemble: the cascades shown, the last finished run's
			// best and the kept ones stay (ofEnsemble), but nothing runs on
			// the old problem again. They held it, each such edit with a
			// cascade kept one problem more for good (0.35 GB each on
			// 150,000 documents), as a retrain's runs did (retired).
			m.snapRun.w, m.bestRun.w = m.snapRun.w.retired(), m.bestRun.w.retired()
			m.keptSave = slices.Clone(m.keptSave) // shared with earlier models' copies
			for i := range m.keptSave {
				m.keptSave[i].run.w = m.keptSave[i].run.w.retired()
			}
		}
		m.w = msg.w
		m.w.groupSizes = groupSizes(m.w.costs.Cost)
		m.phase = phaseReady
		return m.apply()
	case optStartedMsg:
		if msg.gen != m.gen {
			msg.run.cancel()
			return m, nil
		}
		m.run, m.cancelled = msg.run, nil
		return m, waitOpt(msg.gen, msg.run.job.Events())
	case optMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		if !msg.ev.Final && inInit(msg.ev.Progress) {
			m.initProg = msg.ev.Progress // its snapshot is none of the run's
			return m, waitOpt(msg.gen, m.run.job.Events())
		}
		m.initProg = job.Progress{}
		m.cutsProg = job.Progress{}
		if !msg.ev.Final && inCuts(msg.ev.Progress) {
			m.cutsProg = msg.ev.Progress // its snapshot repeats the run's last
		}
		m.snap, m.snapRun = msg.ev.Snapshot, m.runInfo()
		m.snapRun.warm = m.snap.Warm // it may have started from Algorithm 2 instead
		if m.stepsSaid && m.runStarted() {
			m.setStatus("", false) // started: the run figures show its steps
		}
		if !msg.ev.Final {
			return m, waitOpt(msg.gen, m.run.job.Events())
		}
		m.running = false
		if out := msg.ev.Result; out != nil && out.History.Phase == "done" {
			// The stream's last snapshot may be a coalesced, earlier one; a
			// finished run's own history is complete.
			m.snap = out.History
			m.snapRun.refit = out.Refit
		}
		if out := msg.ev.Result; out != nil && out.Best != nil {
			m.best, m.bestOwn, m.bestRun = out.Best, out.Own(), m.runInfo()
			m.bestCuts = m.run.cuts
			m.bestRun.warm, m.bestRun.refit = out.Warm, out.Refit
		}
		switch err := msg.ev.Err; {
		case err == nil:
			if _, bt, split := m.reported(); bt.Metrics != nil {
				m.finished = append(slices.Clip(m.finished), baseline.Point{Method: "cronus", Split: split, Lambda: m.runPar.Lambda, Cost: bt.Cost, Metrics: bt.Metrics})
			}
			if !m.errLine { // an error (a refused rebuild, say) stays until the next key
				// Short, so that the run's figures fit beside it at 80 columns.
				msg := fmt.Sprintf("run %d finished", m.runs)
				if m.snap.Refit != "" {
					msg += ", refit " + m.snap.Refit // its best is a refit (the refit setting)
				}
				m.setStatus(msg, false)
			}
			return m, releaseMemory
		case !errors.Is(err, context.Canceled):
			m.setStatus("optimisation: "+err.Error(), true)
		}
	case sweepMsg:
		return m.sweepEvent(msg)
	case rhoMsg:
		return m.rhoEvent(msg)
	case debounceMsg:
		if msg.edit != m.edits {
			return m, nil
		}
		stepped := m.stepped
		m.stepped = 0
		if m.recovers() {
			m.screen.Err = ""
			return m.apply()
		}
		if m.phase != phaseReady {
			return m, nil
		}
		if m.asRun() {
			return m.undone(stepped).releaseRho()
		}
		return m.apply()
	case savedMsg:
		m.savedStatus(msg)
		if m.wrote(msg.err) {
			return m, tea.Quit
		}
		return m.applyHeld()
	case exportedMsg:
		m.exporting = false
		if msg.err != nil {
			m.setStatus("export: "+msg.err.Error(), true)
		} else {
			// Short enough for 80 columns.
			m.setStatus("exported ./"+msg.csv+", ./"+msg.svg+", ./"+msg.front, false)
		}
		if m.wrote(msg.err) {
			return m, tea.Quit
		}
		return m.applyHeld()
	}
	return m, nil
}

// runInfo is the current run's: its data, parameters and start.
func (m Model) runInfo() runInfo {
	if m.run != nil {
		return m.run.info
	}
	return runInfo{w: m.w, par: m.runPar.Params}
}

// savable is the cascade 's' saves, the one 'k' keeps: the best on
// validation of the run the snapshot shown comes from, or, before that run
// has one (the first cycle of a warm run), the last finished run's best;
// none of an ensemble a retrain replaces.
func (m Model) savable() (savable, bool) {
	switch {
	case m.snap.BestCascade != nil && m.ofEnsemble(m.snapRun):
		return savable{c: m.snap.BestCascade, sigma: stageSigma(m.snap.BestStages), run: m.snapRun}, true
	case m.best != nil && m.ofEnsemble(m.bestRun):
		return savable{c: &m.best.Cascade, sigma: m.best.Sigma, run: m.bestRun}, true
	}
	return savable{}, false
}

// newEnsembleWait is what 's' and 'k' wait for while the base ensemble
// retrains: the last cascades are of the old one.
const newEnsembleWait = "the new base ensemble's first cascade"

// ofEnsemble reports whether run's cascades are of the base ensemble in
// use, which 's' saves and 'k' keeps; from a retrain until the new
// ensemble's run reports, the last ones are of the old ensemble.
func (m Model) ofEnsemble(run runInfo) bool {
	return m.w != nil && run.w != nil && run.w.e == m.w.e
}

// wrote counts a write reported (saved or exported, err its failure) and
// tells whether the workbench quits now: a quit waited for it and no
// other is pending. A write that failed while a quit waited keeps the
// workbench open, its error on the status line: it quit at once, and the
// error went with the screen.
func (m *Model) wrote(err error) bool {
	m.pendingWrites = max(m.pendingWrites-1, 0)
	if m.quitting && err != nil && !errors.Is(err, errQuit) {
		m.quitting = false
		if !m.paused {
			m.gate.setPaused(false) // the run held for the quit goes on
		}
		m.gate.setHeld(false)
		note := "not quitting: q quits"
		if m.quitStopped != "" {
			note += "; " + m.quitStopped // what the quit cancelled stays cancelled
		}
		m.quitStopped = ""
		m.setStatus(m.status+" ("+note+")", true)
		return false
	}
	if m.quitting && m.pendingWrites == 0 {
		m.cancel()
		return true
	}
	return false
}

// heldByQuit reports whether msg, come while a quit waits for a write,
// would start work there: an edit's restart (debounceMsg); the end of
// the base ensemble's training (the problem is built), of the cascade
// problem's build (the optimisation starts, or a shape edit's retrain)
// or of a load (the new data's training or build). Each started it
// while the quit waited, the keys that start work being refused: a
// threshold edit's rebuild, an export, then q, and the rebuild's end
// started a run (Algorithm 2: seconds on large data) beside the write.
func (m Model) heldByQuit(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case debounceMsg:
		return msg.edit == m.edits
	case trainMsg:
		return msg.gen == m.gen && msg.ev.Final
	case preparedMsg:
		return msg.gen == m.gen
	case reloadedMsg:
		return msg.gen == m.gen
	case pendingLoadMsg:
		return msg.gen == m.loadGen
	case loadedMsg:
		return true
	}
	return false
}

// applyHeld takes what a quit held (quitHeld), in the order it came, once
// the quit is off (its write failed), the write's error kept before what
// they say.
func (m Model) applyHeld() (Model, tea.Cmd) {
	if len(m.quitHeld) == 0 || m.quitting {
		return m, nil
	}
	held := m.quitHeld
	m.quitHeld = nil
	failed, isErr := m.status, m.errLine
	var cmds []tea.Cmd
	for _, msg := range held {
		next, cmd := m.Update(msg)
		m = next.(Model)
		cmds = append(cmds, cmd)
	}
	if m.status != failed && !strings.HasPrefix(m.status, failed) {
		m.setStatus(strings.TrimSuffix(failed+"; "+m.status, "; "), isErr || m.errLine)
	}
	return m, tea.Batch(cmds...)
}

// quitWaits is the status message while a quit waits for a write;
// quitWaitsShort its short form (statusShort), which with what the quit
// refused (a refusal's short) fits in 40 columns: at 60 the message was
// cut, "…(q again: no…", and what was refused went.
const (
	quitWaits      = "quitting once the file being written is done (q again: now)"
	quitWaitsShort = "quits once written (q: now)"
)

// sayQuitWaits says the quit waits for a write, in its two forms.
func (m *Model) sayQuitWaits() {
	m.setStatus(quitWaits, false)
	m.statusShort = quitWaitsShort
}

// refusal is what a quit waiting for a write refused, as the status line
// says it, long and short.
type refusal struct{ long, short string }

// quitRefuses is what a key would start that a quit waiting for a write
// does not (an edit's run or retrain, the held run released, a restart, a
// λ sweep, a load, another save or export); the zero refusal for a key
// that starts no work. They replaced the quit's message and ran beside
// the write, the quit promising to do nothing but finish it; s and e
// started new writes, which the quit then waited for too.
func quitRefuses(s string) refusal {
	switch s {
	case "left", "h", "right", "l", "enter":
		return refusal{"no edits meanwhile", "no edits"}
	case " ", "n":
		return refusal{"the optimisation stays held", "run held"}
	case "r":
		return refusal{"no restart meanwhile", "no restart"}
	case "w":
		return refusal{"no λ sweep meanwhile", "no λ sweep"}
	case "o":
		return refusal{"no load meanwhile", "no load"}
	case "s":
		return refusal{"no save meanwhile", "no save"}
	case "e":
		return refusal{"no export meanwhile", "no export"}
	}
	return refusal{}
}

// sayQuitRefused keeps the quit's message on the status line with what it
// refused.
func (m *Model) sayQuitRefused(r refusal) {
	m.setStatus(quitWaits+"; "+r.long, false)
	m.statusShort = quitWaitsShort + "; " + r.short
}

// savedStatus reports what was saved and when (a second save of the same
// cascade read as the first): one cascade's file with its figures, as
// `cronus eval --cascade FILE` gives them, short enough for 80 columns, or
// the kept cascades' files.
func (m *Model) savedStatus(msg savedMsg) {
	at := msg.at.Format(time.TimeOnly)
	switch {
	case msg.err != nil:
		m.setStatus("save: "+msg.err.Error(), true)
	case len(msg.files) == 1:
		f := msg.files[0]
		short := fmt.Sprintf("%s saved ./%s", at, f.path)
		if msg.madeWith != "" {
			short += " (made with " + msg.madeWith + ")"
		}
		m.setStatus(fmt.Sprintf("%s: %s NDCG@10 %s, P@5 %s, cost %s", short, f.split,
			metricValue(f.ev.Metrics, curveSpec), metricValue(f.ev.Metrics, "p@5"), views.Num(f.ev.Cost.Total)), false) // as the status line gives it
		m.statusShort = short
	default:
		paths := make([]string, len(msg.files))
		for i, f := range msg.files {
			paths[i] = "./" + f.path
		}
		m.setStatus(fmt.Sprintf("%s saved %s to %s", at, msg.what, strings.Join(paths, ", ")), false)
		// Four files do not fit in 80 columns: their number does.
		m.statusShort = fmt.Sprintf("%s saved %d kept: ./%s", at, len(msg.files), keptName)
	}
}

// madeWith names the parameters a cascade of run was made with that
// differ from those on screen (m.par), with the run's values: "λ 0.01,
// K 10"; "" when all are as shown.
func (m Model) madeWith(run runInfo) string {
	if run.w == nil {
		return ""
	}
	made := settings{Params: run.par, tg: run.w.tg, trees: run.w.trees, leaves: run.w.leaves, colSample: run.w.colSample, objective: run.w.objective, refit: m.par.refit}
	var ds []string
	for i := range numParams {
		if v := paramValue(made, i); v != paramValue(m.par, i) {
			name := paramNames[i]
			if i == parRelevant {
				name = "rel ≥"
			}
			ds = append(ds, name+" "+v)
		}
	}
	return strings.Join(ds, ", ")
}

// notYet says why a key has nothing to act on: what comes later, or, when
// the data or the base ensemble failed, that nothing will come (the
// session stopped; "wait" had the user wait for good).
func (m Model) notYet(what, until string) string {
	switch {
	case m.phase == phaseFailed && m.w != nil && m.w.e != nil:
		// The ensemble is there: the problem failed for its targets.
		return what + ": no cascade problem (p: a targets or threshold edit builds it again; o opens the load screen)"
	case m.phase == phaseFailed:
		return what + ": nothing runs after the error (o opens the load screen)"
	}
	return what + ": wait for " + until
}

// noValid says that what ("nothing to keep") will not change: without
// validation data no cascade is chosen (the best is the best on
// validation); "" when there are validation data, or no data yet.
func (m Model) noValid(what string) string {
	if m.w == nil || m.w.valid != nil {
		return ""
	}
	return what + ": no validation data to choose a cascade on (o opens the load screen)"
}

func (m *Model) fail(s string) {
	m.phase = phaseFailed
	m.screen.Err = s
}

// printable is ss with their control characters escaped (views.Printable).
func printable(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = views.Printable(s)
	}
	return out
}

// warningStatus is the status line's message after a load with warnings:
// the first, and how many more the help lists.
func warningStatus(warnings []string) string {
	more := ""
	if n := len(warnings); n > 1 {
		more = fmt.Sprintf(" (and %d more: ? lists them)", n-1)
	}
	return "warning: " + warnings[0] + more
}

func (m *Model) setStatus(s string, isErr bool) {
	s = views.Printable(s) // a file's name or an error may hold a newline or an escape
	m.status, m.errLine, m.pauseSaid, m.statusPath, m.statusShort, m.stepsSaid, m.runeSaid = s, isErr, "", "", "", false, false
	m.noRunSaid = false
	m.statusShortSuffices = false
	m.waitSaid = waitNone
}

// setPathStatus sets the status message s, which names path (once): on a
// line too narrow for s, path loses its start, never its file name.
func (m *Model) setPathStatus(s, path string) {
	m.setStatus(s, false)
	m.statusPath = views.Printable(path) // as status holds it
}

// message is the status message shown. Space's hint says what is true now,
// not when space was pressed: paused while the base ensemble trained, the
// line still said "only the optimisation pauses" over the run that then
// started held. Once the run it spoke of has started or ended, a hint
// given with the pause off says nothing.
func (m Model) message() string {
	if m.pauseSaid == "" {
		return m.status
	}
	h := m.pauseHint()
	if !m.paused && h != m.pauseSaid {
		return ""
	}
	return h
}

// pauseHint is what space says: the pause's state, or what it waits for.
// Only the optimisation pauses: with no run under way (it finished, or the
// data load or the base ensemble trains) the next run starts paused, and
// the notes say so rather than "paused".
func (m Model) pauseHint() string {
	switch {
	case m.paused && m.running:
		return "space resumes, n runs one step"
	case m.paused && m.phase == phaseReady:
		return "r or a parameter change starts it (space undoes)"
	case m.paused:
		return "only the optimisation pauses (space undoes)"
	case m.running:
		return "resumed"
	}
	return "no pause: the next run starts at once"
}

// phaseRestarting is the snapshot's phase from a restart to the new run's
// first event.
const phaseRestarting = "restarting"

// restart cancels the running optimisation (and λ sweep) and starts the
// next generation, warm from the best cascade so far when warm. The run
// takes every edit so far (m.par), so an edit's tick still to come is
// stale: the end of a rebuild or a retrain (preparedMsg) restarted with
// an edit made meanwhile, and the edit's tick, coming after it (or
// replayed after it once a quit's write failed), restarted again, the
// first restart's run thrown away at once.
func (m Model) restart(warm bool) (Model, tea.Cmd) {
	m.stopSweep()
	m.stopRho()
	m.edits++
	m.stepped = 0
	m.gen++
	old := m.run
	if old == nil {
		old = m.cancelled // the last restart's run has not started yet
	}
	if old != nil {
		old.cancel()
	}
	prev := m.bestOwn // not the refit (restartCmd)
	if !warm {
		prev = nil
	}
	if m.snap.Phase != "" {
		// Until the new run's first snapshot (a long initialisation at a
		// large K, or never while paused), the panes show the cancelled
		// run's cascade; the status line gives none of its figures.
		m.snap.Phase = phaseRestarting
	}
	m.initProg = job.Progress{} // the cancelled run's
	m.cutsProg = job.Progress{}
	// The next run gets a gate of its own: steps granted to the old one
	// (with n while it was mid-stage, not yet at the gate) are not its.
	m.gate = m.gate.renewed()
	if m.stepsSaid {
		m.setStatus("", false) // those steps went with the old gate
	}
	cmd := restartCmd(m.ctx, m.gate, m.gen, m.w, old, prev, m.bestRun.par, m.par.Params, warm, m.par.refit)
	m.run, m.cancelled, m.running, m.runPar = nil, old, true, m.par
	m.runs++
	if m.noRunSaid {
		m.setStatus(m.pauseHint(), false) // there is a run to step now
		m.pauseSaid = m.status
	}
	return m, cmd
}

// apply starts what the edited settings need: retraining the base
// ensemble (trees, leaves, column sample), rebuilding the cascade problem (targets), or
// else a warm restart of the optimisation (a change of K keeps the first
// stages and the last; see cronus.Options.Warm). Each cancels a running λ
// sweep and choice of ρ, which the status line says after what the edit
// said, as r does: "λ = 0.015; λ sweep cancelled at 1 of 8" (the one
// replaced the other).
func (m Model) apply() (Model, tea.Cmd) {
	var cancelled []string
	if m.sweep != nil {
		cancelled = append(cancelled, m.sweepCancelled())
	}
	if m.rho != nil {
		cancelled = append(cancelled, m.rhoCancelled())
	}
	m.stopRho() // a retrain or a rebuild leaves it running
	m, cmd := m.applyEdits()
	for _, said := range cancelled {
		if !strings.Contains(m.status, said) { // a retrain says the sweep's already
			m.sayAlso(said)
		}
	}
	return m, cmd
}

// sayAlso adds s to the status message, and to its short form, after
// "; ", keeping its colour; s alone when there is none.
func (m *Model) sayAlso(s string) {
	if m.status == "" {
		m.setStatus(s, false)
		return
	}
	short := m.statusShort
	m.setStatus(m.status+"; "+s, m.errLine)
	if short != "" {
		m.statusShort = short + "; " + s
	}
}

// applyEdits is apply but for what it says of a cancelled sweep.
func (m Model) applyEdits() (Model, tea.Cmd) {
	switch {
	case m.reshaped():
		return m.retrain()
	case m.par.tg != m.w.tg:
		m.resume = m.running
		m.stopRun()
		m.stopSweep()
		m.gen++
		w := *m.w
		w.tg = m.par.tg
		return m, tea.Batch(prepare(m.ctx, m.gen, w), m.startPreparing())
	case m.runPar.Epsilon > 0 && (m.par.Epsilon != m.runPar.Epsilon || m.par.Delta != m.runPar.Delta):
		// (ε is in (0, 1): 0 is no run yet, which starts from scratch anyway.)
		// ε and δ shape Algorithm 2's stages (θ_k, λ_k) and nothing of
		// eq (8): a warm start kept the old stages, said "ε = 0.6" and
		// changed nothing, and `s` then saved a file whose params named
		// an ε its stages were not built with (cronus cascade --warm
		// refuses --epsilon and --delta for that). They start from
		// scratch.
		m.setStatus(fmt.Sprintf("%s: from scratch (ε and δ shape the initialisation, which a warm start skips)", m.changedInitParams()), false)
		m.statusShort = m.changedInitParams() + ": from scratch"
		// The why is the long form's extra: from 81 to 110 columns the
		// whole message left the run's figures no room for the whole run.
		m.statusShortSuffices = true
		return m.restart(false)
	}
	return m.restart(true)
}

// changedInitParams names ε and δ where the edited settings differ from
// the running ones': "ε 0.15 → 0.6".
func (m Model) changedInitParams() string {
	var ch []string
	if m.par.Epsilon != m.runPar.Epsilon {
		ch = append(ch, fmt.Sprintf("ε %s → %s", formatFloat(m.runPar.Epsilon), formatFloat(m.par.Epsilon)))
	}
	if m.par.Delta != m.runPar.Delta {
		ch = append(ch, fmt.Sprintf("δ %s → %s", formatFloat(m.runPar.Delta), formatFloat(m.par.Delta)))
	}
	return strings.Join(ch, ", ")
}

// recovers reports whether the edited settings get a session whose data
// loaded, but whose base ensemble or cascade problem failed, going again
// (apply): a new shape retrains the ensemble; new targets, with the
// ensemble there, build the problem again (at the start, no training
// label reached the relevance threshold, and only a reload recovered).
func (m Model) recovers() bool {
	if m.phase != phaseFailed || m.w == nil {
		return false
	}
	return m.reshaped() || m.w.e != nil && m.par.tg != m.w.tg
}

// reshaped reports whether the edited shape of the base ensemble (trees,
// leaves, column sample, objective) is not that of the ensemble in m.w,
// which a retrain then replaces.
func (m Model) reshaped() bool {
	return m.w != nil && (m.par.trees != m.w.trees || m.par.leaves != m.w.leaves || m.par.colSample != m.w.colSample || m.par.objective != m.w.objective)
}

// shapeReplaced says which edits of the base ensemble's shape, in edited,
// the model file's trees in m.par replace: those that are neither the
// shape a load starts with (New, resetFlow) nor the model's; "" when
// none is.
func (m Model) shapeReplaced(edited settings) string {
	start := edited.withDefaultShape(m.cfg)
	var gone []string
	for _, i := range []int{parTrees, parLeaves, parColSample, parObjective} {
		if v := paramValue(edited, i); v != paramValue(start, i) && v != paramValue(m.par, i) {
			gone = append(gone, paramNames[i]+" "+v)
		}
	}
	if len(gone) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: its %d %s of up to %d leaves replace the edited %s (edit them again to retrain)",
		m.cfg.Model, m.par.trees, treeNoun(m.par.trees), m.par.leaves, strings.Join(gone, ", "))
}

// retrain trains the base ensemble of the edited shape as a job; the
// problem is then rebuilt and the optimisation started afresh.
func (m Model) retrain() (Model, tea.Cmd) {
	m.stopRun()
	if m.leafWarning != "" {
		// Of the ensemble replaced: the new one's training says its own.
		m.replaceWarnings(slices.DeleteFunc(slices.Clone(m.screen.Warnings), func(w string) bool { return w == m.leafWarning }))
		m.leafWarning = ""
	}
	if m.w.files.Model != "" {
		m.replaceWarnings(m.retrainWarnings) // the model file's went with its trees
	}
	// The sweep's points, the finished runs' and the kept cascades are of
	// the old ensemble, not comparable with the new one's baselines.
	// A running sweep's cancellation the caller says (apply); a finished
	// one's points went without a word.
	finished := m.sweep == nil
	sweepGone := m.dropSweep("old ensemble")
	sweepShort := sweepGone
	if finished {
		sweepShort = "dropped λ sweep"
	}
	m.finished, m.bestCuts = nil, nil
	if n := len(m.kept); n > 0 {
		m.kept, m.keptSave = nil, nil
		// Each fits beside the training's note at 80 columns; both, in
		// the short form. The one replaced the other.
		dropped := fmt.Sprintf("dropped %d kept (old ensemble)", n)
		if sweepGone == "" {
			m.setStatus(dropped, false)
		} else {
			m.setStatus(sweepGone+"; "+dropped, false)
			m.statusShort = fmt.Sprintf("%s; dropped %d kept", sweepShort, n)
		}
	} else if finished && sweepGone != "" {
		m.setStatus(sweepGone, false)
	}
	// The cascade shown last and the last finished run's best are of the
	// old ensemble (s and k refuse them, ofEnsemble): their runs keep that
	// ensemble and the data, not its cascade problem. Kept, it stayed
	// beside the new one while that was built (and a third problem after
	// a second retrain before the new ensemble's run had finished).
	m.snapRun.w, m.bestRun.w = m.snapRun.w.retired(), m.bestRun.w.retired()
	m.gen++
	m.phase = phaseTraining
	m.trainProg = job.Progress{}
	old := m.w
	// The new trees are the workbench's own, not a model file's: a saved
	// cascade records their training (fileParams).
	files := old.files
	files.Model = ""
	// A model file's objective the workbench does not train (its
	// "binary", an import's "rank:pairwise") is retrained as the
	// default's regression, and the panel says so.
	m.par.objective = trainable(m.par.objective)
	m.w = &workData{train: old.train, valid: old.valid, test: old.test, costs: old.costs, files: files,
		trees: m.par.trees, leaves: m.par.leaves, depth: depthFor(m.par.leaves), colSample: m.par.colSample, objective: m.par.objective, tg: m.par.tg,
		positives: cronus.CountPositives(old.train.Labels, m.par.tg)}
	j := startTraining(m.ctx, m.w.train, m.w.valid, trainParams(m.w.trees, m.w.leaves, m.w.colSample, m.w.objective))
	m.trainEvents = j.Events()
	return m, waitTrain(m.gen, m.trainEvents)
}

// replaceWarnings makes ws the load's warnings, and the status line, when
// it shows the first of the old ones, says the first of ws, or nothing.
func (m *Model) replaceWarnings(ws []string) {
	old := m.screen.Warnings
	m.screen.Warnings = ws
	if len(old) == 0 || !m.errLine {
		return
	}
	said := warningStatus(old)
	i := strings.Index(m.status, said)
	if i < 0 {
		return
	}
	before, after := m.status[:i], m.status[i+len(said):]
	var status string
	if len(ws) > 0 {
		status = before + warningStatus(ws) + after
	} else {
		// "note; warning …" or "warning …; note": the notes stay, joined
		// once.
		parts := []string{strings.TrimSuffix(before, "; "), strings.TrimPrefix(after, "; ")}
		status = strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), "; ")
	}
	m.setStatus(status, status != "")
}

// stopRun cancels the running optimisation, if any.
func (m *Model) stopRun() {
	if m.run != nil {
		m.run.cancel()
	}
	m.run, m.cancelled, m.running = nil, nil, false
	if m.stepsSaid {
		m.setStatus("", false) // no run takes those steps; the next has a gate of its own
	}
}

// key routes one key press.
func (m Model) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	s := k.String()
	if s == "ctrl+c" || s == "q" && !m.editing && (m.loadScr == nil || !m.loadScr.typing) {
		// A file being written is finished first (a save, then q at once,
		// wrote nothing, or left its temporary file); a second quit key
		// does not wait: it cancels m.base, which gives up the write
		// under way (Run waits for it to end: one that waited for a FIFO's
		// reader held the process for ever).
		if m.pendingWrites > 0 && !m.quitting {
			m.quitting = true
			// Only the write goes on: the optimisation is held at its
			// gate (a write that fails leaves the session as it was) and
			// a λ sweep is cancelled. Both ran on while it was written: on
			// 200,000 documents an export then took 7.8 s, 5.3 s alone.
			if !m.paused {
				m.gate.setPaused(true)
			}
			m.gate.setHeld(true) // and a restart's run, not yet started, waits to start
			var stopped []string
			for _, said := range []string{m.stopSweep(), m.stopRho()} {
				if said != "" {
					stopped = append(stopped, said)
				}
			}
			m.quitStopped = strings.Join(stopped, "; ")
			m.sayQuitWaits()
			return m, nil
		}
		m.cancel()
		return m, tea.Quit
	}
	if m.loadScr != nil {
		return m.loadKey(k)
	}
	if m.editing {
		return m.editKey(k)
	}
	if m.help {
		switch s {
		case "?", "esc":
			m.help = false
		case "down", "j":
			m.helpTop = min(m.helpTop+1, m.helpMaxTop())
		case "up", "k":
			// From the furthest it goes now: an error gone gives the help
			// more rows.
			m.helpTop = max(min(m.helpTop, m.helpMaxTop())-1, 0)
		}
		return m, nil
	}
	if m.sel >= m.shownParams() {
		m.sel = 0 // the panel went off screen (hidden, or the terminal shrank)
	}
	if no := quitRefuses(s); m.quitting && no != (refusal{}) {
		m.sayQuitRefused(no)
		return m, nil
	}
	switch s {
	case "?":
		m.help, m.helpTop = true, 0
	case "o":
		m.openLoadScreen()
	case "tab":
		m.pane = (m.pane + 1) % numPanes
	case "shift+tab":
		m.pane = (m.pane + numPanes - 1) % numPanes
	case "1", "2", "3", "4", "5":
		m.pane = int(s[0] - '1')
	case "up":
		n := m.shownParams()
		m.sel = (m.sel + n - 1) % n
	case "down", "j":
		m.sel = (m.sel + 1) % m.shownParams()
	case "p":
		// What p does follows what is on screen: refused, the panel stays
		// closed (it counted as open, showed unasked on a taller terminal,
		// and the next p closed it unseen); hidden by a terminal that
		// shrank, p opens it again or says why it cannot.
		shown := len(m.shownPanel()) > 0
		m.panel = !shown
		if shown && m.sel >= lineParams {
			m.sel = 0
		}
		switch {
		case !shown && m.shownParams() == lineParams:
			m.panel = false
			m.sayPanelRefused()
		case strings.HasPrefix(m.status, panelRefused):
			// an earlier refusal, on a terminal since grown, would
			// contradict the panel now on screen
			m.setStatus("", false)
		}
	case "left", "h", "right", "l":
		dir := 1
		if s == "left" || s == "h" {
			dir = -1
		}
		par, err := stepParam(m.par, m.sel, dir)
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil
		}
		return m.edited(par)
	case "enter":
		if toggleParam(m.sel) {
			par, _ := stepParam(m.par, m.sel, 1)
			return m.edited(par)
		}
		if m.refuseRetrain() {
			return m, nil // not typed for nothing
		}
		m.editing, m.input = true, ""
	case "r":
		if m.phase != phaseReady {
			// It did nothing, without a word (the first run starts from
			// scratch anyway).
			m.sayWait("nothing to restart yet", "the cascade problem and the baselines", waitProblem)
			return m, nil
		}
		// An edit's restart still to come (its 300 ms tick) would restart
		// this run again, warm, from the last run's cascade: r takes the
		// edit now. One that retrains the ensemble or rebuilds the problem
		// is applied as its tick would (both start from scratch).
		m.edits++
		if m.reshaped() || m.par.tg != m.w.tg {
			return m.apply()
		}
		msg := "restarted from scratch"
		if m.sweep != nil {
			// restart cancels the sweep; both are said.
			msg += "; " + m.sweepCancelled()
		}
		if m.rho != nil {
			msg += "; " + m.rhoCancelled() // as the sweep
		}
		m, cmd := m.restart(false)
		m.setStatus(msg, false)
		return m, cmd
	case "s":
		if m.compare {
			return m.saveKept()
		}
		c, ok := m.savable()
		if s := m.noValid("no cascade to save"); !ok && s != "" {
			m.setStatus(s, true)
			return m, nil
		}
		if !ok {
			until := "the optimisation to report one"
			if m.snap.BestCascade != nil || m.best != nil {
				until = newEnsembleWait // of the old ensemble
			}
			m.sayWait("no cascade to save yet", until, waitSave)
			return m, nil
		}
		m.pendingWrites++
		cmd := saveCmd(m.base, m.writes, "the best cascade", []savable{c}, []string{savePath})
		if made := m.madeWith(c.run); made != "" {
			// The cascade shown is a run's before an edit (until the edit's
			// run reports): its file's params are not those on screen.
			write := cmd
			cmd = func() tea.Msg {
				msg := write().(savedMsg)
				msg.madeWith = made
				return msg
			}
		}
		return m, cmd
	case " ":
		if !m.paused && m.phase == phaseFailed {
			m.setStatus(m.notYet("nothing to pause", ""), true)
			return m, nil
		}
		m.paused = !m.paused
		m.gate.setPaused(m.paused)
		m.setStatus(m.pauseHint(), false)
		m.pauseSaid = m.status
	case "n":
		if m.phase == phaseFailed && !m.running {
			// "space pauses" sent the user to space, which refuses
			// after the error as n does.
			m.setStatus(m.notYet("nothing to step", ""), true)
			return m, nil
		}
		if !m.paused {
			m.setStatus("n runs one step while paused (space pauses)", true)
			return m, nil
		}
		if !m.running {
			m.setStatus("n: no run to step; the next run starts paused", true)
			m.noRunSaid = true
			return m, nil
		}
		m.gate.step()
		if !m.runStarted() {
			// The run takes its steps once it has started (Algorithm 2,
			// or the evaluation of the cascade it starts from: seconds on
			// large data); "one step" beside "restarting", said again by
			// the next n, changed nothing on screen till then.
			m.setStatus(fmt.Sprintf("n: %s, once the run has started", stepCount(m.gate.grantedPending())), false)
			m.stepsSaid = true
			return m, nil
		}
		m.setStatus("one step", false)
	case "k":
		return m.keep()
	case "c":
		if s := m.noValid("nothing to compare"); s != "" && !m.compare {
			m.setStatus(s, true) // its hint said "press k", which is refused
			return m, nil
		}
		if m.phase == phaseFailed && !m.compare && len(m.kept) == 0 {
			// As s, k and the others: an empty compare view said "press
			// k", which is refused after the error.
			m.setStatus(m.notYet("nothing to compare", ""), true)
			return m, nil
		}
		m.compare = !m.compare
	case "esc":
		m.compare = false
	case "w":
		return m.toggleSweep()
	case "e":
		// The baselines stay while a targets edit rebuilds the problem;
		// a retrain or a load replaces them.
		if m.w == nil || m.w.points == nil {
			m.sayWait("nothing to export yet", "the baselines", waitBaselines)
			return m, nil
		}
		if m.exporting {
			// A second export would write the same files beside the first,
			// and its "exported" would come while the other still wrote.
			m.setStatus("already exporting the curves: e again once they are written", false)
			return m, nil
		}
		m.setStatus("exporting the curves …", false)
		f := m.w.files // the data the points were measured on
		w := m.w
		m.pendingWrites++
		m.exporting = true
		// Under the workbench's context, which only quitting ends, not the
		// session's: a load of other data cancels the session's work, and
		// the export asked for before it failed, "context canceled".
		ctx := m.base
		return m, exportCmd(ctx, m.writes, m.curvePoints(), func() ([]baseline.Point, error) { return w.validBaselines(ctx) },
			baseline.CurveTitle(f.Model, [2]string{"valid", f.Valid}, [2]string{"test", f.Test}))
	}
	return m, nil
}

// startPreparing enters phasePreparing and starts the tick that counts
// its seconds on screen, unless one is due already.
func (m *Model) startPreparing() tea.Cmd {
	m.phase = phasePreparing
	m.prepStart = time.Now()
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tick()
}

// prepElapsed is " 6s" once the problem and the baselines have been built
// for a second or more, for the notes that say so; "" before.
func (m Model) prepElapsed() string {
	if m.prepStart.IsZero() {
		return ""
	}
	if d := time.Since(m.prepStart); d >= time.Second {
		return fmt.Sprintf(" %ds", int(d.Seconds()))
	}
	return ""
}

// runStarted reports whether the current run has reported its start (its
// first event): from a restart until then the snapshot is the cancelled
// run's, or none.
func (m Model) runStarted() bool {
	return m.snap.Phase != "" && m.snap.Phase != phaseRestarting
}

// stepCount is n steps in words: "one step", "2 steps".
func stepCount(n int) string {
	if n == 1 {
		return "one step"
	}
	return fmt.Sprintf("%d steps", n)
}

// panelRefused starts the message of a p refused for want of rows.
const panelRefused = "the parameter panel needs "

// sayPanelRefused says that the terminal is too short for the parameter
// panel, with the rows it needs and those it has; on a terminal tall
// enough for it, nothing (p then opens it).
func (m *Model) sayPanelRefused() {
	need := len(m.panelLines(m.width)) + footerLines + 1
	if m.height >= need {
		m.setStatus("", false)
		return
	}
	m.setStatus(fmt.Sprintf(panelRefused+"%d rows; the terminal has %d", need, m.height), true)
}

// editKey handles a key while a value is typed.
func (m Model) editKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.Type {
	case tea.KeyEsc:
		m.editing = false
		if m.runeSaid {
			m.setStatus("", false)
		}
		return m, nil
	case tea.KeyBackspace:
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
		if m.runeSaid {
			m.sayStrayRune() // of the characters left, if one is stray
		}
		return m, nil
	case tea.KeyEnter:
		if m.quitting {
			// ctrl+c while typing started the quit: the value stays typed.
			m.sayQuitRefused(quitRefuses("enter"))
			return m, nil
		}
		m.editing = false
		if m.sel == parRho && m.input == "" {
			return m.chooseRho(cronus.RhoBest)
		}
		// 1se or best typed on ρ: the rule to choose it by
		// (cronus cascade --rho-rule).
		if rule, err := cronus.ParseRhoRule(m.input); err == nil && m.sel == parRho {
			m.input = ""
			return m.chooseRho(rule)
		}
		par, err := setParam(m.par, m.sel, m.input)
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil
		}
		if par == m.par || m.phase == phaseReady && par == m.runPar {
			return m.unchanged(par).releaseRho()
		}
		return m.edited(par)
	case tea.KeyRunes, tea.KeySpace:
		// A character a value cannot hold is kept, shown, and refused with
		// the whole entry at enter: dropping it turned "0,05" into 005 =
		// 5, a hundred times the λ meant. The space bar's key is such a
		// character (KeySpace, not KeyRunes): dropped, "0 5" set λ to 5.
		runes := k.Runes
		if k.Type == tea.KeySpace && len(runes) == 0 {
			runes = []rune{' '}
		}
		for _, r := range runes {
			m.input += string(r)
			if !inputRune(r) {
				m.sayStrayRune()
			}
		}
	}
	return m, nil
}

// sayStrayRune names the last character of the value typed that a value
// cannot hold, or, when there is none left, takes the message off.
func (m *Model) sayStrayRune() {
	if m.sel == parRho && rhoRuleTyping(m.input) {
		m.setStatus("", false) // 1se or best, the rule to choose ρ by
		return
	}
	r := []rune(m.input)
	for i := len(r) - 1; i >= 0; i-- {
		if !inputRune(r[i]) {
			m.setStatus(fmt.Sprintf("%q: a value takes digits, '.', 'e', '+' and '-' (backspace removes it)", r[i]), true)
			m.runeSaid = true
			return
		}
	}
	m.setStatus("", false)
}

// shownParams is how many parameters can be selected: those of the params
// line, and the panel's while it is on screen (on, and the terminal tall
// enough for it).
func (m Model) shownParams() int {
	if len(m.shownPanel()) > 0 {
		return numParams
	}
	return lineParams
}

// edited takes the new parameters and schedules a restart after the
// debounce delay; only the tick of the latest edit restarts.
func (m Model) edited(par settings) (Model, tea.Cmd) {
	if m.refuseRetrain() {
		return m, nil
	}
	m.par = par
	m.edits++
	m.stepped |= 1 << m.sel
	n := m.edits
	// A running choice of ρ goes on until the edit's tick (apply), as a
	// λ sweep does: stepped back before it (→ then ←), the edit cancels
	// nothing. It was cancelled here, at the key. A choice that ends
	// meanwhile waits for the tick (rhoHeld).
	m.setStatus(paramSaid(par, m.sel)+m.editWaits(), false)
	return m, tea.Tick(debounceMs*time.Millisecond, func(time.Time) tea.Msg { return debounceMsg{edit: n} })
}

// paramSaid is parameter i's value in par as an edit's status gives it:
// "λ = 0.015", "relevant ≥ 3".
func paramSaid(par settings, i int) string {
	eq := " = "
	if strings.HasSuffix(paramNames[i], "≥") {
		eq = " " // "relevant ≥ 3"
	}
	return paramNames[i] + eq + paramValue(par, i)
}

// unchanged takes a typed value that leaves the settings as they are
// (par): the value the parameter has, or, while an edit waits for its
// restart, the one the run has, which undoes the edit. It says so and
// starts nothing: typing the value λ had restarted the run (warm) and
// cancelled a running λ sweep or choice of ρ, for nothing. An edit
// undone is dropped, its restart (or retrain) with it.
func (m Model) unchanged(par settings) Model {
	v := paramSaid(par, m.sel) + ", as it was"
	pending := m.phase == phaseReady && m.par != m.runPar
	wait := "restart" // as the params line says it (paramsLine)
	if m.reshaped() {
		wait = "retrain"
	}
	var msg string
	switch {
	case par != m.par:
		// The edit waiting is undone: its tick is stale.
		m.par = par
		m.edits++
		m.stepped = 0
		msg = v + ": the pending " + wait + " dropped"
	case pending:
		msg = v + " (pending " + wait + ")"
	case retrains(m.sel) && m.reshaped() && (m.phase == phaseTraining || m.phase == phasePreparing):
		// The value an edit made while the ensemble trains or the problem
		// is built: it still retrains after.
		msg = v + m.editWaits()
	case retrains(m.sel):
		msg = v + ": no retrain"
	case m.sel == parPosWeight || m.sel == parRelevant:
		msg = v + ": no rebuild"
	default:
		msg = v + ": no restart"
	}
	if m.phase == phaseReady && m.par == m.runPar {
		msg += " (r restarts from scratch)"
	}
	m.setStatus(msg, false)
	m.statusShort = v
	return m
}

// asRun reports whether the edited settings are, as a whole, those the
// current run was started with, on the base ensemble and the cascade
// problem it runs on: nothing for an edit's tick to restart, rebuild or
// retrain.
func (m Model) asRun() bool {
	return m.par == m.runPar && !m.reshaped() && m.par.tg == m.w.tg
}

// undone takes an edit's tick that finds the edits made since the last
// (stepped, 1<<i each) undone, the settings those of the run (asRun): →
// then ←. It says so and starts nothing: the tick restarted the run
// (warm), cancelling a running λ sweep, although nothing had changed.
func (m Model) undone(stepped uint32) Model {
	var vs []string
	verb := "no restart"
	for i := range numParams {
		if stepped&(1<<i) == 0 {
			continue
		}
		vs = append(vs, paramSaid(m.par, i))
		switch {
		case retrains(i):
			verb = "no retrain"
		case verb == "no restart" && (i == parPosWeight || i == parRelevant || i == parTargets):
			verb = "no rebuild"
		}
	}
	v := "the parameters as they were"
	switch len(vs) {
	case 0:
	case 1:
		v = vs[0] + ", as it was"
	default:
		v = strings.Join(vs, ", ") + ", as they were"
	}
	m.setStatus(v+": "+verb+" (r restarts from scratch)", false)
	m.statusShort = v
	return m
}

// editWaits is what an edit waits for after a failure that it does not
// recover from (recovers), "" otherwise: after a failed load the status
// said "λ = 0.015" as if applied, though nothing ran. An edit of the base
// ensemble's shape while a model file loads says that the model's trees
// replace it (loadedMsg); one while an ensemble trains or the problem is
// built, that it retrains after (apply), as it read applied.
func (m Model) editWaits() string {
	switch {
	case m.phase == phaseLoading && m.cfg.Model != "" && retrains(m.sel):
		return ": the model being loaded replaces it (edit it once loaded to retrain)"
	case m.phase == phaseTraining && retrains(m.sel) && !m.reshaped():
		// Back to the shape in training: nothing retrains after it (it
		// said it would).
		return ", as the ensemble in training: the pending retrain dropped"
	case m.phase == phasePreparing && retrains(m.sel) && !m.reshaped():
		return ", as the cascade problem's ensemble: the pending retrain dropped"
	case m.phase == phaseTraining && retrains(m.sel):
		return ": retrains once the ensemble in training is done"
	case m.phase == phasePreparing && retrains(m.sel):
		return ": retrains once the cascade problem is built"
	case m.phase != phaseFailed || m.recovers():
		return ""
	case m.w != nil && m.w.e != nil:
		return ": waits for the cascade problem (a targets or threshold edit builds it again; o opens the load screen)"
	case retrains(m.sel):
		return ": for the next load's training (o opens the load screen)"
	}
	return ": for the next load (o opens the load screen)"
}

// refuseRetrain says so and reports true when the selected parameter
// retrains the base ensemble and that is refused (retrainRefused).
func (m *Model) refuseRetrain() bool {
	if !retrains(m.sel) || !m.retrainRefused() {
		return false
	}
	m.setStatus(paramNames[m.sel]+": not under --absent missing: the model's trees learned where missing values go, the workbench's tree learner would bin them with the largest", true)
	return true
}

// retrainRefused reports whether the base ensemble may not be retrained:
// under --absent missing, as `cronus tui` refuses it without --model, the
// model's trees learned where missing values go and the workbench's tree
// learner would bin them with the largest.
func (m Model) retrainRefused() bool {
	if m.w != nil {
		return m.w.files.AbsentMissing
	}
	return m.cfg.AbsentMissing
}

// Run opens the workbench on the terminal until the user quits or ctx ends.
func Run(ctx context.Context, cfg Config) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := New(ctx, cfg, views.DefaultStyles())
	defer m.cancel()
	// The command's own handler takes SIGINT and SIGTERM (main), ending the
	// program through ctx. Bubble Tea's handler, beside it, sent a quit
	// message the stopped event loop no longer read, and its shutdown
	// waited for that send for ever: the workbench hung, 1 time in 4.
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithContext(ctx), tea.WithoutSignalHandler())
	final, err := p.Run()
	m.writes.close() // a file being written is finished, none is started
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err() // Bubble Tea wraps it: == never matched, and a signal exited 1
	}
	if err != nil {
		return err
	}
	return endedOn(final)
}

// endedOn is the error the workbench ended showing, if it did: the data,
// the base ensemble or the cascade problem failed, and no load or edit
// since made a session. The command then exits 1 and prints it once the
// screen is gone, as a subcommand given the same files would; quitting
// with a run in hand is 0. (It was 0 either way, and a script or a shell
// saw a bad file as success and the error not at all.)
func endedOn(final tea.Model) error {
	if m, ok := final.(Model); ok && m.phase == phaseFailed && m.screen.Err != "" {
		return errors.New("the workbench ended on an error: " + m.screen.Err)
	}
	return nil
}

// treeNoun is "tree" for one, "trees" for any other count n.
func treeNoun(n int) string {
	if n == 1 {
		return "tree"
	}
	return "trees"
}
