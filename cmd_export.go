package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/views"
)

// exportFormats are the words of export's --to.
var exportFormats = []string{"xgboost", "ranklib", "c"}

// runExport is cronus export: a model, or one stage of a cascade, written
// in another library's model format (XGBoost's, RankLib's), to be served
// there; or a model or a whole cascade as C source, to be compiled into a
// server.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", stdout)
	modelF := fs.String("model", "", "model `FILE` to export")
	cascadeF := fs.String("cascade", "", "or a cascade `FILE` (cronus cascade): with --to xgboost or ranklib, its --stage; with --to c, the whole cascade, or its --stage")
	stage := fs.Int("stage", 0, "with --cascade: the stage `k` to export (1 = the first): its trees times their weights, its intercept as the base score")
	firstStages := fs.Int("stages", 0, "c, with a whole --cascade: compile only its first `k` stages, as predict --stages k runs them (stage k passes nothing on; 0: all)")
	k := newTreesFlag(fs, "with --model: export only the model's first `k` trees (a number, or all)")
	to := new(string)
	choiceVar(fs, to, "to", "", "`format` to write (required): xgboost (JSON, as Booster.save_model writes it; load it with xgboost.Booster(model_file=FILE)), ranklib (a LambdaMART model as RankLib's -save writes it, which RankLib's -load and the Elasticsearch and OpenSearch LTR plugins' model/ranklib take) or c (one C99 source file: a model's PREFIX_predict, a cascade's PREFIX_rank, which fetches each feature only when a stage needs it)", exportFormats...)
	libsvm := fs.Bool("libsvm-indices", false, "xgboost: number the columns as XGBoost's own libsvm reader does (DMatrix(\"test.txt?format=libsvm\")), feature k as f{k}; without it feature k is f{k-1}, column k-1 of a matrix of the features in order")
	zero := fs.Bool("missing-as-zero", false, "xgboost: send a missing value where 0 goes at every split, so that XGBoost's libsvm reader, which takes the values a line leaves out as missing, scores a file as cronus reads it (left-out values as 0); without it a missing value follows each split's default direction, as in cronus")
	prefix := fs.String("prefix", "cronus", fmt.Sprintf("c: the `NAME` the file's functions and types start with, so that several can be linked into one program: a C identifier of at most %d characters (the file's longest external name, NAME%s, then keeps within the %d characters C99 holds significant)", tree.CPrefixMax, tree.CLongestSuffix, tree.CMaxExternalName))
	header := fs.String("header", "", "c: also write a C header `FILE` that declares the file's functions (with C linkage for C++), written with it, both or neither")
	costsF := fs.String("costs", "", "c, with a whole --cascade: feature cost `FILE` for the costs the file reports (default: the cascade's own costs)")
	out := fs.String("out", "", "`FILE` to write (required)")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	ranges := []flagRange{atLeast("stage", 1), atLeast("stages", 0)}
	if err := parseNoArgs(fs, args, ranges...); err != nil {
		return err
	}
	// parseNoArgs takes the ranges for its messages only: --stages -1
	// compiled the whole cascade without a word (--stage's own check
	// follows, with its message).
	if err := checkRanges(fs, ranges[1]); err != nil {
		return err
	}
	rangeChecked(fs, "stage") // below, with its own message
	explicit := explicitFlags(fs)
	toC := *to == "c"
	toRankLib := *to == "ranklib"
	wholeCascade := toC && *cascadeF != "" && !explicit["stage"]
	switch {
	case countSet(*modelF, *cascadeF) != 1:
		return usageError{"give one of --model FILE and --cascade FILE"}
	case *to == "":
		return usageError{"--to FORMAT is required: " + orList(exportFormats)}
	case *out == "":
		return usageError{"--out FILE is required"}
	case *cascadeF != "" && explicit["trees"]:
		return usageError{"--trees applies to --model only: a cascade's stage says which trees it has"}
	case *modelF != "" && explicit["stage"]:
		return usageError{"--stage applies to --cascade only"}
	case *cascadeF != "" && !explicit["stage"] && !toC:
		return usageError{fmt.Sprintf("--stage k is required with --cascade --to %s: a cascade is served stage by stage, each exported as a model of its own (--to c writes the whole cascade)", *to)}
	case *modelF != "" && *k == 0:
		return usageError{"--trees 0: no trees to export (the model would hold only the base score)"}
	case *cascadeF != "" && explicit["stage"] && *stage < 1:
		return usageError{fmt.Sprintf("--stage %d: stages are numbered from 1", *stage)}
	case toC && (explicit["libsvm-indices"] || explicit["missing-as-zero"]):
		return usageError{"--libsvm-indices and --missing-as-zero apply to --to xgboost only: the C file reads feature k as x[k-1] and NaN as missing"}
	case toRankLib && (explicit["libsvm-indices"] || explicit["missing-as-zero"]):
		return usageError{"--libsvm-indices and --missing-as-zero apply to --to xgboost only: RankLib numbers features as the data file does, and reads a value a line leaves out as 0"}
	case !toC && explicit["prefix"]:
		return usageError{"--prefix applies to --to c only"}
	case !toC && *header != "":
		return usageError{"--header applies to --to c only"}
	case explicit["stages"] && !wholeCascade:
		return usageError{"--stages applies to --to c with a whole --cascade only (one stage: --stage k)"}
	case explicit["costs"] && !wholeCascade:
		return usageError{"--costs applies to --to c with a whole --cascade only (the costs its PREFIX_rank reports)"}
	case toC && tree.CReservedPrefix(*prefix) != "":
		return usageError{fmt.Sprintf("--prefix %q: the file's names, %s_ and more, would be ones C99 reserves: %s; give another NAME", *prefix, *prefix, tree.CReservedPrefix(*prefix))}
	case toC && !tree.CPrefixOK(*prefix):
		return usageError{fmt.Sprintf("--prefix %q: give a C identifier of at most %d characters that starts with a letter (letters, digits and _; C reserves the names that start with _; the file's longest external name, NAME%s, must keep within the %d characters C99 holds significant)", *prefix, tree.CPrefixMax, tree.CLongestSuffix, tree.CMaxExternalName)}
	}
	outs := []string{*out}
	if *header != "" {
		outs = append(outs, *header)
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, []string{*modelF, *cascadeF, *costsF}, outs...); err != nil {
		return err
	}
	cOut := cOutputs{prefix: *prefix, out: *out, header: *header}
	if wholeCascade {
		return exportCascadeC(ctx, *cascadeF, *firstStages, *costsF, cOut, *jsonOut, stdout, stderr)
	}
	report := map[string]any{"out": *out, "to": *to}
	var e *tree.Ensemble
	var what string
	var active []int          // with --cascade: the model's trees the stage has, as e's
	var source map[string]any // the model's params: how it was imported
	// Whether the scores exported read a value a line leaves out as
	// missing, as XGBoost's libsvm reader does: an XGBoost model's own,
	// and a cascade made with --absent missing. Then the note on missing
	// values, which tells how to score a file as cronus reads it (as 0),
	// does not apply: the export already scores it as the model (or the
	// cascade) was made to.
	var readsMissing bool
	if *modelF != "" {
		full, m, err := loadModel(ctx, stderr, *modelF)
		if err != nil {
			return err
		}
		if err := k.fits(full, *modelF); err != nil {
			return err
		}
		e = &tree.Ensemble{Trees: full.Trees, Base: full.Base, NumFeatures: full.NumFeatures, Objective: full.Objective}
		if *k >= 0 {
			e.Trees = full.Trees[:*k]
		}
		if len(e.Trees) < len(full.Trees) {
			report["model_trees"] = len(full.Trees)
		}
		if lightGBMTransformed(m) && !toC {
			// No XGBoost objective turns the margin into LightGBM's
			// prediction: written with a note, as an unknown one.
			e.Objective = m.Params["objective"].(string)
		}
		report["model"] = *modelF
		what = fmt.Sprintf("%s of %s", count(len(e.Trees), "tree"), views.Printable(*modelF))
		source = m.Params
		readsMissing = m.Source == "xgboost"
	} else {
		cf, err := untilDoneShowing(ctx, stderr, "reading the cascade "+*cascadeF, func() (*cronus.File, error) { return cronus.ReadFile(*cascadeF) })
		if err != nil {
			return err
		}
		ce, c, err := cf.Cascade()
		if err != nil {
			return fmt.Errorf("%s: %w", *cascadeF, err)
		}
		K := len(c.Stages)
		if *stage > K {
			return usageError{fmt.Sprintf("--stage %d: the cascade %s has %s", *stage, *cascadeF, count(K, "stage"))}
		}
		st := c.Stages[*stage-1]
		active = st.Active()
		e = cronus.StageEnsemble(ce, c, *stage-1)
		if len(e.Trees) == 0 {
			return fmt.Errorf("%s: stage %d of %d has no trees: every document scores its intercept, %v, there, and there is no model to serve", *cascadeF, *stage, K, e.Base)
		}
		source = cf.Ensemble.Params
		readsMissing = cf.Params["absent"] == "missing"
		var theta any // JSON null: no threshold (the last stage, or one that passes everything)
		if !math.IsInf(st.Theta, -1) && *stage < K {
			theta = st.Theta
		}
		used := append([]int{}, e.Features(-1)...) // [] in JSON, not null, when its trees split on nothing
		for i := range used {
			used[i]++
		}
		report["cascade"], report["stage"], report["stages"], report["theta"], report["rule"], report["stage_features"] =
			*cascadeF, *stage, K, theta, c.Rule, used
		if c.Rule == cronus.RuleTopM {
			report["top_m"] = c.TopM
		}
		what = fmt.Sprintf("stage %d of %d of %s (%s)", *stage, K, views.Printable(*cascadeF), count(len(e.Trees), "tree"))
	}
	if toC {
		return exportModelC(ctx, e, what, cOut, *jsonOut, readsMissing && *cascadeF != "", report, stdout, stderr)
	}
	if toRankLib {
		return exportRankLib(ctx, e, what, *out, *modelF+*cascadeF, *stage, active, readsMissing, *jsonOut, report, stdout, stderr)
	}
	if source["feature_indices"] == "libsvm" && !*libsvm {
		fmt.Fprintln(stderr, "note: the model was imported with --libsvm-indices (from XGBoost's libsvm reader): give --libsvm-indices to number its features as that reader does (feature k as f{k}); without it feature k is f{k-1}")
	}
	byNameNote(stderr, source, *libsvm, e.NumFeatures)
	obj, known := tree.XGBoostObjective(e.Objective)
	if !known {
		fmt.Fprintf(stderr, "note: the objective %q has no XGBoost counterpart here; it is written as %s, whose prediction is the raw score\n", e.Objective, obj)
	}
	differ, total := e.MissingSplits(-1)
	if differ > 0 && !*zero && !readsMissing {
		fmt.Fprintf(stderr, "note: the model sends a missing value the other way than 0 at %d of its %d splits: "+
			"give XGBoost the values a data file leaves out as 0 (a dense matrix, as cronus reads them), not through its libsvm reader, which takes them as missing, or export with --missing-as-zero\n", differ, total)
	}
	if differ > 0 && *zero && readsMissing {
		// The flag is for models that read a left-out value as 0; this
		// one learnt where a missing value goes, and loses it without a
		// word (a helper's review of missing values).
		fmt.Fprintf(stderr, "note: --missing-as-zero overrides the direction of a missing value the model learnt at %d of its %d splits "+
			"(it reads a left-out value as missing, as XGBoost's libsvm reader does): the export scores missing values as 0, not as the model does\n", differ, total)
	}
	if err := writeShowing(stderr, []string{*out}, func() error {
		b, err := tree.ExportXGBoostContext(ctx, e, tree.ExportOptions{LibSVMIndices: *libsvm, MissingAsZero: *zero, ObjectiveParams: xgbObjectiveParams(source, obj), NumParallelTree: parallelTrees(source, *cascadeF != "")})
		if err != nil {
			return exportError(ctx, err, *modelF+*cascadeF, *stage, active)
		}
		return writeExport(ctx, data.BytesOutput(*out, b))
	}); err != nil {
		return err
	}
	numbering := "feature k is f{k-1}"
	if *libsvm {
		numbering = "feature k is f{k}"
	}
	report["objective"], report["trees"], report["features"], report["feature_numbering"] = obj, len(e.Trees), e.NumFeatures, numbering
	if *jsonOut {
		return writeJSON(stdout, report)
	}
	fmt.Fprintf(stdout, "wrote %s: %s as XGBoost %s (%s, %s)\n", views.Printable(*out), what, obj, count(e.NumFeatures, "feature"), numbering)
	if d := describeStage(report); d != "" {
		fmt.Fprintln(stdout, d)
	}
	return nil
}

