package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// loadData reads a data set with progress, padded to at least minFeatures.
func loadData(ctx context.Context, p *progress, name string, minFeatures int) (*data.Dataset, error) {
	return loadScoringData(ctx, p, name, minFeatures, false)
}

// loadScoringData is loadData for data to be scored; with absentMissing
// (--absent missing) left-out features read as missing values (NaN).
func loadScoringData(ctx context.Context, p *progress, name string, minFeatures int, absentMissing bool) (*data.Dataset, error) {
	return loadDataWith(ctx, p, name, data.ReadOptions{MinFeatures: minFeatures, AbsentMissing: absentMissing})
}

// loadDataWith reads a data set with the options opt, showing progress.
func loadDataWith(ctx context.Context, p *progress, name string, opt data.ReadOptions) (*data.Dataset, error) {
	opt.Progress = p.readOptions(name).Progress
	d, err := data.LoadDataset(ctx, name, opt)
	p.done()
	if err != nil {
		return nil, err
	}
	d.Name = name
	warn(p.w, d.PaddingWarning())
	warn(p.w, d.UnusedWarning(opt.MinFeatures))
	return d, nil
}

// warn prints a warning on w; "" is none.
func warn(w io.Writer, msg string) {
	if msg != "" {
		fmt.Fprintln(w, "warning: "+msg)
	}
}

func loadModel(path string) (*tree.Ensemble, *tree.Model, error) {
	m, err := tree.ReadModel(path)
	if err != nil {
		return nil, nil, err
	}
	e, err := m.Ensemble()
	return e, m, err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

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
	atLeast("pair-sample", 0),
}

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
	metricF := fs.String("metric", p.Metric.String(), "evaluation `metric` (ndcg@10, p@5, err@3, rbp@0.8, map)")
	fs.IntVar(&p.Truncation, "truncation", p.Truncation, "lambdarank, all pairs: pairs whose better-placed document is in the top `K`")
	fs.Float64Var(&p.Sigma, "sigma", p.Sigma, "lambdarank, all pairs: sigmoid parameter")
	fs.IntVar(&p.PairSample, "pair-sample", p.PairSample, "lambdarank: 0 = every pair within the truncation (LightGBM); `K` > 0 = K partners drawn per document, as XGBoost's rank:ndcg")
	fs.Uint64Var(&p.Seed, "seed", p.Seed, "random `seed` for subsampling")
	out := fs.String("out", "", "model `FILE` to write (required)")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *trainF == "":
		return usageError{"--train FILE is required"}
	case *out == "":
		return usageError{"--out FILE is required"}
	}
	var err error
	if p.Metric, err = metric.Parse(*metricF); err != nil {
		return flagError("metric", err)
	}
	if err := checkRanges(fs, trainRanges...); err != nil {
		return err
	}
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
	if err := checkOutputs(&stdout, stderr, *jsonOut, []string{*trainF, *validF}, *out); err != nil {
		return err
	}
	pr := newProgress(stderr)
	train, err := loadData(ctx, pr, *trainF, 0)
	if err != nil {
		return err
	}
	var valid *data.Dataset
	if *validF != "" {
		if valid, err = loadData(ctx, pr, *validF, train.NumFeatures()); err != nil {
			return err
		}
	}
	start := time.Now()
	j := job.Start(ctx, func(ctx context.Context, r *job.Reporter[boost.Snapshot]) (*boost.Result, error) {
		r.Phase("training", float64(p.Trees))
		return boost.Train(ctx, train, valid, p, r.Report)
	})
	for ev := range j.Events() {
		if ev.Final {
			break
		}
		s := ev.Snapshot
		line := fmt.Sprintf("training: tree %d/%d", s.Trees, s.Total)
		if v, ok := lastMeasured(s.Train); ok {
			line += fmt.Sprintf("  train %s %.4f", s.Metric, v)
		}
		if n := len(s.Valid); n > 0 {
			line += fmt.Sprintf("  valid %.4f (best %.4f at %d)", s.Valid[n-1], s.BestValid, s.BestTrees)
		}
		if ev.Progress.ETA > 0 {
			line += fmt.Sprintf("  ETA %s", ev.Progress.ETA.Round(time.Second))
		}
		pr.show("%s", line)
	}
	pr.done()
	res, err := j.Wait()
	if err != nil {
		return err
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
		}
	}
	if *validF != "" {
		params["valid"] = *validF
	}
	if err := tree.WriteModel(*out, tree.NewModel(res.Ensemble, "cronus", params)); err != nil {
		return err
	}
	h := res.History
	report := map[string]any{
		"model": *out, "objective": p.Objective, "trees": len(res.Ensemble.Trees), "seconds": seconds,
		"threads": runtime.GOMAXPROCS(0), "metric": h.Metric,
	}
	if h.StoppedAt > 0 {
		// The history runs to the last tree built; the model written
		// keeps only the best trees, so measure those.
		scores := res.Ensemble.Predict(nil, train.Cols, train.NumDocs(), -1)
		report["train_metric"] = metric.Mean(p.Metric, scores, train.Labels, train.QueryOffsets, metric.Options{})
	} else if v, ok := lastMeasured(h.Train); ok {
		report["train_metric"] = v
	}
	if len(h.Valid) > 0 {
		report["valid_metric"], report["best_trees"] = h.BestValid, h.BestTrees
	}
	if *jsonOut {
		return writeJSON(stdout, report)
	}
	fmt.Fprintf(stdout, "wrote %s: %s (%s) in %.1fs", *out, count(len(res.Ensemble.Trees), "tree"), p.Objective, seconds)
	if len(h.Valid) > 0 {
		fmt.Fprintf(stdout, "; best valid %s %.4f at %s", h.Metric, h.BestValid, count(h.BestTrees, "tree"))
		if h.StoppedAt > 0 {
			fmt.Fprintf(stdout, " (early stop at %d)", h.StoppedAt)
		}
	}
	fmt.Fprintln(stdout)
	return nil
}

