package tree

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The importers are parsers of files users bring from elsewhere: whatever the
// bytes, they return an error naming the file or an ensemble that feeds
// everything a trained one does, which here means that every tree validates
// and predicts, and that the ensemble saves as a Cronus model and reads back
// the same.

const fuzzName = "in.model"

func FuzzImportLightGBM(f *testing.F) {
	for _, name := range []string{"lgb-lambdarank.model.txt", "lgb-regression-dart.model.txt"} {
		f.Add([]byte(lgbFirstTrees(f, name, 1)))
	}
	f.Add([]byte("tree\nversion=v4\nmax_feature_idx=2\n\nTree=0\nnum_leaves=1\nleaf_value=0.5\nshrinkage=1\n\nend of trees\n"))
	f.Add([]byte("tree\nmax_feature_idx=1\n\nTree=0\nnum_leaves=2\nsplit_feature=1\nthreshold=0.5\ndecision_type=2\nleft_child=-1\nright_child=-2\nleaf_value=1 nan\n\nend of trees\n"))
	f.Add([]byte("tree\nmax_feature_idx=1\naverage_output\n\nTree=0\nnum_leaves=2\nsplit_feature=1\nthreshold=1e300\ndecision_type=8\nleft_child=-1\nright_child=-2\nleaf_value=1 2\n\nend of trees\n\nparameters:\n[boosting: dart]\n[drop_rate: 0.1]\nend of parameters\n"))
	f.Add([]byte("tree\nmax_feature_idx=1\n\nTree=0\nnum_leaves=1\nleaf_value=-inf\n\nend of trees\n"))
	f.Add([]byte("tree\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, prov, err := ImportLightGBM(bytes.NewReader(data), fuzzName)
		checkImported(t, data, e, prov, err)
	})
}

func FuzzImportXGBoost(f *testing.F) {
	for _, name := range []string{"xgb-reg-lossguide.json", "xgb-missing.json", "xgb-dart.json", "xgb-binary-logistic.json"} {
		f.Add(xgbFirstTrees(f, name, 1))
	}
	f.Add([]byte(`{"learner":{"gradient_booster":{"name":"gbtree","model":{"tree_info":[0],"trees":[{"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[0.5],"default_left":[0],"split_type":[0],"tree_param":{"num_nodes":"1","size_leaf_vector":"0"}}]}},"learner_model_param":{"base_score":"5E-1","num_class":"0","num_feature":"3","num_target":"1"},"objective":{"name":"binary:logistic"}}}`))
	f.Add([]byte(`{"learner":{"gradient_booster":{"name":"dart","gbtree":{"model":{"tree_info":[0],"trees":[{"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[2,0,0],"split_conditions":[1e30,-1,2],"default_left":[true,false,false],"tree_param":{"num_nodes":"3"}}]}},"weight_drop":[0.5]},"learner_model_param":{"base_score":"1","num_feature":"3"},"objective":{"name":"count:poisson"}}}`))
	cat, err := os.ReadFile("testdata/xgb-categorical.json") // NaN in split_conditions
	if err != nil {
		f.Fatal(err)
	}
	f.Add(cat)
	ubj, err := os.ReadFile("testdata/xgb-libsvm.ubj") // UBJSON, as XGBoost 2.1 saves by default
	if err != nil {
		f.Fatal(err)
	}
	f.Add(ubj)
	f.Add([]byte(`{"learner":{"gradient_booster":{"name":"gbtree","model":{"trees":[{"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[0,0,0],"split_conditions":[Infinity,1,2],"default_left":[0,0,0]}]}},"learner_model_param":{"base_score":"5E-1","num_feature":"1"},"objective":{"name":"reg:squarederror"}},"x":"NaN\"Infinity"}`))
	// Per-node statistics (loss_changes, sum_hessian), with a tree of a
	// single leaf, whose statistics are none, and a NaN, a string and a
	// negative cover, which drop them.
	f.Add([]byte(`{"learner":{"gradient_booster":{"name":"gbtree","model":{"tree_info":[0,0],"trees":[` +
		`{"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[0,0,0],"split_conditions":[0.5,1,2],"default_left":[0,0,0],"loss_changes":[3,0,0],"sum_hessian":[4,1,3],"tree_param":{"num_nodes":"3"}},` +
		`{"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[0.5],"default_left":[0],"loss_changes":[0],"sum_hessian":[4],"tree_param":{"num_nodes":"1"}}]}},` +
		`"learner_model_param":{"base_score":"5E-1","num_feature":"3"},"objective":{"name":"reg:squarederror"}}}`))
	f.Add([]byte(`{"learner":{"gradient_booster":{"name":"gbtree","model":{"trees":[` +
		`{"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[0,0,0],"split_conditions":[0.5,1,2],"default_left":[0,0,0],"loss_changes":[NaN,0,0],"sum_hessian":[-4,"x",3]}]}},` +
		`"learner_model_param":{"base_score":"5E-1","num_feature":"1"},"objective":{"name":"reg:squarederror"}}}`))
	f.Add([]byte(`{"learner":null}`))
	f.Add([]byte(`{"learner":{"gradient_booster":{"name":"gbtree","model":{"trees":[{"left_children":[[1]],"default_left":["x"]}]}},"attributes":{"a":1}},"version":"1"}`))
	f.Add([]byte(`{`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, prov, err := ImportXGBoost(bytes.NewReader(data), fuzzName)
		checkImported(t, data, e, prov, err)
	})
}

