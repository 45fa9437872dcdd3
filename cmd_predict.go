package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
)

// runPredict is cronus predict: one score per document of --data, from a
// model or a cascade, in input order.
func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", stdout)
	modelF := fs.String("model", "", "model `FILE` to score the data with")
	cascadeF := fs.String("cascade", "", "or a cascade `FILE` (cronus cascade): documents run through its stages for real, and each line is the document's ranking key in the cascade's order (see --exits)")
	dataF := fs.String("data", "", "data `FILE` to score (required)")
	k := newTreesFlag(fs, treesUsage)
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
	e, m, cf, minFeatures, err := loadScorer(ctx, stderr, *modelF, *cascadeF, *k)
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
		warn(stderr, m.LibsvmReaderWarning(e, d))
		start := time.Now()
		if scores, err = predictShowing(ctx, stderr, e, d, int(*k)); err != nil {
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
	if err := data.WriteAtomicAllContext(ctx, files); err != nil {
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
