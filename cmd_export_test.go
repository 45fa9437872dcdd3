package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/cronus"
	"github.com/cronus-ltr/cronus/internal/ctest"
)

// readNumbers returns the numbers of a scores file, one per line.
func readNumbers(t *testing.T, path string) []float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var xs []float64
	for _, s := range strings.Fields(string(b)) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, v)
	}
	return xs
}

// export writes a model's first trees, and a cascade's stage, as XGBoost
// and as RankLib models; import --from xgboost and --from ranklib read
// them back (the importers are checked against XGBoost's and RankLib's own
// predictions in engine/tree), and the models read back score MQ2008 test
// as predict does with --trees, and as the cascade scores the documents
// that leave at the stage exported. The report says what was written, the
// stage's threshold and rule among it.
func TestExportModelAndStage(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 30)
	test := "builtin:mq2008/test"
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "0", "--lambda", "0.01", "--out", p("c.json")); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runCLI(t, "predict", "--cascade", p("c.json"), "--data", test, "--out", p("keys.txt"), "--exits", p("exits.tsv")); code != 0 {
		t.Fatal(errOut)
	}
	cf, err := cronus.ReadFile(p("c.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, exits := readTSV(t, p("exits.tsv"))

	for _, f := range []struct{ to, objective, numbering string }{
		{"xgboost", "reg:squarederror", "feature k is f{k-1}"},
		{"ranklib", "regression", "feature k is RankLib's k"},
	} {
		t.Run(f.to, func(t *testing.T) {
			var rm struct {
				Out, To, Model, Objective string
				FeatureNumbering          string `json:"feature_numbering"`
				Trees, Features           int
			}
			runJSON(t, &rm, "export", "--model", model, "--trees", "20", "--to", f.to, "--out", p("m."+f.to), "--json")
			if rm.Out != p("m."+f.to) || rm.To != f.to || rm.Model != model || rm.Trees != 20 || rm.Features != 46 ||
				rm.Objective != f.objective || rm.FeatureNumbering != f.numbering {
				t.Errorf("report %+v", rm)
			}
			if code, _, errOut := runCLI(t, "import", "--from", f.to, p("m."+f.to), "--out", p("back.json")); code != 0 {
				t.Fatal(errOut)
			}
			for _, args := range [][]string{
				{"predict", "--model", model, "--trees", "20", "--data", test, "--out", p("want.txt")},
				{"predict", "--model", p("back.json"), "--data", test, "--out", p("got.txt")},
			} {
				if code, _, errOut := runCLI(t, args...); code != 0 {
					t.Fatal(errOut)
				}
			}
			want, got := readNumbers(t, p("want.txt")), readNumbers(t, p("got.txt"))
			if len(want) != 2874 || len(got) != len(want) {
				t.Fatalf("%d and %d scores", len(want), len(got))
			}
			for i := range want {
				if math.Abs(want[i]-got[i]) > 1e-5 {
					t.Fatalf("document %d: %v exported, %v by predict --trees 20", i, got[i], want[i])
				}
			}

			checked := 0
			for k := 1; k <= 3; k++ {
				var rs struct {
					Stage, Stages, Trees int
					Theta                *float64
					Rule                 string
					StageFeatures        []int `json:"stage_features"`
				}
				out := p("s" + strconv.Itoa(k) + "." + f.to)
				code, stdout, errOut := runCLI(t, "export", "--cascade", p("c.json"), "--stage", strconv.Itoa(k), "--to", f.to, "--out", out, "--json")
				if code != 0 {
					if strings.Contains(errOut, "has no trees") {
						continue
					}
					t.Fatal(errOut)
				}
				if err := json.Unmarshal([]byte(stdout), &rs); err != nil {
					t.Fatal(err)
				}
				st := cf.Stages[k-1]
				if rs.Stage != k || rs.Stages != 3 || rs.Trees != len(st.Trees) || rs.Rule != cf.Rule || len(rs.StageFeatures) == 0 ||
					(rs.Theta == nil) != (st.Theta == nil) || rs.Theta != nil && *rs.Theta != *st.Theta {
					t.Errorf("stage %d: report %+v for %+v", k, rs, st)
				}
				back := p("s" + strconv.Itoa(k) + ".back.json")
				if code, _, errOut := runCLI(t, "import", "--from", f.to, out, "--out", back); code != 0 {
					t.Fatal(errOut)
				}
				if code, _, errOut := runCLI(t, "predict", "--model", back, "--data", test, "--out", p("stage.txt")); code != 0 {
					t.Fatal(errOut)
				}
				scores := readNumbers(t, p("stage.txt"))
				for i, row := range exits {
					if row[2] != strconv.Itoa(k) {
						continue
					}
					at, _ := strconv.ParseFloat(row[3], 64)
					if math.Abs(at-scores[i]) > 1e-5 {
						t.Fatalf("stage %d, document %d: %v exported, %v in the cascade", k, i, scores[i], at)
					}
					checked++
				}
			}
			if checked < 100 {
				t.Errorf("only %d documents checked against their exit stage", checked)
			}
		})
	}
}

// export's usage errors, and a stage without trees: exit 2 (1 for the
// stage), a message that says what to do, and no file written.
func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 5)
	cascade := p("c.json")
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--out", cascade); code != 0 {
		t.Fatal(errOut)
	}
	// A first stage emptied by hand: it passes everything.
	cf, err := cronus.ReadFile(cascade)
	if err != nil {
		t.Fatal(err)
	}
	cf.Stages[0].Trees, cf.Stages[0].Weights, cf.Stages[0].Theta = []int{}, []float64{}, nil
	empty := p("empty.json")
	if err := cronus.WriteFile(empty, cf); err != nil {
		t.Fatal(err)
	}
	// A stage of the model's tree 3 alone, weighed so that its leaves are
	// past XGBoost's float32 leaves: the error names it tree 3, as the
	// model numbers it (it is the stage's first, which said "tree 0").
	cf.Stages[0].Trees, cf.Stages[0].Weights = []int{3}, []float64{1e39 / cf.Ensemble.Trees[3].Leaf[0]}
	bigStage := p("bigstage.json")
	if err := cronus.WriteFile(bigStage, cf); err != nil {
		t.Fatal(err)
	}
	// A leaf past XGBoost's float32 leaves: the error names the model.
	big := p("big.json")
	if err := os.WriteFile(big, []byte(`{"format": "cronus-ensemble", "version": 1, "objective": "regression", "num_features": 1, "base_score": 0,
		"trees": [{"split_feature": [1], "threshold": [0.5], "left_child": [-1], "right_child": [-2], "leaf_value": [1e39, 2]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := p("x.json")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--model", model, "--out", out}, 2, "--to FORMAT is required: xgboost"},
		{[]string{"--model", model, "--to", "lightgbm", "--out", out}, 2, `--to: must be xgboost, ranklib or c, got "lightgbm"`},
		{[]string{"--model", model, "--to", "xgboost"}, 2, "--out FILE is required"},
		{[]string{"--to", "xgboost", "--out", out}, 2, "give one of --model FILE and --cascade FILE"},
		{[]string{"--model", model, "--cascade", cascade, "--to", "xgboost", "--out", out}, 2, "give one of --model FILE and --cascade FILE"},
		{[]string{"--model", model, "--stage", "1", "--to", "xgboost", "--out", out}, 2, "--stage applies to --cascade only"},
		{[]string{"--cascade", cascade, "--to", "xgboost", "--out", out}, 2, "--stage k is required with --cascade --to xgboost"},
		{[]string{"--cascade", cascade, "--to", "c", "--libsvm-indices", "--out", out}, 2, "--libsvm-indices and --missing-as-zero apply to --to xgboost only"},
		{[]string{"--model", model, "--to", "c", "--missing-as-zero", "--out", out}, 2, "--libsvm-indices and --missing-as-zero apply to --to xgboost only"},
		{[]string{"--model", model, "--to", "xgboost", "--prefix", "m", "--out", out}, 2, "--prefix applies to --to c only"},
		{[]string{"--model", model, "--to", "xgboost", "--header", p("x.h"), "--out", out}, 2, "--header applies to --to c only"},
		{[]string{"--model", model, "--to", "c", "--header", out, "--out", out}, 2, out},
		{[]string{"--model", model, "--to", "c", "--header", p("nodir/x.h"), "--out", out}, 1, "nodir"},
		{[]string{"--model", model, "--to", "c", "--prefix", "9m", "--out", out}, 2, `--prefix "9m": give a C identifier`},
		// "_" would name the functions __rank, __predict: reserved, as "__x" is.
		{[]string{"--model", model, "--to", "c", "--prefix", "_", "--out", out}, 2, `--prefix "_": give a C identifier`},
		// Names C99 reserves for its headers: isa_predict (<ctype.h>), SIG_rank (<signal.h>).
		{[]string{"--model", model, "--to", "c", "--prefix", "isa", "--out", out}, 2, `--prefix "isa": the file's names, isa_ and more, would be ones C99 reserves: names that begin with "is" or "to" and a lowercase letter (for <ctype.h> and <wctype.h>); give another NAME`},
		{[]string{"--cascade", cascade, "--to", "c", "--prefix", "SIG", "--out", out}, 2, `--prefix "SIG": the file's names, SIG_ and more, would be ones C99 reserves: names that begin with "SIG" and an uppercase letter, or with "SIG_" (for <signal.h>)`},
		{[]string{"--model", model, "--to", "c", "--prefix", strings.Repeat("a", 21), "--out", out}, 2, "give a C identifier of at most 20 characters that starts with a letter (letters, digits and _; C reserves the names that start with _; the file's longest external name, NAME_rank_dense, must keep within the 31 characters C99 holds significant)"},
		{[]string{"--model", model, "--to", "c", "--costs", "builtin:mq2008/costs", "--out", out}, 2, "--costs applies to --to c with a whole --cascade only"},
		{[]string{"--cascade", cascade, "--stage", "1", "--to", "c", "--costs", "builtin:mq2008/costs", "--out", out}, 2, "--costs applies to --to c with a whole --cascade only"},
		{[]string{"--cascade", cascade, "--to", "c", "--costs", p("nocosts.txt"), "--out", out}, 1, "nocosts.txt"},
		{[]string{"--cascade", cascade, "--to", "c", "--out", cascade}, 2, "is both an input and an output"},
		{[]string{"--cascade", empty, "--stage", "1", "--to", "c", "--out", out}, 1, empty + ": stage 1 of 2 has no trees"},
		{[]string{"--cascade", cascade, "--stage", "0", "--to", "xgboost", "--out", out}, 2, "stages are numbered from 1"},
		{[]string{"--cascade", cascade, "--stage", "3", "--to", "xgboost", "--out", out}, 2, "the cascade " + cascade + " has 2 stages"},
		{[]string{"--cascade", cascade, "--stage", "1", "--trees", "2", "--to", "xgboost", "--out", out}, 2, "--trees applies to --model only"},
		{[]string{"--model", model, "--trees", "9", "--to", "xgboost", "--out", out}, 2, "the model " + model + " has 5 trees"},
		{[]string{"--model", model, "--to", "xgboost", "--out", model}, 2, "is both an input and an output"},
		{[]string{"--cascade", empty, "--stage", "1", "--to", "xgboost", "--out", out}, 1, empty + ": stage 1 of 2 has no trees"},
		{[]string{"--model", p("missing.json"), "--to", "xgboost", "--out", out}, 1, "missing.json"},
		{[]string{"--model", model, "--trees", "0", "--to", "xgboost", "--out", out}, 2, "--trees 0: no trees to export"},
		{[]string{"--model", big, "--to", "xgboost", "--out", out}, 1, big + ": tree 0: leaf 0's value 1e+39 is out of the float32 range"},
		{[]string{"--cascade", bigStage, "--stage", "1", "--to", "xgboost", "--out", out}, 1, bigStage + ": stage 1: tree 3: leaf 0's value "},
		{[]string{"--cascade", cascade, "--to", "ranklib", "--out", out}, 2, "--stage k is required with --cascade --to ranklib"},
		{[]string{"--model", model, "--to", "ranklib", "--libsvm-indices", "--out", out}, 2, "--libsvm-indices and --missing-as-zero apply to --to xgboost only: RankLib numbers"},
		{[]string{"--model", model, "--to", "ranklib", "--prefix", "m", "--out", out}, 2, "--prefix applies to --to c only"},
		{[]string{"--cascade", empty, "--stage", "1", "--to", "ranklib", "--out", out}, 1, empty + ": stage 1 of 2 has no trees"},
		{[]string{"--model", big, "--to", "ranklib", "--out", out}, 1, big + ": tree 0: leaf 0: value 1e+39 is outside RankLib's float32 range"},
		{[]string{"--cascade", bigStage, "--stage", "1", "--to", "ranklib", "--out", out}, 1, bigStage + ": stage 1: tree 3: leaf 0: value "},
	} {
		code, _, errOut := runCLI(t, append([]string{"export"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.want)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%v wrote %s", c.args, out)
		}
	}
}

// A LightGBM model whose objective's options change its prediction
// (LightGBM's binary objective predicts σ(sigmoid·s), regression sqrt
// s·|s|) has no XGBoost counterpart: binary:logistic would predict σ(s).
// It is written as reg:squarederror, with the note, as an unknown
// objective is; "binary sigmoid:1" is binary:logistic.
func TestExportLightGBMObjectiveOptions(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("engine", "tree", "testdata", "lgb-regression-dart.model.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ objective, want, note string }{
		{"binary sigmoid:1", "binary:logistic", ""},
		{"binary sigmoid:2", "reg:squarederror", `"binary sigmoid:2" has no XGBoost counterpart`},
		{"regression sqrt", "reg:squarederror", `"regression sqrt" has no XGBoost counterpart`},
		{"regression", "reg:squarederror", ""},
		// An empty objective line imports; export panicked on it.
		{"", "reg:squarederror", `"" has no XGBoost counterpart`},
	} {
		lgb := filepath.Join(dir, "lgb.txt")
		text := strings.Replace(string(src), "\nobjective=regression\n", "\nobjective="+c.objective+"\n", 1)
		if err := os.WriteFile(lgb, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		model := filepath.Join(dir, "lgb.json")
		if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", lgb, "--out", model); code != 0 {
			t.Fatal(errOut)
		}
		code, out, errOut := runCLI(t, "export", "--model", model, "--to", "xgboost", "--out", filepath.Join(dir, "x.json"), "--json")
		var r struct{ Objective string }
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
			t.Fatalf("%s: exit %d: %s%s", c.objective, code, out, errOut)
		}
		if r.Objective != c.want || (c.note == "") != !strings.Contains(errOut, "no XGBoost counterpart") || !strings.Contains(errOut, c.note) {
			t.Errorf("%s: written as %s (want %s), notes %q", c.objective, r.Objective, c.want, errOut)
		}
	}
}