// exportError names what an exporter refused (err, not nil): the model
// file input, or, for a cascade's stage (stage > 0), the cascade file and
// the stage, with a tree named as the cascade's model numbers it (active:
// the stage's trees, which are some of the model's). An interrupt's error
// is returned as it is. (One of --model and --cascade is given, so
// input is the concatenation of the two.)
func exportError(ctx context.Context, err error, input string, stage int, active []int) error {
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return err
	case stage > 0:
		var te *tree.ExportTreeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s: stage %d: tree %d: %w", input, stage, active[te.Tree], te.Err)
		}
		return fmt.Errorf("%s: stage %d: %w", input, stage, err)
	default:
		return fmt.Errorf("%s: %w", input, err)
	}
}

// describeStage says, for the report of an exported stage, when a
// document leaves the cascade there; "" for a model.
func describeStage(report map[string]any) string {
	stage, ok := report["stage"].(int)
	if !ok {
		return ""
	}
	switch t := report["theta"].(type) {
	case float64:
		rule := ""
		if c := report["rule"]; c == cronus.RuleTopM {
			rule = fmt.Sprintf(", but a query's %d best documents there go on", report["top_m"])
		}
		return fmt.Sprintf("a document leaves the cascade at stage %d when this model's score for it is below %v%s", stage, t, rule)
	default:
		if stage == report["stages"] {
			return fmt.Sprintf("stage %d is the last: the documents that reach it rank by this model's score, above those that left earlier", stage)
		}
		return fmt.Sprintf("stage %d lets every document through", stage)
	}
}

