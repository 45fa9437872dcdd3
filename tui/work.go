package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
	tea "github.com/cronus-ltr/cronus/internal/tea"
)

// The workbench's fixed choices, as in `cronus cascade --rule top-m`.
const (
	baseTrees  = 300
	baseDepth  = cronus.ShallowDepth // deeper only when more than 4 leaves are asked for
	baseLeaves = 4
	topM       = 5
	treeCost   = 1.0
	maxCycles  = 10
	curveSpec  = "ndcg@10"
	savePath   = "cronus-cascade.json"
	debounceMs = 300
)

// reportSpecs are the metrics of the cascade and of the baselines.
var reportSpecs = []metric.Spec{{Name: metric.Precision, K: 5}, {Name: metric.NDCG, K: 10}, {Name: metric.ERR, K: 3}}

// workData is what the loaded data and the base ensemble give; it is built
// by commands and never written once handed to the model.
type workData struct {
	train, valid, test *data.Dataset
	costs              *data.Costs
	e                  *tree.Ensemble
	treeCost           []float64
	pr                 *cronus.Problem
	sc                 cronus.Scales
	full               metric.Cost // of the whole ensemble on test (or valid)
	groupSizes         []int
	points             []baseline.Point // nil until computed for e
	// prefixKs are the prefix baseline's tree counts (KeptPrefixCounts of
	// e on valid and test), set with points: the export's validation rows
	// take them rather than score every prefix again (seconds on large
	// data).
	prefixKs []int

	files Config // the files it was loaded from
	// source is the model file's "source" (lightgbm, xgboost, ranklib,
	// cronus) when e was read from one; "" for the workbench's own trees.
	source string
	// modelParams is that model file's "params", kept in saved cascades'
	// ensembles as cronus cascade keeps them.
	modelParams map[string]any

	// What e and pr were built with; depth is the deepest tree's (of a
	// model file, its own trees'; of the workbench's training, its limit).
	trees, leaves, depth int
	colSample            float64
	objective            string // the trees' loss (a model file's objective, whatever it is)
	tg                   cronus.Targets

	// positives are the training documents with a label >= tg.Relevant:
	// they depend on the data and the threshold alone, so the params line
	// says what share they are while the ensemble trains, before pr.
	positives int
}

type (
	loadedMsg struct {
		splits             []data.Summary
		train, valid, test *data.Dataset
		costs              *data.Costs
		e                  *tree.Ensemble // read from Config.Model; nil = train one
		source             string         // that model file's "source"
		modelParams        map[string]any // and its "params"
		warnings           []string       // about the files: features missing, costs defaulted
		// retrainWarnings are warnings as they read once the workbench
		// trains its own ensemble in place of the model file's: those of
		// the model (features it does not use, its reading of left-out
		// values, its feature numbering) go, and the training's own come.
		retrainWarnings []string
		err             error
		bad             int // with err: the load screen's field of the file that failed
	}
	trainMsg struct {
		gen int
		ev  job.Event[boost.Snapshot, *boost.Result]
	}
	preparedMsg struct {
		gen int
		w   *workData
		err error
	}
	optStartedMsg struct {
		gen int
		run *optRun
	}
	optMsg struct {
		gen int
		ev  job.Event[cronus.Snapshot, *cronus.Outcome]
	}
	debounceMsg struct{ edit int }
	savedMsg    struct {
		what  string // "the best cascade", "the kept cascades"
		files []saved
		at    time.Time // when the files were written
		err   error
		// madeWith names the parameters the one cascade saved was made
		// with where they differ from those on screen at s (Model.madeWith).
		madeWith string
	}
)

// load reads the data sets of the workbench's configuration off the UI
// goroutine, and records them as recent once they have loaded, as a load
// from the load screen does: the files cronus tui was given were not in
// the list, and after o and the built-in data they had to be typed again.
func (m Model) load() tea.Msg {
	c := m.cfg
	return loadRecorded(m.ctx, c, [numFields]string{c.Train, c.Valid, c.Test, c.Costs, c.Model}, m.loadProg)
}

// loadProgress is how far a load has read, which the loading screen shows
// at each tick: a 1.5 GB training file (MSLR-WEB10K's 1.2 million
// documents) takes 10–20 s to read, and the screen said only "loading
// train.txt …" all along, and went on naming it while the validation and
// test files were read. A nil *loadProgress records nothing.
type loadProgress struct{ at atomic.Pointer[loadAt] }

