package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/views"
)

// loadData reads a data set with progress, padded to at least minFeatures.
func loadData(ctx context.Context, p *progress, name string, minFeatures int) (*data.Dataset, error) {
	return loadScoringData(ctx, p, name, minFeatures, false)
}

// loadScoringData is loadData for data to be scored; with absentMissing
// (--absent missing) left-out features read as missing values (NaN).
func loadScoringData(ctx context.Context, p *progress, name string, minFeatures int, absentMissing bool) (*data.Dataset, error) {
	return loadDataWith(ctx, p, name, data.ReadOptions{MinFeatures: minFeatures, AbsentMissing: absentMissing})
}

// loadDataWith reads a data set with the options opt, showing progress.
// Features past opt.MinFeatures (the model's that scores it) are warned of
// as not used.
func loadDataWith(ctx context.Context, p *progress, name string, opt data.ReadOptions) (*data.Dataset, error) {
	return readDataWarning(ctx, p, name, opt, opt.MinFeatures)
}

// loadTrainingData is loadData for data that trees are trained on, read
// at least minFeatures wide (those of the model training goes on from,
// --init-model): its features past that width are used, and it says
// nothing of them. train --init-model said "features 2-5 are not used" of
// a file wider than the model and then split on them.
func loadTrainingData(ctx context.Context, p *progress, name string, minFeatures int) (*data.Dataset, error) {
	return readDataWarning(ctx, p, name, data.ReadOptions{MinFeatures: minFeatures}, 0)
}

// readDataWarning is loadDataWith, with unusedPast the width past which
// the file's features are warned of as not used (0: none).
func readDataWarning(ctx context.Context, p *progress, name string, opt data.ReadOptions, unusedPast int) (*data.Dataset, error) {
	opt.Progress = p.readOptions(name).Progress
	d, err := data.LoadDataset(ctx, name, opt)
	p.done()
	if err != nil {
		return nil, err
	}
	d.Name = name
	warn(p.w, d.PaddingWarning())
	warn(p.w, d.UnusedWarning(unusedPast))
	warn(p.w, d.StrayWarning())
	return d, nil
}

// warn prints a warning on w; "" is none. Its control characters and
// bytes that are not UTF-8 (in a file name) are written as Go escapes
// (views.Printable), as errors are.
func warn(w io.Writer, msg string) {
	if msg != "" {
		fmt.Fprintln(w, "warning: "+views.Printable(msg))
	}
}

// loadModel reads the cronus model file path, showing on a terminal (stderr)
// how long it has been reading from a second on: 2,000 trees of 255 leaves
// (22 MB) take about 0.6 s, a model five times that size seconds.
func loadModel(ctx context.Context, stderr io.Writer, path string) (*tree.Ensemble, *tree.Model, error) {
	m, err := untilDoneShowing(ctx, stderr, "reading the model "+path, func() (*tree.Model, error) { return tree.ReadModel(path) })
	if err != nil {
		return nil, nil, err
	}
	e, err := m.Ensemble()
	return e, m, err
}

// untilDoneShowing is untilDone that, on a terminal, shows what is being
// done and for how long, from a second on (importing a 100 MB model took
// 3 to 18 s without a word).
func untilDoneShowing[T any](ctx context.Context, stderr io.Writer, what string, f func() (T, error)) (T, error) {
	stop := showTicking(newProgress(stderr), func(d time.Duration) string {
		if d < time.Second {
			return ""
		}
		return fmt.Sprintf("%s (%.0fs)", what, d.Seconds())
	})
	defer stop()
	return untilDone(ctx, f)
}

// writeShowing runs write, which encodes and writes the outputs paths and
// stops when its context is done, showing on a terminal "writing PATHS
// (Ns)" from a second on: encoding and writing a model of 2,000 trees 9
// deep took 1.3 to 3 s without a word.
func writeShowing(stderr io.Writer, paths []string, write func() error) error {
	stop := showTicking(newProgress(stderr), func(d time.Duration) string {
		if d < time.Second {
			return ""
		}
		return fmt.Sprintf("writing %s (%.0fs)", strings.Join(paths, ", "), d.Seconds())
	})
	defer stop()
	return write()
}

// showTicking shows line(time since the call) through pr every 200 ms, on
// a terminal, until stop is called, which clears the line; an empty line
// is not shown.
func showTicking(pr *progress, line func(time.Duration) string) (stop func()) {
	if !pr.on {
		return func() {}
	}
	done := make(chan struct{})
	shown := make(chan struct{})
	go func() {
		defer close(shown)
		start := time.Now()
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				pr.done()
				return
			case <-tick.C:
				if l := line(time.Since(start)); l != "" {
					pr.show("%s", l)
				}
			}
		}
	}()
	return func() {
		close(done)
		<-shown
	}
}