// cOutputs are where export --to c writes: the C file, and its header
// when header is not "", with the names starting with prefix.
type cOutputs struct {
	prefix, out, header string
}

// paths are the files written: the C file, and the header when asked.
func (o cOutputs) paths() []string {
	if o.header != "" {
		return []string{o.out, o.header}
	}
	return []string{o.out}
}

// write writes the C file src and, when asked, the header declaring decls,
// fn the first of them, both or neither; the report gets the header's path.
func (o cOutputs) write(ctx context.Context, src []byte, fn, decls string, report map[string]any) error {
	outs := []data.Output{data.BytesOutput(o.out, src)}
	if o.header != "" {
		name := filepath.Base(o.out)
		if o.out == "-" {
			name = "" // the standard output
		}
		outs = append(outs, data.BytesOutput(o.header, tree.CHeader(fn, name, decls)))
		report["header"] = o.header
	}
	return writeExport(ctx, outs...)
}

// exportModelC writes e (a model's first trees, or a cascade's stage) as
// C source with one function, PREFIX_predict.
//
// absentMissing says the stage is of a cascade made with --absent
// missing: the file's comment and a note on stderr then say to give a
// feature a document lacks as NaN.
func exportModelC(ctx context.Context, e *tree.Ensemble, what string, o cOutputs, jsonOut, absentMissing bool, report map[string]any, stdout, stderr io.Writer) error {
	source, _ := report["model"].(string)
	if n, ok := report["model_trees"].(int); ok {
		source = fmt.Sprintf("%s (its first %d of %d trees)", source, len(e.Trees), n)
	}
	var note string
	if c, ok := report["cascade"].(string); ok {
		source = fmt.Sprintf("stage %d of %d of %s", report["stage"], report["stages"], c)
		d := strings.Replace(describeStage(report), "this model's score", "this score", 1)
		note = wrapText(strings.ToUpper(d[:1])+d[1:]+".", 70)
		if absentMissing {
			note += "\n\n" + cAbsentMissingComment
			fmt.Fprintln(stderr, cAbsentMissingNote)
		}
	}
	fn := o.prefix + "_predict"
	if err := writeShowing(stderr, o.paths(), func() error {
		b, err := tree.ExportCContext(ctx, e, tree.CExportOptions{Prefix: o.prefix, Source: source, Note: note})
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return err
		}
		if err != nil {
			return fmt.Errorf("%s: %w", source, err)
		}
		return o.write(ctx, b, fn, tree.CModelDecls(o.prefix), report)
	}); err != nil {
		return err
	}
	report["functions"], report["trees"], report["features"], report["objective"], report["feature_numbering"] =
		[]string{fn}, len(e.Trees), e.NumFeatures, e.Objective, "feature k is x[k-1]"
	if jsonOut {
		return writeJSON(stdout, report)
	}
	fmt.Fprintf(stdout, "wrote %s: %s as C, double %s(const float *x) (%s, feature k is x[k-1]; the raw score)\n", views.Printable(o.out), what, fn, count(e.NumFeatures, "feature"))
	if o.header != "" {
		fmt.Fprintf(stdout, "wrote %s: its declaration\n", views.Printable(o.header))
	}
	if d := describeStage(report); d != "" {
		fmt.Fprintln(stdout, d)
	}
	return nil
}

