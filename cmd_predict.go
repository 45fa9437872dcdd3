package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// runPredict is cronus predict: one score per document of --data, from a
// model or a cascade, in input order.
func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", stdout)
	modelF := fs.String("model", "", "model `FILE` to score the data with")
	cascadeF := fs.String("cascade", "", "or a cascade `FILE` (cronus cascade): documents run through its stages for real, and each line is the document's ranking key in the cascade's order (see --exits)")
	dataF := fs.String("data", "", "data `FILE` to score (required)")
	k := newTreesFlag(fs, treesUsage)
	firstStages := fs.Int("stages", 0, stagesUsage)
	lastPrefix := fs.Int("last-prefix", 0, lastPrefixUsage)
	out := fs.String("out", "", "write the scores to `FILE` (default standard output)")
	exitsF := fs.String("exits", "", "with --cascade: write to `FILE` a TSV line per document: qid, docid, the stage it left at (1 = the first), its score there, and what it paid for features and for trees")
	costsF := fs.String("costs", "", "with --cascade: feature cost `FILE` for --exits and the report (default: the cascade's own costs)")
	leavesF := fs.String("leaves", "", "with --model: write to `FILE` a TSV line per document: qid, docid, and the leaf each used tree sends it to (from 0, in the order of the tree's leaf_value)")
	contribsF := fs.String("contribs", "", "write to `FILE` a TSV line per document: qid, docid, each feature's contribution to its score and the bias (TreeSHAP, as XGBoost's pred_contribs); a line sums to the score (with --cascade: to its score at the stage it left at, --exits's score)")
	asJSON := fs.Bool("json", false, "print a JSON report; it holds the scores unless --out is given")
	absent := newAbsentFlag(fs)
	ranges := []flagRange{atLeast("stages", 0), atLeast("last-prefix", 0)}
	if err := parseNoArgs(fs, args, ranges...); err != nil {
		return err
	}
	// parseNoArgs takes the ranges for its messages only: --stages -1 ran
	// the whole cascade without a word.
	if err := checkRanges(fs, ranges...); err != nil {
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
		for _, name := range []string{"exits", "costs", "stages", "last-prefix"} {
			if explicit[name] {
				return usageError{"--" + name + " applies to --cascade only"}
			}
		}
	} else {
		if explicit["trees"] {
			return usageError{"--trees applies to --model only: a cascade's stages say which trees a document evaluates"}
		}
		if explicit["leaves"] {
			return usageError{"--leaves applies to --model only"}
		}
	}
	if *asJSON && *out == "-" {
		return usageError{"--json prints the report on standard output; give --out FILE for the scores, or leave --out out to have them in the report"}
	}
	for _, o := range []struct{ name, path string }{{"exits", *exitsF}, {"leaves", *leavesF}, {"contribs", *contribsF}} {
		if (*out == "" || *out == "-") && isStdout(o.path) {
			return usageError{fmt.Sprintf("--%s %s: the scores go to standard output; give --out FILE for them", o.name, o.path)}
		}
	}
	outputs := []string{*exitsF, *leavesF, *contribsF}
	if *out != "-" {
		outputs = append(outputs, *out)
	}
	if err := checkOutputs(&stdout, stderr, *asJSON, []string{*modelF, *cascadeF, *dataF, *costsF}, outputs...); err != nil {
		return err
	}
	e, m, cf, minFeatures, err := loadScorer(ctx, stderr, *modelF, *cascadeF, *k, *firstStages, *lastPrefix)
	if err != nil {
		return err
	}
	var stages []*tree.Ensemble // with --cascade --contribs: each stage as an ensemble
	switch {
	case *contribsF != "" && e != nil:
		if err := e.CheckCovers(int(*k)); err != nil {
			return noCoversError(*modelF, "--contribs", m, err)
		}
	case *contribsF != "":
		ce, c, err := cf.Cascade()
		if err != nil {
			return fmt.Errorf("%s: %w", *cascadeF, err)
		}
		if stages, err = stageEnsembles(ce, c); err != nil {
			return noCoversError(*cascadeF, "--contribs", cf.Ensemble, err)
		}
	}
	d, err := loadScoringData(ctx, newProgress(stderr), *dataF, minFeatures, bool(*absent))
	if err != nil {
		return err
	}
	report := map[string]any{"data": *dataF, "docs": d.NumDocs(), "queries": d.NumQueries()}
	var scores []float64
	var written docsWritten // the documents of --leaves and --contribs done, for the progress line
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
		if *leavesF != "" {
			files = append(files, leavesOutput(ctx, *leavesF, d, e, trees, &written))
			report["leaves"] = *leavesF
		}
		if *contribsF != "" {
			files = append(files, contribsOutput(ctx, *contribsF, d, e, trees, &written))
			report["contribs"] = *contribsF
		}
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
		if *contribsF != "" {
			files = append(files, stageContribsOutput(ctx, *contribsF, d, stages, r.Exit, &written))
			report["contribs"] = *contribsF
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
	stop := func() {}
	if *leavesF != "" || *contribsF != "" {
		stop = showTicking(newProgress(stderr), func(time.Duration) string { return written.line(d) })
	}
	err = data.WriteAtomicAllContext(ctx, files)
	stop()
	if err != nil {
		return err
	}
	switch {
	case *asJSON && *out == "":
		report["scores"] = scores // stopped at an interrupt, as the scores alone are
		return writeStdout(ctx, stdout, func(w *bufio.Writer) error { return writeJSON(w, report) })
	case toStdout:
		return writeStdout(ctx, stdout, writeScores)
	case *asJSON:
		report["out"] = *out
		return writeJSON(stdout, report)
	}
	return nil
}

