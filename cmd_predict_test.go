package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// readTSV returns a TSV file's header and rows.
func readTSV(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var rows [][]string
	for _, l := range lines[1:] {
		rows = append(rows, strings.Split(l, "\t"))
	}
	return strings.Split(lines[0], "\t"), rows
}

// predict --leaves and --contribs on a lambdarank model trained on MQ2008,
// with its first 15 trees: the leaves are those Tree.LeafIndex gives, the
// qid and docid those of --run, and each line of contributions sums to
// the score predict writes.
func TestPredictLeavesContribs(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--objective", "lambdarank", "--trees", "20", "--out", p("m.json")); code != 0 {
		t.Fatal(errOut)
	}
	test := "builtin:mq2008/test"
	var r struct {
		Docs, Trees      int
		Leaves, Contribs string
	}
	runJSON(t, &r, "predict", "--model", p("m.json"), "--data", test, "--trees", "15", "--out", p("s.txt"),
		"--leaves", p("l.tsv"), "--contribs", p("c.tsv"), "--json")
	if r.Docs != 2874 || r.Trees != 15 || r.Leaves != p("l.tsv") || r.Contribs != p("c.tsv") {
		t.Errorf("report %+v", r)
	}
	m, err := tree.ReadModel(p("m.json"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.Ensemble()
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadScoringData(context.Background(), newProgress(io.Discard), test, e.NumFeatures, false)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "eval", "--model", p("m.json"), "--data", test, "--run", p("run.txt")); code != 0 {
		t.Fatal(errOut)
	}
	run, err := os.ReadFile(p("run.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// A run line is "qid Q0 docid rank score tag", in rank order.
	ids := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(run)), "\n") {
		f := strings.Fields(l)
		ids[f[0]+"\t"+f[2]] = true
	}
	scoreText, err := os.ReadFile(p("s.txt"))
	if err != nil {
		t.Fatal(err)
	}
	scores := strings.Fields(string(scoreText))

	head, rows := readTSV(t, p("l.tsv"))
	if len(head) != 17 || head[0] != "qid" || head[1] != "docid" || head[2] != "t1" || head[16] != "t15" || len(rows) != 2874 {
		t.Fatalf("leaves: header %q, %d rows", head, len(rows))
	}
	x := make([]float32, e.NumFeatures)
	for i, row := range rows {
		if !ids[row[0]+"\t"+row[1]] {
			t.Fatalf("leaves: line %d: qid %s docid %s is not in --run's file", i+2, row[0], row[1])
		}
		for f := range x {
			x[f] = d.Cols[f][i]
		}
		for k := range 15 {
			if want := strconv.Itoa(e.Trees[k].LeafIndex(x)); row[2+k] != want {
				t.Fatalf("leaves: document %d, tree %d: %s, LeafIndex %s", i, k+1, row[2+k], want)
			}
		}
	}

	head, rows = readTSV(t, p("c.tsv"))
	if len(head) != 2+46+1 || head[2] != "f1" || head[47] != "f46" || head[48] != "bias" || len(rows) != 2874 {
		t.Fatalf("contribs: header %q, %d rows", head, len(rows))
	}
	nonzero := 0
	for i, row := range rows {
		if !ids[row[0]+"\t"+row[1]] {
			t.Fatalf("contribs: line %d: qid %s docid %s is not in --run's file", i+2, row[0], row[1])
		}
		sum := 0.0
		for _, s := range row[2:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			sum += v
			if v != 0 {
				nonzero++
			}
		}
		score, _ := strconv.ParseFloat(scores[i], 64)
		if math.Abs(sum-score) > 1e-9 {
			t.Fatalf("contribs: document %d: the line sums to %v, predict's score is %v", i, sum, score)
		}
	}
	if nonzero < 10*len(rows) {
		t.Errorf("only %d non-zero contributions in %d documents: the sums prove little", nonzero, len(rows))
	}
}