// byNameNote notes, for a model imported with --by-name (an XGBoost or
// LightGBM model trained on a frame of selected features named by their numbers, whose
// column j was the feature its name says), that the export numbers the
// features by position instead: the frame the model was trained on, given
// to the exported XGBoost model, is scored wrong without an error (its
// column j read as feature j+1).
func byNameNote(stderr io.Writer, source map[string]any, libsvm bool, nf int) {
	if source["feature_indices"] != "names" {
		return
	}
	numbering, cols := "f{k-1}", nf
	if libsvm {
		numbering, cols = "f{k}", nf+1
	}
	fmt.Fprintf(stderr, "note: the model was imported with --by-name (trained on a frame of selected features named by their numbers): the export numbers its features by position, feature k as %s, and has no feature names: give XGBoost a matrix of %s in order, not the frame the model was trained on, whose columns it would read as the first features, without an error\n", numbering, count(cols, "column"))
}

// cAbsentMissingComment is the paragraph of the first comment of a C file
// exported from a cascade made with --absent missing, whose optimiser read
// a feature a data line leaves out as missing (NaN), not as the 0 the
// file's own comment describes (as predict reads a file by default).
var cAbsentMissingComment = wrapText("This cascade was made reading a feature a data line leaves out as missing (cronus cascade --absent missing): "+
	"give a feature a document lacks as NaN, not 0, to score it as it was made and as cronus predict --cascade --absent missing does.", 70)

