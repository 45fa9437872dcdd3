package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/baseline"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/job"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/views"
)

// reportSpecs are the metrics of every cascade report and curve.
var reportSpecs = []metric.Spec{{Name: metric.Precision, K: 5}, {Name: metric.NDCG, K: 10}, {Name: metric.ERR, K: 3}}

// cascadeFlags are the flags shared by cascade and sweep.
type cascadeFlags struct {
	model, train, valid, test, costs string
	treeCost                         float64
	par                              cronus.Params
	tg                               cronus.Targets
	rule                             string
	topM                             int
	cycles                           int
	rhos                             string // --rhos, the ρ grid
	rhoRule                          string // --rho-rule: how ρ is chosen from it
	absent                           *absentFlag
	joint                            bool           // --joint-entry
	reenter                          bool           // --reenter
	refit                            bool           // --refit
	warm                             string         // cascade --warm: the cascade file to start from
	warmE                            *tree.Ensemble // its ensemble, which must be the model's
	stagesGiven                      bool           // --stages given: not brought down to the trees
	treesGiven                       bool           // --trees given: not taken from the warm cascade
	trees                            *treesFlag     // --trees k: the model's first k trees only
	progressEvery                    *time.Duration // --progress-every
	log                              *progressLog   // its log lines, shared by the command's progress reports; nil: off
}

func addCascadeFlags(fs *flag.FlagSet) *cascadeFlags {
	cf := &cascadeFlags{par: cronus.DefaultParams(), tg: cronus.DefaultTargets()}
	fs.StringVar(&cf.model, "model", "", "ensemble `FILE` (required; cronus train or cronus import; shallow trees make better cascades, e.g. --max-depth 2)")
	cf.trees = newTreesFlag(fs, "build on the model's first `k` trees only (a number, or all), as predict and eval --trees score: an early-stopped model's best iteration")
	fs.StringVar(&cf.train, "train", "", "training data `FILE` (required)")
	fs.StringVar(&cf.valid, "valid", "", "validation data `FILE` (required): picks the best cascade")
	fs.StringVar(&cf.test, "test", "", "test data `FILE`")
	fs.StringVar(&cf.costs, "costs", "", "feature cost `FILE` (required)")
	fs.Float64Var(&cf.treeCost, "tree-cost", 1, "cost e_t of evaluating one tree on one document")
	fs.IntVar(&cf.par.K, "stages", cf.par.K, "number of stages `K`, at most the model's trees (the default comes down to them when they are fewer)")
	fs.Float64Var(&cf.par.Epsilon, "epsilon", cf.par.Epsilon, "`ε`: at initialisation each stage passes (1−ε) of its inputs on")
	fs.Float64Var(&cf.par.Sigma, "sigma", cf.par.Sigma, "`σ` of the soft exits, relative to each stage's score spread")
	fs.Float64Var(&cf.par.Delta, "delta", cf.par.Delta, "`δ`: initialisation uses λ_k = λ·δ^(K−k)")
	fs.Float64Var(&cf.par.StageCap, "stage-cap", cf.par.StageCap, "the early stages' inflated λ_k is at most this fraction of the stage's own λ_max, and never below λ (0 = no cap)")
	fs.Float64Var(&cf.par.Rho1, "rho1", cf.par.Rho1, "ℓ1 `ρ` of stages 1..K−1, as a fraction of ρ_max; not given (nor --rhoK), ρ is chosen on validation from --rhos, and the default shown is used only when --rhoK alone is given")
	fs.Float64Var(&cf.par.RhoK, "rhoK", cf.par.RhoK, "ℓ1 `ρ` of the last stage, as a fraction of ρ_max; not given (nor --rho1), ρ is chosen on validation from --rhos, and the default shown is used only when --rho1 alone is given")
	fs.Float64Var(&cf.tg.Relevant, "relevant", cf.tg.Relevant, "a document is a positive when its label >= `r`")
	fs.Float64Var(&cf.tg.PosWeight, "pos-weight", cf.tg.PosWeight, "ω⁺: weight of positives")
	fs.Float64Var(&cf.tg.NegWeight, "neg-weight", cf.tg.NegWeight, "ω⁻: weight of negatives")
	fs.Float64Var(&cf.tg.NegMultiply, "neg-multiply", cf.tg.NegMultiply, "extra factor on ω⁻, in place of replicating negatives")
	fs.BoolVar(&cf.tg.Graded, "graded", false, "graded targets: a positive's target is 2^(label−r+1) − 1 (1 at the threshold, 3 a grade above, …) instead of the paper's +1")
	fs.BoolVar(&cf.tg.Distil, "distil", false, "targets are the base ensemble's training scores, standardised, instead of the paper's ±1 from the labels (which still set ω⁺ and ω⁻): the stages learn to reproduce the ensemble's ranking; not with --graded")
	choiceVar(fs, &cf.rule, "rule", cronus.RuleTopM, "exit `rule`: top-m (a query's m best documents at a stage never exit there; the optimiser trains for it; the workbench's rule) or global (the paper: exit when the score < θ_k)", cronus.RuleGlobal, cronus.RuleTopM)
	fs.IntVar(&cf.topM, "top-m", 5, "documents per query that always go on, under --rule top-m (not with --rule global)")
	fs.IntVar(&cf.cycles, "cycles", 10, "cycles of the cyclic optimisation (0 = initialisation only)")
	fs.BoolVar(&cf.joint, "joint-entry", false, "solve each stage's convex problem to its optimum: trees sharing a feature nobody has paid for may enter together (default: each tree must pay the whole feature alone; raises λ_max)")
	cf.absent = newAbsentFlag(fs)
	fs.BoolVar(&cf.reenter, "reenter", false, "let trees at zero re-enter a stage during the cyclic optimisation when that lowers eq (8) (cascade: on with --warm, off otherwise, and --reenter=false turns it off; sweep: off)")
	fs.BoolVar(&cf.refit, "refit", false, "after the cyclic optimisation, also try the best cascade with its weights refitted by least squares on the trees each stage keeps (the last stage's, and every stage's), with the same pass counts, and keep whichever scores best on validation (not the paper's; README, Refitting)")
	cf.progressEvery = addProgressEvery(fs)
	fs.StringVar(&cf.rhos, "rhos", defaultRhos, "ρ grid (`LIST`, fractions of ρ_max): ρ_1 = ρ_K is chosen on validation NDCG@10 with the fast initialisation (§3.4), at each λ for sweep; one value = no choice; not with --rho1 or --rhoK, which give ρ instead")
	choiceVar(fs, &cf.rhoRule, "rho-rule", cronus.RhoBest.String(), "how ρ is chosen from --rhos (the single stage's of sweep too): best (the paper's §3.4: the initialised cascade with the best validation NDCG@10) or 1se (the largest ρ, the sparsest cascade, within one standard error of the best over the validation queries: the one-standard-error rule; not the paper's)", cronus.RhoRules...)
	return cf
}

// newProgress is a progress report that --progress-every makes log lines.
func (cf *cascadeFlags) newProgress(stderr io.Writer) *progress {
	return newProgress(stderr).logTo(cf.log)
}

// rhoGrid returns the ρ grid to choose from (nil: keep --rho1/--rhoK). An
// explicit --rho1 or --rhoK turns the default grid off (check refuses them
// with an explicit --rhos). fs must be parsed.
func (cf *cascadeFlags) rhoGrid(fs *flag.FlagSet) ([]float64, error) {
	explicit := explicitFlags(fs)
	if explicit["rho1"] || explicit["rhoK"] {
		if explicit["rho-rule"] {
			return nil, usageError{"--rho-rule conflicts with --rho1 and --rhoK: they give ρ, and --rho-rule says how to choose it from --rhos"}
		}
		return nil, nil
	}
	rhos, err := parseRhos(cf.rhos)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	if explicit["rho-rule"] && len(rhos) < 2 {
		return nil, usageError{"--rho-rule chooses ρ from two values of --rhos or more; --rhos " + cf.rhos + " leaves no choice"}
	}
	return rhos, nil
}

// pickRho is --rho-rule's rule (choiceVar has checked the name).
func (cf *cascadeFlags) pickRho() cronus.RhoRule {
	r, err := cronus.ParseRhoRule(cf.rhoRule)
	if err != nil {
		panic(err)
	}
	return r
}

// rhoRange is the range of ρ_1 and ρ_K (fractions of ρ_max), as
// cronus.Params.Validate checks it.
var rhoRange = between("rho", 0, cronus.MaxRho, "[]")

// cascadeRanges are the ranges of the numeric flags of cascade and sweep,
// as cronus.Params.Validate, cronus.Targets.Validate and cronus.NewProblem
// (the tree cost) check them; δ finite, since the cascade file's params
// record it and JSON has no infinity.
var cascadeRanges = []flagRange{
	atLeast("top-m", 1),
	atLeast("cycles", 0),
	between("tree-cost", 0, data.MaxCost, "[]"),
	atLeast("stages", 1),
	between("epsilon", 0, 1, "()"),
	between("sigma", 0, cronus.MaxSigma, "(]"),
	finiteAtLeast("delta", 1),
	between("stage-cap", 0, 1, "[]"),
	between("rho1", rhoRange.lo, rhoRange.hi, rhoRange.brackets),
	between("rhoK", rhoRange.lo, rhoRange.hi, rhoRange.brackets),
	finite("relevant", math.Inf(-1)),
	// Up to 10⁶, as the workbench's ω⁺: 1e200 × 1e200 was +Inf, and the
	// run ended in a NaN weight blamed on the output file.
	between("pos-weight", 0, cronus.MaxClassWeight, "(]"),
	between("neg-weight", 0, cronus.MaxClassWeight, "(]"),
	between("neg-multiply", 0, cronus.MaxClassWeight, "(]"),
}

