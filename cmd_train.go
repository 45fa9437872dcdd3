package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/views"
)

// trainRanges are the ranges of train's numeric flags, as
// boost.Params.Validate and tree.GrowParams.Validate check them, and
// finite where those take +Inf: the model file records the value, and
// JSON has no infinity (it used to fail after training, writing the model).
var trainRanges = []flagRange{
	atLeast("trees", 1),
	atLeast("leaves", 2),
	between("learning-rate", 0, 1, "(]"),
	atLeast("max-depth", 0),
	atLeast("min-docs", 1),
	finiteAtLeast("min-hessian", 0),
	finiteAtLeast("l2", 0),
	finiteAtLeast("min-gain", 0),
	between("row-sample", 0, 1, "(]"),
	between("col-sample", 0, 1, "(]"),
	between("max-bins", 2, data.MaxBins, "[]"),
	atLeast("early-stop", 0),
	atLeast("truncation", 1),
	finite("sigma", 0),
	between("pair-sample", 0, boost.MaxPairSample, "[]"),
}

// runTrain is cronus train: it fits a tree ensemble (regression, binary or
// lambdarank) to --train, watching --valid, and writes the model file.
func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", stdout)
	trainF := fs.String("train", "", "training data `FILE` (required)")
	validF := fs.String("valid", "", "validation data `FILE`: metric after every tree, early stopping")
	p := boost.DefaultParams(boost.LambdaRank)
	choiceVar(fs, &p.Objective, "objective", p.Objective, "`objective`: regression, binary or lambdarank", boost.Regression, boost.Binary, boost.LambdaRank)
	fs.IntVar(&p.Trees, "trees", p.Trees, "number of trees `N`")
	fs.IntVar(&p.Grow.MaxLeaves, "leaves", p.Grow.MaxLeaves, "leaves per tree `L`")
	fs.Float64Var(&p.LearningRate, "learning-rate", p.LearningRate, "shrinkage `η`")
	fs.IntVar(&p.Grow.MaxDepth, "max-depth", p.Grow.MaxDepth, "longest root-to-leaf path; 0 = no limit")
	fs.IntVar(&p.Grow.MinDocs, "min-docs", p.Grow.MinDocs, "fewest documents in a leaf")
	fs.Float64Var(&p.Grow.MinHess, "min-hessian", p.Grow.MinHess, "smallest sum of hessians in a leaf")
	fs.Float64Var(&p.Grow.Lambda, "l2", p.Grow.Lambda, "L2 penalty on leaf values")
	fs.Float64Var(&p.Grow.MinGain, "min-gain", p.Grow.MinGain, "smallest gain G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ) a split must beat (XGBoost's gamma, LightGBM's min_gain_to_split)")
	fs.Float64Var(&p.RowSample, "row-sample", p.RowSample, "fraction of documents per tree (of queries, for lambdarank)")
	fs.Float64Var(&p.ColSample, "col-sample", p.ColSample, "fraction of features per tree")
	fs.IntVar(&p.MaxBins, "max-bins", p.MaxBins, "histogram bins per feature (2-255)")
	fs.IntVar(&p.EarlyStop, "early-stop", p.EarlyStop, "stop after `R` trees without a better validation metric (0 = off; needs --valid); keeps the best")
	metricF := fs.String("metric", p.Metric.String(), "`metric` reported on the training and validation data, which early stopping watches: ndcg@k, err@k, map@k, rr@k, p@k, recall@k or rbp@p, as eval --metrics takes them")
	fs.IntVar(&p.Truncation, "truncation", p.Truncation, "lambdarank, all pairs: pairs whose better-placed document is in the top `K`")
	fs.Float64Var(&p.Sigma, "sigma", p.Sigma, "lambdarank, all pairs: sigmoid parameter")
	lambdaNorm := fs.Bool("lambda-norm", true, "lambdarank, all pairs: LightGBM's λ normalisation (lambdarank_norm): a pair's |ΔNDCG| divided by 0.01 plus the pair's score gap, and a query's λs scaled by log2(1 + Σλ)/Σλ; false: the plain λ-gradients of Burges's LambdaMART")
	fs.IntVar(&p.PairSample, "pair-sample", p.PairSample, "lambdarank: 0 = every pair within the truncation (LightGBM); `K` from 1 to 1000 = K partners drawn per document, as XGBoost's rank:ndcg")
	fs.Uint64Var(&p.Seed, "seed", p.Seed, "random `seed` for subsampling")
	initF := fs.String("init-model", "", "go on from this model `FILE` (cronus train or import: XGBoost's xgb_model, LightGBM's init_model): its base score and trees, then --trees more; lambdarank goes on from any model, regression and binary from squared-error and logistic ones")
	out := fs.String("out", "", "model `FILE` to write (required)")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	logEvery := fs.Int("log-every", 0, "print the metrics every `N` trees and at the last, a line each on standard error, terminal or not (0 = off)")
	progressEvery := addProgressEvery(fs)
	ranges := slices.Concat(trainRanges, []flagRange{atLeast("log-every", 0)})
	if err := parseNoArgs(fs, args, ranges...); err != nil {
		return err
	}
	switch {
	case *trainF == "":
		return usageError{"--train FILE is required"}
	case *out == "":
		return usageError{"--out FILE is required"}
	}
	var err error
	if strings.Contains(*metricF, ",") {
		return usageError{fmt.Sprintf("--metric: one metric (the one early stopping and the progress lines watch; eval --metrics takes a list), got %q", *metricF)}
	}
	if p.Metric, err = metric.Parse(*metricF); err != nil {
		return flagError("metric", err)
	}
	if err := checkRanges(fs, ranges...); err != nil {
		return err
	}
	progressLog, err := checkProgressEvery(*progressEvery)
	if err != nil {
		return err
	}
	p.NoLambdaNorm = !*lambdaNorm
	if err := p.Validate(); err != nil {
		return usageError{err.Error()}
	}
	if err := checkRankFlags(fs, p); err != nil {
		return err
	}
	if p.EarlyStop > 0 && *validF == "" {
		// Without validation data there is no metric to watch: the flag
		// would be ignored and all the trees trained.
		return usageError{fmt.Sprintf("--early-stop %d needs --valid FILE: early stopping watches the metric on validation data", p.EarlyStop)}
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, []string{*trainF, *validF, *initF}, *out); err != nil {
		return err
	}
	minFeatures := 0 // the data's width at the least: the init model's
	var initM *tree.Model
	if *initF != "" {
		if p.Init, initM, err = loadModel(ctx, stderr, *initF); err != nil {
			return err
		}
		// A LightGBM model's objective with its options ("binary
		// sigmoid:2", "regression sqrt"), which the ensemble's leaves out
		// and which change what its raw scores are.
		objective := p.Init.Objective
		if full, ok := initM.Params["objective"].(string); ok && initM.Source == "lightgbm" {
			objective = full
		}
		if err := boost.Continues(p.Objective, objective); err != nil {
			return fmt.Errorf("--init-model %s: %w", *initF, err)
		}
		minFeatures = p.Init.NumFeatures
		if p.Trees > math.MaxInt-len(p.Init.Trees) {
			// The count of trees overflowed: the progress line read
			// "tree 5260/-9223372036854775789", and training went on.
			return usageError{fmt.Sprintf("--trees %d: with the %s of --init-model %s, the model would have more than %d trees", p.Trees, count(len(p.Init.Trees), "tree"), *initF, math.MaxInt)}
		}
	}
	pr := newProgress(stderr).logTo(progressLog)
	train, err := loadTrainingData(ctx, pr, *trainF, minFeatures)
	if err != nil {
		return err
	}
	if initM != nil {
		warn(stderr, initM.LibsvmReaderWarning(p.Init, train))
		warn(stderr, initAbsentWarning(initM, p.Init, train))
	}
	said := flatTrainWarning(train, p.Objective, *initF)
	if said == "" {
		said = noSplitWarning(train, p.Grow.MinDocs, *initF)
	}
	warn(stderr, said)
	if p.Objective == boost.LambdaRank && !train.HasQID && train.NumDocs() > 1 {
		// LightGBM refuses lambdarank without groups; XGBoost ranks the
		// file as one group, as we do.
		warn(stderr, fmt.Sprintf("%s has no qid: lambdarank ranks all its %d documents as one query", train.Name, train.NumDocs()))
	}
	var valid *data.Dataset
	if *validF != "" {
		if valid, err = loadData(ctx, pr, *validF, train.NumFeatures()); err != nil {
			return err
		}
		warn(stderr, flatValidWarning(valid, p, *initF))
		// Its metric, and early stopping by it, would rank the whole
		// file as one query, and say nothing of the queries.
		warn(stderr, valid.QIDWarning(train))
	}
	start := time.Now()
	pr.show("%s", setupLine(train, valid, p.Init))
	j := job.Start(ctx, func(ctx context.Context, r *job.Reporter[boost.Snapshot]) (*boost.Result, error) {
		r.Phase("binning", 0)
		return boost.Train(ctx, train, valid, p, boost.TreeReport(r.Phase, r.Report, p.Trees))
	})
	init0 := 0 // the init model's trees
	if p.Init != nil {
		init0 = len(p.Init.Trees)
	}
	logged := init0 // trees logged up to
	for ev := range j.Events() {
		if ev.Final {
			break
		}
		s := ev.Snapshot
		logged = logTrees(pr, s, logged, *logEvery)
		pr.show("%s", trainLine(s, ev.Progress.ETA))
	}
	res, err := j.Wait()
	if err == nil {
		logTrees(pr, res.History, logged, *logEvery)
	}
	pr.done()
	var me *tree.HistMemoryError
	if errors.As(err, &me) {
		return fmt.Errorf("%s: %w", *trainF, err) // the data too large, named as a reader names them
	}
	if err != nil {
		return err
	}
	if said == "" && len(res.Ensemble.Trees) == res.History.Trees {
		// (Of the trees kept: early stopping may drop later ones that split.)
		warn(stderr, singleLeafWarning(res.Ensemble.Trees[init0:], p, *initF))
	}
	seconds := time.Since(start).Seconds()
	params := map[string]any{
		"objective": p.Objective, "trees": p.Trees, "leaves": p.Grow.MaxLeaves, "learning_rate": p.LearningRate,
		"max_depth": p.Grow.MaxDepth, "min_docs": p.Grow.MinDocs, "min_hessian": p.Grow.MinHess, "l2": p.Grow.Lambda,
		"row_sample": p.RowSample, "col_sample": p.ColSample, "max_bins": p.MaxBins, "early_stop": p.EarlyStop,
		"metric": p.Metric.String(), "seed": p.Seed, "train": *trainF,
	}
	if p.Grow.MinGain > 0 { // recorded when set, so that other models stay as they were
		params["min_gain"] = p.Grow.MinGain
	}
	if p.Objective == boost.LambdaRank {
		// Sampled pairs take partners from the whole list with σ = 1:
		// record what the gradients used, not the unused defaults.
		params["pair_sample"] = p.PairSample
		if p.PairSample > 0 {
			params["sigma"] = 1.0
		} else {
			params["truncation"], params["sigma"] = p.Truncation, p.Sigma
			if p.NoLambdaNorm { // recorded when off, so that other models stay as they were
				params["lambda_norm"] = false
			}
		}
	}
	if *validF != "" {
		params["valid"] = *validF
	}
	if p.Init != nil {
		// trees counts those added; the model holds init_trees before them.
		params["init_model"], params["init_trees"] = *initF, init0
	}
	if err := writeShowing(stderr, []string{*out}, func() error {
		mo, err := tree.ModelOutputContext(ctx, *out, tree.NewModel(res.Ensemble, "cronus", params))
		if err != nil {
			return err
		}
		return data.WriteAtomicAllContext(ctx, []data.Output{mo})
	}); err != nil {
		return err
	}
	h := res.History
	report := map[string]any{
		"model": *out, "objective": p.Objective, "trees": len(res.Ensemble.Trees), "seconds": seconds,
		"threads": runtime.GOMAXPROCS(0), "metric": h.Metric,
	}
	if len(res.Ensemble.Trees) < h.Trees {
		// The history runs to the last tree built; the model written
		// keeps only the best trees (early stopping), so measure those.
		scores := res.Ensemble.Predict(nil, train.Cols, train.NumDocs(), -1)
		report["train_metric"] = metric.Mean(p.Metric, scores, train.Labels, train.QueryOffsets, metric.Options{})
	} else if i, ok := lastMeasured(h.Train); ok {
		report["train_metric"] = h.Train[i]
	}
	if len(h.Valid) > 0 {
		report["valid_metric"], report["best_trees"] = h.BestValid, h.BestTrees
	}
	if h.StoppedAt > 0 { // as the text's "(early stop at N)"
		report["stopped_at"] = h.StoppedAt
	}
	if p.Init != nil {
		report["init_trees"] = init0
	}
	if *jsonOut {
		return writeJSON(stdout, report)
	}
	fmt.Fprintf(stdout, "wrote %s: %s (%s", views.Printable(*out), count(len(res.Ensemble.Trees), "tree"), p.Objective)
	if p.Init != nil {
		fmt.Fprintf(stdout, ", the first %d from %s", init0, *initF)
	}
	fmt.Fprintf(stdout, ") in %.1fs", seconds)
	if len(h.Valid) > 0 {
		fmt.Fprintf(stdout, "; best valid %s %.4f at %s", h.Metric, h.BestValid, count(h.BestTrees, "tree"))
		if h.StoppedAt > 0 {
			fmt.Fprintf(stdout, " (early stop at %d)", h.StoppedAt)
		}
	}
	fmt.Fprintln(stdout)
	return nil
}