// lastMeasured returns the last value of a metric history that is not NaN
// (the training metric is not measured after every tree on large data).
func lastMeasured(xs []float64) (float64, bool) {
	for i := len(xs) - 1; i >= 0; i-- {
		if !math.IsNaN(xs[i]) {
			return xs[i], true
		}
	}
	return 0, false
}

// writeStdout writes through write to stdout, buffered.
func writeStdout(stdout io.Writer, write func(w *bufio.Writer) error) error {
	w := bufio.NewWriter(stdout)
	if err := write(w); err != nil {
		return err
	}
	return w.Flush()
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", stdout)
	modelF := fs.String("model", "", "model `FILE` to score the data with")
	cascadeF := fs.String("cascade", "", "or a cascade `FILE` (cronus cascade): documents run through its stages for real, and each line is the document's ranking key in the cascade's order (see --exits)")
	dataF := fs.String("data", "", "data `FILE` to score (required)")
	k := newTreesFlag(fs)
	out := fs.String("out", "", "write the scores to `FILE` (default standard output)")
	exitsF := fs.String("exits", "", "with --cascade: write to `FILE` a TSV line per document: qid, docid, the stage it left at (1 = the first), its score there, and what it paid for features and for trees")
	costsF := fs.String("costs", "", "with --cascade: feature cost `FILE` for --exits and the report (default: the cascade's own costs)")
	asJSON := fs.Bool("json", false, "print a JSON report; it holds the scores unless --out is given")
	absent := newAbsentFlag(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case countSet(*modelF, *cascadeF) == 2:
		return usageError{"give one of --model FILE and --cascade FILE, not both"}
	case *dataF == "" || countSet(*modelF, *cascadeF) != 1:
		return usageError{"--data FILE and one of --model FILE and --cascade FILE are required"}
	}
	explicit := explicitFlags(fs)
	if *cascadeF == "" {
		for _, name := range []string{"exits", "costs"} {
			if explicit[name] {
				return usageError{"--" + name + " applies to --cascade only"}
			}
		}
	} else if explicit["trees"] {
		return usageError{"--trees applies to --model only: a cascade's stages say which trees a document evaluates"}
	}
	switch {
	case *asJSON && *out == "-":
		return usageError{"--json prints the report on standard output; give --out FILE for the scores, or leave --out out to have them in the report"}
	case (*out == "" || *out == "-") && isStdout(*exitsF):
		return usageError{fmt.Sprintf("--exits %s: the scores go to standard output; give --out FILE for them", *exitsF)}
	}
	outputs := []string{*exitsF}
	if *out != "-" {
		outputs = append(outputs, *out)
	}
	if err := checkOutputs(&stdout, stderr, *asJSON, []string{*modelF, *cascadeF, *dataF, *costsF}, outputs...); err != nil {
		return err
	}
	e, m, cf, minFeatures, err := loadScorer(*modelF, *cascadeF, *k)
	if err != nil {
		return err
	}
	d, err := loadScoringData(ctx, newProgress(stderr), *dataF, minFeatures, bool(*absent))
	if err != nil {
		return err
	}
	report := map[string]any{"data": *dataF, "docs": d.NumDocs(), "queries": d.NumQueries()}
	var scores []float64
	var files []data.Output // written all or none
	if e != nil {
		warn(stderr, m.AbsentWarning(e, int(*k), d))
		start := time.Now()
		if scores, err = e.PredictContext(ctx, nil, d.Cols, d.NumDocs(), int(*k)); err != nil {
			return err
		}
		trees := len(e.Trees)
		if *k >= 0 {
			trees = int(*k)
		}
		report["model"], report["trees"], report["predict_seconds"] = *modelF, trees, time.Since(start).Seconds()
	} else {
		r, err := scoreCascade(ctx, cf, *cascadeF, *costsF, d, stderr)
		if err != nil {
			return err
		}
		scores = r.Key
		report["cascade"], report["stages"], report["reached"], report["cost"], report["predict_seconds"] =
			*cascadeF, len(r.Reached), r.Reached, r.Cost, r.seconds
		if *exitsF != "" {
			files = append(files, exitsOutput(*exitsF, d, r.Result))
			report["exits"] = *exitsF
		}
	}
	// An interrupt after scoring writes nothing.
	if err := ctx.Err(); err != nil {
		return err
	}
	writeScores := func(w *bufio.Writer) error {
		var b []byte
		for _, s := range scores {
			b = strconv.AppendFloat(b[:0], s, 'g', -1, 64)
			b = append(b, '\n')
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
	// The scores on standard output are written last, after the files.
	toStdout := *out == "" || *out == "-"
	if !toStdout {
		files = append(files, data.Output{Path: *out, Write: writeScores})
	}
	if err := data.WriteAtomicAll(files); err != nil {
		return err
	}
	switch {
	case *asJSON && *out == "":
		report["scores"] = scores
		return writeJSON(stdout, report)
	case toStdout:
		return writeStdout(stdout, writeScores)
	case *asJSON:
		report["out"] = *out
		return writeJSON(stdout, report)
	}
	return nil
}

// cascadeAbsentWarning says when d leaves feature values out and was read
// the other way (--absent) than the cascade of file cascadeF was made (its
// params' "absent"): its figures are then not the cascade's.
func cascadeAbsentWarning(cascadeF string, cf *cronus.File, d *data.Dataset) string {
	made, read := absentFlag(cf.Params["absent"] == "missing"), absentFlag(d.AbsentMissing)
	if d.Absent == 0 || made == read {
		return ""
	}
	reading := map[absentFlag]string{false: "as 0", true: "as missing"}
	return fmt.Sprintf("%s leaves %d feature values out of its lines, read here %s; the cascade %s was made reading them %s: --absent %s scores it as it was made",
		d.Name, d.Absent, reading[read], cascadeF, reading[made], made.String())
}

// cascadeRun is a cascade's scoring of a data set and how long it took.
type cascadeRun struct {
	cronus.Result
	seconds float64
}

// scoreCascade runs the documents of d through the cascade of file cf
// (read from path), with the feature costs of costsF ("": the cascade's
// own), and warns when d is read otherwise than the cascade was made. The
// scoring stops when ctx is done, and returns its error.
func scoreCascade(ctx context.Context, cf *cronus.File, path, costsF string, d *data.Dataset, stderr io.Writer) (cascadeRun, error) {
	ce, c, err := cf.Cascade()
	if err != nil {
		return cascadeRun{}, err
	}
	warn(stderr, cascadeAbsentWarning(path, cf, d))
	featCost := cf.FeatureCost
	if costsF != "" {
		costs, err := loadCosts(costsF, ce.NumFeatures, stderr)
		if err != nil {
			return cascadeRun{}, err
		}
		featCost = costs.Cost
	}
	t0 := time.Now()
	r, err := cronus.ScoreContext(ctx, ce, c, d, featCost, cf.TreeCost)
	return cascadeRun{r, time.Since(t0).Seconds()}, err
}

// exitsOutput is the file that gives, per document of d in input order,
// where it left the cascade (r) as TSV: a header, then qid, docid (as a
// TREC run names it), the 1-based stage it left at, its score there, and
// the cost it paid for features and for trees.
func exitsOutput(path string, d *data.Dataset, r cronus.Result) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		w.WriteString("qid\tdocid\tstage\tscore\tfeature_cost\ttree_cost\n")
		var b []byte
		for q, id := range d.QueryIDs {
			lo, hi := d.Query(q)
			for i := lo; i < hi; i++ {
				b = strconv.AppendInt(b[:0], int64(id), 10)
				b = append(b, '\t')
				b = append(b, trecDocID(d.DocID(i), i)...)
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(r.Exit[i]+1), 10)
				for _, v := range []float64{r.Score[i], r.FeatureCost[i], r.TreeCost[i]} {
					b = append(b, '\t')
					b = strconv.AppendFloat(b, v, 'g', -1, 64)
				}
				b = append(b, '\n')
				if _, err := w.Write(b); err != nil {
					return err
				}
			}
		}
		return nil
	}}
}