// cAbsentMissingNote is export's note on standard error for the same.
const cAbsentMissingNote = "note: the cascade was made reading a feature a data line leaves out as missing (--absent missing): " +
	"give the C file such a feature as NaN, not 0, to score it as it was made (predict --cascade --absent missing)"

// wrapText breaks s into lines of at most width bytes at spaces (a longer
// word stands on its own line).
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		switch {
		case n == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// exportCascadeC writes the whole cascade in cascadeF as C source
// (cronus.ExportC), with the costs of costsF when it is given.
func exportCascadeC(ctx context.Context, cascadeF string, firstStages int, costsF string, o cOutputs, jsonOut bool, stdout, stderr io.Writer) error {
	cf, err := untilDoneShowing(ctx, stderr, "reading the cascade "+cascadeF, func() (*cronus.File, error) { return cronus.ReadFile(cascadeF) })
	if err != nil {
		return err
	}
	source, K := cascadeF, len(cf.Stages)
	if firstStages > 0 {
		if err := cf.FirstStages(firstStages); err != nil {
			return usageError{fmt.Sprintf("--stages %d: %s: %v", firstStages, views.Printable(cascadeF), err)}
		}
		if firstStages < K {
			source = fmt.Sprintf("%s (its first %d of %d stages)", cascadeF, firstStages, K)
		}
	}
	e, c, err := cf.Cascade()
	if err != nil {
		return fmt.Errorf("%s: %w", cascadeF, err)
	}
	featCost := cf.FeatureCost
	if costsF != "" {
		costs, err := untilDone(ctx, func() (*data.Costs, error) { return data.LoadCosts(costsF, e.NumFeatures) })
		if err != nil {
			return err
		}
		warn(stderr, costs.Warning())
		warn(stderr, costs.UnusedWarningFor("the cascade's model"))
		featCost = costs.Cost
	}
	report := map[string]any{}
	var note string
	if cf.Params["absent"] == "missing" {
		note = cAbsentMissingComment + "\n" + wrapText(fmt.Sprintf("(%s_rank_dense reads a feature past stride as 0: give it rows of every feature the cascade reads.)", o.prefix), 70)
		fmt.Fprintln(stderr, cAbsentMissingNote)
	}
	if err := writeShowing(stderr, o.paths(), func() error {
		b, err := cronus.ExportCContext(ctx, e, c, featCost, cf.TreeCost, tree.CExportOptions{Prefix: o.prefix, Source: source, Note: note})
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return err
		}
		if err != nil {
			return fmt.Errorf("%s: %w", cascadeF, err)
		}
		return o.write(ctx, b, o.prefix+"_rank", cronus.CDecls(o.prefix), report)
	}); err != nil {
		return err
	}
	used := map[int]bool{}
	var trees []tree.Tree
	for k := range c.Stages {
		for _, t := range c.Stages[k].Active() {
			if !used[t] {
				used[t] = true
				trees = append(trees, e.Trees[t])
			}
		}
	}
	feats := append([]int{}, tree.SplitFeatures(trees)...) // [] in JSON, not null, for a cascade with no trees
	for i := range feats {
		feats[i]++
	}
	fns := []string{o.prefix + "_rank", o.prefix + "_rank_dense", o.prefix + "_rank_work", o.prefix + "_work_size"}
	for k, v := range map[string]any{"out": o.out, "to": "c", "cascade": cascadeF, "stages": len(c.Stages), "rule": c.Rule,
		"trees": len(used), "model_trees": len(e.Trees), "features": feats, "model_features": e.NumFeatures,
		"functions": fns, "feature_numbering": "feature k is k-1"} {
		report[k] = v
	}
	if c.Rule == cronus.RuleTopM {
		report["top_m"] = c.TopM
	}
	if len(c.Stages) < K {
		report["first_stages_of"] = K
	}
	if jsonOut {
		return writeJSON(stdout, report)
	}
	fmt.Fprintf(stdout, "wrote %s: the %d-stage cascade of %s (%d of its model's %s, %s of %d) as C: %s (and %s; %s with %s), which ranks one query and fetches each feature (k as k-1) only when a stage needs it\n",
		views.Printable(o.out), len(c.Stages), views.Printable(source), len(used), count(len(e.Trees), "tree"), count(len(feats), "feature"), e.NumFeatures, fns[0], fns[1], fns[2], fns[3])
	if o.header != "" {
		fmt.Fprintf(stdout, "wrote %s: their declarations\n", views.Printable(o.header))
	}
	return nil
}

