// Package boost trains tree ensembles by gradient boosting on histograms:
// squared loss (regression), logistic loss (binary) and LambdaMART
// (lambdarank), with shrinkage, row and column subsampling and early
// stopping on a validation metric. Training reports progress through a
// callback that fits the job package's Reporter.
package boost

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Params are the training parameters. DefaultParams gives sensible values.
type Params struct {
	Objective    string
	Trees        int     // boosting rounds
	LearningRate float64 // shrinkage applied to every leaf
	Grow         tree.GrowParams
	RowSample    float64 // fraction of documents (of queries, for lambdarank) per tree; 1 = all
	ColSample    float64 // fraction of features per tree; 1 = all
	MaxBins      int     // histogram bins per feature (2..255)
	Seed         uint64
	EarlyStop    int         // stop after this many trees without a better validation metric; 0 = off
	Metric       metric.Spec // evaluation metric (default ndcg@10)
	Truncation   int         // lambdarank: pairs whose better-placed document is in the top Truncation (default 30)
	Sigma        float64     // lambdarank: sigmoid parameter (default 1)
	NoLambdaNorm bool        // lambdarank: turn off LightGBM's λ normalisation
	PairSample   int         // lambdarank: 0 = all pairs (LightGBM); k > 0 = k sampled partners per document (XGBoost 1.7 rank:ndcg)
	Workers      int         // goroutines for histograms and gradients; 0 = GOMAXPROCS
	// Init, when set, is an ensemble to go on from (XGBoost's xgb_model,
	// LightGBM's init_model): the model starts with its base score and
	// trees, and Trees more are added to them. See Continues.
	Init *tree.Ensemble
}

// Continues says whether training with objective can go on from a model
// trained with init (an ensemble's Objective: Cronus's, or the source
// library's for an imported one), and why not. Lambdarank goes on from any
// model's scores; regression and binary only from models whose raw scores
// their loss reads the same way: squared error, and logistic margins. A
// LightGBM model's objective may come with its options, as its file
// writes it: "binary sigmoid:1" goes on, "binary sigmoid:2" (σ(2s)) and
// "regression sqrt" (the label's square root) do not.
func Continues(objective, init string) error {
	family := map[string]string{
		// RankLib's MART fits the labels by squared error (its
		// pseudo-responses are label − score); LightGBM's cross_entropy
		// (xentropy) scores are logistic margins too.
		Regression: Regression, "MART": Regression, "reg:squarederror": Regression, "reg:linear": Regression, "regression_l2": Regression, "l2": Regression, "mse": Regression, "mean_squared_error": Regression,
		Binary: Binary, "binary sigmoid:1": Binary, "cross_entropy": Binary, "binary:logistic": Binary, "binary:logitraw": Binary, "reg:logistic": Binary,
	}
	if objective == LambdaRank || family[init] == objective {
		return nil
	}
	if init == "" { // a LightGBM model of a custom objective records none
		return fmt.Errorf("a %s model cannot go on from one that records no objective (a custom one?): its raw scores need not be what %[1]s's loss reads (lambdarank goes on from any model)", objective)
	}
	return fmt.Errorf("a %s model cannot go on from one trained for %q: its raw scores are not what %[1]s's loss reads (lambdarank goes on from any model)", objective, init)
}

// DefaultParams returns the defaults for an objective: 500 trees of 31
// leaves, learning rate 0.1, at least 50 documents per leaf (chosen on
// MQ2008 validation; LightGBM's default is 20), L2 1, 255 bins.
func DefaultParams(objective string) Params {
	return Params{
		Objective:    objective,
		Trees:        500,
		LearningRate: 0.1,
		Grow:         tree.GrowParams{MaxLeaves: 31, MinDocs: 50, MinHess: 1e-3, Lambda: 1},
		RowSample:    1,
		ColSample:    1,
		MaxBins:      255,
		Seed:         1,
		Metric:       metric.Spec{Name: metric.NDCG, K: 10},
		Truncation:   30,
		Sigma:        1,
	}
}

