package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/views"
)

// readScores reads eval's --scores file for the documents of d, gzipped
// or not (predict --out s.txt.gz writes it gzipped), or stops when ctx is
// done (a FIFO nobody writes to blocks its open).
func readScores(ctx context.Context, path string, d *data.Dataset) ([]float64, error) {
	b, err := untilDone(ctx, func() ([]byte, error) {
		return data.ReadWholeAs(path, "a file of scores, one per line", func(head []byte) error {
			_, err := parseScores(bytes.NewReader(head), path, d.QueryIDs, d.QueryOffsets)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return parseScores(bytes.NewReader(b), path, d.QueryIDs, d.QueryOffsets)
}

// parseScores reads a file of scores, a line per document in the data's
// order, for the queries qids whose documents are offsets[q] to
// offsets[q+1]−1. A line is one score, or RankLib's -score output
// "qid<TAB>index<TAB>score" (index: the document's place in its query,
// from 0), whose qid and index must be the document's; the format of the
// first line holds for the file. Every score must be finite.
func parseScores(r io.Reader, path string, qids []int64, offsets []int) ([]float64, error) {
	want := 0
	if len(offsets) > 0 {
		want = offsets[len(offsets)-1]
	}
	var scores []float64
	sc := bufio.NewScanner(r)
	line, fields, q := 0, 0, 0 // fields: 1 or 3, set by the first line
	blank := 0                 // the first blank line since the last score: only blank lines may follow it
	for sc.Scan() {
		line++
		t := sc.Text()
		if line == 1 {
			t = strings.TrimPrefix(t, "\ufeff") // a UTF-8 byte order mark, as data files may start with
			if m := data.CompressedMessage([]byte(t), "scores, one per line"); m != "" {
				return nil, fmt.Errorf("%s:1: %s", path, m)
			}
			if strings.HasPrefix(strings.TrimSpace(t), "{") {
				return nil, fmt.Errorf("%s:1: a JSON file (a model or a cascade?), not scores: one score per line, a line per document, as cronus predict writes them (cronus predict --model M or --cascade C --data F --out FILE)", path)
			}
		}
		if i := strings.IndexByte(t, 0); i >= 0 {
			// A NUL byte is not text: numpy.save's .npy, a binary model, or
			// UTF-16 (Windows PowerShell's > writes it), whose every ASCII
			// character is two bytes.
			if line == 1 && data.IsUTF16([]byte(t)) {
				return nil, fmt.Errorf("%s:1: %s", path, data.UTF16Message("scores"))
			}

			return nil, fmt.Errorf("%s:%d: binary data (a NUL byte); expected one score per line, as text (numpy.savetxt, not numpy.save)", path, line)
		}
		if strings.IndexByte(t, '\r') >= 0 { // the Scanner takes off a CRLF's
			return nil, fmt.Errorf("%s:%d: %s", path, line, data.BareCR)
		}
		f := strings.Fields(t)
		hint := dataLineHint(f)
		switch {
		case len(f) == 0:
			// Blank lines at the end are the end of the file (an editor's
			// or a script's last newline more); one among the scores is a
			// document without its score.
			if blank == 0 {
				blank = line
			}
			continue
		case blank > 0:
			return nil, fmt.Errorf("%s:%d: blank line; expected one score per line, a line per document", path, blank)
		case fields == 0 && (len(f) == 1 || len(f) == 3):
			fields = len(f)
		case fields == 0:
			return nil, fmt.Errorf("%s:%d: %s; expected one score per line, or RankLib's qid, index and score%s", path, line, count(len(f), "field"), hint)
		case len(f) != fields:
			form := "one score"
			if fields == 3 {
				form = "qid, index and score (RankLib's -score output)"
			}
			return nil, fmt.Errorf("%s:%d: %s; the file's first line has %s, and so must every line%s", path, line, count(len(f), "field"), form, hint)
		}
		doc := len(scores)
		if doc >= want {
			return nil, fmt.Errorf("%s:%d: more scores than the %d documents of the data", path, line, want)
		}
		for doc >= offsets[q+1] {
			q++
		}
		if fields == 3 {
			id, err1 := strconv.ParseInt(f[0], 10, 64)
			k, err2 := strconv.Atoi(f[1])
			if err1 != nil || err2 != nil || id != qids[q] || k != doc-offsets[q] {
				return nil, fmt.Errorf("%s:%d: %q %q: expected query %d, index %d (the data's document %d)%s", path, line, f[0], f[1], qids[q], doc-offsets[q], doc+1, hint)
			}
		}
		t = f[len(f)-1]
		v, err := strconv.ParseFloat(t, 64)
		if errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0) && data.DecimalSyntax(t) {
			return nil, fmt.Errorf("%s:%d: score %q is outside the float64 range; expected a finite number", path, line, t)
		}
		if err != nil || !data.DecimalSyntax(t) {
			return nil, fmt.Errorf("%s:%d: score %q is not a number; expected one score per line%s", path, line, t, hint)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s:%d: score %q is not a finite number", path, line, t)
		}
		scores = append(scores, v)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: line longer than %d KiB; expected one score per line", path, line+1, bufio.MaxScanTokenSize>>10)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(scores) != want {
		return nil, fmt.Errorf("%s: %d scores for %d documents", path, len(scores), want)
	}
	return scores, nil
}

// dataLineHint is what parseScores adds to the error of a line that reads
// as a line of a data file, a comment or LABEL qid:Q IDX:VAL …, whose
// error said only that its fields or its RankLib qid and index were wrong
// ("\"1\" \"qid:1\": expected query 1, index 0"): --scores (or --compare)
// and --data swapped, or the data file given for both. "" for other lines.
func dataLineHint(f []string) string {
	const hint = " (this is a line of SVMlight data, 'LABEL qid:Q IDX:VAL … # comment', not scores: a data file given for the scores?)"
	switch {
	case len(f) > 0 && strings.HasPrefix(f[0], "#"):
		return " (a comment line, as data files have and files of scores do not: a data file given for the scores?)"
	case len(f) < 2:
		return ""
	case strings.HasPrefix(f[1], "qid:"):
		return hint
	}
	idx, _, ok := strings.Cut(f[1], ":")
	if ok && idx != "" && strings.Trim(idx, "0123456789") == "" {
		return hint
	}
	return ""
}

// runEval is cronus eval: the ranking quality of a model, a cascade or
// scores made elsewhere on --data, and a model's or cascade's cost per
// document.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stdout)
	modelF := fs.String("model", "", "model `FILE` to score the data with")
	scoresF := fs.String("scores", "", "or a `FILE` of scores, one per document (as cronus predict writes), or RankLib's -score output")
	cascadeF := fs.String("cascade", "", "or a cascade `FILE` (cronus cascade): documents run through its stages for real; the cost is what they paid")
	dataF := fs.String("data", "", "data `FILE` (required)")
	costsF := fs.String("costs", "", "with --model or --cascade: feature cost `FILE` for the cost per document (default: every feature costs 1; a cascade's own costs with --cascade)")
	k := newTreesFlag(fs, treesUsage)
	stages := fs.Int("stages", 0, stagesUsage)
	lastPrefix := fs.Int("last-prefix", 0, lastPrefixUsage)
	treeCost := fs.Float64("tree-cost", 1, "with --model: cost of evaluating one tree on one document (a cascade has its own)")
	metricsF := fs.String("metrics", "p@5,ndcg@10,err@3,rbp@0.8,map", "comma-separated `LIST` of metrics: ndcg@k, err@k, map@k, rr@k (each without @k: the whole list; rr is also mrr), p@k, recall@k, rbp@p (persistence p in (0, 1)), each at most once")
	relevant := fs.Float64("relevant", 1, "P@k, MAP, RR, recall, RBP: a document is relevant when its label >= `r` (> 0; NDCG and ERR: label > 0)")
	errMax := fs.Float64("err-max-label", 0, "ERR: the lmax of R = (2^l-1)/2^lmax, a label above it counting as lmax (> 0; default: the largest label of the data; 4 gives RankLib's ERR@k, whose 2^lmax is 16)")
	exclude := fs.Bool("exclude-no-relevant", false, "leave queries without relevant documents out of the means, each metric's own (NDCG, ERR: no label > 0; P@k, MAP, RR, recall, RBP: none >= --relevant); default: they score 0")
	perQuery := fs.String("per-query", "", "write per-query values as TSV to `FILE`")
	runF := fs.String("run", "", "write a TREC run (qid Q0 docid rank score tag) to `FILE`")
	tag := fs.String("tag", "cronus", "run `tag` for --run (the last column of each line)")
	jsonOut := fs.Bool("json", false, "print JSON")
	absent := newAbsentFlag(fs)
	compareF := fs.String("compare", "", "compare with another system's `FILE` of scores for the same documents (cronus predict's for another model or cascade, or another tool's), query by query: each metric's mean difference, its paired standard error, and the two-sided p of Student's paired t test and of a randomisation test")
	rounds := fs.Int("compare-rounds", defaultCompareRounds, "with --compare: the randomisation test's `N` random sign flips (fixed seed: the same files give the same p)")
	ranges := []flagRange{finite("relevant", 0), finite("err-max-label", 0), between("tree-cost", 0, data.MaxCost, "[]"), between("compare-rounds", 1, maxCompareRounds, "[]"), atLeast("stages", 0), atLeast("last-prefix", 0)}
	if err := parseNoArgs(fs, args, ranges...); err != nil {
		return err
	}
	switch {
	case *dataF == "":
		return usageError{"--data FILE is required"}
	case *compareF == "" && explicitFlags(fs)["compare-rounds"]:
		return usageError{"--compare-rounds applies to --compare only"}
	case countSet(*modelF, *scoresF, *cascadeF) != 1:
		return usageError{"give exactly one of --model FILE, --scores FILE and --cascade FILE"}
	case *tag == "" || strings.IndexFunc(*tag, unicode.IsSpace) >= 0:
		return usageError{fmt.Sprintf("--tag %q: a TREC run tag is one word, without blanks", *tag)}
	case *runF == "" && explicitFlags(fs)["tag"]:
		return usageError{"--tag applies to --run only: it is the last column of the TREC run"}
	case *cascadeF == "" && explicitFlags(fs)["stages"]:
		return usageError{"--stages applies to --cascade only (a model's first trees: --trees)"}
	case *cascadeF == "" && explicitFlags(fs)["last-prefix"]:
		return usageError{"--last-prefix applies to --cascade only (a model's first trees: --trees)"}
	}
	// --relevant 0 would be every document of 0-4 data, and metric.Options
	// takes it as the default 1; a label ≤ 0 is never relevant anyway.
	if err := checkRanges(fs, ranges...); err != nil {
		return err
	}
	if *modelF == "" {
		// They shape a model's scores and cost; a cascade brings its own.
		explicit := explicitFlags(fs)
		for _, name := range []string{"trees", "tree-cost"} {
			if explicit[name] {
				return usageError{"--" + name + " applies to --model only"}
			}
		}
		if *scoresF != "" && explicit["absent"] {
			return usageError{"--absent applies to --model and --cascade, which read the features"}
		}
		if *scoresF != "" && explicit["costs"] {
			return usageError{"--costs applies to --model and --cascade, which extract the features; scores made elsewhere have no cost here"}
		}
	}
	specs, err := metric.ParseList(*metricsF)
	if err != nil {
		return flagError("metrics", err)
	}
	if explicitFlags(fs)["err-max-label"] && !slices.ContainsFunc(specs, func(s metric.Spec) bool { return s.Name == metric.ERR }) {
		return usageError{fmt.Sprintf("--err-max-label applies to err@k; --metrics %s has none", *metricsF)}
	}
	if explicitFlags(fs)["relevant"] && !slices.ContainsFunc(specs, metric.Spec.BinaryRelevance) {
		return usageError{fmt.Sprintf("--relevant applies to p@k, map, rr, recall and rbp, which count the documents with a label >= r; --metrics %s reads the graded labels", *metricsF)}
	}
	if err := checkOutputs(&stdout, stderr, *jsonOut, []string{*modelF, *scoresF, *cascadeF, *dataF, *costsF, *compareF}, *perQuery, *runF); err != nil {
		return err
	}
	e, m, cf, minFeatures, err := loadScorer(ctx, stderr, *modelF, *cascadeF, *k, *stages, *lastPrefix)
	if err != nil {
		return err
	}
	// Scores made elsewhere need only the labels and qids: a file of those
	// alone is data enough for them.
	d, err := loadDataWith(ctx, newProgress(stderr), *dataF,
		data.ReadOptions{MinFeatures: minFeatures, AbsentMissing: bool(*absent), LabelsOnly: *scoresF != ""})
	if err != nil {
		return err
	}
	warn(stderr, m.AbsentWarning(e, int(*k), d))
	warn(stderr, m.LibsvmReaderWarning(e, d))
	var scores []float64
	var cost *metric.Cost
	var predictSeconds float64
	var reached []float64 // a cascade's fraction of documents reaching each stage
	if e != nil {
		t0 := time.Now()
		if scores, err = predictShowing(ctx, stderr, e, d, int(*k)); err != nil {
			return err
		}
		predictSeconds = time.Since(t0).Seconds()
		costs, err := loadCosts(ctx, *costsF, d.NumFeatures(), stderr)
		if err != nil {
			return err
		}
		trees := len(e.Trees)
		if *k >= 0 && int(*k) < trees {
			trees = int(*k)
		}
		c := metric.EnsembleCost(e.Features(int(*k)), costs.Cost, trees, *treeCost)
		cost = &c
	} else if cf != nil {
		r, err := scoreCascade(ctx, cf, *cascadeF, *costsF, d, stderr)
		if err != nil {
			return err
		}
		scores, cost, reached, predictSeconds = r.Key, &r.Cost, r.Reached, r.seconds
	} else if scores, err = readScores(ctx, *scoresF, d); err != nil {
		return err
	}
	var other []float64 // --compare's scores
	if *compareF != "" {
		if other, err = readScores(ctx, *compareF, d); err != nil {
			return err
		}
	}
	opt := metric.Options{RelevantLabel: *relevant, MaxLabel: *errMax, ExcludeNoRelevant: *exclude}
	// A metric for which --exclude-no-relevant leaves out every query has
	// no mean: it is n/a (null in --json), with a warning; when every
	// metric asked for is, that is an error.
	values := map[string]any{}
	var undefined []string         // the warnings
	relOf := map[string][]string{} // "relevant" → the undefined metrics that use it
	var rels []string              // relOf's keys, in the order met
	// Without --exclude-no-relevant such a metric is 0 on every query,
	// with a warning (--relevant 3 on labels 0-2), as train and cascade
	// warn of a validation set that no ranking scores above 0 on.
	zeroOf := map[string][]string{} // "relevant" → the metrics 0 for want of one
	var zeroRels []string
	perQ := make([][]float64, len(specs))
	for i, s := range specs {
		perQ[i] = metric.PerQuery(s, scores, d.Labels, d.QueryOffsets, opt, nil)
		v := metric.MeanOf(perQ[i]) // Mean's bits
		values[s.String()] = v
		if v == 0 && !*exclude && math.IsNaN(metric.Mean(s, scores, d.Labels, d.QueryOffsets, metric.Options{RelevantLabel: *relevant, MaxLabel: *errMax, ExcludeNoRelevant: true})) {
			rel := "a label > 0"
			if s.BinaryRelevance() {
				rel = fmt.Sprintf("a label >= %g (--relevant)", *relevant)
			}
			if zeroOf[rel] == nil {
				zeroRels = append(zeroRels, rel)
			}
			zeroOf[rel] = append(zeroOf[rel], s.String())
		}
		if math.IsNaN(v) {
			values[s.String()] = nil
			rel := "a label > 0" // each metric's own "relevant"
			if s.BinaryRelevance() {
				rel = fmt.Sprintf("a label >= %g (--relevant)", *relevant)
			}
			undefined = append(undefined, fmt.Sprintf("%s: %s: no query has %s, and --exclude-no-relevant leaves none to average", *dataF, s, rel))
			if relOf[rel] == nil {
				rels = append(rels, rel)
			}
			relOf[rel] = append(relOf[rel], s.String())
		}
	}
	var compared []metric.Paired // per metric, with --compare
	if other != nil {
		otherQ := make([][]float64, len(specs))
		for i, s := range specs {
			otherQ[i] = metric.PerQuery(s, other, d.Labels, d.QueryOffsets, opt, nil)
		}
		if compared, err = comparePerQuery(ctx, stderr, *compareF, specs, perQ, otherQ, *rounds); err != nil {
			return err
		}
	}
	if len(undefined) == 1 && len(specs) == 1 {
		return errors.New(undefined[0])
	}
	if len(undefined) == len(specs) { // name them all
		var why []string
		for _, rel := range rels {
			why = append(why, fmt.Sprintf("%s: %s", strings.Join(relOf[rel], ", "), rel))
		}
		return fmt.Errorf("%s: every metric asked for is n/a: no query has a relevant document (%s), and --exclude-no-relevant leaves none to average", *dataF, strings.Join(why, "; "))
	}
	// An interrupt after scoring writes nothing.
	if err := ctx.Err(); err != nil {
		return err
	}
	var files []data.Output // written all or none
	if *perQuery != "" {
		files = append(files, perQueryOutput(*perQuery, d, specs, perQ))
	}
	repeated := ""
	if *runF != "" {
		files = append(files, runOutput(*runF, d, scores, *tag, &repeated))
	}
	if err := data.WriteAtomicAllContext(ctx, files); err != nil {
		return err
	}
	warn(stderr, repeated)
	for _, u := range undefined {
		warn(stderr, u+"; it is n/a (null in --json)")
	}
	for _, rel := range zeroRels {
		warn(stderr, fmt.Sprintf("%s: no document has %s: %s %s 0 on every query", *dataF, rel, strings.Join(zeroOf[rel], ", "), map[bool]string{true: "is", false: "are"}[len(zeroOf[rel]) == 1]))
	}
	conv := metric.Convention(opt)
	if *jsonOut {
		r := map[string]any{"metrics": values, "queries": d.NumQueries(), "docs": d.NumDocs(), "convention": conv}
		if cost != nil {
			r["cost"] = cost
			r["predict_seconds"] = predictSeconds
		}
		if reached != nil {
			r["reached"] = reached
		}
		if compared != nil {
			r["compare"] = compareJSON(*compareF, specs, compared)
		}
		return writeJSON(stdout, r)
	}
	fmt.Fprintf(stdout, "%s: %s, %s\n", views.Printable(*dataF), count(d.NumQueries(), "query"), count(d.NumDocs(), "document"))
	w := nameWidth(specs)
	for _, s := range specs {
		if v, ok := values[s.String()].(float64); ok {
			fmt.Fprintf(stdout, "  %-*s %.4f\n", w, s.String(), v)
		} else {
			fmt.Fprintf(stdout, "  %-*s n/a\n", w, s.String())
		}
	}
	if cost != nil {
		unit := "" // the default costs, said: beside a cascade's real ones they looked like a model's
		if *costsF == "" && *cascadeF == "" {
			unit = "; every feature costs 1 without --costs"
		}
		fmt.Fprintf(stdout, "  %-*s %.1f (features %.1f, trees %.1f%s)\n", w, "cost/doc", cost.Total, cost.Features, cost.Trees, unit)
	}
	if reached != nil {
		fmt.Fprintf(stdout, "  %-*s", w, "reached")
		for _, f := range reached {
			fmt.Fprintf(stdout, " %.3f", f)
		}
		fmt.Fprintf(stdout, "  (fraction of documents reaching each stage)\n")
	}
	if compared != nil {
		printCompared(stdout, *compareF, specs, compared)
	}
	fmt.Fprintf(stdout, "  convention: %s\n", conv)
	return nil
}

// The randomisation test of eval --compare: its default number of sign
// flips, the most it takes, and its seed.
const (
	defaultCompareRounds = 10000
	maxCompareRounds     = 1000000
	compareSeed          = 1
)

// comparePerQuery is eval --compare's work: per metric of specs, the
// per-query values a[i] of the system evaluated against b[i], those of
// the other (from path), compared by metric.ComparePaired, with a progress
// line on a terminal while the sign flips run.
func comparePerQuery(ctx context.Context, stderr io.Writer, path string, specs []metric.Spec, a, b [][]float64, rounds int) ([]metric.Paired, error) {
	var flipped atomic.Int64
	var at atomic.Int32 // the metric being compared
	stop := showTicking(newProgress(stderr), func(time.Duration) string {
		i := int(at.Load())
		return fmt.Sprintf("comparing with %s: %s (%d of %d), %d of %d sign flips", path, specs[i], i+1, len(specs), flipped.Load(), rounds)
	})
	defer stop()
	var out []metric.Paired
	for i := range specs {
		at.Store(int32(i))
		flipped.Store(0)
		c, err := metric.ComparePaired(ctx, a[i], b[i], rounds, compareSeed, &flipped)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// nameWidth is the width of the name column of eval's tables: 10, or the
// longest metric name (recall@1000 is 11).
func nameWidth(specs []metric.Spec) int {
	w := 10
	for _, s := range specs {
		w = max(w, len(s.String()))
	}
	return w
}

// printCompared prints eval --compare's table: per metric, the queries
// both systems have a value for, the two means, their difference (this
// system minus the file's), its standard error, t and the two p.
func printCompared(w io.Writer, path string, specs []metric.Spec, cs []metric.Paired) {
	fmt.Fprintf(w, "  compared with %s, query by query (diff: this - that):\n", path)
	nw := nameWidth(specs)
	fmt.Fprintf(w, "  %-*s %7s %8s %8s %8s %8s %7s %8s %8s\n", nw, "metric", "queries", "this", "that", "diff", "s.e.", "t", "p(t)", "p(rand)")
	num := pairedNum
	for i, s := range specs {
		c := cs[i]
		fmt.Fprintf(w, "  %-*s %7d %8s %8s %8s %8s %7s %8s %8s\n", nw, s.String(), c.Queries,
			num("%.4f", c.A), num("%.4f", c.B), num("%+.4f", c.Diff), num("%.4f", c.SE),
			num("%.2f", c.T), num("%.4f", c.PT), num("%.4f", c.PRand))
	}
	fmt.Fprintf(w, "  p(t): Student's paired t test, two-sided; p(rand): randomisation test, %d random sign flips of the per-query differences (seed %d)\n", cs[0].Rounds, compareSeed)
}

// pairedNum formats v, or says n/a for NaN (no query, or one).
func pairedNum(format string, v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

// jsonNum is v for a JSON report: null where v is NaN or infinite, which
// JSON cannot write.
func jsonNum(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// compareJSON is eval --json's "compare": the file, and pairedJSON's.
func compareJSON(path string, specs []metric.Spec, cs []metric.Paired) map[string]any {
	r := pairedJSON(specs, cs)
	r["file"] = path
	return r
}

// pairedJSON is the JSON of a paired comparison (eval --compare, the
// cascade against its full ensemble), one Paired per spec: the
// randomisation test's rounds and seed, and per metric the queries, the two means ("this", "that"), their
// difference, its standard error, t and the two p; a figure that is NaN or
// infinite (no query; one query; t of differences that are all the same)
// is null.
func pairedJSON(specs []metric.Spec, cs []metric.Paired) map[string]any {
	num := jsonNum
	ms := map[string]any{}
	for i, s := range specs {
		c := cs[i]
		ms[s.String()] = map[string]any{"queries": c.Queries, "this": num(c.A), "that": num(c.B),
			"diff": num(c.Diff), "se": num(c.SE), "t": num(c.T), "p_t": num(c.PT), "p_rand": num(c.PRand)}
	}
	return map[string]any{"rounds": cs[0].Rounds, "seed": compareSeed, "metrics": ms}
}

// perQueryOutput is the file of per-query metric values as TSV: a header
// "qid" and the metrics' names, then a line per query; perQ[i][q] is metric
// i's value on query q.
func perQueryOutput(path string, d *data.Dataset, specs []metric.Spec, perQ [][]float64) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		w.WriteString("qid")
		for _, s := range specs {
			w.WriteString("\t" + s.String())
		}
		w.WriteString("\n")
		for q, id := range d.QueryIDs {
			w.WriteString(strconv.FormatInt(id, 10))
			for i := range specs {
				w.WriteString("\t" + strconv.FormatFloat(perQ[i][q], 'g', -1, 64))
			}
			w.WriteString("\n")
		}
		return nil
	}}
}

// runOutput is the file of a TREC run: per query, documents by descending
// score (ties in input order), "qid Q0 docid rank score tag". Writing it
// sets *repeated to a warning when a query has a document id twice (ids
// from comments, say "doc-12 title…" of two documents): TREC tools take a
// document once per query, so the run would not be scored as Cronus scores
// it.
func runOutput(path string, d *data.Dataset, scores []float64, tag string, repeated *string) data.Output {
	return data.Output{Path: path, Write: func(w *bufio.Writer) error {
		var order []int
		seen := map[string]int{}
		first, queries := "", 0 // the first repeat, and the queries with one
		for q, id := range d.QueryIDs {
			lo, hi := d.Query(q)
			order = order[:0]
			for i := lo; i < hi; i++ {
				order = append(order, i)
			}
			sortByScore(order, scores)
			clear(seen)
			found := false
			for r, i := range order {
				doc := trecDocID(d.DocID(i), i)
				if j, ok := seen[doc]; ok && !found {
					found = true
					queries++
					if first == "" {
						first = fmt.Sprintf("qid %d has the document id %q twice (its documents %d and %d)", id, doc, min(i, j)-lo+1, max(i, j)-lo+1)
					}
				}
				seen[doc] = i
				fmt.Fprintf(w, "%d Q0 %s %d %s %s\n", id, doc, r+1, strconv.FormatFloat(scores[i], 'g', -1, 64), tag)
			}
		}
		if queries > 0 {
			switch {
			case queries == 2:
				first += ", and 1 more query has a document id more than once"
			case queries > 2:
				first += fmt.Sprintf(", and %d more queries have a document id more than once", queries-1)
			}
			*repeated = fmt.Sprintf("%s: %s: TREC tools such as trec_eval expect each document once per query; give the documents distinct ids (\"docid = …\" in the comment)", path, first)
		}
		return nil
	}}
}

// sortByScore orders document indices (ascending on entry) by descending
// score, ties by index.
func sortByScore(order []int, scores []float64) {
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
}
