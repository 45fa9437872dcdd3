package cronus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Cascade file format and the newest version this code reads and writes.
const (
	FileFormat  = tree.CascadeFormat
	FileVersion = 1
)

// File is the on-disk form of a cascade: the trees, the stages over them,
// the exit rule and the costs the cascade was optimised for, as one
// versioned JSON document.
//
//	{
//	  "format": "cronus-cascade",
//	  "version": 1,
//	  "rule": "global",
//	  "sigma": 0.05,
//	  "feature_cost": [20, 20, 10, …],
//	  "tree_cost": [1, 1, 1, …],
//	  "params": {"lambda": 0.01, "stages": 10, "epsilon": 0.15, …},
//	  "stages": [
//	    {"trees": [0, 3], "weights": [0.93, 1.2], "intercept": -0.41, "theta": -0.2, "sigma_abs": 0.012},
//	    …
//	    {"trees": [0, 1, 3, 7], "weights": [1, 0.8, 1.1, 0.7], "intercept": -0.35, "theta": null, "sigma_abs": 0.02}
//	  ],
//	  "ensemble": {"format": "cronus-ensemble", "version": 1, …, "trees": […]}
//	}
//
// "ensemble" is a complete model in the format of tree.Model. Stage k scores
// a document x as intercept + Σ_j weights[j]·h_{trees[j]}(x), where trees
// lists 0-based tree indices in ascending order (β^k stored sparse: a tree
// not listed has weight 0) and h_t(x) is the value of tree t's leaf,
// rounded to float32 (see Score). A document leaves at stage k when its
// score is below theta; "theta": null (or absent) is −Inf, which passes
// everything, and is the only value the last stage may have. With "rule": "top-m" the "top_m" best documents of
// each query at a stage never leave there. feature_cost[α-1] is the cost
// c_α of feature α (features are numbered from 1 in files), one entry per
// feature of the ensemble; tree_cost[t] is the cost e_t of evaluating tree
// t. "sigma" is the soft-exit scale used in training (relative to each
// stage's score spread; required, in (0, MaxSigma]: cascade --warm goes on
// with it) and "params" the optimiser's parameters, neither used in scoring. A stage's optional "sigma_abs" is the absolute scale
// σ_k its soft exit was trained with (eq 8 needs it; the scorer does not):
// present on every stage or on none, finite and > 0. Numbers are written in
// the shortest form that reads back to the same float64 bits.
//
// Readers refuse another format name and versions newer than FileVersion;
// unknown fields are ignored.
type File struct {
	Format      string         `json:"format"`
	Version     int            `json:"version"`
	Ensemble    *tree.Model    `json:"ensemble"`
	Stages      []StageJSON    `json:"stages"`
	Rule        string         `json:"rule"`
	TopM        int            `json:"top_m,omitempty"`
	Sigma       float64        `json:"sigma"`
	FeatureCost []float64      `json:"feature_cost"`
	TreeCost    []float64      `json:"tree_cost"`
	Params      map[string]any `json:"params,omitempty"`
}

// StageJSON is one stage of a File; see File for the meaning of the fields.
type StageJSON struct {
	Trees     []int     `json:"trees"`
	Weights   []float64 `json:"weights"`
	Intercept float64   `json:"intercept"`
	Theta     *float64  `json:"theta"`
	SigmaAbs  *float64  `json:"sigma_abs,omitempty"`
}

// SetStageSigma records σ_k, the absolute soft-exit scale each stage was
// trained with, one per stage; nil records none. It panics on another
// number of values.
func (f *File) SetStageSigma(sigma []float64) {
	if sigma == nil {
		return
	}
	if len(sigma) != len(f.Stages) {
		panic(fmt.Sprintf("cronus: SetStageSigma: %d values for %d stages", len(sigma), len(f.Stages)))
	}
	for k := range f.Stages {
		v := sigma[k]
		f.Stages[k].SigmaAbs = &v
	}
}

