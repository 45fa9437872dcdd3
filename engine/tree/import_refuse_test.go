package tree

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestImportXGBoostRefusals checks that XGBoost models cronus cannot read
// as they are (vector leaves, a dart booster whose weights do not match its
// trees, boosters other than trees, a base score the objective's link
// cannot take) are refused with a message naming what is wrong, rather
// than read into an ensemble that scores differently from XGBoost.
func TestImportXGBoostRefusals(t *testing.T) {
	rank := readFixture(t, "xgb-rank-ndcg.json")
	binary := readFixture(t, "xgb-binary-logistic.json")
	dart := readFixture(t, "xgb-dart.json")
	poisson := readFixture(t, "xgb-poisson.json")
	oneWeightLess := regexp.MustCompile(`"weight_drop":\[[^,\]]*,`)
	for _, c := range []struct {
		what, name, src, want string
	}{
		{"vector leaves", "r.json", strings.Replace(rank, `"num_nodes":"31","size_leaf_vector":"0"`, `"num_nodes":"31","size_leaf_vector":"3"`, 1),
			"r.json: tree 0: vector leaves (size_leaf_vector 3) are not supported"},
		{"num_nodes disagrees", "r.json", strings.Replace(rank, `"num_nodes":"31"`, `"num_nodes":"30"`, 1),
			`r.json: tree 0: num_nodes is "30" but left_children has 31 entries`},
		{"unknown booster", "r.json", strings.Replace(rank, `"name":"gbtree"`, `"name":"gbforest"`, 1),
			`r.json: booster "gbforest" is not supported`},
		{"dart weights short", "d.json", oneWeightLess.ReplaceAllString(dart, `"weight_drop":[`),
			"d.json: dart booster has "},
		{"logistic base_score 0", "b.json", strings.Replace(binary, `"base_score":"3E-1"`, `"base_score":"0E0"`, 1),
			"b.json: base_score 0E0 is outside (0, 1), which binary:logistic needs"},
		{"logistic base_score 1", "b.json", strings.Replace(binary, `"base_score":"3E-1"`, `"base_score":"1E0"`, 1),
			"b.json: base_score 1E0 is outside (0, 1), which binary:logistic needs"},
		{"poisson base_score 0", "p.json", strings.Replace(poisson, `"base_score":"4E-1"`, `"base_score":"0E0"`, 1),
			"p.json: base_score 0E0 is not positive, which count:poisson needs"},
		{"poisson base_score negative", "p.json", strings.Replace(poisson, `"base_score":"4E-1"`, `"base_score":"-2E-1"`, 1),
			"p.json: base_score -2E-1 is not positive, which count:poisson needs"},
		{"no base_score", "b.json", strings.Replace(binary, `"base_score":"3E-1",`, ``, 1),
			"b.json: learner_model_param has no base_score"},
		{"num_feature not a number", "r.json", strings.Replace(rank, `"num_feature":"46","num_target"`, `"num_feature":"4x","num_target"`, 1),
			`r.json: learner_model_param num_feature "4x" is not`},
	} {
		if c.src == rank || c.src == binary || c.src == dart || c.src == poisson {
			t.Fatalf("%s: the fixture changed; the case no longer alters it", c.what)
		}
		e, _, err := ImportXGBoost(strings.NewReader(c.src), c.name)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: ensemble %v, error %v, want %q...", c.what, e != nil, err, c.want)
		}
	}
}

// TestImportLightGBMRefusals checks the LightGBM text model errors the
// fixtures' cases leave out: each names the line and what is wrong.
func TestImportLightGBMRefusals(t *testing.T) {
	tiny := strings.NewReplacer("DT", "2", "TH", "0.5").Replace(lgbTiny)
	line := func(s string) string {
		return "tiny.txt:" + strconv.Itoa(strings.Count(tiny[:strings.Index(tiny, s)], "\n")+1) + ": "
	}
	for _, c := range []struct {
		what, src string
		opt       ImportOptions
		want      string
	}{
		{"num_leaves 0", strings.Replace(tiny, "num_leaves=2", "num_leaves=0", 1), ImportOptions{},
			line("num_leaves=2") + `tree 0: num_leaves="0" is not a positive integer`},
		{"num_leaves garbled", strings.Replace(tiny, "num_leaves=2", "num_leaves=two", 1), ImportOptions{},
			line("num_leaves=2") + `tree 0: num_leaves="two" is not a positive integer`},
		{"negative max_feature_idx", strings.Replace(tiny, "max_feature_idx=2", "max_feature_idx=-1", 1), ImportOptions{},
			line("max_feature_idx=2") + `max_feature_idx="-1" is not a non-negative integer`},
		{"garbage between trees", strings.Replace(tiny, "\n\nend of trees", "\n\nTree 1\nend of trees", 1), ImportOptions{},
			line("end of trees") + `unexpected line "Tree 1" between trees`},
		// 0-based, column j is feature j+1: max_feature_idx 10000000
		// would be feature 10000001, one past what cronus reads.
		{"0-based past the last feature", strings.Replace(tiny, "max_feature_idx=2", "max_feature_idx=10000000", 1), ImportOptions{ZeroBased: true},
			line("max_feature_idx=2") + "max_feature_idx=10000000: with 0-based columns that is feature 10000001, and cronus reads data with feature indices up to 10000000"},
		{"by name without names", strings.Replace(tiny, "feature_names=Column_0 Column_1 Column_2\n", "", 1), ImportOptions{ByName: true},
			"--by-name: the header (lines 1-"},
		{"by name, names short", strings.Replace(tiny, "feature_names=Column_0 Column_1 Column_2", "feature_names=Column_0 Column_1", 1), ImportOptions{ByName: true},
			line("feature_names=") + "--by-name: the model has 2 feature names for its 3 columns"},
	} {
		if c.src == tiny {
			t.Fatalf("%s: the case does not alter the model", c.what)
		}
		e, _, err := ImportLightGBMWith(strings.NewReader(c.src), "tiny.txt", c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "tiny.txt:") {
			t.Errorf("%s: ensemble %v, error %v, want %q", c.what, e != nil, err, c.want)
		}
	}
}

// TestImportLightGBMInfiniteThreshold checks a split at threshold inf (or
// one past every float32): LightGBM sends every finite value left, and so
// must the imported tree, missing values (compared as 0 with
// decision_type 2) included; and the model must survive its own file.
func TestImportLightGBMInfiniteThreshold(t *testing.T) {
	for _, th := range []string{"inf", "1e300"} {
		src := strings.NewReplacer("DT", "2", "TH", th).Replace(lgbTiny)
		e, _, err := ImportLightGBM(strings.NewReader(src), "tiny.txt")
		if err != nil {
			t.Fatalf("threshold %s: %v", th, err)
		}
		b, err := EncodeModel(NewModel(e, "lightgbm", nil), "")
		if err != nil {
			t.Fatalf("threshold %s: encode: %v", th, err)
		}
		m, err := ParseModel("m.json", b)
		if err != nil {
			t.Fatalf("threshold %s: the written model does not read back: %v", th, err)
		}
		back, err := m.Ensemble()
		if err != nil {
			t.Fatalf("threshold %s: %v", th, err)
		}
		for _, x := range []float32{0, 1, -math.MaxFloat32, math.MaxFloat32, float32(math.NaN())} {
			for name, e := range map[string]*Ensemble{"imported": e, "read back": back} {
				if got := rawScore(e, []float32{x, 0}); got != 1 {
					t.Errorf("threshold %s, %s, x = %v: leaf %v, want 1 (left)", th, name, x, got)
				}
			}
		}
	}
}
