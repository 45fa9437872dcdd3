package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

func TestTrainPredictEval(t *testing.T) {
	dir := t.TempDir()
	m1, m2 := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, m := range []string{m1, m2} {
		r, out := trainJSON(t, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--objective", "lambdarank", "--trees", "15", "--leaves", "7", "--learning-rate", "0.1", "--seed", "3",
			"--row-sample", "0.8", "--out", m)
		if r.Trees != 15 || r.ValidMetric < 0.4 || r.BestTrees < 1 {
			t.Fatalf("train report %q", out)
		}
	}
	a, _ := os.ReadFile(m1)
	b, _ := os.ReadFile(m2)
	if !bytes.Equal(a, b) {
		t.Fatal("the same flags and seed gave different model files")
	}

	scores := filepath.Join(dir, "scores.txt")
	if code, _, errOut := runCLI(t, "predict", "--model", m1, "--data", "builtin:mq2008/test", "--out", scores); code != 0 {
		t.Fatalf("predict: %s", errOut)
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, scores)), "\n")
	if len(lines) != 2874 {
		t.Fatalf("predict wrote %d scores for 2874 documents", len(lines))
	}

	// predict --json: the report holds the very scores of the text output
	// without --out, and names the file with it.
	type predictReport struct {
		Docs, Queries, Trees int
		Out                  string
		Scores               []float64
	}
	var pr predictReport
	_, outJ, errOut := runCLI(t, "predict", "--model", m1, "--data", "builtin:mq2008/test", "--trees", "7", "--json")
	if err := json.Unmarshal([]byte(outJ), &pr); err != nil || pr.Docs != 2874 || pr.Queries != 156 || pr.Trees != 7 || len(pr.Scores) != 2874 {
		t.Fatalf("predict --json: %v %.200s %s", err, outJ, errOut)
	}
	_, outT, _ := runCLI(t, "predict", "--model", m1, "--data", "builtin:mq2008/test", "--trees", "7")
	for i, l := range strings.Fields(outT) {
		if v, err := strconv.ParseFloat(l, 64); err != nil || v != pr.Scores[i] {
			t.Fatalf("document %d: text %q, JSON %v", i, l, pr.Scores[i])
		}
	}
	scores7 := filepath.Join(dir, "scores7.txt")
	_, outJ, _ = runCLI(t, "predict", "--model", m1, "--data", "builtin:mq2008/test", "--trees", "7", "--out", scores7, "--json")
	pr = predictReport{}
	if err := json.Unmarshal([]byte(outJ), &pr); err != nil || pr.Out != scores7 || pr.Scores != nil || readFile(t, scores7) != outT {
		t.Fatalf("predict --out --json: %v %.200s", err, outJ)
	}

	// Evaluating the model and evaluating its written scores agree.
	run := filepath.Join(dir, "run.txt")
	pq := filepath.Join(dir, "pq.tsv")
	_, outM, errOut := runCLI(t, "eval", "--model", m1, "--data", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs",
		"--json", "--run", run, "--per-query", pq)
	_, outS, _ := runCLI(t, "eval", "--scores", scores, "--data", "builtin:mq2008/test", "--json")
	var em, es struct {
		Metrics map[string]float64
		Cost    *struct{ Total, Features, Trees float64 }
		Queries int
	}
	if err := json.Unmarshal([]byte(outM), &em); err != nil {
		t.Fatalf("%v: %s %s", err, outM, errOut)
	}
	json.Unmarshal([]byte(outS), &es)
	for k, v := range em.Metrics {
		if math.Abs(es.Metrics[k]-v) > 1e-12 {
			t.Errorf("%s: model %v, scores file %v", k, v, es.Metrics[k])
		}
	}
	if em.Cost == nil || em.Cost.Trees != 15 || em.Cost.Features <= 0 || em.Cost.Total != em.Cost.Features+em.Cost.Trees || es.Cost != nil {
		t.Errorf("cost %+v (scores: %+v)", em.Cost, es.Cost)
	}
	// --trees all is the default; --trees 5 pays for 5 trees.
	for _, c := range []struct {
		trees string
		want  float64
	}{{"all", 15}, {"5", 5}} {
		_, out, _ := runCLI(t, "eval", "--model", m1, "--data", "builtin:mq2008/test", "--trees", c.trees, "--json")
		var ek struct {
			Metrics map[string]float64
			Cost    struct{ Trees float64 }
		}
		if err := json.Unmarshal([]byte(out), &ek); err != nil || ek.Cost.Trees != c.want {
			t.Errorf("--trees %s: %v, cost %+v", c.trees, err, ek.Cost)
		}
		if c.trees == "all" && ek.Metrics["ndcg@10"] != em.Metrics["ndcg@10"] {
			t.Errorf("--trees all: ndcg@10 %v, default %v", ek.Metrics["ndcg@10"], em.Metrics["ndcg@10"])
		}
	}
	// The run: 2874 lines, ranks 1.. within each query, LETOR doc ids.
	runLines := strings.Split(strings.TrimSpace(readFile(t, run)), "\n")
	f := strings.Fields(runLines[0])
	if len(runLines) != 2874 || len(f) != 6 || f[1] != "Q0" || f[3] != "1" || f[5] != "cronus" || !strings.HasPrefix(f[2], "GX") {
		t.Errorf("run line %q (%d lines)", runLines[0], len(runLines))
	}
	pqLines := strings.Split(strings.TrimSpace(readFile(t, pq)), "\n")
	if len(pqLines) != em.Queries+1 || !strings.HasPrefix(pqLines[0], "qid\tp@5\tndcg@10") {
		t.Errorf("per-query file: %d lines, header %q", len(pqLines), pqLines[0])
	}
	// The mean of the per-query column is the reported metric.
	sum := 0.0
	for _, l := range pqLines[1:] {
		v, _ := strconv.ParseFloat(strings.Split(l, "\t")[2], 64)
		sum += v
	}
	if math.Abs(sum/float64(em.Queries)-em.Metrics["ndcg@10"]) > 1e-9 {
		t.Errorf("per-query mean %v, reported %v", sum/float64(em.Queries), em.Metrics["ndcg@10"])
	}
}

func TestImportCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lgb.json")
	code, stdout, errOut := runCLI(t, "import", "--from", "lightgbm", "engine/tree/testdata/lgb-lambdarank.model.txt", "--out", out)
	if code != 0 || !strings.Contains(stdout, "100 trees") {
		t.Fatalf("import: exit %d %q %q", code, stdout, errOut)
	}
	// The imported model predicts what LightGBM predicted.
	scores := filepath.Join(t.TempDir(), "s.txt")
	if code, _, errOut := runCLI(t, "predict", "--model", out, "--data", "builtin:mq2008/test", "--out", scores); code != 0 {
		t.Fatal(errOut)
	}
	sameScores(t, scores, "engine/tree/testdata/lgb-lambdarank.pred.txt", "LightGBM")
}