// StageSigma returns the σ_k the file records (checked by Cascade), or nil
// when it records none.
func (f *File) StageSigma() []float64 {
	var out []float64
	for _, sj := range f.Stages {
		if sj.SigmaAbs == nil {
			return nil
		}
		out = append(out, *sj.SigmaAbs)
	}
	return out
}

// ParamShown is a params value v as JSON, the file's own spelling (Go's
// %#v said <nil> for null and map[string]interface {}{…} for an object),
// cut to 40 bytes.
func ParamShown(v any) string {
	shown, err := json.Marshal(v)
	if err != nil {
		shown = []byte(fmt.Sprint(v))
	}
	if cut := 40; len(shown) > cut {
		for cut > 0 && !utf8.RuneStart(shown[cut]) {
			cut--
		}
		shown = append(shown[:cut:cut], "..."...)
	}
	return string(shown)
}

// paramNumber is a params value v as a number: a float64 as a file is
// read, or an int as RunParams writes one.
func paramNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}

// RunParams are the parameters of an optimisation as a cascade file's
// params record them: λ (relative, absolute, and λ_max), K, ε, σ, δ, the
// stage cap, ρ, the
// exit rule trained for (and its m) and the targets. Callers add what else
// they know (the files, the cycles).
func RunParams(par Params, tg Targets, lambdaMax float64) map[string]any {
	m := map[string]any{"lambda": par.Lambda, "lambda_abs": par.Lambda * lambdaMax, "lambda_max": lambdaMax,
		"stages": par.K, "epsilon": par.Epsilon, "sigma": par.Sigma, "delta": par.Delta, "stage_cap": par.StageCap, "rho1": par.Rho1, "rhoK": par.RhoK, "rule": RuleGlobal,
		"pos_weight": tg.PosWeight, "neg_weight": tg.NegWeight, "neg_multiply": tg.NegMultiply, "relevant": tg.Relevant, "graded": tg.Graded}
	if par.TopM > 0 {
		m["rule"], m["top_m"] = RuleTopM, par.TopM
	}
	if tg.Distil {
		m["distil"] = true
	}
	return m
}

// NewFile returns the file form of cascade c over ensemble e. Only the
// trees with a non-zero weight are listed in a stage; a threshold of −Inf
// and the last stage's threshold (which no document ever meets) are
// written as null. featCost holds c_α for at least e.NumFeatures features
// (only the first e.NumFeatures are kept) and treeCost e_t for every tree.
// The ensemble is stored with source "cronus" and no parameters; set
// f.Ensemble.Source and f.Ensemble.Params to keep the model's own. params
// is stored as given. NewFile panics when c's weight vectors or the cost
// slices do not fit e; values that cannot be written (NaN, ±Inf) are
// reported by WriteFile.
func NewFile(e *tree.Ensemble, c *Cascade, featCost, treeCost []float64, sigma float64, params map[string]any) *File {
	T := len(e.Trees)
	if len(featCost) < e.NumFeatures {
		panic(fmt.Sprintf("cronus: NewFile: %d feature costs for a model of %d features", len(featCost), e.NumFeatures))
	}
	if len(treeCost) != T {
		panic(fmt.Sprintf("cronus: NewFile: %d tree costs for %d trees", len(treeCost), T))
	}
	f := &File{
		Format:      FileFormat,
		Version:     FileVersion,
		Ensemble:    tree.NewModel(e, "cronus", nil),
		Stages:      make([]StageJSON, len(c.Stages)),
		Rule:        c.Rule,
		Sigma:       sigma,
		FeatureCost: append([]float64{}, featCost[:e.NumFeatures]...),
		TreeCost:    append([]float64{}, treeCost...),
		Params:      params,
	}
	if f.Rule == "" {
		f.Rule = RuleGlobal
	}
	if f.Rule == RuleTopM {
		f.TopM = c.TopM
	}
	for k := range c.Stages {
		s := &c.Stages[k]
		if len(s.Beta) != T+1 {
			panic(fmt.Sprintf("cronus: NewFile: stage %d has %d weights for %d trees and the intercept", k, len(s.Beta), T))
		}
		sj := StageJSON{Trees: []int{}, Weights: []float64{}, Intercept: s.Beta[T]}
		for t, b := range s.Beta[:T] {
			if b != 0 {
				sj.Trees = append(sj.Trees, t)
				sj.Weights = append(sj.Weights, b)
			}
		}
		if k < len(c.Stages)-1 && !math.IsInf(s.Theta, -1) {
			th := s.Theta
			sj.Theta = &th
		}
		f.Stages[k] = sj
	}
	return f
}