// untilDone runs f, which does not look at ctx (reading and checking a
// model file of 100 MB takes seconds), and returns its result, or ctx's
// error as soon as ctx is done: an interrupt ends the command at once and
// the process exits, leaving f's work unfinished.
func untilDone[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeStdout writes through write to stdout, buffered, and stops when ctx
// is done: predict's scores, written last, ran on to the end after an
// interrupt (a slow terminal, or a pipe whose reader is slow to read) and
// the command exited 0. It writes 4 KB at a time, looking at ctx before
// each: a JSON report comes in one write (json.Encoder.Encode), which
// bufio.Writer hands on whole, and predict --json's scores ran on to the
// end after an interrupt. (run's stdout stops a write that the reader of
// a pipe holds: see data.CancelWriter.)
func writeStdout(ctx context.Context, stdout io.Writer, write func(w *bufio.Writer) error) error {
	w := bufio.NewWriter(data.CancelWriter(ctx, stdout, 4096))
	if err := write(w); err != nil {
		return err
	}
	return w.Flush()
}

// cascadeAbsentWarning says when d leaves feature values out and was read
// the other way (--absent) than the cascade of file cascadeF was made (its
// params' "absent"), at a split of its ensemble ce on a feature d leaves
// out that sends a missing value the other way than 0: its figures are
// then not the cascade's.
func cascadeAbsentWarning(cascadeF string, cf *cronus.File, ce *tree.Ensemble, d *data.Dataset) string {
	made, read := absentFlag(cf.Params["absent"] == "missing"), absentFlag(d.AbsentMissing)
	if d.LeftOut() == 0 || made == read {
		return ""
	}
	if differ, _ := ce.MissingSplitsOf(-1, func(f int) bool { return d.LeftOutOf(f) > 0 }); differ == 0 {
		return ""
	}
	reading := map[absentFlag]string{false: "as 0", true: "as missing"}
	return fmt.Sprintf("%s leaves %d feature values out of its lines, read here %s; the cascade %s was made reading them %s: --absent %s scores it as it was made",
		d.Name, d.LeftOut(), reading[read], cascadeF, reading[made], made.String())
}

// cascadeRun is a cascade's scoring of a data set and how long it took.
type cascadeRun struct {
	cronus.Result
	seconds float64
}

// scoreCascade runs the documents of d through the cascade of file cf
// (read from path), with the feature costs of costsF ("": the cascade's
// own), and warns when d is read otherwise than the cascade was made. The
// scoring stops when ctx is done, and returns its error.
func scoreCascade(ctx context.Context, cf *cronus.File, path, costsF string, d *data.Dataset, stderr io.Writer) (cascadeRun, error) {
	ce, c, err := cf.Cascade()
	if err != nil {
		return cascadeRun{}, err
	}
	warn(stderr, cascadeAbsentWarning(path, cf, ce, d))
	featCost := cf.FeatureCost
	if costsF != "" {
		// Read for the cascade's model, whose features need not be the
		// data's: the warning names whose they are.
		costs, err := untilDone(ctx, func() (*data.Costs, error) { return data.LoadCosts(costsF, ce.NumFeatures) })
		if err != nil {
			return cascadeRun{}, err
		}
		warn(stderr, costs.Warning())
		warn(stderr, costs.UnusedWarningFor("the cascade's model"))
		featCost = costs.Cost
	}
	t0 := time.Now()
	r, err := cronus.ScoreContext(ctx, ce, c, d, featCost, cf.TreeCost)
	return cascadeRun{r, time.Since(t0).Seconds()}, err
}

// countSet counts the non-empty strings.
func countSet(xs ...string) int {
	n := 0
	for _, x := range xs {
		if x != "" {
			n++
		}
	}
	return n
}

// trecDocID picks the document id for a TREC run line from the comment
// kept by the reader: the value of its field "docid = X" (LETOR; also
// "docid=X" and "docid= X"), else the first word, else the document's
// position ("doc" and i+1, from 1), as it is when docid has no value. The
// field is a whole word: "xdocid = 5" is not it.
func trecDocID(comment string, i int) string {
	f := strings.Fields(comment)
	for k, w := range f {
		name, val, hasEq := strings.Cut(w, "=")
		if name != "docid" {
			continue
		}
		switch {
		case hasEq && val != "": // docid=X
			return val
		case hasEq && k+1 < len(f): // docid= X
			return f[k+1]
		case !hasEq && k+1 < len(f) && strings.HasPrefix(f[k+1], "="): // docid = X, docid =X
			if v := strings.TrimPrefix(f[k+1], "="); v != "" {
				return v
			}
			if k+2 < len(f) {
				return f[k+2]
			}
		case !hasEq:
			continue // a word "docid" without "="
		}
		return "doc" + strconv.Itoa(i+1) // docid with no value
	}
	if len(f) > 0 {
		return f[0]
	}
	return "doc" + strconv.Itoa(i+1)
}

// appendTSVDocID appends the docid of document i (trecDocID of its
// comment) as a field of predict's TSV files (--exits, --leaves,
// --contribs). An id with a double quote is quoted, its quotes doubled,
// as CSV writers (Python's csv, pandas' to_csv) write it: written bare, an
// id that starts with one ("x1) opened a quoted field for pandas and
// Python's csv reader, which then took the rest of the file, tabs and
// lines, as that one field. An id cannot hold a tab or a newline (it is a
// word of the comment).
func appendTSVDocID(b []byte, comment string, i int) []byte {
	id := trecDocID(comment, i)
	if !strings.Contains(id, `"`) {
		return append(b, id...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(id, `"`, `""`)...)
	return append(b, '"')
}

// absentFlag is --absent zero|missing: how a feature a line leaves out
// reads; true for missing.
type absentFlag bool

func newAbsentFlag(fs *flag.FlagSet) *absentFlag {
	a := absentFlag(false)
	fs.Var(&a, "absent", "how a feature a data line leaves out reads, `zero|missing`: zero (the default) or missing, a NaN that goes where each split sends missing values, as XGBoost reads sparse files")
	return &a
}

func (a *absentFlag) String() string {
	if a != nil && bool(*a) {
		return "missing"
	}
	return "zero"
}

func (a *absentFlag) Set(s string) error {
	switch s {
	case "zero":
		*a = false
	case "missing":
		*a = true
	default:
		return errors.New("must be zero or missing")
	}
	return nil
}

// treesFlag is --trees: use the model's first k trees, or all of them (-1,
// the default, shown as "all" in the help).
type treesFlag int

// treesUsage is --trees's help where no other is given.
const treesUsage = "use only the model's first `k` trees (a number, or all)"

// stagesUsage is predict's and eval's --stages.
const stagesUsage = "with --cascade: use only the cascade's first `k` stages, a cascade of their own: stage k passes nothing on and ranks every document reaching it by its score there; the later stages are neither run nor paid for (0: all)"

// lastPrefixUsage is predict's and eval's --last-prefix.
const lastPrefixUsage = "with --cascade: the last stage (after --stages) ranks the documents reaching it by the base ensemble's first `n` trees, each of weight 1, as --trees n scores them, in place of its re-weighted score; the earlier stages are as they were (0: the cascade's own)"

func newTreesFlag(fs *flag.FlagSet, usage string) *treesFlag {
	k := treesFlag(-1)
	fs.Var(&k, "trees", usage)
	return &k
}

// loadScorer reads predict's and eval's --model (its --trees checked
// against it) or --cascade (cut to its first stages when stages > 0,
// --stages, and its last stage the base ensemble's first lastPrefix
// trees when lastPrefix > 0, --last-prefix), whichever is given (neither: eval --scores), and returns the
// number of features the data must have for it.
func loadScorer(ctx context.Context, stderr io.Writer, modelF, cascadeF string, k treesFlag, stages, lastPrefix int) (e *tree.Ensemble, m *tree.Model, cf *cronus.File, minFeatures int, err error) {
	switch {
	case modelF != "":
		if e, m, err = loadModel(ctx, stderr, modelF); err != nil {
			return nil, nil, nil, 0, err
		}
		if err = k.fits(e, modelF); err != nil {
			return nil, nil, nil, 0, err
		}
		minFeatures = e.NumFeatures
	case cascadeF != "":
		if cf, err = untilDoneShowing(ctx, stderr, "reading the cascade "+cascadeF, func() (*cronus.File, error) { return cronus.ReadFile(cascadeF) }); err != nil {
			return nil, nil, nil, 0, err
		}
		if stages > 0 {
			if err = cf.FirstStages(stages); err != nil {
				return nil, nil, nil, 0, usageError{fmt.Sprintf("--stages %d: %s: %v", stages, views.Printable(cascadeF), err)}
			}
		}
		if lastPrefix > 0 {
			if err = cf.LastStagePrefix(lastPrefix); err != nil {
				return nil, nil, nil, 0, usageError{fmt.Sprintf("--last-prefix %d: %s: %v", lastPrefix, views.Printable(cascadeF), err)}
			}
		}
		minFeatures = cf.Ensemble.NumFeatures
	}
	return e, m, cf, minFeatures, nil
}

// fits refuses more trees than the model of path has.
func (k treesFlag) fits(e *tree.Ensemble, path string) error {
	if int(k) > len(e.Trees) {
		return usageError{fmt.Sprintf("--trees %d: the model %s has %s", int(k), path, count(len(e.Trees), "tree"))}
	}
	return nil
}

func (k *treesFlag) String() string {
	if k == nil || *k < 0 {
		return "all"
	}
	return strconv.Itoa(int(*k))
}

func (k *treesFlag) Set(s string) error {
	if s == "all" {
		*k = -1
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return errors.New("must be a number of trees >= 0, or all")
	}
	*k = treesFlag(n)
	return nil
}

// predictShowing is e.PredictContext on d with the first k trees, showing
// on a terminal how many documents are scored so far.
func predictShowing(ctx context.Context, stderr io.Writer, e *tree.Ensemble, d *data.Dataset, k int) ([]float64, error) {
	var scored atomic.Int64
	stop := showTicking(newProgress(stderr), func(time.Duration) string {
		n := scored.Load()
		return fmt.Sprintf("scoring %s: %d of %d documents (%.0f%%)", d.Name, n, d.NumDocs(), 100*float64(n)/float64(max(d.NumDocs(), 1)))
	})
	defer stop()
	return e.PredictCounted(ctx, nil, d.Cols, d.NumDocs(), k, &scored)
}