// A LightGBM model trained on 0-based columns (a matrix) imports with
// --zero-based, its column j as feature j+1, and is refused without it,
// naming the flag; --zero-based on a model of the SVMlight file, whose
// column 0 is empty, gets a note; the flag is for --from lightgbm only.
func TestImportLightGBMZeroBased(t *testing.T) {
	dir := t.TempDir()
	// Column 0 (feature 1) at 0.5, then column 1 (feature 2) at 0.25.
	model := filepath.Join(dir, "zero.txt")
	os.WriteFile(model, []byte(`tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=1
objective=regression
feature_names=Column_0 Column_1
feature_infos=[0:1] [0:1]
tree_sizes=100

Tree=0
num_leaves=3
num_cat=0
split_feature=0 1
split_gain=1 1
threshold=0.5 0.25
decision_type=2 2
left_child=1 -1
right_child=-3 -2
leaf_value=1 2 3
leaf_weight=1 1 1
leaf_count=1 1 1
internal_value=0 0
internal_weight=0 0
internal_count=3 2
is_linear=0
shrinkage=1


end of trees
`), 0o644)
	out := filepath.Join(dir, "m.json")
	code, _, errOut := runCLI(t, "import", "--from", "lightgbm", model, "--out", out)
	if code != 1 || !strings.Contains(errOut, model+":9: LightGBM column 0 holds data") || !strings.Contains(errOut, "--zero-based") {
		t.Errorf("without --zero-based: exit %d, %q", code, errOut)
	}
	code, stdout, errOut := runCLI(t, "import", "--from", "lightgbm", "--zero-based", model, "--out", out)
	if code != 0 || !strings.Contains(stdout, "1 tree from lightgbm (regression, 2 features)") || errOut != "" {
		t.Fatalf("--zero-based: exit %d, %q, %q", code, stdout, errOut)
	}
	d := filepath.Join(dir, "d.txt")
	os.WriteFile(d, []byte("0 qid:1 1:0.2 2:0.1\n0 qid:1 1:0.2 2:0.9\n0 qid:1 1:0.8 2:0.1\n"), 0o644)
	scores := filepath.Join(dir, "s.txt")
	if code, _, errOut := runCLI(t, "predict", "--model", out, "--data", d, "--out", scores); code != 0 {
		t.Fatal(errOut)
	}
	if got := readFile(t, scores); got != "1\n2\n3\n" {
		t.Errorf("scores %q, want 1, 2, 3 (feature 1 <= 0.5, then feature 2 <= 0.25)", got)
	}
	code, _, errOut = runCLI(t, "import", "--from", "lightgbm", "--zero-based", "engine/tree/testdata/lgb-lambdarank.model.txt", "--out", out)
	if code != 0 || !strings.Contains(errOut, "note: the model never splits on column 0 (feature 1)") {
		t.Errorf("--zero-based on a model of the SVMlight file: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "import", "--from", "xgboost", "--zero-based", "engine/tree/testdata/xgb-rank-ndcg.json", "--out", out)
	if code != 2 || !strings.Contains(errOut, "--zero-based applies to --from lightgbm only") {
		t.Errorf("--zero-based with xgboost: exit %d, %q", code, errOut)
	}
}

// A LightGBM model of 0-based columns whose names are numbers that are
// not the features --zero-based makes them (a frame of selected features
// named by their numbers) gets a note naming --by-name, as an XGBoost model
// does; the default names of a frame (0, 1, ...), names that agree and
// names that are no numbers get none, and so does --by-name itself.
func TestImportLightGBMNumberedNames(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("engine", "tree", "testdata", "lgb-lambdarank.model.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		names string // columns 0 and 1; the others follow from 1
		args  []string
		note  string
	}{
		{"0 1", []string{"--zero-based"}, ""},
		{"1 2", []string{"--zero-based"}, ""},
		{"Column_0 Column_1", []string{"--zero-based"}, ""},
		{"3 7", []string{"--zero-based"}, `note: the model's features are named by numbers, and column 0 is named "3", not 1: cronus takes column k as feature k+1 by its position, not its name; if it was trained on selected features named by their numbers, import it again with --by-name`},
		{"3 7", []string{"--by-name"}, ""},
	} {
		// Column 0 holds data; column j >= 2 is named Column_j, or on
		// from column 1's number.
		first := strings.Fields(c.names)
		names := append([]string{}, first...)
		for j := 2; j <= 46; j++ {
			if n, err := strconv.Atoi(first[1]); err == nil {
				names = append(names, strconv.Itoa(n+j-1))
			} else {
				names = append(names, "Column_"+strconv.Itoa(j))
			}
		}
		lines := strings.Split(string(src), "\n")
		for i, l := range lines {
			switch {
			case strings.HasPrefix(l, "feature_names="):
				lines[i] = "feature_names=" + strings.Join(names, " ")
			case strings.HasPrefix(l, "feature_infos=none"):
				lines[i] = strings.Replace(l, "none", "[0:1]", 1)
			}
		}
		model := filepath.Join(dir, "m.txt")
		os.WriteFile(model, []byte(strings.Join(lines, "\n")), 0o644)
		args := append([]string{"import", "--from", "lightgbm", model, "--out", filepath.Join(dir, "c.json")}, c.args...)
		code, _, errOut := runCLI(t, args...)
		errOut = strings.ReplaceAll(errOut, "note: the model never splits on column 0 (feature 1): if LightGBM read the SVMlight file itself, which leaves column 0 empty, import it again without --zero-based\n", "")
		if code != 0 || c.note == "" && errOut != "" || c.note != "" && !strings.Contains(errOut, c.note) {
			t.Errorf("names %s… %v: exit %d, stderr %q; want note %q", c.names, c.args, code, errOut, c.note)
		}
	}
}

// An XGBoost model whose feature names are numbers that are not its
// columns' positions (a frame of selected features named by their
// numbers) gets a note at import: cronus maps columns by position, and
// such names went unseen. Names that are the positions, or not numbers,
// get none.
func TestImportXGBoostNumberedNames(t *testing.T) {
	dir := t.TempDir()
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, "engine/tree/testdata/xgb-reg-lossguide.json")), &m); err != nil {
		t.Fatal(err)
	}
	names := func(f func(k int) string) []string {
		n := make([]string, 46)
		for k := range n {
			n[k] = f(k)
		}
		return n
	}
	for _, c := range []struct {
		names []string
		note  string
	}{
		{names(func(k int) string { return strconv.Itoa(k + 1) }), ""},
		{names(func(k int) string { return strconv.Itoa(k) }), ""}, // a pandas DataFrame's default columns
		{names(func(k int) string { return strconv.Itoa(k + 2) }), `note: the model's features are named by numbers, and f0 is named "2", not 1`},
		{names(func(k int) string { return "f" + strconv.Itoa(k) }), ""},
		{names(func(k int) string { return strconv.Itoa(2*k + 3) }), `note: the model's features are named by numbers, and f0 is named "3", not 1`},
	} {
		m["learner"].(map[string]any)["feature_names"] = c.names
		b, _ := json.Marshal(m)
		model := filepath.Join(dir, "m.json")
		os.WriteFile(model, b, 0o644)
		code, _, errOut := runCLI(t, "import", "--from", "xgboost", model, "--out", filepath.Join(dir, "c.json"))
		if code != 0 || c.note == "" && errOut != "" || c.note != "" && !strings.Contains(errOut, c.note) {
			t.Errorf("names %v…: exit %d, stderr %q; want note %q", c.names[:2], code, errOut, c.note)
		}
	}

	// --by-name: f{k}, named 2k+3, is feature 2k+3. On MQ2008 test with
	// feature j moved to 2j+1 the model scores as XGBoost scored the
	// original on the original file.
	model := filepath.Join(dir, "m.json") // the last case's names
	out := filepath.Join(dir, "c.json")
	code, stdout, errOut := runCLI(t, "import", "--from", "xgboost", "--by-name", model, "--out", out)
	if code != 0 || errOut != "" || !strings.Contains(stdout, "(reg:squarederror, 93 features)") {
		t.Fatalf("--by-name: exit %d, %q, %q", code, stdout, errOut)
	}
	var moved bytes.Buffer
	raw := builtinTestText(t)
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		fields := strings.Fields(line)
		for i, fd := range fields {
			if j, v, ok := strings.Cut(fd, ":"); ok && j != "qid" {
				if n, err := strconv.Atoi(j); err == nil {
					fields[i] = strconv.Itoa(2*n+1) + ":" + v
				}
			}
			if strings.HasPrefix(fd, "#") {
				fields = fields[:i]
				break
			}
		}
		moved.WriteString(strings.Join(fields, " ") + "\n")
	}
	data := filepath.Join(dir, "moved.txt")
	os.WriteFile(data, moved.Bytes(), 0o644)
	scores := filepath.Join(dir, "s.txt")
	if code, _, errOut := runCLI(t, "predict", "--model", out, "--data", data, "--out", scores); code != 0 {
		t.Fatal(errOut)
	}
	sameScores(t, scores, "engine/tree/testdata/xgb-reg-lossguide.pred.txt", "XGBoost")

	// Names that are not feature numbers, or twice the same, are refused;
	// so are --by-name with another library or with --libsvm-indices.
	for _, c := range []struct {
		names []string
		err   string
	}{
		{names(func(k int) string { return "f" + strconv.Itoa(k) }), `--by-name: f0 is named "f0", not a feature number`},
		{names(func(k int) string { return strconv.Itoa(k % 45) }), `--by-name: f0 is named "0", not a feature number`},
		{names(func(k int) string { return strconv.Itoa(k%45 + 1) }), `--by-name: f0 and f45 are both named "1"`},
	} {
		m["learner"].(map[string]any)["feature_names"] = c.names
		b, _ := json.Marshal(m)
		os.WriteFile(model, b, 0o644)
		code, _, errOut := runCLI(t, "import", "--from", "xgboost", "--by-name", model, "--out", out)
		if code != 1 || !strings.Contains(errOut, c.err) {
			t.Errorf("--by-name, names %v…: exit %d, %q; want %q", c.names[:2], code, errOut, c.err)
		}
	}
	for args, want := range map[string]string{
		"--from xgboost --libsvm-indices": "--by-name, --libsvm-indices and --zero-based are ways to number the features; give one",
		"--from lightgbm --zero-based":    "--by-name, --libsvm-indices and --zero-based are ways to number the features; give one",
		"--from ranklib":                  "--by-name applies to --from xgboost and lightgbm",
	} {
		code, _, errOut := runCLI(t, append(strings.Fields("import --by-name "+args), model, "--out", out)...)
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("import --by-name %s: exit %d, %q; want %q", args, code, errOut, want)
		}
	}
}

// sameScores checks that the scores file got holds, line for line within
// 1e-5, the scores of the file want, which library lib computed.
func sameScores(t *testing.T, got, want, lib string) {
	t.Helper()
	gs := strings.Fields(readFile(t, got))
	ws := strings.Fields(readFile(t, want))
	if len(gs) != len(ws) {
		t.Fatalf("%d scores, %s has %d", len(gs), lib, len(ws))
	}
	for i := range gs {
		a, _ := strconv.ParseFloat(gs[i], 64)
		b, _ := strconv.ParseFloat(ws[i], 64)
		if math.Abs(a-b) > 1e-5 {
			t.Fatalf("document %d: %v, %s %v", i, a, lib, b)
		}
	}
}

// TestImportRankLibCommand imports a RankLib LambdaMART model and checks
// that predict gives the scores RankLib's own classes computed, and that
// eval takes it like any model.
func TestImportRankLibCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rl.json")
	code, stdout, errOut := runCLI(t, "import", "--from", "ranklib", "engine/tree/testdata/ranklib-lambdamart.txt", "--out", out, "--json")
	if code != 0 || !strings.Contains(stdout, `"source": "ranklib"`) || !strings.Contains(stdout, `"trees": 60`) {
		t.Fatalf("import: exit %d %q %q", code, stdout, errOut)
	}
	scores := filepath.Join(dir, "s.txt")
	if code, _, errOut := runCLI(t, "predict", "--model", out, "--data", "builtin:mq2008/test", "--out", scores); code != 0 {
		t.Fatal(errOut)
	}
	sameScores(t, scores, "engine/tree/testdata/ranklib-lambdamart.pred.txt", "RankLib")
	// eval ranks by the same scores: its NDCG@10 is that of RankLib's scores.
	var fromModel, fromScores struct{ Metrics map[string]float64 }
	_, stdout, _ = runCLI(t, "eval", "--model", out, "--data", "builtin:mq2008/test", "--json")
	if err := json.Unmarshal([]byte(stdout), &fromModel); err != nil {
		t.Fatal(err, stdout)
	}
	_, stdout, _ = runCLI(t, "eval", "--scores", "engine/tree/testdata/ranklib-lambdamart.pred.txt", "--data", "builtin:mq2008/test", "--json")
	if err := json.Unmarshal([]byte(stdout), &fromScores); err != nil {
		t.Fatal(err, stdout)
	}
	if a, b := fromModel.Metrics["ndcg@10"], fromScores.Metrics["ndcg@10"]; a != b || a == 0 {
		t.Errorf("eval --model: NDCG@10 %v; of RankLib's scores %v", a, b)
	}

	// The file does not say how many features the data had: the count is
	// the highest a split uses, and import says so; --features sets it,
	// not below that feature, and for RankLib models only.
	if !strings.Contains(errOut, "note: a RankLib model does not say how many features its data had: the model has 46 features, the highest a split uses; if the data has more, import it again with --features N") {
		t.Errorf("import without --features: no note of the count (%q)", errOut)
	}
	// A Cronus export says its count ("## No. of features"): no note.
	rl := filepath.Join(dir, "rl.txt")
	if code, _, errOut := runCLI(t, "export", "--model", out, "--to", "ranklib", "--out", rl); code != 0 {
		t.Fatal(errOut)
	}
	if code, stdout, errOut := runCLI(t, "import", "--from", "ranklib", rl, "--out", filepath.Join(dir, "back.json"), "--json"); code != 0 || !strings.Contains(stdout, `"features": 46`) || strings.Contains(errOut, "note:") {
		t.Errorf("import of a cronus export: exit %d, %q, %q; want 46 features and no note", code, stdout, errOut)
	}
	wide := filepath.Join(dir, "wide.json")
	if code, stdout, errOut := runCLI(t, "import", "--from", "ranklib", "engine/tree/testdata/ranklib-lambdamart.txt", "--out", wide, "--features", "50", "--json"); code != 0 || !strings.Contains(stdout, `"features": 50`) || strings.Contains(errOut, "note:") {
		t.Errorf("--features 50: exit %d, %q, %q", code, stdout, errOut)
	}
	if m, err := tree.ReadModel(wide); err != nil {
		t.Error(err)
	} else if m.NumFeatures != 50 {
		t.Errorf("--features 50: the model file has %d features", m.NumFeatures)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "ranklib", "engine/tree/testdata/ranklib-lambdamart.txt", "--features", "45"}, "--features 45, but the model splits on feature 46"},
		{[]string{"--from", "ranklib", "engine/tree/testdata/ranklib-lambdamart.txt", "--features", "0"}, "--features must be a whole number from 1 to 10000000, got 0"},
		{[]string{"--from", "xgboost", "engine/tree/testdata/ranklib-lambdamart.txt", "--features", "50"}, "--features applies to --from ranklib only"},
	} {
		bad := filepath.Join(dir, "bad.json")
		code, _, errOut := runCLI(t, append(append([]string{"import"}, c.args...), "--out", bad)...)
		if _, err := os.Stat(bad); code != 2 || !strings.Contains(errOut, c.want) || err == nil {
			t.Errorf("import %v: exit %d, %q, want exit 2, %q and no file", c.args, code, errOut, c.want)
		}
	}
}