// FirstStages cuts f to its first k stages (1 <= k <= len(f.Stages)), a
// cascade of their own: stage k, now the last, passes nothing on, and
// ranks every document that reaches it by its score there; a document
// leaves an earlier stage as before, and the later stages are neither run
// nor paid for. The cascade of a λ thus gives up to K operating points, as
// the prefixes of an ensemble do. params.stages, when given, becomes k, and
// params.first_stages_of records the count cut from (the first cut's).
// It returns an error, leaving f as it was, when k is out of range.
func (f *File) FirstStages(k int) error {
	K := len(f.Stages)
	if k < 1 || k > K {
		return fmt.Errorf("the cascade has %d stages; the first k must be from 1 to %d (got %d)", K, K, k)
	}
	if k == K {
		return nil
	}
	f.Stages = f.Stages[:k:k]
	f.Stages[k-1].Theta = nil
	if f.Params != nil {
		params := maps.Clone(f.Params)
		if _, ok := params["stages"]; ok {
			params["stages"] = k
		}
		if _, ok := params["first_stages_of"]; !ok {
			params["first_stages_of"] = K
		}
		f.Params = params
	}
	return nil
}

// LastStagePrefix makes f's last stage score the documents that reach it
// with the base ensemble's first n trees (1 <= n <= its trees), each of
// weight 1, and its base score as the intercept: the GBRT prefix's own
// score (`eval --trees n`, up to the float32 rounding of the tree outputs
// every stage has), in place of the stage's re-weighted one. The earlier
// stages, and so where a document leaves before the last, are as they
// were; a document reaching the last stage pays for the prefix's trees
// and features it has not paid for yet, as at any stage. Re-weighting
// fits every stage to the training data; the prefix's own weights, fitted
// by boosting, may rank the few documents left better on new data.
// params.last_prefix records n. It returns an error, leaving f as it was,
// when n is out of range or f has no ensemble.
func (f *File) LastStagePrefix(n int) error {
	if f.Ensemble == nil || len(f.Stages) == 0 {
		return errors.New("the cascade has no ensemble or no stages")
	}
	T := len(f.Ensemble.Trees)
	if n < 1 || n > T {
		return fmt.Errorf("the cascade's ensemble has %d trees; the prefix must have from 1 to %d (got %d)", T, T, n)
	}
	last := StageJSON{Trees: make([]int, n), Weights: make([]float64, n), Intercept: f.Ensemble.BaseScore}
	for t := range n {
		last.Trees[t], last.Weights[t] = t, 1
	}
	stages := slices.Clone(f.Stages)
	last.SigmaAbs = stages[len(stages)-1].SigmaAbs // the soft exits' scale, unused at a last stage
	stages[len(stages)-1] = last
	f.Stages = stages
	params := maps.Clone(f.Params)
	if params == nil {
		params = map[string]any{}
	}
	params["last_prefix"] = n
	f.Params = params
	return nil
}