// flatValidWarning says when every ranking of the validation set d scores
// the same by the training metric (flatUnder), so the metric cannot tell
// models apart and early stopping keeps the first tree, or, going on from
// the model init (a path; "" for none), init's trees alone; "" otherwise.
func flatValidWarning(d *data.Dataset, p boost.Params, init string) string {
	flat, score := flatUnder(d, p.Metric)
	if !flat {
		return ""
	}
	w := flatWhy(d, p.Metric, score, "model") + ", so the validation metric cannot tell them apart"
	switch {
	case p.EarlyStop > 0 && init != "":
		w += fmt.Sprintf(", and --early-stop keeps the trees of %s alone, adding none", init)
	case p.EarlyStop > 0:
		w += ", and --early-stop keeps the first tree"
	}
	return w
}

// setupLine is train's progress line until the first tree: the binning
// of train, and with an init model (e) the scoring of train and valid
// (nil without) by its trees, which on large data is the longer part (an
// imported model of 2,000 trees 9 deep: about 5 s on 50,000 documents,
// under a line that said binning only).
func setupLine(train, valid *data.Dataset, e *tree.Ensemble) string {
	line := fmt.Sprintf("training: binning %d documents × %d features", train.NumDocs(), train.NumFeatures())
	if e == nil {
		return line
	}
	docs := train.NumDocs()
	if valid != nil {
		docs += valid.NumDocs()
	}
	return line + fmt.Sprintf(", scoring %d documents with the init model's %s", docs, count(len(e.Trees), "tree"))
}