// TestImportXGBoostCommand imports a model trained on XGBoost's own libsvm
// reader, with and without --libsvm-indices, and checks what import and
// predict tell about it.
func TestImportXGBoostCommand(t *testing.T) {
	dir := t.TempDir()
	const model = "engine/tree/testdata/xgb-libsvm.json"
	out := filepath.Join(dir, "x.json")
	code, stdout, errOut := runCLI(t, "import", "--from", "xgboost", model, "--out", out)
	if code != 0 || !strings.Contains(stdout, "47 features") || !strings.Contains(errOut, "note: the model never splits on f0 (feature 1)") ||
		!strings.Contains(errOut, "import it again with --libsvm-indices") {
		t.Fatalf("import: exit %d %q %q", code, stdout, errOut)
	}
	code, stdout, errOut = runCLI(t, "import", "--from", "xgboost", "--libsvm-indices", model, "--out", out)
	if code != 0 || !strings.Contains(stdout, "46 features") || strings.Contains(errOut, "never splits on f0") ||
		strings.Contains(errOut, "missing value") {
		t.Fatalf("import --libsvm-indices: exit %d %q %q", code, stdout, errOut)
	}
	// It predicts what XGBoost predicted on the same file.
	code, stdout, errOut = runCLI(t, "predict", "--model", out, "--data", "builtin:mq2008/test")
	if code != 0 || errOut != "" {
		t.Fatalf("predict: exit %d %q", code, errOut)
	}
	got := strings.Fields(stdout)
	want := strings.Fields(readFile(t, "engine/tree/testdata/xgb-libsvm.pred.txt"))
	for i := range want {
		a, _ := strconv.ParseFloat(got[i], 64)
		b, _ := strconv.ParseFloat(want[i], 64)
		if math.Abs(a-b) > 1e-5 {
			t.Fatalf("document %d: %v, XGBoost %v", i+1, a, b)
		}
	}
	// A file that leaves features out gets a warning from predict and eval.
	sparse := filepath.Join(dir, "sparse.txt")
	os.WriteFile(sparse, []byte("1 qid:1 1:0.5 46:1\n0 qid:1 2:0.5 46:0\n"), 0o644)
	for _, cmd := range []string{"predict", "eval"} {
		code, _, errOut = runCLI(t, cmd, "--model", out, "--data", sparse)
		if code != 0 || !strings.Contains(errOut, "warning: "+sparse+" leaves 88 feature values out of its lines, which cronus reads as 0 and XGBoost as missing") {
			t.Errorf("%s on a sparse file: exit %d %q", cmd, code, errOut)
		}
	}
	// So does a file whose features stop before the model's: no line
	// gives features 41-46 (review 2026-11-29: the warning counted only
	// the values lines leave out among the file's own features).
	short := filepath.Join(dir, "short.txt")
	var line strings.Builder
	for f := 1; f <= 40; f++ {
		fmt.Fprintf(&line, " %d:0.5", f)
	}
	os.WriteFile(short, []byte("1 qid:1"+line.String()+"\n0 qid:1"+line.String()+"\n"), 0o644)
	for _, cmd := range []string{"predict", "eval"} {
		code, _, errOut = runCLI(t, cmd, "--model", out, "--data", short)
		if code != 0 || !strings.Contains(errOut, "warning: "+short+" leaves 12 feature values out of its lines, which cronus reads as 0 and XGBoost as missing") {
			t.Errorf("%s on a file of 40 features: exit %d %q", cmd, code, errOut)
		}
	}
	code, _, errOut = runCLI(t, "predict", "--model", out, "--data", short, "--absent", "missing")
	if code != 0 || strings.Contains(errOut, "XGBoost as missing") {
		t.Errorf("predict --absent missing on a file of 40 features: exit %d %q", code, errOut)
	}
	// --absent missing: no warning.
	code, _, errOut = runCLI(t, "predict", "--model", out, "--data", sparse, "--absent", "missing")
	if code != 0 || errOut != "" {
		t.Errorf("predict --absent missing on a sparse file: exit %d %q", code, errOut)
	}
	// A model that stopped early: a note on --trees.
	early := filepath.Join(dir, "early.json")
	os.WriteFile(early, []byte(strings.Replace(readFile(t, model), `"best_iteration":"3"`, `"best_iteration":"1"`, 1)), 0o644)
	code, _, errOut = runCLI(t, "import", "--from", "xgboost", "--libsvm-indices", early, "--out", out)
	if code != 0 || !strings.Contains(errOut, "note: training stopped early at best_iteration 1; like XGBoost's Booster.predict, cronus uses all 4 trees (--trees 2 stops") {
		t.Errorf("early stop: exit %d %q", code, errOut)
	}
}

// A model trained by cronus read left-out features as 0, and learnt no
// direction for a missing value: --absent missing on a file that leaves
// some out gets a warning from predict and eval, and the default reading
// none.
func TestAbsentMissingCronusModel(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--objective", "regression", "--trees", "5", "--out", model); code != 0 {
		t.Fatalf("train: exit %d %q", code, errOut)
	}
	sparse := filepath.Join(dir, "sparse.txt")
	os.WriteFile(sparse, []byte("1 qid:1 1:0.5 46:1\n0 qid:1 2:0.5 46:0\n"), 0o644)
	for _, cmd := range []string{"predict", "eval"} {
		code, _, errOut := runCLI(t, cmd, "--model", model, "--data", sparse, "--absent", "missing")
		if code != 0 || !strings.Contains(errOut, "warning: "+sparse+" leaves 88 feature values out of its lines, which --absent missing reads as missing; this model was trained by cronus, reading them as 0,") ||
			!strings.Contains(errOut, "leave out --absent missing") {
			t.Errorf("%s --absent missing: exit %d %q", cmd, code, errOut)
		}
		if code, _, errOut := runCLI(t, cmd, "--model", model, "--data", sparse); code != 0 || strings.Contains(errOut, "warning") {
			t.Errorf("%s: exit %d %q", cmd, code, errOut)
		}
	}
}

// The absent warnings count only the values a file leaves out of features
// the model splits on: a file that gives every one of them on every line
// scores alike however its left-out values are read, and got a warning
// that its scores may differ from XGBoost's (or from what a cascade was
// made to give) when a line had a stray feature past the model's, or left
// out one the model never splits on (a helper's review of missing values).
func TestAbsentWarningOnlyForSplitFeatures(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "x.json")
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "--libsvm-indices", "engine/tree/testdata/xgb-libsvm.json", "--out", model); code != 0 {
		t.Fatalf("import: exit %d %q", code, errOut)
	}
	trained := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--objective", "regression", "--trees", "5", "--out", trained); code != 0 {
		t.Fatalf("train: exit %d %q", code, errOut)
	}
	// A feature neither model splits on, from inspect's list of them all.
	unused := 0
	for f := 46; f >= 1 && unused == 0; f-- {
		unused = f
		for _, m := range []string{model, trained} {
			_, stdout, _ := runCLI(t, "inspect", m, "--json")
			var info struct {
				Features []struct{ Feature, Splits int }
			}
			if err := json.Unmarshal([]byte(stdout), &info); err != nil {
				t.Fatal(err, stdout)
			}
			for _, x := range info.Features {
				if x.Feature == f && x.Splits > 0 {
					unused = 0
				}
			}
		}
	}
	if unused == 0 {
		t.Fatal("every feature is split on")
	}
	line := func(skip int) string {
		var b strings.Builder
		for f := 1; f <= 46; f++ {
			if f != skip {
				fmt.Fprintf(&b, " %d:0.5", f)
			}
		}
		return b.String()
	}
	stray := filepath.Join(dir, "stray.txt")
	os.WriteFile(stray, []byte("1 qid:1"+line(0)+" 60:1\n0 qid:1"+line(0)+"\n"), 0o644)
	skips := filepath.Join(dir, "skips.txt")
	os.WriteFile(skips, []byte("1 qid:1"+line(unused)+"\n0 qid:1"+line(0)+"\n"), 0o644)
	cascade := filepath.Join(dir, "c.json")
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "2", "--out", cascade); code != 0 {
		t.Fatalf("cascade: exit %d %q", code, errOut)
	}
	for _, data := range []string{stray, skips} {
		for _, args := range [][]string{
			{"predict", "--model", model},
			{"eval", "--model", model},
			{"predict", "--model", trained, "--absent", "missing"},
			{"eval", "--model", trained, "--absent", "missing"},
			{"inspect", trained, "--absent", "missing"},
			{"predict", "--cascade", cascade, "--absent", "missing"},
			{"eval", "--cascade", cascade, "--absent", "missing"},
		} {
			code, _, errOut := runCLI(t, append(args, "--data", data)...)
			if code != 0 || strings.Contains(errOut, "feature values out of its lines") {
				t.Errorf("%s on %s: exit %d %q", strings.Join(args, " "), filepath.Base(data), code, errOut)
			}
		}
	}
	// Leaving out a feature the model splits on is still warned of.
	used := filepath.Join(dir, "used.txt")
	os.WriteFile(used, []byte("1 qid:1 1:0.5\n0 qid:1"+line(0)+"\n"), 0o644)
	code, _, errOut := runCLI(t, "predict", "--model", model, "--data", used)
	if code != 0 || !strings.Contains(errOut, "warning: "+used+" leaves 45 feature values out of its lines, which cronus reads as 0 and XGBoost as missing") {
		t.Errorf("predict on a line of one feature: exit %d %q", code, errOut)
	}
}

// --min-gain reaches the grower (a gain no split reaches leaves every
// tree a single leaf) and is recorded in the model's params when set.
func TestTrainMinGain(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args   []string
		splits bool
	}{
		{nil, true},
		{[]string{"--min-gain", "1e12"}, false},
	} {
		out := filepath.Join(dir, "m.json")
		args := append([]string{"train", "--train", "builtin:mq2008/train", "--objective", "regression", "--trees", "3", "--out", out}, c.args...)
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d %q", c.args, code, errOut)
		}
		m, err := tree.ReadModel(out)
		if err != nil {
			t.Fatal(err)
		}
		for i, tr := range m.Trees {
			if (len(tr.Split) > 0) != c.splits {
				t.Errorf("%v: tree %d has %d splits", c.args, i, len(tr.Split))
			}
		}
		if g, ok := m.Params["min_gain"]; ok != (c.args != nil) || ok && g != 1e12 {
			t.Errorf("%v: params min_gain %v (%v)", c.args, g, ok)
		}
	}
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--min-gain", "-1", "--out", filepath.Join(dir, "x.json")); code != 2 || !strings.Contains(errOut, "--min-gain: must be a finite number at least 0, got -1") {
		t.Errorf("--min-gain -1: exit %d %q", code, errOut)
	}
}

func TestModelCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("0.5\nx\n"), 0o644)
	goSyntax := filepath.Join(dir, "go.txt") // scores in Go's syntax, which ParseFloat takes, as data files do not
	os.WriteFile(goSyntax, []byte("0.5\n1_0\n"), 0o644)
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"train", "--train", "builtin:mq2008/train"}, 2, "--out FILE is required"},
		{[]string{"train", "--out", "m.json"}, 2, "--train FILE is required"},
		{[]string{"train", "--train", "builtin:mq2008/train", "--objective", "ranknet", "--out", "m.json"}, 2, `--objective: must be regression, binary or lambdarank, got "ranknet"`},
		{[]string{"train", "--train", "builtin:mq2008/train", "--metric", "ndcg@0", "--out", "m.json"}, 2, `--metric: metric "ndcg@0": cut-off "0" is not a positive whole number`},
		{[]string{"train", "--train", "builtin:mq2008/train", "--metric", "dcg@10", "--out", "m.json"}, 2, `--metric: metric "dcg@10": unknown metric (want ndcg, err, p, recall, rr, rbp or map, e.g. ndcg@10)`},
		{[]string{"eval", "--scores", bad, "--data", "builtin:mq2008/test", "--metrics", "p@5,dcg@10"}, 2, `--metrics: metric "dcg@10": unknown metric (want ndcg, err, p, recall, rr, rbp or map, e.g. ndcg@10)`},
		{[]string{"eval", "--scores", bad, "--data", "builtin:mq2008/test", "--metrics", " "}, 2, `--metrics: metric list is empty`},
		// LambdaMART's flags where they would be ignored (accepted before).
		{[]string{"train", "--train", "builtin:mq2008/train", "--objective", "regression", "--sigma", "2", "--out", filepath.Join(dir, "m.json")}, 2, "--sigma and --objective regression conflict: --sigma applies to --objective lambdarank only"},
		{[]string{"train", "--train", "builtin:mq2008/train", "--truncation", "10", "--objective", "binary", "--out", filepath.Join(dir, "m.json")}, 2, "--truncation and --objective binary conflict"},
		{[]string{"train", "--train", "builtin:mq2008/train", "--objective", "regression", "--pair-sample", "0", "--out", filepath.Join(dir, "m.json")}, 2, "--pair-sample and --objective regression conflict"},
		{[]string{"train", "--train", "builtin:mq2008/train", "--pair-sample", "1", "--truncation", "10", "--out", filepath.Join(dir, "m.json")}, 2, "--truncation and --pair-sample 1 conflict"},
		{[]string{"train", "--train", "builtin:mq2008/train", "--sigma", "2", "--pair-sample", "3", "--out", filepath.Join(dir, "m.json")}, 2, "--sigma and --pair-sample 3 conflict"},
		{[]string{"train", "--train", "builtin:mq2008/train", "--objective", "binary", "--lambda-norm=false", "--out", filepath.Join(dir, "m.json")}, 2, "--lambda-norm and --objective binary conflict: --lambda-norm applies to --objective lambdarank only"},
		{[]string{"train", "--train", "builtin:mq2008/train", "--lambda-norm=false", "--pair-sample", "1", "--out", filepath.Join(dir, "m.json")}, 2, "--lambda-norm and --pair-sample 1 conflict: sampled pairs take partners from the whole list with σ = 1 and no λ normalisation"},
		// Alone, or with the defaults, they are no contradiction: these pass
		// the checks and fail on the missing training file.
		{[]string{"train", "--train", bad + ".none", "--objective", "regression", "--out", filepath.Join(dir, "m.json")}, 1, bad + ".none"},
		{[]string{"train", "--train", bad + ".none", "--pair-sample", "1", "--out", filepath.Join(dir, "m.json")}, 1, bad + ".none"},
		{[]string{"train", "--train", bad + ".none", "--pair-sample", "0", "--truncation", "10", "--sigma", "2", "--lambda-norm=false", "--out", filepath.Join(dir, "m.json")}, 1, bad + ".none"},
		{[]string{"eval", "--data", "builtin:mq2008/test"}, 2, "exactly one of --model FILE, --scores FILE and --cascade FILE"},
		{[]string{"eval", "--scores", bad, "--data", "builtin:mq2008/test"}, 1, bad + `:2: score "x" is not a number`},
		{[]string{"eval", "--scores", goSyntax, "--data", "builtin:mq2008/test"}, 1, goSyntax + `:2: score "1_0" is not a number`},
		// A model or cascade given for scores is named as such (it was
		// `score "{" is not a number`).
		{[]string{"eval", "--scores", "engine/tree/testdata/xgb-libsvm.json", "--data", "builtin:mq2008/test"}, 1, "engine/tree/testdata/xgb-libsvm.json:1: a JSON file (a model or a cascade?), not scores"},
		// So was --relevant with metrics that read the graded labels alone.
		{[]string{"eval", "--scores", bad, "--data", "builtin:mq2008/test", "--metrics", "ndcg@10,err@3", "--relevant", "2"}, 2, "--relevant applies to p@k, map, rr, recall and rbp"},
		{[]string{"eval", "--scores", bad, "--data", "builtin:mq2008/test", "--metrics", "ndcg@10,map", "--relevant", "2"}, 1, bad + `:2: score "x" is not a number`},
		// A run tag without a run was ignored; the tag is only --run's.
		{[]string{"eval", "--scores", bad, "--data", "builtin:mq2008/test", "--tag", "mine"}, 2, "--tag applies to --run only"},
		{[]string{"eval", "--scores", bad, "--data", "builtin:mq2008/test", "--tag", "mine", "--run", filepath.Join(dir, "r.txt")}, 1, bad + `:2: score "x" is not a number`},
		{[]string{"predict", "--model", bad, "--data", "builtin:mq2008/test"}, 1, bad},
		{[]string{"predict", "--model", bad, "--data", "builtin:mq2008/test", "--trees", "-1"}, 2, `--trees: must be a number of trees >= 0, or all, got "-1"`},
		{[]string{"predict", "--model", bad, "--data", "builtin:mq2008/test", "--json", "--out", "-"}, 2, "--json prints the report on standard output"},
		{[]string{"import", "--from", "catboost", "m.txt", "--out", "x.json"}, 2, `--from: must be lightgbm, xgboost or ranklib, got "catboost"`},
		{[]string{"import", "m.txt", "--out", "x.json"}, 2, "--from FORMAT is required: lightgbm, xgboost or ranklib"},
		{[]string{"import", "--from", "ranklib", "--libsvm-indices", "m.txt", "--out", "x.json"}, 2, "--libsvm-indices applies to --from xgboost only"},
		{[]string{"import", "--from", "ranklib", bad, "--out", filepath.Join(dir, "x.json")}, 1, bad + ":1: not a RankLib model"},
		{[]string{"import", "--from", "xgboost", bad, "--out", filepath.Join(dir, "x.json")}, 1, bad},
		{[]string{"import", "--from", "lightgbm", "--libsvm-indices", "m.txt", "--out", "x.json"}, 2, "--libsvm-indices applies to --from xgboost only"},
		// Given false, a flag of another format was taken and ignored.
		{[]string{"import", "--from", "lightgbm", "--libsvm-indices=false", "m.txt", "--out", "x.json"}, 2, "--libsvm-indices applies to --from xgboost only"},
		{[]string{"import", "--from", "xgboost", "--zero-based=false", "m.txt", "--out", "x.json"}, 2, "--zero-based applies to --from lightgbm only"},
		{[]string{"import", "--from", "ranklib", "--by-name=false", "m.txt", "--out", "x.json"}, 2, "--by-name applies to --from xgboost and lightgbm"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.err) {
			t.Errorf("cronus %v: exit %d, stderr %q; want exit %d with %q", c.args, code, errOut, c.code, c.err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); !os.IsNotExist(err) {
		t.Error("a failed import left a file behind")
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Inputs and outputs are checked before any work: an output over an input
// (a model written over the training data), two outputs on one file, a
// missing directory; flag values out of range; bad scores files.
func TestCommandInputChecks(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", model); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	dataF := filepath.Join(dir, "d.txt")
	// a link to a file in a directory that does not exist: the check
	// looked at the link's own directory and let the training run
	os.Symlink(filepath.Join(dir, "none", "m.json"), filepath.Join(dir, "dangling.json"))
	// links that go round: the rename replaced one of them with the model
	os.Symlink("loopb", filepath.Join(dir, "loopa"))
	os.Symlink("loopa", filepath.Join(dir, "loopb"))
	// a link to the directory itself: here/x is x, which neither exists
	os.Symlink(".", filepath.Join(dir, "here"))
	os.WriteFile(dataF, []byte("1 qid:1 1:0.5\n0 qid:1 1:0.1\n"), 0o644)
	scores := filepath.Join(dir, "s.txt")
	os.WriteFile(scores, []byte("0.5\n1\nNaN\n"), 0o644)
	blank := filepath.Join(dir, "blank.txt")
	os.WriteFile(blank, []byte("0.5\n\n1\n"), 0o644)
	zeros, zeroScores := filepath.Join(dir, "zeros.txt"), filepath.Join(dir, "zeros.scores")
	os.WriteFile(zeros, []byte("0 qid:1 1:0.5\n-1 qid:1 1:0.1\n"), 0o644)
	os.WriteFile(zeroScores, []byte("1\n2\n"), 0o644)
	test := "builtin:mq2008/test"
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"train", "--train", dataF, "--out", dataF}, 2, dataF + " is both an input and an output"},
		{[]string{"train", "--train", dataF, "--early-stop", "10", "--out", filepath.Join(dir, "es.json")}, 2, "--early-stop 10 needs --valid FILE"}, // was accepted and ignored
		{[]string{"tui", "--absent", "missing"}, 2, "--absent missing needs --model"},
		{[]string{"train", "--train", test, "--out", filepath.Join(dir, "none", "m.json")}, 1, "the directory " + filepath.Join(dir, "none") + " does not exist"},
		{[]string{"gen", "--queries", "2", "--docs-per-query", "3", "--out", dir}, 1, dir + " is a directory"},
		{[]string{"train", "--train", test, "--out", filepath.Join(dataF, "m.json")}, 1, dataF + " is a file, not a directory"}, // "does not exist"
		{[]string{"train", "--train", test, "--out", filepath.Join(dir, "dangling.json")}, 1, "the directory " + filepath.Join(dir, "none") + " does not exist"},
		{[]string{"train", "--train", test, "--out", filepath.Join(dir, "loopa")}, 1, "cannot write " + filepath.Join(dir, "loopa") + ": its symbolic links go round"},
		// a descriptor not open: it failed when written, after the training
		{[]string{"train", "--train", test, "--out", "/dev/fd/1000"}, 1, "cannot write /dev/fd/1000: descriptor 1000 is not open"},
		{[]string{"eval", "--model", model, "--data", test, "--run", "-", "--per-query", "/dev/stdout"}, 2, "is given as two outputs"},
		{[]string{"eval", "--model", model, "--data", test, "--run", "/dev/null", "--per-query", "/dev/null"}, 0, ""}, // a device takes both (was refused); the figures go to standard output
		{[]string{"import", "--from", "xgboost", model, "--out", model}, 2, "is both an input and an output"},
		{[]string{"predict", "--model", model, "--data", test, "--trees", "4"}, 2, "--trees 4: the model " + model + " has 3 trees"},
		{[]string{"eval", "--model", model, "--data", test, "--run", model}, 2, model + " is both an input and an output"},
		{[]string{"eval", "--model", model, "--data", test, "--run", filepath.Join(dir, "x"), "--per-query", filepath.Join(dir, "x")}, 2, "is given as two outputs"},
		{[]string{"sweep", "--model", "m", "--train", "t", "--valid", "v", "--costs", "c", "--out", filepath.Join(dir, "c.svg"), "--plot", filepath.Join(dir, "c.svg")}, 2, "is given as two outputs"},
		// the same new file through a link to its directory: both passed,
		// and the second output was renamed over the first
		{[]string{"eval", "--model", model, "--data", test, "--run", filepath.Join(dir, "x"), "--per-query", filepath.Join(dir, "here", "x")}, 2, "is given as two outputs"},
		{[]string{"sweep", "--model", "m", "--train", "t", "--valid", "v", "--costs", "c", "--out", filepath.Join(dir, "here", "c.svg"), "--plot", filepath.Join(dir, "c.svg")}, 2, "is given as two outputs"},
		{[]string{"eval", "--model", model, "--data", test, "--relevant", "-1"}, 2, "--relevant: must be a finite number greater than 0, got -1"}, // panicked
		{[]string{"eval", "--model", model, "--data", test, "--relevant", "0"}, 2, "--relevant: must be a finite number greater than 0, got 0"},   // was taken as 1
		{[]string{"eval", "--model", model, "--data", test, "--tree-cost", "NaN"}, 2, "--tree-cost: must be in [0, 1e+15], got NaN"},
		{[]string{"eval", "--model", model, "--data", test, "--tree-cost", "1e308", "--json"}, 2, "--tree-cost: must be in [0, 1e+15], got 1e+308"}, // an infinite cost: no JSON, exit 1
		{[]string{"eval", "--model", model, "--data", test, "--tag", "a b", "--run", filepath.Join(dir, "r")}, 2, `--tag "a b": a TREC run tag is one word`},
		{[]string{"eval", "--model", model, "--data", test, "--tag", "a\vb", "--run", filepath.Join(dir, "r")}, 2, `--tag "a\vb": a TREC run tag is one word`},
		{[]string{"eval", "--model", model, "--data", test, "--tag", "a\u00a0b", "--run", filepath.Join(dir, "r")}, 2, `--tag "a\u00a0b": a TREC run tag is one word`},
		{[]string{"eval", "--cascade", "c.json", "--data", test, "--trees", "5"}, 2, "--trees applies to --model only"},
		{[]string{"eval", "--scores", scores, "--data", test}, 1, scores + `:3: score "NaN" is not a finite number`},
		{[]string{"eval", "--scores", blank, "--data", test}, 1, blank + ":2: blank line"},
		{[]string{"eval", "--scores", blank, "--data", test, "--costs", "builtin:mq2008/costs"}, 2, "--costs applies to --model and --cascade"}, // was accepted and ignored: scores have no cost
		{[]string{"eval", "--model", model, "--data", test, "--metrics", "map", "--relevant", "5", "--exclude-no-relevant"}, 1, "map: no query has a label >= 5 (--relevant), and --exclude-no-relevant leaves none to average"},
		// Every metric without a query: an error, naming the first.
		{[]string{"eval", "--model", model, "--data", test, "--metrics", "p@5,map", "--relevant", "5", "--exclude-no-relevant"}, 1, test + ": every metric asked for is n/a: no query has a relevant document (p@5, map: a label >= 5 (--relevant)), and --exclude-no-relevant leaves none to average"},
		{[]string{"eval", "--scores", zeroScores, "--data", zeros, "--metrics", "err@3", "--exclude-no-relevant"}, 1, zeros + ": err@3: no query has a label > 0, and"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.err) {
			t.Errorf("cronus %v: exit %d, stderr %q; want exit %d with %q", c.args, code, errOut, c.code, c.err)
		}
	}
	if b, _ := os.ReadFile(dataF); !strings.HasPrefix(string(b), "1 qid:1") {
		t.Errorf("the training data was overwritten: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "es.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("train --early-stop without --valid wrote a model (stat: %v)", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "loopa")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link loopa was replaced (%v, %v)", fi.Mode(), err)
	}
}