// loadAt is one report of a load: the file being read and its reader's
// pass (1 or 2) and fraction of the bytes done.
type loadAt struct {
	name string
	pass int
	frac float64
}

// set records that the load reads name, at pass and frac.
func (l *loadProgress) set(name string, pass int, frac float64) {
	if l != nil {
		l.at.Store(&loadAt{name, pass, frac})
	}
}

// get returns the file being read and how far, as "pass 2/2 57%" ("" before
// its reader has reported), or "" and "" before the load has begun.
func (l *loadProgress) get() (name, how string) {
	if l == nil {
		return "", ""
	}
	a := l.at.Load()
	if a == nil {
		return "", ""
	}
	if a.pass > 0 {
		how = fmt.Sprintf("pass %d/2 %.0f%%", a.pass, 100*a.frac)
	}
	return a.name, how
}

// loadFiles reads the model and data sets of cfg, recording how far in prog
// (nil: nowhere).
func loadFiles(ctx context.Context, cfg Config, prog *loadProgress) tea.Msg {
	var msg loadedMsg
	minF := 0
	var md *tree.Model
	var whole tree.Ensemble // the model's, all its trees
	if cfg.Model != "" {
		prog.set(cfg.Model, 0, 0) // a model of 1,000 trees × 4,096 leaves takes seconds
		e, m, err := readEnsemble(cfg.Model, cfg.ModelRead)
		if err != nil {
			return loadedMsg{err: err, bad: fieldModel}
		}
		whole = *e // for the feature-numbering warning, judged on every tree
		if k := cfg.ModelTrees; k > 0 {
			if k > len(e.Trees) {
				return loadedMsg{err: fmt.Errorf("--trees %d: the model %s has %d %s", k, cfg.Model, len(e.Trees), treeNoun(len(e.Trees))), bad: fieldModel}
			}
			e.Trees = e.Trees[:k]
		}
		msg.e, md, minF = e, m, e.NumFeatures
		msg.source, msg.modelParams = m.Source, m.Params
	}
	for i, name := range []string{cfg.Train, cfg.Valid, cfg.Test} { // fieldTrain, fieldValid, fieldTest
		if name == "" {
			continue
		}
		if i == fieldTest && name == cfg.Valid && msg.valid != nil {
			// The validation file as the test set: the same data, read
			// once, and its warnings given once (they were listed twice).
			msg.test = msg.valid
			msg.splits = append(msg.splits, data.Summarize(msg.test, msg.costs))
			continue
		}
		prog.set(name, 0, 0)
		d, err := data.LoadDataset(ctx, name, data.ReadOptions{MinFeatures: minF, AbsentMissing: cfg.AbsentMissing,
			Progress: func(pass int, done, total int64) {
				if total > 0 {
					prog.set(name, pass, float64(done)/float64(total))
				}
			}})
		if err != nil {
			return loadedMsg{err: err, bad: i}
		}
		d.Name = name
		// warn adds w to the load's warnings; ofModel: one about the model
		// file, which a retrain replaces.
		warn := func(w string, ofModel bool) {
			if w == "" {
				return
			}
			msg.warnings = append(msg.warnings, w)
			if !ofModel {
				msg.retrainWarnings = append(msg.retrainWarnings, w)
			}
		}
		warn(d.PaddingWarning(), false)
		// The training file's features beyond the model's are the model's
		// matter; a validation or test file's beyond the training file's
		// are the data's.
		warn(d.UnusedWarning(minF), i == 0)
		warn(d.StrayWarning(), false)
		warn(md.AbsentWarning(msg.e, -1, d), true)
		switch i {
		case 0:
			warn(md.LibsvmReaderWarning(&whole, d), true)
			minF = d.NumFeatures()
			if cfg.Costs == "" {
				msg.costs = data.UniformCosts(d.NumFeatures())
			} else {
				prog.set(cfg.Costs, 0, 0)
				if msg.costs, err = data.LoadCosts(cfg.Costs, d.NumFeatures()); err != nil {
					return loadedMsg{err: err, bad: fieldCosts}
				}
				warn(msg.costs.Warning(), false)
				warn(msg.costs.UnusedWarning(), false)
			}
			msg.train = d
			if w := noSplitWarning(d); cfg.Model == "" {
				warn(w, false)
			} else if w != "" {
				// Of the workbench's own training: said once it retrains.
				msg.retrainWarnings = append(msg.retrainWarnings, w)
			}
		case 1:
			msg.valid = d
		case 2:
			msg.test = d
		}
		if i > 0 {
			warn(d.QIDWarning(msg.train), false)
		}
		msg.splits = append(msg.splits, data.Summarize(d, msg.costs))
	}
	return msg
}