// check refuses missing, out-of-range and contradictory flags, the ranges
// of the command's own flags (more) with the shared ones; fs must be
// parsed (a flag left at its default is not given).
func (cf *cascadeFlags) check(fs *flag.FlagSet, more ...flagRange) error {
	explicit := explicitFlags(fs)
	var rhoFlags []string
	for _, name := range []string{"rho1", "rhoK"} {
		if explicit[name] {
			rhoFlags = append(rhoFlags, "--"+name)
		}
	}
	// The input flags missing, by name: it said "--model, --train, --valid
	// and --costs are required" whichever of them were given.
	var missing []string
	for _, in := range []struct{ name, v string }{{"model", cf.model}, {"train", cf.train}, {"valid", cf.valid}, {"costs", cf.costs}} {
		if in.v == "" {
			missing = append(missing, "--"+in.name+" FILE")
		}
	}
	// A user with data of their own and no cost labels is told what the
	// cost table is, and how to price every feature alike.
	costsHint := ""
	if cf.costs == "" {
		costsHint = "; " + costsFileHint + "; without cost labels, a file with a line '1' per feature prices them alike"
	}
	switch {
	case len(missing) == 1:
		return usageError{missing[0] + " is required" + costsHint}
	case len(missing) > 1:
		return usageError{strings.Join(missing[:len(missing)-1], ", ") + " and " + missing[len(missing)-1] + " are required" + costsHint}
	case cf.rule == cronus.RuleGlobal && explicit["top-m"]:
		return usageError{"--top-m and --rule global conflict: --top-m applies to --rule top-m; under global a document exits on its score alone"}
	case explicit["rhos"] && len(rhoFlags) > 0:
		// Either ρ is chosen from the grid or it is given; the one given
		// would be dropped without a word.
		return usageError{fmt.Sprintf("--rhos conflicts with %s: give the ρ grid to choose from (--rhos) or the ρ to use (--rho1, --rhoK), not both", strings.Join(rhoFlags, " and "))}
	}
	// ε sets the thresholds between stages, δ and the stage cap the
	// stages' λ_k: with one stage they were accepted and did nothing.
	if explicit["stages"] && cf.par.K == 1 {
		for _, name := range []string{"epsilon", "delta", "stage-cap"} {
			if explicit[name] {
				return usageError{fmt.Sprintf("--%s applies to cascades of two stages or more; --stages 1 is the single stage (eq 7)", name)}
			}
		}
	}
	if err := checkRanges(fs, slices.Concat(cascadeRanges, more)...); err != nil {
		return err
	}
	var err error
	if cf.log, err = checkProgressEvery(*cf.progressEvery); err != nil {
		return err
	}
	cf.stagesGiven = explicit["stages"]
	cf.treesGiven = explicit["trees"]
	if err := cf.tg.Validate(); err != nil {
		return usageError{err.Error()}
	}
	if cf.rule == cronus.RuleTopM {
		cf.par.TopM = cf.topM // the optimiser trains the cascade the scorer runs
	}
	if err := cf.par.Validate(); err != nil {
		return usageError{err.Error()}
	}
	return nil
}

// costsChanged says, when the warm cascade of the file f (path) was
// optimised under other feature or tree costs than s's, which differ: its
// stages go on under the new ones (eq (8) and the reported costs follow
// them), as asked, but quietly that looked like a continuation of its run.
// "" when they are the same.
func costsChanged(path string, f *cronus.File, s *setup) string {
	var diff []string
	var feats []int
	for i, c := range s.costs.Cost {
		if i < len(f.FeatureCost) && f.FeatureCost[i] != c {
			feats = append(feats, i+1)
		}
	}
	if len(feats) > 0 {
		shown := feats[:min(len(feats), 3)]
		names := make([]string, len(shown))
		for i, ft := range shown {
			names[i] = fmt.Sprintf("%d (%g, now %g)", ft, f.FeatureCost[ft-1], s.costs.Cost[ft-1])
		}
		w := "feature " + strings.Join(names, ", ")
		if len(feats) > len(shown) {
			w += fmt.Sprintf(" and %d more", len(feats)-len(shown))
		}
		diff = append(diff, w)
	}
	for t, c := range s.treeCost {
		if t < len(f.TreeCost) && f.TreeCost[t] != c {
			diff = append(diff, fmt.Sprintf("tree cost %g, now %g", f.TreeCost[t], c))
			break
		}
	}
	if len(diff) == 0 {
		return ""
	}
	return fmt.Sprintf("%s was optimised under other costs (%s); its stages go on under these", path, strings.Join(diff, "; "))
}

// warmNumber is the number params[name] of a warm cascade's file: nil
// when the file has none, an error naming the field when it is not a
// number.
func warmNumber(params map[string]any, name string) (*float64, error) {
	v, ok := params[name]
	if !ok {
		return nil, nil
	}
	x, num := v.(float64)
	if !num {
		return nil, fmt.Errorf("params.%s is %s, not a number", name, cronus.ParamShown(v))
	}
	return &x, nil
}

// targetsChanged says, when the params of the warm cascade file path
// record other targets than tg (this run's flags), which differ: its stages
// go on under tg, as asked, but quietly that looked like a continuation
// of its run (a --relevant 2 --graded cascade went on at --relevant 1
// with binary targets, without a word). "" when they are the same or the
// params record none; an error when one is not a number or true/false.
func targetsChanged(path string, params map[string]any, tg cronus.Targets) (string, error) {
	var diff []string
	for _, t := range []struct {
		name, flag string
		v          float64
	}{{"relevant", "relevant", tg.Relevant}, {"pos_weight", "pos-weight", tg.PosWeight}, {"neg_weight", "neg-weight", tg.NegWeight}, {"neg_multiply", "neg-multiply", tg.NegMultiply}} {
		x, err := warmNumber(params, t.name)
		if err != nil {
			return "", err
		}
		if x != nil && *x != t.v {
			diff = append(diff, fmt.Sprintf("%s %g, now --%s %g", t.name, *x, t.flag, t.v))
		}
	}
	_, recorded := params["graded"] // distil is written only when true
	for _, t := range []struct {
		name string
		v    bool
	}{{"graded", tg.Graded}, {"distil", tg.Distil}} {
		v, ok := params[t.name]
		if !ok {
			if !recorded {
				continue
			}
			v = false
		}
		b, isBool := v.(bool)
		if !isBool {
			return "", fmt.Errorf("params.%s is %s, not true or false", t.name, cronus.ParamShown(v))
		}
		if b != t.v {
			diff = append(diff, fmt.Sprintf("%s %t, now %t (--%s)", t.name, b, t.v, t.name))
		}
	}
	if len(diff) == 0 {
		return "", nil
	}
	return fmt.Sprintf("%s was optimised for other targets (%s); its stages go on under these", path, strings.Join(diff, "; ")), nil
}

// warmRule takes the exit rule of the warm cascade c (cf.warm) for cf's,
// refusing a --rule or --top-m given (explicit) that differs from it.
func (cf *cascadeFlags) warmRule(explicit map[string]bool, c *cronus.Cascade) error {
	rule := fmt.Sprintf("rule %s", c.Rule)
	if c.Rule == cronus.RuleTopM {
		rule += fmt.Sprintf(" with top_m %d", c.TopM)
	}
	switch {
	case explicit["rule"] && cf.rule != c.Rule:
		return usageError{fmt.Sprintf("--rule %s: the stages of %s exit under %s, which a warm start keeps; leave --rule out", cf.rule, cf.warm, rule)}
	case explicit["top-m"] && (c.Rule != cronus.RuleTopM || cf.topM != c.TopM):
		return usageError{fmt.Sprintf("--top-m %d: the stages of %s exit under %s, which a warm start keeps; leave --top-m out", cf.topM, cf.warm, rule)}
	}
	cf.rule = c.Rule
	if c.Rule == cronus.RuleTopM {
		cf.topM = c.TopM
	}
	return nil
}

// treesSaid says how many trees, n, a cascade is built on: the model's, or
// with --trees its first n (the model has more; it read "the model M has
// 20 trees" of a 40-tree model).
func (cf *cascadeFlags) treesSaid(n int) string {
	if int(*cf.trees) >= 0 {
		return fmt.Sprintf("--trees %d takes %s of the model %s", n, count(n, "tree"), cf.model)
	}
	return fmt.Sprintf("the model %s has %s", cf.model, count(n, "tree"))
}

// memoryWayOut names --trees as the way out of err when it is a
// *cronus.MemoryError (the cascade problem would not fit in memory).
func memoryWayOut(err error) error {
	if me, ok := errors.AsType[*cronus.MemoryError](err); ok {
		me.WayOut = "use --trees k to take the model's first k trees, or a model with fewer trees"
	}
	return err
}