func FuzzImportRankLib(f *testing.F) {
	for _, name := range []string{"ranklib-lambdamart.txt", "ranklib-mart.txt", "ranklib-rf.txt"} {
		f.Add([]byte(rankLibFirstTrees(f, name, 2)))
	}
	f.Add([]byte(rlModel("0.1", rlStump("3", "0.3", "1.5", "-2"))))
	f.Add([]byte("## MART\n<ensemble><tree id=\"1\" weight=\"1e38\"><split><feature>1</feature><threshold>Infinity</threshold>" +
		"<split><output>1e38</output></split><split pos=\"right\"><output>-1.5f</output></split></split></tree></ensemble>"))
	f.Add([]byte("## Random Forests\n<ensemble>\n<tree weight='2'><split><output>1</output></split></tree>\n</ensemble>\n<!-- c -->\n<ensemble>\n<tree weight=\"0.5\"><split><output>NaN</output></split></tree>\n</ensemble>\n"))
	f.Add([]byte("## Coordinate Ascent\n"))
	f.Add([]byte("## LambdaMART\r\n# c\r\n<ensemble></ensemble>"))
	f.Add([]byte("##MART\r0")) // a lone CR ends a line, and the error names line 2
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, prov, err := ImportRankLib(bytes.NewReader(data), fuzzName)
		checkImportedLines(t, data, javaLines, e, prov, err)
	})
}

// errLine finds the line an error names, as in "in.model:12: ...", and
// the column when it names one ("in.model:1:80: ...").
var errLine = regexp.MustCompile(`^` + regexp.QuoteMeta(fuzzName) + `:([0-9]+):(?:([0-9]+):)?`)

// checkImported holds what an importer returned to the contract above.
func checkImported(t *testing.T, data []byte, e *Ensemble, prov map[string]any, err error) {
	t.Helper()
	checkImportedLines(t, data, func(b []byte) [][]byte { return bytes.Split(b, []byte("\n")) }, e, prov, err)
}

// javaLines splits b into lines as Java's readLine, which RankLib reads
// models with, and our RankLib importer do: at LF, CRLF or a lone CR.
func javaLines(b []byte) [][]byte {
	b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	return bytes.Split(b, []byte("\n"))
}

