package cronus

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// fileHandCascade is a three-stage cascade over scHandEnsemble with weights
// whose shortest decimal forms are long, a −Inf and a finite threshold, and
// a last-stage threshold (which the file does not keep).
func fileHandCascade() *Cascade {
	tenth := 0.1 // a variable: 0.1 + 0.2 in constants is exactly 0.3
	return &Cascade{Rule: RuleTopM, TopM: 3, Stages: []Stage{
		{Beta: []float64{tenth + 0.2, 0, 0, -1.0 / 3}, Theta: math.Nextafter(0.5, 1)},
		{Beta: []float64{0, 0, 0, 0}, Theta: math.Inf(-1)},
		{Beta: []float64{math.Pi, -2e-300, 1e300, 5e-324}, Theta: 7},
	}}
}

func fileHandFile() *File {
	return NewFile(scHandEnsemble(), fileHandCascade(), []float64{1, 10, 100, 1000, 99}, scHandTreeCost, 0.05,
		map[string]any{"lambda": 0.01, "stages": 3.0, "epsilon": 0.15, "name": "hand"})
}

func TestFileRoundTrip(t *testing.T) {
	fx := scLoad(t)
	// The trained ensemble has float32 thresholds and float64 leaves of
	// every kind; give it a cascade with a tree in every other stage.
	T := len(fx.e.Trees)
	trained := &Cascade{Rule: RuleGlobal}
	for k := range 3 {
		beta := make([]float64, T+1)
		for t := k; t < T; t += 2 + k {
			beta[t] = 1 / float64(t+1)
		}
		beta[T] = fx.e.Base
		trained.Stages = append(trained.Stages, Stage{Beta: beta, Theta: -float64(k) / 7})
	}
	treeCost := make([]float64, T)
	for t := range treeCost {
		treeCost[t] = 1 + float64(t)/3
	}
	cases := []struct {
		name     string
		e        *tree.Ensemble
		c        *Cascade
		featCost []float64
		treeCost []float64
	}{
		{"hand", scHandEnsemble(), fileHandCascade(), []float64{1, 10, 100, 1000}, scHandTreeCost},
		{"trained", fx.e, trained, fx.featCost, treeCost},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		params := map[string]any{"lambda": 1e-3, "sigma": 0.02, "rule": tc.c.Rule}
		path := filepath.Join(dir, tc.name+".json")
		if err := WriteFile(path, NewFile(tc.e, tc.c, tc.featCost, tc.treeCost, 0.02, params)); err != nil {
			t.Fatal(err)
		}
		f, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		e, c, err := f.Cascade()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(e, tc.e) {
			t.Errorf("%s: the ensemble changed", tc.name)
		}
		if c.Rule != tc.c.Rule || c.TopM != tc.c.TopM || len(c.Stages) != len(tc.c.Stages) {
			t.Fatalf("%s: rule %q top %d, %d stages; want %q %d, %d", tc.name, c.Rule, c.TopM, len(c.Stages),
				tc.c.Rule, tc.c.TopM, len(tc.c.Stages))
		}
		for k, st := range c.Stages {
			want := tc.c.Stages[k]
			if !sameBits(st.Beta, want.Beta) {
				t.Errorf("%s: stage %d: weights %v, want %v", tc.name, k, st.Beta, want.Beta)
			}
			wantTheta := want.Theta
			if k == len(c.Stages)-1 {
				wantTheta = math.Inf(-1)
			}
			if math.Float64bits(st.Theta) != math.Float64bits(wantTheta) {
				t.Errorf("%s: stage %d: theta %v, want %v", tc.name, k, st.Theta, wantTheta)
			}
		}
		if !sameBits(f.FeatureCost, tc.featCost[:tc.e.NumFeatures]) || !sameBits(f.TreeCost, tc.treeCost) ||
			f.Sigma != 0.02 || !reflect.DeepEqual(f.Params, params) {
			t.Errorf("%s: costs %v %v, sigma %v, params %v", tc.name, f.FeatureCost, f.TreeCost, f.Sigma, f.Params)
		}
		if f.StageSigma() != nil {
			t.Errorf("%s: σ_k %v read from a file that records none", tc.name, f.StageSigma())
		}
		// Writing what was read gives the same bytes.
		b1, _ := os.ReadFile(path)
		b2, err := encodeFile(f)
		if err != nil || !bytes.Equal(b1, b2) {
			t.Errorf("%s: re-encoding differs (%v)", tc.name, err)
		}
	}
}