// docsWritten is how far predict has come with the file of --leaves or
// --contribs being written, for its progress line: which one (what, set
// as its writing starts) and how many of its documents are done.
type docsWritten struct {
	what atomic.Pointer[string]
	done atomic.Int64
}

// start says that the file of what (its progress line's words) is being
// written from now on, none of its documents done.
func (w *docsWritten) start(what string) {
	w.done.Store(0)
	w.what.Store(&what)
}

// line is the progress line of the file being written for the documents
// of d: "" before any.
func (w *docsWritten) line(d *data.Dataset) string {
	what := w.what.Load()
	if what == nil {
		return ""
	}
	n := w.done.Load()
	return fmt.Sprintf("%s on %s: %d of %d documents (%.0f%%)", *what, d.Name, n, d.NumDocs(), 100*float64(n)/float64(max(d.NumDocs(), 1)))
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
				b = appendTSVDocID(b, d.DocID(i), i)
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

// noCoversError is the refusal of flag (predict's --contribs, inspect's
// --data) for the model of path (file form m) whose trees lack covers
// (err, from CheckCovers).
func noCoversError(path, flag string, m *tree.Model, err error) error {
	why := "it was written without them (by an older cronus, or edited): train it again, or import it again from its XGBoost or LightGBM file"
	switch {
	case m != nil && m.Source == "ranklib":
		why = "RankLib model files record no covers, so a model imported from RankLib has none: contributions need a model trained by cronus or imported from XGBoost or LightGBM"
	case m != nil && (m.Source == "xgboost" || m.Source == "lightgbm"):
		// Importing again gives none either when the source file's were
		// missing or malformed (keepCompleteStats).
		why = "it was written without them: by an older cronus (import it again), or imported from " + sourceCovers[m.Source] +
			" some tree lacks or has malformed (not finite, or below 0), which an import then drops from every tree"
	}
	return fmt.Errorf("%s: %s: %v: feature contributions weigh the two sides of every split by their covers (cover and leaf_cover, the hessian sums of the training documents), and %s", path, flag, err, why)
}

// sourceCovers says which fields of an XGBoost or LightGBM model the
// import takes covers from, for noCoversError.
var sourceCovers = map[string]string{
	"xgboost":  "an XGBoost model whose sum_hessian",
	"lightgbm": "a LightGBM model whose internal_weight or leaf_weight",
}

// contribsChunk is how many documents' contributions (or leaves) are
// computed at a time and written, so that a large data set is not held
// whole: about 4 MB of float64s, between 16 and 4,096 documents (at least
// 128 held 200 MB for a model of 200,000 features; 16 still give each
// core blocks to work on).
func contribsChunk(columns int) int {
	return max(16, min(4096, (1<<19)/max(columns, 1)))
}

// docLines writes to w header, then a line per document of d in input
// order: its qid, its docid (as --run names it), and what more adds to
// the line for document i; chunk(lo, hi) is called before documents lo to
// hi-1 (of at most size), to compute what they need.
func docLines(w *bufio.Writer, d *data.Dataset, header string, size int, chunk func(lo, hi int) error, more func(b []byte, i int) []byte) error {
	if _, err := w.WriteString(header); err != nil {
		return err
	}
	var b []byte
	next := 0 // the first document whose chunk is not computed yet
	for q, id := range d.QueryIDs {
		lo, hi := d.Query(q)
		for i := lo; i < hi; i++ {
			if i == next {
				next = min(i+size, d.NumDocs())
				if err := chunk(i, next); err != nil {
					return err
				}
			}
			b = strconv.AppendInt(b[:0], int64(id), 10)
			b = append(b, '\t')
			b = appendTSVDocID(b, d.DocID(i), i)
			b = more(b, i)
			b = append(b, '\n')
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// leavesOutput is predict --leaves's file: a header (qid, docid, t1 to
// tk), then per document of d in input order the leaf (from 0, as
// Tree.LeafIndex numbers them) each of e's first k trees sends it to;
// progress counts the documents computed. The trees are walked over the
// features they split on alone (tree.CompactFeatures, the leaves the
// same): each chunk of documents slices those columns, not all of a
// sparse index of 1,000,000 (24 MB of column headers a chunk).
func leavesOutput(ctx context.Context, path string, d *data.Dataset, e *tree.Ensemble, k int, progress *docsWritten) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		progress.start("leaf indices")
		trees, used := tree.CompactFeatures(e.Trees[:k], e.NumFeatures)
		if used == nil {
			used = make([]int, e.NumFeatures)
			for f := range used {
				used[f] = f
			}
		}
		walk := &tree.Ensemble{Trees: trees, NumFeatures: len(used)}
		cols := make([][]float32, len(used))
		var h strings.Builder
		h.WriteString("qid\tdocid")
		for t := range k {
			fmt.Fprintf(&h, "\tt%d", t+1)
		}
		h.WriteString("\n")
		size := contribsChunk(k)
		leaf := make([]int32, k*size) // leaf[t*n+i-lo]: tree t, document i of the chunk of n from lo
		var lo, n int
		return docLines(w, d, h.String(), size, func(a, b int) error {
			lo, n = a, b-a
			for c, f := range used {
				cols[c] = d.Cols[f][a:b]
			}
			_, err := walk.LeafIndicesContext(ctx, leaf[:k*n], cols, n, k)
			progress.done.Add(int64(n))
			return err
		}, func(b []byte, i int) []byte {
			for t := range k {
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(leaf[t*n+i-lo]), 10)
			}
			return b
		})
	}}
}