// initAbsentWarning says when the training set d leaves feature values out
// and the init model m (ensemble e), imported from XGBoost, sends a missing
// value the other way than 0 at some split: training reads them as 0 (it
// has no --absent missing), so it goes on from scores that are not the
// ones XGBoost's xgb_model would start from, as predict warns of its
// scores; "" otherwise.
func initAbsentWarning(m *tree.Model, e *tree.Ensemble, d *data.Dataset) string {
	absent := d.LeftOut()
	if m.Source != "xgboost" || absent == 0 {
		return ""
	}
	differ, total := e.MissingSplitsOf(-1, func(f int) bool { return d.LeftOutOf(f) > 0 })
	if differ == 0 {
		return ""
	}
	return fmt.Sprintf("%s leaves %d feature values out of its lines, which training reads as 0 and XGBoost as missing; "+
		"this XGBoost model sends a missing value the other way than 0 at %d of its %d splits, "+
		"so training goes on from scores that are not XGBoost's on this file (predict --absent missing gives those)",
		d.Name, absent, differ, total)
}

// flatTrainWarning says when the training set d gives objective nothing
// to learn, so that every tree is a leaf and the model scores every
// document alike: for lambdarank, when no query has two documents of
// different gains (a label ≤ 0 has gain 0), which every λ-gradient needs;
// for the others, when every label is the same (for binary, the class).
// "" otherwise. Going on from the model init (a path; "" for none), the
// documents start from its scores, not alike: regression and binary then
// have residuals to fit whatever the labels, and lambdarank's added trees
// are leaves of 0, so the model scores as init does.
func flatTrainWarning(d *data.Dataset, objective, init string) string {
	if objective == boost.LambdaRank {
		for q := range d.NumQueries() {
			lo, hi := d.Query(q)
			for _, l := range d.Labels[lo+1 : hi] {
				if max(l, 0) != max(d.Labels[lo], 0) {
					return ""
				}
			}
		}
		scores := "the model scores every document 0"
		if init != "" {
			scores = fmt.Sprintf("the trees added are leaves of 0: the model scores every document as %s does", init)
		}
		return fmt.Sprintf("%s: no query has a document labelled above 0 beside one of another label: lambdarank has no pair to learn from, and %s", d.Name, scores)
	}
	if init != "" {
		return ""
	}
	for _, l := range d.Labels[1:] {
		if objective == boost.Binary && (l > 0) != (d.Labels[0] > 0) || objective != boost.Binary && l != d.Labels[0] {
			return ""
		}
	}
	which := fmt.Sprintf("labelled %g", d.Labels[0])
	if objective == boost.Binary {
		which = "negative (label ≤ 0)"
		if d.Labels[0] > 0 {
			which = "positive (label > 0)"
		}
	}
	return fmt.Sprintf("%s: every document is %s: there is nothing to learn, and the model scores every document alike", d.Name, which)
}