// TestFileLayout pins the shape of the file a person reads: header fields,
// one line per stage, the ensemble with one line per tree.
func TestFileLayout(t *testing.T) {
	b, err := encodeFile(fileHandFile())
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "format": "cronus-cascade",
  "version": 1,
  "rule": "top-m",
  "top_m": 3,
  "sigma": 0.05,
  "feature_cost": [1,10,100,1000],
  "tree_cost": [1,2,4],
  "params": {"epsilon":0.15,"lambda":0.01,"name":"hand","stages":3},
  "stages": [
    {"trees":[0],"weights":[0.30000000000000004],"intercept":-0.3333333333333333,"theta":0.5000000000000001},
    {"trees":[],"weights":[],"intercept":0,"theta":null},
    {"trees":[0,1,2],"weights":[3.141592653589793,-2e-300,1e+300],"intercept":5e-324,"theta":null}
  ],
  "ensemble": {
    "format": "cronus-ensemble",
    "version": 1,
    "objective": "regression",
    "num_features": 4,
    "base_score": 0,
    "source": "cronus",
    "trees": [
      {"split_feature":[1],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[-1,1],"features":[1]},
      {"split_feature":[2,3],"threshold":[0.5,0.5],"left_child":[1,-1],"right_child":[-3,-2],"leaf_value":[0,2,4],"features":[2,3]},
      {"split_feature":[1,4],"threshold":[0.5,0.5],"left_child":[-1,-2],"right_child":[1,-3],"leaf_value":[10,20,30],"features":[1,4]}
    ]
  }
}
`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Errorf("not JSON: %v", err)
	}
}

// fileMutated returns the JSON of the hand file after change, bypassing
// the checks of encodeFile.
func fileMutated(t *testing.T, change func(f *File)) []byte {
	t.Helper()
	f := fileHandFile()
	change(f)
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The σ_k a file records read back bit for bit.
func TestFileStageSigma(t *testing.T) {
	want := []float64{0.1, 1.0 / 3, 2e-7}
	b := fileMutated(t, func(f *File) { f.SetStageSigma(want) })
	path := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.StageSigma(); !sameBits(got, want) {
		t.Errorf("σ_k %v, want %v", got, want)
	}
	if !bytes.Contains(b, []byte(`"sigma_abs":0.3333333333333333`)) {
		t.Errorf("no sigma_abs in the stages:\n%s", b)
	}
}

func TestFileMalformed(t *testing.T) {
	fp := func(v float64) *float64 { return &v }
	huge := bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"intercept":0,`), []byte(`"intercept":1e999,`), 1)
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", []byte("  \n"), "empty file; expected a cascade file (JSON)"},
		{"truncated", []byte("{\n  \"format\": \"cronus-cascade\",\n  \"vers"), "3:7: unexpected end of file"},
		{"not JSON", []byte("qid:1 1:0.5\n"), "not a cascade file: a cascade file is a JSON object (cronus cascade writes one)"},
		{"LightGBM text", []byte("tree\nversion=v4\n"), "not a cascade file: it looks like a LightGBM text model: convert it with cronus import --from lightgbm"},
		{"array", []byte("[1, 2]"), "not a cascade file: the JSON holds an array, not an object"},
		{"XGBoost UBJSON", []byte("{L\x00\x00\x00\x00\x00\x00\x00\x07learner{L\x00\x00\x00\x00\x00\x00\x00\x0aattributes{}"),
			"not a cascade file: binary data, not JSON text; it looks like an XGBoost model saved as UBJSON (.ubj): convert it with cronus import --from xgboost"},
		// Windows PowerShell's > writes UTF-16: it was "binary data (a
		// NUL byte)", with no word of what to do.
		{"UTF-16", append([]byte("\xff\xfe"), utf16le(string(fileMutated(t, func(f *File) {})))...),
			"not a cascade file: UTF-16 text (its byte order mark); expected JSON in UTF-8 or ASCII: convert it, e.g. iconv -f UTF-16 -t UTF-8"},
		// A trace given as --warm or --cascade stopped at "2:1: invalid
		// character '{' after top-level value".
		{"trace", []byte("{\"cycle\":0,\"phase\":\"initialising\"}\n{\"cycle\":1}\n"),
			"not a cascade file: a JSON value on each line (a trace, as cascade --trace writes?); a cascade file is one JSON object (cascade --out writes one)"},
		{"two objects, one line", []byte(`{"format": "cronus-cascade"} {"a": 1}`), "1:30: a second JSON value after the object that ends on line 1 (two files joined?), where the file is one JSON object"},
		{"string", []byte(`"cascade"`), "the JSON holds a string"},
		{"no format", []byte(`{"version": 1}`), `no "format" field`},
		{"format not a string", []byte(`{"format": 3}`), "format 3 is not a string"},
		{"other format", []byte(`{"format": "cronus-sweep", "version": 1}`), `format "cronus-sweep"`},
		{"a model file", []byte(`{"format": "cronus-ensemble", "version": 1, "trees": []}`), "is a model"},
		{"no version", []byte(`{"format": "cronus-cascade"}`), `no cascade file "version"`},
		{"version not a number", []byte(`{"format": "cronus-cascade", "version": "1"}`), `version "1" is not an integer`},
		{"newer version", []byte(`{"format": "cronus-cascade", "version": 2, "stages": {"new": "layout"}}`),
			"cascade file version 2 is newer than this cronus supports (1)"},
		{"negative version", []byte(`{"format": "cronus-cascade", "version": -1}`), "version -1 is not valid"},
		{"wrong type", []byte("{\"format\": \"cronus-cascade\", \"version\": 1,\n\"stages\": 5}"), "2:11: stages: expected an array of objects, got the number 5"},
		{"number too large", huge, "stages[1].intercept: the number 1e999 is out of range (the largest is 1.8e+308)"},
		{"no ensemble", fileMutated(t, func(f *File) { f.Ensemble = nil }), `no "ensemble"`},
		{"ensemble format", fileMutated(t, func(f *File) { f.Ensemble.Format = "xgboost" }), `ensemble: format "xgboost"`},
		{"ensemble version", fileMutated(t, func(f *File) { f.Ensemble.Version = 9 }), "ensemble: model version 9 is newer"},
		{"ensemble tree", fileMutated(t, func(f *File) { f.Ensemble.Trees[1].Left[0] = 7 }), "ensemble: tree 1: node 7 out of range"},
		{"no stages", fileMutated(t, func(f *File) { f.Stages = nil }), "no stages"},
		{"tree out of range", fileMutated(t, func(f *File) { f.Stages[2].Trees[2] = 3 }),
			"stages[2]: trees[2]: tree 3 is out of range (the ensemble has 3 trees, numbered from 0)"},
		{"negative tree", fileMutated(t, func(f *File) { f.Stages[0].Trees[0] = -1 }), "stages[0]: trees[0]: tree -1 is out of range"},
		{"not ascending", fileMutated(t, func(f *File) { f.Stages[2].Trees = []int{0, 2, 1} }),
			"stages[2]: trees[2]: tree 1 follows tree 2"},
		{"repeated tree", fileMutated(t, func(f *File) { f.Stages[2].Trees = []int{0, 1, 1} }), "strictly ascending"},
		{"weights missing", fileMutated(t, func(f *File) { f.Stages[2].Weights = f.Stages[2].Weights[:2] }),
			"stages[2]: 3 trees but 2 weights"},
		// Finite weights whose products with the leaves leave the
		// float64 range: the stage scored documents +Inf, ranked quietly.
		{"scores past float64", fileMutated(t, func(f *File) { f.Stages[2].Weights[2] = 1e307 }),
			"stages[2]: the intercept and tree 2's weight times its largest leaf value, with those of the trees before it, sum past the float64 range"},
		// A leaf past float32, as a cascade scores the outputs: refused as
		// the weighted sum past float64, or taken with a weight of 0.
		{"leaf past float32", fileMutated(t, func(f *File) { f.Ensemble.Trees[1].Leaf[0] = 1e39 }),
			"ensemble: tree 1: leaf 0's value 1e+39 is outside the float32 range (±3.4028235e+38) of the tree outputs a cascade scores"},
		{"leaf past float32, weight 0", fileMutated(t, func(f *File) { f.Ensemble.Trees[2].Leaf[1] = -1e300; f.Stages[2].Weights[2] = 0 }),
			"ensemble: tree 2: leaf 1's value -1e+300 is outside the float32 range"},
		{"theta on the last stage", fileMutated(t, func(f *File) { f.Stages[2].Theta = fp(1) }),
			"stages[2]: the last stage has no threshold"},
		// A hand-edited stage count: a warm start from it was quietly no
		// continuation of its run.
		{"params.stages not the stages", fileMutated(t, func(f *File) { f.Params = map[string]any{"stages": 4} }),
			"params.stages is 4, but the file has 3 stages"},
		{"params.stages not a number", fileMutated(t, func(f *File) { f.Params = map[string]any{"stages": "3"} }),
			`params.stages is "3", not a number (the file has 3 stages)`},
		// Shown as JSON: Go's %#v said <nil>, map[string]interface {}{…}.
		{"params.stages null", fileMutated(t, func(f *File) { f.Params = map[string]any{"stages": nil} }),
			`params.stages is null, not a number (the file has 3 stages)`},
		{"params.stages an object", fileMutated(t, func(f *File) { f.Params = map[string]any{"stages": map[string]any{"n": 3}} }),
			`params.stages is {"n":3}, not a number (the file has 3 stages)`},
		{"params.stages an array", fileMutated(t, func(f *File) { f.Params = map[string]any{"stages": []any{3}} }),
			`params.stages is [3], not a number (the file has 3 stages)`},
		{"params.stages long", fileMutated(t, func(f *File) { f.Params = map[string]any{"stages": strings.Repeat("é", 30)} }),
			`params.stages is "` + strings.Repeat("é", 19) + `..., not a number`},
		// A hand-edited model tree count: inspect showed "first 1000
		// trees" of a 3-tree ensemble.
		{"params.model_trees not the trees", fileMutated(t, func(f *File) { f.Params = map[string]any{"model_trees": 1000} }),
			"params.model_trees is 1000, but the file's ensemble has 3 trees"},
		{"params.model_trees not a number", fileMutated(t, func(f *File) { f.Params = map[string]any{"model_trees": "3"} }),
			`params.model_trees is "3", not a number (the file's ensemble has 3 trees)`},
		// params that say another exit rule than the file's, or another
		// reading of left-out features than "missing" or "zero": cascade
		// --warm went by the file's rule, and read "Missing" as zero.
		{"params.rule not the rule", fileMutated(t, func(f *File) { f.Params = map[string]any{"rule": "global"} }),
			`params.rule is "global", but the file's rule is "top-m"`},
		{"params.top_m not top_m", fileMutated(t, func(f *File) { f.Params = map[string]any{"top_m": 5.0} }),
			"params.top_m is 5, but the file's top_m is 3"},
		{"params.top_m under global", fileMutated(t, func(f *File) { f.Rule, f.TopM = RuleGlobal, 0; f.Params = map[string]any{"top_m": 3.0} }),
			`params.top_m is 3, but the file's rule is "global", which has none`},
		// A hand-edited σ in params: cascade --warm went on with the
		// file's "sigma", and took the run for another one (sameRun).
		{"params.sigma not the sigma", fileMutated(t, func(f *File) { f.Params = map[string]any{"sigma": 0.5} }),
			"params.sigma is 0.5, but the file's sigma is 0.05"},
		{"params.sigma not a number", fileMutated(t, func(f *File) { f.Params = map[string]any{"sigma": "0.05"} }),
			`params.sigma is "0.05", not a number (the file's sigma is 0.05)`},
		{"params.absent a number", fileMutated(t, func(f *File) { f.Params = map[string]any{"absent": 5.0} }),
			`params.absent is 5: want "missing" or "zero"`},
		{"params.absent capitalised", fileMutated(t, func(f *File) { f.Params = map[string]any{"absent": "Missing"} }),
			`params.absent is "Missing": want "missing" or "zero"`},
		{"no rule", fileMutated(t, func(f *File) { f.Rule = "" }), `no "rule"`},
		{"unknown rule", fileMutated(t, func(f *File) { f.Rule = "top-k" }), `unknown rule "top-k"`},
		{"top-m without m", fileMutated(t, func(f *File) { f.TopM = 0 }), `rule "top-m" needs top_m >= 1`},
		{"m without top-m", fileMutated(t, func(f *File) { f.Rule = RuleGlobal }), "top_m 3 is only meaningful"},
		{"negative sigma", fileMutated(t, func(f *File) { f.Sigma = -1 }), "sigma -1"},
		// Read as 0, a file without "sigma" loaded (inspect showed σ 0)
		// while cascade --warm refused it as "σ must be in (0, 10]".
		{"no sigma", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"sigma":0.05,`), nil, 1),
			`no "sigma": the scale of the soft exits the cascade was trained with`},
		{"sigma 0", fileMutated(t, func(f *File) { f.Sigma = 0 }), "sigma 0 must be in (0, 10]"},
		{"sigma past MaxSigma", fileMutated(t, func(f *File) { f.Sigma = 11 }), "sigma 11 must be in (0, 10]"},
		{"feature costs short", fileMutated(t, func(f *File) { f.FeatureCost = f.FeatureCost[:3] }),
			"feature_cost has 3 entries for a model of 4 features"},
		{"feature cost negative", fileMutated(t, func(f *File) { f.FeatureCost[1] = -10 }), "feature 2 costs -10"},
		{"feature cost too large", fileMutated(t, func(f *File) { f.FeatureCost[3] = 1e308 }), "feature 4 costs 1e+308; costs must be from 0 to 1e+15"},
		{"tree cost too large", fileMutated(t, func(f *File) { f.TreeCost[0] = 2e15 }), "tree_cost[0] is 2e+15; costs must be from 0 to 1e+15"},
		{"tree costs long", fileMutated(t, func(f *File) { f.TreeCost = append(f.TreeCost, 1) }),
			"tree_cost has 4 entries for 3 trees"},
		{"tree cost negative", fileMutated(t, func(f *File) { f.TreeCost[2] = -4 }), "tree_cost[2] is -4"},
		{"sigma_abs on one stage", fileMutated(t, func(f *File) { f.Stages[1].SigmaAbs = fp(0.1) }),
			"stages[0]: no sigma_abs, where stages[1] gives one: sigma_abs must be given on every stage or on none"},
		{"sigma_abs missing on one stage", fileMutated(t, func(f *File) { f.SetStageSigma([]float64{1, 2, 3}); f.Stages[2].SigmaAbs = nil }),
			"stages[2]: no sigma_abs, where stages[0] gives one: sigma_abs must be given on every stage or on none"},
		// A stage without it put first: stages[1], which gives it, was
		// blamed.
		{"sigma_abs missing on the first stage", fileMutated(t, func(f *File) { f.SetStageSigma([]float64{1, 2, 3}); f.Stages[0].SigmaAbs = nil }),
			"stages[0]: no sigma_abs, where stages[1] gives one"},
		{"sigma_abs zero", fileMutated(t, func(f *File) { f.SetStageSigma([]float64{1, 0, 3}) }), "stages[1]: sigma_abs 0 must be a finite number > 0"},
		// A null sigma_abs (a NaN, as JSON writers put it) read as none
		// given: alone on a stage the file loaded as one without them, and
		// beside the others' the message named the next stage.
		{"null sigma_abs", bytes.Replace(fileMutated(t, func(f *File) { f.SetStageSigma([]float64{1, 2, 3}) }), []byte(`"sigma_abs":1`), []byte(`"sigma_abs":null`), 1),
			"stages[0].sigma_abs: expected a number, got null (JSON writers put null for NaN and ±Inf)"},
		{"null sigma_abs everywhere", bytes.ReplaceAll(fileMutated(t, func(f *File) { f.SetStageSigma([]float64{1, 1, 1}) }), []byte(`"sigma_abs":1`), []byte(`"sigma_abs":null`)),
			"stages[0].sigma_abs: expected a number, got null"},
		// encoding/json reads null into a number as 0.
		{"null weight", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"weights":[`), []byte(`"weights":[null,`), 1),
			"stages[0].weights[0]: expected a number, got null (JSON writers put null for NaN and ±Inf)"},
		{"null intercept", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"intercept":0,`), []byte(`"intercept":null,`), 1),
			"stages[1].intercept: expected a number, got null"},
		{"null leaf value", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"leaf_value":[`), []byte(`"leaf_value":[null,`), 1),
			"ensemble.trees[0].leaf_value[0]: expected a number, got null"},
		// A null stage or ensemble tree is an object missing; a null in a
		// stage's "trees" is a tree index (a number) missing: it said
		// "expected an object" there too.
		{"null stage", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"stages":[`), []byte(`"stages":[null,`), 1),
			"stages[0]: expected an object, got null"},
		{"null ensemble tree", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"trees":[{`), []byte(`"trees":[null,{`), 1),
			"ensemble.trees[0]: expected an object, got null"},
		{"null stage tree index", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"trees":[0,1,2]`), []byte(`"trees":[0,null,2]`), 1),
			"stages[2].trees[1]: expected a number, got null"},
		// and leaves a missing one at 0: a stage without its intercept
		// loaded, and its scores moved against its theta.
		{"no intercept", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"intercept":-0.3333333333333333,`), nil, 1),
			`stages[0]: no "intercept"`},
		{"no base score", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"base_score":0,`), nil, 1),
			`ensemble: no "base_score"`},
		// Python's json.dump writes NaN and ±Infinity, which are not JSON:
		// encoding/json said "invalid character 'I' in numeric literal".
		{"Python -Infinity theta", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"theta":null`), []byte(`"theta":-Infinity`), 1),
			"-Infinity is not JSON (Python's json.dump writes it for float('-inf')): a number here must be finite (a cascade stage's theta of −∞ is written null)"},
		{"Python NaN sigma", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"sigma":0.05`), []byte(`"sigma":NaN`), 1),
			"NaN is not JSON (Python's json.dump writes it for float('nan')): a number here must be finite"},
		{"Python Infinity cost", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"tree_cost":[1`), []byte(`"tree_cost":[Infinity`), 1),
			"Infinity is not JSON (Python's json.dump writes it for float('inf'))"},
		// encoding/json matches keys to fields whatever their case, and
		// keeps the last of a key given twice: a hand edit's "Sigma" or
		// "THETA" loaded as sigma and theta, and a second "sigma" replaced
		// the first without a word.
		{"Sigma", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"sigma":0.05`), []byte(`"Sigma":0.05`), 1),
			`key "Sigma" where "sigma" is meant: keys are case-sensitive`},
		{"THETA", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"theta":null`), []byte(`"THETA":null`), 1),
			`stages[1]: key "THETA" where "theta" is meant`},
		{"ensemble tree key in another case", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"leaf_value":[`), []byte(`"Leaf_Value":[`), 1),
			`ensemble.trees[0]: key "Leaf_Value" where "leaf_value" is meant`},
		{"sigma twice", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"sigma":0.05`), []byte(`"sigma":1,"sigma":0.05`), 1),
			`key "sigma" given twice (first on line 1)`},
		{"intercept twice", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"intercept":0,`), []byte(`"intercept":0,"intercept":0,`), 1),
			`stages[1]: key "intercept" given twice`},
		{"feature_cost twice", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"feature_cost":[`), []byte(`"feature_cost":[],"feature_cost":[`), 1),
			`key "feature_cost" given twice`},
		{"null feature cost", bytes.Replace(fileMutated(t, func(f *File) {}), []byte(`"feature_cost":[`), []byte(`"feature_cost":[null,`), 1),
			"feature_cost[0]: expected a number, got null"},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		path := filepath.Join(dir, "c.json")
		if err := os.WriteFile(path, tc.b, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := ReadFile(path)
		if err == nil {
			t.Errorf("%s: no error (%+v)", tc.name, f)
			continue
		}
		if !strings.HasPrefix(err.Error(), path+":") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q, want %q after the path", tc.name, err, tc.want)
		}
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := ReadFile(missing); !errors.Is(err, fs.ErrNotExist) || err.Error() != missing+": no such file" {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ReadFile(dir); err == nil || err.Error() != dir+": is a directory, expected a cascade file" {
		t.Errorf("directory: %v", err)
	}
}

func TestWriteFileRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name   string
		change func(c *Cascade)
		want   string
	}{
		{"NaN weight", func(c *Cascade) { c.Stages[0].Beta[0] = math.NaN() }, "stages[0]: weights[0]: NaN is not finite"},
		{"+Inf theta", func(c *Cascade) { c.Stages[0].Theta = math.Inf(1) }, "stages[0]: theta +Inf is not finite"},
		{"NaN intercept", func(c *Cascade) { c.Stages[1].Beta[3] = math.NaN() }, "stages[1]: intercept NaN"},
		{"unknown rule", func(c *Cascade) { c.Rule = "fast" }, `unknown rule "fast"`},
	}
	for _, tc := range bad {
		c := fileHandCascade()
		tc.change(c)
		err := WriteFile(path, NewFile(scHandEnsemble(), c, scHandFeatCost, scHandTreeCost, 0.05, nil))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// An infinite split threshold is a valid tree but cannot be written.
	e := scHandEnsemble()
	e.Trees[0].Nodes[0].Threshold = float32(math.Inf(1))
	if err := WriteFile(path, NewFile(e, fileHandCascade(), scHandFeatCost, scHandTreeCost, 0.05, nil)); err == nil ||
		!strings.Contains(err.Error(), "ensemble: tree 0: split 0: threshold +Inf") {
		t.Errorf("infinite threshold: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("a refused write changed the file: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

func TestNewFilePanics(t *testing.T) {
	e := scHandEnsemble()
	cases := map[string]func(){
		"feature costs": func() { NewFile(e, fileHandCascade(), scHandFeatCost[:3], scHandTreeCost, 0, nil) },
		"tree costs":    func() { NewFile(e, fileHandCascade(), scHandFeatCost, scHandTreeCost[:1], 0, nil) },
		"beta length": func() {
			NewFile(e, &Cascade{Stages: []Stage{{Beta: []float64{1}}}}, scHandFeatCost, scHandTreeCost, 0.05, nil)
		},
	}
	for name, fn := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			fn()
		}()
	}
}

// FuzzReadCascadeFile: parse never panics, its errors name the file (and
// a line and column of it), and whatever it accepts converts to a
// cascade, writes, and reads back the same.
func FuzzReadCascadeFile(f *testing.F) {
	good, err := encodeFile(fileHandFile())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"top-m"`), []byte(`"global"`), 1))
	f.Add([]byte(`{"format": "cronus-cascade", "version": 1, "stages": [{"trees": [5]}]}`))
	f.Add([]byte(`{"format": "cronus-cascade", "version": 2}`))
	f.Add([]byte(`{"format": "cronus-ensemble", "version": 1}`))
	f.Add([]byte(`[]`))
	withSigma := fileHandFile()
	withSigma.SetStageSigma([]float64{0.5, 1e-300, 7})
	if b, err := encodeFile(withSigma); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := ParseFile("in.cascade", b)
		if err != nil {
			checkFileError(t, b, err)
			return
		}
		if _, _, err := file.Cascade(); err != nil {
			t.Fatalf("parse accepted a file that Cascade refuses: %v", err)
		}
		b2, err := encodeFile(file)
		if err != nil {
			t.Fatalf("parse accepted a file that cannot be written: %v", err)
		}
		file2, err := parse(b2)
		if err != nil {
			t.Fatalf("the written file does not read back: %v", err)
		}
		if b3, _ := encodeFile(file2); !bytes.Equal(b2, b3) {
			t.Fatalf("writing what was read changes the file:\n%s\n%s", b2, b3)
		}
		if sg := file.StageSigma(); sg != nil {
			for k, v := range sg {
				if !(v > 0) || math.IsInf(v, 1) {
					t.Fatalf("stage %d: σ_k %v accepted", k, v)
				}
			}
			if !sameBits(sg, file2.StageSigma()) {
				t.Fatalf("σ_k %v read back as %v", sg, file2.StageSigma())
			}
		}
	})
}

// fileErrorAt finds the line and column an error of ParseFile names, as in
// "in.cascade:3:14: …".
var fileErrorAt = regexp.MustCompile(`^in\.cascade:(?:([0-9]+):([0-9]+):)?`)

// checkFileError checks that err, ParseFile's refusal of b as in.cascade,
// names the file, and a line and column that b has when it names one, and
// speaks of JSON, not of Go types.
func checkFileError(t *testing.T, b []byte, err error) {
	t.Helper()
	m := fileErrorAt.FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error does not name the file: %v", err)
	}
	if strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "Go value") {
		t.Fatalf("error speaks of Go types: %v", err)
	}
	if m[1] == "" {
		return
	}
	lines := bytes.Split(b, []byte("\n"))
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1])+1 {
		t.Fatalf("error names line %d, column %d of a file of %d lines: %v", line, col, len(lines), err)
	}
}

// TestReadFileForeignModel: another library's model given as a cascade
// (eval --cascade xgb.json) said only `not a cascade file: no "format"
// field`, or that a cascade file is a JSON object; it is named, with the
// way to a cascade: an import, then cronus cascade.
func TestReadFileForeignModel(t *testing.T) {
	for path, want := range map[string]string{
		"../tree/testdata/export-binary.xgb.json":   "it looks like an XGBoost JSON model: convert it with cronus import --from xgboost, and build a cascade from it with cronus cascade",
		"../tree/testdata/lgb-lambdarank.model.txt": "it looks like a LightGBM text model: convert it with cronus import --from lightgbm, and build a cascade from it with cronus cascade",
	} {
		_, err := ReadFile(path)
		if err == nil || !strings.Contains(err.Error(), path+": not a cascade file: "+want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
}

// utf16le returns s (ASCII) as UTF-16LE, without a byte order mark.
func utf16le(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return b
}

// TestFirstStages cuts random cascades over a trained ensemble to their
// first k stages: the file keeps k stages with no threshold on the last
// and says so in its params; a document leaves before stage k where the
// whole cascade lets it leave, with the same score and cost, and every
// other document leaves at stage k with its score there (the reference
// exits of the first k stages), having paid no more than in the whole
// cascade nor less than with k−1 stages. A k out of range changes nothing.
func TestFirstStages(t *testing.T) {
	fx := scLoad(t)
	e, d := fx.e, fx.test
	o := NewOutputs(e, d)
	r := rand.New(rand.NewPCG(11, 13))
	treeCost := make([]float64, len(e.Trees))
	for t := range treeCost {
		treeCost[t] = 0.25 + r.Float64()
	}
	file := func(c *Cascade) *File {
		return NewFile(e, c, fx.featCost, treeCost, 0.05, map[string]any{"stages": len(c.Stages), "lambda": 0.01})
	}
	cut := 0
	for trial := 0; cut < 30; trial++ {
		c := scRandomCascade(r, o)
		K := len(c.Stages)
		if K < 2 {
			continue
		}
		full := Score(e, c, d, fx.featCost, treeCost)
		for _, k := range []int{0, K + 1, -1} {
			f := file(c)
			if err := f.FirstStages(k); err == nil || !strings.Contains(err.Error(), "from 1 to "+strconv.Itoa(K)) {
				t.Fatalf("FirstStages(%d) of %d stages: error %v", k, K, err)
			}
			if !reflect.DeepEqual(f, file(c)) {
				t.Fatalf("FirstStages(%d) of %d stages changed the file", k, K)
			}
		}
		for _, k := range []int{0, K + 1} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("Cascade.FirstStages(%d) of %d stages did not panic", k, K)
					}
				}()
				c.FirstStages(k)
			}()
		}
		var prev *Result
		for k := 1; k <= K; k++ {
			f := file(c)
			if err := f.FirstStages(k); err != nil {
				t.Fatal(err)
			}
			if len(f.Stages) != k || f.Stages[k-1].Theta != nil {
				t.Fatalf("trial %d: first %d of %d stages: %d stages, last theta %v", trial, k, K, len(f.Stages), f.Stages[k-1].Theta)
			}
			wantParams := map[string]any{"stages": k, "lambda": 0.01, "first_stages_of": K}
			if k == K {
				wantParams = map[string]any{"stages": K, "lambda": 0.01}
			}
			if !reflect.DeepEqual(f.Params, wantParams) {
				t.Fatalf("trial %d: first %d of %d stages: params %v, want %v", trial, k, K, f.Params, wantParams)
			}
			ce, cc, err := f.Cascade()
			if err != nil {
				t.Fatalf("trial %d: first %d of %d stages: %v", trial, k, K, err)
			}
			if want := c.FirstStages(k); !reflect.DeepEqual(cc, want) {
				t.Fatalf("trial %d: the file's first %d of %d stages are not Cascade.FirstStages's", trial, k, K)
			}
			res := Score(ce, cc, d, f.FeatureCost, f.TreeCost)
			ref := &Cascade{Rule: c.Rule, TopM: c.TopM, Stages: c.Stages[:k:k]}
			exit, score := scReferenceExits(ref, o, d.QueryOffsets)
			if !slices.Equal(res.Exit, exit) || !slices.Equal(res.Score, score) {
				t.Fatalf("trial %d (%s): first %d of %d stages: exits or scores differ from the reference's", trial, c.Rule, k, K)
			}
			for i := range res.Exit {
				paid, fullPaid := res.FeatureCost[i]+res.TreeCost[i], full.FeatureCost[i]+full.TreeCost[i]
				switch {
				case full.Exit[i] < k-1 && (res.Exit[i] != full.Exit[i] || res.Score[i] != full.Score[i] ||
					res.FeatureCost[i] != full.FeatureCost[i] || res.TreeCost[i] != full.TreeCost[i]):
					t.Fatalf("trial %d: first %d of %d stages: document %d left at %d (score %v, paid %v), the whole cascade at %d (%v, %v)",
						trial, k, K, i, res.Exit[i], res.Score[i], paid, full.Exit[i], full.Score[i], fullPaid)
				case full.Exit[i] >= k-1 && (res.Exit[i] != k-1 || paid > fullPaid):
					t.Fatalf("trial %d: first %d of %d stages: document %d left at %d having paid %v; the whole cascade, at %d, %v",
						trial, k, K, i, res.Exit[i], paid, full.Exit[i], fullPaid)
				case prev != nil && paid < prev.FeatureCost[i]+prev.TreeCost[i]:
					t.Fatalf("trial %d: first %d of %d stages: document %d paid %v, less than with %d stages", trial, k, K, i, paid, k-1)
				}
			}
			if k == K && (!slices.Equal(res.Key, full.Key) || res.Cost != full.Cost) {
				t.Fatalf("trial %d: all %d stages differ from the whole cascade", trial, K)
			}
			prev = &res
		}
		cut++
	}
}