// checkRankFlags refuses LambdaMART's flags where they would be ignored:
// with another objective, and --truncation and --sigma with sampled pairs,
// which draw partners from the whole list with σ = 1 (XGBoost's rank:ndcg).
// fs must be parsed (a flag left at its default is not given).
func checkRankFlags(fs *flag.FlagSet, p boost.Params) error {
	explicit := explicitFlags(fs)
	for _, name := range []string{"truncation", "sigma", "pair-sample"} {
		switch {
		case !explicit[name]:
		case p.Objective != boost.LambdaRank:
			return usageError{fmt.Sprintf("--%s and --objective %s conflict: --%s applies to --objective lambdarank only", name, p.Objective, name)}
		case p.PairSample > 0 && name != "pair-sample":
			return usageError{fmt.Sprintf("--%s and --pair-sample %d conflict: sampled pairs take partners from the whole list with σ = 1; --%s applies to all pairs (--pair-sample 0)", name, p.PairSample, name)}
		}
	}
	return nil
}

// countSet counts the non-empty strings.
func countSet(xs ...string) int {
	n := 0
	for _, x := range xs {
		if x != "" {
			n++
		}
	}
	return n
}

// readScores reads eval's --scores file for the documents of d.
func readScores(path string, d *data.Dataset) ([]float64, error) {
	f, err := data.OpenFile(path, "a file of scores, one per line")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseScores(f, path, d.QueryIDs, d.QueryOffsets)
}