// noSplitWarning says, when no tree can split on the training data d,
// that every tree is a single leaf: d has fewer documents than the two
// leaves of a split need (minDocs each, --min-docs), or every feature has
// one value on every document; "" otherwise. train built such trees
// without a word (a helper's review of degenerate data: 6 documents under
// the default --min-docs 50, or every feature constant).
func noSplitWarning(d *data.Dataset, minDocs int, init string) string {
	var why string
	switch {
	case d.NumDocs()/2 < minDocs:
		why = fmt.Sprintf("%s has %s, fewer than twice --min-docs %d (the documents each side of a split needs)", d.Name, count(d.NumDocs(), "document"), minDocs)
	case d.Constant():
		why = fmt.Sprintf("%s: every feature has one value on every document", d.Name)
	default:
		return ""
	}
	if init != "" {
		return fmt.Sprintf("%s: no tree added can split, and the model ranks the documents as %s does", why, init)
	}
	return why + ": no tree can split, and the model scores every document alike"
}

// singleLeafWarning says, when every tree of trees (those trained) is a
// single leaf, why no split was taken: --min-gain, --min-docs, --min-hessian
// and --l2 (tree.SingleLeafWarning); "" otherwise. noSplitWarning foresees
// the plain cases before training; this one says what training found, as
// when no feature of 120 documents had 50 of them each side of a value
// (train wrote a model of single leaves without a word; a helper's review
// of the no-split warning). With --row-sample or --col-sample below 1 it
// says that the limits held on what each tree drew: a row sample of one
// document a tree split nothing, and the warning named the limits alone.
func singleLeafWarning(trees []tree.Tree, p boost.Params, init string) string {
	end := "and the model scores every document alike"
	if init != "" {
		end = fmt.Sprintf("and the model ranks the documents as %s does", init)
	}
	row := fmt.Sprintf("--row-sample %g", p.RowSample)
	col := fmt.Sprintf("--col-sample %g", p.ColSample)
	switch {
	case p.RowSample < 1 && p.ColSample < 1:
		end = fmt.Sprintf("on the share of the data and of the features each tree drew (%s, %s), %s", row, col, end)
	case p.RowSample < 1:
		end = fmt.Sprintf("on the share of the data each tree drew (%s), %s", row, end)
	case p.ColSample < 1:
		end = fmt.Sprintf("on the features each tree drew (%s), %s", col, end)
	}
	return tree.SingleLeafWarning(trees, p.Grow, end)
}