// Cascade checks f and converts it into the ensemble and the cascade: the
// ensemble passes tree.Model.Ensemble; every stage lists tree indices in
// range and strictly ascending, one finite weight per tree, a finite
// intercept and a finite threshold or none (none on the last stage); the
// rule is known (top-m with top_m >= 1); the cost arrays have one finite,
// non-negative entry per feature and per tree. The costs themselves are
// f.FeatureCost and f.TreeCost.
func (f *File) Cascade() (*tree.Ensemble, *Cascade, error) {
	if err := f.checkHeader(); err != nil {
		return nil, nil, err
	}
	if f.Ensemble == nil {
		return nil, nil, errors.New(`no "ensemble"`)
	}
	if err := checkEnsembleHeader(f.Ensemble); err != nil {
		return nil, nil, err
	}
	e, err := f.Ensemble.Ensemble()
	if err != nil {
		return nil, nil, fmt.Errorf("ensemble: %w", err)
	}
	// A cascade scores the trees' outputs as float32s, as it was fitted
	// on them: a hand-edited leaf past that range was ±Inf there, and
	// refused below as a sum "past the float64 range", or taken when its
	// tree's weight is 0.
	if t, l, v, past := leafPastFloat32(e); past {
		return nil, nil, fmt.Errorf("ensemble: tree %d: leaf %d's value %g is outside the float32 range (±%g) of the tree outputs a cascade scores", t, l, v, float32(math.MaxFloat32))
	}
	T := len(e.Trees)
	c := &Cascade{Stages: make([]Stage, len(f.Stages))}
	switch f.Rule {
	case RuleGlobal:
		if f.TopM != 0 {
			return nil, nil, fmt.Errorf(`top_m %d is only meaningful with rule %q`, f.TopM, RuleTopM)
		}
	case RuleTopM:
		if f.TopM < 1 {
			return nil, nil, fmt.Errorf(`rule %q needs top_m >= 1 (got %d)`, RuleTopM, f.TopM)
		}
	case "":
		return nil, nil, fmt.Errorf(`no "rule": want %q or %q`, RuleGlobal, RuleTopM)
	default:
		return nil, nil, fmt.Errorf(`unknown rule %q: want %q or %q`, f.Rule, RuleGlobal, RuleTopM)
	}
	c.Rule, c.TopM = f.Rule, f.TopM
	// σ is the scale cascade --warm and the workbench continue with (and
	// inspect shows): in the range cascade --sigma takes, as Cronus has
	// always written it. Read as 0 (a hand-made file without it), inspect
	// showed σ 0 while cascade --warm refused the file.
	if !(f.Sigma > 0 && f.Sigma <= MaxSigma) {
		return nil, nil, fmt.Errorf("sigma %v must be in (0, %g]: the scale of the soft exits the cascade was trained with, relative to each stage's score spread (cascade --sigma; its default is %g)", f.Sigma, float64(MaxSigma), DefaultParams().Sigma)
	}
	if len(f.FeatureCost) != e.NumFeatures {
		return nil, nil, fmt.Errorf("feature_cost has %d entries for a model of %d features", len(f.FeatureCost), e.NumFeatures)
	}
	if len(f.TreeCost) != T {
		return nil, nil, fmt.Errorf("tree_cost has %d entries for %d trees", len(f.TreeCost), T)
	}
	for a, v := range f.FeatureCost {
		if !data.ValidCost(v) {
			return nil, nil, fmt.Errorf("feature_cost: feature %d costs %v; costs must be from 0 to %g", a+1, v, data.MaxCost)
		}
	}
	for t, v := range f.TreeCost {
		if !data.ValidCost(v) {
			return nil, nil, fmt.Errorf("tree_cost[%d] is %v; costs must be from 0 to %g", t, v, data.MaxCost)
		}
	}
	if len(f.Stages) == 0 {
		return nil, nil, errors.New("the cascade has no stages")
	}
	// params records the run, and a count or σ there that is not the
	// file's own (a hand-edited file; Cronus writes the one value in both)
	// made a warm start from it quietly no continuation of its run
	// (sameRun), and inspect showed it as it was: the stage count, the
	// model's tree count (cascade --trees k, the workbench's --trees: the
	// file's ensemble is the model's first k trees; "from m.json's first
	// 1000 trees" of a 30-tree ensemble) and σ (cascade --warm goes on
	// with the file's "sigma").
	for _, c := range []struct {
		name string
		want float64
		what string
	}{
		{"stages", float64(len(f.Stages)), fmt.Sprintf("the file has %d stages", len(f.Stages))},
		{"model_trees", float64(T), fmt.Sprintf("the file's ensemble has %d trees", T)},
		{"sigma", f.Sigma, fmt.Sprintf("the file's sigma is %v", f.Sigma)},
	} {
		v, ok := f.Params[c.name]
		if !ok {
			continue
		}
		x, num := paramNumber(v)
		if !num {
			return nil, nil, fmt.Errorf("params.%s is %s, not a number (%s)", c.name, ParamShown(v), c.what)
		}
		if x != c.want {
			return nil, nil, fmt.Errorf("params.%s is %v, but %s", c.name, v, c.what)
		}
	}
	// Likewise the exit rule: the stages exit under the file's "rule" and
	// "top_m", which cascade --warm keeps; params that said another rule
	// made a warm start from the file quietly no continuation of its run.
	if v, ok := f.Params["rule"]; ok && v != f.Rule {
		return nil, nil, fmt.Errorf("params.rule is %s, but the file's rule is %q", ParamShown(v), f.Rule)
	}
	if v, ok := f.Params["top_m"]; ok {
		if x, num := paramNumber(v); !num || x != float64(f.TopM) {
			if f.Rule != RuleTopM {
				return nil, nil, fmt.Errorf("params.top_m is %s, but the file's rule is %q, which has none", ParamShown(v), f.Rule)
			}
			return nil, nil, fmt.Errorf("params.top_m is %s, but the file's top_m is %d", ParamShown(v), f.TopM)
		}
	}
	// How left-out features were read (cascade --absent): eval, predict,
	// export and cascade --warm go by it, and any value but "missing"
	// read as zero, quietly ("Missing", true).
	if v, ok := f.Params["absent"]; ok && v != "missing" && v != "zero" {
		return nil, nil, fmt.Errorf(`params.absent is %s: want "missing" or "zero" (how left-out features were read, cascade --absent)`, ParamShown(v))
	}
	for k := range f.Stages {
		sj := &f.Stages[k]
		beta, err := sj.beta(T)
		if err != nil {
			return nil, nil, fmt.Errorf("stages[%d]: %w", k, err)
		}
		// As a model's leaf sums (tree.Ensemble's check): finite weights
		// and leaves whose weighted sum could leave the float64 range (a
		// hand-made file) gave ±Inf or NaN scores, ranked quietly.
		bound := math.Abs(beta[T])
		for t, w := range beta[:T] {
			if w == 0 {
				continue
			}
			big := 0.0
			for _, v := range e.Trees[t].Leaves {
				big = max(big, math.Abs(float64(float32(v))))
			}
			if bound += math.Abs(w) * big; math.IsInf(bound, 0) {
				return nil, nil, fmt.Errorf("stages[%d]: the intercept and tree %d's weight times its largest leaf value, with those of the trees before it, sum past the float64 range (%g): the stage's scores would not be finite", k, t, math.MaxFloat64)
			}
		}
		theta := math.Inf(-1)
		if sj.Theta != nil {
			if k == len(f.Stages)-1 {
				return nil, nil, fmt.Errorf("stages[%d]: the last stage has no threshold (theta must be null or absent)", k)
			}
			theta = *sj.Theta
			if math.IsNaN(theta) || math.IsInf(theta, 0) {
				return nil, nil, fmt.Errorf("stages[%d]: theta %v is not finite (null means pass everything)", k, theta)
			}
		}
		c.Stages[k] = Stage{Beta: beta, Theta: theta}
		if (sj.SigmaAbs == nil) != (f.Stages[0].SigmaAbs == nil) {
			// Both stages named: blamed alone, stage k was the one that
			// gave it when stage 0 alone did not (a stage added first).
			with, without := k, 0
			if sj.SigmaAbs == nil {
				with, without = 0, k
			}
			return nil, nil, fmt.Errorf("stages[%d]: no sigma_abs, where stages[%d] gives one: sigma_abs must be given on every stage or on none", without, with)
		}
		if v := sj.SigmaAbs; v != nil && !(*v > 0 && !math.IsInf(*v, 1)) {
			return nil, nil, fmt.Errorf("stages[%d]: sigma_abs %v must be a finite number > 0", k, *v)
		}
	}
	return e, c, nil
}

