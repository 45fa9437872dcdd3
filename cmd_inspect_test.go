package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cronus-ltr/cronus/data"
)

// inspectModelJSON is a two-tree model over 4 features with split gains and
// covers: tree 0 splits on features 3 (gain 10, cover 100) and 1 (2, 60),
// tree 1 on feature 3 (6, 100).
const inspectModelJSON = `{
  "format": "cronus-ensemble",
  "version": 1,
  "objective": "regression",
  "num_features": 4,
  "base_score": 0.5,
  "source": "xgboost",
  "trees": [
    {"split_feature":[3,1],"threshold":[0.5,0.2],"left_child":[1,-1],"right_child":[-3,-2],"leaf_value":[-1,0,1],"features":[1,3],"split_gain":[10,2],"cover":[100,60]},
    {"split_feature":[3],"threshold":[0.7],"left_child":[-1],"right_child":[-2],"leaf_value":[-0.5,0.5],"features":[3],"split_gain":[6],"cover":[100]}
  ]
}`

// inspectReport is the part of inspect --json on a model or cascade that
// the tests read.
type inspectReport struct {
	Kind, Source, Objective string
	Trees                   int
	NumFeatures             int     `json:"num_features"`
	BaseScore               float64 `json:"base_score"`
	Leaves, Depth           struct {
		Min    int
		Median float64
		Max    int
		Total  int
	}
	Costs        string
	FeaturesUsed int  `json:"features_used"`
	HasGain      bool `json:"has_gain"`
	HasCover     bool `json:"has_cover"`
	Cost         struct{ Total, Features, Trees float64 }
	Features     []struct {
		Feature       int
		Name          string
		Cost          float64
		Splits, Trees int
		Gain          *float64
		GainShare     *float64 `json:"gain_share"`
		Cover         *float64
	}
	CostGroups []struct {
		Cost                   float64
		Features, Used, Splits int
		GainShare              *float64 `json:"gain_share"`
	} `json:"cost_groups"`
	Rule   string
	Stages []struct {
		Stage, Trees   int
		Theta          *float64
		NewTrees       int     `json:"new_trees"`
		NewFeatures    []int   `json:"new_features"`
		NewFeatureCost float64 `json:"new_feature_cost"`
		Cost           struct{ Total, Features, Trees float64 }
	}
	TreesUsed int            `json:"trees_used"`
	Params    map[string]any `json:"params"`
}