// parseScores reads a file of scores, a line per document in the data's
// order, for the queries qids whose documents are offsets[q] to
// offsets[q+1]−1. A line is one score, or RankLib's -score output
// "qid<TAB>index<TAB>score" (index: the document's place in its query,
// from 0), whose qid and index must be the document's; the format of the
// first line holds for the file. Every score must be finite.
func parseScores(r io.Reader, path string, qids []int64, offsets []int) ([]float64, error) {
	want := 0
	if len(offsets) > 0 {
		want = offsets[len(offsets)-1]
	}
	var scores []float64
	sc := bufio.NewScanner(r)
	line, fields, q := 0, 0, 0 // fields: 1 or 3, set by the first line
	for sc.Scan() {
		line++
		t := sc.Text()
		if line == 1 {
			t = strings.TrimPrefix(t, "\ufeff") // a UTF-8 byte order mark, as data files may start with
		}
		f := strings.Fields(t)
		switch {
		case len(f) == 0:
			return nil, fmt.Errorf("%s:%d: blank line; expected one score per line, a line per document", path, line)
		case fields == 0 && (len(f) == 1 || len(f) == 3):
			fields = len(f)
		case fields == 0:
			return nil, fmt.Errorf("%s:%d: %s; expected one score per line, or RankLib's qid, index and score", path, line, count(len(f), "field"))
		case len(f) != fields:
			form := "one score"
			if fields == 3 {
				form = "qid, index and score (RankLib's -score output)"
			}
			return nil, fmt.Errorf("%s:%d: %s; the file's first line has %s, and so must every line", path, line, count(len(f), "field"), form)
		}
		doc := len(scores)
		if doc >= want {
			return nil, fmt.Errorf("%s:%d: more scores than the %d documents of the data", path, line, want)
		}
		for doc >= offsets[q+1] {
			q++
		}
		if fields == 3 {
			id, err1 := strconv.ParseInt(f[0], 10, 64)
			k, err2 := strconv.Atoi(f[1])
			if err1 != nil || err2 != nil || id != qids[q] || k != doc-offsets[q] {
				return nil, fmt.Errorf("%s:%d: %q %q: expected query %d, index %d (the data's document %d)", path, line, f[0], f[1], qids[q], doc-offsets[q], doc+1)
			}
		}
		t = f[len(f)-1]
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: score %q is not a number; expected one score per line", path, line, t)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s:%d: score %q is not a finite number", path, line, t)
		}
		scores = append(scores, v)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: line longer than %d KiB; expected one score per line", path, line+1, bufio.MaxScanTokenSize>>10)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(scores) != want {
		return nil, fmt.Errorf("%s: %d scores for %d documents", path, len(scores), want)
	}
	return scores, nil
}