// beta checks a stage's sparse weights and returns the dense vector of T
// weights and the intercept.
func (sj *StageJSON) beta(T int) ([]float64, error) {
	if len(sj.Weights) != len(sj.Trees) {
		return nil, fmt.Errorf("%d trees but %d weights", len(sj.Trees), len(sj.Weights))
	}
	beta := make([]float64, T+1)
	for j, t := range sj.Trees {
		if t < 0 || t >= T {
			return nil, fmt.Errorf("trees[%d]: tree %d is out of range (the ensemble has %d trees, numbered from 0)", j, t, T)
		}
		if j > 0 && t <= sj.Trees[j-1] {
			return nil, fmt.Errorf("trees[%d]: tree %d follows tree %d; tree indices must be strictly ascending", j, t, sj.Trees[j-1])
		}
		w := sj.Weights[j]
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("weights[%d]: %v is not finite", j, w)
		}
		beta[t] = w
	}
	if math.IsNaN(sj.Intercept) || math.IsInf(sj.Intercept, 0) {
		return nil, fmt.Errorf("intercept %v is not finite", sj.Intercept)
	}
	beta[T] = sj.Intercept
	return beta, nil
}

// The refusals of a JSON file without a format and of a file that is not
// a JSON object, which ParseFile names more closely when they are another
// library's model.
var (
	errNoFormat  = errors.New(`not a cascade file: no "format" field`)
	errNotObject = errors.New("not a cascade file: a cascade file is a JSON object (cronus cascade writes one)")
)