// stageEnsembles returns each stage of cascade c over ensemble e as an
// ensemble (cronus.StageEnsemble), or the error of CheckCovers when e's
// trees lack covers (a model has them on every tree or on none), which
// names the tree as e numbers it.
func stageEnsembles(e *tree.Ensemble, c *cronus.Cascade) ([]*tree.Ensemble, error) {
	if err := e.CheckCovers(-1); err != nil {
		return nil, err
	}
	stages := make([]*tree.Ensemble, len(c.Stages))
	for k := range stages {
		stages[k] = cronus.StageEnsemble(e, c, k)
	}
	return stages, nil
}

// stageContribsOutput is predict --cascade --contribs's file: as
// contribsOutput's, each document's contributions to its score at the
// stage it left at (exit[i], 0-based), those of that stage's ensemble
// (stages[exit[i]]); progress counts the documents computed.
func stageContribsOutput(ctx context.Context, path string, d *data.Dataset, stages []*tree.Ensemble, exit []int, progress *docsWritten) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		progress.start("feature contributions")
		// Each stage's contributions are computed for the features its
		// trees split on alone (tree.CompactContribs), and held for the
		// features any stage splits on (all), as appendSpread writes
		// them: at stage k, feature all[at[k][c]] is column c.
		ccs := make([]*tree.CompactContribs, len(stages))
		var all []int
		for k, se := range stages {
			cc, err := se.CompactContribs(-1)
			if err != nil {
				return err
			}
			ccs[k] = cc
			all = append(all, cc.Features...)
		}
		slices.Sort(all)
		all = slices.Compact(all)
		at := make([][]int, len(stages))
		widest := 0
		for k, cc := range ccs {
			at[k] = make([]int, len(cc.Features))
			for c, f := range cc.Features {
				at[k][c], _ = slices.BinarySearch(all, f)
			}
			widest = max(widest, len(cc.Features))
		}
		m := len(all) + 1
		size := contribsChunk(m)
		phi := make([]float64, size*m)
		part := make([]float64, size*(widest+1))
		cols := make([][]float32, widest) // the chunk's documents that left at one stage
		for c := range cols {
			cols[c] = make([]float32, size)
		}
		var docs []int
		lo := 0
		return docLines(w, d, contribsHeader(stages[0].NumFeatures), size, func(a, b int) error {
			lo = a
			for k, cc := range ccs {
				docs = docs[:0]
				for i := a; i < b; i++ {
					if exit[i] == k {
						docs = append(docs, i)
					}
				}
				if len(docs) == 0 {
					continue
				}
				for c, f := range cc.Features {
					for j, i := range docs {
						cols[c][j] = d.Cols[f][i]
					}
				}
				n, u := len(docs), len(cc.Features)
				if _, err := cc.Contributions(ctx, part[:n*(u+1)], cols[:u], n, &progress.done); err != nil {
					return err
				}
				for j, i := range docs {
					row, src := phi[(i-a)*m:(i-a+1)*m], part[j*(u+1):(j+1)*(u+1)]
					clear(row)
					for c, p := range at[k] {
						row[p] = src[c]
					}
					row[m-1] = src[u]
				}
			}
			return nil
		}, func(b []byte, i int) []byte {
			return appendSpread(b, phi[(i-lo)*m:(i-lo+1)*m], all, stages[0].NumFeatures)
		})
	}}
}