// An XGBoost model's objective settings go out as they came in, where
// export wrote XGBoost's defaults (a tweedie variance power of 1.7 went
// out as 1.5): what XGBoost's eval metric and further training read. A
// model that saved none keeps XGBoost's defaults.
func TestExportKeepsXGBoostObjectiveParams(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("engine", "tree", "testdata", "xgb-poisson.json"))
	if err != nil {
		t.Fatal(err)
	}
	const poisson = `"objective":{"name":"count:poisson","poisson_regression_param":{"max_delta_step":"0.699999988"}}`
	if !strings.Contains(string(src), poisson) {
		t.Fatal("the fixture's objective changed")
	}
	for _, c := range []struct{ objective, want string }{
		{`"objective":{"name":"reg:tweedie","tweedie_regression_param":{"tweedie_variance_power":"1.70000005"}}`,
			`"objective":{"name":"reg:tweedie","tweedie_regression_param":{"tweedie_variance_power":"1.70000005"}}`},
		{`"objective":{"name":"count:poisson","poisson_regression_param":{"max_delta_step":"0.300000012"}}`,
			`"objective":{"name":"count:poisson","poisson_regression_param":{"max_delta_step":"0.300000012"}}`},
		{`"objective":{"name":"reg:pseudohubererror","pseudo_huber_param":{"huber_slope":"2.5"}}`,
			`"objective":{"name":"reg:pseudohubererror","pseudo_huber_param":{"huber_slope":"2.5"}}`},
		// None saved (a hand-made file): XGBoost's defaults.
		{`"objective":{"name":"reg:tweedie"}`,
			`"objective":{"name":"reg:tweedie","tweedie_regression_param":{"tweedie_variance_power":"1.5"}}`},
	} {
		in := filepath.Join(dir, "x.json")
		if err := os.WriteFile(in, []byte(strings.Replace(string(src), poisson, c.objective, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		model := filepath.Join(dir, "m.json")
		if code, _, errOut := runCLI(t, "import", "--from", "xgboost", in, "--out", model); code != 0 {
			t.Fatal(errOut)
		}
		out := filepath.Join(dir, "out.json")
		if code, _, errOut := runCLI(t, "export", "--model", model, "--to", "xgboost", "--out", out); code != 0 {
			t.Fatal(errOut)
		}
		if b, _ := os.ReadFile(out); !strings.Contains(string(b), c.want) {
			i := strings.Index(string(b), `"objective"`)
			t.Errorf("%s: exported %s, want %s", c.objective, b[i:], c.want)
		}
	}
}

// export notes when a model imported with --libsvm-indices (XGBoost's
// libsvm reader's numbering) is exported without it, which numbers its
// features from f0 for feature 1; with it, the export reads back as the
// model it came from, and nothing is noted.
func TestExportLibSVMNote(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "--libsvm-indices", "engine/tree/testdata/xgb-libsvm.json", "--out", p("m.json")); code != 0 {
		t.Fatal(errOut)
	}
	const note = "note: the model was imported with --libsvm-indices"
	if code, _, errOut := runCLI(t, "export", "--model", p("m.json"), "--to", "xgboost", "--out", p("a.json")); code != 0 || !strings.Contains(errOut, note) {
		t.Errorf("without --libsvm-indices: exit %d, stderr %q; want the note", code, errOut)
	}
	if code, _, errOut := runCLI(t, "export", "--model", p("m.json"), "--to", "xgboost", "--libsvm-indices", "--out", p("b.json")); code != 0 || strings.Contains(errOut, note) {
		t.Errorf("with --libsvm-indices: exit %d, stderr %q; want no note", code, errOut)
	}
	b, err := os.ReadFile(p("b.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"num_feature":"47"`) {
		t.Errorf("with --libsvm-indices the export has not the source's num_feature 47")
	}
}

// A model imported with --by-name (an XGBoost model trained on a frame of
// selected features named by their numbers) is exported with its features
// by position and no names: XGBoost scores the frame it was trained on
// wrong, without an error (checked with XGBoost 1.7.4 on a 3-column frame
// named "3", "7", "12"), so export notes it, as it notes a model imported
// with --libsvm-indices. A model imported by position is not noted.
func TestExportByNameNote(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	src, err := os.ReadFile("engine/tree/testdata/xgb-binary-logistic.json")
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 46)
	for j := range names {
		names[j] = `"` + strconv.Itoa(2*j+3) + `"`
	}
	named := strings.Replace(string(src), `"feature_names":[]`, `"feature_names":[`+strings.Join(names, ",")+`]`, 1)
	if named == string(src) {
		t.Fatal("the fixture has no empty feature_names")
	}
	if err := os.WriteFile(p("named.json"), []byte(named), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "--by-name", p("named.json"), "--out", p("m.json")); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "engine/tree/testdata/xgb-binary-logistic.json", "--out", p("plain.json")); code != 0 {
		t.Fatal(errOut)
	}
	const note = "note: the model was imported with --by-name"
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--model", p("m.json")}, true},
		{[]string{"--model", p("m.json"), "--libsvm-indices"}, true},
		{[]string{"--model", p("plain.json")}, false},
	} {
		args := append([]string{"export", "--to", "xgboost", "--out", p("out.json")}, c.args...)
		code, _, errOut := runCLI(t, args...)
		if code != 0 || strings.Contains(errOut, note) != c.want {
			t.Errorf("%v: exit %d, stderr %q; want the note: %v", c.args, code, errOut, c.want)
		}
	}
}