// checkHeader checks the format name and version.
func (f *File) checkHeader() error {
	switch {
	case f.Format == tree.ModelFormat:
		return fmt.Errorf("not a cascade file: format %q is a model (tree ensemble); build a cascade from it with cronus cascade", f.Format)
	case f.Format == "":
		return errNoFormat
	case f.Format != FileFormat:
		return fmt.Errorf("not a cascade file: format %q, want %q", f.Format, FileFormat)
	case f.Version == 0:
		return errors.New(`no cascade file "version"`)
	case f.Version > FileVersion:
		return fmt.Errorf("cascade file version %d is newer than this cronus supports (%d); use a newer cronus", f.Version, FileVersion)
	case f.Version < 0:
		return fmt.Errorf("cascade file version %d is not valid", f.Version)
	}
	return nil
}

// checkEnsembleHeader checks the format name and version of the embedded
// model (tree.Model.Ensemble does not).
func checkEnsembleHeader(m *tree.Model) error {
	switch {
	case m.Format != tree.ModelFormat:
		return fmt.Errorf("ensemble: format %q, want %q", m.Format, tree.ModelFormat)
	case m.Version > tree.ModelVersion:
		return fmt.Errorf("ensemble: model version %d is newer than this cronus supports (%d)", m.Version, tree.ModelVersion)
	case m.Version < 1:
		return fmt.Errorf("ensemble: model version %d is not valid", m.Version)
	}
	return nil
}

// WriteFile checks f (as File.Cascade does) and writes it to path
// atomically: path holds either its old contents or the whole new file.
func WriteFile(path string, f *File) error {
	out, err := FileOutput(path, f)
	if err != nil {
		return err
	}
	return data.WriteAtomic(path, out.Write)
}

// FileOutput checks and encodes f as WriteFile does and returns it as a
// data.Output, to be written with other files by data.WriteAtomicAll.
func FileOutput(path string, f *File) (data.Output, error) {
	return FileOutputContext(context.Background(), path, f)
}