// appendFields appends each of vs to b after a tab, in full (shortest
// round-trip precision).
func appendFields(b []byte, vs []float64) []byte {
	for _, v := range vs {
		b = append(b, '\t')
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	return b
}

// contribsHeader is the header line of a contributions file: qid, docid,
// f1 to fF for F features, bias.
func contribsHeader(features int) string {
	h := make([]byte, 0, len("qid\tdocid\tbias\n")+features*(2+len(strconv.Itoa(features))))
	h = append(h, "qid\tdocid"...)
	for f := range features {
		h = append(h, "\tf"...)
		h = strconv.AppendInt(h, int64(f+1), 10)
	}
	return string(append(h, "\tbias\n"...))
}

// contribsOutput is predict --contribs's file: a header (qid, docid, f1
// to fF for the model's F features, bias), then per document of d in
// input order the contributions of e's first k trees
// (Ensemble.Contributions); progress counts the documents computed. They
// are computed for the features the trees split on alone
// (tree.CompactContribs), the others written as 0: a model of a sparse
// index of 1,000,000 computed a million per document.
func contribsOutput(ctx context.Context, path string, d *data.Dataset, e *tree.Ensemble, k int, progress *docsWritten) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		progress.start("feature contributions")
		cc, err := e.CompactContribs(k)
		if err != nil {
			return err
		}
		m := len(cc.Features) + 1
		size := contribsChunk(m)
		phi := make([]float64, size*m)
		cols := make([][]float32, len(cc.Features))
		lo := 0
		return docLines(w, d, contribsHeader(e.NumFeatures), size, func(a, b int) error {
			lo = a
			for c, f := range cc.Features {
				cols[c] = d.Cols[f][a:b]
			}
			_, err := cc.Contributions(ctx, phi[:(b-a)*m], cols, b-a, &progress.done)
			return err
		}, func(b []byte, i int) []byte {
			return appendSpread(b, phi[(i-lo)*m:(i-lo+1)*m], cc.Features, e.NumFeatures)
		})
	}}
}

// tabZeros is "\t0" many times over, for appendSpread.
var tabZeros = strings.Repeat("\t0", 256)

// appendSpread appends to b, each after a tab, the nf features'
// contributions of a row of compact ones (row[c] for feature feats[c],
// ascending; 0 for the others) and then the bias (the row's last entry),
// as appendFields appends the whole row.
func appendSpread(b []byte, row []float64, feats []int, nf int) []byte {
	zeros := func(b []byte, k int) []byte {
		for ; k > 0; k -= len(tabZeros) / 2 {
			b = append(b, tabZeros[:2*min(k, len(tabZeros)/2)]...)
		}
		return b
	}
	next := 0 // the first feature not written
	for c, f := range feats {
		b = zeros(b, f-next)
		b = append(b, '\t')
		b = strconv.AppendFloat(b, row[c], 'g', -1, 64)
		next = f + 1
	}
	b = zeros(b, nf-next)
	return appendFields(b, row[len(feats):len(feats)+1])
}