// importSparse imports into dir the XGBoost model trained on MQ2008 with
// its zeros left out (missing), and names the sparse test file it scores.
func importSparse(t *testing.T, dir string) (model, data string) {
	t.Helper()
	model = filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "engine/tree/testdata/xgb-sparse.json", "--out", model); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	return model, "engine/tree/testdata/mq2008-test-sparse.txt.gz"
}

// TestPredictAbsentMissing scores a sparse file (MQ2008 test with its zeros
// left out) with a model XGBoost trained on such data: --absent missing
// gives XGBoost's own predictions, and the default, reading 0, does not.
func TestPredictAbsentMissing(t *testing.T) {
	dir := t.TempDir()
	model, data := importSparse(t, dir)
	var want []float64
	for _, f := range strings.Fields(readFile(t, "engine/tree/testdata/xgb-sparse.pred.txt")) {
		v, _ := strconv.ParseFloat(f, 64)
		want = append(want, v)
	}
	far := func(args ...string) (n int, errOut string) {
		code, stdout, errOut := runCLI(t, append([]string{"predict", "--model", model, "--data", data}, args...)...)
		got := strings.Fields(stdout)
		if code != 0 || len(got) != len(want) {
			t.Fatalf("predict %v: exit %d, %d scores for %d: %s", args, code, len(got), len(want), errOut)
		}
		for i, g := range got {
			v, _ := strconv.ParseFloat(g, 64)
			if math.Abs(v-want[i]) > 1e-5 {
				n++
			}
		}
		return n, errOut
	}
	if n, errOut := far("--absent", "missing"); n != 0 || errOut != "" {
		t.Errorf("--absent missing: %d of %d scores differ from XGBoost's (%q)", n, len(want), errOut)
	}
	if n, errOut := far(); n == 0 || !strings.Contains(errOut, "--absent missing reads them as XGBoost does") {
		t.Errorf("reading 0: %d of %d scores differ from XGBoost's, warning %q", n, len(want), errOut)
	}
	// eval reads the same way; --scores reads no features.
	_, outJ, _ := runCLI(t, "eval", "--model", model, "--data", data, "--absent", "missing", "--json")
	if !strings.Contains(outJ, `"ndcg@10"`) {
		t.Errorf("eval --absent missing: %s", outJ)
	}
	scores := filepath.Join(dir, "s.txt")
	os.WriteFile(scores, []byte(readFile(t, "engine/tree/testdata/xgb-sparse.pred.txt")), 0o644)
	if code, _, errOut := runCLI(t, "eval", "--scores", scores, "--data", data, "--absent", "missing"); code != 2 ||
		!strings.Contains(errOut, "--absent applies to --model and --cascade") {
		t.Errorf("eval --scores --absent: exit %d %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "predict", "--model", model, "--data", data, "--absent", "nan"); code != 2 ||
		!strings.Contains(errOut, `--absent: must be zero or missing, got "nan"`) {
		t.Errorf("--absent nan: exit %d %q", code, errOut)
	}
}

// TestTrainEarlyStopReport: after early stopping, train --json's
// train_metric is the metric of the model it wrote (best_trees trees), as
// eval measures that model on the training data, not the metric after the
// last tree built before stopping.
func TestTrainEarlyStopReport(t *testing.T) {
	m := filepath.Join(t.TempDir(), "es.json")
	r, out := trainJSON(t, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--objective", "lambdarank", "--trees", "200", "--early-stop", "10", "--out", m)
	if r.Trees != r.BestTrees || r.Trees >= 200 {
		t.Fatalf("train report %q: want an early stop", out)
	}
	// It says where training stopped, as the text report does: 10 trees
	// past the best.
	if r.StoppedAt == nil || *r.StoppedAt != r.BestTrees+10 {
		t.Errorf("train report %q: want stopped_at %d", out, r.BestTrees+10)
	}
	_, outE, errOut := runCLI(t, "eval", "--model", m, "--data", "builtin:mq2008/train", "--metrics", "ndcg@10", "--json")
	var e struct{ Metrics map[string]float64 }
	if err := json.Unmarshal([]byte(outE), &e); err != nil {
		t.Fatalf("eval: %v %s", err, errOut)
	}
	if want := e.Metrics["ndcg@10"]; math.Abs(r.TrainMetric-want) > 1e-12 {
		t.Errorf("train_metric %v, but the written %d-tree model scores %v on the training data", r.TrainMetric, r.Trees, want)
	}
	// --trees ran out first: no stopped_at.
	if r, out := trainJSON(t, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--objective", "lambdarank", "--trees", "3", "--early-stop", "10", "--out", m); r.StoppedAt != nil {
		t.Errorf("train report %q: stopped_at, but training did not stop early", out)
	}
}

// trainReport is what train --json prints.
type trainReport struct {
	Trees       int     `json:"trees"`
	ValidMetric float64 `json:"valid_metric"`
	BestTrees   int     `json:"best_trees"`
	TrainMetric float64 `json:"train_metric"`
	StoppedAt   *int    `json:"stopped_at"`
}

// trainJSON runs train --json with args and returns its report and output.
func trainJSON(t *testing.T, args ...string) (trainReport, string) {
	t.Helper()
	code, out, errOut := runCLI(t, append(append([]string{"train"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	var r trainReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("train report %q: %v", out, err)
	}
	return r, out
}

// TestFeaturelessData: a data file in which no line has a feature (a cost
// file given as data) is refused by every command that reads features,
// naming the file; eval --scores, which needs only labels and qids, takes it.
func TestFeaturelessData(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	labels := filepath.Join(dir, "labels.txt")
	os.WriteFile(labels, []byte("1 qid:1 # a\n0 qid:1 # b\n"), 0o644)
	const costs = "builtin:mq2008/costs"
	const why = ": no line has a feature (IDX:VAL)"
	cases := []struct {
		file string
		args []string
	}{
		{costs, []string{"train", "--train", "builtin:mq2008/train", "--valid", costs, "--trees", "2", "--out", model}}, // was one query of 46 documents, exit 0
		{labels, []string{"train", "--train", labels, "--trees", "2", "--out", model}},
		{costs, []string{"inspect", costs}},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, c.args...)
		if code != 1 || !strings.Contains(errOut, c.file+why) {
			t.Errorf("cronus %v: exit %d, stderr %q; want 1 with %q", c.args, code, errOut, c.file+why)
		}
	}
	if _, err := os.Stat(model); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a model was written (stat: %v)", err)
	}
	// eval --scores: the relevant document ranked second, NDCG@10 = 1/log2(3).
	scores := filepath.Join(dir, "s.txt")
	os.WriteFile(scores, []byte("0.1\n0.5\n"), 0o644)
	code, out, errOut := runCLI(t, "eval", "--scores", scores, "--data", labels, "--metrics", "ndcg@10", "--json")
	if code != 0 {
		t.Fatalf("eval --scores on labels only: exit %d: %s", code, errOut)
	}
	var r struct{ Metrics map[string]float64 }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if got, want := r.Metrics["ndcg@10"], 1/math.Log2(3); math.Abs(got-want) > 1e-12 {
		t.Errorf("ndcg@10 %g, want %g", got, want)
	}
	// A model reads features: the same file is refused.
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "2", "--out", model); code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	code, _, errOut = runCLI(t, "eval", "--model", model, "--data", labels)
	if code != 1 || !strings.Contains(errOut, labels+why) {
		t.Errorf("eval --model on labels only: exit %d, stderr %q", code, errOut)
	}
}

// TestUnreadableInputs: a missing file or a directory given as an input is
// named with the reason in plain words, not in Go's ("stat F: no such file
// or directory", "read D: is a directory", and for a cost file
// "D:1: cannot read the line: read D: is a directory").
func TestUnreadableInputs(t *testing.T) {
	dir := t.TempDir()
	none := filepath.Join(dir, "none.txt")
	test := "builtin:mq2008/test"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"inspect", none}, none + ": no such file"},
		{[]string{"inspect", dir}, dir + ": is a directory, expected an SVMlight/LETOR file"},
		{[]string{"inspect", test, "--costs", dir}, dir + ": is a directory, expected a cost file"},
		{[]string{"inspect", test, "--costs", none}, none + ": no such file"},
		{[]string{"predict", "--model", dir, "--data", test}, dir + ": is a directory, expected a model file"},
		{[]string{"eval", "--model", none, "--data", test}, none + ": no such file"},
		{[]string{"eval", "--scores", dir, "--data", test}, dir + ": is a directory, expected a file of scores, one per line"},
		{[]string{"eval", "--cascade", dir, "--data", test}, dir + ": is a directory, expected a cascade file"},
		{[]string{"import", "--from", "lightgbm", dir, "--out", filepath.Join(dir, "m.json")}, dir + ": is a directory, expected a LightGBM text model"},
		{[]string{"import", "--from", "xgboost", none, "--out", filepath.Join(dir, "m.json")}, none + ": no such file"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, c.args...)
		if want := "cronus " + c.args[0] + ": " + c.want + "\n"; code != 1 || errOut != want {
			t.Errorf("cronus %v: exit %d, stderr %q; want 1 with %q", c.args, code, errOut, want)
		}
	}
}