// TestExportByNameNoteLightGBM: a LightGBM model imported with --by-name
// gets export's note too (review 2026-12-01: the LightGBM importer did not
// record --by-name in the model's params, as the XGBoost importer does,
// and export said nothing).
func TestExportByNameNoteLightGBM(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := func(names string) string {
		return "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\nmax_feature_idx=2\nobjective=lambdarank\n" +
			"feature_names=" + names + "\nfeature_infos=[0:1] [0:1] [0:1]\ntree_sizes=300\n\n" +
			"Tree=0\nnum_leaves=2\nnum_cat=0\nsplit_feature=1\nsplit_gain=1\nthreshold=0.5\ndecision_type=2\n" +
			"left_child=-1\nright_child=-2\nleaf_value=-0.1 0.2\nleaf_weight=1 1\nleaf_count=10 10\n" +
			"internal_value=0\ninternal_weight=2\ninternal_count=20\nis_linear=0\nshrinkage=0.1\n\n\nend of trees\n"
	}
	if err := os.WriteFile(p("named.txt"), []byte(model("3 7 12")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag, out string
	}{{"--by-name", "m.json"}, {"--zero-based", "zero.json"}} {
		if code, _, errOut := runCLI(t, "import", "--from", "lightgbm", c.flag, p("named.txt"), "--out", p(c.out)); code != 0 {
			t.Fatal(errOut)
		}
	}
	const note = "note: the model was imported with --by-name"
	for _, c := range []struct {
		model string
		want  bool
	}{{"m.json", true}, {"zero.json", false}} {
		code, _, errOut := runCLI(t, "export", "--to", "xgboost", "--model", p(c.model), "--out", p("out.json"))
		if code != 0 || strings.Contains(errOut, note) != c.want {
			t.Errorf("%s: exit %d, stderr %q; want the note: %v", c.model, code, errOut, c.want)
		}
	}
}

// cCLIDriver ranks the queries of its standard input ("nq F", then per
// query "n" and n·F float32 bit patterns) with the exported cascade
// (cas_rank_dense), and prints per document the exit stage, the bits of
// the exit score and of the costs, then the exported stage's and
// model's scores (st_predict, mo_predict), bits too.
const cCLIDriver = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cas.c"
#include "st.c"
#include "mo.c"

static void put(double v)
{
	unsigned long long bits;
	memcpy(&bits, &v, sizeof bits);
	printf(" %016llx", bits);
}

int main(void)
{
	int nq, nf, q, i, f, n;
	if (scanf("%d %d", &nq, &nf) != 2)
		return 2;
	for (q = 0; q < nq; q++) {
		float *x;
		int *ex;
		double *s, *fc, *tc;
		if (scanf("%d", &n) != 1)
			return 2;
		x = (float *)malloc(sizeof *x * (size_t)(n * nf + 1));
		ex = (int *)malloc(sizeof *ex * (size_t)(n + 1));
		s = (double *)malloc(sizeof *s * (size_t)(n + 1));
		fc = (double *)malloc(sizeof *fc * (size_t)(n + 1));
		tc = (double *)malloc(sizeof *tc * (size_t)(n + 1));
		for (i = 0; i < n * nf; i++) {
			unsigned int u;
			if (scanf("%u", &u) != 1)
				return 3;
			memcpy(&x[i], &u, sizeof u);
		}
		if (cas_rank_dense(n, x, nf, NULL, ex, s, fc, tc) != 0)
			return 4;
		for (i = 0; i < n; i++) {
			printf("%d", ex[i]);
			put(s[i]);
			put(fc[i]);
			put(tc[i]);
			put(st_predict(x + i * nf));
			put(mo_predict(x + i * nf));
			printf("\n");
		}
		free(x);
		free(ex);
		free(s);
		free(fc);
		free(tc);
	}
	(void)f;
	return 0;
}
`

// export --to c writes a whole cascade (with --costs and --prefix), one
// of its stages and a model's first trees as C; compiled together, they
// score MQ2008 test as predict does: the cascade's exit stages, scores
// and costs as predict --cascade --exits with the same costs, the stage
// as the cascade's score of the documents that leave there, and the
// model as predict --trees, all bit for bit.
func TestExportC(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 30)
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "4", "--cycles", "0", "--lambda", "0.02", "--rule", "top-m", "--out", p("c.json")); code != 0 {
		t.Fatal(errOut)
	}
	// Other costs than the cascade's: feature k costs k.
	var costs strings.Builder
	for k := 1; k <= 46; k++ {
		fmt.Fprintf(&costs, "%d\n", k)
	}
	if err := os.WriteFile(p("costs.txt"), []byte(costs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var rc struct {
		Stages, Trees int
		TopM          int `json:"top_m"`
		Functions     []string
		Features      []int
		Header        string
	}
	runJSON(t, &rc, "export", "--cascade", p("c.json"), "--to", "c", "--prefix", "cas", "--costs", p("costs.txt"), "--out", p("cas.c"), "--header", p("cas.h"), "--json")
	if rc.Stages != 4 || rc.TopM == 0 || rc.Trees == 0 || rc.Header != p("cas.h") || len(rc.Features) == 0 || !slices.Equal(rc.Functions, []string{"cas_rank", "cas_rank_dense", "cas_rank_work", "cas_work_size"}) {
		t.Errorf("report %+v", rc)
	}
	for _, args := range [][]string{
		{"export", "--cascade", p("c.json"), "--stage", "1", "--to", "c", "--prefix", "st", "--out", p("st.c")},
		{"export", "--model", model, "--trees", "7", "--to", "c", "--prefix", "mo", "--out", p("mo.c")},
		{"predict", "--cascade", p("c.json"), "--costs", p("costs.txt"), "--data", "builtin:mq2008/test", "--exits", p("exits.tsv"), "--out", p("keys.txt")},
		{"predict", "--model", model, "--trees", "7", "--data", "builtin:mq2008/test", "--out", p("mo.txt")},
	} {
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	files := map[string]string{"main.c": cCLIDriver}
	for _, name := range []string{"cas.c", "st.c", "mo.c"} {
		b, err := os.ReadFile(p(name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	// The comments say which trees and what the stage's score decides.
	for name, want := range map[string]string{"mo.c": "from " + model + " (its first 7 of 30 trees)",
		"st.c": " * A document leaves the cascade at stage 1 when this score for it is\n * below"} {
		if !strings.Contains(files[name], want) {
			t.Errorf("%s's comment does not say %q", name, want)
		}
	}
	exe := ctest.Build(t, files, "main.c", ctest.ISO())

	d, err := data.LoadDataset(context.Background(), "builtin:mq2008/test", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(ctest.Run(t, exe, ctest.Queries(d.PaddedCols(46), d.QueryOffsets, 46)))), "\n")
	exits, err := os.ReadFile(p("exits.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(exits)), "\n")[1:]
	mo := readNumbers(t, p("mo.txt"))
	if len(got) != d.NumDocs() || len(want) != len(got) || len(mo) != len(got) {
		t.Fatalf("%d lines from C, %d exits, %d model scores for %d documents", len(got), len(want), len(mo), d.NumDocs())
	}
	bits := func(s string) string {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%016x", math.Float64bits(v))
	}
	stageOne := 0
	for i := range got {
		w := strings.Split(want[i], "\t")
		g := strings.Fields(got[i])
		if g[0] != w[2] || g[1] != bits(w[3]) || g[2] != bits(w[4]) || g[3] != bits(w[5]) || g[5] != fmt.Sprintf("%016x", math.Float64bits(mo[i])) {
			t.Fatalf("document %d: C %q, predict %q (model %v)", i, got[i], want[i], mo[i])
		}
		if w[2] == "1" {
			stageOne++
			if g[4] != g[1] {
				t.Fatalf("document %d left at stage 1 with score %s; the stage's C model scores it %s", i, g[1], g[4])
			}
		}
	}
	if stageOne == 0 || stageOne == len(got) {
		t.Errorf("%d of %d documents left at stage 1", stageOne, len(got))
	}
}

// The header export --to c writes with --header declares the functions
// with C linkage: a C++ program that includes the headers links with the
// C files compiled by a C compiler, and its model scores MQ2008 test's
// first document as predict does.
func TestExportCHeaderCpp(t *testing.T) {
	cxx, err := exec.LookPath("c++")
	if err != nil {
		t.Skipf("no C++ compiler (c++): %v", err)
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skipf("no C compiler (cc): %v", err)
	}
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 12)
	if code, _, errOut := runCLI(t, "cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
		"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "0", "--out", p("c.json")); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{
		{"export", "--model", model, "--to", "c", "--prefix", "mo", "--out", p("mo.c"), "--header", p("mo.h")},
		{"export", "--cascade", p("c.json"), "--to", "c", "--prefix", "cas", "--out", p("cas.c"), "--header", p("cas.h")},
		{"predict", "--model", model, "--data", "builtin:mq2008/test", "--out", p("mo.txt")},
	} {
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	d, err := data.LoadDataset(context.Background(), "builtin:mq2008/test", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var x strings.Builder
	for f := range 46 {
		fmt.Fprintf(&x, "%sf", strconv.FormatFloat(float64(d.PaddedCols(46)[f][0]), 'x', -1, 32))
		if f < 45 {
			x.WriteString(", ")
		}
	}
	main := `#include <cstdio>
#include "mo.h"
#include "cas.h"
int main()
{
	static const float x[46] = {` + x.String() + `};
	int rank[1], ex[1];
	if (cas_rank_dense(1, x, 46, rank, ex, 0, 0, 0) != 0 || rank[0] != 0 || ex[0] < 1)
		return 1;
	std::printf("%a\n", mo_predict(x));
	return 0;
}
`
	if err := os.WriteFile(p("main.cpp"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		append(append([]string{cc}, ctest.ISO()...), "-c", "-o", p("mo.o"), p("mo.c")),
		append(append([]string{cc}, ctest.ISO()...), "-c", "-o", p("cas.o"), p("cas.c")),
		{cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-o", p("prog"), p("main.cpp"), p("mo.o"), p("cas.o")},
	} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil || len(out) > 0 {
			t.Fatalf("%v: %v\n%s", cmd, err, out)
		}
	}
	out, err := exec.Command(p("prog")).Output()
	if err != nil {
		t.Fatalf("the C++ program: %v", err)
	}
	got, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if want := readNumbers(t, p("mo.txt"))[0]; err != nil || got != want {
		t.Errorf("the C++ program's mo_predict: %s (%v), predict: %v", out, err, want)
	}
}

// export --to xgboost notes that a missing value goes the other way than 0
// only where the scores exported read a left-out value as 0: a model
// trained by cronus, and a cascade's stage made without --absent missing.
// A model imported from XGBoost (here one trained on a sparse matrix, so
// that its splits learnt where a missing value goes) and a cascade made
// with --absent missing read it as missing, as XGBoost's libsvm reader
// does: the note's advice, to give XGBoost zeros or export with
// --missing-as-zero, would change their scores, and it was given them too.
func TestExportMissingNote(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	const note = "sends a missing value the other way than 0"
	trained := trainShallow(t, dir, 10)
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", "engine/tree/testdata/xgb-missing.json", "--out", p("xgb.json")); code != 0 {
		t.Fatal(errOut)
	}
	cascade := func(out string, extra ...string) string {
		args := append([]string{"cascade", "--model", p("xgb.json"), "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--lambda", "0.01", "--out", p(out)}, extra...)
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatal(errOut)
		}
		return p(out)
	}
	for _, c := range []struct {
		what string
		args []string
		want bool
	}{
		{"a model trained by cronus", []string{"--model", trained}, true},
		{"a model imported from XGBoost", []string{"--model", p("xgb.json")}, false},
		{"a stage of a cascade made reading left-out values as 0", []string{"--cascade", cascade("c0.json"), "--stage", "2"}, true},
		{"a stage of a cascade made with --absent missing", []string{"--cascade", cascade("cm.json", "--absent", "missing"), "--stage", "2"}, false},
	} {
		args := append([]string{"export", "--to", "xgboost", "--out", p("out.json")}, c.args...)
		code, _, errOut := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.what, code, errOut)
		}
		if got := strings.Contains(errOut, note); got != c.want {
			t.Errorf("%s: noted %v, want %v; stderr %q", c.what, got, c.want, errOut)
		}
		// --missing-as-zero: nothing to note where the model reads a
		// left-out value as 0; an override of the directions learnt where
		// it reads it as missing (it went without a word).
		code, _, errOut = runCLI(t, append(args, "--missing-as-zero")...)
		if code != 0 {
			t.Fatalf("%s --missing-as-zero: exit %d: %s", c.what, code, errOut)
		}
		const override = "note: --missing-as-zero overrides the direction of a missing value the model learnt at "
		if got := strings.Contains(errOut, override); got == c.want || strings.Contains(errOut, note) {
			t.Errorf("%s --missing-as-zero: stderr %q, want the override noted: %v, and no other note of missing values", c.what, errOut, !c.want)
		}
		// RankLib reads a left-out value as 0, whatever the model: noted
		// where the model reads it as missing, the other way round.
		code, _, errOut = runCLI(t, append([]string{"export", "--to", "ranklib", "--out", p("out.txt")}, c.args...)...)
		if code != 0 {
			t.Fatalf("%s --to ranklib: exit %d: %s", c.what, code, errOut)
		}
		const rlNote = "and RankLib reads a value a line leaves out as 0"
		if got := strings.Contains(errOut, rlNote); got == c.want {
			t.Errorf("%s --to ranklib: noted %v, want %v; stderr %q", c.what, got, !c.want, errOut)
		}
	}
}

// A C file exported from a cascade made with --absent missing (whole, or
// one stage) says, in its first comment and in a note, to give a feature
// a document lacks as NaN: its own comment says such a value is 0, as
// predict reads a file by default, and predict --cascade warns that this
// is not how the cascade was made. Nothing is said for a cascade made
// reading left-out values as 0.
func TestExportCAbsentMissingNote(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 10)
	cascade := func(out string, extra ...string) string {
		args := append([]string{"cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--costs", "builtin:mq2008/costs", "--stages", "2", "--cycles", "0", "--lambda", "0.01", "--rhos", "0.02", "--out", p(out)}, extra...)
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatal(errOut)
		}
		return p(out)
	}
	zero, missing := cascade("c0.json"), cascade("cm.json", "--absent", "missing")
	const note = "give the C file such a feature as NaN"
	const comment = "lacks as NaN, not 0"
	for _, c := range []struct {
		what string
		args []string
		want bool
	}{
		{"a cascade made reading left-out values as 0", []string{"--cascade", zero}, false},
		{"one of its stages", []string{"--cascade", zero, "--stage", "1"}, false},
		{"a cascade made with --absent missing", []string{"--cascade", missing}, true},
		{"one of its stages", []string{"--cascade", missing, "--stage", "1"}, true},
	} {
		args := append([]string{"export", "--to", "c", "--out", p("out.c")}, c.args...)
		code, _, errOut := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.what, code, errOut)
		}
		src, err := os.ReadFile(p("out.c"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(errOut, note); got != c.want {
			t.Errorf("%s: noted %v, want %v; stderr %q", c.what, got, c.want, errOut)
		}
		if got := strings.Contains(string(src), comment); got != c.want {
			t.Errorf("%s: the C file's comment says %q: %v, want %v", c.what, comment, got, c.want)
		}
	}
}

// bench/export_c_driver.c, which bench/export-c.sh compiles with an
// exported cascade and model, frees what it allocates on every path it
// takes: built with AddressSanitizer, a run on a few MQ2008 test queries,
// one whose output cannot be written and one on a line without a qid
// report no leak and end with the driver's own exit codes. It freed
// nothing, and LeakSanitizer failed it on each.
func TestExportCBenchDriverFrees(t *testing.T) {
	flags := ctest.Sanitize(t)
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model := trainShallow(t, dir, 10)
	for _, args := range [][]string{
		{"cascade", "--model", model, "--train", "builtin:mq2008/train", "--valid", "builtin:mq2008/vali",
			"--costs", "builtin:mq2008/costs", "--stages", "3", "--cycles", "0", "--lambda", "0.02", "--out", p("c.json")},
		{"export", "--cascade", p("c.json"), "--to", "c", "--prefix", "cas", "--out", p("cas.c")},
		{"export", "--model", model, "--to", "c", "--prefix", "full", "--out", p("full.c")},
	} {
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	files := map[string]string{}
	for name, path := range map[string]string{"driver.c": "bench/export_c_driver.c", "cas.c": p("cas.c"), "full.c": p("full.c")} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	exe := ctest.Build(t, files, "driver.c", flags)
	var letor strings.Builder
	for _, line := range strings.SplitAfter(string(builtinTestText(t)), "\n")[:200] { // a few queries
		letor.WriteString(line)
	}
	for _, tc := range []struct {
		name, out, reps, stdin string
		code                   int
		says                   string // on standard error; "" for nothing
	}{
		{"ranked", p("exits.txt"), "1", letor.String(), 0, ""},
		{"output not written", p("nodir/exits.txt"), "1", letor.String(), 5, ""},
		{"a line without a qid", p("exits2.txt"), "1", letor.String() + "1 1:0.5\n", 3, ""},
		{"no documents", p("exits3.txt"), "1", "", 2, ""},
		// 0 repetitions timed nothing and printed NaN ns per document.
		{"0 repetitions", p("exits4.txt"), "0", letor.String(), 2, "repetitions: give a whole number of at least 1, not 0\n"},
	} {
		cmd := exec.Command(exe, tc.out, tc.reps)
		cmd.Stdin = strings.NewReader(tc.stdin)
		cmd.Env = append(os.Environ(), "ASAN_OPTIONS=detect_leaks=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || stderr.String() != tc.says {
			t.Errorf("%s: exit code %d, want %d; standard error:\n%s", tc.name, code, tc.code, stderr.String())
		}
	}
	if b, err := os.ReadFile(p("exits.txt")); err != nil || strings.Count(string(b), "\n") != 200 {
		t.Errorf("the ranked run wrote %d lines (%v), want 200", strings.Count(string(b), "\n"), err)
	}
}

// The feature lists of export --json are JSON arrays, [] when no tree
// splits: a stage whose trees are all single leaves has no
// stage_features, and a whole cascade with no trees (λ past λ_max) reads
// no features. Both were written null (Go's nil slice), which a reader
// that takes the documented list (len(r["features"]) in Python) fails on.
func TestExportEmptyFeatureListsAreArrays(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	var b strings.Builder
	for q := 1; q <= 10; q++ {
		for d := 0; d < 8; d++ {
			x, y := float64((q*7+d*3)%11)/10, float64((q*5+d*13)%7)/6
			label := 0
			if x+y > 1.1 {
				label = 1
			}
			fmt.Fprintf(&b, "%d qid:%d 1:%g 2:%g 3:%g\n", label, q, x, y, float64(d%3))
		}
	}
	if err := os.WriteFile(p("d.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p("costs.txt"), []byte("1\n10\n100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"train", "--train", p("d.txt"), "--objective", "regression", "--trees", "6", "--max-depth", "2", "--leaves", "4", "--min-docs", "5", "--out", p("m.json")},
		{"cascade", "--model", p("m.json"), "--train", p("d.txt"), "--valid", p("d.txt"), "--costs", p("costs.txt"), "--stages", "2", "--cycles", "1", "--out", p("c.json")},
		{"cascade", "--model", p("m.json"), "--train", p("d.txt"), "--valid", p("d.txt"), "--costs", p("costs.txt"), "--stages", "2", "--cycles", "1", "--lambda", "100", "--out", p("empty.json")},
	} {
		if code, _, errOut := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	// c.json with every tree of its ensemble made a single leaf: its
	// stages keep their trees, which split on nothing.
	raw, err := os.ReadFile(p("c.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	ens := c["ensemble"].(map[string]any)
	trees := ens["trees"].([]any)
	for i := range trees {
		trees[i] = map[string]any{"split_feature": []int{}, "threshold": []float64{}, "left_child": []int{}, "right_child": []int{},
			"leaf_value": []float64{0.25}, "features": []int{}, "leaf_cover": []float64{80}}
	}
	stage := 0
	for k, st := range c["stages"].([]any) {
		if len(st.(map[string]any)["trees"].([]any)) > 0 {
			stage = k + 1
			break
		}
	}
	if stage == 0 {
		t.Fatal("c.json has no stage with trees")
	}
	leafy, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p("leaves.json"), leafy, 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		key  string
		args []string
	}{
		{"stage_features", []string{"--cascade", p("leaves.json"), "--stage", strconv.Itoa(stage), "--to", "xgboost", "--out", p("s.xgb.json")}},
		{"stage_features", []string{"--cascade", p("leaves.json"), "--stage", strconv.Itoa(stage), "--to", "c", "--out", p("s.c")}},
		{"features", []string{"--cascade", p("leaves.json"), "--to", "c", "--out", p("leaves.c")}},
		{"features", []string{"--cascade", p("empty.json"), "--to", "c", "--out", p("empty.c")}},
	} {
		var r map[string]json.RawMessage
		runJSON(t, &r, append([]string{"export", "--json"}, tc.args...)...)
		if got := string(r[tc.key]); got != "[]" {
			t.Errorf("%v: %s %s, want []", tc.args, tc.key, got)
		}
	}
}

// An imported XGBoost random forest (num_parallel_tree 2, 16 trees: 8
// rounds, as XGBoost 1.7.4 saved the fixture) goes back out with its
// rounds, so that XGBoost's num_boosted_rounds, iteration_range and
// best_iteration count as they did for the model; it was written with
// num_parallel_tree 1, 16 rounds of one tree. A prefix that is not whole
// rounds, and a model of another source, are a tree per round.
func TestExportKeepsNumParallelTree(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("engine", "tree", "testdata", "xgb-early-forest.json")
	src, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `"num_parallel_tree":"2","num_trees":"16"`) {
		t.Fatal("the fixture's forest changed")
	}
	model := filepath.Join(dir, "m.json")
	if code, _, errOut := runCLI(t, "import", "--from", "xgboost", in, "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	for _, c := range []struct {
		trees, want string
	}{
		{"all", `"num_parallel_tree":"2","num_trees":"16"`},
		{"6", `"num_parallel_tree":"2","num_trees":"6"`},
		{"5", `"num_parallel_tree":"1","num_trees":"5"`},
	} {
		out := filepath.Join(dir, "out.json")
		if code, _, errOut := runCLI(t, "export", "--model", model, "--trees", c.trees, "--to", "xgboost", "--out", out); code != 0 {
			t.Fatal(errOut)
		}
		if b, _ := os.ReadFile(out); !strings.Contains(string(b), c.want) {
			i := strings.Index(string(b), `"gbtree_model_param"`)
			t.Errorf("--trees %s: exported %.80s, want %s", c.trees, b[i:], c.want)
		}
	}
	// A model of cronus's own is a tree per round.
	own := filepath.Join(dir, "own.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/vali", "--trees", "4", "--leaves", "4", "--out", own); code != 0 {
		t.Fatal(errOut)
	}
	out := filepath.Join(dir, "own-x.json")
	if code, _, errOut := runCLI(t, "export", "--model", own, "--to", "xgboost", "--out", out); code != 0 {
		t.Fatal(errOut)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), `"num_parallel_tree":"1","num_trees":"4"`) {
		t.Errorf("cronus's model exported with %.80s", b[strings.Index(string(b), `"gbtree_model_param"`):])
	}
}

// export --to c --stages k compiles a cascade's first k stages: the same
// C as the whole cascade of a file cut by hand to them (but for the
// comment naming the source), and a report that says so. --stages goes
// with a whole cascade only.
func TestExportCFirstStages(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	model, c := fourStageCascade(t, dir)
	f, err := cronus.ReadFile(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.FirstStages(2); err != nil {
		t.Fatal(err)
	}
	if err := cronus.WriteFile(p("hand.json"), f); err != nil {
		t.Fatal(err)
	}
	var rc struct {
		Stages        int
		FirstStagesOf int `json:"first_stages_of"`
	}
	runJSON(t, &rc, "export", "--cascade", c, "--stages", "2", "--to", "c", "--out", p("cut.c"), "--json")
	if code, _, errOut := runCLI(t, "export", "--cascade", p("hand.json"), "--to", "c", "--out", p("hand.c")); code != 0 {
		t.Fatal(errOut)
	}
	if rc.Stages != 2 || rc.FirstStagesOf != 4 {
		t.Errorf("report %+v, want 2 stages of 4", rc)
	}
	cut, err := os.ReadFile(p("cut.c"))
	if err != nil {
		t.Fatal(err)
	}
	hand, err := os.ReadFile(p("hand.c"))
	if err != nil {
		t.Fatal(err)
	}
	named := c + " (its first 2 of 4 stages)"
	if !bytes.Contains(cut, []byte(named)) {
		t.Errorf("cut.c does not name its source as %q", named)
	}
	if got := bytes.ReplaceAll(cut, []byte(named), []byte(p("hand.json"))); !bytes.Equal(got, hand) {
		t.Errorf("cut.c differs from the C of the cascade cut by hand")
	}
	// All stages is the whole cascade, its source named as it is.
	rc.Stages, rc.FirstStagesOf = 0, 0
	runJSON(t, &rc, "export", "--cascade", c, "--stages", "4", "--to", "c", "--out", p("all.c"), "--json")
	if code, _, errOut := runCLI(t, "export", "--cascade", c, "--to", "c", "--out", p("whole.c")); code != 0 {
		t.Fatal(errOut)
	}
	all, _ := os.ReadFile(p("all.c"))
	whole, _ := os.ReadFile(p("whole.c"))
	if rc.Stages != 4 || rc.FirstStagesOf != 0 || !bytes.Equal(all, whole) {
		t.Errorf("--stages 4 of 4: report %+v; the C equals the whole cascade's: %v", rc, bytes.Equal(all, whole))
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"export", "--cascade", c, "--stages", "5", "--to", "c", "--out", p("x.c")}, "--stages 5: " + c + ": the cascade has 4 stages"},
		{[]string{"export", "--cascade", c, "--stages", "2", "--stage", "1", "--to", "c", "--out", p("x.c")}, "--stages applies to --to c with a whole --cascade only"},
		{[]string{"export", "--cascade", c, "--stages", "2", "--stage", "1", "--to", "xgboost", "--out", p("x.json")}, "--stages applies to --to c with a whole --cascade only"},
		{[]string{"export", "--model", model, "--stages", "2", "--to", "c", "--out", p("x.c")}, "--stages applies to --to c with a whole --cascade only"},
	} {
		if code, _, errOut := runCLI(t, tc.args...); code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.msg)
		}
		if _, err := os.Stat(p("x.c")); err == nil {
			t.Errorf("%v: wrote x.c", tc.args)
		}
	}
}
