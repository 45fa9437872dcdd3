package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/boost"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// train --log-every N prints a line every N trees and at the last, on
// standard error, whatever it is: the training and validation metric at
// that tree. The validation figure at tree t is the one eval gives for the
// model's first t trees.
func TestTrainLogEvery(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	const valid = "builtin:mq2008/vali"
	code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--valid", valid, "--trees", "25",
		"--log-every", "10", "--out", model)
	if code != 0 {
		t.Fatalf("train: exit %d %q", code, errOut)
	}
	line := regexp.MustCompile(`^\[(\d+)/25\] train ndcg@10 (\d\.\d{4})  valid ndcg@10 (\d\.\d{4})  \(best (\d\.\d{4}) at (\d+)\)$`)
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	var trees []string
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("log line %q does not read as [t/25] train ndcg@10 x  valid ndcg@10 y  (best z at b)", l)
		}
		trees = append(trees, m[1])
		_, out, _ := runCLI(t, "eval", "--model", model, "--trees", m[1], "--data", valid, "--metrics", "ndcg@10", "--json")
		var r struct{ Metrics map[string]float64 }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%.4f", r.Metrics["ndcg@10"]); got != m[3] {
			t.Errorf("tree %s: logged valid %s, eval --trees %s gives %s", m[1], m[3], m[1], got)
		}
	}
	if strings.Join(trees, ",") != "10,20,25" {
		t.Errorf("logged at trees %v, want 10, 20 and 25", trees)
	}
	// Off by default; a negative value is refused.
	if _, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", model); errOut != "" {
		t.Errorf("without --log-every: %q", errOut)
	}
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--log-every", "-1", "--out", model); code != 2 || !strings.Contains(errOut, "--log-every: must be at least 0") {
		t.Errorf("--log-every -1: exit %d %q", code, errOut)
	}
}

// TestLogTreesEarlyStopLast: --log-every logs the last tree of a run that
// early stopping ends, also when a snapshot of that tree arrived before the
// stop was known (it was then counted as logged, and 9 of 20 runs lost
// their last line).
func TestLogTreesEarlyStopLast(t *testing.T) {
	var b bytes.Buffer
	pr := newProgress(&b)
	s := boost.Snapshot{Trees: 9, Total: 60, Metric: "ndcg@10"}
	logged := logTrees(pr, boost.Snapshot{Trees: 5, Total: 60, Metric: "ndcg@10"}, 0, 5)
	if logged != 5 || b.String() != "[5/60]\n" {
		t.Fatalf("tree 5: logged up to %d, output %q", logged, b.String())
	}
	logged = logTrees(pr, s, logged, 5) // tree 9, before the stop is known
	if logged != 8 || b.String() != "[5/60]\n" {
		t.Fatalf("tree 9 before the stop: logged up to %d, output %q", logged, b.String())
	}
	s.StoppedAt = 9
	if logged = logTrees(pr, s, logged, 5); logged != 9 || b.String() != "[5/60]\n[9/60]\n" {
		t.Errorf("after the stop: logged up to %d, output %q; want [9/60] last", logged, b.String())
	}
	// A tree that is a multiple of every is logged once, at once.
	b.Reset()
	s = boost.Snapshot{Trees: 10, Total: 60}
	if logged = logTrees(pr, s, 9, 5); logged != 10 || b.String() != "[10/60]\n" {
		t.Errorf("tree 10: logged up to %d, output %q", logged, b.String())
	}
}

// TestProgressDoneOnce: done clears a shown line once, so that cascade and
// sweep can defer it (their errors and interrupts left the line, with the
// error printed on its end) and still call it where a phase ends.
func TestProgressDoneOnce(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, on: true}
	p.done() // nothing shown: nothing written
	p.show("building %d", 1)
	p.done()
	p.done()
	if want := "\r\033[Kbuilding 1\r\033[K"; b.String() != want {
		t.Errorf("show, done, done wrote %q, want %q", b.String(), want)
	}
	p.show("again")
	p.done()
	if want := "\r\033[Kbuilding 1\r\033[K\r\033[Kagain\r\033[K"; b.String() != want {
		t.Errorf("a second show and done wrote %q, want %q", b.String(), want)
	}
}

