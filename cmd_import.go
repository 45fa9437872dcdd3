package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/views"
)

// importFormats are the words of import's --from.
var importFormats = []string{"lightgbm", "xgboost", "ranklib"}

// runImport is cronus import: a LightGBM, XGBoost or RankLib model file
// becomes a Cronus model file.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stdout)
	from := new(string)
	choiceVar(fs, from, "from", "", "`format` of the input (required): lightgbm (model.txt), xgboost (JSON or UBJSON from Booster.save_model) or ranklib (a LambdaMART, MART or Random Forests model saved by RankLib's -save)", importFormats...)
	libsvm := fs.Bool("libsvm-indices", false, "xgboost: the model was trained on XGBoost's own libsvm reader (DMatrix(\"train.txt?format=libsvm\")), whose f{k} is the file's feature k; without it f{k} is feature k+1 (column k of a matrix)")
	byName := fs.Bool("by-name", false, "xgboost, lightgbm: the model's feature names are the features' numbers (a frame of selected features named \"3\", \"7\", \"12\"), and each column is the feature its name says")
	zeroBased := fs.Bool("zero-based", false, "lightgbm: the model was trained on 0-based columns (a matrix, as from numpy, pandas or scikit-learn's load_svmlight_file), whose column j is feature j+1; without it column j is feature j, as when LightGBM reads the SVMlight file itself")
	features := fs.Int("features", 0, "ranklib: the `N` features of the data the model was trained on; a RankLib model says only the highest feature a split uses (or, exported by cronus, its \"## No. of features\" line), which is the count without it")
	out := fs.String("out", "", "model `FILE` to write (required)")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	// A flag for another format is refused when given at all, false too
	// (--zero-based=false with --from xgboost), as export refuses
	// --libsvm-indices=false with --to c: it was taken when false, and
	// ignored.
	explicit := explicitFlags(fs)
	switch {
	case len(pos) == 0:
		return usageError{"expected one input model FILE"}
	case len(pos) > 1:
		// import --from lightgbm m.txt m.json, the output given as an
		// argument, said only "expected one input model FILE".
		extra := fmt.Sprintf("expected one input model FILE; got %d, %q", len(pos), pos)
		if *out == "" {
			extra += ": the output is --out FILE"
		}
		return usageError{extra}
	case pos[0] == "":
		// import --from xgboost "$M", M unset, said ": no such file".
		return usageError{"the file name is empty; expected one input model FILE"}
	case *from == "":
		return usageError{"--from FORMAT is required: " + orList(importFormats)}
	case *out == "":
		return usageError{"--out FILE is required"}
	case explicit["libsvm-indices"] && *from != "xgboost":
		return usageError{"--libsvm-indices applies to --from xgboost only"}
	case explicit["by-name"] && *from == "ranklib":
		return usageError{"--by-name applies to --from xgboost and lightgbm, whose models name their features"}
	case *byName && (*libsvm || *zeroBased):
		return usageError{"--by-name, --libsvm-indices and --zero-based are ways to number the features; give one"}
	case explicit["zero-based"] && *from != "lightgbm":
		return usageError{"--zero-based applies to --from lightgbm only"}
	case explicit["features"] && *from != "ranklib":
		return usageError{"--features applies to --from ranklib only: LightGBM and XGBoost models say how many features they have"}
	case explicit["features"] && (*features < 1 || *features > data.MaxFeatureIndex):
		return usageError{fmt.Sprintf("--features must be a whole number from 1 to %d, got %d", data.MaxFeatureIndex, *features)}
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, pos, *out); err != nil {
		return err
	}
	type imported struct {
		e      *tree.Ensemble
		params map[string]any
	}
	im, err := untilDoneShowing(ctx, stderr, "importing "+pos[0], func() (imported, error) {
		e, params, err := tree.ImportFileWith(*from, pos[0], tree.ImportOptions{LibSVMIndices: *libsvm, ByName: *byName, ZeroBased: *zeroBased})
		return imported{e, params}, err
	})
	if err != nil {
		return err
	}
	e, params := im.e, im.params
	if *from == "ranklib" {
		// A RankLib model does not say how many features its data had:
		// the count is the highest feature a split uses, or the line
		// cronus's export writes. Short of the data's, predict warns of
		// the features past it, and export --to xgboost declares too few
		// (XGBoost refuses data with more columns than that).
		highest := 0
		if used := e.Features(-1); len(used) > 0 {
			highest = used[len(used)-1] + 1
		}
		header, _ := params["header"].(map[string]any)
		_, counted := header["No. of features"]
		switch {
		case explicit["features"] && *features < highest:
			return usageError{fmt.Sprintf("--features %d, but the model splits on feature %d", *features, highest)}
		case explicit["features"]:
			e.NumFeatures = *features
		case !counted:
			fmt.Fprintf(stderr, "note: a RankLib model does not say how many features its data had: the model has %s, the highest a split uses; if the data has more, import it again with --features N\n", count(e.NumFeatures, "feature"))
		}
	}
	if *from == "xgboost" {
		for _, n := range xgbImportNotes(e, params, *libsvm, *byName) {
			fmt.Fprintln(stderr, n)
		}
	}
	if names, ok := params["feature_names"].([]string); ok && *from == "lightgbm" && !*byName {
		first, rule := 0, "k" // the feature column 0 is, by position
		if *zeroBased {
			first, rule = 1, "k+1"
		}
		if n := numberedNamesNote(names, first, "column %d", "column k", rule); n != "" {
			fmt.Fprintln(stderr, n)
		}
	}
	if splitsOnFirst(e) == 0 && *zeroBased {
		fmt.Fprintln(stderr, "note: the model never splits on column 0 (feature 1): if LightGBM read the SVMlight file itself, which leaves column 0 empty, import it again without --zero-based")
	}
	if err := ctx.Err(); err != nil { // an interrupt while importing writes nothing
		return err
	}
	// The encoding stops between trees, the write within a megabyte,
	// when interrupted, and the file is not renamed into place; a FIFO
	// waiting for its reader is given up.
	if err := writeShowing(stderr, []string{*out}, func() error {
		mo, err := tree.ModelOutputContext(ctx, *out, tree.NewModel(e, *from, params))
		if err != nil {
			return err
		}
		return data.WriteAtomicAllContext(ctx, []data.Output{mo})
	}); err != nil {
		return err
	}
	if *jsonOut {
		return writeJSON(stdout, map[string]any{"model": *out, "source": *from, "trees": len(e.Trees), "features": e.NumFeatures, "objective": e.Objective})
	}
	fmt.Fprintf(stdout, "wrote %s: %s from %s (%s, %s)\n", views.Printable(*out), count(len(e.Trees), "tree"), *from, objectiveShown(e.Objective), count(e.NumFeatures, "feature"))
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