// readEnsemble reads a cronus model file (from `cronus train` or `cronus
// import`), as an ensemble and as the file's model; its errors name the file.
// A non-nil md is the file already read.
func readEnsemble(path string, md *tree.Model) (*tree.Ensemble, *tree.Model, error) {
	if md == nil {
		var err error
		if md, err = tree.ReadModel(path); err != nil {
			return nil, nil, err
		}
	}
	e, err := md.Ensemble()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, md, nil
}

// maxLeaves is the most leaves of any tree of e.
func maxLeaves(e *tree.Ensemble) int {
	n := 0
	for i := range e.Trees {
		n = max(n, e.Trees[i].NumLeaves())
	}
	return n
}

// depthFor is the depth limit of trees of the given leaves: baseDepth, or
// as deep as that many leaves need.
func depthFor(leaves int) int {
	d := baseDepth
	for d < 62 && 1<<d < leaves {
		d++
	}
	return d
}

// noSplitWarning says, when no tree of the base ensemble the workbench
// trains on d can split, that every one is a single leaf scoring every
// document alike (as train warns): d has fewer documents than two leaves
// hold, or no feature with two values; "" otherwise. The workbench built
// such ensembles, and cascades of them, without a word.
func noSplitWarning(d *data.Dataset) string {
	minDocs := trainParams(1, 2, 1, boost.Regression).Grow.MinDocs
	var why string
	switch {
	case d.NumDocs()/2 < minDocs:
		docs := "documents"
		if d.NumDocs() == 1 {
			docs = "document"
		}
		why = fmt.Sprintf("%s has %d %s, fewer than the %d that the two leaves of a split hold (%d each)", d.Name, d.NumDocs(), docs, 2*minDocs, minDocs)
	case d.Constant():
		why = fmt.Sprintf("%s: every feature has one value on every document", d.Name)
	default:
		return ""
	}
	return why + ": no tree of the base ensemble can split, and it scores every document alike"
}

// baseLeafWarning says, when every tree of the base ensemble the
// workbench trained (w.e, of w's shape) is a single leaf, why no split was
// taken, as cronus train says it (tree.SingleLeafWarning: the limits are
// train's defaults), and which of the panel's parameters retrain it; ""
// otherwise, and when noSplitWarning said so of the training data at the
// load already.
func baseLeafWarning(w *workData) string {
	if w.e == nil || noSplitWarning(w.train) != "" {
		return ""
	}
	p := trainParams(w.trees, w.leaves, w.colSample, w.objective)
	return tree.SingleLeafWarning(w.e.Trees, p.Grow, "and the base ensemble scores every document alike (p: its trees, leaves and col sample retrain it; cronus train sets those limits, tui --model takes its trees)")
}

// trainParams are the training parameters of a base ensemble of the given
// shape, column sample and objective (boost.Regression or
// boost.LambdaRank, with cronus train's defaults for it).
func trainParams(trees, leaves int, colSample float64, objective string) boost.Params {
	p := boost.DefaultParams(objective)
	p.Trees = trees
	p.Grow.MaxDepth, p.Grow.MaxLeaves = depthFor(leaves), leaves
	p.ColSample = colSample
	return p
}

// startTraining starts the base ensemble as a job.
func startTraining(ctx context.Context, train, valid *data.Dataset, p boost.Params) *job.Job[boost.Snapshot, *boost.Result] {
	return job.Start(ctx, func(ctx context.Context, r *job.Reporter[boost.Snapshot]) (*boost.Result, error) {
		r.Phase("training", float64(p.Trees))
		return boost.Train(ctx, train, valid, p, boost.TreeReport(r.Phase, r.Report, p.Trees))
	})
}

// waitEvent is the command that waits for the next event of a job and
// turns it into a message with msg (nil once the stream is closed).
func waitEvent[S, R any](ch <-chan job.Event[S, R], msg func(job.Event[S, R]) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		return msg(ev)
	}
}