// Validate reports the first parameter out of range.
func (p Params) Validate() error {
	if _, err := newObjective(p, nil); err != nil {
		return err
	}
	switch {
	case p.Trees < 1:
		return fmt.Errorf("trees must be at least 1 (got %d)", p.Trees)
	case !(p.LearningRate > 0 && p.LearningRate <= 1):
		return fmt.Errorf("learning rate must be in (0, 1] (got %g)", p.LearningRate)
	case !(p.RowSample > 0 && p.RowSample <= 1):
		return fmt.Errorf("row sample must be in (0, 1] (got %g)", p.RowSample)
	case !(p.ColSample > 0 && p.ColSample <= 1):
		return fmt.Errorf("column sample must be in (0, 1] (got %g)", p.ColSample)
	case p.MaxBins < 2 || p.MaxBins > data.MaxBins:
		return fmt.Errorf("max bins must be in [2, %d] (got %d)", data.MaxBins, p.MaxBins)
	case p.EarlyStop < 0:
		return fmt.Errorf("early stopping rounds must be >= 0 (got %d)", p.EarlyStop)
	case p.Objective == LambdaRank && p.Truncation < 1:
		return fmt.Errorf("lambdarank truncation must be at least 1 (got %d)", p.Truncation)
	case p.PairSample < 0 || p.PairSample > MaxPairSample:
		return fmt.Errorf("pair sample must be in [0, %d] (got %d)", MaxPairSample, p.PairSample)
	case p.Objective == LambdaRank && !(p.Sigma > 0 && !math.IsInf(p.Sigma, 1)):
		return fmt.Errorf("lambdarank sigma must be a finite number > 0 (got %g)", p.Sigma)
	case p.Init != nil && p.Trees > math.MaxInt-len(p.Init.Trees):
		// The model's tree count overflowed: progress read "tree
		// 5260/-9223372036854775789" and training went on for ever.
		return fmt.Errorf("trees %d on the init model's %d makes more than %d", p.Trees, len(p.Init.Trees), math.MaxInt)
	case p.Init != nil:
		if err := Continues(p.Objective, p.Init.Objective); err != nil {
			return err
		}
	}
	return p.Grow.Validate()
}

// Snapshot is the state of a training run, for progress views. Its slices
// are copies owned by the receiver.
type Snapshot struct {
	Trees     int       // trees built so far
	Total     int       // trees asked for
	Metric    string    // name of the evaluation metric
	At        []int     // tree counts at which the metric was measured
	Train     []float64 // metric on the training data at each At
	Valid     []float64 // metric on the validation data at each At (empty without validation data)
	BestTrees int       // trees at the best validation value so far
	BestValid float64
	StoppedAt int // trees when early stopping ended training; 0 if it did not
	Elapsed   time.Duration
}

// Result is a trained ensemble with its training history.
type Result struct {
	Ensemble *tree.Ensemble
	History  Snapshot
}

// smallData is the most training documents for which the training metric
// is measured after every tree; on larger data it is measured only while
// that takes at most evalShare of the training time (and after the last
// tree), so that watching progress does not slow training down.
const (
	smallData = 50_000
	evalShare = 0.02
)