// TestTrainRecordsUsedParams: a lambdarank model records the pair-handling
// parameters its gradients used. Sampled pairs take partners from the whole
// list with σ = 1, so such a model records no truncation level and σ 1,
// whatever the defaults; all-pairs models record both, and lambda_norm
// false when --lambda-norm=false turned the normalisation off (a model
// with it on, the default, is as before the flag). The trees follow the
// gradients: without normalisation they are others.
func TestTrainRecordsUsedParams(t *testing.T) {
	dir := t.TempDir()
	trees := map[string]string{}
	for _, c := range []struct {
		args  []string
		trunc any
		sigma float64
		pairs float64
		norm  any
	}{
		{[]string{"--pair-sample", "2"}, nil, 1, 2, nil},
		{[]string{"--truncation", "10", "--sigma", "2"}, 10.0, 2, 0, nil},
		{nil, 30.0, 1, 0, nil},
		{[]string{"--lambda-norm=true"}, 30.0, 1, 0, nil},
		{[]string{"--lambda-norm=false"}, 30.0, 1, 0, false},
	} {
		m := filepath.Join(dir, "m.json")
		args := append([]string{"train", "--train", "builtin:mq2008/vali", "--objective", "lambdarank", "--trees", "2", "--out", m}, c.args...)
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: %s", c.args, errOut)
		}
		var f struct {
			Params map[string]any
			Trees  json.RawMessage
		}
		if err := json.Unmarshal([]byte(readFile(t, m)), &f); err != nil {
			t.Fatal(err)
		}
		if f.Params["truncation"] != c.trunc || f.Params["sigma"] != c.sigma || f.Params["pair_sample"] != c.pairs || f.Params["lambda_norm"] != c.norm {
			t.Errorf("%v: params truncation %v sigma %v pair_sample %v lambda_norm %v, want %v %v %v %v", c.args,
				f.Params["truncation"], f.Params["sigma"], f.Params["pair_sample"], f.Params["lambda_norm"], c.trunc, c.sigma, c.pairs, c.norm)
		}
		trees[strings.Join(c.args, " ")] = string(f.Trees)
	}
	if trees[""] != trees["--lambda-norm=true"] || trees[""] == trees["--lambda-norm=false"] {
		t.Errorf("the trees of --lambda-norm=true and false against the default's: the same %v and %v, want true and false",
			trees[""] == trees["--lambda-norm=true"], trees[""] == trees["--lambda-norm=false"])
	}
}