func waitTrain(gen int, ch <-chan job.Event[boost.Snapshot, *boost.Result]) tea.Cmd {
	return waitEvent(ch, func(ev job.Event[boost.Snapshot, *boost.Result]) tea.Msg { return trainMsg{gen, ev} })
}

// prepare builds the cascade problem for w.tg, and the baselines unless
// w has them already, off the UI goroutine; both stop when ctx ends (a new
// load, or quitting).
func prepare(ctx context.Context, gen int, w workData) tea.Cmd {
	return func() tea.Msg {
		var err error
		w.treeCost = make([]float64, len(w.e.Trees))
		for t := range w.treeCost {
			w.treeCost[t] = treeCost
		}
		if w.pr, err = cronus.NewProblemContext(ctx, w.e, w.train, w.costs.Cost, treeCost, w.tg); err != nil {
			if me, ok := errors.AsType[*cronus.MemoryError](err); ok {
				me.WayOut = "load a model with fewer trees, or train fewer (the trees parameter, p panel)"
			}
			return preparedMsg{gen: gen, w: &w, err: err} // w without a problem, for a retry
		}
		if w.sc, err = cronus.ComputeScalesContext(ctx, w.pr, 0); err != nil {
			w.pr = nil
			return preparedMsg{gen: gen, w: &w, err: err}
		}
		w.positives = w.pr.Positives
		if d, split := w.report(); d != nil && w.points == nil {
			w.full = metric.EnsembleCost(w.e.Features(-1), w.costs.Cost, len(w.e.Trees), treeCost)
			ks, err := w.keptPrefixCounts(ctx)
			if err != nil {
				return preparedMsg{gen: gen, err: err}
			}
			w.prefixKs = ks
			pts, err := w.baselines(ctx, d, split)
			if err != nil {
				return preparedMsg{gen: gen, err: err}
			}
			w.points = append(w.points, pts...)
		}
		return preparedMsg{gen: gen, w: &w}
	}
}

// validBaselines are the baselines (prefix, early exit) on validation when
// the workbench's own are on test (none otherwise: without test data they
// are on validation already), for the export: its validation front was
// the λ sweep's and the kept cascades' alone, drawn and labelled like the
// test front over every method.
func (w *workData) validBaselines(ctx context.Context) ([]baseline.Point, error) {
	if w == nil || w.valid == nil || w.test == nil || w.e == nil {
		return nil, nil
	}
	return w.baselines(ctx, w.valid, "valid")
}

// keptPrefixCounts are the prefix baseline's tree counts, as cronus sweep
// finds them: every prefix scored by NDCG@10 on validation and test, the
// 12 geometric counts and those no shorter prefix beats on either kept.
func (w *workData) keptPrefixCounts(ctx context.Context) ([]int, error) {
	return baseline.KeptPrefixCounts(ctx, w.e, []*data.Dataset{w.valid, w.test}, w.costs.Cost, treeCost, baseline.PrefixSteps(len(w.e.Trees), 12), reportSpecs[1], metric.Options{})
}

// baselines are the GBRT prefix and early-exit points of the ensemble on
// d, named split, as cronus sweep gives them.
func (w *workData) baselines(ctx context.Context, d *data.Dataset, split string) ([]baseline.Point, error) {
	// As cronus sweep: every prefix scored by NDCG@10, the 12 geometric
	// counts and those no shorter prefix beats on validation or test kept
	// (the same counts on both), then scored by every metric.
	ks := w.prefixKs
	if ks == nil {
		var err error
		if ks, err = w.keptPrefixCounts(ctx); err != nil {
			return nil, err
		}
	}
	prefix, err := baseline.Prefix(ctx, w.e, d, split, w.costs.Cost, treeCost, ks, reportSpecs, metric.Options{})
	if err != nil {
		return nil, err
	}
	exits, err := baseline.EarlyExit(ctx, w.e, d, split, w.costs.Cost, treeCost, baseline.DefaultExitEvery, baseline.DefaultExitMargins, reportSpecs, metric.Options{})
	if err != nil {
		return nil, err
	}
	return append(prefix, exits...), nil
}