// trecDocID picks the document id for a TREC run line from the comment
// kept by the reader: the value after "docid =" (LETOR), else the first word,
// else the document's position.
func trecDocID(comment string, i int) string {
	if _, rest, ok := strings.Cut(comment, "docid ="); ok {
		if f := strings.Fields(rest); len(f) > 0 {
			return f[0]
		}
	}
	if f := strings.Fields(comment); len(f) > 0 {
		return f[0]
	}
	return "doc" + strconv.Itoa(i+1)
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stdout)
	modelF := fs.String("model", "", "model `FILE` to score the data with")
	scoresF := fs.String("scores", "", "or a `FILE` of scores, one per document (as cronus predict writes), or RankLib's -score output")
	cascadeF := fs.String("cascade", "", "or a cascade `FILE` (cronus cascade): documents run through its stages for real; the cost is what they paid")
	dataF := fs.String("data", "", "data `FILE` (required)")
	costsF := fs.String("costs", "", "with --model or --cascade: feature cost `FILE` for the cost per document (default: every feature costs 1; a cascade's own costs with --cascade)")
	k := newTreesFlag(fs)
	treeCost := fs.Float64("tree-cost", 1, "cost of evaluating one tree on one document")
	metricsF := fs.String("metrics", "p@5,ndcg@10,err@3,rbp@0.8,map", "comma-separated `metrics`")
	relevant := fs.Float64("relevant", 1, "P@k, MAP, RBP: a document is relevant when its label >= `r` (> 0; NDCG and ERR: label > 0)")
	exclude := fs.Bool("exclude-no-relevant", false, "leave queries without relevant documents out of the means, each metric's own (NDCG, ERR: no label > 0; P@k, MAP, RBP: none >= --relevant); default: they score 0")
	perQuery := fs.String("per-query", "", "write per-query values as TSV to `FILE`")
	runF := fs.String("run", "", "write a TREC run (qid Q0 docid rank score tag) to `FILE`")
	tag := fs.String("tag", "cronus", "run `tag` for --run (the last column of each line)")
	jsonOut := fs.Bool("json", false, "print JSON")
	absent := newAbsentFlag(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *dataF == "":
		return usageError{"--data FILE is required"}
	case countSet(*modelF, *scoresF, *cascadeF) != 1:
		return usageError{"give exactly one of --model FILE, --scores FILE and --cascade FILE"}
	case *tag == "" || strings.ContainsAny(*tag, " \t\n\r"):
		return usageError{fmt.Sprintf("--tag %q: a TREC run tag is one word, without blanks", *tag)}
	case *runF == "" && explicitFlags(fs)["tag"]:
		return usageError{"--tag applies to --run only: it is the last column of the TREC run"}
	}
	// --relevant 0 would be every document of 0-4 data, and metric.Options
	// takes it as the default 1; a label ≤ 0 is never relevant anyway.
	if err := checkRanges(fs, finite("relevant", 0), between("tree-cost", 0, data.MaxCost, "[]")); err != nil {
		return err
	}
	if *modelF == "" {
		// They shape a model's scores and cost; a cascade brings its own.
		explicit := explicitFlags(fs)
		for _, name := range []string{"trees", "tree-cost"} {
			if explicit[name] {
				return usageError{"--" + name + " applies to --model only"}
			}
		}
		if *scoresF != "" && explicit["absent"] {
			return usageError{"--absent applies to --model and --cascade, which read the features"}
		}
		if *scoresF != "" && explicit["costs"] {
			return usageError{"--costs applies to --model and --cascade, which extract the features; scores made elsewhere have no cost here"}
		}
	}
	specs, err := metric.ParseList(*metricsF)
	if err != nil {
		return flagError("metrics", err)
	}
	if explicitFlags(fs)["relevant"] && !slices.ContainsFunc(specs, metric.Spec.BinaryRelevance) {
		return usageError{fmt.Sprintf("--relevant applies to p@k, map and rbp, which count the documents with a label >= r; --metrics %s reads the graded labels", *metricsF)}
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, []string{*modelF, *scoresF, *cascadeF, *dataF, *costsF}, *perQuery, *runF); err != nil {
		return err
	}
	e, m, cf, minFeatures, err := loadScorer(*modelF, *cascadeF, *k)
	if err != nil {
		return err
	}
	// Scores made elsewhere need only the labels and qids: a file of those
	// alone is data enough for them.
	d, err := loadDataWith(ctx, newProgress(stderr), *dataF,
		data.ReadOptions{MinFeatures: minFeatures, AbsentMissing: bool(*absent), LabelsOnly: *scoresF != ""})
	if err != nil {
		return err
	}
	warn(stderr, m.AbsentWarning(e, int(*k), d))
	var scores []float64
	var cost *metric.Cost
	var predictSeconds float64
	var reached []float64 // a cascade's fraction of documents reaching each stage
	if e != nil {
		t0 := time.Now()
		if scores, err = e.PredictContext(ctx, nil, d.Cols, d.NumDocs(), int(*k)); err != nil {
			return err
		}
		predictSeconds = time.Since(t0).Seconds()
		costs, err := loadCosts(*costsF, d.NumFeatures(), stderr)
		if err != nil {
			return err
		}
		trees := len(e.Trees)
		if *k >= 0 && int(*k) < trees {
			trees = int(*k)
		}
		c := metric.EnsembleCost(e.Features(int(*k)), costs.Cost, trees, *treeCost)
		cost = &c
	} else if cf != nil {
		r, err := scoreCascade(ctx, cf, *cascadeF, *costsF, d, stderr)
		if err != nil {
			return err
		}
		scores, cost, reached, predictSeconds = r.Key, &r.Cost, r.Reached, r.seconds
	} else if scores, err = readScores(*scoresF, d); err != nil {
		return err
	}
	opt := metric.Options{RelevantLabel: *relevant, ExcludeNoRelevant: *exclude}
	// A metric for which --exclude-no-relevant leaves out every query has
	// no mean: it is n/a (null in --json), with a warning; when every
	// metric asked for is, that is an error.
	values := map[string]any{}
	var undefined []string // the warnings
	perQ := make([][]float64, len(specs))
	for i, s := range specs {
		v := metric.Mean(s, scores, d.Labels, d.QueryOffsets, opt)
		values[s.String()] = v
		if math.IsNaN(v) {
			values[s.String()] = nil
			rel := "a label > 0" // each metric's own "relevant"
			if s.BinaryRelevance() {
				rel = fmt.Sprintf("a label >= %g (--relevant)", *relevant)
			}
			undefined = append(undefined, fmt.Sprintf("%s: %s: no query has %s, and --exclude-no-relevant leaves none to average", *dataF, s, rel))
		}
		perQ[i] = metric.PerQuery(s, scores, d.Labels, d.QueryOffsets, opt, nil)
	}
	if len(undefined) == len(specs) {
		return errors.New(undefined[0])
	}
	// An interrupt after scoring writes nothing.
	if err := ctx.Err(); err != nil {
		return err
	}
	var files []data.Output // written all or none
	if *perQuery != "" {
		files = append(files, perQueryOutput(*perQuery, d, specs, perQ))
	}
	repeated := ""
	if *runF != "" {
		files = append(files, runOutput(*runF, d, scores, *tag, &repeated))
	}
	if err := data.WriteAtomicAll(files); err != nil {
		return err
	}
	warn(stderr, repeated)
	for _, u := range undefined {
		warn(stderr, u+"; it is n/a (null in --json)")
	}
	conv := metric.Convention(opt)
	if *jsonOut {
		r := map[string]any{"metrics": values, "queries": d.NumQueries(), "docs": d.NumDocs(), "convention": conv}
		if cost != nil {
			r["cost"] = cost
			r["predict_seconds"] = predictSeconds
		}
		if reached != nil {
			r["reached"] = reached
		}
		return writeJSON(stdout, r)
	}
	fmt.Fprintf(stdout, "%s: %s, %s\n", *dataF, count(d.NumQueries(), "query"), count(d.NumDocs(), "document"))
	for _, s := range specs {
		if v, ok := values[s.String()].(float64); ok {
			fmt.Fprintf(stdout, "  %-10s %.4f\n", s.String(), v)
		} else {
			fmt.Fprintf(stdout, "  %-10s n/a\n", s.String())
		}
	}
	if cost != nil {
		fmt.Fprintf(stdout, "  cost/doc   %.1f (features %.1f, trees %.1f)\n", cost.Total, cost.Features, cost.Trees)
	}
	if reached != nil {
		fmt.Fprintf(stdout, "  reached   ")
		for _, f := range reached {
			fmt.Fprintf(stdout, " %.3f", f)
		}
		fmt.Fprintf(stdout, "  (fraction of documents reaching each stage)\n")
	}
	fmt.Fprintf(stdout, "  convention: %s\n", conv)
	return nil
}

