package main

import (
	"context"
	"fmt"
	"io"

	"github.com/cronus-ltr/cronus/tui"
)

func runTUI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tui", stdout)
	var cfg tui.Config
	fs.StringVar(&cfg.Train, "train", "builtin:mq2008/train", "training data `FILE`")
	fs.StringVar(&cfg.Valid, "valid", "builtin:mq2008/vali", "validation data `FILE`")
	fs.StringVar(&cfg.Test, "test", "builtin:mq2008/test", "test data `FILE`")
	fs.StringVar(&cfg.Costs, "costs", "builtin:mq2008/costs", "feature cost `FILE`")
	fs.StringVar(&cfg.Model, "model", "", "start from this ensemble (a cronus model `FILE`, from cronus train or import) instead of training one")
	absent := newAbsentFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	cfg.AbsentMissing = bool(*absent)
	if cfg.AbsentMissing && cfg.Model == "" {
		// The tree learner bins NaN with the largest values; missing values
		// are for the default directions of an imported model.
		return usageError{"--absent missing needs --model: it reads data for a model that learned where missing values go (imported from XGBoost)"}
	}
	if len(pos) > 0 {
		return usageError{"unexpected argument " + pos[0]}
	}
	if !interactive() {
		return fmt.Errorf("the workbench needs a terminal (standard input and output); for scripts use the subcommands: cronus help")
	}
	return tui.Run(ctx, cfg)
}