// report is the data the workbench scores cascades and baselines on, and
// its split: test, or validation without test data (nil data without
// either, or before the data are loaded).
func (w *workData) report() (*data.Dataset, string) {
	switch {
	case w == nil:
		return nil, "valid"
	case w.test == nil:
		return w.valid, "valid"
	}
	return w.test, "test"
}

// retired is w without its cascade problem, for the runs of an ensemble
// a retrain replaces: they still say which ensemble and data their
// cascades are of (ofEnsemble, report), but nothing runs on them again,
// and the problem (the trees' outputs on every training document: 240 MB
// for 300 trees on the 200,000-document synthetic set) can go while the
// new one is trained and built. A copy: a save or an export under way may
// still read w.
func (w *workData) retired() *workData {
	if w == nil || w.pr == nil {
		return w
	}
	r := *w
	r.pr = nil
	return &r
}

func (w *workData) evaluator() cronus.Evaluator {
	return cronus.NewEvaluator(w.e, w.valid, w.test, w.costs.Cost, w.treeCost, reportSpecs)
}

// runInfo is what a run's cascades come from: the data, ensemble and
// problem, the parameters, and whether the run started warm from an
// earlier run's cascade (as asked for: a snapshot's Warm says whether the
// run took it, see Options.WarmOrInit).
type runInfo struct {
	w     *workData
	par   cronus.Params
	warm  bool
	refit string // the refit its best is (cronus.Outcome.Refit), once it is done
}

// optRun is one optimisation job. out is written by the worker before done
// is closed, so it may be read after <-done.
type optRun struct {
	job    *job.Job[cronus.Snapshot, *cronus.Outcome]
	cancel context.CancelFunc
	done   chan struct{}
	out    *cronus.Outcome
	info   runInfo
	// cuts are the first k stages of the run's best cascade (stageCuts)
	// and its last stage swapped for the ensemble's prefixes
	// (stagePrefixes), scored once the run finished; nil until then, and
	// for a run that did not finish, has no best or was cancelled while
	// they were scored. Written by the worker before it
	// returns, so read after the job's final event.
	cuts []baseline.Point
	// from is the cascade a warm run started from, with the σ_k it kept
	// (nil: derived again from σ) and its λ (restartCmd sets it); nil for
	// a run from scratch.
	from *cronus.State
}

// initPhase is the job phase of a run's initialisation (Algorithm 2):
// its events carry no snapshot of their own, only how many of the K
// stages are made (job.Progress Done of Total).
const initPhase = "initialising"

// comparePhase is initPhase for the Algorithm 2 a warm start is compared
// with after a jump of λ (cronus.Options.WarmOrInit): the run is a warm
// start until Algorithm 2 starts lower on eq (8), and the status line
// said "initialising" over it, then "warm start" when the warm cascade won.
const comparePhase = "warm start"

// inInit reports whether p is of a run's initialisation, before its first
// step's snapshot: initPhase or comparePhase.
func inInit(p job.Progress) bool { return p.Phase == initPhase || p.Phase == comparePhase }

// initReport passes Algorithm 2's progress (cronus.Options.InitProgress)
// on to r: coalesced, but for the last, once every stage of k is made,
// which is always sent (the scoring of the cascade is left, without a
// report: a tenth of a second or more on 200,000 documents). The first
// kept stages are a warm start's, taken as they are (warmKept): the time
// left is measured from the rate of the stages made after them (K 11 → 20
// on 200,000 documents said "stage 11 of 20 · 0.4s, about 0.4s left",
// with 4 s to go). Stages that go back are an initialisation from scratch
// after the warm start's (Options.WarmOrInit), timed afresh, in
// comparePhase.
func initReport(r *job.Reporter[cronus.Snapshot], k, kept int) func(stages float64) {
	last := 0.0
	return func(stages float64) {
		switch {
		case stages < last:
			r.Phase(comparePhase, float64(k))
			kept = 0
		case kept > 0 && stages >= float64(kept):
			r.PhaseFrom(initPhase, float64(kept), float64(k))
			kept = 0
		}
		last = stages
		if stages >= float64(k) {
			r.Boundary(stages, nil)
		} else {
			r.Report(stages, nil)
		}
	}
}

// cutsPhase is the job phase of a finished run's scoring of its best
// cascade's first k stages (stageCuts), in splits done of cutSplits.
const cutsPhase = "scoring the first k stages"