// setup is everything a cascade optimisation needs, loaded once.
type setup struct {
	e                  *tree.Ensemble
	source             string         // the model file's "source": where the trees come from
	modelParams        map[string]any // and its "params", kept in the cascade file's ensemble
	train, valid, test *data.Dataset
	costs              *data.Costs
	treeCost           []float64
	pr                 *cronus.Problem
	sc                 cronus.Scales
}

func (cf *cascadeFlags) load(ctx context.Context, stderr io.Writer) (*setup, error) {
	s := &setup{}
	var err error
	var m *tree.Model
	if s.e, m, err = loadModel(ctx, stderr, cf.model); err != nil {
		return nil, err
	}
	s.source, s.modelParams = m.Source, m.Params
	all := s.e.Trees // the model's, before --trees
	if w := cf.warmE; w != nil && !cf.treesGiven && len(w.Trees) < len(all) &&
		treesDiffer(w, &tree.Ensemble{Trees: all[:len(w.Trees)]}) == "" {
		// The warm cascade was built on the model's first n trees (--trees
		// n): go on with them, as it says, rather than refuse.
		*cf.trees = treesFlag(len(w.Trees))
		fmt.Fprintf(stderr, "note: %s was optimised on the model's first %d trees: building on them (--trees %[2]d)\n", cf.warm, len(w.Trees))
	}
	if k := int(*cf.trees); k >= 0 {
		if k == 0 {
			return nil, usageError{"--trees 0: a cascade needs at least one tree"}
		}
		if err := cf.trees.fits(s.e, cf.model); err != nil {
			return nil, err
		}
		s.e.Trees = s.e.Trees[:k]
	}
	if n := len(s.e.Trees); cf.par.K > n && !cf.stagesGiven {
		// The default K, as the workbench does: a RankLib Random Forests
		// model may have fewer trees than 10.
		cf.par.K = n
	} else if cf.par.K > n {
		// More stages than trees leaves some without a tree, and a large K
		// costs minutes for nothing (1,000 stages of 30 trees).
		return nil, usageError{fmt.Sprintf("--stages %d: %s; use at most that many stages", cf.par.K, cf.treesSaid(n))}
	}
	// Before reading the data, as NewProblem would after it.
	if err := cronus.CheckLeaves(s.e); err != nil {
		return nil, fmt.Errorf("%s: %w", cf.model, err)
	}
	// The Gram products grow with the square of the trees: refuse what
	// cannot fit before reading the data (NewProblem checks again with
	// the training documents).
	if err := cronus.CheckProblemMemory(len(s.e.Trees), 0); err != nil {
		return nil, memoryWayOut(err)
	}
	if _, advice := cronus.DepthAdvice(s.e.Depth()); advice != "" {
		// As the workbench's params line says it.
		warn(stderr, advice+fmt.Sprintf(" (a tree pays for the features of all its splits, so no stage is cheap; cronus train --max-depth %d --leaves %d, or max_depth %[1]d in XGBoost or LightGBM)",
			cronus.ShallowDepth, 1<<cronus.ShallowDepth))
	}
	if cf.warmE != nil { // before reading the data
		if d := treesDiffer(cf.warmE, s.e); d != "" {
			// A cascade of another --trees of this model is told apart
			// from another model's: which --trees gives its trees.
			n, hint, of := len(cf.warmE.Trees), "", cf.model
			if k := int(*cf.trees); k >= 0 {
				of = fmt.Sprintf("the first %d trees of %s", k, cf.model)
			}
			if n <= len(all) && treesDiffer(cf.warmE, &tree.Ensemble{Trees: all[:n]}) == "" {
				hint = fmt.Sprintf("; it was optimised on the model's first %d trees: give --trees %[1]d", n)
				if n == len(all) {
					hint = "; it was optimised on all the model's trees: leave --trees out"
				}
			}
			return nil, fmt.Errorf("%s was optimised on another ensemble than %s: %s%s", cf.warm, of, d, hint)
		}
	}
	p := cf.newProgress(stderr)
	defer p.done() // an error or an interrupt clears the line too
	for _, l := range []struct {
		name string
		d    **data.Dataset
	}{{cf.train, &s.train}, {cf.valid, &s.valid}, {cf.test, &s.test}} {
		if l.name == "" {
			continue // no --test
		}
		if l.d == &s.test && l.name == cf.valid {
			// --test the validation file: the same data (read only), and
			// its warnings given once, not twice.
			s.test = s.valid
			continue
		}
		if *l.d, err = loadScoringData(ctx, p, l.name, s.e.NumFeatures, bool(*cf.absent)); err != nil {
			return nil, err
		}
		warn(stderr, m.AbsentWarning(s.e, -1, *l.d))
		if l.d != &s.train {
			// The best cascade on validation, the test figures and
			// --rule top-m would see one query.
			warn(stderr, (*l.d).QIDWarning(s.train))
		}
	}
	// Once, of the training data: a cascade of such a model is one place
	// off on every data set.
	// (Of the whole model, as eval and predict judge it: with --trees k,
	// a later tree's split on feature 1 still tells the numbering.)
	whole := *s.e
	whole.Trees = all
	warn(stderr, m.LibsvmReaderWarning(&whole, s.train))
	ndcg10 := metric.Spec{Name: metric.NDCG, K: 10}
	if flat, score := flatUnder(s.valid, ndcg10); flat {
		// As train warns of it: the best cascade on validation would be
		// the cheapest of equals, whatever it ranks.
		warn(stderr, flatWhy(s.valid, ndcg10, score, "cascade")+", so validation cannot choose between them (the best is the cheapest step)")
	}
	if s.costs, err = loadCosts(ctx, cf.costs, s.train.NumFeatures(), stderr); err != nil {
		return nil, err
	}
	s.treeCost = make([]float64, len(s.e.Trees))
	for t := range s.treeCost {
		s.treeCost[t] = cf.treeCost
	}
	// Every training document a positive makes every binary target +1,
	// which the constant alone fits: λ_max is 0 and the cascade empty.
	// (The workbench lets a threshold pass through it, with a note.)
	if !cf.tg.Graded && !cf.tg.Distil && s.train.NumDocs() > 0 && cronus.CountPositives(s.train.Labels, cf.tg) == s.train.NumDocs() {
		return nil, fmt.Errorf("--relevant %g: %s: every training document has a label >= %g (the smallest is %g): nothing is irrelevant, so every binary target is +1 and no tree is worth its cost; raise the threshold, or use --graded or --distil",
			cf.tg.Relevant, s.train.Name, cf.tg.Relevant, slices.Min(s.train.Labels))
	}
	// Both phases take seconds on a large set (200,000 documents × 1,000
	// trees), minutes on MSLR-WEB30K's millions: each counts its work.
	began := time.Now()
	p.showNow("building the tree outputs (%d documents × %d trees)", s.train.NumDocs(), len(s.e.Trees))
	outputs := func(done, total int) {
		p.show("building the tree outputs: %d of %d trees (%d documents, %.1fs)", done, total, s.train.NumDocs(), time.Since(began).Seconds())
	}
	if s.pr, err = cronus.NewProblemProgress(ctx, s.e, s.train, s.costs.Cost, cf.treeCost, cf.tg, outputs); err != nil {
		if errors.Is(err, cronus.ErrNoPositives) {
			err = fmt.Errorf("--relevant %g: %w", cf.tg.Relevant, err)
		}
		return nil, memoryWayOut(err)
	}
	s.pr.JointEntry = cf.joint
	began = time.Now()
	gram := func(done, total int) {
		p.show("λ_max: the Gram product HᵀΩH, %d of %d documents (%d trees, %.1fs)", done, total, len(s.e.Trees), time.Since(began).Seconds())
	}
	if s.sc, err = cronus.ComputeScalesProgress(ctx, s.pr, 0, gram); err != nil {
		return nil, err
	}
	p.done()
	if s.pr.Advice != "" {
		fmt.Fprintf(stderr, "warning: %s (--relevant R, --graded)\n", s.pr.Advice)
	}
	if s.sc.LambdaMax == 0 && s.sc.FreeTrees > 0 {
		// eq (7)'s penalty is 0 on every tree that helps: λ scales
		// nothing, and a sweep's points are one cascade.
		warn(stderr, fmt.Sprintf("λ_max is 0: every tree that fits %s's targets better than the intercept costs nothing (its tree cost and its features' costs are 0), so λ changes nothing and every λ gives the same cascade; give the trees or the features a cost (--tree-cost, --costs)", cf.train))
	}
	return s, nil
}