// numberedFrom tells whether names are first, first+1, ... in order.
func numberedFrom(names []string, first int) bool {
	for k, n := range names {
		if n != strconv.Itoa(k+first) {
			return false
		}
	}
	return len(names) > 0
}

// numberedNamesNote is import's note on a model whose columns are named by
// numbers that are not the features cronus maps them to by position (column
// k is feature k+first): a frame of selected features named by their
// numbers, which imports with --by-name. column formats column k's name in
// the model ("f%d"); cols and rule say the mapping ("f{k}", "k+1"). "" when
// the names agree, or are 0 to n-1 (a pandas DataFrame's default columns,
// which number the columns as the positions do, one lower).
func numberedNamesNote(names []string, first int, column, cols, rule string) string {
	if first == 1 && numberedFrom(names, 0) {
		return ""
	}
	for k, n := range names {
		if n != strconv.Itoa(k+first) {
			return fmt.Sprintf("note: the model's features are named by numbers, and "+column+" is named %q, not %d: cronus takes %s as feature %s by its position, not its name; "+
				"if it was trained on selected features named by their numbers, import it again with --by-name", k, n, k+first, cols, rule)
		}
	}
	return ""
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
		if n := numberedNamesNote(names, first, "f%d", "f{k}", rule); n != "" {
			notes = append(notes, n)
		}
	}
	if best, ok := params["best_iteration"].(int); ok {
		per := 1
		if n, ok := params["num_parallel_tree"].(int); ok {
			per = n
		}
		if keep := (best + 1) * per; best >= 0 && per >= 1 && keep < len(e.Trees) { // a crafted -5 gave "--trees -4"
			notes = append(notes, fmt.Sprintf("note: training stopped early at best_iteration %d; like XGBoost's Booster.predict, cronus uses all %d trees "+
				"(--trees %d stops at the best iteration, as scikit-learn's XGBModel.predict does)", best, len(e.Trees), keep))
		}
	}
	return notes
}

// objectiveShown is a model's objective as the reports name it: a
// LightGBM model trained with a custom objective (a function, not a name)
// records none, and the reports read "(, 46 features)" and "(objective )".
func objectiveShown(o string) string {
	if o == "" {
		return "no objective recorded (a custom one?)"
	}
	return o
}

// objectiveSaid is "objective o", or objectiveShown's words when o is
// empty.
func objectiveSaid(o string) string {
	if o == "" {
		return objectiveShown(o)
	}
	return "objective " + o
}