// checkImportedLines is checkImported with the file's lines as split
// gives them, for the line an error names.
func checkImportedLines(t *testing.T, data []byte, split func([]byte) [][]byte, e *Ensemble, prov map[string]any, err error) {
	t.Helper()
	if err != nil {
		if e != nil {
			t.Fatal("an ensemble and an error")
		}
		if !strings.HasPrefix(err.Error(), fuzzName+":") {
			t.Fatalf("error does not name the file: %v", err)
		}
		if strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "Go value") {
			t.Fatalf("error speaks of Go types: %v", err)
		}
		if m := errLine.FindStringSubmatch(err.Error()); m != nil {
			lines := split(data)
			n, _ := strconv.Atoi(m[1])
			if n < 1 || n > len(lines) {
				t.Fatalf("error names line %d of a file of %d lines: %v", n, len(lines), err)
			}
			if col, _ := strconv.Atoi(m[2]); m[2] != "" && (col < 1 || col > len(lines[n-1])+1) {
				t.Fatalf("error names column %d of a line of %d bytes: %v", col, len(lines[n-1]), err)
			}
		}
		return
	}
	if e == nil {
		t.Fatal("no ensemble and no error")
	}
	if e.NumFeatures < 0 {
		t.Fatalf("%d features", e.NumFeatures)
	}
	if math.IsNaN(e.Base) || math.IsInf(e.Base, 0) {
		t.Fatalf("base score %v", e.Base)
	}
	// Predict on all-zero, all-NaN and all-large documents, as long as the
	// features the trees use (Validate holds them below NumFeatures).
	width := 1
	for i := range e.Trees {
		if err := e.Trees[i].Validate(e.NumFeatures); err != nil {
			t.Fatalf("tree %d: %v\n%q", i, err, data)
		}
		for _, f := range e.Trees[i].Features() {
			width = max(width, f+1)
		}
	}
	for _, v := range []float32{0, float32(math.NaN()), math.MaxFloat32} {
		x := make([]float32, width)
		for j := range x {
			x[j] = v
		}
		for i := range e.Trees {
			if p := e.Trees[i].Predict(x); math.IsNaN(p) || math.IsInf(p, 0) {
				t.Fatalf("tree %d predicts %v\n%q", i, p, data)
			}
		}
	}
	// It saves as a Cronus model and reads back the same, bit for bit.
	reencode(t, NewModel(e, "imported", prov), e)
}

// lgbFirstTrees is fixture name cut to its first n trees, still a model the
// importer accepts (tree_sizes goes, and the parameters it does not read).
func lgbFirstTrees(tb testing.TB, name string, n int) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	s := string(b)
	cut := strings.Index(s, "Tree="+strconv.Itoa(n)+"\n")
	end := strings.Index(s, "end of trees")
	if cut < 0 || end < 0 {
		tb.Fatalf("%s has fewer than %d trees", name, n+1)
	}
	var head []string
	for l := range strings.SplitSeq(s[:cut], "\n") {
		if !strings.HasPrefix(l, "tree_sizes=") {
			head = append(head, l)
		}
	}
	// Of the parameters section, only the lines the importer reads.
	tail := "end of trees\n\nparameters:\n"
	for l := range strings.SplitSeq(s[end:], "\n") {
		k, _, ok := strings.Cut(strings.TrimPrefix(l, "["), ": ")
		if ok && slices.Contains(lgbParams, k) {
			tail += l + "\n"
		}
	}
	out := strings.Join(head, "\n") + tail + "end of parameters\n"
	if _, _, err := ImportLightGBM(strings.NewReader(out), name); err != nil {
		tb.Fatalf("cut %s: %v", name, err)
	}
	return out
}

// xgbFirstTrees is fixture name cut to its first n trees, without the
// per-node fields the importer does not read (it reads loss_changes and
// sum_hessian, for Tree.Gain and Tree.Cover).
func xgbFirstTrees(tb testing.TB, name string, n int) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		tb.Fatal(err)
	}
	booster := doc["learner"].(map[string]any)["gradient_booster"].(map[string]any)
	model, _ := booster["model"].(map[string]any)
	if gb, ok := booster["gbtree"].(map[string]any); ok {
		model = gb["model"].(map[string]any)
		booster["weight_drop"] = booster["weight_drop"].([]any)[:n]
	}
	trees := model["trees"].([]any)[:n]
	for _, tr := range trees {
		for _, k := range []string{"base_weights", "parents"} {
			delete(tr.(map[string]any), k)
		}
	}
	model["trees"] = trees
	model["tree_info"] = model["tree_info"].([]any)[:n]
	if p, ok := model["gbtree_model_param"].(map[string]any); ok {
		p["num_trees"] = strconv.Itoa(n)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	if _, _, err := ImportXGBoost(bytes.NewReader(out), name); err != nil {
		tb.Fatalf("cut %s: %v", name, err)
	}
	return out
}

// rankLibFirstTrees is fixture name cut to the trees of its first n
// <tree> elements of each <ensemble>.
func rankLibFirstTrees(tb testing.TB, name string, n int) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	var out strings.Builder
	k := 0
	for l := range strings.SplitSeq(string(b), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "<ensemble>") {
			k = 0
		}
		if strings.HasPrefix(t, "<tree ") {
			k++
		}
		if k <= n || strings.HasPrefix(t, "</ensemble>") {
			out.WriteString(l + "\n")
		}
	}
	if _, _, err := ImportRankLib(strings.NewReader(out.String()), name); err != nil {
		tb.Fatalf("cut %s: %v", name, err)
	}
	return out.String()
}