// idleWarning names the stages of c, the cascade a run starts from, that
// only each query's top m reach (cronus.Problem.IdleFrom): they send no
// document away, so eq (8) is lower without their trees, and a user who
// asked for them (--stages, often to grow a --warm cascade) sees them come
// out empty.
func (s *setup) idleWarning(c *cronus.Cascade, warm bool) string {
	k, floor := s.pr.IdleFrom(c)
	K := len(c.Stages)
	if k >= K-1 {
		return ""
	}
	stages := fmt.Sprintf("stage %d", k+1)
	if k < K-2 {
		stages = fmt.Sprintf("stages %d-%d", k+1, K-1)
	}
	epsilon := "a smaller --epsilon"
	if warm {
		epsilon += " from scratch (not --warm)"
	}
	left := "the stages before leave each query its top %d alone"
	advice := fmt.Sprintf("--stages %d has as many exits, and %s spreads them over more stages", k+1, epsilon)
	if k == 0 {
		// Stage 1 has none before it: the queries are that short, and
		// no stage can exit a document whatever ε: only a smaller m
		// lets any (before, the advice was a smaller --epsilon).
		left = "no query has more than its top %d documents"
		longest := 0
		for q := 0; q+1 < len(s.pr.Offsets); q++ {
			longest = max(longest, s.pr.Offsets[q+1]-s.pr.Offsets[q])
		}
		advice = "--stages 1 has as many exits (none)"
		if longest > 1 {
			advice += fmt.Sprintf(", and a --top-m below %d (the longest training query's documents) lets the stages exit some", longest)
		}
	}
	return fmt.Sprintf("%s of %d can send no training document away: "+left+" (%.1f%% of the training documents), which --rule top-m never exits, so they can only add cost and the optimisation tends to drop their trees; %s",
		stages, K, c.TopM, 100*floor, advice)
}

func (s *setup) evaluator() cronus.Evaluator {
	return cronus.NewEvaluator(s.e, s.valid, s.test, s.costs.Cost, s.treeCost, reportSpecs)
}

// cutsEvaluator scores every cut of a cascade (its first k stages) on
// valid and test in one pass each.
func (s *setup) cutsEvaluator() cronus.CutsEvaluator {
	return cronus.NewCutsEvaluator(s.e, s.valid, s.test, s.costs.Cost, s.treeCost, reportSpecs)
}

// fullEnsemble is the quality (means and per query) and cost of the whole
// ensemble on d. It stops when ctx is done and returns ctx's error.
func (s *setup) fullEnsemble(ctx context.Context, d *data.Dataset) (cronus.Eval, error) {
	if d == nil {
		return cronus.Eval{}, ctx.Err()
	}
	sc, err := s.e.PredictContext(ctx, nil, d.Cols, d.NumDocs(), -1)
	if err != nil {
		return cronus.Eval{}, err
	}
	ev := cronus.Eval{Cost: metric.EnsembleCost(s.e.Features(-1), s.costs.Cost, len(s.e.Trees), s.treeCost[0])}
	ev.Measure(reportSpecs, sc, d)
	return ev, nil
}

// againstFull compares a cascade, of Eval ev, with the full ensemble, of
// Eval full on the same data, query by query on each metric of
// reportSpecs, as eval --compare does. Zero Evals (no data) give nil.
func againstFull(ctx context.Context, ev, full cronus.Eval) ([]metric.Paired, error) {
	if ev.PerQuery == nil {
		return nil, ctx.Err()
	}
	a, b := make([][]float64, len(reportSpecs)), make([][]float64, len(reportSpecs))
	for i, sp := range reportSpecs {
		a[i], b[i] = ev.PerQuery[sp.String()], full.PerQuery[sp.String()]
	}
	return comparePerQuery(ctx, io.Discard, "the full ensemble", reportSpecs, a, b, defaultCompareRounds)
}

// split is a data split of a curve: "valid" or "test", and its data (nil
// when there is no --test).
type split struct {
	name string
	d    *data.Dataset
}

func (s *setup) splits() []split { return []split{{"valid", s.valid}, {"test", s.test}} }

// scoredSplits names the splits that results are scored on: "valid", or
// "valid and test".
func (s *setup) scoredSplits() string {
	if s.test == nil {
		return "valid"
	}
	return "valid and test"
}

// cascadeFile is the file form of best, the cascade an optimisation at
// par kept, with the run's parameters: cronus.RunParams's, the cycles,
// the files, the flags that change the run, refit (Outcome.Refit: which
// refit, if any, it is) and extra's.
func (s *setup) cascadeFile(cf *cascadeFlags, par cronus.Params, best *cronus.State, refit string, reenter bool, extra map[string]any) *cronus.File {
	params := cronus.RunParams(par, cf.tg, s.sc.LambdaMax)
	params["cycles"], params["model"], params["train"], params["valid"] = cf.cycles, cf.model, cf.train, cf.valid
	if k := int(*cf.trees); k >= 0 {
		params["model_trees"] = k // the model's first k trees, which the file's ensemble holds
	}
	if reenter {
		params["reenter"] = true
	}
	if *cf.absent {
		params["absent"] = cf.absent.String() // eval --cascade needs --absent missing too
	}
	if cf.joint {
		params["joint_entry"] = true
	}
	if refit != "" {
		params["refit"] = refit
	}
	maps.Copy(params, extra)
	f := cronus.NewFile(s.e, &best.Cascade, s.costs.Cost, s.treeCost, par.Sigma, params)
	if s.source != "" {
		f.Ensemble.Source = s.source // not "cronus" for an imported model's trees
	}
	f.Ensemble.Params = s.modelParams // how it was trained or imported (the feature numbering)
	f.SetStageSigma(best.Sigma)
	return f
}

// points appends to dst the curve points of one method at lambda: its
// validation figures v, and its test figures t when there is test data.
func (s *setup) points(dst []baseline.Point, method string, lambda float64, v, t cronus.Eval) []baseline.Point {
	for _, sp := range s.splits() {
		ev := v
		if sp.name == "test" {
			ev = t
		}
		if sp.d != nil {
			dst = append(dst, baseline.Point{Method: method, Split: sp.name, Lambda: lambda, Cost: ev.Cost, Metrics: ev.Metrics, PerQuery: ev.PerQuery})
		}
	}
	return dst
}

// scorePoints scores c on valid and test, stopping when ctx is done, and
// appends its curve points, as method at lambda, to dst.
func (s *setup) scorePoints(ctx context.Context, dst []baseline.Point, method string, lambda float64, c *cronus.Cascade) ([]baseline.Point, error) {
	v, t, err := s.evaluator()(ctx, c)
	if err != nil {
		return dst, err
	}
	return s.points(dst, method, lambda, v, t), nil
}

// explicitFlags are the flags given on the command line (fs parsed).
func explicitFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// checkPlot refuses a plot file whose extension cannot be drawn ("": no
// --plot; a name without an extension has none to draw).
func checkPlot(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png":
		return nil
	case "":
		if path == "" {
			return nil
		}
	}
	return usageError{fmt.Sprintf("--plot %s: use a .svg or .png file", path)}
}

// addPlot appends to outs the plot of points drawn to path (--plot; ""
// adds nothing), titled with the model and data files.
func (cf *cascadeFlags) addPlot(outs []data.Output, path string, points []baseline.Point) ([]data.Output, error) {
	if path == "" {
		return outs, nil
	}
	o, err := baseline.PlotOutput(path, points, frontMetric, baseline.CurveTitle(cf.model, [2]string{"valid", cf.valid}, [2]string{"test", cf.test}))
	if err != nil {
		return nil, err
	}
	return append(outs, o), nil
}

// inputs are the files the command reads.
func (cf *cascadeFlags) inputs() []string {
	return []string{cf.model, cf.train, cf.valid, cf.test, cf.costs}
}

// defaultRhos is the ρ grid of `cascade` and `sweep` (fractions of ρ_max).
// Both ends matter: on the synthetic MSLR-cost set, ρ >= 0.005 ρ_max capped
// the re-weighted ensemble at NDCG@10 0.935 against the full ensemble's
// 0.958; on MQ2008, validation chose 0.05 or 0.1 at low λ once offered, for
// cheaper and better cascades on test (bench/MEASURED.md). It is
// cronus.DefaultRhos as the flag's text (the tui tests hold them equal).
const defaultRhos = "0.0002,0.001,0.005,0.02,0.05,0.1"

// runKeys are the params of a cascade file (cronus.RunParams) that define
// the problem and eq (8): λ (and λ_max, which follows the training data),
// K, ε, σ, δ, ρ, the exit rule and the targets: every one RunParams
// records but lambda_abs (TestRunKeysCoverRunParams).
var runKeys = []string{"lambda", "lambda_max", "stages", "epsilon", "sigma", "delta", "stage_cap", "rho1", "rhoK",
	"rule", "top_m", "pos_weight", "neg_weight", "neg_multiply", "relevant", "graded", "distil"}