// TestProgressFitsTerminal: a line wider than the terminal is cut to one
// column less than its width, ending in "…", so that \r\033[K clears it
// whole; a line that fits, or an unknown width, is written as it is.
func TestProgressFitsTerminal(t *testing.T) {
	var b bytes.Buffer
	cols := 20
	p := &progress{w: &b, on: true, prefix: "sweep 3/8 · ", width: func() int { return cols }}
	p.show("λ = %.3g × λ_max: choosing ρ", 0.0469)
	if want := "\r\033[Ksweep 3/8 · λ = 0.…"; b.String() != want {
		t.Errorf("20 columns: wrote %q, want %q", b.String(), want)
	}
	for _, c := range []int{0, 80} {
		b.Reset()
		cols, p.last = c, time.Time{}
		p.show("λ = %.3g × λ_max", 0.0469)
		if want := "\r\033[Ksweep 3/8 · λ = 0.0469 × λ_max"; b.String() != want {
			t.Errorf("%d columns: wrote %q, want %q", c, b.String(), want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestShowTicking: on a terminal the line is drawn while the work runs
// (import and scoring were silent for seconds), and stop clears it; off a
// terminal nothing is written.
func TestShowTicking(t *testing.T) {
	var b syncBuffer
	stop := showTicking(&progress{w: &b, on: true}, func(d time.Duration) string { return "importing m.txt" })
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(b.String(), "importing m.txt") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if got := b.String(); !strings.HasPrefix(got, "\r\033[Kimporting m.txt") || !strings.HasSuffix(got, "importing m.txt\r\033[K") {
		t.Errorf("wrote %q, want the line drawn, then cleared", got)
	}
	var off bytes.Buffer
	showTicking(&progress{w: &off}, func(time.Duration) string { return "x" })()
	if off.Len() > 0 {
		t.Errorf("off a terminal it wrote %q", off.String())
	}
}

// TestTrainLine: the progress line says the tree a training metric was
// measured at when it is not the newest (on large data the metric is
// measured now and then; the line showed tree 1's at tree 18).
func TestTrainLine(t *testing.T) {
	s := boost.Snapshot{Trees: 18, Total: 150, Metric: "ndcg@10", At: []int{1, 17, 18}, Train: []float64{0.6951, math.NaN(), math.NaN()},
		Valid: []float64{0.5, 0.51, 0.52}, BestValid: 0.52, BestTrees: 18}
	want := "training: tree 18/150  train ndcg@10 0.6951 (at tree 1)  valid 0.5200 (best 0.5200 at 18)  ETA 7s"
	if got := trainLine(s, 7*time.Second); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	s.Train[2] = 0.7
	want = "training: tree 18/150  train ndcg@10 0.7000  valid 0.5200 (best 0.5200 at 18)"
	if got := trainLine(s, 0); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestTrainFlatValidWarns: a validation set with no document relevant to
// the metric scores 0 under every model, so early stopping kept one tree
// without a word; train warns now, and not on a set with one.
func TestTrainFlatValidWarns(t *testing.T) {
	dir := t.TempDir()
	flat := filepath.Join(dir, "vali0.txt")
	var b strings.Builder
	for q := 1; q <= 3; q++ {
		for i := 0; i < 4; i++ {
			fmt.Fprintf(&b, "0 qid:%d 1:%d 2:0.%d\n", q, i, q)
		}
	}
	os.WriteFile(flat, []byte(b.String()), 0o644)
	args := []string{"train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", filepath.Join(dir, "m.json")}
	code, _, errOut := runCLI(t, append(args, "--valid", flat, "--early-stop", "2")...)
	if code != 0 || !strings.Contains(errOut, "warning: "+flat+" has no document relevant to ndcg@10: every model scores 0 on it, so the validation metric cannot tell them apart, and --early-stop keeps the first tree") {
		t.Errorf("flat validation set: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, append(args, "--valid", "builtin:mq2008/vali", "--early-stop", "2")...)
	if code != 0 || strings.Contains(errOut, "warning") {
		t.Errorf("MQ2008 validation set: exit %d, %q", code, errOut)
	}
	// Every document of each query equally relevant (label 2): every
	// model scores 1, and the metric cannot tell them apart either; no
	// word was said of it.
	same := filepath.Join(dir, "vali2.txt")
	writeText(t, same, strings.ReplaceAll(b.String(), "0 qid", "2 qid"))
	code, _, errOut = runCLI(t, append(args, "--valid", same, "--early-stop", "2")...)
	if code != 0 || !strings.Contains(errOut, "warning: "+same+": in every query the documents are equally relevant: every model scores 1 by ndcg@10 on it, so the validation metric cannot tell them apart, and --early-stop keeps the first tree") {
		t.Errorf("equally relevant validation set: exit %d, %q", code, errOut)
	}
	// Going on from a model, early stopping keeps that model's trees
	// alone (its validation figure, 0, is the best), not the first tree
	// added, as the warning said.
	m3 := filepath.Join(dir, "m3.json")
	on := filepath.Join(dir, "on.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", m3); code != 0 {
		t.Fatalf("train %s: exit %d: %s", m3, code, errOut)
	}
	code, out, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--init-model", m3, "--valid", flat, "--early-stop", "2", "--json", "--out", on)
	if want := "warning: " + flat + " has no document relevant to ndcg@10: every model scores 0 on it, so the validation metric cannot tell them apart, and --early-stop keeps the trees of " + m3 + " alone, adding none\n"; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("flat validation set, --init-model: exit %d, %q; want the warning %q", code, errOut, want)
	}
	if !strings.Contains(out, `"trees": 3,`) || !strings.Contains(out, `"best_trees": 3,`) {
		t.Errorf("flat validation set, --init-model: %s; want the init model's 3 trees kept", out)
	}
}

// TestTrainFlatTrainWarns: training data with nothing to learn gave a
// model that scores every document alike without a word: lambdarank when
// no query has two documents of different labels (every λ-gradient is 0),
// the other objectives when every label is the same (for binary, the same
// class). train warns, and not where there is something to learn.
func TestTrainFlatTrainWarns(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, label func(q, i int) string) string {
		var b strings.Builder
		for q := 1; q <= 3; q++ {
			for i := 0; i < 4; i++ {
				fmt.Fprintf(&b, "%s qid:%d 1:%d 2:0.%d\n", label(q, i), q, i, q)
			}
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(b.String()), 0o644)
		return path
	}
	byQuery := write("byquery.txt", func(q, _ int) string { return fmt.Sprint(q - 1) }) // 0, 1, 2: one label a query
	same := write("same.txt", func(int, int) string { return "1" })
	graded := write("graded.txt", func(_, i int) string { return fmt.Sprint(1 + i%2) }) // 1 and 2: one class
	mixed := write("mixed.txt", func(_, i int) string { return fmt.Sprint(i % 2) })
	negZero := write("negzero.txt", func(_, i int) string { return fmt.Sprint(i%2 - 1) }) // -1 and 0: both gain 0
	const rank = ": no query has a document labelled above 0 beside one of another label: lambdarank has no pair to learn from, and the model scores every document 0"
	for _, c := range []struct {
		objective, data, want string
	}{
		{"lambdarank", byQuery, byQuery + rank},
		{"lambdarank", same, same + rank},
		{"lambdarank", negZero, negZero + rank},
		{"regression", negZero, ""},
		{"regression", same, same + ": every document is labelled 1: there is nothing to learn, and the model scores every document alike"},
		{"binary", graded, graded + ": every document is positive (label > 0): there is nothing to learn, and the model scores every document alike"},
		{"regression", byQuery, ""},
		{"binary", byQuery, ""},
		{"lambdarank", mixed, ""},
		{"binary", mixed, ""},
	} {
		code, _, errOut := runCLI(t, "train", "--train", c.data, "--objective", c.objective, "--trees", "2", "--min-docs", "1", "--out", filepath.Join(dir, "m.json"))
		switch {
		case code != 0:
			t.Errorf("%s on %s: exit %d: %s", c.objective, c.data, code, errOut)
		case c.want == "" && strings.Contains(errOut, "warning"):
			t.Errorf("%s on %s: %q, want no warning", c.objective, c.data, errOut)
		case c.want != "" && !strings.Contains(errOut, "warning: "+c.want+"\n"):
			t.Errorf("%s on %s: %q, want the warning %q", c.objective, c.data, errOut, c.want)
		}
	}
	// Going on from a model (--init-model), the documents start from its
	// scores: regression and binary have residuals to fit whatever the
	// labels, and lambdarank's trees added are leaves of 0, so the model
	// scores as the init model does, not every document 0. train said
	// "nothing to learn … scores every document alike" (and "every
	// document 0") there too.
	for _, c := range []struct {
		objective, data, want string
	}{
		// The residuals differ too little for a split under --l2 1.
		{"regression", same, "warning: every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 1 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), and the model ranks the documents as %s does"},
		{"binary", graded, "warning: every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 1 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), and the model ranks the documents as %s does"},
		{"lambdarank", same, "lambdarank has no pair to learn from, and the trees added are leaves of 0: the model scores every document as %s does"},
	} {
		init := filepath.Join(dir, c.objective+"-init.json")
		if code, _, errOut := runCLI(t, "train", "--train", mixed, "--objective", c.objective, "--trees", "2", "--min-docs", "1", "--out", init); code != 0 {
			t.Fatalf("%s on %s: exit %d: %s", c.objective, mixed, code, errOut)
		}
		code, _, errOut := runCLI(t, "train", "--train", c.data, "--objective", c.objective, "--trees", "2", "--min-docs", "1", "--init-model", init, "--out", filepath.Join(dir, "m.json"))
		switch want := fmt.Sprintf(c.want, init); {
		case code != 0:
			t.Errorf("%s on %s from %s: exit %d: %s", c.objective, c.data, init, code, errOut)
		case c.want == "" && strings.Contains(errOut, "warning"):
			t.Errorf("%s on %s from %s: %q, want no warning", c.objective, c.data, init, errOut)
		case c.want != "" && !strings.Contains(errOut, want+"\n"):
			t.Errorf("%s on %s from %s: %q, want the warning %q", c.objective, c.data, init, errOut, want)
		}
	}
}

// Lambdarank on a file without qids ranks the whole file as one query, as
// XGBoost does (LightGBM refuses): it says so. The other objectives, and
// files with qids, have nothing to say.
func TestTrainLambdarankWithoutQID(t *testing.T) {
	dir := t.TempDir()
	noQID := filepath.Join(dir, "noqid.txt")
	os.WriteFile(noQID, []byte("1 1:0.5\n0 1:0.25\n2 1:0.75\n"), 0o644)
	withQID := filepath.Join(dir, "qid.txt")
	os.WriteFile(withQID, []byte("1 qid:1 1:0.5\n0 qid:1 1:0.25\n2 qid:1 1:0.75\n"), 0o644)
	for _, c := range []struct{ objective, data, want string }{
		{"lambdarank", noQID, "warning: " + noQID + " has no qid: lambdarank ranks all its 3 documents as one query\n"},
		{"regression", noQID, ""},
		{"lambdarank", withQID, ""},
	} {
		code, _, errOut := runCLI(t, "train", "--train", c.data, "--objective", c.objective, "--trees", "2", "--min-docs", "1", "--out", filepath.Join(dir, "m.json"))
		if code != 0 || errOut != c.want {
			t.Errorf("%s on %s: exit %d, %q; want %q", c.objective, c.data, code, errOut, c.want)
		}
	}
}

// Validation data without qids beside training data with them (a qid
// column stripped, or the wrong file) is ranked as one query, so the
// validation metric, and early stopping by it, say nothing of the
// queries: train says so, for every objective. Validation data with qids,
// or training data without them too, have nothing to say.
func TestTrainValidWithoutQID(t *testing.T) {
	dir := t.TempDir()
	noQID := filepath.Join(dir, "noqid.txt")
	os.WriteFile(noQID, []byte("1 1:0.5\n0 1:0.25\n2 1:0.75\n"), 0o644)
	withQID := filepath.Join(dir, "qid.txt")
	os.WriteFile(withQID, []byte("1 qid:1 1:0.5\n0 qid:1 1:0.25\n2 qid:2 1:0.75\n0 qid:2 1:0.1\n"), 0o644)
	warning := "warning: " + noQID + " has no qid, where " + withQID + " has: its metrics rank all its 3 documents as one query\n"
	for _, c := range []struct{ objective, train, valid, want string }{
		{"lambdarank", withQID, noQID, warning},
		{"regression", withQID, noQID, warning},
		{"lambdarank", withQID, withQID, ""},
		{"regression", noQID, noQID, ""},
		{"regression", noQID, withQID, ""},
	} {
		code, _, errOut := runCLI(t, "train", "--train", c.train, "--valid", c.valid, "--objective", c.objective, "--trees", "2", "--min-docs", "1", "--out", filepath.Join(dir, "m.json"))
		if code != 0 || errOut != c.want {
			t.Errorf("%s, --train %s --valid %s: exit %d, %q; want %q", c.objective, c.train, c.valid, code, errOut, c.want)
		}
	}
}

// train --init-model M goes on from M: 6 trees then 6 more are the 12
// trained at once (the trees and the base score; params say init_model
// and init_trees), the log and the report count M's trees, and a model
// whose scores the objective's loss does not read is refused.
func TestTrainInitModel(t *testing.T) {
	dir := t.TempDir()
	m6, m12, on := filepath.Join(dir, "m6.json"), filepath.Join(dir, "m12.json"), filepath.Join(dir, "on.json")
	base := []string{"train", "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--objective", "regression"}
	for _, c := range []struct {
		out   string
		extra []string
	}{{m6, []string{"--trees", "6"}}, {m12, []string{"--trees", "12"}}, {on, []string{"--trees", "6", "--init-model", m6, "--log-every", "3", "--json"}}} {
		code, out, errOut := runCLI(t, slices.Concat(base, c.extra, []string{"--out", c.out})...)
		if code != 0 {
			t.Fatalf("%v: exit %d %q", c.extra, code, errOut)
		}
		if c.out != on {
			continue
		}
		if !strings.HasPrefix(errOut, "[9/12] train ndcg@10") || !strings.Contains(errOut, "\n[12/12] train ndcg@10") || strings.Contains(errOut, "[6/12]") {
			t.Errorf("--log-every 3 from a 6-tree model: %q, want lines at 9 and 12 of 12", errOut)
		}
		var r struct {
			Trees     int
			InitTrees int `json:"init_trees"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.InitTrees != 6 || r.Trees != 12 {
			t.Errorf("report %s: trees %d, init_trees %d, want 12 and 6 (%v)", out, r.Trees, r.InitTrees, err)
		}
	}
	want, _ := tree.ReadModel(m12)
	got, err := tree.ReadModel(on)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Trees, want.Trees) || got.BaseScore != want.BaseScore {
		t.Errorf("6 trees then 6 more differ from 12 at once")
	}
	if got.Params["init_model"] != m6 || got.Params["init_trees"] != 6.0 || got.Params["trees"] != 6.0 {
		t.Errorf("params init_model %v, init_trees %v, trees %v; want %s, 6, 6", got.Params["init_model"], got.Params["init_trees"], got.Params["trees"], m6)
	}
	// Text: the trees and where the first came from.
	if _, out, _ := runCLI(t, slices.Concat(base, []string{"--trees", "1", "--init-model", m6, "--out", on})...); !strings.Contains(out, "7 trees (regression, the first 6 from "+m6+")") {
		t.Errorf("text report %q", out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--objective", "binary", "--init-model", m6, "--out", on}, 1, "--init-model " + m6 + `: a binary model cannot go on from one trained for "regression"`},
		{[]string{"--init-model", m6, "--out", m6}, 2, m6},
		{[]string{"--init-model", filepath.Join(dir, "none.json"), "--out", on}, 1, "none.json"},
	} {
		code, _, errOut := runCLI(t, slices.Concat([]string{"train", "--train", "builtin:mq2008/train", "--trees", "1"}, c.args)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d %q; want %d, %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// An imported model is gone on from as it scores: lambdarank from XGBoost's
// rank:ndcg fixture keeps its trees and base score first, and its first
// logged figure is the imported model's own.
func TestTrainInitImported(t *testing.T) {
	dir := t.TempDir()
	imported, on := filepath.Join(dir, "x.json"), filepath.Join(dir, "on.json")
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "engine/tree/testdata/xgb-rank-ndcg.json", "--out", imported); code != 0 {
		t.Fatalf("import: %q", errOut)
	}
	code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "2", "--init-model", imported, "--out", on)
	if code != 0 {
		t.Fatalf("train: %q", errOut)
	}
	src, _ := tree.ReadModel(imported)
	got, err := tree.ReadModel(on)
	if err != nil {
		t.Fatal(err)
	}
	n := len(src.Trees)
	if len(got.Trees) != n+2 || !reflect.DeepEqual(got.Trees[:n], src.Trees) || got.BaseScore != src.BaseScore || got.Objective != "lambdarank" {
		t.Errorf("%d trees (want %d), base %v (want %v), objective %q", len(got.Trees), n+2, got.BaseScore, src.BaseScore, got.Objective)
	}
}

// train --init-model from an XGBoost model on a file that leaves values
// out warns, as predict does, that training reads them as 0 where XGBoost
// reads them as missing: it goes on from scores that are not XGBoost's.
// The counts are predict's for the same model and file.
func TestTrainInitAbsentWarning(t *testing.T) {
	dir := t.TempDir()
	imported, on := filepath.Join(dir, "x.json"), filepath.Join(dir, "on.json")
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "engine/tree/testdata/xgb-missing.json", "--out", imported); code != 0 {
		t.Fatalf("import: %q", errOut)
	}
	sparse := "engine/tree/testdata/mq2008-test-sparse.txt.gz"
	_, _, predictErr := runCLI(t, "predict", "--model", imported, "--data", sparse, "--out", filepath.Join(dir, "scores.txt"))
	if !strings.Contains(predictErr, "leaves 6136 feature values out of its lines") || !strings.Contains(predictErr, "at 219 of its 441 splits") {
		t.Fatalf("predict's warning: %q", predictErr)
	}
	for _, c := range []struct {
		data string
		warn bool
	}{{sparse, true}, {"builtin:mq2008/test", false}} {
		code, _, errOut := runCLI(t, "train", "--train", c.data, "--trees", "1", "--init-model", imported, "--out", on)
		if code != 0 {
			t.Fatalf("%s: exit %d %q", c.data, code, errOut)
		}
		got := strings.Contains(errOut, "warning: "+sparse+" leaves 6136 feature values out of its lines, which training reads as 0 and XGBoost as missing") &&
			strings.Contains(errOut, "at 219 of its 441 splits")
		if got != c.warn || !c.warn && strings.Contains(errOut, "missing") {
			t.Errorf("%s: %q; want the warning: %v", c.data, errOut, c.warn)
		}
	}
}

// train --init-model reads a LightGBM model's whole objective, options
// included: "binary sigmoid:2" scores are margins of σ(2s) and "regression
// sqrt" ones predict the square root of the label, which the binary and
// regression losses do not read so; "binary sigmoid:1" and "regression"
// go on.
func TestTrainInitLightGBMObjective(t *testing.T) {
	dir := t.TempDir()
	src := readFile(t, "engine/tree/testdata/lgb-lambdarank.model.txt")
	for _, c := range []struct {
		objective, lgb string
		ok             bool
	}{
		{"binary", "binary sigmoid:1", true},
		{"binary", "binary sigmoid:2", false},
		{"regression", "regression", true},
		{"regression", "regression sqrt", false},
		{"binary", "cross_entropy", true}, // xentropy: logistic margins
	} {
		lgb, imported := filepath.Join(dir, "lgb.txt"), filepath.Join(dir, "m.json")
		os.WriteFile(lgb, []byte(strings.Replace(src, "\nobjective=lambdarank\n", "\nobjective="+c.lgb+"\n", 1)), 0o644)
		if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", lgb, "--out", imported); code != 0 {
			t.Fatalf("import %s: %q", c.lgb, errOut)
		}
		code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--objective", c.objective, "--trees", "1", "--init-model", imported, "--out", filepath.Join(dir, "on.json"))
		refused := fmt.Sprintf("a %s model cannot go on from one trained for %q", c.objective, c.lgb)
		if c.ok && code != 0 || !c.ok && (code != 1 || !strings.Contains(errOut, refused)) {
			t.Errorf("%s from LightGBM's %q: exit %d %q", c.objective, c.lgb, code, errOut)
		}
	}
}

// RankLib's MART fits the labels by squared error (its pseudo-responses
// are label − score): regression goes on from it, not from LambdaMART.
func TestTrainInitRankLibMART(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		fixture string
		ok      bool
	}{{"ranklib-mart.txt", true}, {"ranklib-lambdamart.txt", false}} {
		imported := filepath.Join(dir, "m.json")
		if code, _, errOut := runCLI(t, "import", "--from", "ranklib", "engine/tree/testdata/"+c.fixture, "--out", imported); code != 0 {
			t.Fatalf("import %s: %q", c.fixture, errOut)
		}
		code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--objective", "regression", "--trees", "1", "--init-model", imported, "--out", filepath.Join(dir, "on.json"))
		if (code == 0) != c.ok {
			t.Errorf("regression from %s: exit %d %q", c.fixture, code, errOut)
		}
	}
}

// train's line until the first tree says that an init model scores the
// data: with an imported model of 2,000 trees 9 deep that took 5 s of
// 50,000 documents, before any tree, under a line that said "binning".
func TestTrainSetupLine(t *testing.T) {
	d, err := data.LoadDataset(context.Background(), "builtin:mq2008/vali", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l := setupLine(d, nil, nil); l != "training: binning 2707 documents × 46 features" {
		t.Errorf("without an init model: %q", l)
	}
	init := &tree.Ensemble{Trees: make([]tree.Tree, 2000), NumFeatures: 46}
	if l, want := setupLine(d, d, init), "training: binning 2707 documents × 46 features, scoring 5414 documents with the init model's 2000 trees"; l != want {
		t.Errorf("with one: %q, want %q", l, want)
	}
}

// --trees with --init-model making more trees than an int holds
// overflowed the count: the progress line read "tree
// 5260/-9223372036854775789" and training went on for ever. It is refused
// before the data is read (the guard only keeps the test from running on
// where it is not).
func TestTrainInitTreesOverflow(t *testing.T) {
	dir := t.TempDir()
	init := filepath.Join(dir, "init.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/vali", "--trees", "2", "--out", init); code != 0 {
		t.Fatal(errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	trees := fmt.Sprint(math.MaxInt - 1)
	code := run(ctx, []string{"train", "--train", "builtin:mq2008/vali", "--trees", trees, "--init-model", init, "--out", filepath.Join(dir, "m.json")}, &out, &errOut)
	want := fmt.Sprintf("cronus train: --trees %s: with the 2 trees of --init-model %s, the model would have more than %d trees", trees, init, math.MaxInt)
	if code != 2 || !strings.HasPrefix(errOut.String(), want) {
		t.Errorf("exit %d, %q; want 2, %q", code, errOut.String(), want)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("wrote the model")
	}
}

// train --init-model reads the training data at least as wide as the
// model, and a wider file's features are trained on: it said "features
// 2-3 are not used" of them, and then split on them (a helper's review of
// degenerate data, 2026-12-01). A validation file wider than the training
// data is still warned of, since its extra features are not used.
func TestTrainInitModelWiderData(t *testing.T) {
	dir := t.TempDir()
	narrow, wide, wider := filepath.Join(dir, "narrow.txt"), filepath.Join(dir, "wide.txt"), filepath.Join(dir, "wider.txt")
	os.WriteFile(narrow, []byte("2 qid:1 1:0.5\n0 qid:1 1:0.1\n1 qid:2 1:0.3\n0 qid:2 1:0.9\n"), 0o644)
	os.WriteFile(wide, []byte("2 qid:1 1:0.5 3:0.9\n0 qid:1 1:0.5 3:0.1\n1 qid:2 1:0.5 3:0.8\n0 qid:2 1:0.5 3:0.2\n"), 0o644)
	os.WriteFile(wider, []byte("2 qid:1 1:0.5 4:0.9\n0 qid:1 1:0.5 4:0.1\n"), 0o644)
	init, on := filepath.Join(dir, "init.json"), filepath.Join(dir, "on.json")
	if code, _, errOut := runCLI(t, "train", "--train", narrow, "--trees", "1", "--min-docs", "1", "--out", init); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	code, _, errOut := runCLI(t, "train", "--train", wide, "--valid", wider, "--trees", "2", "--min-docs", "1", "--init-model", init, "--out", on)
	if code != 0 {
		t.Fatalf("train --init-model: exit %d: %s", code, errOut)
	}
	m, err := tree.ReadModel(on)
	if err != nil {
		t.Fatal(err)
	}
	used := false
	for _, tr := range m.Trees[1:] {
		used = used || slices.Contains(tr.Split, 3)
	}
	if m.NumFeatures != 3 || !used {
		t.Fatalf("%d features, feature 3 split on: %v; want 3 features, feature 3 used", m.NumFeatures, used)
	}
	if strings.Contains(errOut, wide+" has features") {
		t.Errorf("%q: a warning of %s's features, which the trees added use", errOut, wide)
	}
	if want := "warning: " + wider + " has features up to 4, and 3 are expected; feature 4 is not used\n"; !strings.Contains(errOut, want) {
		t.Errorf("%q, want the warning %q", errOut, want)
	}
}

// train warns where no tree can split, every tree a single leaf: fewer
// documents than twice --min-docs, or every feature one value throughout.
// It trained such models without a word (a helper's review of degenerate
// data, 2026-12-01); data that can split have nothing said.
func TestTrainNoSplitWarns(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(text), 0o644)
		return path
	}
	varied := write("varied.txt", "2 qid:1 1:0.5\n0 qid:1 1:0.1\n1 qid:2 1:0.3\n0 qid:2 1:0.9\n")
	constant := write("constant.txt", "2 qid:1 1:1 2:0\n0 qid:1 1:1 2:0\n1 qid:2 1:1 2:0\n0 qid:2 1:1\n")
	// Enough documents for --min-docs 3, but each feature has another
	// value on 2 of them only: no split leaves 3 each side.
	sparse := write("sparse.txt", "2 qid:1 1:1 2:0\n0 qid:1 1:1 2:0\n1 qid:2 1:0 2:1\n0 qid:2 1:0 2:1\n1 qid:3 1:0 2:0\n0 qid:3 1:0 2:0\n")
	init := filepath.Join(dir, "init.json")
	if code, _, errOut := runCLI(t, "train", "--train", varied, "--objective", "regression", "--trees", "1", "--min-docs", "1", "--out", init); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		data, minDocs, init, want string
	}{
		{varied, "3", "", varied + " has 4 documents, fewer than twice --min-docs 3 (the documents each side of a split needs): no tree can split, and the model scores every document alike"},
		{varied, "2", "", ""},
		{constant, "1", "", constant + ": every feature has one value on every document: no tree can split, and the model scores every document alike"},
		{constant, "1", init, constant + ": every feature has one value on every document: no tree added can split, and the model ranks the documents as " + init + " does"},
		// What training found (train said nothing of it before).
		{sparse, "3", "", "every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 3 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), and the model scores every document alike"},
		{sparse, "3", init, "every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 3 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), and the model ranks the documents as " + init + " does"},
		{sparse, "2 --l2 0", "", ""},
		{varied, "1 --min-gain 1e9 --l2 0", "", "every tree trained is a single leaf: no split gained more than --min-gain 1e+09 with --min-docs 1 documents and --min-hessian 0.001 of hessian on each side, and the model scores every document alike"},
		// A row sample so small that each tree draws one document: the
		// warning blamed --min-docs and the rest alone.
		{varied, "1 --row-sample 1e-9", "", "every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 1 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), on the share of the data each tree drew (--row-sample 1e-09), and the model scores every document alike"},
		{sparse, "3 --row-sample 0.999 --col-sample 0.5", "", "every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 3 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), on the share of the data and of the features each tree drew (--row-sample 0.999, --col-sample 0.5), and the model scores every document alike"},
		{sparse, "3 --col-sample 0.5", init, "every tree trained is a single leaf: no split gained more than --min-gain 0 with --min-docs 3 documents and --min-hessian 0.001 of hessian on each side (the gains lowered by --l2 1), on the features each tree drew (--col-sample 0.5), and the model ranks the documents as " + init + " does"},
	} {
		args := append([]string{"train", "--train", c.data, "--objective", "regression", "--trees", "2", "--min-docs"}, strings.Fields(c.minDocs)...)
		args = append(args, "--out", filepath.Join(dir, "m.json"))
		if c.init != "" {
			args = append(args, "--init-model", c.init)
		}
		code, _, errOut := runCLI(t, args...)
		switch {
		case code != 0:
			t.Errorf("%s --min-docs %s: exit %d: %s", c.data, c.minDocs, code, errOut)
		case c.want == "" && strings.Contains(errOut, "warning"):
			t.Errorf("%s --min-docs %s: %q, want no warning", c.data, c.minDocs, errOut)
		case c.want != "" && errOut != "warning: "+c.want+"\n":
			t.Errorf("%s --min-docs %s: %q, want the warning %q", c.data, c.minDocs, errOut, c.want)
		}
	}
}

// Training data in LightGBM's and XGBoost's layout, the lines without
// qids and their query sizes in FILE.query beside them, trains the same
// lambdarank trees as the same lines with the qids written on them (the
// built-in validation split, its qids renumbered from 1 as the size file
// numbers them), and eval and predict --run read the layout too.
func TestTrainQuerySizeFile(t *testing.T) {
	d, err := data.LoadDataset(context.Background(), "builtin:mq2008/vali", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var plain, qids, sizes strings.Builder
	for q := range d.NumQueries() {
		lo, hi := d.Query(q)
		fmt.Fprintf(&sizes, "%d\n", hi-lo)
		for i := lo; i < hi; i++ {
			var feats strings.Builder
			for f := range d.NumFeatures() {
				fmt.Fprintf(&feats, " %d:%s", f+1, strconv.FormatFloat(float64(d.Cols[f][i]), 'g', -1, 32))
			}
			fmt.Fprintf(&plain, "%g%s\n", d.Labels[i], feats.String())
			fmt.Fprintf(&qids, "%g qid:%d%s\n", d.Labels[i], q+1, feats.String())
		}
	}
	lgb, want := filepath.Join(dir, "rank.train"), filepath.Join(dir, "qid.txt")
	os.WriteFile(lgb, []byte(plain.String()), 0o644)
	os.WriteFile(lgb+".query", []byte(sizes.String()), 0o644)
	os.WriteFile(want, []byte(qids.String()), 0o644)
	trees := func(train string) []byte {
		out := filepath.Join(dir, filepath.Base(train)+".json")
		mustRun(t, "train", "--train", train, "--objective", "lambdarank", "--trees", "5", "--leaves", "7", "--out", out)
		var m struct {
			Trees json.RawMessage `json:"trees"`
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil || len(m.Trees) < 100 {
			t.Fatalf("%s: %v (%d bytes of trees)", out, err, len(m.Trees))
		}
		return m.Trees
	}
	if a, b := trees(lgb), trees(want); !bytes.Equal(a, b) {
		t.Error("lambdarank trees on the size-file layout differ from those on the same lines with qids")
	}
	model := filepath.Join(dir, "qid.txt.json")
	runA, runB := filepath.Join(dir, "a.run"), filepath.Join(dir, "b.run")
	mustRun(t, "eval", "--model", model, "--data", lgb, "--run", runA)
	mustRun(t, "eval", "--model", model, "--data", want, "--run", runB)
	a, _ := os.ReadFile(runA)
	b, _ := os.ReadFile(runB)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("eval --run differs between the two layouts (%d and %d bytes)", len(a), len(b))
	}
}
