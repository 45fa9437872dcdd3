package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/tui"
)

func runTUI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tui", stdout)
	var cfg tui.Config
	fs.StringVar(&cfg.Train, "train", "builtin:mq2008/train", "training data `FILE`")
	fs.StringVar(&cfg.Valid, "valid", "builtin:mq2008/vali", "validation data `FILE` (needed with --train)")
	fs.StringVar(&cfg.Test, "test", "builtin:mq2008/test", "test data `FILE` (with --train: none unless given)")
	fs.StringVar(&cfg.Costs, "costs", "builtin:mq2008/costs", "feature cost `FILE` (needed with --train)")
	fs.StringVar(&cfg.Model, "model", "", "start from this ensemble (a cronus model `FILE`, from cronus train or import) instead of training one")
	fs.StringVar(&cfg.Objective, "objective", boost.Regression, "loss of the base ensemble the workbench trains, `NAME`: regression (the paper's squared-loss GBRT) or lambdarank (LambdaMART trees of the same shape); the params panel's loss row starts at it")
	trees := newTreesFlag(fs, treesUsage)
	absent := newAbsentFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := ownData(fs, &cfg); err != nil {
		return err
	}
	cfg.AbsentMissing = bool(*absent)
	switch {
	case explicitFlags(fs)["objective"] && cfg.Model != "":
		return usageError{"--objective needs no --model: a model file's trees bring their own loss (the workbench trains an ensemble only without one)"}
	case !slices.Contains(tui.Objectives(), cfg.Objective):
		return usageError{fmt.Sprintf("--objective %q: the workbench trains %s trees", cfg.Objective, strings.Join(tui.Objectives(), " or "))}
	}
	switch k := int(*trees); {
	case explicitFlags(fs)["trees"] && cfg.Model == "": // --trees all too: it says nothing without a model
		return usageError{"--trees needs --model: the workbench trains its own ensemble otherwise (its trees are set in the params panel)"}
	case k == 0:
		return usageError{"--trees 0: a cascade needs at least one tree"}
	case k > 0:
		cfg.ModelTrees = k
		// A model that reads is held to --trees here, as cascade --trees
		// holds it: in the workbench the error came back at every reload
		// of the same model (o), which keeps --trees. One that does not
		// read is the workbench's to report, in its load screen.
		if e, m, err := loadModel(ctx, stderr, cfg.Model); err == nil {
			if err := trees.fits(e, cfg.Model); err != nil {
				return err
			}
			cfg.ModelRead = m // the workbench's first load takes it
		}
	}
	if cfg.AbsentMissing && cfg.Model == "" {
		// The tree learner bins NaN with the largest values; missing values
		// are for the default directions of an imported model.
		return usageError{"--absent missing needs --model: it reads data for a model that learned where missing values go (imported from XGBoost)"}
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	if !interactive() {
		return fmt.Errorf("the workbench needs a terminal (standard input and output); for scripts use the subcommands: cronus help")
	}
	return runWorkbench(ctx, cfg)
}

// runWorkbench runs the workbench (a variable for the tests).
var runWorkbench = tui.Run

// ownData keeps the built-in MQ2008 set's validation, test and costs off a
// workbench given its own training data: with --train, --valid and --costs
// are needed, as cronus cascade needs them, and no --test is no test data
// (an empty value is none, as the load screen's "(none)"). They were
// MQ2008's, and the workbench reported another data set's test figures
// as the test split's without a word when the features matched.
// costsFileHint says what a --costs file holds, for the errors that ask
// for one.
const costsFileHint = "--costs is the feature cost table: one cost per line (line i: feature i) or lines 'INDEX COST [NAME]' (README, File formats)"

func ownData(fs *flag.FlagSet, cfg *tui.Config) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["train"] {
		return nil
	}
	var missing []string
	for _, name := range []string{"valid", "costs"} {
		if !given[name] {
			missing = append(missing, "--"+name+" FILE")
		}
	}
	if len(missing) > 0 {
		hint := ""
		if !given["costs"] {
			hint = "; " + costsFileHint + "; --costs '' prices every feature at 1"
		}
		return usageError{"--train needs " + strings.Join(missing, " and ") +
			" (the built-in MQ2008 set's are the defaults only without --train; an empty value is none)" + hint}
	}
	if !given["test"] {
		cfg.Test = ""
	}
	return nil
}