// perQueryOutput is the file of per-query metric values as TSV: a header
// "qid" and the metrics' names, then a line per query; perQ[i][q] is metric
// i's value on query q.
func perQueryOutput(path string, d *data.Dataset, specs []metric.Spec, perQ [][]float64) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		w.WriteString("qid")
		for _, s := range specs {
			w.WriteString("\t" + s.String())
		}
		w.WriteString("\n")
		for q, id := range d.QueryIDs {
			w.WriteString(strconv.FormatInt(id, 10))
			for i := range specs {
				w.WriteString("\t" + strconv.FormatFloat(perQ[i][q], 'g', -1, 64))
			}
			w.WriteString("\n")
		}
		return nil
	}}
}

// runOutput is the file of a TREC run: per query, documents by descending
// score (ties in input order), "qid Q0 docid rank score tag". Writing it
// sets *repeated to a warning when a query has a document id twice (ids
// from comments, say "doc-12 title…" of two documents): TREC tools take a
// document once per query, so the run would not be scored as Cronus scores
// it.
func runOutput(path string, d *data.Dataset, scores []float64, tag string, repeated *string) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		var order []int
		seen := map[string]int{}
		for q, id := range d.QueryIDs {
			lo, hi := d.Query(q)
			order = order[:0]
			for i := lo; i < hi; i++ {
				order = append(order, i)
			}
			sortByScore(order, scores)
			clear(seen)
			for r, i := range order {
				doc := trecDocID(d.DocID(i), i)
				if j, ok := seen[doc]; ok && *repeated == "" {
					*repeated = fmt.Sprintf("%s: qid %d has the document id %q twice (its documents %d and %d): TREC tools such as trec_eval expect each document once per query; give the documents distinct ids (\"docid = …\" in the comment)",
						path, id, doc, min(i, j)-lo+1, max(i, j)-lo+1)
				}
				seen[doc] = i
				fmt.Fprintf(w, "%d Q0 %s %d %s %s\n", id, doc, r+1, strconv.FormatFloat(scores[i], 'g', -1, 64), tag)
			}
		}
		return nil
	}}
}