// FileOutputContext is FileOutput, given up when ctx is done: it returns
// ctx's error. The ensemble of a cascade of a big model is encoded as the
// model (tree.EncodeModelContext), looking at ctx between trees.
func FileOutputContext(ctx context.Context, path string, f *File) (data.Output, error) {
	return data.EncodedOutput(ctx, path, func(ctx context.Context) ([]byte, error) { return encodeFileContext(ctx, f) })
}

// encodeFile checks f and returns its JSON: the header fields and the cost
// arrays one per line, one line per stage, then the ensemble with one line
// per tree.
func encodeFile(f *File) ([]byte, error) { return encodeFileContext(context.Background(), f) }

// encodeFileContext is encodeFile, or ctx's error once ctx is done.
func encodeFileContext(ctx context.Context, f *File) ([]byte, error) {
	if _, _, err := f.Cascade(); err != nil {
		return nil, err
	}
	ensemble, err := tree.EncodeModelContext(ctx, f.Ensemble, "  ")
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("ensemble: %w", err)
	}
	var buf bytes.Buffer
	field := func(name string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(&buf, "  %q: %s,\n", name, b)
		return nil
	}
	buf.WriteString("{\n")
	fields := []struct {
		name string
		v    any
		omit bool
	}{
		{"format", f.Format, false},
		{"version", f.Version, false},
		{"rule", f.Rule, false},
		{"top_m", f.TopM, f.TopM == 0},
		{"sigma", f.Sigma, false},
		{"feature_cost", f.FeatureCost, false},
		{"tree_cost", f.TreeCost, false},
		{"params", f.Params, len(f.Params) == 0},
	}
	for _, fl := range fields {
		if fl.omit {
			continue
		}
		if err := field(fl.name, fl.v); err != nil {
			return nil, err
		}
	}
	buf.WriteString("  \"stages\": [")
	for k := range f.Stages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := json.Marshal(&f.Stages[k])
		if err != nil {
			return nil, fmt.Errorf("stages[%d]: %w", k, err)
		}
		if k > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n    ")
		buf.Write(b)
	}
	buf.WriteString("\n  ],\n  \"ensemble\": ")
	buf.Write(ensemble)
	buf.WriteString("\n}\n")
	return buf.Bytes(), nil
}