// flatUnder reports whether every ranking of d scores the same by spec
// (its ideal ranking no more than its worst, the labels reversed: every
// query's documents are equally relevant, or none is), so that spec cannot
// tell models apart on d, and the score they all get (0 when no document
// is relevant).
func flatUnder(d *data.Dataset, spec metric.Spec) (flat bool, score float64) {
	ideal := make([]float64, d.NumDocs())
	worst := make([]float64, d.NumDocs())
	for i, l := range d.Labels {
		ideal[i], worst[i] = float64(l), -float64(l)
	}
	hi := metric.Mean(spec, ideal, d.Labels, d.QueryOffsets, metric.Options{})
	lo := metric.Mean(spec, worst, d.Labels, d.QueryOffsets, metric.Options{})
	if !(hi > 0) {
		return true, 0
	}
	return !(hi > lo), hi
}

// flatWhy is what flatUnder's verdict on d means: no document relevant to
// spec, so that every one of them (models, cascades) scores 0, or every
// query's documents equally relevant, so that every one scores score.
func flatWhy(d *data.Dataset, spec metric.Spec, score float64, them string) string {
	if score == 0 {
		return fmt.Sprintf("%s has no document relevant to %s: every %s scores 0 on it", d.Name, spec, them)
	}
	return fmt.Sprintf("%s: in every query the documents are equally relevant: every %s scores %.4g by %s on it", d.Name, them, score, spec)
}