// sortByScore orders document indices (ascending on entry) by descending
// score, ties by index.
func sortByScore(order []int, scores []float64) {
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
}

// importFormats are the words of import's --from.
var importFormats = []string{"lightgbm", "xgboost", "ranklib"}

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stdout)
	from := new(string)
	choiceVar(fs, from, "from", "", "`format` of the input: lightgbm (model.txt), xgboost (JSON from Booster.save_model) or ranklib (a LambdaMART, MART or Random Forests model saved by RankLib's -save)", importFormats...)
	libsvm := fs.Bool("libsvm-indices", false, "xgboost: the model was trained on XGBoost's own libsvm reader (DMatrix(\"train.txt?format=libsvm\")), whose f{k} is the file's feature k; without it f{k} is feature k+1 (column k of a matrix)")
	byName := fs.Bool("by-name", false, "xgboost, lightgbm: the model's feature names are the features' numbers (a frame of selected features named \"3\", \"7\", \"12\"), and each column is the feature its name says")
	zeroBased := fs.Bool("zero-based", false, "lightgbm: the model was trained on 0-based columns (a matrix, as from numpy, pandas or scikit-learn's load_svmlight_file), whose column j is feature j+1; without it column j is feature j, as when LightGBM reads the SVMlight file itself")
	out := fs.String("out", "", "model `FILE` to write (required)")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usageError{"expected one input model FILE"}
	case *from == "":
		return usageError{"--from FORMAT is required: " + orList(importFormats)}
	case *out == "":
		return usageError{"--out FILE is required"}
	case *libsvm && *from != "xgboost":
		return usageError{"--libsvm-indices applies to --from xgboost only"}
	case *byName && *from == "ranklib":
		return usageError{"--by-name applies to --from xgboost and lightgbm, whose models name their features"}
	case *byName && (*libsvm || *zeroBased):
		return usageError{"--by-name, --libsvm-indices and --zero-based are ways to number the features; give one"}
	case *zeroBased && *from != "lightgbm":
		return usageError{"--zero-based applies to --from lightgbm only"}
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, pos, *out); err != nil {
		return err
	}
	e, params, err := tree.ImportFileWith(*from, pos[0], tree.ImportOptions{LibSVMIndices: *libsvm, ByName: *byName, ZeroBased: *zeroBased})
	if err != nil {
		return err
	}
	if *from == "xgboost" {
		for _, n := range xgbImportNotes(e, params, *libsvm, *byName) {
			fmt.Fprintln(stderr, n)
		}
	}
	if splitsOnFirst(e) == 0 && *zeroBased {
		fmt.Fprintln(stderr, "note: the model never splits on column 0 (feature 1): if LightGBM read the SVMlight file itself, which leaves column 0 empty, import it again without --zero-based")
	}
	if err := tree.WriteModel(*out, tree.NewModel(e, *from, params)); err != nil {
		return err
	}
	if *jsonOut {
		return writeJSON(stdout, map[string]any{"model": *out, "source": *from, "trees": len(e.Trees), "features": e.NumFeatures, "objective": e.Objective})
	}
	fmt.Fprintf(stdout, "wrote %s: %s from %s (%s, %s)\n", *out, count(len(e.Trees), "tree"), *from, e.Objective, count(e.NumFeatures, "feature"))
	return nil
}

// splitsOnFirst is 1 when some tree of e splits on feature 1, 0 when none
// does (a sign of shifted columns), and -1 when that tells nothing (a model
// of one feature, or of no split).
func splitsOnFirst(e *tree.Ensemble) int {
	used := e.Features(-1)
	switch {
	case e.NumFeatures <= 1 || len(used) == 0:
		return -1
	case used[0] == 0:
		return 1
	}
	return 0
}