// writeExport writes exported files atomically, all or none, unless ctx
// is done.
func writeExport(ctx context.Context, outs ...data.Output) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return data.WriteAtomicAllContext(ctx, outs)
}

// lightGBMTransformed reports whether m is a LightGBM model whose objective
// has options that change how its prediction follows from the raw score
// (the ensemble keeps only the objective's name): "binary sigmoid:2" is
// σ(2s), not binary:logistic's σ(s); "regression sqrt" is s·|s|.
// xgbObjectiveParams returns the objective's parameter objects of an
// XGBoost model's provenance (import's "objective_params") when the
// objective written is the model's own, so that the exported model keeps
// its settings (tweedie_variance_power 1.7, a huber_slope) rather than
// XGBoost's defaults; nil otherwise, or when they are not objects of
// strings (a hand-edited file), which leaves the defaults.
func xgbObjectiveParams(source map[string]any, obj string) map[string]any {
	p, ok := source["objective_params"].(map[string]any)
	if !ok || source["source"] != "xgboost" || source["objective"] != obj {
		return nil
	}
	for _, v := range p {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for _, x := range o {
			if _, ok := x.(string); !ok {
				return nil
			}
		}
	}
	return p
}

// parallelTrees is the trees per boosting round of a model imported from
// an XGBoost random forest (import's "num_parallel_tree"), so that its
// export counts rounds as XGBoost did: 1 for a cascade's stage, whose
// trees are not the model's rounds, and for every other model.
func parallelTrees(source map[string]any, stage bool) int {
	if stage || source["source"] != "xgboost" {
		return 1
	}
	switch n := source["num_parallel_tree"].(type) {
	case int:
		return n
	case float64:
		if n >= 1 && n <= math.MaxInt32 && n == math.Trunc(n) {
			return int(n)
		}
	}
	return 1
}

func lightGBMTransformed(m *tree.Model) bool {
	full, ok := m.Params["objective"].(string)
	if !ok || m.Source != "lightgbm" {
		return false
	}
	// The objective's name, then its options; an empty objective line
	// ("objective=") imports with neither.
	fields := strings.Fields(full)
	for _, opt := range fields[min(1, len(fields)):] {
		if v, ok := strings.CutPrefix(opt, "sigmoid:"); ok {
			if f, err := strconv.ParseFloat(v, 64); err != nil || f != 1 {
				return true
			}
		}
		if opt == "sqrt" {
			return true
		}
	}
	return false
}