// --contribs refuses, before reading the data, a model without covers,
// saying why and what to do; the new flags are refused where they do not
// apply, as --exits is.
func TestPredictContribsRefused(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 3)
	if code, _, errOut := runCLI(t, "import", "--from", "ranklib", "engine/tree/testdata/ranklib-mart.txt", "--out", p("r.json")); code != 0 {
		t.Fatal(errOut)
	}
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	// The model as written before leaf covers were kept.
	old := string(b)
	for {
		i := strings.Index(old, `,"leaf_cover":[`)
		if i < 0 {
			break
		}
		j := strings.Index(old[i:], "]")
		old = old[:i] + old[i+j+1:]
	}
	if err := os.WriteFile(p("old.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	// A LightGBM model with a negative leaf_weight imports without leaf
	// covers: importing it again gives none either, as the refusal said
	// to do.
	lgb, err := os.ReadFile("engine/tree/testdata/lgb-lambdarank.model.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p("neg.txt"), []byte(strings.Replace(string(lgb), "\nleaf_weight=", "\nleaf_weight=-", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", p("neg.txt"), "--out", p("neg.json")); code != 0 {
		t.Fatal(errOut)
	}
	test := "builtin:mq2008/test"
	// A cascade of the old model has no covers either.
	if code, _, errOut := runCLI(t, "cascade", "--model", p("old.json"), "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--out", p("oc.json")); code != 0 {
		t.Fatal(errOut)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"predict", "--model", p("r.json"), "--data", test, "--contribs", p("c.tsv")}, 1,
			"r.json: --contribs: tree 0 has no covers: feature contributions weigh the two sides of every split by their covers"},
		{[]string{"predict", "--model", p("r.json"), "--data", test, "--contribs", p("c.tsv")}, 1, "RankLib model files record no covers"},
		{[]string{"predict", "--model", p("old.json"), "--data", test, "--contribs", p("c.tsv")}, 1,
			"old.json: --contribs: tree 0 has no leaf covers: feature contributions weigh"},
		{[]string{"predict", "--model", p("old.json"), "--data", test, "--contribs", p("c.tsv")}, 1, "train it again, or import it again"},
		{[]string{"predict", "--model", p("neg.json"), "--data", test, "--contribs", p("c.tsv")}, 1,
			"neg.json: --contribs: tree 0 has no leaf covers: "},
		{[]string{"predict", "--model", p("neg.json"), "--data", test, "--contribs", p("c.tsv")}, 1,
			"imported from a LightGBM model whose internal_weight or leaf_weight some tree lacks or has malformed"},
		{[]string{"predict", "--cascade", p("c.json"), "--data", test, "--leaves", p("l.tsv")}, 2, "--leaves applies to --model only"},
		{[]string{"predict", "--cascade", p("oc.json"), "--data", test, "--contribs", p("c.tsv")}, 1,
			"oc.json: --contribs: tree 0 has no leaf covers: feature contributions weigh"},
		{[]string{"predict", "--model", model, "--data", test, "--leaves", "/dev/stdout"}, 2, "--leaves /dev/stdout: the scores go to standard output"},
		{[]string{"predict", "--model", model, "--data", test, "--out", p("s"), "--leaves", p("x"), "--contribs", p("x")}, 2, "is given as two outputs"},
		{[]string{"predict", "--model", model, "--data", test, "--out", p("s"), "--contribs", model}, 2, "is both an input and an output"},
	} {
		if code, _, errOut := runCLI(t, tc.args...); code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
	// An old model still predicts, and gives its leaves.
	if code, _, errOut := runCLI(t, "predict", "--model", p("old.json"), "--data", test, "--out", p("s"), "--leaves", p("l.tsv")); code != 0 {
		t.Errorf("an old model's --leaves: %s", errOut)
	}
	if _, err := os.Stat(p("c.tsv")); err == nil {
		t.Error("a refused --contribs wrote its file")
	}
}

// TestDocLinesChunks: predict --leaves and --contribs compute documents
// in chunks of contribsChunk, about 4 MB, whatever the model's width (a
// 200,000-feature model held 200 MB with the old floor of 128 documents),
// and docLines writes every document once, in input order, its chunk
// computed before it, across query boundaries.
func TestDocLinesChunks(t *testing.T) {
	if n := contribsChunk(47); n != 4096 {
		t.Errorf("chunk of 47 columns: %d documents, want 4096", n)
	}
	if n := contribsChunk(200_001); n*200_001*8 > 32<<20 {
		t.Errorf("chunk of 200,001 columns: %d documents, %d MB", n, n*200_001*8>>20)
	}
	d, err := data.LoadDataset(context.Background(), "builtin:mq2008/test", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	w := bufio.NewWriter(&out)
	computed := 0 // documents whose chunk has been computed
	err = docLines(w, d, "qid\tdocid\ti\n", 7, func(lo, hi int) error {
		if lo != computed || hi-lo > 7 || hi <= lo {
			t.Fatalf("chunk [%d, %d) after %d documents", lo, hi, computed)
		}
		computed = hi
		return nil
	}, func(b []byte, i int) []byte {
		if i >= computed {
			t.Fatalf("document %d written before its chunk", i)
		}
		return strconv.AppendInt(append(b, '\t'), int64(i), 10)
	})
	w.Flush()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if err != nil || computed != d.NumDocs() || len(lines) != d.NumDocs()+1 {
		t.Fatalf("%v: %d computed, %d lines for %d documents", err, computed, len(lines), d.NumDocs())
	}
	var qid []int64 // per document
	for q, id := range d.QueryIDs {
		lo, hi := d.Query(q)
		for range hi - lo {
			qid = append(qid, id)
		}
	}
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if f[2] != strconv.Itoa(i) || f[0] != strconv.FormatInt(qid[i], 10) {
			t.Fatalf("line %d: %q", i+2, l)
		}
	}
}