// xgbImportNotes are what `import --from xgboost` tells about the imported
// model e with provenance params: signs that it was trained on XGBoost's
// own libsvm reader or stopped early, and what to do about them.
func xgbImportNotes(e *tree.Ensemble, params map[string]any, libsvm, byName bool) []string {
	// Where a missing value and 0 part ways is not told here: XGBoost's hist
	// sends missing values right at every split of a model trained on dense
	// data, so it would be said of nearly every model. predict and eval warn
	// when a data file does leave values out (Model.AbsentWarning).
	var notes []string
	if !libsvm && !byName && splitsOnFirst(e) == 0 {
		notes = append(notes, "note: the model never splits on f0 (feature 1): if it was trained on XGBoost's own libsvm reader "+
			"(DMatrix(\"train.txt?format=libsvm\")), whose f{k} is the file's feature k, import it again with --libsvm-indices")
	}
	if names, ok := params["feature_names"].([]string); ok && !byName {
		first, rule := 1, "k+1" // the feature f0 is, by position
		if libsvm {
			first, rule = 0, "k"
		}
		for k, n := range names {
			if n != strconv.Itoa(k+first) {
				notes = append(notes, fmt.Sprintf("note: the model's features are named by numbers, and f%d is named %q, not %d: cronus takes f{k} as feature %s by its position, not its name; "+
					"if it was trained on selected features named by their numbers, import it again with --by-name", k, n, k+first, rule))
				break
			}
		}
	}
	if best, ok := params["best_iteration"].(int); ok {
		per := 1
		if n, ok := params["num_parallel_tree"].(int); ok {
			per = n
		}
		if keep := (best + 1) * per; keep < len(e.Trees) {
			notes = append(notes, fmt.Sprintf("note: training stopped early at best_iteration %d; like XGBoost's Booster.predict, cronus uses all %d trees "+
				"(--trees %d stops at the best iteration, as scikit-learn's XGBModel.predict does)", best, len(e.Trees), keep))
		}
	}
	return notes
}

// absentFlag is --absent zero|missing: how a feature a line leaves out
// reads; true for missing.
type absentFlag bool

func newAbsentFlag(fs *flag.FlagSet) *absentFlag {
	a := absentFlag(false)
	fs.Var(&a, "absent", "how a feature a data line leaves out reads, `zero|missing`: zero (the default) or missing, a NaN that goes where each split sends missing values, as XGBoost reads sparse files")
	return &a
}

func (a *absentFlag) String() string {
	if a != nil && bool(*a) {
		return "missing"
	}
	return "zero"
}

func (a *absentFlag) Set(s string) error {
	switch s {
	case "zero":
		*a = false
	case "missing":
		*a = true
	default:
		return errors.New("must be zero or missing")
	}
	return nil
}

// treesFlag is --trees: use the model's first k trees, or all of them (-1,
// the default, shown as "all" in the help).
type treesFlag int

func newTreesFlag(fs *flag.FlagSet) *treesFlag {
	k := treesFlag(-1)
	fs.Var(&k, "trees", "use only the model's first `k` trees (a number, or all)")
	return &k
}

// loadScorer reads predict's and eval's --model (its --trees checked
// against it) or --cascade, whichever is given (neither: eval --scores),
// and returns the number of features the data must have for it.
func loadScorer(modelF, cascadeF string, k treesFlag) (e *tree.Ensemble, m *tree.Model, cf *cronus.File, minFeatures int, err error) {
	switch {
	case modelF != "":
		if e, m, err = loadModel(modelF); err != nil {
			return nil, nil, nil, 0, err
		}
		if err = k.fits(e, modelF); err != nil {
			return nil, nil, nil, 0, err
		}
		minFeatures = e.NumFeatures
	case cascadeF != "":
		if cf, err = cronus.ReadFile(cascadeF); err != nil {
			return nil, nil, nil, 0, err
		}
		minFeatures = cf.Ensemble.NumFeatures
	}
	return e, m, cf, minFeatures, nil
}

// fits refuses more trees than the model of path has.
func (k treesFlag) fits(e *tree.Ensemble, path string) error {
	if int(k) > len(e.Trees) {
		return usageError{fmt.Sprintf("--trees %d: the model %s has %d trees", int(k), path, len(e.Trees))}
	}
	return nil
}

func (k *treesFlag) String() string {
	if k == nil || *k < 0 {
		return "all"
	}
	return strconv.Itoa(int(*k))
}

func (k *treesFlag) Set(s string) error {
	if s == "all" {
		*k = -1
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return errors.New("must be a number of trees >= 0, or all")
	}
	*k = treesFlag(n)
	return nil
}