func inspectJSON(t *testing.T, args ...string) inspectReport {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"inspect", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("inspect %v: exit %d: %s", args, code, errOut)
	}
	var r inspectReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	return r
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// The summary of a hand-made model, worked by hand: feature 3 (cost 20)
// has 2 splits in 2 trees, gain 10+6 = 16 of 18 and cover 200; feature 1
// (cost 5) 1 split, gain 2, cover 60; features 2 and 4 (cost 1) none. All
// trees on a document pay 20+5 for features and 1 per tree.
func TestInspectModel(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	costs := filepath.Join(dir, "costs.txt")
	os.WriteFile(model, []byte(inspectModelJSON), 0o644)
	os.WriteFile(costs, []byte("1 5 bm25\n2 1 length\n3 20 proximity\n4 1 pagerank\n"), 0o644)
	r := inspectJSON(t, model, "--costs", costs)
	if r.Kind != "model" || r.Source != "xgboost" || r.Objective != "regression" || r.Trees != 2 || r.NumFeatures != 4 || r.BaseScore != 0.5 {
		t.Errorf("header %+v", r)
	}
	if r.Leaves.Min != 2 || r.Leaves.Median != 2.5 || r.Leaves.Max != 3 || r.Leaves.Total != 5 || r.Depth.Min != 1 || r.Depth.Median != 1.5 || r.Depth.Max != 2 {
		t.Errorf("leaves %+v, depth %+v", r.Leaves, r.Depth)
	}
	if !r.HasGain || !r.HasCover || r.FeaturesUsed != 2 || r.Cost.Features != 25 || r.Cost.Trees != 2 || r.Cost.Total != 27 || r.Costs != costs {
		t.Errorf("gain %v, cover %v, %d features used, cost %+v, costs %q", r.HasGain, r.HasCover, r.FeaturesUsed, r.Cost, r.Costs)
	}
	if len(r.Features) != 2 {
		t.Fatalf("features %+v", r.Features)
	}
	f3, f1 := r.Features[0], r.Features[1] // by gain
	if f3.Feature != 3 || f3.Name != "proximity" || f3.Cost != 20 || f3.Splits != 2 || f3.Trees != 2 || *f3.Gain != 16 || !near(*f3.GainShare, 16.0/18) || *f3.Cover != 200 {
		t.Errorf("feature 3: %+v", f3)
	}
	if f1.Feature != 1 || f1.Name != "bm25" || f1.Cost != 5 || f1.Splits != 1 || f1.Trees != 1 || *f1.Gain != 2 || !near(*f1.GainShare, 2.0/18) || *f1.Cover != 60 {
		t.Errorf("feature 1: %+v", f1)
	}
	type group struct {
		cost                   float64
		features, used, splits int
		share                  float64
	}
	var groups []group
	for _, g := range r.CostGroups {
		groups = append(groups, group{g.Cost, g.Features, g.Used, g.Splits, *g.GainShare})
	}
	if want := []group{{1, 2, 0, 0, 0}, {5, 1, 1, 1, 2.0 / 18}, {20, 1, 1, 2, 16.0 / 18}}; len(groups) != 3 ||
		groups[0] != want[0] || groups[1].cost != 5 || groups[1].used != 1 || !near(groups[1].share, want[1].share) || groups[2].splits != 2 || !near(groups[2].share, want[2].share) {
		t.Errorf("cost groups %+v, want %+v", groups, want)
	}

	// gzip-compressed, as every model reader takes it.
	gz := filepath.Join(dir, "m.json.gz")
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(inspectModelJSON))
	zw.Close()
	os.WriteFile(gz, zb.Bytes(), 0o644)
	if r := inspectJSON(t, gz, "--costs", costs); r.Kind != "model" || r.Cost.Total != 27 {
		t.Errorf("gzip: %+v", r)
	}

	// Without costs every feature costs 1; the text names the columns.
	r = inspectJSON(t, model)
	if r.Cost.Features != 2 || r.Cost.Total != 4 || r.Features[0].Name != "" {
		t.Errorf("without costs: cost %+v, %+v", r.Cost, r.Features[0])
	}
	code, out, errOut := runCLI(t, "inspect", model, "--costs", costs)
	for _, want := range []string{"a model, 2 trees from xgboost (objective regression), 4 features", "cost/doc     27 (features 25, trees 2)",
		"2 of 4 split on", "by total split gain", "proximity", "cost 20       1 feature, 1 used, 2 splits, 88.9% of the gain"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, stderr %q; text lacks %q:\n%s", code, errOut, want, out)
		}
	}

	// Without gains (a RankLib import): splits and trees only, by splits.
	noGain := strings.NewReplacer(`,"split_gain":[10,2],"cover":[100,60]`, "", `,"split_gain":[6],"cover":[100]`, "").Replace(inspectModelJSON)
	os.WriteFile(model, []byte(noGain), 0o644)
	r = inspectJSON(t, model)
	if r.HasGain || r.HasCover || r.Features[0].Gain != nil || r.Features[0].Feature != 3 || r.Features[0].Splits != 2 || r.CostGroups[0].GainShare != nil {
		t.Errorf("without gains: %+v", r)
	}
	if _, out, _ := runCLI(t, "inspect", model); !strings.Contains(out, "by splits: the model records no split gains") || strings.Contains(out, "share") {
		t.Errorf("without gains:\n%s", out)
	}
}