// prefixPhase is the job phase after cutsPhase: the scoring of the best
// cascade with its last stage the ensemble's first n trees
// (stagePrefixes), in splits done of cutSplits.
const prefixPhase = "scoring the last-stage prefixes"

// inCuts reports whether p is of a finished run's scoring of its best
// cascade's cuts or last-stage prefixes: cutsPhase or prefixPhase.
func inCuts(p job.Progress) bool { return p.Phase == cutsPhase || p.Phase == prefixPhase }

// warmKept is how many of a warm start's first stages Optimize takes as
// they are, without Algorithm 2, before it makes the new ones: from a
// cascade of another number of stages, all but its last up to K − 1 (the
// last stays the last; see cronus.Options.Warm); 0 without a warm start
// or with one of K stages, which makes none.
func warmKept(warm *cronus.Cascade, k int) int {
	if warm == nil || len(warm.Stages) == k {
		return 0
	}
	return min(k, len(warm.Stages)) - 1
}

// startOpt runs cronus.Optimize as a job, held between steps by g. While
// Algorithm 2 runs (seconds on 200,000 documents, with no step to
// report) the job is in initPhase and reports its stages, coalesced as
// any report is and not held by g: a paused run initialises, and holds
// before its first step.
func startOpt(ctx context.Context, g *gate, w *workData, par cronus.Params, opt cronus.Options) *optRun {
	ctx, cancel := context.WithCancel(ctx)
	run := &optRun{cancel: cancel, done: make(chan struct{}), info: runInfo{w: w, par: par, warm: opt.Warm != nil}}
	run.job = job.Start(ctx, func(ctx context.Context, r *job.Reporter[cronus.Snapshot]) (*cronus.Outcome, error) {
		defer close(run.done)
		phase := initPhase
		if opt.Warm != nil && len(opt.Warm.Stages) == par.K && opt.WarmOrInit && !opt.WarmSame {
			phase = comparePhase // its Algorithm 2 is all the initialisation reports
		}
		r.Phase(phase, float64(par.K))
		opt.InitProgress = initReport(r, par.K, warmKept(opt.Warm, par.K))
		// Optimize's first report is the initialisation's, timed above.
		report := r.PhaseAtFirst("optimising", float64(1+opt.MaxCycles*par.K), gated(ctx, g, r.Report, r.Boundary))
		out, err := cronus.Optimize(ctx, w.pr, w.sc, par, opt, w.evaluator(), report)
		run.out = out
		if err == nil && out != nil && out.Best != nil && len(out.Best.Cascade.Stages) > 1 {
			// A cancellation meanwhile leaves the run finished, without
			// its cuts. In a phase of their own, whose events repeat the
			// last snapshot: one pass over each split, as long as scoring
			// the cascade (0.35 s on a 50,000-document synthetic set).
			r.Phase(cutsPhase, float64(len(cutSplits)))
			// Their error (a cancellation) is not the run's.
			cuts, cerr := stageCuts(ctx, w, &out.Best.Cascade, func(i int) { r.Report(float64(i), nil) })
			if cerr == nil {
				// Then its last stage swapped for the ensemble's prefixes: a
				// whole pass over each split per prefix length.
				r.Phase(prefixPhase, float64(len(cutSplits)))
				var prefixes []baseline.Point
				if prefixes, cerr = stagePrefixes(ctx, w, &out.Best.Cascade, func(done float64) { r.Report(done, nil) }); cerr == nil {
					run.cuts = slices.Concat(cuts, prefixes)
				}
			}
		}
		return out, err
	})
	return run
}