// predict --cascade --contribs: each document's line sums to its score at
// the stage it left at (--exits's score), and equals the contributions
// that the stage, exported to XGBoost and imported back as a model of its
// own, gives that document with predict --model --contribs.
func TestPredictCascadeContribs(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 30)
	test := "builtin:mq2008/test"
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "0", "--out", p("c.json")); code != 0 {
		t.Fatal(errOut)
	}
	var r struct{ Contribs, Exits string }
	runJSON(t, &r, "predict", "--cascade", p("c.json"), "--data", test, "--out", p("keys.txt"), "--exits", p("exits.tsv"), "--contribs", p("c.tsv"), "--json")
	if r.Contribs != p("c.tsv") || r.Exits != p("exits.tsv") {
		t.Errorf("report %+v", r)
	}
	_, exits := readTSV(t, p("exits.tsv"))
	head, rows := readTSV(t, p("c.tsv"))
	if len(head) != 2+46+1 || head[48] != "bias" || len(rows) != len(exits) || len(rows) != 2874 {
		t.Fatalf("header %q, %d rows for %d documents", head, len(rows), len(exits))
	}
	values := func(row []string) []float64 {
		var vs []float64
		for _, s := range row[2:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			vs = append(vs, v)
		}
		return vs
	}
	for i, row := range rows {
		sum := 0.0
		for _, v := range values(row) {
			sum += v
		}
		if at, _ := strconv.ParseFloat(exits[i][3], 64); row[0] != exits[i][0] || row[1] != exits[i][1] || math.Abs(sum-at) > 1e-9 {
			t.Fatalf("document %d: %s %s sums to %v; --exits: %s %s, score %v", i, row[0], row[1], sum, exits[i][0], exits[i][1], at)
		}
	}
	checked := 0
	for k := 1; k <= 3; k++ {
		s := strconv.Itoa(k)
		if code, _, errOut := runCLI(t, "export", "--cascade", p("c.json"), "--stage", s, "--to", "xgboost", "--out", p("s"+s+".xgb.json")); code != 0 {
			if strings.Contains(errOut, "has no trees") {
				continue
			}
			t.Fatal(errOut)
		}
		for _, args := range [][]string{
			{"import", "--from", "xgboost", p("s" + s + ".xgb.json"), "--out", p("s" + s + ".json")},
			{"predict", "--model", p("s" + s + ".json"), "--data", test, "--out", p("s.txt"), "--contribs", p("s" + s + ".tsv")},
		} {
			if code, _, errOut := runCLI(t, args...); code != 0 {
				t.Fatal(errOut)
			}
		}
		_, stage := readTSV(t, p("s"+s+".tsv"))
		for i, row := range rows {
			if exits[i][2] != s {
				continue
			}
			got, want := values(row), values(stage[i])
			for f := range got {
				if math.Abs(got[f]-want[f]) > 1e-6 {
					t.Fatalf("stage %d, document %d, column %d: %v in the cascade's, %v in the stage's exported", k, i, f, got[f], want[f])
				}
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d documents checked against their stage's contributions", checked)
	}
}

// readEnsemble reads the model file path's ensemble.
func readEnsemble(t *testing.T, path string) *tree.Ensemble {
	t.Helper()
	m, err := tree.ReadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.Ensemble()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// predict's progress line while --leaves and --contribs are written counts
// each file's documents, the file's own words first: writing --leaves (a
// 1,000-tree model's leaves of 200,000 documents, 20 s) showed nothing.
func TestPredictWriteProgress(t *testing.T) {
	e := readEnsemble(t, trainShallow(t, t.TempDir(), 5))
	d, err := data.LoadDataset(context.Background(), "builtin:mq2008/test", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var written docsWritten
	if l := written.line(d); l != "" {
		t.Errorf("before any file: %q", l)
	}
	for _, c := range []struct {
		o    data.Output
		want string
	}{
		{leavesOutput(context.Background(), "l.tsv", d, e, 5, &written), "leaf indices on builtin:mq2008/test: 2874 of 2874 documents (100%)"},
		{contribsOutput(context.Background(), "c.tsv", d, e, 5, &written), "feature contributions on builtin:mq2008/test: 2874 of 2874 documents (100%)"},
	} {
		var lines []string
		w := bufio.NewWriterSize(writerFunc(func(b []byte) (int, error) {
			lines = append(lines, written.line(d)) // as the ticking line reads it, while the file is written
			return len(b), nil
		}), 4096)
		if err := c.o.Write(w); err != nil {
			t.Fatal(err)
		}
		if what, _, _ := strings.Cut(c.want, " on "); len(lines) == 0 || !strings.HasPrefix(lines[0], what+" on ") {
			t.Errorf("%s: while writing: %q", c.o.Path, lines[:min(len(lines), 1)])
		}
		if l := written.line(d); l != c.want {
			t.Errorf("%s: %q, want %q", c.o.Path, l, c.want)
		}
	}
}

// writerFunc is an io.Writer of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestPredictTSVDocIDQuotes: a docid with a double quote is written quoted
// in predict's TSV files (--exits, --leaves, --contribs), as CSV writers
// write it, so that a CSV reader (Go's encoding/csv here; Python's csv and
// pandas alike) reads every line with its columns and the id as it was.
// Written bare, an id starting with a quote opened a quoted field that ran
// on through the tabs and lines after it.
func TestPredictTSVDocIDQuotes(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	ids := []string{`"x1`, `y"z`, `w`}
	var text strings.Builder
	for q := 1; q <= 20; q++ {
		for i := range 6 {
			fmt.Fprintf(&text, "%d qid:%d 1:%d 2:0.%d 3:%d # docid = %s%d\n", (q+i)%3, q, i, (q*7+i)%10, (q*i)%5, ids[i%3], q)
		}
	}
	writeText(t, p("d.txt"), text.String())
	model, costs := threeFeatureModel(t, dir, p("d.txt"))
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", p("d.txt"), "--valid", p("d.txt"), "--costs", costs, "--stages", "2", "--top-m", "2",
		"--cycles", "0", "--out", p("c.json")); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runCLI(t, "predict", "--model", model, "--data", p("d.txt"), "--out", p("s.txt"), "--leaves", p("l.tsv"), "--contribs", p("c.tsv")); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runCLI(t, "predict", "--cascade", p("c.json"), "--data", p("d.txt"), "--out", p("k.txt"), "--exits", p("e.tsv")); code != 0 {
		t.Fatal(errOut)
	}
	for _, f := range []string{"l.tsv", "c.tsv", "e.tsv"} {
		b, err := os.ReadFile(p(f))
		if err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(bytes.NewReader(b))
		r.Comma = '\t'
		rows, err := r.ReadAll()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(rows) != 1+120 {
			t.Errorf("%s: %d rows, want a header and 120", f, len(rows))
			continue
		}
		for k, row := range rows[1:] {
			if want := ids[k%6%3] + strconv.Itoa(k/6+1); row[1] != want {
				t.Errorf("%s: line %d: docid %q, want %q", f, k+2, row[1], want)
				break
			}
		}
	}
}

// cancelAtWrite is a standard output that cancels the command at its
// first write, as an interrupt while the scores are being written.
type cancelAtWrite struct {
	cancel context.CancelFunc
	n      int
}

func (c *cancelAtWrite) Write(p []byte) (int, error) {
	c.cancel()
	c.n += len(p)
	return len(p), nil
}

// An interrupt while predict writes its scores on standard output stops
// the writing, and the command exits 130: it wrote every score and exited
// 0, however slow the terminal or the pipe's reader.
func TestPredictStdoutStopsAtInterrupt(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", model); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	_, all, _ := runCLI(t, "predict", "--model", model, "--data", "builtin:mq2008/test")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cancelAtWrite{cancel: cancel}
	var errOut bytes.Buffer
	code := run(ctx, []string{"predict", "--model", model, "--data", "builtin:mq2008/test"}, out, &errOut)
	if code != 130 || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("interrupted while writing the scores: exit %d, %q; want 130, interrupted", code, errOut.String())
	}
	if out.n >= len(all) {
		t.Errorf("interrupted while writing the scores: wrote all %d bytes of them", out.n)
	}
	// The scores in the --json report, likewise: written in one write,
	// they ran on to the end and the command exited 0.
	_, all, _ = runCLI(t, "predict", "--json", "--model", model, "--data", "builtin:mq2008/test")
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	out = &cancelAtWrite{cancel: cancel}
	errOut.Reset()
	code = run(ctx, []string{"predict", "--json", "--model", model, "--data", "builtin:mq2008/test"}, out, &errOut)
	if code != 130 || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("interrupted while writing the --json report: exit %d, %q; want 130, interrupted", code, errOut.String())
	}
	if out.n >= len(all) {
		t.Errorf("interrupted while writing the --json report: wrote all %d bytes of it", out.n)
	}
}