// sameRun reports whether a cascade file's params a hold the same runKeys
// as this run's b, each as JSON writes it (a file's numbers read back
// exactly). A file written before its params held the stage cap was made
// with the default one.
func sameRun(a, b map[string]any) bool {
	if a == nil {
		return false
	}
	for _, k := range runKeys {
		v := a[k]
		if _, ok := a[k]; !ok && k == "stage_cap" {
			v = cronus.DefaultParams().StageCap
		}
		x, _ := json.Marshal(v)
		y, _ := json.Marshal(b[k])
		if !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

// parseRhos reads a comma-separated ρ grid.
func parseRhos(s string) ([]float64, error) {
	return parseFloats(between("rhos", 0, cronus.MaxRho, "[]"), "fractions of ρ_max", s)
}

// parseFloats reads s, the value of the list flag r.name: comma-separated
// numbers, each in r and each once. An error names the value that is not,
// as the other flag errors do (`--rhos: each value must be in [0, 100]
// (fractions of ρ_max), got "500"`); note follows the range. A value given
// twice only repeated the work it asks for (--rhos 1,2,1: an initialisation
// more) or the rows it makes.
func parseFloats(r flagRange, note, s string) ([]float64, error) {
	var out []float64
	fields := strings.Split(s, ",")
	for _, f := range fields {
		f = strings.TrimSpace(f)
		v, want := parseIn(r, note, f)
		if want != "" {
			return nil, fmt.Errorf("--%s: each value must be %s, got %q", r.name, want, f)
		}
		if j := slices.Index(out, v); j >= 0 {
			return nil, fmt.Errorf("--%s: each value must be given once (it is the same as %q), got %q", r.name, strings.TrimSpace(fields[j]), f)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseIn reads s as a number in r. When it is not one, want says what it
// must be: a number, or (with note) a number in r. A number too large for
// a float64 ("1e400") is refused, even where r takes +Inf.
func parseIn(r flagRange, note, s string) (v float64, want string) {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange), !data.DecimalSyntax(s):
		return 0, "a number"
	case !r.ok(v):
		want = r.want()
	case err != nil:
		want = fmt.Sprintf("a number of magnitude at most %v", math.MaxFloat64)
	case v == 0:
		return 0, "" // not -0, which "-0" and "-1e-400" read as (written "-0" in the curve)
	default:
		return v, ""
	}
	if note != "" {
		want += " (" + note + ")"
	}
	return 0, want
}

// chooseRho sets ρ_1 = ρ_K to the value of rhos whose initialised cascade
// (Algorithm 2 only) scores best on validation NDCG@10 (§3.4). It returns
// that initialisation and the time it took as Options.Init and InitTime,
// for the optimisation to start from (empty when there was no choice).
// each, when not nil, is called before initialisation i of n and as it
// goes, with its stages made so far (cronus.InitializeProgress) and the
// time elapsed since the first began (for the progress line: on a large
// data set each takes seconds).
func (s *setup) chooseRho(ctx context.Context, par *cronus.Params, rhos []float64, rule cronus.RhoRule, each func(i, n int, stages float64, elapsed time.Duration)) (cronus.Options, error) {
	var init cronus.Options
	if len(rhos) < 2 {
		if len(rhos) == 1 {
			par.Rho1, par.RhoK = rhos[0], rhos[0]
		}
		return init, nil
	}
	begin := time.Now()
	var progress func(int, float64)
	if each != nil {
		progress = func(i int, stages float64) { each(i, len(rhos), stages, time.Since(begin)) }
	}
	// ρ is chosen on validation: the test set is not scored.
	c, err := cronus.ChooseRho(ctx, s.pr, s.sc, *par, rhos, rule, func(ctx context.Context, c *cronus.Cascade) ([]float64, error) {
		v, err := cronus.EvaluateContext(ctx, s.e, c, s.valid, s.costs.Cost, s.treeCost, reportSpecs)
		return v.PerQuery["ndcg@10"], err
	}, progress)
	if err != nil {
		return init, err
	}
	if c.Init != nil {
		par.Rho1, par.RhoK = c.Rho, c.Rho
		init.Init, init.InitTime = c.Init, c.InitTime
	}
	return init, nil
}

// rhoProgress is the progress text of chooseRho in initialisation i of n
// of k stages each, with stages made, elapsed after the first began:
// "choosing ρ: initialisation 3 of 6, stage 4 of 10 (40s, about 1m20s
// left)"; with one stage (the single stage of sweep), without the stage.
func rhoProgress(i, n int, stages float64, k int, elapsed time.Duration) string {
	stage := ""
	if k > 1 {
		stage = fmt.Sprintf(", stage %d of %d", cronus.InitStage(stages, k), k)
	}
	return fmt.Sprintf("choosing ρ: initialisation %d of %d%s%s", i+1, n, stage, fracLeft((float64(i)+stages/float64(k))/float64(n), elapsed))
}

// initProgress is the progress text of an initialisation (Algorithm 2) of
// k stages with stages made, elapsed after it began: "Algorithm 2: stage 3
// of 10 (2s, about 3s left)"; once every stage is made, "Algorithm 2: 10
// stages made, scoring them".
func initProgress(stages float64, k int, elapsed time.Duration) string {
	if stages >= float64(k) {
		return fmt.Sprintf("Algorithm 2: %d stages made, scoring them", k)
	}
	return fmt.Sprintf("Algorithm 2: stage %d of %d%s", cronus.InitStage(stages, k), k, fracLeft(stages/float64(k), elapsed))
}

// stepProgress is where the cyclic optimisation is, for the progress line:
// "optimising cycle 2 of at most 5, stage 3 of 10 (40s, at most about
// 1m20s left)": the time since the job began (pr, its progress, with the
// initialisation), and the estimate of the steps left from the rate of
// those done, for the cycle cap (the run stops sooner once eq (8)
// settles); in the first second neither. The line had no time (117 s on
// 200,000 documents).
func stepProgress(phase string, cycle, cycles, stage, k int, pr job.Progress) string {
	if phase != "optimising" || cycle < 1 {
		return fmt.Sprintf("%s cycle %d stage %d", phase, cycle, stage+1)
	}
	where := fmt.Sprintf("optimising cycle %d of at most %d, stage %d of %d", cycle, cycles, stage+1, k)
	if pr.Phase != "optimising" || pr.Elapsed < time.Second || pr.ETA <= 0 {
		return where
	}
	return where + fmt.Sprintf(" (%s, at most about %s left)", pr.Elapsed.Round(time.Second), pr.ETA.Round(time.Second))
}

// fracLeft is " (40s, about 1m20s left)" for the work done, a fraction of
// it, after elapsed; "" in the first second (the estimate is then noise,
// and MQ2008's initialisations take less) or with nothing done.
func fracLeft(done float64, elapsed time.Duration) string {
	if !(done > 0) || elapsed < time.Second {
		return ""
	}
	left := time.Duration(float64(elapsed) * max(1-done, 0) / done)
	return fmt.Sprintf(" (%s, about %s left)", elapsed.Round(time.Second), left.Round(time.Second))
}

// initialize is cronus.Initialize with a progress line, each of its texts
// after prefix.
func (s *setup) initialize(ctx context.Context, par cronus.Params, p *progress, prefix string) (*cronus.State, error) {
	start := time.Now()
	return cronus.InitializeProgress(ctx, s.pr, s.sc, par, func(stages float64) {
		p.showIf(stages >= float64(par.K), "%s%s", prefix, initProgress(stages, par.K, time.Since(start)))
	})
}

// optimize runs one optimisation as a job with a progress line.
// opt may carry an initialisation to start from (chooseRho's); the cycles
// and whether trees re-enter come from cf.
func (s *setup) optimize(ctx context.Context, cf *cascadeFlags, par cronus.Params, opt cronus.Options, p *progress, trace *traceLog) (*cronus.Outcome, error) {
	opt.MaxCycles, opt.InitOnly, opt.Reenter, opt.Refit = cf.cycles, cf.cycles == 0, cf.reenter, cf.refit
	const initPhase = "initialising"
	j := job.Start(ctx, func(ctx context.Context, r *job.Reporter[cronus.Snapshot]) (*cronus.Outcome, error) {
		// Algorithm 2 reports the stages it has made (4-5 s on 200,000
		// documents, with no step), then each step its snapshot.
		r.Phase(initPhase, float64(par.K))
		opt.InitProgress = func(stages float64) {
			if stages >= float64(par.K) {
				r.Boundary(stages, nil) // the scoring of the initialisation is left, without a report
			} else {
				r.Report(stages, nil)
			}
		}
		// Optimize's first report is the initialisation's, timed above.
		step := r.PhaseAtFirst("optimising", float64(1+cf.cycles*par.K), r.Report)
		report := step
		var traceErr error // a trace line that could not be written stops the run
		if trace != nil {
			// Every step goes to the trace; the progress line takes what
			// the reporter's rate lets through.
			report = func(done float64, snap func() cronus.Snapshot) bool {
				sn := snap()
				if err := trace.add(&sn); err != nil {
					traceErr = err
					return false
				}
				return step(done, func() cronus.Snapshot { return sn })
			}
		}
		out, err := cronus.Optimize(ctx, s.pr, s.sc, par, opt, s.evaluator(), report)
		if traceErr != nil {
			// Optimize says only that the report stopped it (ErrStopped):
			// before, it said nothing, and the cascade of the step the
			// trace failed at was written as the run's.
			return out, fmt.Errorf("--trace: %w", traceErr)
		}
		return out, err
	})
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	followEvents(j.Events(), tick.C, time.Now, func(ev job.Event[cronus.Snapshot, *cronus.Outcome], since time.Duration) {
		pr := ev.Progress
		pr.Elapsed += since
		if pr.Phase == initPhase {
			// The scoring left comes without a report.
			p.showIf(since == 0 && pr.Done >= pr.Total, "λ=%.3g: %s", par.Lambda, initProgress(pr.Done, par.K, pr.Elapsed))
			return
		}
		if pr.ETA > 0 {
			pr.ETA = max(pr.ETA-since, time.Second)
		}
		sn := ev.Snapshot
		if n := len(sn.Terms); n > 0 {
			p.show("λ=%.3g: %s  eq(8) %.6g  valid %s %.4f (best %.4f)  cost %.1f",
				par.Lambda, stepProgress(sn.Phase, sn.Cycle, cf.cycles, sn.Stage, par.K, pr), sn.Terms[n-1].Total, "ndcg@10",
				sn.Valid.Metrics["ndcg@10"], sn.Best.Metrics["ndcg@10"], sn.Valid.Cost.Total)
		}
	})
	p.done()
	return j.Wait()
}

// followEvents calls draw(ev, 0) for each event of a job but the last
// (Final), and at each tick while no event comes draw(last, since), since
// the time from the last event to now: a progress line drawn from the
// events stood still between them, and a stage step of the cyclic
// optimisation is one event, which took 6.5 s on 200,000 documents ×
// 1,000 trees (a --progress-every 1s log was silent meanwhile). It
// returns at the last event, or when events closes.
func followEvents[S, R any](events <-chan job.Event[S, R], tick <-chan time.Time, now func() time.Time, draw func(ev job.Event[S, R], since time.Duration)) {
	var last job.Event[S, R]
	var at time.Time
	seen := false
	for {
		select {
		case ev, ok := <-events:
			if !ok || ev.Final {
				return
			}
			last, at, seen = ev, now(), true
			draw(ev, 0)
		case <-tick:
			if seen {
				draw(last, now().Sub(at))
			}
		}
	}
}

func runCascade(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cascade", stdout)
	cf := addCascadeFlags(fs)
	fs.Float64Var(&cf.par.Lambda, "lambda", cf.par.Lambda, "cost trade-off `λ` as a fraction of λ_max (printed)")
	out := fs.String("out", "", "cascade `FILE` to write (required): the best cascade on validation")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	curve := fs.String("curve", "", "also write the cascade's quality/cost points to `FILE` (CSV, sweep's columns): cronus (this cascade), cronus-init (its initialisation; not with --warm) and prefix with every tree (the full ensemble), on validation and test")
	plot := fs.String("plot", "", "also draw the --curve points, NDCG@10 against cost per document, to `FILE` (.svg or .png; as sweep --plot)")
	traceF := fs.String("trace", "", "write every optimisation step to `FILE` as JSON lines: the objective (eq 8) and its terms, per stage θ, active trees, soft and hard training fractions and validation/test reach, and the current cascade's validation and test figures")
	fs.StringVar(&cf.warm, "warm", "", "start from the stages of this cascade `FILE` (from cascade or the workbench, on the same model) instead of the initialisation, as the workbench does after an edit; built on the model's first n trees, it goes on with them unless --trees is given; K is its number of stages unless --stages changes it (its first K−1 stages and its last are kept, new ones are added before the last by Algorithm 2; a warning names those that can exit nobody), its exit rule is kept (a --rule or --top-m that differs is refused), its σ_k unless --sigma is given, its ρ (params rho1, rhoK) unless --rho1, --rhoK or --rhos is given, and its ε and δ (which, with --stage-cap, only make the stages --stages adds: given without such stages they are refused)")
	lambdaRange := between("lambda", 0, cronus.MaxLambda, "[]")
	if err := parseNoArgs(fs, args, append(slices.Clip(cascadeRanges), lambdaRange)...); err != nil {
		return err
	}
	if *out == "" {
		return usageError{"--out FILE is required"}
	}
	if !explicitFlags(fs)["reenter"] {
		cf.reenter = cf.warm != ""
	}
	var warm *cronus.Cascade
	var warmSigma []float64
	var warmParams map[string]any // the warm cascade's params
	var absentWarning string      // --absent given against the warm cascade's reading
	var warmFile *cronus.File     // the warm cascade's file, for its costs
	warmRho := false              // ρ taken from the warm cascade's params
	if cf.warm != "" {
		f, err := untilDone(ctx, func() (*cronus.File, error) { return cronus.ReadFile(cf.warm) })
		if err != nil {
			return err
		}
		if cf.warmE, warm, err = f.Cascade(); err != nil {
			return fmt.Errorf("%s: %w", cf.warm, err)
		}
		warmParams = f.Params
		warmFile = f
		// Continue with the σ_k the cascade was trained with, as the
		// workbench does, unless --sigma asks for new ones.
		explicit := explicitFlags(fs)
		// What the file gives in place of a flag is checked as the flag
		// would be, the error naming the file (a hand-edited one blamed
		// the flag, which was not given).
		fromFile := func(field string, set func(*cronus.Params)) error {
			try := cronus.DefaultParams()
			set(&try)
			if err := try.Validate(); err != nil {
				return fmt.Errorf("%s: %s: %w", cf.warm, field, err)
			}
			set(&cf.par)
			return nil
		}
		// A file without them (written before 2026-11-23) has its σ the
		// σ_k are derived again from (a file without "sigma" is refused
		// as it is read).
		if !explicit["sigma"] {
			warmSigma = f.StageSigma()
			if err := fromFile("sigma", func(p *cronus.Params) { p.Sigma = f.Sigma }); err != nil {
				return err
			}
		}
		// Left-out features read as the warm cascade read them, unless
		// --absent says otherwise (which is warned of): read as 0, the
		// stages of a cascade made reading them as missing scored other
		// values, silently (validation NDCG@10 0.5442 where the file's
		// was 0.5114, with --cycles 0), and the new file lost "absent".
		if made := absentFlag(f.Params["absent"] == "missing"); !explicit["absent"] {
			*cf.absent = made
		} else if made != *cf.absent {
			absentWarning = fmt.Sprintf("--absent %s: %s was made reading left-out features with --absent %s; its stages go on under another reading", cf.absent, cf.warm, made.String())
		}
		// The exit rule is the warm cascade's: its stages go on under the
		// rule they were trained for (cronus.Options.Warm), so the file's
		// params must say so, and a --rule or --top-m that differs would be
		// ignored.
		if err := cf.warmRule(explicit, warm); err != nil {
			return err
		}
		// K is the warm cascade's unless --stages changes it (stages are
		// then dropped or added before its last; see cronus.Options.Warm).
		if !explicit["stages"] {
			cf.par.K = len(warm.Stages)
		}
		// ε, δ and the stage cap make the initialisation's stages: from a
		// warm cascade only the stages --stages adds. Given without one
		// they did nothing, and yet, recorded, they kept the run from
		// counting as the file's continuation (so it could return a
		// cascade worse than the file's); not given, they are the file's.
		if cf.par.K <= len(warm.Stages) {
			for _, name := range []string{"epsilon", "delta", "stage-cap"} {
				if explicit[name] {
					return usageError{fmt.Sprintf("--%s: a warm start keeps the stages of %s (%d); --%s applies only to the stages --stages adds", name, cf.warm, len(warm.Stages), name)}
				}
			}
		}
		for _, fld := range []struct {
			name, flag string
			at         func(*cronus.Params) *float64
		}{
			{"epsilon", "epsilon", func(p *cronus.Params) *float64 { return &p.Epsilon }},
			{"delta", "delta", func(p *cronus.Params) *float64 { return &p.Delta }},
			{"stage_cap", "stage-cap", func(p *cronus.Params) *float64 { return &p.StageCap }},
		} {
			if explicit[fld.flag] {
				continue
			}
			// Absent (a file written before it held the value), the
			// default; present, it must be a number (a string "0.15" was
			// skipped for the default, quietly).
			x, err := warmNumber(f.Params, fld.name)
			if err != nil {
				return fmt.Errorf("%s: %w", cf.warm, err)
			}
			if x != nil {
				if err := fromFile("params."+fld.name, func(p *cronus.Params) { *fld.at(p) = *x }); err != nil {
					return err
				}
			}
		}
		// And ρ is the one it was trained with, as σ_k: choosing ρ again
		// would run initialisations the warm start never uses, and a new ρ
		// changes eq (8) between a run and its continuation.
		if !explicit["rho1"] && !explicit["rhoK"] && !explicit["rhos"] {
			// Without them (a hand-written file), the grid chooses; one
			// of them malformed or out of range is refused, naming the
			// field (the grid chose instead, quietly; check would have
			// blamed --rho1, which was not given).
			rho := [2]*float64{}
			for i, name := range []string{"rho1", "rhoK"} {
				x, err := warmNumber(f.Params, name)
				if err != nil {
					return fmt.Errorf("%s: %w", cf.warm, err)
				}
				if x != nil && !rhoRange.ok(*x) {
					return fmt.Errorf("%s: params.%s is %v: must be %s (a fraction of ρ_max, as --%[2]s takes it)", cf.warm, name, *x, rhoRange.want())
				}
				rho[i] = x
			}
			switch {
			case rho[0] != nil && rho[1] != nil:
				cf.par.Rho1, cf.par.RhoK, warmRho = *rho[0], *rho[1], true
			case rho[0] != nil:
				return fmt.Errorf("%s: params.rho1 is given without params.rhoK: give both, or --rho1 and --rhoK", cf.warm)
			case rho[1] != nil:
				return fmt.Errorf("%s: params.rhoK is given without params.rho1: give both, or --rho1 and --rhoK", cf.warm)
			}
		}
	}
	if err := cf.check(fs, lambdaRange); err != nil {
		return err
	}
	var otherTargets string // the warm cascade's targets that differ from these
	if warmParams != nil {
		var err error
		if otherTargets, err = targetsChanged(cf.warm, warmParams, cf.tg); err != nil {
			return fmt.Errorf("%s: %w", cf.warm, err)
		}
	}
	if err := checkPlot(*plot); err != nil {
		return err
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, append(cf.inputs(), cf.warm), *out, *traceF, *curve, *plot); err != nil {
		return err
	}
	var trace *traceLog
	if *traceF != "" {
		trace = &traceLog{}
	}
	var rhos []float64 // none: ρ is given, or the warm cascade's
	if !warmRho {
		var err error
		if rhos, err = cf.rhoGrid(fs); err != nil {
			return err
		}
	} else if explicitFlags(fs)["rho-rule"] {
		return usageError{"--rho-rule: with --warm the warm cascade's ρ is kept and none is chosen; give --rhos to choose it again"}
	}
	start := time.Now()
	s, err := cf.load(ctx, stderr)
	if err != nil {
		return err
	}
	// Said only when the data leave values out, where the reading matters
	// (as predict and eval --cascade say it).
	for _, d := range []*data.Dataset{s.train, s.valid, s.test} {
		if d != nil && d.LeftOut() > 0 {
			warn(stderr, absentWarning)
			break
		}
	}
	var otherCosts string // the warm cascade's costs that differ from these
	if warmFile != nil {
		otherCosts = costsChanged(cf.warm, warmFile, s)
		warn(stderr, otherCosts)
		warn(stderr, otherTargets)
	}
	p := cf.newProgress(stderr)
	defer p.done() // an error or an interrupt clears the line too
	init, err := s.chooseRho(ctx, &cf.par, rhos, cf.pickRho(), func(i, n int, stages float64, elapsed time.Duration) {
		p.show("λ = %.3g × λ_max: %s", cf.par.Lambda, rhoProgress(i, n, stages, cf.par.K, elapsed))
	})
	if err != nil {
		return err
	}
	init.Warm, init.WarmSigma = warm, warmSigma // nil: from the initialisation
	// A continuation (the warm cascade's own parameters and σ_k) returns
	// nothing worse on validation than the cascade it was given. Its costs
	// are eq (8)'s too, and not among its params: under other costs it
	// was optimised for another problem, as under another λ, and came
	// back unchanged (step 0) whatever cheaper cascades the run found.
	init.WarmSame = warmSigma != nil && otherCosts == "" && sameRun(warmParams, cronus.RunParams(cf.par, cf.tg, s.sc.LambdaMax))
	res, err := s.optimize(ctx, cf, cf.par, init, p, trace)
	if err != nil {
		return err
	}
	warn(stderr, s.idleWarning(&res.Init.Cascade, res.Warm))
	if !res.Warm && s.sc.LambdaMax == 0 && !hasTrees(&res.Best.Cascade) {
		// No λ or ρ helps, and no warm start: the advice below was wrong.
		warn(stderr, "the cascade written is empty (no trees, cost 0): "+lambdaMaxZeroWhy(cf.train))
	} else if !res.Warm && cf.par.Lambda >= 1 && !hasTrees(&res.Best.Cascade) {
		warn(stderr, fmt.Sprintf("λ %g is at or above λ_max, where Algorithm 2 gives the empty cascade (no trees, cost 0); a cascade of a smaller λ can have a lower eq (8) here: start from one with --warm FILE, as sweep does past λ_max (README, sweep)", cf.par.Lambda))
	} else if !res.Warm && !hasTrees(&res.Best.Cascade) {
		// Below λ_max, a ρ large enough for its λ empties it too.
		warn(stderr, fmt.Sprintf("the cascade written is empty (no trees, cost 0) at λ %g and ρ %g, %g: a smaller λ or ρ keeps trees, and a cascade of a smaller λ, given with --warm FILE, can have a lower eq (8) here, as sweep finds",
			cf.par.Lambda, cf.par.Rho1, cf.par.RhoK))
	}
	best := res.Best // its exit rule is the one it was trained for (Params.TopM)
	var extra map[string]any
	if cf.warm != "" {
		extra = map[string]any{"warm": cf.warm}
	}
	f := s.cascadeFile(cf, cf.par, best, res.Refit, cf.reenter, extra)
	// Everything is scored before anything is written, and the files are
	// written together, all or none: an interrupt while scoring leaves the
	// old files.
	p.show("scoring the cascade and the full ensemble on %s (%.0fs)", s.scoredSplits(), time.Since(start).Seconds())
	eval := s.evaluator()
	valid, test, err := eval(ctx, &best.Cascade)
	if err != nil {
		return err
	}
	fullV, err := s.fullEnsemble(ctx, s.valid)
	if err != nil {
		return err
	}
	fullT, err := s.fullEnsemble(ctx, s.test)
	if err != nil {
		return err
	}
	// The cascade against the full ensemble, query by query.
	cmpV, err := againstFull(ctx, valid, fullV)
	if err != nil {
		return err
	}
	cmpT, err := againstFull(ctx, test, fullT)
	if err != nil {
		return err
	}
	// The cascade the run ended with (the best may be an earlier step's):
	// what the workbench's status line and stage table show once a run is
	// done.
	var finalV, finalT cronus.Eval
	if *jsonOut {
		if finalV, finalT, err = eval(ctx, &res.Final.Cascade); err != nil {
			return err
		}
	}
	var points []baseline.Point
	if *curve != "" || *plot != "" {
		if cf.warm == "" { // a warm start has no initialisation
			if points, err = s.scorePoints(ctx, points, "cronus-init", cf.par.Lambda, &res.Init.Cascade); err != nil {
				return err
			}
		}
		points = s.points(points, "cronus", cf.par.Lambda, valid, test)
		// The full ensemble, as sweep's last prefix row (k = every tree).
		points = s.points(points, baseline.MethodPrefix, float64(len(s.e.Trees)), fullV, fullT)
	}
	p.done()
	if err := ctx.Err(); err != nil {
		return err
	}
	paths := []string{*out}
	for _, o := range []string{*traceF, *curve, *plot} {
		if o != "" {
			paths = append(paths, o)
		}
	}
	if err := writeShowing(stderr, paths, func() error {
		cascadeOut, err := cronus.FileOutputContext(ctx, *out, f)
		if err != nil {
			return err
		}
		outs := []data.Output{cascadeOut}
		if trace != nil {
			outs = append(outs, data.BytesOutput(*traceF, trace.b.Bytes()))
		}
		if *curve != "" {
			outs = append(outs, baseline.CSVOutput(*curve, points))
		}
		if outs, err = cf.addPlot(outs, *plot, points); err != nil {
			return err
		}
		return data.WriteAtomicAllContext(ctx, outs)
	}); err != nil {
		return err
	}
	stages := stagesJSON(best, valid, test, s.test != nil)
	if *jsonOut {
		// Each stage's "first_stages": the cascade cut after it, as
		// predict and eval --stages k run it, on the scored splits, all
		// from one pass over each (the last is the cascade's own).
		cv, ct, err := s.cutsEvaluator()(ctx, &best.Cascade)
		if err != nil {
			return err
		}
		for k := range stages {
			v, t := cv[k], ct[k]
			cut := map[string]any{"valid": cutJSON(v)}
			if s.test != nil {
				cut["test"] = cutJSON(t)
			}
			stages[k]["first_stages"] = cut
		}
		prefixes, err := s.lastPrefixesJSON(ctx, &best.Cascade)
		if err != nil {
			return err
		}
		r := map[string]any{"cascade": *out, "lambda_max": s.sc.LambdaMax, "lambda": cf.par.Lambda, "rho1": cf.par.Rho1, "rhoK": cf.par.RhoK, "seconds": time.Since(start).Seconds(),
			"init_seconds": res.InitTime.Seconds(), "cyclic_seconds": res.CyclicTime.Seconds(), "threads": runtime.GOMAXPROCS(0),
			"valid": evalJSON(valid), "full_valid": evalJSON(fullV), "stages": stages, "last_prefixes": prefixes}
		if cf.refit {
			r["refit"] = res.Refit // "": the run's own best was better on validation
		}
		r["paired_valid"] = pairedJSON(reportSpecs, cmpV)
		if s.test != nil {
			r["test"], r["full_test"] = evalJSON(test), evalJSON(fullT)
			r["paired_test"] = pairedJSON(reportSpecs, cmpT)
		}
		for name, path := range map[string]string{"curve": *curve, "plot": *plot, "trace": *traceF} {
			if path != "" {
				r[name] = path
			}
		}
		r["best_step"] = res.History.BestStep
		r["final_valid"] = evalJSON(finalV)
		if s.test != nil {
			r["final_test"] = evalJSON(finalT)
		}
		return writeJSON(stdout, r)
	}
	fmt.Fprintf(stdout, "wrote %s: %s, λ = %g × λ_max (λ_max = %.4g); initialisation %.2fs, cyclic optimisation %.2fs, all %.1fs\n",
		views.Printable(*out), count(len(best.Stages), "stage"), cf.par.Lambda, s.sc.LambdaMax, res.InitTime.Seconds(), res.CyclicTime.Seconds(), time.Since(start).Seconds())
	fmt.Fprintln(stdout, keptStep(res.History.BestStep, len(best.Stages), res.Warm, res.Refit))
	fmt.Fprintf(stdout, "%-6s %6s %10s %15s %8s %8s\n", "stage", "trees", "θ", "train soft/hard", "valid", "test")
	for k, st := range best.Stages {
		th := "-" // the last stage, which ranks what reaches it
		switch {
		case k == len(best.Stages)-1:
		case math.IsInf(st.Theta, -1):
			th = "-inf" // passes everything (it read "-" too)
		default:
			th = strconv.FormatFloat(st.Theta, 'f', 4, 64)
		}
		reachedTest := "-" // no --test
		if s.test != nil {
			reachedTest = strconv.FormatFloat(at(test.Reached, k), 'f', 3, 64)
		}
		fmt.Fprintf(stdout, "%-6d %6d %10s %15s %8.3f %8s\n", k+1, len(st.Active()), th,
			fmt.Sprintf("%.3f/%.3f", at(best.D, k), at(best.Hard, k)), at(valid.Reached, k), reachedTest)
	}
	printEval := func(name string, ev, full cronus.Eval, cmp []metric.Paired) {
		if ev.Metrics == nil {
			return
		}
		fmt.Fprintf(stdout, "%-5s cascade  p@5 %.4f  ndcg@10 %.4f  err@3 %.4f  cost/doc %.1f (features %.1f, trees %.1f)\n", name,
			ev.Metrics["p@5"], ev.Metrics["ndcg@10"], ev.Metrics["err@3"], ev.Cost.Total, ev.Cost.Features, ev.Cost.Trees)
		ratio := "-" // a full ensemble that costs nothing (all costs 0)
		if full.Cost.Total > 0 {
			ratio = strconv.FormatFloat(ev.Cost.Total/full.Cost.Total, 'f', 3, 64)
		}
		fmt.Fprintf(stdout, "%-5s full     p@5 %.4f  ndcg@10 %.4f  err@3 %.4f  cost/doc %.1f (features %.1f, trees %.1f); cascade/full cost %s\n", name,
			full.Metrics["p@5"], full.Metrics["ndcg@10"], full.Metrics["err@3"], full.Cost.Total, full.Cost.Features, full.Cost.Trees, ratio)
		fmt.Fprintf(stdout, "%-5s cascade-full", name)
		for i, sp := range reportSpecs {
			fmt.Fprintf(stdout, "  %s %s (p %s)", sp, pairedNum("%+.4f", cmp[i].Diff), pairedNum("%.3f", cmp[i].PT))
		}
		fmt.Fprintf(stdout, ": paired t test over %s\n", count(cmp[0].Queries, "query"))
	}
	printEval("valid", valid, fullV, cmpV)
	printEval("test", test, fullT, cmpT)
	return nil
}

// keptStep says which step of the run the cascade written is: the best on
// validation, at step (0: the initialisation, or the cascade a warm start
// began from; then one step per stage, K a cycle), refitted with mode
// refit when not "". (Only --json's final_valid told that the cascade
// written was, say, the initialisation unchanged.)
func keptStep(step, K int, warm bool, refit string) string {
	what := "the initialisation (step 0)"
	if warm {
		what = "the cascade it started from (step 0)"
	}
	if step > 0 {
		what = fmt.Sprintf("step %d, after stage %d of cycle %d", step, (step-1)%K+1, (step-1)/K+1)
	}
	if refit != "" {
		what += ", refitted (" + refit + ")"
	}
	return "the best on validation: " + what
}

// stagesJSON is cascade --json's "stages": per stage its active trees,
// θ (but for the last; null for −∞, a stage that passes everything, as in
// the cascade file and the trace: the key was left out), the training
// fractions reaching it, soft and hard, and the validation (and, withTest,
// test) fractions.
func stagesJSON(best *cronus.State, valid, test cronus.Eval, withTest bool) []map[string]any {
	stages := make([]map[string]any, len(best.Stages))
	for k, st := range best.Stages {
		m := map[string]any{"active_trees": len(st.Active()), "reached_valid": at(valid.Reached, k),
			"soft_train": at(best.D, k), "hard_train": at(best.Hard, k)}
		if k < len(best.Stages)-1 {
			m["theta"] = nil
			if !math.IsInf(st.Theta, -1) {
				m["theta"] = st.Theta
			}
		}
		if withTest {
			m["reached_test"] = at(test.Reached, k)
		}
		stages[k] = m
	}
	return stages
}

func at(xs []float64, k int) float64 {
	if k < len(xs) {
		return xs[k]
	}
	return 0
}

// lastPrefixesJSON is cascade --json's "last_prefixes": c with its last
// stage the base ensemble's first n trees, as eval --last-prefix n runs
// it (sweep --variants last-prefix's λ#pn rows), for each n of
// cronus.DefaultLastPrefixes up to the trees, each with n and the
// figures on valid and, with test data, test; none when c's stages
// before the last keep no tree (each would be the prefix itself).
func (s *setup) lastPrefixesJSON(ctx context.Context, c *cronus.Cascade) ([]map[string]any, error) {
	out := []map[string]any{}
	if c.FirstKept() >= len(c.Stages)-1 {
		return out, nil
	}
	eval := s.evaluator()
	for _, n := range cronus.DefaultLastPrefixes {
		if n > len(s.e.Trees) {
			break
		}
		v, t, err := eval(ctx, c.LastPrefix(n, s.e.Base))
		if err != nil {
			return nil, err
		}
		p := map[string]any{"n": n, "valid": cutJSON(v)}
		if s.test != nil {
			p["test"] = cutJSON(t)
		}
		out = append(out, p)
	}
	return out, nil
}

// cutJSON is a cut cascade's figures in cascade --json's stages: its
// metrics and cost (the fractions reaching its stages are the whole
// cascade's).
func cutJSON(ev cronus.Eval) map[string]any {
	return map[string]any{"metrics": ev.Metrics, "cost": ev.Cost}
}

func evalJSON(ev cronus.Eval) map[string]any {
	return map[string]any{"metrics": ev.Metrics, "cost": ev.Cost, "reached": ev.Reached}
}

// frontMetric is the quality axis of sweep's Pareto front (and plot).
const frontMetric = "ndcg@10"

// treesDiffer says how the trees of b differ from those of a, "" when they
// are the same (a cascade's stages score with the trees' leaf values, not
// the base score): their number, or the first tree that differs and how.
func treesDiffer(a, b *tree.Ensemble) string {
	n := len(a.Trees)
	if n != len(b.Trees) {
		return fmt.Sprintf("%d trees, against %d", n, len(b.Trees))
	}
	for i := range a.Trees {
		switch ta, tb := &a.Trees[i], &b.Trees[i]; {
		case !reflect.DeepEqual(ta.Nodes, tb.Nodes):
			return fmt.Sprintf("both have %d trees, but tree %d of %d splits differently", n, i+1, n)
		case !reflect.DeepEqual(ta.Leaves, tb.Leaves):
			return fmt.Sprintf("both have %d trees, but the leaf values of tree %d of %d differ", n, i+1, n)
		}
	}
	return ""
}

// traceLog collects the JSON lines of `cascade --trace`, one per
// optimisation step, written out when the run has finished.
type traceLog struct{ b bytes.Buffer }

// traceStage is one stage of a trace line; θ is null for −∞ and for the
// last stage.
type traceStage struct {
	Theta       *float64 `json:"theta"`
	Sigma       float64  `json:"sigma_abs"`
	Active      int      `json:"active_trees"`
	SoftTrain   float64  `json:"soft_train"`
	HardTrain   float64  `json:"hard_train"`
	Valid       float64  `json:"reached_valid"`
	Test        *float64 `json:"reached_test,omitempty"`
	NewFeatures []int    `json:"new_features"`
	NewTrees    int      `json:"new_trees"`
	CostAdded   float64  `json:"cost_added"`
}

func (t *traceLog) add(sn *cronus.Snapshot) error {
	line := map[string]any{"step": sn.Step, "phase": sn.Phase, "cycle": sn.Cycle, "stage": sn.Stage + 1}
	if n := len(sn.Terms); n > 0 {
		tm := sn.Terms[n-1]
		line["objective"] = map[string]float64{"total": tm.Total, "loss": tm.Loss, "reg": tm.Reg, "tree_cost": tm.TreeCost, "feature_cost": tm.FeatCost}
	}
	hasTest := sn.Test.Metrics != nil
	stages := make([]traceStage, len(sn.Stages))
	for k, sv := range sn.Stages {
		ts := traceStage{Sigma: sv.Sigma, Active: sv.Active, SoftTrain: sv.SoftTrain, HardTrain: sv.HardTrain, Valid: sv.Valid,
			NewFeatures: sv.NewFeatures, NewTrees: sv.NewTrees, CostAdded: sv.CostAdded}
		if th := sv.Theta; k < len(sn.Stages)-1 && !math.IsInf(th, 0) && !math.IsNaN(th) {
			ts.Theta = &th
		}
		if hasTest {
			v := sv.Test
			ts.Test = &v
		}
		stages[k] = ts
	}
	line["stages"] = stages
	line["cost_groups"] = sn.CostGroups
	line["valid"] = map[string]any{"metrics": sn.Valid.Metrics, "cost": sn.Valid.Cost}
	if hasTest {
		line["test"] = map[string]any{"metrics": sn.Test.Metrics, "cost": sn.Test.Cost}
	}
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	t.b.Write(b)
	return t.b.WriteByte('\n')
}