// restartCmd waits for the cancelled run old (within one optimisation step),
// then starts the next one, warm from the best cascade so far when warm:
// old's best on validation (before any refit: a refit is no point of eq
// (8), and the sweep past λ_max continued from one far worse) or, when old
// is a warm run cancelled before it had one (in its first cycle), the
// cascade old started from. prev (the last finished run's own best, made
// with prevPar) is older than either: a run cancelled after its first
// cycle does not finish, so going back to prev dropped its progress, and
// eq (8) at the next start rose. A cascade made with another ε or δ is
// no start (they shape Algorithm 2's stages alone, as cronus cascade
// --warm refuses them): the run then starts from scratch. After an ε
// edit's run from scratch, cancelled before it had a cascade (in
// Algorithm 2, seconds on large data, or before it started), a λ or
// threshold edit went on warm from the old ε's cascade, and the saved
// file named the new ε. refit asks the new run to refit its best at the
// end.
func restartCmd(ctx context.Context, g *gate, gen int, w *workData, old *optRun, prev *cronus.State, prevPar, par cronus.Params, warm, refit bool) tea.Cmd {
	return func() tea.Msg {
		best, bestPar := prev, prevPar // the cascade to go on from, and the parameters it was made with
		if old != nil {
			<-old.done
			switch {
			case old.out != nil && old.out.Best != nil:
				best, bestPar = old.out.Own(), old.info.par
			case old.from != nil:
				best, bestPar = old.from, old.info.par
			}
		}
		if best != nil && (bestPar.Epsilon != par.Epsilon || bestPar.Delta != par.Delta) {
			best = nil
		}
		// A quit that waits for a write holds the next run's start (its
		// Algorithm 2 ran beside the write); a cancelled ctx (the quit
		// done) starts a run that ends at once.
		g.waitHeld(ctx)
		opt := cronus.Options{MaxCycles: maxCycles, Refit: refit}
		if warm && best != nil {
			// After a jump of λ, from Algorithm 2 instead when that starts
			// lower on eq (8) (see lambdaJump).
			opt.Warm, opt.Reenter = &best.Cascade, true
			opt.WarmOrInit = lambdaJump(par.Lambda*w.sc.LambdaMax, best.Lambda)
			if par.Sigma == bestPar.Sigma {
				opt.WarmSigma = best.Sigma
			}
		}
		run := startOpt(ctx, g, w, par, opt)
		if opt.Warm != nil {
			// With its λ, which the next restart's lambdaJump compares with.
			run.from = &cronus.State{Cascade: *opt.Warm, Sigma: opt.WarmSigma, Lambda: best.Lambda}
		}
		return optStartedMsg{gen: gen, run: run}
	}
}

// jumpFactor is the change of λ from which a restart also runs Algorithm
// 2. On the workbench's ensemble, from a finished λ 0.01 run, the warm
// start is the lower on eq (8) from λ 0.0025 to 0.05 (÷4 to ×5), Algorithm
// 2 from 0.1 (×10) up; a warm start that lost ended far worse (λ 5: cost
// 364 against 41). Below the factor, as at every step of the arrow keys
// (×1.5), the run starts warm at once, without the initialisation's cost
// (0.3 s there, seconds on 200,000 documents).
const jumpFactor = 4

// lambdaJump reports whether λ (absolute) is at least jumpFactor away from
// from, the λ of the cascade a run would start warm from (0: unknown).
func lambdaJump(lambda, from float64) bool {
	if !(from > 0) || !(lambda > 0) {
		return from != lambda
	}
	r := lambda / from
	return r >= jumpFactor || r <= 1/float64(jumpFactor)
}

func waitOpt(gen int, ch <-chan job.Event[cronus.Snapshot, *cronus.Outcome]) tea.Cmd {
	return waitEvent(ch, func(ev job.Event[cronus.Snapshot, *cronus.Outcome]) tea.Msg { return optMsg{gen, ev} })
}

// savable is a cascade the workbench can save, with the run it comes from.
type savable struct {
	c     *cronus.Cascade
	sigma []float64 // σ_k its soft exits were trained with; nil when unknown
	run   runInfo
}

// stageSigma is the σ_k of a snapshot's stages, or nil when one is
// unknown.
func stageSigma(views []cronus.StageView) []float64 {
	out := make([]float64, len(views))
	for k, v := range views {
		if !(v.Sigma > 0) {
			return nil
		}
		out[k] = v.Sigma
	}
	return out
}

