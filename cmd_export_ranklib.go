package main

import (
	"context"
	"fmt"
	"io"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/views"
)

// exportRankLib writes e (a model's first trees, or a cascade's stage) as
// a RankLib LambdaMART model to out. input names the model or cascade file
// for the file's comment and the errors; stage (from 1) and active (the
// stage's trees as the model numbers them) are a cascade's, and name a
// tree RankLib's file cannot hold as the model does. readsMissing says the
// model (an XGBoost one) or the cascade (--absent missing) reads a value
// a line leaves out as missing, which RankLib reads as 0: a note says so
// where the splits send it elsewhere.
func exportRankLib(ctx context.Context, e *tree.Ensemble, what, out, input string, stage int, active []int, readsMissing, jsonOut bool, report map[string]any, stdout, stderr io.Writer) error {
	if differ, total := e.MissingSplits(-1); differ > 0 && readsMissing {
		fmt.Fprintf(stderr, "note: the model sends a missing value the other way than 0 at %d of its %d splits, and RankLib reads a value a line leaves out as 0: "+
			"the export scores such files as cronus predict --absent zero does, not as the model was made to read them\n", differ, total)
	}
	if err := writeShowing(stderr, []string{out}, func() error {
		b, err := tree.ExportRankLib(ctx, e, views.Printable(input))
		if err != nil {
			return exportError(ctx, err, input, stage, active)
		}
		return writeExport(ctx, data.BytesOutput(out, b))
	}); err != nil {
		return err
	}
	baseTree := float32(e.Base) != 0
	report["objective"], report["trees"], report["features"], report["feature_numbering"], report["base_score_tree"] =
		e.Objective, len(e.Trees), e.NumFeatures, "feature k is RankLib's k", baseTree
	if jsonOut {
		return writeJSON(stdout, report)
	}
	base := ""
	if baseTree {
		base = fmt.Sprintf(" and a one-leaf tree for the base score %v", float32(e.Base))
	}
	fmt.Fprintf(stdout, "wrote %s: %s%s as a RankLib LambdaMART model (%s, feature k is RankLib's k; the raw score, summed in float32)\n",
		views.Printable(out), what, base, count(e.NumFeatures, "feature"))
	if d := describeStage(report); d != "" {
		fmt.Fprintln(stdout, d)
	}
	return nil
}