// Train fits an ensemble to train, evaluating on valid (may be nil) after
// every tree. report, when not nil, is called after every tree with the
// number of trees built and a function that makes a snapshot; it returns
// false to stop (cancellation). Same data, parameters and seed give the
// same ensemble whatever the number of workers.
func Train(ctx context.Context, train, valid *data.Dataset, p Params, report func(done float64, snap func() Snapshot) bool) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	obj, err := newObjective(p, ctx.Done())
	if err != nil {
		return nil, err // Validate refused an unknown objective already
	}
	n := train.NumDocs()
	if n == 0 {
		return nil, fmt.Errorf("%s: no documents to train on", train.Name)
	}
	if p.Objective == Regression {
		if err := regressionLabels(train); err != nil {
			return nil, err
		}
	}
	nf := train.NumFeatures()
	if p.Init != nil && p.Init.NumFeatures > nf {
		return nil, fmt.Errorf("%s: %d features, but the model training goes on from (Init) reads %d", train.Name, nf, p.Init.NumFeatures)
	}
	// The set-up takes seconds on a large data set (about 5 s for 400,000
	// documents of 136 features on a loaded machine): it stops too.
	bins, err := data.ComputeBinsContext(ctx, train, p.MaxBins)
	if err != nil {
		return nil, err
	}
	// The grower sees only the features it can split on, those with more
	// than one bin: a histogram has room for every feature it sees, and a
	// sparse file with a few high feature indices has thousands of columns
	// that are 0 on every line. kept maps its features to the data's.
	kept, pos := splittable(bins)
	sub := func(d *data.Dataset) *data.Dataset {
		s := *d
		s.Cols = make([][]float32, len(kept))
		for k, f := range kept {
			if f < d.NumFeatures() {
				s.Cols[k] = d.Cols[f]
			} else { // a feature the validation set lacks reads as 0
				s.Cols[k] = make([]float32, d.NumDocs())
			}
		}
		return &s
	}
	subBins := &data.Bins{Upper: make([][]float32, len(kept))}
	for k, f := range kept {
		subBins.Upper[k] = bins.Upper[f]
	}
	binned, err := subBins.ApplyContext(ctx, sub(train))
	if err != nil {
		return nil, err
	}
	var vbinned *data.Binned
	if valid != nil {
		// Features beyond the training set's are not among kept: they
		// cannot be split on (a sparse file's last features may be absent
		// from every training line).
		if vbinned, err = subBins.ApplyContext(ctx, sub(valid)); err != nil {
			return nil, err
		}
	}
	grower, err := tree.NewGrowerContext(ctx, binned, subBins, p.Grow, p.Workers)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x9e3779b97f4a7c15))

	e := &tree.Ensemble{NumFeatures: nf, Objective: p.Objective}
	var scores, vscores []float64
	init0 := 0 // the trees gone on from
	if p.Init != nil {
		// The documents start from the model's scores, as its prediction
		// gives them: its base score plus its trees, in order.
		init0 = len(p.Init.Trees)
		e.Base, e.Trees = p.Init.Base, slices.Clone(p.Init.Trees)
		if sr, ok := obj.(*sampledRank); ok {
			// Sampled pairs are drawn by round: go on from the init
			// model's, as training that was never stopped does.
			sr.round = uint64(init0)
		}
		if scores, err = p.Init.PredictContext(ctx, nil, train.Cols, n, -1); err != nil {
			return nil, err
		}
		if valid != nil {
			if vscores, err = p.Init.PredictContext(ctx, nil, valid.PaddedCols(p.Init.NumFeatures), valid.NumDocs(), -1); err != nil {
				return nil, err
			}
		}
	} else {
		e.Base = obj.base(train.Labels)
		scores = make([]float64, n)
		for i := range scores {
			scores[i] = e.Base
		}
		if valid != nil {
			vscores = make([]float64, valid.NumDocs())
			for i := range vscores {
				vscores[i] = e.Base
			}
		}
	}
	gh := make([]tree.GradPair, n)
	leafOf := make([]int32, n)
	inSample := make([]bool, n)
	var rows []int32
	hist := Snapshot{Trees: init0, Total: init0 + p.Trees, Metric: p.Metric.String(), BestValid: math.Inf(-1)}
	var evalTime time.Duration // spent measuring the training metric
	allFeatures := make([]int, len(kept))
	for k := range allFeatures {
		allFeatures[k] = k
	}
	snap := func() Snapshot {
		s := hist
		s.At = slices.Clone(hist.At)
		s.Train = slices.Clone(hist.Train)
		s.Valid = slices.Clone(hist.Valid)
		s.Elapsed = time.Since(start)
		return s
	}
	if p.Init != nil {
		// Where training starts: the model gone on from, which early
		// stopping keeps when no tree added does better on validation.
		hist.At = []int{init0}
		hist.Train = []float64{metric.Mean(p.Metric, scores, train.Labels, train.QueryOffsets, metric.Options{})}
		if valid != nil {
			v := metric.Mean(p.Metric, vscores, valid.Labels, valid.QueryOffsets, metric.Options{})
			hist.Valid = []float64{v}
			if v > hist.BestValid {
				hist.BestValid, hist.BestTrees = v, init0
			}
		}
	}

	// Tree 0, once the set-up (binning) is done: the caller may start
	// timing the trees here (see TreeReport).
	if report != nil && !report(0, snap) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, context.Canceled
	}
	for t := 0; t < p.Trees; t++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		obj.gradients(gh, scores, train.Labels, train.QueryOffsets)
		if err := ctx.Err(); err != nil {
			return nil, err // the round's gradients may be unfinished
		}
		if err := checkGradients(gh, t, p, train.Name); err != nil {
			return nil, err
		}
		rows = sampleRows(rows, rng, p, train)
		features := allFeatures
		if p.ColSample < 1 {
			// Drawn from all the data's features, so the draw does not
			// depend on which are constant.
			features = features[:0:0]
			for _, f := range sampleFeatures(rng, nf, p.ColSample) {
				if pos[f] >= 0 {
					features = append(features, pos[f])
				}
			}
		}
		bt := grower.Grow(gh, rows, features, leafOf)
		for k := range bt.Leaves {
			bt.Leaves[k] *= p.LearningRate
		}
		if rows == nil {
			for i := range scores {
				scores[i] += bt.Leaves[leafOf[i]]
			}
		} else {
			clear(inSample)
			for _, i := range rows {
				inSample[i] = true
				scores[i] += bt.Leaves[leafOf[i]]
			}
			for i := range scores {
				if !inSample[i] {
					scores[i] += bt.Leaves[bt.LeafBinned(binned.Codes, i)]
				}
			}
		}
		e.Trees = append(e.Trees, bt.Tree)
		hist.Trees = init0 + t + 1
		if valid != nil {
			bt.AddTo(vscores, vbinned.Codes, 1)
		}
		for k := range bt.Nodes { // from the grower's features to the data's
			bt.Nodes[k].Feature = int32(kept[bt.Nodes[k].Feature])
		}
		last := t+1 == p.Trees
		evalTrain := n <= smallData || last || float64(evalTime) <= evalShare*float64(time.Since(start))
		if valid != nil || evalTrain {
			hist.At = append(hist.At, hist.Trees)
			v := math.NaN()
			if evalTrain {
				t0 := time.Now()
				v = metric.Mean(p.Metric, scores, train.Labels, train.QueryOffsets, metric.Options{})
				evalTime += time.Since(t0)
			}
			hist.Train = append(hist.Train, v)
			if valid != nil {
				v := metric.Mean(p.Metric, vscores, valid.Labels, valid.QueryOffsets, metric.Options{})
				hist.Valid = append(hist.Valid, v)
				if v > hist.BestValid {
					hist.BestValid, hist.BestTrees = v, hist.Trees
				}
			}
		}
		if report != nil && !report(float64(t+1), snap) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return nil, context.Canceled
		}
		if valid != nil && p.EarlyStop > 0 && hist.Trees-hist.BestTrees >= p.EarlyStop {
			hist.StoppedAt = hist.Trees
			e.Trees = e.Trees[:hist.BestTrees]
			break
		}
	}
	// Early stopping keeps the best trees when p.Trees ran out first, too
	// (the validation metric peaked fewer than EarlyStop trees before the
	// end), as LightGBM's best iteration does.
	if valid != nil && p.EarlyStop > 0 && hist.BestValid > math.Inf(-1) && hist.BestTrees < len(e.Trees) {
		e.Trees = e.Trees[:hist.BestTrees]
	}
	return &Result{Ensemble: e, History: snap()}, nil
}