// A cascade's stages, worked by hand on the model above with tree costs 1
// and 2: stage 1 uses tree 1 (feature 3, cost 20; tree cost 2), stage 2
// trees 0 and 1, adding tree 0 (cost 1) and feature 1 (cost 5).
func TestInspectCascade(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	cascade := `{"format": "cronus-cascade", "version": 1, "rule": "top-m", "top_m": 3, "sigma": 0.1,
  "feature_cost": [5, 1, 20, 1], "tree_cost": [1, 2],
  "stages": [
    {"trees": [1], "weights": [1.5], "intercept": 0.1, "theta": -0.5},
    {"trees": [0, 1], "weights": [1, 1], "intercept": 0, "theta": null}
  ],
  "ensemble": ` + inspectModelJSON + `}`
	os.WriteFile(path, []byte(cascade), 0o644)
	r := inspectJSON(t, path)
	if r.Kind != "cascade" || r.Rule != "top-m" || r.TreesUsed != 2 || len(r.Stages) != 2 || r.Costs != "the cascade's own" {
		t.Fatalf("%+v", r)
	}
	s1, s2 := r.Stages[0], r.Stages[1]
	if s1.Stage != 1 || s1.Trees != 1 || s1.NewTrees != 1 || s1.Theta == nil || *s1.Theta != -0.5 || !reflect.DeepEqual(s1.NewFeatures, []int{3}) ||
		s1.NewFeatureCost != 20 || s1.Cost.Features != 20 || s1.Cost.Trees != 2 || s1.Cost.Total != 22 {
		t.Errorf("stage 1: %+v", s1)
	}
	if s2.Stage != 2 || s2.Trees != 2 || s2.NewTrees != 1 || s2.Theta != nil || !reflect.DeepEqual(s2.NewFeatures, []int{1}) ||
		s2.NewFeatureCost != 5 || s2.Cost.Features != 25 || s2.Cost.Trees != 3 || s2.Cost.Total != 28 {
		t.Errorf("stage 2: %+v", s2)
	}
	if r.Cost.Total != 28 || r.FeaturesUsed != 2 || *r.Features[0].Gain != 16 {
		t.Errorf("cost %+v, %d features, %+v", r.Cost, r.FeaturesUsed, r.Features[0])
	}
	// A stage that uses only tree 0: tree 1's split on feature 3 is not
	// counted, nor its cost.
	one := strings.Replace(cascade, `{"trees": [1], "weights": [1.5], "intercept": 0.1, "theta": -0.5},
    {"trees": [0, 1], "weights": [1, 1]`, `{"trees": [0], "weights": [1.5], "intercept": 0.1, "theta": -0.5},
    {"trees": [0], "weights": [1]`, 1)
	os.WriteFile(path, []byte(one), 0o644)
	r = inspectJSON(t, path)
	if r.TreesUsed != 1 || r.Cost.Total != 26 || r.Features[0].Feature != 3 || r.Features[0].Splits != 1 || *r.Features[0].Gain != 10 || r.Stages[1].NewTrees != 0 {
		t.Errorf("one tree: %+v", r)
	}
	// --costs replaces the cascade's feature costs (not its tree costs).
	costs := filepath.Join(dir, "costs.txt")
	os.WriteFile(costs, []byte("7\n7\n7\n7\n"), 0o644)
	if r = inspectJSON(t, path, "--costs", costs); r.Cost.Features != 14 || r.Cost.Trees != 1 {
		t.Errorf("with --costs: %+v", r.Cost)
	}
	// What the file's params say of its optimisation.
	os.WriteFile(path, []byte(strings.Replace(one, `"sigma": 0.1,`, `"sigma": 0.1, "params": {"lambda": 0.1, "lambda_abs": 0.25, "model": "m40.json", "model_trees": 2, "train": "t.txt"},`, 1)), 0o644)
	if r := inspectJSON(t, path); r.Params["model_trees"] != 2.0 || r.Params["model"] != "m40.json" {
		t.Errorf("params %v", r.Params)
	}
	code, out, errOut := runCLI(t, "inspect", path)
	for _, want := range []string{"a cascade, 2 trees", "2 stages, rule top-m 3, σ 0.1; its stages use 1 tree of 2", "at most 26",
		"  optimised    λ 0.1 × λ_max = 0.25, from m40.json's first 2 trees, on t.txt\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, stderr %q; text lacks %q:\n%s", code, errOut, want, out)
		}
	}
	// A cascade sweep --cascade-out wrote says so, with its budget.
	os.WriteFile(path, []byte(strings.Replace(one, `"sigma": 0.1,`, `"sigma": 0.1, "params": {"lambda": 0.1, "model": "m40.json", "train": "t.txt", "sweep": "curve.csv", "budget": 150},`, 1)), 0o644)
	if code, out, errOut := runCLI(t, "inspect", path); code != 0 || !strings.Contains(out, "  optimised    λ 0.1 × λ_max, from m40.json, on t.txt, the best on validation of sweep curve.csv costing at most 150 per document\n") {
		t.Errorf("sweep's cascade: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	// Informational params of another type than Cronus writes (hand
	// edited): a string λ was left out of the line quietly; shown as the
	// file has them.
	os.WriteFile(path, []byte(strings.Replace(one, `"sigma": 0.1,`, `"sigma": 0.1, "params": {"lambda": "0.1", "lambda_abs": null, "model": 7, "train": ["t.txt"]},`, 1)), 0o644)
	if code, out, errOut := runCLI(t, "inspect", path); code != 0 || !strings.Contains(out, "  optimised    λ \"0.1\" = null, from 7, on [\"t.txt\"]\n") {
		t.Errorf("string lambda: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	// A hand-edited model_trees was shown as it was ("first 1000 trees"
	// of 2): refused naming the file and the field.
	os.WriteFile(path, []byte(strings.Replace(one, `"sigma": 0.1,`, `"sigma": 0.1, "params": {"model": "m40.json", "model_trees": 1000},`, 1)), 0o644)
	if code, out, errOut := runCLI(t, "inspect", path); code != 1 || out != "" || !strings.Contains(errOut, path+": params.model_trees is 1000, but the file's ensemble has 2 trees") {
		t.Errorf("model_trees 1000: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// Without "sigma" the file showed σ 0, which cascade --warm refused
	// ("σ must be in (0, 10]"): refused here too, naming the field.
	os.WriteFile(path, []byte(strings.Replace(one, `"sigma": 0.1,`, "", 1)), 0o644)
	if code, out, errOut := runCLI(t, "inspect", path); code != 1 || out != "" || !strings.Contains(errOut, path+`: no "sigma"`) {
		t.Errorf("no sigma: exit %d, stdout %q, stderr %q; want exit 1 and %s: no \"sigma\"", code, out, errOut, path)
	}
}

// A cost file that prices features past a model's (or a cascade's) warns
// naming whose features they are: it said "the data has features up to
// 4", where inspect had read no data.
func TestInspectModelCostsUnusedWarning(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	cascade := filepath.Join(dir, "c.json")
	costs := filepath.Join(dir, "costs.txt")
	os.WriteFile(model, []byte(inspectModelJSON), 0o644)
	os.WriteFile(cascade, []byte(`{"format": "cronus-cascade", "version": 1, "rule": "global", "sigma": 0.1,
  "feature_cost": [5, 1, 20, 1], "tree_cost": [1, 1],
  "stages": [{"trees": [0, 1], "weights": [1, 1], "intercept": 0, "theta": null}],
  "ensemble": `+inspectModelJSON+`}`), 0o644)
	os.WriteFile(costs, []byte("1\n2\n3\n4\n5\n6\n"), 0o644)
	for path, whose := range map[string]string{model: "the model", cascade: "the cascade's model"} {
		code, _, errOut := runCLI(t, "inspect", "--json", path, "--costs", costs)
		if want := "warning: " + costs + ": the costs of features 5-6 (2 features) are not used: " + whose + " has features up to 4\n"; code != 0 || errOut != want {
			t.Errorf("inspect %s: exit %d, stderr %q, want %q", filepath.Base(path), code, errOut, want)
		}
	}
}

// Gains and covers survive train, the model file and import, and add up:
// every split of the trained model is counted once.
func TestInspectTrainedModel(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/vali", "--trees", "5", "--leaves", "6", "--out", model); code != 0 {
		t.Fatal(errOut)
	}
	r := inspectJSON(t, model, "--costs", "builtin:mq2008/costs")
	splits := 0
	var share float64
	for _, f := range r.Features {
		splits += f.Splits
		share += *f.GainShare
		if *f.Gain <= 0 || *f.Cover <= 0 || f.Trees > f.Splits || f.Trees > 5 {
			t.Errorf("feature %+v", f)
		}
	}
	if !r.HasGain || !r.HasCover || splits != r.Leaves.Total-r.Trees || !near(share, 1) || r.Costs != "builtin:mq2008/costs" {
		t.Errorf("%d splits for %d leaves in %d trees; gain shares sum to %v; %+v", splits, r.Leaves.Total, r.Trees, share, r)
	}
}

func TestInspectModelErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\"format\": \"cronus-ensemble\",\n \"version\": 1,\n x}"), 0o644)
	xgb := filepath.Join(dir, "xgb.json")
	os.WriteFile(xgb, []byte(`{"learner": {}, "version": [1, 7, 4]}`), 0o644)
	model := filepath.Join(dir, "m.json")
	os.WriteFile(model, []byte("\ufeff  \n"+inspectModelJSON), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect", bad}, 1, bad + ":3:2: invalid character 'x'"},
		{[]string{"inspect", xgb}, 1, xgb + ": not a cronus model: no \"format\" field; it looks like an XGBoost JSON model: convert it with cronus import --from xgboost"},
		{[]string{"inspect", model, "--regroup"}, 2, "--regroup is for data files"},
		{[]string{"inspect", model, "--costs", "builtin:mq2008/costs"}, 0, ""}, // 46 costs for 4 features: a warning
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("cronus %v: exit %d, stderr %q; want %d with %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// inspect --json has every key the README lists, whatever the values: a
// cascade whose stages use no tree has "trees_used": 0 (it was left out),
// and a model of no features "cost_groups": [] (it was null).
func TestInspectJSONKeys(t *testing.T) {
	dir := t.TempDir()
	stumps := `{"format":"cronus-ensemble","version":1,"objective":"regression","num_features":0,"base_score":0,"trees":[` +
		`{"split_feature":[],"threshold":[],"left_child":[],"right_child":[],"leaf_value":[0.5],"features":[]}]}`
	empty := `{"format":"cronus-cascade","version":1,"rule":"global","sigma":0.1,"feature_cost":[5,1,20,1],"tree_cost":[1,2],"stages":[` +
		`{"trees":[],"weights":[],"intercept":0.1,"theta":-0.5},{"trees":[],"weights":[],"intercept":0,"theta":null}],"ensemble":` + inspectModelJSON + `}`
	model := []string{"file", "kind", "source", "objective", "trees", "num_features", "base_score", "leaves", "depth", "costs",
		"features_used", "has_gain", "has_cover", "cost", "features", "cost_groups"}
	for _, c := range []struct {
		name, file string
		keys       []string
		arrays     []string
	}{
		{"stumps.json", stumps, model, []string{"features", "cost_groups"}},
		{"empty.json", empty, append(slices.Clone(model), "rule", "sigma", "trees_used", "stages"), []string{"features", "cost_groups", "stages"}},
	} {
		path := filepath.Join(dir, c.name)
		os.WriteFile(path, []byte(c.file), 0o644)
		code, out, errOut := runCLI(t, "inspect", "--json", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v in %s", c.name, err, out)
		}
		for _, k := range c.keys {
			if _, ok := r[k]; !ok {
				t.Errorf("%s: no %q in %s", c.name, k, out)
			}
		}
		for _, k := range c.arrays {
			if _, ok := r[k].([]any); !ok {
				t.Errorf("%s: %q is %v, not an array", c.name, k, r[k])
			}
		}
	}
}

// The stage table's columns stay under their headings when a stage adds
// more than 999 trees (a first stage of a large ensemble): "new" counts
// the same trees as "trees", and was 3 wide against its 5.
func TestInspectStageTableAlignment(t *testing.T) {
	th := -0.25
	s := modelSummary{File: "c.json", Kind: "cascade", Source: "cronus", Objective: "lambdarank", Trees: 20000, NumFeatures: 4,
		Rule: "global", Sigma: new(float64), TreesUsed: new(int), Features: []featureJSON{},
		Stages: []stageSummaryJSON{
			{Stage: 1, Trees: 1500, Theta: &th, NewTrees: 1500, NewFeatures: []int{1}},
			{Stage: 2, Trees: 12000, NewTrees: 10500, NewFeatures: []int{}},
		}}
	lines := strings.Split(formatModelSummary(&s), "\n")
	var head []rune
	var rows [][]rune
	for _, l := range lines {
		if strings.Contains(l, "stage  trees") {
			head = []rune(l)
		} else if head != nil && len(rows) < 2 {
			rows = append(rows, []rune(l))
		}
	}
	if head == nil || len(rows) != 2 {
		t.Fatalf("no stage table in\n%s", strings.Join(lines, "\n"))
	}
	// Each number ends under the last letter of its heading.
	for _, c := range []struct {
		heading string
		want    []string
	}{{"trees", []string{"1500", "12000"}}, {"new", []string{"1500", "10500"}}, {"θ", []string{"-0.25", "-"}}} {
		end := strings.Index(string(head), " "+c.heading+" ")
		end = len([]rune(string(head)[:end])) + len([]rune(c.heading))
		for k, row := range rows {
			if end >= len(row) || !strings.HasSuffix(string(row[:end+1]), " "+c.want[k]) {
				t.Errorf("stage %d: %q does not end under %q:\n%s\n%s", k+1, c.want[k], c.heading, string(head), string(row))
			}
		}
	}
}

// A stage without θ before the last passes everything and reads -inf, as
// in cascade's report; only the last stage, which has no θ, reads -.
func TestInspectStageThetaPassesEverything(t *testing.T) {
	th := 0.5
	s := modelSummary{File: "c.json", Kind: "cascade", Source: "cronus", Objective: "regression", Trees: 3, NumFeatures: 2,
		Rule: "global", Sigma: new(float64), TreesUsed: new(int), Features: []featureJSON{},
		Stages: []stageSummaryJSON{
			{Stage: 1, Trees: 1, Theta: &th, NewTrees: 1, NewFeatures: []int{1}},
			{Stage: 2, NewFeatures: []int{}},
			{Stage: 3, Trees: 1, NewTrees: 1, NewFeatures: []int{2}},
		}}
	want := map[string]string{"1": "0.5", "2": "-inf", "3": "-"}
	got := map[string]string{}
	for _, l := range strings.Split(formatModelSummary(&s), "\n") {
		if f := strings.Fields(l); len(f) > 3 && want[f[0]] != "" && got[f[0]] == "" {
			got[f[0]] = f[3] // stage, trees, new, θ
		}
	}
	for stage, w := range want {
		if got[stage] != w {
			t.Errorf("stage %s: θ %q, want %q\n%s", stage, got[stage], w, formatModelSummary(&s))
		}
	}
}

// TestReadmeInspectExample: the documentation's example of inspect on a
// model (README's until 2026-12-04, now docs/commands.md's) is what the
// commands it quotes print, line for line (but for the rows it cuts,
// marked "…").
func TestReadmeInspectExample(t *testing.T) {
	b, err := os.ReadFile("docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	const intro = "prints (the table cut to its first rows here):\n\n```\n"
	i := strings.Index(string(b), intro)
	if i < 0 {
		t.Fatal("docs/commands.md has no inspect example")
	}
	block, _, ok := strings.Cut(string(b)[i+len(intro):], "```")
	if !ok {
		t.Fatal("the example's block does not end")
	}
	t.Chdir(t.TempDir())
	if code, _, errOut := runCLI(t, "train", "--train", "builtin:mq2008/train", "--objective", "regression", "--trees", "40", "--max-depth", "2", "--leaves", "4", "--out", "m40.json"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := runCLI(t, "inspect", "m40.json", "--costs", "builtin:mq2008/costs")
	if code != 0 {
		t.Fatal(errOut)
	}
	lines := strings.Split(out, "\n")
	k := 0
	for _, want := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if strings.TrimSpace(want) == "…" {
			continue
		}
		for k < len(lines) && lines[k] != want {
			k++
		}
		if k == len(lines) {
			t.Fatalf("README's line %q is not in the output (in order):\n%s", want, out)
		}
	}
}

// inspect MODEL --data F: each feature's mean |contribution| over F's
// documents, its share, and each cost group's share, on a model worked by
// hand. Tree A splits on feature 1 at 0.5 (leaves −1 and 1, covers 30
// and 10: expected value −0.5), tree B on feature 2 (leaves 0 and 2,
// covers 20 and 20: expected value 1). A document above the threshold of
// feature 1 gets φ1 = 1 − (−0.5) = 1.5, below −1 + 0.5 = −0.5; feature
// 2: +1 or −1. Documents (f1, f2) = (0.9, 0.1), (0.1, 0.9), (0.9, 0.9):
// mean |φ1| = 3.5/3 = 7/6, mean |φ2| = 1, shares 7/13 and 6/13; feature
// 1 costs 5, features 2 and 3 cost 1.
func TestInspectContributions(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	os.WriteFile(model, []byte(`{"format":"cronus-ensemble","version":1,"objective":"regression","num_features":3,"base_score":0,"trees":[
 {"split_feature":[1],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[-1,1],"features":[1],"split_gain":[3],"cover":[40],"leaf_cover":[30,10]},
 {"split_feature":[2],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[0,2],"features":[2],"split_gain":[4],"cover":[40],"leaf_cover":[20,20]}]}`), 0o644)
	docs := filepath.Join(dir, "d.txt")
	os.WriteFile(docs, []byte("1 qid:1 1:0.9 2:0.1 3:0\n0 qid:1 1:0.1 2:0.9 3:0\n2 qid:2 1:0.9 2:0.9 3:0\n"), 0o644)
	costs := filepath.Join(dir, "c.txt")
	os.WriteFile(costs, []byte("5\n1\n1\n"), 0o644)
	code, out, errOut := runCLI(t, "inspect", model, "--costs", costs, "--data", docs, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s modelSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	near := func(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-12 }
	if s.Data != docs || s.DataDocs != 3 || len(s.Features) != 2 {
		t.Fatalf("data %q, %d documents, %d features: %s", s.Data, s.DataDocs, len(s.Features), out)
	}
	// Sorted by mean |contribution| though feature 2 has the larger gain.
	if f := s.Features[0]; f.Feature != 1 || !near(f.MeanAbsContrib, 7.0/6) || !near(f.ContribShare, 7.0/13) {
		t.Errorf("first feature %d: mean |φ| %v, share %v; want 1, 7/6, 7/13", f.Feature, *f.MeanAbsContrib, *f.ContribShare)
	}
	if f := s.Features[1]; f.Feature != 2 || !near(f.MeanAbsContrib, 1) || !near(f.ContribShare, 6.0/13) {
		t.Errorf("second feature %d: mean |φ| %v, share %v; want 2, 1, 6/13", f.Feature, *f.MeanAbsContrib, *f.ContribShare)
	}
	if len(s.CostGroups) != 2 || !near(s.CostGroups[0].ContribShare, 6.0/13) || !near(s.CostGroups[1].ContribShare, 7.0/13) {
		t.Errorf("cost groups %+v; want cost 1 6/13, cost 5 7/13", s.CostGroups)
	}
	code, text, _ := runCLI(t, "inspect", model, "--costs", costs, "--data", docs)
	for _, want := range []string{"importance   by mean |contribution| to the scores of " + docs + "'s 3 documents",
		"mean|φ|   share", "      1           5       1      1          1.17   53.8%", "cost 5        1 feature, 1 used, 1 split, 42.9% of the gain, 53.8% of the mean |contribution|"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("text (exit %d) has no %q:\n%s", code, want, text)
		}
	}

	// Refusals: a cascade, data, --absent alone, a model without covers.
	noCover := filepath.Join(dir, "nc.json")
	os.WriteFile(noCover, []byte(inspectModelJSON), 0o644)
	cascade := filepath.Join(dir, "c.json")
	os.WriteFile(cascade, []byte(`{"format":"cronus-cascade","version":1,"rule":"global","sigma":0.1,"feature_cost":[5,1,20,1],"tree_cost":[1,2],"stages":[`+
		`{"trees":[0],"weights":[1],"intercept":0,"theta":null}],"ensemble":`+inspectModelJSON+`}`), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect", docs, "--data", docs}, 2, "--data applies to a model: " + docs + " is read as data"},
		{[]string{"inspect", model, "--absent", "missing"}, 2, "--absent applies to --data"},
		{[]string{"inspect", noCover, "--data", docs}, 1, noCover + ": --data: "},
		{[]string{"inspect", cascade, "--data", docs}, 2, "--data applies to a model: " + cascade + " is a cascade"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("cronus %v: exit %d, stderr %q; want %d with %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// A feature name in the cost file is the file's text: an escape, a tab or
// invalid UTF-8 in it reached the terminal raw in inspect's table (an ESC
// coloured the rest of the terminal, a tab broke the columns). The text
// shows them escaped; --json keeps the name as the file has it.
func TestInspectCostNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	costs := filepath.Join(dir, "costs.txt")
	os.WriteFile(model, []byte(inspectModelJSON), 0o644)
	os.WriteFile(costs, []byte("1 5 bm\x1b[31m25\n2 1 length\n3 20 prox\timity\x07\n4 1 page\x9brank\n"), 0o644)
	code, out, errOut := runCLI(t, "inspect", model, "--costs", costs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.ContainsAny(out, "\x1b\t\x07\r") || strings.Contains(out, "\x9b") {
		t.Errorf("control characters in the text:\n%q", out)
	}
	for _, want := range []string{`  bm\x1b[31m25` + "\n", `  prox\timity\a` + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	r := inspectJSON(t, model, "--costs", costs)
	if r.Features[0].Name != "prox\timity\x07" || r.Features[1].Name != "bm\x1b[31m25" {
		t.Errorf("--json names %q, %q", r.Features[0].Name, r.Features[1].Name)
	}
}

// TestInspectForeignModels checks that inspect names what it was given
// when that is a model it does not read as it is: a LightGBM or RankLib
// model (the data reader called them a LightGBM model or XML "not
// SVMlight/LETOR data", without the import that converts them, as inspect
// says for XGBoost's JSON), an XGBoost model in its old binary format
// (which the README says inspect names; it was "binary data (a NUL
// byte); expected SVMlight/LETOR text"), and a model or cascade in UTF-16
// (called a data file, "expected SVMlight/LETOR text"). Data in UTF-16 is
// still named by the data reader.
func TestInspectForeignModels(t *testing.T) {
	dir := t.TempDir()
	utf16 := func(s string) []byte {
		b := []byte("\xff\xfe")
		for _, r := range s {
			b = append(b, byte(r), byte(r>>8))
		}
		return b
	}
	lgb, err := os.ReadFile(filepath.Join("engine", "tree", "testdata", "lgb-lambdarank.model.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rl, err := os.ReadFile(filepath.Join("engine", "tree", "testdata", "ranklib-mart.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(rl)
	zw.Close()
	for _, c := range []struct {
		name string
		body []byte
		want string
	}{
		{"lgb.txt", lgb, ": not a cronus model: a model file is a JSON object; it looks like a LightGBM text model: convert it with cronus import --from lightgbm"},
		{"rl.txt", rl, ": not a cronus model: a model file is a JSON object; it looks like a RankLib model: convert it with cronus import --from ranklib"},
		{"rl.txt.gz", gz.Bytes(), ": not a cronus model: a model file is a JSON object; it looks like a RankLib model: convert it with cronus import --from ranklib"},
		{"xgb.bin", []byte("binf\x00\x00\x00?\x03\x00\x00\x00"), ": not a cronus model: binary data, not JSON text; it looks like an XGBoost model in its old binary format"},
		{"m.json", utf16(inspectModelJSON), ": not a model or cascade file: UTF-16 text (its byte order mark); expected JSON in UTF-8 or ASCII: convert it, e.g. iconv -f UTF-16 -t UTF-8"},
		{"d.txt", utf16("1 qid:1 1:0.5\n"), ":1: UTF-16 text (its byte order mark); expected SVMlight/LETOR text in UTF-8 or ASCII"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.body, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI(t, "inspect", path)
		if code != 1 || !strings.Contains(errOut, path+c.want) {
			t.Errorf("inspect %s: exit %d, stderr %q; want 1 with %q", c.name, code, errOut, path+c.want)
		}
	}
}

// TestInspectExtraJSONValues checks what inspect, predict --model and
// import --from xgboost say of a file holding more than one JSON value: a
// cascade followed by another (inspect read it as a model and said
// "2:1: invalid character '{' after top-level value", where predict
// --cascade names JSON lines), a trace (JSON lines) and two pretty-printed
// models joined with cat (encoding/json's words, again).
func TestInspectExtraJSONValues(t *testing.T) {
	dir := t.TempDir()
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	cascade := oneLine(`{"format": "cronus-cascade", "version": 1, "rule": "top-m", "top_m": 3, "sigma": 0.1,
  "feature_cost": [5, 1, 20, 1], "tree_cost": [1, 2],
  "stages": [{"trees": [0, 1], "weights": [1, 1], "intercept": 0, "theta": null}],
  "ensemble": ` + inspectModelJSON + `}`)
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	lines := write("c2.json", cascade+"\n"+cascade+"\n")
	trace := write("trace.jsonl", `{"cycle": 1, "objective": 0.5}`+"\n"+`{"cycle": 2, "objective": 0.4}`+"\n")
	joined := write("m2.json", inspectModelJSON+"\n"+inspectModelJSON+"\n")
	second := 2 + strings.Count(inspectModelJSON, "\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect", lines}, lines + ": not a cascade file: a JSON value on each line (a trace, as cascade --trace writes?)"},
		{[]string{"inspect", trace}, trace + ":2:1: a JSON value on each line (JSON lines, as cascade --trace writes?), where the file is one JSON object"},
		{[]string{"predict", "--model", trace, "--data", "builtin:mq2008/test"}, trace + ":2:1: a JSON value on each line"},
		{[]string{"import", "--from", "xgboost", trace, "--out", filepath.Join(dir, "x.json")}, trace + ":2:1: a JSON value on each line"},
		{[]string{"inspect", joined}, fmt.Sprintf("%s:%d:1: a second JSON value after the object that ends on line %d (two files joined?), where the file is one JSON object", joined, second, second-1)},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("cronus %v: exit %d, stderr %q; want 1 with %q", c.args, code, errOut, c.want)
		}
	}
}

// TestInspectModelParams: a model's params (how train made it) are in
// inspect's JSON as the file has them and in its text on "params" lines,
// in the keys' order, wrapped within 78 columns; a model file without
// params has no such line.
func TestInspectModelParams(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	mustRun(t, "train", "--train", "builtin:mq2008/vali", "--objective", "lambdarank", "--trees", "2", "--lambda-norm=false", "--out", m)
	r := inspectJSON(t, m)
	if r.Params["lambda_norm"] != false || r.Params["trees"] != 2.0 || r.Params["objective"] != "lambdarank" || r.Params["train"] != "builtin:mq2008/vali" {
		t.Errorf("params %v", r.Params)
	}
	_, out, _ := runCLI(t, "inspect", m)
	lines := strings.Split(out, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "  params       ") })
	if i < 0 {
		t.Fatalf("no params line in\n%s", out)
	}
	var items []string
	for j := i; j < len(lines) && (j == i || strings.HasPrefix(lines[j], strings.Repeat(" ", 15))); j++ {
		if n := utf8.RuneCountInString(lines[j]); n > 78 {
			t.Errorf("line %q is %d columns", lines[j], n)
		}
		items = append(items, strings.Split(strings.TrimSpace(lines[j][15:]), ", ")...)
	}
	var keys []string
	for _, it := range items {
		k, v, _ := strings.Cut(strings.TrimSuffix(it, ","), " ")
		keys = append(keys, k)
		if want := fmt.Sprint(r.Params[k]); v != want {
			t.Errorf("params line: %s %s, want %s", k, v, want)
		}
	}
	if !slices.IsSorted(keys) || len(keys) != len(r.Params) {
		t.Errorf("params line keys %v; want the %d keys of %v in order", keys, len(r.Params), r.Params)
	}

	// The hand-made model of TestInspectModel records none.
	bare := filepath.Join(dir, "bare.json")
	os.WriteFile(bare, []byte(inspectModelJSON), 0o644)
	if _, out, _ := runCLI(t, "inspect", bare); strings.Contains(out, "params") {
		t.Errorf("a model without params:\n%s", out)
	}
}

// TestSummaryMediansPlain: medians of counts are written in plain
// decimals, in the data summary and the model summary alike: %g wrote a
// median of 3,000,001 leaves (a chain of splits the model reader takes)
// as 3.000001e+06.
func TestSummaryMediansPlain(t *testing.T) {
	var d data.Summary
	d.DocsPerQuery.Min, d.DocsPerQuery.Median, d.DocsPerQuery.Max = 1, 1500000.5, 3000000
	if got := FormatSummary(d, ""); !strings.Contains(got, "docs/query   min 1, median 1500000.5, max 3000000\n") {
		t.Errorf("data summary:\n%s", got)
	}
	var m modelSummary
	m.Leaves = statsJSON{Min: 3000001, Median: 3000001, Max: 3000001, Total: 3000001}
	m.Depth = statsJSON{Min: 2, Median: 2.5, Max: 3}
	got := formatModelSummary(&m)
	for _, want := range []string{"leaves/tree  min 3000001, median 3000001, max 3000001 (3000001 in all)\n", "depth        min 2, median 2.5, max 3\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("model summary has no %q:\n%s", want, got)
		}
	}
}