// ReadFile reads and checks a cascade file, so that File.Cascade succeeds
// on the result. Errors name the file, and for malformed JSON the line and
// column.
func ReadFile(path string) (*File, error) {
	b, err := data.ReadWholeAs(path, "a cascade file", func(head []byte) error {
		_, err := ParseFile(path, head)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ParseFile(path, b)
}

// ParseFile is ReadFile on the contents b of the file path, already read
// (with data.ReadWhole).
func ParseFile(path string, b []byte) (*File, error) {
	f, err := parse(b)
	if err != nil {
		if m := tree.ForeignModel(b); m != "" && (err == errNoFormat || err == errNotObject) {
			// Another library's model: it takes an import, then a cascade
			// (binary data, as UBJSON, is named as such already).
			err = fmt.Errorf("not a cascade file: it looks like %s, and build a cascade from it with cronus cascade", m)
		}
		return nil, tree.FileError(path, err)
	}
	return f, nil
}

// jsonLines reports whether b holds more than one JSON value, the first
// an object on a line of its own: JSON lines, as a trace is written, which
// read as a cascade file stopped at line 2's "invalid character '{' after
// top-level value".
func jsonLines(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var first json.RawMessage
	if dec.Decode(&first) != nil || len(first) == 0 || first[0] != '{' {
		return false
	}
	tail, rest, ok := bytes.Cut(b[dec.InputOffset():], []byte("\n"))
	next, _, _ := bytes.Cut(rest, []byte("\n"))
	return ok && len(bytes.TrimSpace(tail)) == 0 && json.Valid(bytes.TrimSpace(next))
}

// parse decodes and checks a cascade file's contents.
func parse(b []byte) (*File, error) {
	// The format name and version first, so that another kind of JSON file,
	// or a newer cascade file, is named as such rather than failing on a
	// field of the wrong type.
	if err := tree.KindError(b, "a cascade file", "JSON"); err != nil {
		return nil, err
	}
	if err := tree.BinaryError(b, "cascade file"); err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] != '{' && !json.Valid(t) {
		return nil, errNotObject
	}
	if jsonLines(b) {
		return nil, errors.New("not a cascade file: a JSON value on each line (a trace, as cascade --trace writes?); a cascade file is one JSON object (cascade --out writes one)")
	}
	var head struct {
		Format  json.RawMessage `json:"format"`
		Version json.RawMessage `json:"version"`
		// For checkRequired: the stages' bytes (small beside the
		// ensemble's), and whether an ensemble is given at all.
		Stages   json.RawMessage `json:"stages"`
		Ensemble ensembleGiven   `json:"ensemble"`
		Sigma    json.RawMessage `json:"sigma"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("not a cascade file: the JSON holds %s %s, not an object", jsonArticle(te.Value), te.Value)
		}
		return nil, tree.JSONError(b, err)
	}
	f := &File{}
	if head.Format != nil && json.Unmarshal(head.Format, &f.Format) != nil {
		return nil, fmt.Errorf("not a cascade file: format %s is not a string", head.Format)
	}
	if f.Format == FileFormat && head.Version != nil && json.Unmarshal(head.Version, &f.Version) != nil {
		return nil, fmt.Errorf("cascade file version %s is not an integer", head.Version)
	}
	if err := f.checkHeader(); err != nil {
		return nil, err
	}
	if err := tree.CheckNulls(b, "version", "num_features", "base_score", "intercept", "sigma", "top_m", "sigma_abs"); err != nil {
		return nil, err
	}
	// Decoded into tree.Unset, the ensemble tells the numbers it leaves
	// out from zeros (a null ensemble sets the pointer to nil).
	f.Ensemble = tree.Unset()
	if err := json.Unmarshal(b, f); err != nil {
		return nil, tree.JSONError(b, err)
	}
	if err := tree.CheckKeys(b, f); err != nil {
		return nil, err
	}
	if !head.Ensemble {
		f.Ensemble = nil // not given: Cascade says so
	}
	if head.Sigma == nil {
		return nil, fmt.Errorf(`no "sigma": the scale of the soft exits the cascade was trained with, relative to each stage's score spread, in (0, %g] (cascade --sigma; its default is %g)`, float64(MaxSigma), DefaultParams().Sigma)
	}
	if err := checkRequired(f, head.Stages); err != nil {
		return nil, err
	}
	if _, _, err := f.Cascade(); err != nil {
		return nil, err
	}
	return f, nil
}

// ensembleGiven records, decoding, that a cascade file has an "ensemble"
// key, without keeping its bytes.
type ensembleGiven bool

func (g *ensembleGiven) UnmarshalJSON([]byte) error {
	*g = true
	return nil
}

// checkRequired refuses a cascade file f, decoded without error from JSON
// whose "stages" are stages, whose ensemble lacks a field
// tree.Model.CheckRequired requires, or a stage without its "intercept":
// encoding/json leaves a missing number at 0, and a stage's scores then
// moved against its theta, sending other documents away.
func checkRequired(f *File, stages json.RawMessage) error {
	if f.Ensemble != nil {
		if err := f.Ensemble.CheckRequired(); err != nil {
			return fmt.Errorf("ensemble: %w", err)
		}
	}
	var req []struct {
		Intercept json.RawMessage `json:"intercept"`
	}
	if len(stages) > 0 {
		if err := json.Unmarshal(stages, &req); err != nil {
			return err // decoded once already, as []StageJSON
		}
	}
	for k, s := range req {
		if s.Intercept == nil {
			return fmt.Errorf(`stages[%d]: no "intercept"`, k)
		}
	}
	return nil
}

// jsonArticle returns "an" before a JSON kind that starts with a vowel, "a"
// otherwise.
func jsonArticle(kind string) string {
	if kind != "" && strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "an"
	}
	return "a"
}