// fileParams are the params a saved cascade records: those of `cronus
// cascade` (RunParams, the cycles, the model and data files), the reading
// of absent features when it is not the default, the base ensemble's
// training when the workbench trained it, and "warm" when the run started
// from an earlier run's cascade, which the file does not hold (`cronus
// cascade --warm` starts from a file, with its σ_k).
func (s savable) fileParams() map[string]any {
	w := s.run.w
	// Trained for top-m (defaultParams), which RunParams records.
	params := cronus.RunParams(s.run.par, w.tg, w.sc.LambdaMax)
	params["cycles"], params["train"], params["valid"] = maxCycles, w.files.Train, w.files.Valid
	if w.files.Model != "" {
		params["model"] = w.files.Model
		if k := w.files.ModelTrees; k > 0 {
			params["model_trees"] = k // as cronus cascade --trees records it
		}
	} else {
		p := trainParams(w.trees, w.leaves, w.colSample, w.objective)
		params["base"] = map[string]any{"objective": p.Objective, "trees": p.Trees, "leaves": p.Grow.MaxLeaves, "max_depth": p.Grow.MaxDepth, "col_sample": p.ColSample}
	}
	if w.files.AbsentMissing {
		params["absent"] = "missing" // eval --cascade needs --absent missing too
	}
	if s.run.warm {
		params["warm"] = true
	}
	if s.run.refit != "" {
		params["refit"] = s.run.refit // as cronus cascade --refit records it
	}
	return params
}

// saved is one cascade written: its file and its test figures (valid
// without test data), as `cronus eval --cascade` gives them.
type saved struct {
	path  string
	split string
	ev    cronus.Eval
}

// saveCmd writes the cascades to their paths off the UI goroutine and
// scores each as eval --cascade does. A write that waits (a FIFO nobody
// reads) is given up once ctx is done (the user quit at once), with
// nothing renamed into place, as the commands' writes are: it held the
// process, its screen gone, for as long as it waited.
func saveCmd(ctx context.Context, g *writeGuard, what string, cs []savable, paths []string) tea.Cmd {
	return func() tea.Msg {
		msg := savedMsg{what: what}
		if !g.begin() {
			msg.err = errQuit
			return msg
		}
		defer g.end()
		// The kept cascades' files all or none, as cronus cascade writes
		// its outputs: one by one, a failure left some replaced.
		outs := make([]data.Output, len(cs))
		for i, s := range cs {
			w := s.run.w
			f := cronus.NewFile(w.e, s.c, w.costs.Cost, w.treeCost, s.run.par.Sigma, s.fileParams())
			if w.source != "" {
				f.Ensemble.Source = w.source // as cronus cascade: not "cronus" for imported trees
			}
			f.Ensemble.Params = w.modelParams
			f.SetStageSigma(s.sigma)
			var err error
			if outs[i], err = cronus.FileOutputContext(ctx, paths[i], f); err != nil {
				msg.err = err
				return msg
			}
		}
		if err := data.WriteAtomicAllContext(ctx, outs); err != nil {
			msg.err = err
			return msg
		}
		for i, s := range cs {
			w := s.run.w
			d, split := w.report()
			msg.files = append(msg.files, saved{path: paths[i], split: split, ev: cronus.Evaluate(w.e, s.c, d, w.costs.Cost, w.treeCost, reportSpecs)})
		}
		msg.at = time.Now()
		return msg
	}
}

// groupSizes counts the features of each cost group (ascending cost).
func groupSizes(costs []float64) []int {
	counts := map[float64]int{}
	var keys []float64
	for _, c := range costs {
		if counts[c] == 0 {
			keys = append(keys, c)
		}
		counts[c]++
	}
	slices.Sort(keys)
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i] = counts[k]
	}
	return out
}

// errQuit is a write not started because the workbench quit.
var errQuit = errors.New("not written: the workbench quit")

// writeGuard lets the files being written end before the workbench exits:
// a write begins only while the guard is open, and close waits for those
// under way. (Bubble Tea runs commands on goroutines of their own and
// does not wait for them: the process exited between a save's temporary
// file and its rename.)
type writeGuard struct {
	mu     sync.Mutex
	done   *sync.Cond
	n      int
	closed bool
}

func newWriteGuard() *writeGuard {
	g := &writeGuard{}
	g.done = sync.NewCond(&g.mu)
	return g
}

// begin starts a write; false when the guard is closed (do not write).
func (g *writeGuard) begin() bool {
	if g == nil { // a Model not made by New
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.n++
	return true
}

// end ends a write begin started.
func (g *writeGuard) end() {
	if g == nil {
		return
	}
	g.mu.Lock()
	g.n--
	g.done.Broadcast()
	g.mu.Unlock()
}

// close lets no write begin and waits for those under way.
func (g *writeGuard) close() {
	if g == nil {
		return
	}
	g.mu.Lock()
	g.closed = true
	for g.n > 0 {
		g.done.Wait()
	}
	g.mu.Unlock()
}