// trainLine is train's progress line for snapshot s, with the ETA eta
// (none when 0).
func trainLine(s boost.Snapshot, eta time.Duration) string {
	line := fmt.Sprintf("training: tree %d/%d", s.Trees, s.Total)
	if i, ok := lastMeasured(s.Train); ok {
		line += fmt.Sprintf("  train %s %.4f", s.Metric, s.Train[i])
		if s.At[i] != s.Trees { // large data: measured now and then
			line += fmt.Sprintf(" (at tree %d)", s.At[i])
		}
	}
	if n := len(s.Valid); n > 0 {
		line += fmt.Sprintf("  valid %.4f (best %.4f at %d)", s.Valid[n-1], s.BestValid, s.BestTrees)
	}
	if eta > 0 {
		line += fmt.Sprintf("  ETA %s", eta.Round(time.Second))
	}
	return line
}

// lastMeasured returns the index of the last value of a metric history
// that is not NaN (the training metric is not measured after every tree
// on large data).
func lastMeasured(xs []float64) (int, bool) {
	for i := len(xs) - 1; i >= 0; i-- {
		if !math.IsNaN(xs[i]) {
			return i, true
		}
	}
	return 0, false
}

// checkRankFlags refuses LambdaMART's flags where they would be ignored:
// with another objective, and --truncation, --sigma and --lambda-norm with
// sampled pairs, which draw partners from the whole list with σ = 1 and no
// normalisation (XGBoost's rank:ndcg).
// fs must be parsed (a flag left at its default is not given).
func checkRankFlags(fs *flag.FlagSet, p boost.Params) error {
	explicit := explicitFlags(fs)
	for _, name := range []string{"truncation", "sigma", "lambda-norm", "pair-sample"} {
		switch {
		case !explicit[name]:
		case p.Objective != boost.LambdaRank:
			return usageError{fmt.Sprintf("--%s and --objective %s conflict: --%s applies to --objective lambdarank only", name, p.Objective, name)}
		case p.PairSample > 0 && name != "pair-sample":
			return usageError{fmt.Sprintf("--%s and --pair-sample %d conflict: sampled pairs take partners from the whole list with σ = 1 and no λ normalisation; --%s applies to all pairs (--pair-sample 0)", name, p.PairSample, name)}
		}
	}
	return nil
}

// logTrees prints through pr, for --log-every, a line for each tree count t
// after from and up to s.Trees that is a multiple of every, and for the
// last tree once training has ended: the training and validation metric
// at t where the history has them, and the best validation value up to t.
// It returns the tree count logged up to, which leaves out the newest tree
// while it may still be the last; every 0 logs nothing.
func logTrees(pr *progress, s boost.Snapshot, from, every int) int {
	if every <= 0 {
		return from
	}
	last := s.Trees == s.Total || s.StoppedAt > 0
	for t := from + 1; t <= s.Trees; t++ {
		if t%every != 0 && !(last && t == s.Trees) {
			continue
		}
		line := fmt.Sprintf("[%d/%d]", t, s.Total)
		if k, ok := slices.BinarySearch(s.At, t); ok {
			if v := s.Train[k]; !math.IsNaN(v) {
				line += fmt.Sprintf(" train %s %.4f", s.Metric, v)
			}
			if k < len(s.Valid) {
				best, at := math.Inf(-1), 0
				for i, v := range s.Valid[:k+1] {
					if v > best {
						best, at = v, s.At[i]
					}
				}
				line += fmt.Sprintf("  valid %s %.4f  (best %.4f at %d)", s.Metric, s.Valid[k], best, at)
			}
		}
		pr.println(line)
	}
	if !last && s.Trees%every != 0 {
		// The newest tree may yet turn out to be the last: a snapshot
		// of it can arrive before early stopping is known, and the
		// final call must still log it (it did not, in 9 of 20 runs).
		return max(from, s.Trees-1)
	}
	return s.Trees
}