// gzipFile writes the gzip compression of the file src to dst.
func gzipFile(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.WriteFile(dst, gzipBytes(t, []byte(readFile(t, src))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gzipBytes is the gzip compression of b.
func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGzippedModelFiles: model, cascade and imported files read plain or
// gzip-compressed, as data and cost files do (by content, not name); a
// broken gzip stream is an error naming the file.
func TestGzippedModelFiles(t *testing.T) {
	dir := t.TempDir()
	test := "builtin:mq2008/test"
	lgb := filepath.Join(dir, "lgb.txt.gz")
	gzipFile(t, "engine/tree/testdata/lgb-lambdarank.model.txt", lgb)
	model := filepath.Join(dir, "lgb.json")
	if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", lgb, "--out", model); code != 0 {
		t.Fatalf("import of a gzipped LightGBM model: %s", errOut)
	}
	// The model's .gz name does not matter: only its content.
	modelGz := filepath.Join(dir, "lgb.model")
	gzipFile(t, model, modelGz)
	scores := filepath.Join(dir, "s.txt")
	if code, _, errOut := runCLI(t, "predict", "--model", modelGz, "--data", test, "--out", scores); code != 0 {
		t.Fatalf("predict --model gzipped: %s", errOut)
	}
	sameScores(t, scores, "engine/tree/testdata/lgb-lambdarank.pred.txt", "LightGBM")

	shallow := trainShallow(t, dir, 8)
	c := filepath.Join(dir, "c.json")
	if code, _, errOut := runCLI(t, "cascade", "--model", shallow, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--rhos", "0.02", "--out", c); code != 0 {
		t.Fatalf("cascade: %s", errOut)
	}
	cGz := c + ".gz"
	gzipFile(t, c, cGz)
	// eval --cascade says the same of both, timings apart.
	var plain, gz map[string]any
	runJSON(t, &plain, "eval", "--cascade", c, "--data", test, "--json")
	runJSON(t, &gz, "eval", "--cascade", cGz, "--data", test, "--json")
	delete(plain, "predict_seconds")
	delete(gz, "predict_seconds")
	if len(plain) < 5 || !reflect.DeepEqual(plain, gz) {
		t.Errorf("eval --cascade of the gzipped file: %v; of the plain one: %v", gz, plain)
	}

	// A truncated stream, a bad header.
	raw, _ := os.ReadFile(modelGz)
	trunc := filepath.Join(dir, "trunc.json.gz")
	os.WriteFile(trunc, raw[:len(raw)/2], 0o644)
	bad := filepath.Join(dir, "bad.json.gz")
	os.WriteFile(bad, []byte{0x1f, 0x8b, 0, 0, 0, 0, 0, 0, 0, 0xff, 0}, 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--model", trunc, "--data", test}, trunc + ": gzip stream is truncated (unexpected end of data)"},
		{[]string{"eval", "--cascade", trunc, "--data", test}, trunc + ": gzip stream is truncated (unexpected end of data)"},
		{[]string{"import", "--from", "xgboost", trunc, "--out", filepath.Join(dir, "x.json")}, trunc + ": gzip stream is truncated (unexpected end of data)"},
		{[]string{"predict", "--model", bad, "--data", test}, bad + ": corrupt gzip header: gzip: invalid header"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if want := "cronus " + tc.args[0] + ": " + tc.want + "\n"; code != 1 || errOut != want {
			t.Errorf("cronus %v: exit %d, stderr %q; want 1 with %q", tc.args, code, errOut, want)
		}
	}
}

// TestImportCronusFile: a Cronus model or cascade given to import is named
// for what it is, whatever --from says, not parsed as the other library's
// format ("version: expected an array of integers").
func TestImportCronusFile(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", "engine/tree/testdata/lgb-lambdarank.model.txt", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	cascade := filepath.Join(dir, "c.json")
	os.WriteFile(cascade, []byte(`{"format": "`+cronus.FileFormat+`", "version": 1, "stages": []}`), 0o644)
	out := filepath.Join(dir, "out.json")
	for _, from := range []string{"xgboost", "lightgbm", "ranklib"} {
		for _, tc := range []struct{ in, want string }{
			{model, model + `: a Cronus model (format "cronus-ensemble"), not one to import: give it to --model as it is`},
			{cascade, cascade + `: a Cronus cascade (format "cronus-cascade"), not a model to import: give it to --cascade (cronus predict, eval) as it is`},
		} {
			code, _, errOut := runCLI(t, "import", "--from", from, tc.in, "--out", out)
			if want := "cronus import: " + tc.want + "\n"; code != 1 || errOut != want {
				t.Errorf("import --from %s %s: exit %d, stderr %q; want 1 with %q", from, tc.in, code, errOut, want)
			}
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("import wrote its output")
	}
}

// TestEvalScoresFile: a scores file is read as data and cost files are: a
// UTF-8 byte order mark at the start (Windows editors write one) is
// skipped, as are CRLF endings; it was refused ("score \"\ufeff0.5\" is not
// a number"). A line too long for the reader is refused on its line (it
// said "bufio.Scanner: token too long").
func TestEvalScoresFile(t *testing.T) {
	dir := t.TempDir()
	dataF := filepath.Join(dir, "d.txt")
	os.WriteFile(dataF, []byte("1 qid:1 1:0.5\n0 qid:1 1:0.1\n2 qid:1 1:0.3\n1 qid:2 1:0.2\n0 qid:2 1:0.9\n"), 0o644)
	eval := func(content string) (int, string, string) {
		t.Helper()
		scores := filepath.Join(dir, "s.txt")
		if err := os.WriteFile(scores, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return runCLI(t, "eval", "--scores", scores, "--data", dataF, "--json")
	}
	_, plain, errOut := eval("0.1\n0.7\n0.3\n2\n-1\n")
	if plain == "" {
		t.Fatal(errOut)
	}
	for _, content := range []string{"\ufeff0.1\n0.7\n0.3\n2\n-1\n", "\ufeff0.1\r\n0.7\r\n0.3\r\n2\r\n-1\r\n"} {
		if code, out, errOut := eval(content); code != 0 || out != plain {
			t.Errorf("%q: exit %d, %s%s; want the report of the same scores without the mark:\n%s", content, code, out, errOut, plain)
		}
	}
	long := "0.1\n0.7" + strings.Repeat("0", 100_000) + "\n0.3\n2\n-1\n"
	if code, _, errOut := eval(long); code != 1 || !strings.Contains(errOut, "s.txt:2: line longer than") {
		t.Errorf("a 100,000-character line: exit %d, %q; want exit 1 naming line 2", code, errOut)
	}
	// Scores written gzipped (an output named .gz is compressed: predict
	// --out s.txt.gz) read as the plain ones; they failed on line 1.
	gz := filepath.Join(dir, "s.txt.gz")
	if err := data.WriteAtomic(gz, func(w *bufio.Writer) error { _, err := w.WriteString("0.1\n0.7\n0.3\n2\n-1\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(gz); len(b) < 2 || b[0] != 0x1f {
		t.Fatalf("%s is not gzip", gz)
	}
	if code, out, errOut := runCLI(t, "eval", "--scores", gz, "--data", dataF, "--json"); code != 0 || out != plain {
		t.Errorf("gzipped scores: exit %d, %s%s; want:\n%s", code, out, errOut, plain)
	}
}

// eval --run warns when a query's documents share a TREC document id (from
// their comments' first words here), which TREC tools take once per query;
// distinct ids, or the same id in two queries, get no warning.
func TestEvalRunRepeatedID(t *testing.T) {
	dir := t.TempDir()
	scores := filepath.Join(dir, "s.txt")
	if err := os.WriteFile(scores, []byte("0.3\n0.2\n0.1\n0.4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text, warning string
	}{
		{"dup.txt", "1 qid:7 1:1 # a first\n0 qid:7 1:2 # b\n0 qid:7 1:3 # a second\n1 qid:8 1:1 # a\n",
			`warning: RUN: qid 7 has the document id "a" twice (its documents 1 and 3)`},
		{"distinct.txt", "1 qid:7 1:1 # a\n0 qid:7 1:2 # b\n0 qid:7 1:3 # c\n1 qid:8 1:1 # a\n", ""},
		// Every query with a repeat is counted, not only the first.
		{"two.txt", "1 qid:7 1:1 # a\n0 qid:7 1:2 # a\n0 qid:8 1:3 # b\n1 qid:8 1:1 # b\n",
			`warning: RUN: qid 7 has the document id "a" twice (its documents 1 and 2), and 1 more query has a document id more than once`},
		// The LETOR field "docid = X", a whole word: "xdocid" is not it,
		// and an empty one is the document's position.
		{"letor.txt", "1 qid:7 1:1 # xdocid = 5 docid = X\n0 qid:7 1:2 # docid = 5\n0 qid:7 1:3 # docid =\n1 qid:8 1:1 # docid =\n", ""},
	} {
		data := filepath.Join(dir, c.name)
		if err := os.WriteFile(data, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		run := filepath.Join(dir, c.name+".run")
		code, _, errOut := runCLI(t, "eval", "--scores", scores, "--data", data, "--run", run)
		want := strings.ReplaceAll(c.warning, "RUN", run)
		if code != 0 || (want == "") != !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q; want the warning %q", c.name, code, errOut, want)
		}
		if b, err := os.ReadFile(run); err != nil || strings.Count(string(b), "\n") != 4 {
			t.Errorf("%s: run %q, %v", c.name, b, err)
		}
	}
}

// A command's outputs are written all or none: when writing one fails
// (here /dev/full, which takes no byte), the others are not left behind.
// eval wrote --per-query before --run failed, predict --exits before
// --out failed, cascade the cascade before its --curve failed.
func TestOutputsAllOrNone(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	model := trainShallow(t, dir, 5)
	casc := filepath.Join(dir, "c.json")
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--out", casc); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	for _, args := range [][]string{
		{"eval", "--model", model, "--data", "builtin:mq2008/test", "--per-query", filepath.Join(out, "q.tsv"), "--run", "/dev/full"},
		{"eval", "--model", model, "--data", "builtin:mq2008/test", "--run", filepath.Join(out, "run.txt"), "--per-query", "/dev/full"},
		{"predict", "--cascade", casc, "--data", "builtin:mq2008/test", "--exits", filepath.Join(out, "e.tsv"), "--out", "/dev/full"},
		{"cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--costs", "builtin:mq2008/costs",
			"--stages", "2", "--cycles", "0", "--out", filepath.Join(out, "c.json"), "--curve", "/dev/full"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 1 || !strings.Contains(errOut, "/dev/full: no space left on device") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and /dev/full's error", args, code, errOut)
		}
		left, _ := os.ReadDir(out)
		for _, e := range left {
			t.Errorf("%v failed and left %s", args, e.Name())
			os.Remove(filepath.Join(out, e.Name()))
		}
	}
}

// TestModelCommandsCountWords: gen, train, import and eval say "1 query",
// "1 document", "1 feature", "1 tree" for one, as inspect, cascade and
// sweep do, not "1 queries".
func TestModelCommandsCountWords(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.txt")
	model := filepath.Join(dir, "m.json")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--queries", "1", "--docs-per-query", "1", "--features", "1", "--out", one}, ": 1 query, 1 document, 1 feature, "},
		{[]string{"train", "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--trees", "1", "--out", model}, ": 1 tree (lambdarank) in "},
		{[]string{"eval", "--model", model, "--data", one}, one + ": 1 query, 1 document\n"},
		{[]string{"import", "--from", "lightgbm", "engine/tree/testdata/lgb-lambdarank.model.txt", "--out", filepath.Join(dir, "i.json")}, ": 100 trees from lightgbm (lambdarank, 46 features)\n"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(t, c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("cronus %v: exit %d, %q, %s; want %q", c.args, code, out, errOut, c.want)
		}
	}
	if _, out, _ := runCLI(t, "train", "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--trees", "1", "--out", model); !strings.Contains(out, " at 1 tree\n") {
		t.Errorf("train's best: %q, want \"at 1 tree\"", out)
	}
}

// A file with features beyond the model's (or, for --valid, the training
// set's) gets a warning that they are not used; it read silently before.
func TestUnusedFeaturesWarned(t *testing.T) {
	dir := t.TempDir()
	narrow, wide := filepath.Join(dir, "narrow.txt"), filepath.Join(dir, "wide.txt")
	var nb, wb strings.Builder
	for q := 1; q <= 4; q++ {
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&nb, "%d qid:%d 1:%d 2:%d\n", i%3, q, i, (i*q)%5)
			fmt.Fprintf(&wb, "%d qid:%d 1:%d 2:%d 4:%d\n", i%3, q, i, (i*q)%5, q)
		}
	}
	os.WriteFile(narrow, []byte(nb.String()), 0o644)
	os.WriteFile(wide, []byte(wb.String()), 0o644)
	model := filepath.Join(dir, "m.json")
	want := "warning: " + wide + " has features up to 4, and 2 are expected; features 3-4 are not used"
	code, _, errOut := runCLI(t, "train", "--train", narrow, "--valid", wide, "--trees", "3", "--min-docs", "1", "--out", model)
	if code != 0 || !strings.Contains(errOut, want) {
		t.Fatalf("train --valid wide: exit %d %q", code, errOut)
	}
	for _, cmd := range []string{"predict", "eval"} {
		code, _, errOut = runCLI(t, cmd, "--model", model, "--data", wide)
		if code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s on a wider file: exit %d %q", cmd, code, errOut)
		}
		code, _, errOut = runCLI(t, cmd, "--model", model, "--data", narrow)
		if code != 0 || strings.Contains(errOut, "not used") {
			t.Errorf("%s on the model's own file: exit %d %q", cmd, code, errOut)
		}
	}
}

// With --exclude-no-relevant, a metric that has no query left is n/a (null
// in --json, NaN in --per-query) with a warning, and the others are
// reported; the whole run was refused before.
func TestEvalMetricWithoutQueries(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--trees", "3", "--out", model); code != 0 {
		t.Fatalf("train: %q", errOut)
	}
	const test = "builtin:mq2008/test"
	args := []string{"eval", "--model", model, "--data", test, "--metrics", "ndcg@10,p@5", "--relevant", "5", "--exclude-no-relevant"}
	warning := "warning: " + test + ": p@5: no query has a label >= 5 (--relevant), and --exclude-no-relevant leaves none to average; it is n/a (null in --json)"
	code, stdout, errOut := runCLI(t, args...)
	if code != 0 || !strings.Contains(errOut, warning) || !strings.Contains(stdout, "  p@5        n/a\n") {
		t.Fatalf("text: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	// NDCG's queries are those with a label > 0: its mean is the one
	// without the flag, over the same queries as eval's own figure with it.
	_, plain, _ := runCLI(t, "eval", "--model", model, "--data", test, "--metrics", "ndcg@10", "--exclude-no-relevant")
	line := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "  ndcg@10") {
				return l
			}
		}
		return ""
	}
	if line(stdout) == "" || line(stdout) != line(plain) {
		t.Errorf("ndcg@10 %q, alone %q", line(stdout), line(plain))
	}
	pq := filepath.Join(dir, "pq.tsv")
	code, stdout, errOut = runCLI(t, append(args, "--json", "--per-query", pq)...)
	var r struct{ Metrics map[string]*float64 }
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil || !strings.Contains(errOut, warning) {
		t.Fatalf("--json: exit %d, %v, stdout %q, stderr %q", code, err, stdout, errOut)
	}
	if v, ok := r.Metrics["p@5"]; !ok || v != nil || r.Metrics["ndcg@10"] == nil {
		t.Errorf("--json metrics %s", stdout)
	}
	rows := strings.Split(strings.TrimSpace(readFile(t, pq)), "\n")
	if rows[0] != "qid\tndcg@10\tp@5" || len(rows) != 157 {
		t.Fatalf("per-query header %q, %d rows", rows[0], len(rows))
	}
	for _, row := range rows[1:] {
		if f := strings.Split(row, "\t"); f[2] != "NaN" {
			t.Fatalf("per-query row %q: p@5 is not NaN", row)
		}
	}
}

// Without --exclude-no-relevant a metric that no document is relevant to
// is 0 on every query, as the convention says, with a warning naming the
// metrics and the label they need: MQ2008's labels stop at 2, so
// --relevant 3 made P@5 and MAP 0.0000 without a word, where train and
// cascade warn of such a validation set.
func TestEvalWarnsNoDocumentRelevant(t *testing.T) {
	dir := t.TempDir()
	scores := filepath.Join(dir, "s.txt")
	writeText(t, scores, "1\n2\n3\n0.5\n")
	labels := filepath.Join(dir, "d.txt")
	writeText(t, labels, "2 qid:1\n0 qid:1\n1 qid:1\n0 qid:2\n")
	for _, c := range []struct {
		args []string
		warn string // "" none
	}{
		{[]string{"--relevant", "3"}, "warning: " + labels + ": no document has a label >= 3 (--relevant): p@5, rbp@0.8, map are 0 on every query\n"},
		{[]string{"--relevant", "3", "--metrics", "map,ndcg@10"}, "warning: " + labels + ": no document has a label >= 3 (--relevant): map is 0 on every query\n"},
		{[]string{"--relevant", "2"}, ""}, // query 1 has one
		{nil, ""},
	} {
		code, stdout, errOut := runCLI(t, append([]string{"eval", "--scores", scores, "--data", labels}, c.args...)...)
		if code != 0 || errOut != c.warn {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.warn)
		}
		if c.warn != "" && !strings.Contains(stdout, "  map        0.0000\n") {
			t.Errorf("%v: stdout %q", c.args, stdout)
		}
	}
	// A file whose labels are all 0: NDCG and ERR too.
	writeText(t, labels, "0 qid:1\n0 qid:1\n0 qid:1\n0 qid:2\n")
	code, _, errOut := runCLI(t, "eval", "--scores", scores, "--data", labels, "--metrics", "ndcg@10,map,err@3")
	want := "warning: " + labels + ": no document has a label > 0: ndcg@10, err@3 are 0 on every query\n" +
		"warning: " + labels + ": no document has a label >= 1 (--relevant): map is 0 on every query\n"
	if code != 0 || errOut != want {
		t.Errorf("labels all 0: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

func TestTrecDocID(t *testing.T) {
	for _, c := range []struct {
		comment string
		want    string
	}{
		{"docid = GX008-86-4444840 inc = 1 prob = 0.086622", "GX008-86-4444840"},
		{"docid=GX1 inc=1", "GX1"},
		{"docid= GX2", "GX2"},
		{"docid =GX3", "GX3"},
		{"xdocid = 5 docid = X", "X"},
		{"xdocid = 5", "xdocid"},
		{"docid =", "doc4"},
		{"docid", "docid"},
		{"the docid = 7", "7"},
		{"syn-3-1", "syn-3-1"},
		{"", "doc4"},
	} {
		if got := trecDocID(c.comment, 3); got != c.want {
			t.Errorf("trecDocID(%q) = %q, want %q", c.comment, got, c.want)
		}
	}
}

// TestLibsvmReaderNote: eval, predict, cascade and sweep of an XGBoost
// model trained on XGBoost's libsvm reader and imported without
// --libsvm-indices (one feature wider than the data, never splitting on
// feature 1) say how to import it; with the flag, nothing is said.
// cascade and sweep said only that feature 47 reads as 0.
func TestLibsvmReaderNote(t *testing.T) {
	dir := t.TempDir()
	const note = "warning: this XGBoost model has one feature more than builtin:mq2008/%s (46) and never splits on feature 1"
	cascade := []string{"--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali", "--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "1"}
	for _, c := range []struct {
		flags []string
		want  bool
	}{{nil, true}, {[]string{"--libsvm-indices"}, false}} {
		model := filepath.Join(dir, "m.json")
		args := append([]string{"import", "--from", "xgboost"}, c.flags...)
		if code, _, errOut := runCLI(t, append(args, "engine/tree/testdata/xgb-libsvm.json", "--out", model)...); code != 0 {
			t.Fatalf("import %v: %s", c.flags, errOut)
		}
		for _, cmd := range [][]string{
			{"eval", "--model", model, "--data", "builtin:mq2008/test"},
			{"predict", "--model", model, "--data", "builtin:mq2008/test", "--out", filepath.Join(dir, "s.txt")},
			append([]string{"cascade", "--model", model, "--lambda", "0.05", "--out", filepath.Join(dir, "c.json")}, cascade...),
			append([]string{"sweep", "--model", model, "--lambdas", "0.05:0.05:1", "--out", filepath.Join(dir, "curve.csv")}, cascade...),
		} {
			data := "test"
			if cmd[0] == "cascade" || cmd[0] == "sweep" {
				data = "train"
			}
			code, _, errOut := runCLI(t, cmd...)
			if code != 0 || strings.Contains(errOut, fmt.Sprintf(note, data)) != c.want {
				t.Errorf("%s of a model imported with %v: exit %d, stderr %q; want the note: %v", cmd[0], c.flags, code, errOut, c.want)
			}
		}
	}
}

// eval --compare: the two means are those of evaluating each scores file
// alone, the comparison is metric.ComparePaired's on the per-query values
// that --per-query writes for each (a second path through the command
// line), the text report has a row per metric, and a compare file that
// does not fit the data is refused on its line.
func TestEvalCompare(t *testing.T) {
	dir := t.TempDir()
	dataF := filepath.Join(dir, "d.txt")
	var lines strings.Builder // 12 queries of 5 documents, labels 0-2
	for q := range 12 {
		for i := range 5 {
			fmt.Fprintf(&lines, "%d qid:%d 1:%d\n", (q+i*i)%3, q+1, i)
		}
	}
	if err := os.WriteFile(dataF, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name string, score func(q, i int) float64) string {
		var b strings.Builder
		for q := range 12 {
			for i := range 5 {
				fmt.Fprintf(&b, "%g\n", score(q, i))
			}
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.txt", func(q, i int) float64 { return float64((q*7+i*3)%5) + 0.1*float64(i) })
	b := write("b.txt", func(q, i int) float64 { return float64((q*5+i*i)%4) - 0.2*float64(i) })
	const metrics = "ndcg@3,p@2"
	type report struct {
		Metrics map[string]float64
		Compare struct {
			File    string
			Rounds  int
			Seed    uint64
			Metrics map[string]struct {
				Queries                 int
				This, That, Diff, SE, T *float64
				P_t                     *float64 `json:"p_t"`
				P_rand                  *float64 `json:"p_rand"`
			}
		}
	}
	evalJSON := func(args ...string) report {
		t.Helper()
		code, out, errOut := runCLI(t, append([]string{"eval", "--data", dataF, "--metrics", metrics, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("eval %v: exit %d: %s", args, code, errOut)
		}
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	alone := map[string]report{}
	perQ := map[string][][]float64{}
	for _, f := range []string{a, b} {
		tsv := f + ".tsv"
		alone[f] = evalJSON("--scores", f, "--per-query", tsv)
		raw, err := os.ReadFile(tsv)
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSpace(string(raw)), "\n")[1:]
		cols := make([][]float64, 2)
		for _, row := range rows {
			fs := strings.Split(row, "\t")
			for m := range cols {
				v, _ := strconv.ParseFloat(fs[m+1], 64)
				cols[m] = append(cols[m], v)
			}
		}
		perQ[f] = cols
	}
	const rounds = 5000
	r := evalJSON("--scores", a, "--compare", b, "--compare-rounds", strconv.Itoa(rounds))
	if r.Compare.File != b || r.Compare.Rounds != rounds {
		t.Errorf("compare file %q, rounds %d; want %q, %d", r.Compare.File, r.Compare.Rounds, b, rounds)
	}
	for m, name := range []string{"ndcg@3", "p@2"} {
		c, ok := r.Compare.Metrics[name]
		if !ok || c.This == nil || c.That == nil || c.Diff == nil || c.P_t == nil || c.P_rand == nil {
			t.Fatalf("%s: compare %+v", name, c)
		}
		if *c.This != alone[a].Metrics[name] || *c.That != alone[b].Metrics[name] {
			t.Errorf("%s: this %v, that %v; each alone %v, %v", name, *c.This, *c.That, alone[a].Metrics[name], alone[b].Metrics[name])
		}
		want, _ := metric.ComparePaired(context.Background(), perQ[a][m], perQ[b][m], rounds, compareSeed, nil)
		if c.Queries != 12 || math.Abs(*c.Diff-want.Diff) > 1e-12 || math.Abs(*c.T-want.T) > 1e-9 ||
			math.Abs(*c.P_t-want.PT) > 1e-9 || *c.P_rand != want.PRand {
			t.Errorf("%s: queries %d, diff %v, t %v, p_t %v, p_rand %v; from the per-query files %+v", name, c.Queries, *c.Diff, *c.T, *c.P_t, *c.P_rand, want)
		}
		if *c.Diff == 0 {
			t.Errorf("%s: the two systems score the same: a weak test", name)
		}
	}
	// The text report: a row per metric with the same figures.
	code, out, errOut := runCLI(t, "eval", "--data", dataF, "--metrics", metrics, "--scores", a, "--compare", b)
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, name := range []string{"ndcg@3", "p@2"} {
		c := r.Compare.Metrics[name]
		row := fmt.Sprintf("%-10s %7d %8.4f %8.4f %+8.4f", name, 12, *c.This, *c.That, *c.Diff)
		if !strings.Contains(out, row) {
			t.Errorf("no row %q in:\n%s", row, out)
		}
	}
	// A system against itself: no difference, p 1.
	self := evalJSON("--scores", a, "--compare", a).Compare.Metrics["ndcg@3"]
	if *self.Diff != 0 || *self.P_t != 1 || *self.P_rand != 1 {
		t.Errorf("against itself: diff %v, p_t %v, p_rand %v", *self.Diff, *self.P_t, *self.P_rand)
	}
	// A compare file one score short, or with a word for a score.
	short := filepath.Join(dir, "short.txt")
	raw, _ := os.ReadFile(b)
	os.WriteFile(short, raw[:bytes.LastIndexByte(raw[:len(raw)-1], '\n')+1], 0o644)
	if code, _, errOut := runCLI(t, "eval", "--data", dataF, "--scores", a, "--compare", short); code != 1 || !strings.Contains(errOut, "short.txt: 59 scores for 60 documents") {
		t.Errorf("short compare file: exit %d, %q", code, errOut)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte(strings.Replace(string(raw), "\n", "\nx\n", 1)[:len(raw)]), 0o644)
	if code, _, errOut := runCLI(t, "eval", "--data", dataF, "--scores", a, "--compare", bad); code != 1 || !strings.Contains(errOut, "bad.txt:2: score \"x\" is not a number") {
		t.Errorf("a word in the compare file: exit %d, %q", code, errOut)
	}
}

// TestEvalSaysUnitCosts: eval --model without --costs prices every
// feature at 1, and says so beside the cost; with --costs it does not
// (review 2026-11-29: beside a cascade's real costs, a model's unit ones
// looked like its own).
func TestEvalSaysUnitCosts(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/vali", "--trees", "3", "--leaves", "4", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	const note = "; every feature costs 1 without --costs)"
	for _, costs := range []bool{false, true} {
		args := []string{"eval", "--model", model, "--data", "builtin:mq2008/test"}
		if costs {
			args = append(args, "--costs", "builtin:mq2008/costs")
		}
		code, stdout, errOut := runCLI(t, args...)
		if code != 0 || strings.Contains(stdout, note) == costs {
			t.Errorf("--costs given %v: exit %d, %q %q", costs, code, stdout, errOut)
		}
	}
}

// TestImportXGBoostEarlyForest imports a random forest boosted with
// early stopping (num_parallel_tree 2, best_iteration 4 of 8 rounds;
// make_xgb_audit_fixtures.py): the note counts trees, not rounds (--trees
// 10), predict uses all 16 trees as Booster.predict does, and --trees 10
// gives XGBoost's iteration_range=(0, 5).
func TestImportXGBoostEarlyForest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.json")
	code, _, errOut := runCLI(t, "import", "--from", "xgboost", "engine/tree/testdata/xgb-early-forest.json", "--out", out)
	if code != 0 || !strings.Contains(errOut, "note: training stopped early at best_iteration 4; like XGBoost's Booster.predict, cronus uses all 16 trees (--trees 10 stops at the best iteration") {
		t.Fatalf("import: exit %d %q", code, errOut)
	}
	for _, c := range []struct{ trees, pred string }{{"all", "xgb-early-forest.pred.txt"}, {"10", "xgb-early-forest.best.pred.txt"}} {
		code, stdout, errOut := runCLI(t, "predict", "--model", out, "--data", "builtin:mq2008/test", "--trees", c.trees)
		if code != 0 {
			t.Fatalf("predict --trees %s: exit %d %q", c.trees, code, errOut)
		}
		got := strings.Fields(stdout)
		want := strings.Fields(readFile(t, "engine/tree/testdata/"+c.pred))
		if len(want) != 300 || len(got) < len(want) {
			t.Fatalf("--trees %s: %d scores, %d of XGBoost's", c.trees, len(got), len(want))
		}
		for i := range want {
			a, _ := strconv.ParseFloat(got[i], 64)
			b, _ := strconv.ParseFloat(want[i], 64)
			if math.Abs(a-b) > 1e-5 {
				t.Fatalf("--trees %s: document %d: %v, XGBoost %v", c.trees, i+1, a, b)
			}
		}
	}
}