// TreeReport returns a report function for Train that starts the phase
// "training" of trees trees (through phase, a job.Reporter's Phase) when
// Train reports tree 0, after its set-up, and passes every report on to
// report: a phase started before the set-up (binning, a second on 300,000
// documents) spread that over every tree's share, and the ETA at the
// first trees was 6 to 8 times too long.
func TreeReport(phase func(name string, total float64), report func(float64, func() Snapshot) bool, trees int) func(float64, func() Snapshot) bool {
	return func(done float64, snap func() Snapshot) bool {
		if done == 0 {
			phase("training", float64(trees))
		}
		return report(done, snap)
	}
}

// splittable returns the features with more than one bin, in ascending
// order (at least one, so that the grower has a feature), and for every
// feature its place among them, or -1.
func splittable(b *data.Bins) (kept, pos []int) {
	pos = make([]int, len(b.Upper))
	for f, u := range b.Upper {
		pos[f] = -1
		if len(u) > 1 {
			pos[f] = len(kept)
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 && len(pos) > 0 {
		kept, pos[0] = []int{0}, 0
	}
	return kept, pos
}

// sampleRows draws the documents of one tree: nil (all) without row
// sampling; whole queries for lambdarank, single documents otherwise.
func sampleRows(rows []int32, rng *rand.Rand, p Params, d *data.Dataset) []int32 {
	if p.RowSample >= 1 {
		return nil
	}
	rows = rows[:0]
	if p.Objective == LambdaRank {
		for q := 0; q < d.NumQueries(); q++ {
			if rng.Float64() < p.RowSample {
				lo, hi := d.Query(q)
				for i := lo; i < hi; i++ {
					rows = append(rows, int32(i))
				}
			}
		}
	} else {
		for i := 0; i < d.NumDocs(); i++ {
			if rng.Float64() < p.RowSample {
				rows = append(rows, int32(i))
			}
		}
	}
	if len(rows) == 0 { // keep at least one document
		rows = append(rows, int32(rng.IntN(d.NumDocs())))
	}
	return rows
}

// sampleFeatures draws ceil(frac·d) distinct features, in ascending order,
// frac taken as the decimal written: the float64 product of 0.55 and 100 is
// 55.000000000000004, a rounding error above 55 that the ceiling made 56
// features. Errors of that size (a few ulps) are taken off before the
// ceiling; no fraction a user means lands that close above a whole number.
func sampleFeatures(rng *rand.Rand, d int, frac float64) []int {
	x := frac * float64(d)
	k := max(1, int(math.Ceil(x-x*1e-12)))
	perm := rng.Perm(d)[:k]
	slices.Sort(perm)
	return perm
}

// maxRegressionLabel is the largest label magnitude squared loss trains
// on: a gradient (score − label) is a float32, and with labels up to this
// size, scores stay between them and every gradient is finite.
const maxRegressionLabel = math.MaxFloat32 / 4

// regressionLabels refuses labels too large for squared loss (the data
// reader takes any float32), naming the first such document: they gave
// infinite gradients and leaf values, and a model that could not be
// written, after the whole training. The document is named by its place
// among the file's documents, from 1 (as --run's docN counts them; the
// data set keeps no line numbers), and its query: the query alone could
// hold thousands.
func regressionLabels(d *data.Dataset) error {
	for q := range d.NumQueries() {
		lo, hi := d.Query(q)
		for i := lo; i < hi; i++ {
			if l := d.Labels[i]; math.Abs(float64(l)) > maxRegressionLabel {
				which := fmt.Sprintf("document %d", i+1)
				if d.HasQID {
					which += fmt.Sprintf(" (of query %d)", d.QueryIDs[q])
				}
				return fmt.Errorf("%s: %s is labelled %g: the regression objective takes labels of magnitude up to %.4g, "+
					"beyond which its gradients overflow", d.Name, which, l, maxRegressionLabel)
			}
		}
	}
	return nil
}

// checkGradients refuses gradients past float32 (the trees sum them as
// float32 pairs) before tree t is grown on them: a hessian of +Inf gave
// leaves of 0, so that lambdarank with --sigma 1e40 trained trees that
// score nothing, without a word.
// The document is named by its place among the file's documents, from 1,
// as regressionLabels names one, without its query.
func checkGradients(gh []tree.GradPair, t int, p Params, name string) error {
	for i, g := range gh {
		if gg, hh := float64(g.G), float64(g.H); math.IsInf(gg, 0) || math.IsNaN(gg) || math.IsInf(hh, 0) || math.IsNaN(hh) {
			why := ""
			if p.Objective == LambdaRank && p.PairSample == 0 {
				why = fmt.Sprintf(": σ %g is too large (its λ-gradients grow as σ, their hessians as σ²; LightGBM's default is 1)", p.Sigma)
			}
			return fmt.Errorf("tree %d: %s: document %d's %s gradient is %g and its hessian %g, past float32%s", t+1, name, i+1, p.Objective, g.G, g.H, why)
		}
	}
	return nil
}
