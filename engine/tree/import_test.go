package tree

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

const testNumFeatures = 46

var (
	testDocsOnce sync.Once
	testDocs     [][]float32
	testDocsErr  error
)

// mq2008Test returns the documents of testdata/mq2008-test.txt.gz (MQ2008
// Fold1 test) as dense rows of 46 float32 features, in file order. It has
// its own small SVMlight parser so that this package needs no other.
func mq2008Test(t *testing.T) [][]float32 {
	t.Helper()
	testDocsOnce.Do(func() { testDocs, testDocsErr = readDense("testdata/mq2008-test.txt.gz") })
	if testDocsErr != nil {
		t.Fatal(testDocsErr)
	}
	return testDocs
}

func readDense(path string) ([][]float32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var docs [][]float32
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		s, _, _ := strings.Cut(sc.Text(), "#")
		fs := strings.Fields(s)
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 2+testNumFeatures || !strings.HasPrefix(fs[1], "qid:") {
			return nil, &os.PathError{Op: "parse", Path: path + ":" + strconv.Itoa(line), Err: os.ErrInvalid}
		}
		x := make([]float32, testNumFeatures)
		for k, tok := range fs[2:] {
			idx, val, _ := strings.Cut(tok, ":")
			i, err := strconv.Atoi(idx)
			if err != nil || i != k+1 {
				return nil, &os.PathError{Op: "parse", Path: path + ":" + strconv.Itoa(line), Err: os.ErrInvalid}
			}
			v, err := strconv.ParseFloat(val, 32)
			if err != nil {
				return nil, err
			}
			x[k] = float32(v)
		}
		docs = append(docs, x)
	}
	return docs, sc.Err()
}

// openGzip opens the gzip-compressed file at path, for the test's length.
func openGzip(t *testing.T, path string) *gzip.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

func readPreds(t *testing.T, path string) []float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ps []float64
	for i, s := range strings.Fields(string(data)) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		ps = append(ps, v)
	}
	return ps
}

// rawScore is the ensemble's raw score, computed independently of
// Ensemble.Predict.
func rawScore(e *Ensemble, x []float32) float64 {
	s := e.Base
	for i := range e.Trees {
		s += e.Trees[i].Predict(x)
	}
	return s
}

// maxDiff returns the largest |score - want| over docs, and where.
func maxDiff(e *Ensemble, docs [][]float32, want []float64) (float64, int) {
	d, at := 0.0, -1
	for i, x := range docs {
		if v := math.Abs(rawScore(e, x) - want[i]); v > d || math.IsNaN(v) {
			d, at = v, i
		}
	}
	return d, at
}

var importFixtures = []struct {
	file, from, pred string
	objective        string
	trees            int
	base             float64
	nanZeros         bool // replace every 0 by NaN before predicting
	// exact32: summing base and leaves in float32, in tree order, as
	// XGBoost's CPU predictor does, reproduces its output bit for bit. (Not
	// for logit bases or DART weights, which XGBoost computes in float32.)
	exact32 bool
}{
	{"lgb-lambdarank.model.txt", "lightgbm", "lgb-lambdarank.pred.txt", "lambdarank", 100, 0, false, false},
	{"lgb-regression-dart.model.txt", "lightgbm", "lgb-regression-dart.pred.txt", "regression", 60, 0, false, false},
	{"xgb-rank-ndcg.json", "xgboost", "xgb-rank-ndcg.pred.txt", "rank:ndcg", 100, 0.5, false, true},
	{"xgb-reg-lossguide.json", "xgboost", "xgb-reg-lossguide.pred.txt", "reg:squarederror", 80, 0.3, false, true},
	{"xgb-binary-logistic.json", "xgboost", "xgb-binary-logistic.pred.txt", "binary:logistic", 20, math.Log(0.3 / 0.7), false, false},
	{"xgb-missing.json", "xgboost", "xgb-missing.pred.txt", "reg:squarederror", 30, 0.5, false, true},
	{"xgb-missing.json", "xgboost", "xgb-missing.nan.pred.txt", "reg:squarederror", 30, 0.5, true, true},
	{"xgb-dart.json", "xgboost", "xgb-dart.pred.txt", "reg:squarederror", 20, 0.5, false, false},
	{"xgb-poisson.json", "xgboost", "xgb-poisson.pred.txt", "count:poisson", 10, math.Log(float64(float32(0.4))), false, true},
}

// TestImportFixtures imports real LightGBM and XGBoost models and checks
// that every document of MQ2008 test gets the score the library itself
// computed.
func TestImportFixtures(t *testing.T) {
	docs := mq2008Test(t)
	for _, fx := range importFixtures {
		t.Run(fx.pred, func(t *testing.T) {
			e, prov, err := ImportFile(fx.from, filepath.Join("testdata", fx.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Trees) != fx.trees || e.Objective != fx.objective || e.NumFeatures != testNumFeatures {
				t.Errorf("got %d trees, objective %q, %d features; want %d, %q, %d",
					len(e.Trees), e.Objective, e.NumFeatures, fx.trees, fx.objective, testNumFeatures)
			}
			if math.Abs(e.Base-fx.base) > 1e-7 {
				t.Errorf("base %v, want %v", e.Base, fx.base)
			}
			if prov["source"] != fx.from || prov["trees"] != fx.trees || prov["file"] != fx.file {
				t.Errorf("provenance %v", prov)
			}
			for i := range e.Trees {
				if err := e.Trees[i].Validate(e.NumFeatures); err != nil {
					t.Fatalf("tree %d: %v", i, err)
				}
			}
			docs := docs
			if fx.nanZeros {
				docs = zerosToNaN(docs)
			}
			want := readPreds(t, filepath.Join("testdata", fx.pred))
			if len(want) != len(docs) {
				t.Fatalf("%d predictions for %d documents", len(want), len(docs))
			}
			d, at := maxDiff(e, docs, want)
			t.Logf("%s: max |cronus - %s| = %.3g over %d documents", fx.pred, fx.from, d, len(docs))
			if !(d <= 1e-5) {
				t.Errorf("document %d: score %.9g, %s says %.9g", at+1, rawScore(e, docs[at]), fx.from, want[at])
			}
			if !fx.exact32 {
				return
			}
			for i, x := range docs {
				s := float32(e.Base)
				for k := range e.Trees {
					s += float32(e.Trees[k].Predict(x))
				}
				if s != float32(want[i]) {
					t.Fatalf("document %d: float32 sum %.9g, %s says %.9g", i+1, s, fx.from, want[i])
				}
			}
		})
	}
}

// zerosToNaN returns a copy of docs with every 0 replaced by NaN.
func zerosToNaN(docs [][]float32) [][]float32 {
	c := make([][]float32, len(docs))
	for i, x := range docs {
		c[i] = make([]float32, len(x))
		for k, v := range x {
			if v == 0 {
				v = float32(math.NaN())
			}
			c[i][k] = v
		}
	}
	return c
}

// TestImportMissingFollowsDefault checks that the NaN fixture does exercise
// default_left: documents must meet NaN at splits that send it left and at
// splits that send it right.
func TestImportMissingFollowsDefault(t *testing.T) {
	e, _, err := ImportFile("xgboost", "testdata/xgb-missing.json")
	if err != nil {
		t.Fatal(err)
	}
	var left, right int
	for _, x := range zerosToNaN(mq2008Test(t)) {
		for _, tr := range e.Trees {
			for n := int32(0); n >= 0 && len(tr.Nodes) > 0; {
				nd := tr.Nodes[n]
				v := x[nd.Feature]
				switch {
				case v != v && nd.DefaultLeft:
					left++
					n = nd.Left
				case v != v:
					right++
					n = nd.Right
				case v <= nd.Threshold:
					n = nd.Left
				default:
					n = nd.Right
				}
			}
		}
	}
	t.Logf("NaN went left by default %d times, right %d times", left, right)
	if left == 0 || right == 0 {
		t.Errorf("NaN meets default-left splits %d times and default-right %d times; want both", left, right)
	}
}

func TestFloat32AtMost(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []float64{0, 1, -1, 0.60275900000000016, 1.0000000180025095e-35, 1e-50, -1e-50,
		math.MaxFloat32, math.MaxFloat32 * 1.0000001, -math.MaxFloat32 * 1.0000001, math.SmallestNonzeroFloat32 / 3}
	for range 10000 {
		cases = append(cases, (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(80)-40)))
	}
	for _, x := range cases {
		f := float32AtMost(x)
		up := math.Nextafter32(f, float32(math.Inf(1)))
		if !(float64(f) <= x) || !(float64(up) > x) {
			t.Fatalf("float32AtMost(%v) = %v: want the largest float32 <= it (next up %v)", x, f, up)
		}
	}
}

// lgbTiny is a LightGBM model with one split on column 1 (feature 1) at 0.5;
// DT is its decision_type and TH its threshold.
const lgbTiny = `tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=2
objective=regression
feature_names=Column_0 Column_1 Column_2
feature_infos=none [0:1] [0:1]
tree_sizes=100

Tree=0
num_leaves=2
num_cat=0
split_feature=1
split_gain=1
threshold=TH
decision_type=DT
left_child=-1
right_child=-2
leaf_value=1 2
leaf_weight=1 1
leaf_count=1 1
internal_value=0
internal_weight=0
internal_count=2
is_linear=0
shrinkage=1


end of trees
`

func TestImportLightGBMMissing(t *testing.T) {
	nan := float32(math.NaN())
	zeroT := strconv.FormatFloat(lgbZero, 'g', -1, 64)
	for _, c := range []struct {
		dt, th string
		nan    float64 // the leaf NaN reaches
		err    string
	}{
		{"0", "0.5", 1, ""},   // None: NaN as 0, 0 <= 0.5
		{"2", "-0.5", 2, ""},  // None: NaN as 0, 0 > -0.5; the default bit is ignored
		{"0", "0", 1, ""},     // None: NaN as 0, 0 <= 0
		{"2", "0", 1, ""},     // likewise, the default bit ignored
		{"8", "0.5", 2, ""},   // NaN, default right
		{"10", "-0.5", 1, ""}, // NaN, default left
		{"6", zeroT, 1, ""},   // Zero, default left, the zero band <= threshold
		{"6", "0.5", 1, ""},   // likewise
		{"4", "-0.5", 2, ""},  // Zero, default right, the zero band > threshold
		{"4", "0.5", 0, "missing type Zero"},
		{"1", "0.5", 0, "categorical splits (on column 1) are not supported"},
		{"12", "0.5", 0, "unknown missing type 3"},
	} {
		src := strings.NewReplacer("DT", c.dt, "TH", c.th).Replace(lgbTiny)
		e, _, err := ImportLightGBM(strings.NewReader(src), "tiny.txt")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "tiny.txt:18: tree 0: node 0: ") {
				t.Errorf("decision_type %s threshold %s: error %v, want tiny.txt:18: ... %s", c.dt, c.th, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("decision_type %s threshold %s: %v", c.dt, c.th, err)
			continue
		}
		if got := rawScore(e, []float32{nan, 0}); got != c.nan {
			t.Errorf("decision_type %s threshold %s: NaN reaches leaf value %v, want %v", c.dt, c.th, got, c.nan)
		}
	}
}

// lgbGoesLeft is LightGBM's Tree::NumericalDecision (include/LightGBM/tree.h)
// for a split with threshold thr and decision_type dt: NaN is 0 unless
// the missing type is NaN; with missing type Zero, values in [-kZeroThreshold,
// kZeroThreshold] and with missing type NaN, NaN follow the default-left
// bit; every other value goes left when <= thr.
func lgbGoesLeft(x float64, thr float64, dt int) bool {
	missing, defaultLeft := (dt>>2)&3, dt&2 != 0
	if math.IsNaN(x) && missing != 2 {
		x = 0
	}
	if missing == 1 && x >= -lgbZero && x <= lgbZero || missing == 2 && math.IsNaN(x) {
		return defaultLeft
	}
	return x <= thr
}

// TestImportLightGBMZeroMissing checks splits of missing type Zero (LightGBM's
// zero_as_missing) against LightGBM's rule at values around the zero band
// and the threshold: those whose left side is still the values up to some
// float32 (the band and the threshold send values near zero the same way,
// or the band reaches past the threshold) are imported; the others, whose
// left side has a gap, are refused.
func TestImportLightGBMZeroMissing(t *testing.T) {
	z := float32(lgbZero)
	f := func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 64) }
	below, above := math.Nextafter32(-z, -1), math.Nextafter32(z, 1)
	probes := []float32{float32(math.NaN()), -1, -0.5, math.Nextafter32(-0.5, 0), below, -z,
		-1e-36, float32(math.Copysign(0, -1)), 0, 1e-36, z, above, 1e-34, 0.25, 0.5, math.Nextafter32(0.5, 1), 1}
	for _, c := range []struct {
		dt      string
		th      string
		refused bool
	}{
		{"6", "0.5", false},   // default left, band below the threshold: the plain rule
		{"6", f(z), false},    // LightGBM's kZeroThreshold itself, as its model files write it
		{"6", "1e-35", false}, // just below it
		{"6", "0", false},     // the band goes left and reaches past 0: left up to kZeroThreshold
		{"6", f(-z), false},   // likewise, from -kZeroThreshold
		{"6", "-1e-36", false},
		{"6", f(below), false}, // no float32 between the threshold and the band
		{"6", "-0.5", true},    // -0.5 < x < -kZeroThreshold goes right, the band left
		{"4", "-0.5", false},   // default right, band above the threshold: the plain rule
		{"4", f(below), false},
		{"4", f(-z), false}, // the band goes right: left below -kZeroThreshold
		{"4", "-1e-36", false},
		{"4", "0", false},
		{"4", f(z), false},
		{"4", "1e-34", true}, // kZeroThreshold < x <= 1e-34 goes left, the band right
		{"4", "0.5", true},
	} {
		src := strings.NewReplacer("DT", c.dt, "TH", c.th).Replace(lgbTiny)
		e, _, err := ImportLightGBM(strings.NewReader(src), "tiny.txt")
		if c.refused {
			if err == nil || !strings.HasPrefix(err.Error(), "tiny.txt:18: tree 0: node 0: missing type Zero") {
				t.Errorf("decision_type %s threshold %s: error %v, want tiny.txt:18: tree 0: node 0: missing type Zero ...", c.dt, c.th, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("decision_type %s threshold %s: %v", c.dt, c.th, err)
			continue
		}
		thr, _ := strconv.ParseFloat(c.th, 64)
		dt, _ := strconv.Atoi(c.dt)
		for _, x := range probes {
			want := 2.0
			if lgbGoesLeft(float64(x), thr, dt) {
				want = 1
			}
			if got := rawScore(e, []float32{x, 0}); got != want {
				t.Errorf("decision_type %s threshold %s: x = %v reaches leaf value %v, LightGBM's %v", c.dt, c.th, x, got, want)
			}
		}
	}
}

// TestImportLightGBMLines checks that every error about a tree names the
// line that holds the fault (lgbTiny: Tree=0 on line 12, threshold 17,
// decision_type 18, left_child 19, right_child 20, leaf_value 21).
func TestImportLightGBMLines(t *testing.T) {
	tiny := strings.NewReplacer("DT", "2", "TH", "0.5").Replace(lgbTiny)
	stump := strings.NewReplacer("num_leaves=2", "num_leaves=1", "split_feature=1", "split_feature=",
		"threshold=0.5", "threshold=", "decision_type=2", "decision_type=", "left_child=-1", "left_child=",
		"right_child=-2", "right_child=", "leaf_value=1 2", "leaf_value=V").Replace(tiny)
	endOfTrees := strings.Index(tiny, "end of trees")
	shrinkage := strings.Index(tiny, "shrinkage=1") + len("shrinkage=1") // the end of line 28
	cases := []struct{ what, src, want string }{
		{"NaN leaf of a stump", strings.Replace(stump, "leaf_value=V", "leaf_value=nan", 1),
			`tiny.txt:21: tree 0: leaf 0: leaf_value "nan" is not finite`},
		// A truncated file: the error is on its last line, the one before the
		// final newline if there is one.
		{"truncated after blank lines", tiny[:endOfTrees],
			`tiny.txt:30: unexpected end of file after 1 tree, no "end of trees" line (truncated?)`},
		{"truncated after a newline", tiny[:shrinkage+1],
			`tiny.txt:28: unexpected end of file after 1 tree, no "end of trees" line (truncated?)`},
		{"truncated in a line", tiny[:shrinkage],
			`tiny.txt:28: unexpected end of file after 1 tree, no "end of trees" line (truncated?)`},
	}
	// Edits of tiny: what becomes what, and the whole message.
	for _, c := range [][4]string{
		{"NaN leaf", "leaf_value=1 2", "leaf_value=1 nan", `tiny.txt:21: tree 0: leaf 1: leaf_value "nan" is not finite`},
		{"infinite leaf", "leaf_value=1 2", "leaf_value=-inf 2", `tiny.txt:21: tree 0: leaf 0: leaf_value "-inf" is not finite`},
		{"garbled leaf", "leaf_value=1 2", "leaf_value=1 2x", `tiny.txt:21: tree 0: leaf_value: "2x" is not a number`},
		{"NaN threshold", "threshold=0.5", "threshold=nan", "tiny.txt:17: tree 0: node 0 has a NaN threshold"},
		// -3.5e38 is below the lowest float32: no data value goes left.
		{"threshold below every float32", "threshold=0.5", "threshold=-3.5e38", "tiny.txt:17: tree 0: node 0: threshold -3.5e+38 is below every float32 (no value goes left), which cronus cannot represent"},
		{"threshold -inf", "threshold=0.5", "threshold=-inf", "tiny.txt:17: tree 0: node 0: threshold -Inf is below every float32 (no value goes left), which cronus cannot represent"},
		{"categorical", "decision_type=2", "decision_type=1", "tiny.txt:18: tree 0: node 0: categorical splits (on column 1) are not supported"},
		{"left child out of range", "left_child=-1", "left_child=-3", "tiny.txt:19: tree 0: node 0: child -3 out of range"},
		{"right child out of range", "right_child=-2", "right_child=1", "tiny.txt:20: tree 0: node 0: child 1 out of range"},
		{"leaf reached twice", "right_child=-2", "right_child=-1", "tiny.txt:19: tree 0: leaf 0 out of range or reached twice"},
		{"no leaf_value", "leaf_value=", "leaf_values=", "tiny.txt:12: tree 0: no leaf_value= line"},
		{"no num_leaves", "num_leaves=", "leaves=", "tiny.txt:12: tree 0: no num_leaves= line"},
		{"no right_child", "right_child=", "right=", "tiny.txt:12: tree 0: no right_child= line"},
	} {
		cases = append(cases, struct{ what, src, want string }{c[0], strings.Replace(tiny, c[1], c[2], 1), c[3]})
	}
	for _, c := range cases {
		_, _, err := ImportLightGBM(strings.NewReader(c.src), "tiny.txt")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v,\nwant %s", c.what, err, c.want)
		}
	}
	if _, _, err := ImportLightGBM(strings.NewReader(strings.Replace(stump, "leaf_value=V", "leaf_value=0.5", 1)), "tiny.txt"); err != nil {
		t.Errorf("stump: %v", err)
	}
}

// TestImportLightGBMThreshold checks the float64 threshold against float32
// values next to it.
func TestImportLightGBMThreshold(t *testing.T) {
	const th = 0.60275900000000016
	src := strings.NewReplacer("DT", "2", "TH", strconv.FormatFloat(th, 'g', -1, 64)).Replace(lgbTiny)
	e, _, err := ImportLightGBM(strings.NewReader(src), "tiny.txt")
	if err != nil {
		t.Fatal(err)
	}
	x := float32(th)
	for range 3 {
		x = math.Nextafter32(x, 0)
	}
	for range 6 {
		want := 2.0
		if float64(x) <= th {
			want = 1
		}
		if got := rawScore(e, []float32{x, 0}); got != want {
			t.Errorf("x = %v: leaf %v, want %v", x, got, want)
		}
		x = math.Nextafter32(x, 1)
	}
}

// xgbTiny is an XGBoost JSON model with one tree splitting f0 (feature 1)
// at split condition 0.5.
const xgbTiny = `{"learner":{"attributes":{},"feature_names":[],"feature_types":[],
"gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1","size_leaf_vector":"0"},
"tree_info":[0],"trees":[{"base_weights":[0,1,2],"categories":[],"categories_nodes":[],"categories_segments":[],"categories_sizes":[],
"default_left":[DL,0,0],"id":0,"left_children":[1,-1,-1],"loss_changes":[0,0,0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
"split_conditions":[0.5,1,2],"split_indices":[0,0,0],"split_type":[0,0,0],"sum_hessian":[2,1,1],
"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"3","size_leaf_vector":"0"}}]},"name":"gbtree"},
"learner_model_param":{"base_score":"5E-1","boost_from_average":"1","num_class":"0","num_feature":"2","num_target":"1"},
"objective":{"name":"reg:squarederror","reg_loss_param":{"scale_pos_weight":"1"}}},"version":[1,7,4]}`

func TestImportXGBoostRule(t *testing.T) {
	nan := float32(math.NaN())
	below := math.Nextafter32(0.5, 0)
	for _, dl := range []string{"0", "1"} {
		e, _, err := ImportXGBoost(strings.NewReader(strings.Replace(xgbTiny, "DL", dl, 1)), "tiny.json")
		if err != nil {
			t.Fatal(err)
		}
		nanLeaf := 2.0
		if dl == "1" {
			nanLeaf = 1
		}
		for _, c := range []struct {
			x    float32
			want float64
		}{{nan, 0.5 + nanLeaf}, {0.5, 2.5}, {below, 1.5}, {0, 1.5}, {1, 2.5}} {
			if got := rawScore(e, []float32{c.x, 0}); got != c.want {
				t.Errorf("default_left %s, x = %v: score %v, want %v", dl, c.x, got, c.want)
			}
		}
	}
}

// The objective's parameter objects are kept in the provenance as XGBoost
// saved them (strings), for export to write back; anything but an object
// of strings beside the name is left out, and a bare name keeps none.
func TestImportXGBoostObjectiveParams(t *testing.T) {
	const saved = `"objective":{"name":"reg:squarederror","reg_loss_param":{"scale_pos_weight":"1"}}`
	tiny := strings.Replace(xgbTiny, "DL", "0", 1)
	if !strings.Contains(tiny, saved) {
		t.Fatal("xgbTiny's objective changed")
	}
	for _, c := range []struct {
		objective string
		want      map[string]any
	}{
		{saved, map[string]any{"reg_loss_param": map[string]any{"scale_pos_weight": "1"}}},
		{`"objective":{"name":"reg:squarederror","a":{"x":"1","y":"2"},"b":{"z":"3"},"c":"4","d":{"w":5},"e":{}}`,
			map[string]any{"a": map[string]any{"x": "1", "y": "2"}, "b": map[string]any{"z": "3"}}},
		{`"objective":{"name":"reg:squarederror"}`, nil},
	} {
		_, prov, err := ImportXGBoost(strings.NewReader(strings.Replace(tiny, saved, c.objective, 1)), "tiny.json")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := prov["objective_params"]
		if (c.want == nil) != !ok || (ok && !reflect.DeepEqual(got, c.want)) || prov["objective"] != "reg:squarederror" {
			t.Errorf("%s: objective %v, params %v (%v), want %v", c.objective, prov["objective"], got, ok, c.want)
		}
	}
}

// TestImportXGBoostRenumbers checks that nodes stored out of order (and a
// deleted, unreachable node) come out compact.
func TestImportXGBoostRenumbers(t *testing.T) {
	// Root 0 splits f1 < 0.3 into leaf 3 and node 1; node 1 splits f0 < 0.7
	// into leaves 4 and 2; node 5 is a deleted leftover.
	src := `{"learner":{"gradient_booster":{"name":"gbtree","model":{"tree_info":[0],"trees":[{
"left_children":[3,4,-1,-1,-1,-1],"right_children":[1,2,-1,-1,-1,-1],"split_indices":[1,0,0,0,0,0],
"split_conditions":[0.3,0.7,30,10,20,99],"default_left":[1,0,0,0,0,0],"split_type":[0,0,0,0,0,0],
"tree_param":{"num_nodes":"6","size_leaf_vector":"0"}}]}},
"learner_model_param":{"base_score":"0","num_class":"0","num_feature":"2","num_target":"1"},
"objective":{"name":"reg:squarederror"}},"version":[1,7,4]}`
	e, _, err := ImportXGBoost(strings.NewReader(src), "r.json")
	if err != nil {
		t.Fatal(err)
	}
	tr := e.Trees[0]
	if len(tr.Nodes) != 2 || len(tr.Leaves) != 3 {
		t.Fatalf("%d nodes and %d leaves, want 2 and 3", len(tr.Nodes), len(tr.Leaves))
	}
	for _, c := range []struct {
		x    []float32
		want float64
	}{{[]float32{0, 0.1}, 10}, {[]float32{0.5, 0.9}, 20}, {[]float32{0.9, 0.9}, 30}, {[]float32{0.9, float32(math.NaN())}, 10}} {
		if got := rawScore(e, c.x); got != c.want {
			t.Errorf("x = %v: %v, want %v", c.x, got, c.want)
		}
	}
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lineOf returns the 1-based line of the first occurrence of s in text.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("%q not in the fixture", s)
	}
	return 1 + strings.Count(text[:i], "\n")
}

func TestImportLightGBMErrors(t *testing.T) {
	const name = "lgb-lambdarank.model.txt"
	orig := readFixture(t, name)
	at := func(s string) string { return name + ":" + strconv.Itoa(lineOf(t, orig, s)) + ": " }
	endTree3 := strings.Index(orig, "Tree=3\n")
	for _, c := range []struct {
		what, src, want string
	}{
		{"empty", "", name + ":1: not a LightGBM text model"},
		{"not a model", "hello\nworld\n", name + `:1: not a LightGBM text model (first line "hello", want "tree")`},
		// A long first line is cut at a character, not in one (it read
		// "模型模型模型模型模型模型模\xe5...").
		{"long first line", strings.Repeat("模型", 20) + "\ntree\n", name + `:1: not a LightGBM text model (first line "模型模型模型模型模型模型模...", want "tree")`},
		{"long first line, 2-byte", "a" + strings.Repeat("ü", 30), name + `:1: not a LightGBM text model (first line "a` + strings.Repeat("ü", 19) + `...", want "tree")`},
		{"no trees", orig[:strings.Index(orig, "Tree=0\n")] + "end of trees\n",
			name + ":" + strconv.Itoa(strings.Count(orig[:strings.Index(orig, "Tree=0\n")], "\n")+1) + ": the model has no trees"},
		{"too many features", strings.Replace(orig, "max_feature_idx=46", "max_feature_idx=10000001", 1),
			at("max_feature_idx=46") + "max_feature_idx=10000001: cronus reads data with feature indices up to 10000000"},
		// Past a 32-bit int, and past int64: too large, not "no integer".
		{"far too many features", strings.Replace(orig, "max_feature_idx=46", "max_feature_idx=99999999999", 1),
			at("max_feature_idx=46") + "max_feature_idx=99999999999: cronus reads data with feature indices up to 10000000"},
		{"features past int64", strings.Replace(orig, "max_feature_idx=46", "max_feature_idx=99999999999999999999999", 1),
			at("max_feature_idx=46") + "max_feature_idx=99999999999999999999999: cronus reads data with feature indices up to 10000000"},
		{"not UTF-8", strings.Replace(orig, "objective=lambdarank", "objective=lambdarank\xff", 1),
			at("objective=lambdarank") + "not valid UTF-8"},
		{"truncated between trees", orig[:endTree3],
			name + ":" + strconv.Itoa(strings.Count(orig[:endTree3], "\n")) + `: unexpected end of file after 3 trees, no "end of trees" line (truncated?)`},
		{"truncated in a line", orig[:strings.Index(orig, "Tree=3\n")+200], "tree 3: "},
		{"garbled number", strings.Replace(orig, "threshold=0.60275900000000016", "threshold=0.602x", 1),
			at("threshold=0.602759") + `tree 0: threshold: "0.602x" is not a number`},
		{"short array", strings.Replace(orig, "left_child=1 7 6 11", "left_child=1 7 6", 1),
			at("left_child=1 7 6 11") + "tree 0: left_child has 13 values, want 14"},
		{"missing key", strings.Replace(orig, "right_child=2 3 5 4 10", "right_kid=2 3 5 4 10", 1),
			"tree 0: no right_child= line"},
		{"bad child", strings.Replace(orig, "left_child=1 7 6 11", "left_child=1 70 6 11", 1),
			at("left_child=1 7 6 11") + "tree 0: node 1: child 70 out of range"},
		{"cycle", strings.Replace(orig, "left_child=1 7 6 11", "left_child=1 0 6 11", 1),
			at("left_child=1 7 6 11") + "tree 0: node 0 out of range or reached twice"},
		{"tree out of order", strings.Replace(orig, "Tree=3\n", "Tree=4\n", 1),
			at("Tree=3\n") + `"Tree=4": want Tree=3`},
		{"categorical num_cat", strings.Replace(orig, "num_cat=0", "num_cat=1", 1),
			at("num_cat=0") + "tree 0: categorical splits are not supported (num_cat=1)"},
		// As LightGBM writes a tree with a categorical split: num_cat 1,
		// the node's categorical bit, and its categories.
		{"categorical tree", strings.Replace(strings.Replace(strings.Replace(orig, "num_cat=0", "num_cat=1", 1),
			"decision_type=2 2", "decision_type=2 1", 1), "is_linear=0", "cat_boundaries=0 1\ncat_threshold=10\nis_linear=0", 1),
			at("decision_type=2") + "tree 0: node 1: categorical splits (on column 24) are not supported"},
		{"categorical decision", strings.Replace(orig, "decision_type=2 2", "decision_type=2 3", 1),
			at("decision_type=2") + "tree 0: node 1: categorical splits (on column 24) are not supported"},
		{"linear", strings.Replace(orig, "is_linear=0", "is_linear=1", 1),
			at("is_linear=0") + "tree 0: linear trees are not supported (is_linear=1)"},
		{"num_cat not a count", strings.Replace(orig, "num_cat=0", "num_cat=x", 1),
			at("num_cat=0") + `tree 0: num_cat="x" is not a non-negative integer`},
		{"is_linear not a count", strings.Replace(orig, "is_linear=0", "is_linear=-1", 1),
			at("is_linear=0") + `tree 0: is_linear="-1" is not a non-negative integer`},
		{"linear coefficients", strings.Replace(orig, "shrinkage=0.1\n", "shrinkage=0.1\nleaf_coeff=0.5\n", 1),
			name + ":" + strconv.Itoa(lineOf(t, orig, "shrinkage=0.1")+1) + ": tree 0: linear trees are not supported (leaf_coeff)"},
		{"multiclass", strings.Replace(orig, "num_class=1", "num_class=3", 1),
			name + ":3: multiclass models are not supported (num_class=3)"},
		{"no class", strings.Replace(orig, "num_class=1", "num_class=0", 1),
			name + ":3: num_class=0: want at least 1 (LightGBM writes num_class=1 for a model of one output)"},
		{"negative classes", strings.Replace(orig, "num_class=1", "num_class=-2", 1),
			name + ":3: num_class=-2: want at least 1"},
		{"no tree per iteration", strings.Replace(orig, "num_tree_per_iteration=1", "num_tree_per_iteration=0", 1),
			name + ":4: num_tree_per_iteration=0: want at least 1"},
		{"multiclass objective", strings.Replace(orig, "objective=lambdarank", "objective=multiclass num_class:3", 1),
			name + ":7: multiclass models are not supported (objective multiclass num_class:3)"},
		{"column 0 used", strings.Replace(orig, "split_feature=39 24", "split_feature=0 24", 1),
			at("split_feature=39 24") + "tree 0: node 0 splits on LightGBM column 0, which is no cronus feature"},
		{"column out of range", strings.Replace(orig, "split_feature=39 24", "split_feature=47 24", 1),
			at("split_feature=39 24") + "tree 0: node 0 splits on column 47; max_feature_idx is 46"},
		{"0-based columns", strings.Replace(orig, "feature_infos=none", "feature_infos=[0:1]", 1),
			name + ":9: LightGBM column 0 holds data ([0:1]), so the model was trained on 0-based feature columns"},
		{"tree_sizes", strings.Replace(orig, "tree_sizes=1721 ", "tree_sizes=", 1),
			name + ":10: tree_sizes lists 99 trees, the file has 100 (truncated?)"},
		{"no max_feature_idx", strings.Replace(orig, "max_feature_idx=46", "max_feature=46", 1),
			at("Tree=0\n") + `"Tree=0" ends the header (lines 1-` + strconv.Itoa(lineOf(t, orig, "Tree=0\n")-1) + "), which has no max_feature_idx= line"},
		{"no max_feature_idx, no trees", "tree\nversion=v3\nend of trees\n",
			name + `:3: "end of trees" ends the header (lines 1-2), which has no max_feature_idx= line`},
		{"no header", "tree\nTree=0\n", name + `:2: "Tree=0" ends the header (line 1), which has no max_feature_idx= line`},
		// Cut in the header: the file ends there, not at line 1.
		{"ends in the header", "tree\nversion=v3\nnum_class=1\n",
			name + ":3: the file ends after line 3, in the header: no max_feature_idx= line and no trees (truncated?)"},
		{"ends in the header, no newline", "tree\nversion=v3\nnum_class=1",
			name + ":3: the file ends after line 3, in the header: no max_feature_idx= line and no trees (truncated?)"},
		{"ends after its first line", "tree\n",
			name + ":1: the file ends after line 1, in the header: no max_feature_idx= line and no trees (truncated?)"},
		{"ends in the header after max_feature_idx", "tree\nversion=v3\nmax_feature_idx=46\n",
			name + ":3: unexpected end of file after 0 trees, no \"end of trees\" line (truncated?)"},
	} {
		_, _, err := ImportLightGBM(strings.NewReader(c.src), name)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), name+":") || !utf8.ValidString(err.Error()) {
			t.Errorf("%s: error %v, want %q", c.what, err, c.want)
		}
	}
}

// TestImportLightGBMFormat covers parts of the text format the importFixtures lack:
// single-leaf trees, CRLF line ends, random-forest averaging.
func TestImportLightGBMFormat(t *testing.T) {
	orig := readFixture(t, "lgb-regression-dart.model.txt")
	docs := mq2008Test(t)
	want := readPreds(t, "testdata/lgb-regression-dart.pred.txt")
	e0, _, err := ImportLightGBM(strings.NewReader(orig), "dart")
	if err != nil {
		t.Fatal(err)
	}

	crlf, _, err := ImportLightGBM(strings.NewReader(strings.ReplaceAll(orig, "\n", "\r\n")), "crlf")
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := maxDiff(crlf, docs, want); d > 1e-5 {
		t.Errorf("CRLF: max difference %g", d)
	}

	// average_output: LightGBM divides the trees' sum by their number.
	rf, prov, err := ImportLightGBM(strings.NewReader(strings.Replace(orig, "objective=regression\n", "objective=regression\naverage_output\n", 1)), "rf")
	if err != nil {
		t.Fatal(err)
	}
	if prov["average_output"] != true {
		t.Errorf("provenance %v lacks average_output", prov)
	}
	avg := make([]float64, len(want))
	for i := range want {
		avg[i] = want[i] / float64(len(e0.Trees))
	}
	if d, _ := maxDiff(rf, docs, avg); d > 1e-12 {
		t.Errorf("average_output: max difference %g", d)
	}

	// A single-leaf tree has empty split arrays (or none at all).
	single := "Tree=0\nnum_leaves=1\nnum_cat=0\nsplit_feature=\nsplit_gain=\nthreshold=\ndecision_type=\nleft_child=\nright_child=\nleaf_value=0.25\nis_linear=0\nshrinkage=1\n\n\n"
	i, j := strings.Index(orig, "Tree=0\n"), strings.Index(orig, "Tree=1\n")
	src := orig[:i] + single + strings.Replace(orig[j:], "Tree=1\n", "Tree=1\nnum_leaves=1\nleaf_value=-0.5\n\nTree=X\n", 1)
	src = renumberLGB(src)
	e, _, err := ImportLightGBM(strings.NewReader(src), "single")
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Trees) != len(e0.Trees)+1 || len(e.Trees[0].Nodes) != 0 || e.Trees[0].Leaves[0] != 0.25 || e.Trees[1].Leaves[0] != -0.5 {
		t.Errorf("single-leaf trees: got %d trees, first %+v, second %+v", len(e.Trees), e.Trees[0], e.Trees[1])
	}
}

// renumberLGB rewrites the Tree= lines of a LightGBM model as 0, 1, 2, ...
// and drops tree_sizes.
func renumberLGB(src string) string {
	lines := strings.Split(src, "\n")
	k := 0
	out := lines[:0]
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "Tree="):
			l = "Tree=" + strconv.Itoa(k)
			k++
		case strings.HasPrefix(l, "tree_sizes="):
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestImportXGBoostErrors(t *testing.T) {
	const name = "xgb-rank-ndcg.json"
	orig := readFixture(t, name)
	for _, c := range []struct {
		what, src, want string
	}{
		{"empty", "", name + ":1:1: empty file"},
		{"truncated", orig[:len(orig)/2], name + ":1:" + strconv.Itoa(len(orig)/2) + ": unexpected end of file (truncated?)"},
		{"garbled", strings.Replace(orig, `"split_conditions":[`, `"split_conditions":[x`, 1),
			name + ":1:" + strconv.Itoa(strings.Index(orig, `"split_conditions":[`)+21) + ": invalid character 'x' looking for beginning of value"},
		{"wrong type", strings.Replace(orig, `"split_conditions":[`, `"split_conditions":["a",`, 1),
			name + ":1:" + strconv.Itoa(strings.Index(orig, `"split_conditions":[`)+21) + `: learner.gradient_booster.model.trees[0].split_conditions[0]: expected a number, got the string "a"`},
		{"binary", "{\x00\x01\x02", name + ": not a JSON or UBJSON model (XGBoost's old binary format?)"},
		{"old binary format", "binf\x00\x00\x00?.\x00\x00\x00", name + ": not an XGBoost JSON model (it does not start with '{'; XGBoost's binary format?): save the model under a name ending in .json"},
		{"not xgboost", `{"format":"cronus-ensemble"}`, name + `: not an XGBoost JSON model`},
		{"json dump", `[{ "nodeid": 0, "depth": 0, "split": "f3", "split_condition": 0.5, "yes": 1, "no": 2, "missing": 1, "children": [`, name + ": not an XGBoost JSON model but a dump of its trees (Booster.dump_model or get_dump), which leaves out the base score and the objective: save the model with Booster.save_model(\"m.json\")"},
		{"text dump", "booster[0]:\n0:[f3<0.5] yes=1,no=2,missing=1\n\t1:leaf=0.1\n", name + ": not an XGBoost JSON model but a dump of its trees (Booster.dump_model or get_dump), which leaves out the base score and the objective: save the model with Booster.save_model(\"m.json\")"},
		{"get_dump text", "0:[f3<0.5] yes=1,no=2,missing=1\n\t1:leaf=0.1\n", name + ": not an XGBoost JSON model but a dump of its trees (Booster.dump_model or get_dump), which leaves out the base score and the objective: save the model with Booster.save_model(\"m.json\")"},
		{"categorical split_type", strings.Replace(orig, `"split_type":[0`, `"split_type":[1`, 1),
			name + ": tree 0: node 0: categorical splits (on f23) are not supported"},
		{"categories", strings.Replace(orig, `"categories":[]`, `"categories":[3]`, 1),
			name + ": tree 0: categorical splits are not supported"},
		{"no trees", regexp.MustCompile(`"trees":\[.*\]\},"name":"gbtree"`).ReplaceAllString(orig, `"trees":[]},"name":"gbtree"`),
			name + ": the model has no trees"},
		{"too many features", strings.Replace(orig, `"num_class":"0","num_feature":"46"`, `"num_class":"0","num_feature":"20000000"`, 1),
			name + ": learner_model_param num_feature 20000000: cronus reads data with feature indices up to 10000000"},
		// refused before any table of that size is made: it ran out of
		// memory, a runtime crash, and 3·10^9 took 11.7 GB
		{"far too many features", strings.Replace(orig, `"num_class":"0","num_feature":"46"`, `"num_class":"0","num_feature":"99999999999"`, 1),
			name + ": learner_model_param num_feature 99999999999: cronus reads data with feature indices up to 10000000"},
		{"features past int64", strings.Replace(orig, `"num_class":"0","num_feature":"46"`, `"num_class":"0","num_feature":"99999999999999999999999"`, 1),
			name + ": learner_model_param num_feature 99999999999999999999999: cronus reads data with feature indices up to 10000000"},
		{"multiclass", strings.Replace(orig, `"num_class":"0"`, `"num_class":"3"`, 1),
			name + ": multiclass models are not supported (num_class=3)"},
		{"multiclass objective", strings.Replace(orig, `"name":"rank:ndcg"`, `"name":"multi:softprob"`, 1),
			name + ": multiclass models are not supported (objective multi:softprob)"},
		{"multiclass trees", strings.Replace(orig, `"tree_info":[0,0`, `"tree_info":[0,1`, 1),
			name + ": multiclass models are not supported (tree 1 belongs to class 1)"},
		{"multi-target", strings.Replace(orig, `"num_target":"1"`, `"num_target":"2"`, 1),
			name + ": multi-target models are not supported (num_target=2)"},
		{"gblinear", strings.Replace(orig, `"name":"gbtree"`, `"name":"gblinear"`, 1),
			name + ": linear boosters (gblinear) are not supported"},
		{"unknown objective", strings.Replace(orig, `"name":"rank:ndcg"`, `"name":"reg:normal"`, 1),
			name + `: objective "reg:normal" is not supported`},
		{"feature out of range", strings.Replace(orig, `"split_indices":[23,`, `"split_indices":[46,`, 1),
			name + ": tree 0: node 0 splits on f46; the model has 46 features"},
		{"child out of range", strings.Replace(orig, `"left_children":[1,`, `"left_children":[100,`, 1),
			name + ": tree 0: node 0: child 100 out of range"},
		{"cycle", strings.Replace(orig, `"left_children":[1,3,`, `"left_children":[1,0,`, 1),
			name + ": tree 0: node 0 reached twice"},
		{"short array", strings.Replace(orig, `"default_left":[0,`, `"default_left":[`, 1),
			name + ": tree 0: left_children has 31 entries but default_left has 30"},
	} {
		_, _, err := ImportXGBoost(strings.NewReader(c.src), name)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q...", c.what, err, c.want)
		}
	}
}

// TestImportXGBoostJSONErrors checks the messages for a file that is not
// the JSON it should be: a value of the wrong type is named by its place in
// the document and its JSON type (not by encoding/json's Go struct fields),
// at the line and column where it starts.
func TestImportXGBoostJSONErrors(t *testing.T) {
	const name = "m.json"
	orig := readFixture(t, "xgb-rank-ndcg.json") // one line
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(orig), "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty := buf.String() // as json.dump(indent=2) writes it
	// Tree 3's split_conditions, key and array.
	i := -1
	for range 4 {
		i += 1 + strings.Index(orig[i+1:], `"split_conditions":[`)
	}
	split3 := orig[i : i+strings.IndexByte(orig[i:], ']')+1]
	const trees = "learner.gradient_booster.model.trees"
	for _, c := range []struct {
		what, src string
		old, new  string // occurrence n (from 0) of old becomes new, the error at its '^'
		n         int
		want      string // after "m.json:LINE:COL: "
	}{
		{"array as a string", orig, split3, `"split_conditions":^"abc"`, 0,
			trees + `[3].split_conditions: expected an array of numbers, got the string "abc"`},
		{"string in an array of numbers", orig, `"split_conditions":[`, `"split_conditions":[^"a",`, 2,
			trees + `[2].split_conditions[0]: expected a number, got the string "a"`},
		{"fraction for an integer", orig, `"left_children":[`, `"left_children":[1,^1.5,`, 1,
			trees + `[1].left_children[1]: expected an integer, got the number 1.5`},
		{"number for a string", orig, `"num_nodes":"`, `"num_nodes":^31,"was":"`, 0,
			trees + `[0].tree_param.num_nodes: expected a string, got the number 31`},
		{"default_left a string", orig, `"default_left":[`, `"default_left":[^"x",`, 0,
			trees + `[0].default_left[0]: expected 0 or 1, got the string "x"`},
		{"default_left 2", orig, `"default_left":[`, `"default_left":[0,^2,`, 5,
			trees + `[5].default_left[1]: expected 0 or 1, got the number 2`},
		{"default_left not an array", orig, `"default_left":[`, `"default_left":^"no","was":[`, 0,
			trees + `[0].default_left: expected an array of 0s and 1s, got the string "no"`},
		{"learner an array", orig, `{"learner":{`, `{"learner":^[],"was":{`, 0,
			`learner: expected an object, got an array`},
		{"version a string", orig, `"version":[1,7,4]`, `"version":^"1.7.4"`, 0,
			`version: expected an array of integers, got the string "1.7.4"`},
		{"attribute a number", orig, `"best_iteration":"99"`, `"best_iteration":^99`, 0,
			`learner.attributes.best_iteration: expected a string, got the number 99`},
		{"float32 overflow", orig, `"split_conditions":[`, `"split_conditions":[^1e39,`, 0,
			trees + `[0].split_conditions[0]: the number 1e39 is out of range (the largest is 3.4e+38)`},
		{"array for an integer", orig, `"split_indices":[`, `"split_indices":[^[1],`, 0,
			trees + `[0].split_indices[0]: expected an integer, got an array`},
		{"integer overflow", orig, `"split_indices":[`, `"split_indices":[^99999999999999999999,`, 0,
			trees + `[0].split_indices[0]: the integer 99999999999999999999 is out of range`},
		{"pretty-printed", pretty, `"num_class": "0"`, `"num_class": ^0`, 0,
			`learner.learner_model_param.num_class: expected a string, got the number 0`},
		{"pretty-printed array", pretty, `"split_conditions": [`, `"split_conditions": [^true,`, 3,
			trees + `[3].split_conditions[0]: expected a number, got true`},
		// encoding/json matches keys to fields whatever their case and
		// keeps the last of a key given twice; XGBoost's reader and
		// Python's are case-sensitive: such files imported without a word.
		{"Learner", orig, `{"learner":{`, `{^"Learner":{`, 0,
			`key "Learner" where "learner" is meant: keys are case-sensitive (as XGBoost's and Python's readers take them)`},
		{"a tree's key in another case", orig, `"split_conditions":[`, `^"Split_Conditions":[`, 3,
			trees + `[3]: key "Split_Conditions" where "split_conditions" is meant: keys are case-sensitive (as XGBoost's and Python's readers take them)`},
		{"a tree's key twice", orig, `"left_children":[`, `"left_children":[],^"left_children":[`, 2,
			trees + `[2]: key "left_children" given twice (first on line 1): a JSON reader keeps one of the two, so the file is refused`},
		{"an attribute twice", orig, `"best_iteration":"99"`, `"best_iteration":"1",^"best_iteration":"99"`, 0,
			`learner.attributes: key "best_iteration" given twice (first on line 1): a JSON reader keeps one of the two, so the file is refused`},
		// The objective is read by its own UnmarshalJSON: a type error
		// in it blamed the first number of the file
		// (learner.gradient_booster.model.tree_info[0]) or "the document".
		{"objective name a number", orig, `"name":"rank:ndcg"`, `"name":^5`, 0,
			`learner.objective.name: expected a string, got the number 5`},
		{"objective name an object", orig, `"name":"rank:ndcg"`, `"name":^{"a":"b"}`, 0,
			`learner.objective.name: expected a string, got an object`},
		{"objective a number", orig, `"objective":{"lambda_rank_param"`, `"objective":^5,"x":{"lambda_rank_param"`, 0,
			`learner.objective: expected an object, got the number 5`},
		{"objective an array", orig, `"objective":{"lambda_rank_param"`, `"objective":^["rank:ndcg"],"x":{"lambda_rank_param"`, 0,
			`learner.objective: expected an object, got an array`},
		{"not JSON inside", orig, `"trees":[`, `"trees":[^x`, 0, `invalid character 'x' looking for beginning of value`},
		{"not JSON at the start", orig, `{"learner"`, `{^learner`, 0, `invalid character 'l' looking for beginning of object key string`},
	} {
		i := -1
		for range c.n + 1 {
			j := strings.Index(c.src[i+1:], c.old)
			if j < 0 {
				t.Fatalf("%s: %q occurs fewer than %d times", c.what, c.old, c.n+1)
			}
			i += 1 + j
		}
		src := c.src[:i] + strings.Replace(c.new, "^", "", 1) + c.src[i+len(c.old):]
		at := i + strings.IndexByte(c.new, '^')
		want := fmt.Sprintf("%s:%d:%d: %s", name, 1+strings.Count(src[:at], "\n"), at-strings.LastIndex(src[:at], "\n"), c.want)
		_, _, err := ImportXGBoost(strings.NewReader(src), name)
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v,\nwant %s", c.what, err, want)
		}
	}

	// A truncated file: the error is at its last byte.
	cut := pretty[:len(pretty)*2/3]
	cut = strings.TrimRight(cut, " \n")
	want := fmt.Sprintf("%s:%d:%d: unexpected end of file (truncated?)", name, 1+strings.Count(cut, "\n"), len(cut)-strings.LastIndex(cut, "\n")-1)
	if _, _, err := ImportXGBoost(strings.NewReader(cut), name); err == nil || err.Error() != want {
		t.Errorf("truncated: error %v, want %s", err, want)
	}
	// Not JSON at all.
	for _, src := range []string{"hello world\n", "tree\nversion=v4\n", "[1, 2]"} {
		want := name + ": not an XGBoost JSON model (it does not start with '{')"
		if _, _, err := ImportXGBoost(strings.NewReader(src), name); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %s", src, err, want)
		}
	}
}

func TestImportFileErrors(t *testing.T) {
	if _, _, err := ImportFile("catboost", "testdata/xgb-dart.json"); err == nil || !strings.Contains(err.Error(), `unknown model library "catboost"`) {
		t.Errorf("unknown library: %v", err)
	}
	if _, _, err := ImportFile("xgboost", "testdata/no-such.json"); err == nil || !strings.Contains(err.Error(), "testdata/no-such.json") {
		t.Errorf("missing file: %v", err)
	}
	// The wrong importer for the file says so and names it.
	if _, _, err := ImportFile("lightgbm", "testdata/xgb-dart.json"); err == nil || !strings.HasPrefix(err.Error(), "testdata/xgb-dart.json:1: not a LightGBM text model") {
		t.Errorf("JSON as LightGBM: %v", err)
	}
	if _, _, err := ImportFile("xgboost", "testdata/lgb-lambdarank.model.txt"); err == nil || !strings.HasPrefix(err.Error(), "testdata/lgb-lambdarank.model.txt: not an XGBoost JSON model (it does not start with '{'") {
		t.Errorf("LightGBM as JSON: %v", err)
	}
}

// TestImportXGBoostObjectives imports the models of
// make_xgb_objective_fixtures.py, one per single-output objective of
// XGBoost 1.7 with a base_score other than the default (each objective turns
// it into a margin its own way) and a few tree shapes, and checks XGBoost's
// output_margin scores of the first documents of MQ2008 test.
func TestImportXGBoostObjectives(t *testing.T) {
	fixture := readXGBObjectives(t)
	docs := mq2008Test(t)[:fixture.Docs]
	seen := map[string]bool{}
	for _, m := range fixture.Models {
		e, _, err := ImportXGBoost(bytes.NewReader(m.Model), m.Name+".json")
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		seen[e.Objective] = true
		if len(m.Margins) != len(docs) {
			t.Fatalf("%s: %d margins for %d documents", m.Name, len(m.Margins), len(docs))
		}
		for i, x := range docs {
			got, want := rawScore(e, x), m.Margins[i]
			if math.Abs(got-want) > 1e-5*max(1, math.Abs(want)) {
				t.Errorf("%s: document %d scores %v, XGBoost %v (base %v)", m.Name, i+1, got, want, e.Base)
				break
			}
		}
	}
	for obj := range xgbLink {
		if !seen[obj] && !xgbNewer[obj] && obj != "reg:linear" { // reg:linear: XGBoost 1.7 saves it as reg:squarederror
			t.Errorf("objective %s: no model in the fixture", obj)
		}
	}
}

// xgbFixtureModel is a model of xgb-objectives.json.gz with XGBoost's
// margins on the first documents of MQ2008 test.
type xgbFixtureModel struct {
	Name    string          `json:"name"`
	Model   json.RawMessage `json:"model"`
	Margins []float64       `json:"margins"`
}

// readXGBObjectives reads xgb-objectives.json.gz (make_xgb_objective_fixtures.py).
func readXGBObjectives(t *testing.T) (fixture struct {
	Docs   int               `json:"docs"`
	Models []xgbFixtureModel `json:"models"`
}) {
	t.Helper()
	if err := json.NewDecoder(openGzip(t, "testdata/xgb-objectives.json.gz")).Decode(&fixture); err != nil {
		t.Fatal(err)
	}
	return fixture
}

// xgbNewer are the objectives of XGBoost 2 and 3, which the fixture's
// XGBoost 1.7 cannot train.
var xgbNewer = map[string]bool{"reg:quantileerror": true, "reg:expectileerror": true}

// TestImportXGBoostNewerObjectives imports the fixture's reg:squarederror
// model as XGBoost 2 and 3 write one of a single quantile or expectile
// (the objective's parameters beside its name, base_score a one-element
// vector): its margins are the same, base_score taken as it is.
func TestImportXGBoostNewerObjectives(t *testing.T) {
	fixture := readXGBObjectives(t)
	i := slices.IndexFunc(fixture.Models, func(m xgbFixtureModel) bool { return m.Name == "reg:squarederror" })
	if i < 0 {
		t.Fatal("no reg:squarederror model in the fixture")
	}
	m := fixture.Models[i]
	docs := mq2008Test(t)[:fixture.Docs]
	for obj := range xgbNewer {
		param := strings.TrimPrefix(strings.TrimSuffix(obj, "error"), "reg:")
		src := strings.Replace(string(m.Model), `"name":"reg:squarederror"`,
			`"name":"`+obj+`","`+param+`_loss_param":{"`+param+`_alpha":"[0.5]"}`, 1)
		src = strings.Replace(src, `"base_score":"7E-1"`, `"base_score":"[7E-1]"`, 1)
		if !strings.Contains(src, obj) || !strings.Contains(src, `"[7E-1]"`) {
			t.Fatalf("%s: the fixture's model is not as expected", obj)
		}
		e, _, err := ImportXGBoost(strings.NewReader(src), obj+".json")
		if err != nil {
			t.Errorf("%s: %v", obj, err)
			continue
		}
		if e.Base != float64(float32(0.7)) {
			t.Errorf("%s: base %v, want base_score 0.7 as it is", obj, e.Base)
		}
		for i, x := range docs {
			if got, want := rawScore(e, x), m.Margins[i]; math.Abs(got-want) > 1e-5*max(1, math.Abs(want)) {
				t.Errorf("%s: document %d scores %v, XGBoost %v", obj, i+1, got, want)
				break
			}
		}
		// Several alphas are several targets.
		multi := strings.Replace(src, `"num_target":"1"`, `"num_target":"3"`, 1)
		if _, _, err := ImportXGBoost(strings.NewReader(multi), obj+".json"); err == nil || !strings.Contains(err.Error(), "multi-target models are not supported (num_target=3)") {
			t.Errorf("%s with 3 alphas: got %v, want the multi-target refusal", obj, err)
		}
	}
}

// TestImportXGBoostSmallFixtures imports the models of
// make_xgb_small_fixtures.py and checks that the first documents of MQ2008
// test get XGBoost's own scores.
func TestImportXGBoostSmallFixtures(t *testing.T) {
	docs := mq2008Test(t)
	for _, fx := range []struct {
		name string
		opt  ImportOptions
		base float64
	}{
		// binary:logitraw adds base_score as it is, not its logit.
		{"xgb-logitraw", ImportOptions{}, float64(float32(0.3))},
		// Trained on XGBoost's libsvm reader: f{k} is feature k.
		{"xgb-libsvm", ImportOptions{LibSVMIndices: true}, 0.5},
	} {
		t.Run(fx.name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", fx.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			e, _, err := ImportXGBoostWith(f, fx.name+".json", fx.opt)
			if err != nil {
				t.Fatal(err)
			}
			if e.Base != fx.base || e.NumFeatures != testNumFeatures {
				t.Errorf("base %v, %d features; want %v, %d", e.Base, e.NumFeatures, fx.base, testNumFeatures)
			}
			want := readPreds(t, filepath.Join("testdata", fx.name+".pred.txt"))
			d, at := maxDiff(e, docs[:len(want)], want)
			if !(d <= 1e-5) {
				t.Errorf("document %d: score %.9g, XGBoost says %.9g", at+1, rawScore(e, docs[at]), want[at])
			}
		})
	}
	// Without the option the libsvm model's features are off by one: its 47
	// features are f0 to f46, and the scores are not XGBoost's.
	e, _, err := ImportFile("xgboost", "testdata/xgb-libsvm.json")
	if err != nil {
		t.Fatal(err)
	}
	want := readPreds(t, "testdata/xgb-libsvm.pred.txt")
	padded := make([][]float32, len(want))
	for i := range padded {
		padded[i] = append(slices.Clone(docs[i]), 0)
	}
	if d, _ := maxDiff(e, padded, want); e.NumFeatures != testNumFeatures+1 || d < 1e-3 {
		t.Errorf("without LibSVMIndices: %d features, max difference %v; want 47 and a shift", e.NumFeatures, d)
	}
}

// TestImportXGBoostLibSVMIndices checks that with LibSVMIndices f{k} is
// feature k (0-based k-1) and that a split on f0 is refused.
func TestImportXGBoostLibSVMIndices(t *testing.T) {
	src := strings.Replace(xgbTiny, "DL", "0", 1)
	_, _, err := ImportXGBoostWith(strings.NewReader(src), "tiny.json", ImportOptions{LibSVMIndices: true})
	// A model of a matrix given --libsvm-indices by mistake: the message
	// says how to import it.
	if err == nil || err.Error() != "tiny.json: tree 0: node 0 splits on f0, which XGBoost's libsvm reader leaves empty (cronus data files start at 1): "+
		"a model of a matrix (NumPy, SciPy), whose f0 is feature 1, imports without --libsvm-indices" {
		t.Errorf("split on f0: %v", err)
	}
	src = strings.Replace(src, `"split_indices":[0,0,0]`, `"split_indices":[1,0,0]`, 1)
	e, prov, err := ImportXGBoostWith(strings.NewReader(src), "tiny.json", ImportOptions{LibSVMIndices: true})
	if err != nil {
		t.Fatal(err)
	}
	if e.NumFeatures != 1 || e.Trees[0].Nodes[0].Feature != 0 || prov["feature_indices"] != "libsvm" {
		t.Errorf("%d features, split on %d, provenance %v; want 1, 0, libsvm", e.NumFeatures, e.Trees[0].Nodes[0].Feature, prov)
	}
}

// TestImportXGBoostNonFinite checks the bare NaN, Infinity and -Infinity
// that XGBoost writes for non-finite floats: a categorical split (NaN
// condition) and a non-finite leaf are refused by name, an infinite
// condition is read, and errors elsewhere keep their place in the file.
func TestImportXGBoostNonFinite(t *testing.T) {
	tiny := strings.Replace(xgbTiny, "DL", "0", 1)
	for _, c := range []struct {
		what, src, want string
	}{
		{"categorical fixture", readFixture(t, "xgb-categorical.json"), "m.json: tree 0: node 0: categorical splits (on f0) are not supported"},
		{"infinite leaf", strings.Replace(tiny, `"split_conditions":[0.5,1,2]`, `"split_conditions":[0.5,Infinity,2]`, 1),
			"m.json: tree 0: node 1: leaf value +Inf is not finite"},
		{"NaN leaf", strings.Replace(tiny, `"split_conditions":[0.5,1,2]`, `"split_conditions":[0.5,1,NaN]`, 1),
			"m.json: tree 0: node 2: leaf value NaN is not finite"},
		{"NaN numerical split", strings.Replace(tiny, `"split_conditions":[0.5,1,2]`, `"split_conditions":[NaN,1,2]`, 1),
			"m.json: tree 0: node 0 has a NaN split condition"},
		{"NaN in a string", strings.Replace(tiny, `"base_score":"5E-1"`, `"base_score":"NaN"`, 1),
			`m.json: base_score NaN is not finite`},
		{"hexadecimal base_score", strings.Replace(tiny, `"base_score":"5E-1"`, `"base_score":"0x1p-1"`, 1),
			`m.json: base_score "0x1p-1" is not a number`},
		{"base_score with an underscore", strings.Replace(tiny, `"base_score":"5E-1"`, `"base_score":"0_5"`, 1),
			`m.json: base_score "0_5" is not a number`},
		{"base_score past float32", strings.Replace(tiny, `"base_score":"5E-1"`, `"base_score":"1e39"`, 1),
			`m.json: base_score "1e39" is out of range: XGBoost keeps it as a float32, at most 3.4e+38 in magnitude`},
		{"base_score past float64", strings.Replace(tiny, `"base_score":"5E-1"`, `"base_score":"-1e999"`, 1),
			`m.json: base_score "-1e999" is out of range: XGBoost keeps it as a float32, at most 3.4e+38 in magnitude`},
	} {
		_, _, err := ImportXGBoost(strings.NewReader(c.src), "m.json")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v,\nwant %s", c.what, err, c.want)
		}
	}
	// Errors at a place in the file: the column is the file's, not that of
	// the text with NaN quoted. at marks the place in new.
	for _, c := range []struct {
		what, old, new, want string
	}{
		{"null", `[0.5,1,2]`, `[0.5,^null,2]`, "split_conditions[1]: expected a number, got null"},
		{"error after NaN", `[0.5,1,2],"split_indices":[0,0,0]`, `[0.5,NaN,2],"split_indices":[0,^"x",0]`,
			`split_indices[1]: expected an integer, got the string "x"`},
		{"Infinity for an integer", `"split_indices":[0,0,0]`, `"split_indices":[0,^-Infinity,0]`,
			"split_indices[1]: expected an integer, got -Infinity"},
		{"two on a line", `"base_weights":[0,1,2]`, `"base_weights":[NaN,Infinity,2],"x":[NaN,-Infinity],"split_indices":^true,"y":0`,
			"split_indices: expected an array of integers, got true"},
	} {
		i := strings.Index(tiny, c.old)
		src := tiny[:i] + strings.Replace(c.new, "^", "", 1) + tiny[i+len(c.old):]
		at := i + strings.IndexByte(c.new, '^')
		want := fmt.Sprintf("m.json:%d:%d: learner.gradient_booster.model.trees[0].%s",
			1+strings.Count(src[:at], "\n"), at-strings.LastIndex(src[:at], "\n"), c.want)
		_, _, err := ImportXGBoost(strings.NewReader(src), "m.json")
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v,\nwant %s", c.what, err, want)
		}
	}
	// x < +Inf always holds. No threshold (that a model file can hold)
	// sends every finite x right, as x < -Inf does.
	src := strings.Replace(tiny, `"split_conditions":[0.5,1,2]`, `"split_conditions":[Infinity,1,2]`, 1)
	e, _, err := ImportXGBoost(strings.NewReader(src), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []float32{-math.MaxFloat32, 0, math.MaxFloat32} {
		if got := rawScore(e, []float32{x, 0}); got != 1.5 {
			t.Errorf("condition Infinity, x = %v: %v, want 1.5", x, got)
		}
	}
	if _, err := encodeModel(NewModel(e, "xgboost", nil)); err != nil {
		t.Error(err)
	}
	src = strings.Replace(tiny, `"split_conditions":[0.5,1,2]`, `"split_conditions":[-Infinity,1,2]`, 1)
	_, _, err = ImportXGBoost(strings.NewReader(src), "m.json")
	if want := "m.json: tree 0: node 0: split condition -Infinity (no value goes left) is not supported"; err == nil || err.Error() != want {
		t.Errorf("condition -Infinity: %v, want %s", err, want)
	}
}

// A model file that starts with a UTF-8 byte order mark (as an editor may
// save one) imports, and reads, as the same file without it.
func TestImportBOM(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ from, file string }{
		{"lightgbm", "lgb-lambdarank.model.txt"},
		{"xgboost", "xgb-rank-ndcg.json"},
		{"ranklib", "ranklib-mart.txt"},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		bom := filepath.Join(dir, c.file)
		if err := os.WriteFile(bom, append([]byte("\xef\xbb\xbf"), b...), 0o644); err != nil {
			t.Fatal(err)
		}
		want, _, err := ImportFile(c.from, filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := ImportFile(c.from, bom)
		if err != nil {
			t.Errorf("%s with a byte order mark: %v", c.file, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s with a byte order mark imports as another ensemble", c.file)
		}
	}
}

// zeroBasedLightGBM is a LightGBM text model with every column one lower:
// the model LightGBM writes when trained on the same data as a 0-based
// matrix (numpy, pandas, scikit-learn's load_svmlight_file), where feature
// j is column j-1 and no column is empty.
func zeroBasedLightGBM(t *testing.T, model string) string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(model, "\n") {
		key, val, _ := strings.Cut(l, "=")
		switch key {
		case "max_feature_idx":
			n, err := strconv.Atoi(val)
			if err != nil {
				t.Fatal(err)
			}
			l = key + "=" + strconv.Itoa(n-1)
		case "feature_names", "feature_infos":
			f := strings.Fields(val)
			if key == "feature_infos" && f[0] != "none" {
				t.Fatalf("column 0 of the 1-based fixture holds %s", f[0])
			}
			l = key + "=" + strings.Join(f[1:], " ")
		case "split_feature":
			f := strings.Fields(val)
			for i, s := range f {
				c, err := strconv.Atoi(s)
				if err != nil || c < 1 {
					t.Fatalf("split_feature %q", s)
				}
				f[i] = strconv.Itoa(c - 1)
			}
			l = key + "=" + strings.Join(f, " ")
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// A LightGBM model of 0-based columns (trained on a matrix) imports with
// ZeroBased (import --zero-based) and scores MQ2008 test as LightGBM scored
// the same trees on the SVMlight file; without it, it is refused with the
// flag named (it was refused with no way to import it).
func TestImportLightGBMZeroBased(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "lgb-lambdarank.model.txt"))
	if err != nil {
		t.Fatal(err)
	}
	zero := zeroBasedLightGBM(t, string(b))
	_, _, err = ImportLightGBM(strings.NewReader(zero), "zero.txt")
	if err == nil || !strings.Contains(err.Error(), "zero.txt:9: LightGBM column 0 holds data ([0:1])") || !strings.Contains(err.Error(), "--zero-based") {
		t.Errorf("0-based model without ZeroBased: %v", err)
	}
	e, _, err := ImportLightGBMWith(strings.NewReader(zero), "zero.txt", ImportOptions{ZeroBased: true})
	if err != nil {
		t.Fatal(err)
	}
	if e.NumFeatures != testNumFeatures {
		t.Errorf("%d features, want %d", e.NumFeatures, testNumFeatures)
	}
	docs := mq2008Test(t)
	want := readPreds(t, filepath.Join("testdata", "lgb-lambdarank.pred.txt"))
	if d, at := maxDiff(e, docs, want); !(d <= 1e-5) {
		t.Errorf("document %d: score %.9g, LightGBM says %.9g", at+1, rawScore(e, docs[at]), want[at])
	}
}

// ByName: a LightGBM model of a frame whose columns are named by feature
// numbers reads each column as the feature its name says. The 0-based
// lambdarank fixture with column j named 2j+3 scores MQ2008 test with
// feature f moved to 2f+1 as LightGBM scored the original; names that are
// not feature numbers, or repeat, are refused.
func TestImportLightGBMByName(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "lgb-lambdarank.model.txt"))
	if err != nil {
		t.Fatal(err)
	}
	zero := zeroBasedLightGBM(t, string(b))
	rename := func(name func(j int) string) string {
		names := make([]string, testNumFeatures)
		for j := range names {
			names[j] = name(j)
		}
		lines := strings.Split(zero, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "feature_names=") {
				lines[i] = "feature_names=" + strings.Join(names, " ")
			}
		}
		return strings.Join(lines, "\n")
	}
	named := rename(func(j int) string { return strconv.Itoa(2*j + 3) })
	// Without --by-name the refusal of column 0's data names it, not only
	// --zero-based, which would take column 0 (feature 3) as feature 1;
	// names that --zero-based reads right (0, 1, ... or 1, 2, ...) and
	// names that are no numbers do not.
	if _, _, err := ImportLightGBM(strings.NewReader(named), "named.txt"); err == nil || !strings.Contains(err.Error(), `column 0 "3": if those are the features' numbers (a frame of selected features), import it with --by-name instead`) {
		t.Errorf("numbered names without --by-name: %v", err)
	}
	for _, name := range []func(j int) string{strconv.Itoa, func(j int) string { return strconv.Itoa(j + 1) }, func(j int) string { return "Column_" + strconv.Itoa(j) }} {
		if _, _, err := ImportLightGBM(strings.NewReader(rename(name)), "named.txt"); err == nil || strings.Contains(err.Error(), "--by-name") {
			t.Errorf("names %s, %s, ...: %v", name(0), name(1), err)
		}
	}
	_, prov, err := ImportLightGBMWith(strings.NewReader(named), "named.txt", ImportOptions{ZeroBased: true})
	if err != nil {
		t.Fatal(err)
	}
	if names, ok := prov["feature_names"].([]string); !ok || len(names) != testNumFeatures || names[0] != "3" {
		t.Errorf("provenance feature_names %v, want the 46 numbered names", prov["feature_names"])
	}
	if prov["feature_indices"] != nil {
		t.Errorf("--zero-based: provenance feature_indices %v, want none", prov["feature_indices"])
	}
	e, prov, err := ImportLightGBMWith(strings.NewReader(named), "named.txt", ImportOptions{ByName: true})
	if err != nil {
		t.Fatal(err)
	}
	// Recorded as the XGBoost importer records it, for export's note.
	if prov["feature_indices"] != "names" {
		t.Errorf("--by-name: provenance feature_indices %v, want \"names\"", prov["feature_indices"])
	}
	if e.NumFeatures != 2*testNumFeatures+1 {
		t.Errorf("%d features, want %d", e.NumFeatures, 2*testNumFeatures+1)
	}
	var moved [][]float32
	for _, x := range mq2008Test(t) {
		m := make([]float32, e.NumFeatures)
		for i, v := range x {
			m[2*(i+1)] = v // feature i+1 is feature 2(i+1)+1 now
		}
		moved = append(moved, m)
	}
	want := readPreds(t, filepath.Join("testdata", "lgb-lambdarank.pred.txt"))
	if d, at := maxDiff(e, moved, want); !(d <= 1e-5) {
		t.Errorf("document %d: score %.9g, LightGBM says %.9g", at+1, rawScore(e, moved[at]), want[at])
	}
	for _, c := range []struct {
		name func(j int) string
		err  string
	}{
		{func(j int) string { return "Column_" + strconv.Itoa(j) }, `named.txt:8: --by-name: column 0 is named "Column_0", not a feature number`},
		{func(j int) string { return strconv.Itoa(j%45 + 1) }, `named.txt:8: --by-name: column 0 and column 45 are both named "1"`},
	} {
		if _, _, err := ImportLightGBMWith(strings.NewReader(rename(c.name)), "named.txt", ImportOptions{ByName: true}); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("got %v, want %q", err, c.err)
		}
	}
}

// TestImportFileLeavesPastFloat64: an imported model whose leaf values
// are each finite but sum past the float64 range is refused, naming the
// file (review 2026-11-29: it imported, and every score was +Inf).
func TestImportFileLeavesPastFloat64(t *testing.T) {
	src := readFixture(t, "lgb-lambdarank.model.txt")
	n := 0
	src = regexp.MustCompile(`leaf_value=[^\n]*`).ReplaceAllStringFunc(src, func(s string) string {
		if n++; n > 2 {
			return s
		}
		k := len(strings.Fields(strings.TrimPrefix(s, "leaf_value=")))
		return "leaf_value=" + strings.TrimSpace(strings.Repeat("1e308 ", k))
	})
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ImportFile("lightgbm", path)
	if want := path + ": tree 1: the base score and the largest leaf values of trees 0 to 1 sum past the float64 range"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestImportXGBoostConfig checks that XGBoost's configuration
// (Booster.save_config, written by XGBoost 1.7.4 for a gbtree and a dart
// model) given in place of the model is refused as such, naming
// save_model; it was refused as "gbtree booster without a "model"".
func TestImportXGBoostConfig(t *testing.T) {
	for _, name := range []string{"xgb-config.json", "xgb-config-dart.json"} {
		_, _, err := ImportFile("xgboost", filepath.Join("testdata", name))
		want := filepath.Join("testdata", name) + `: not a model but XGBoost's configuration (Booster.save_config), which holds no trees: save the model with Booster.save_model("m.json")`
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", name, err, want)
		}
	}
}

// TestXGBoostConfigAsModel checks that XGBoost's configuration given to
// --model (or inspect), or to import with another --from, is named as the
// configuration, with save_model as the way to a model: it was taken for
// an XGBoost JSON model, "convert it with cronus import --from xgboost",
// which import then refused as holding no trees.
func TestXGBoostConfigAsModel(t *testing.T) {
	const advice = `it looks like XGBoost's configuration (Booster.save_config), which holds no trees: ` +
		`save the model with Booster.save_model("m.json") and convert that with cronus import --from xgboost`
	for _, name := range []string{"xgb-config.json", "xgb-config-dart.json"} {
		path := filepath.Join("testdata", name)
		_, err := ReadModel(path)
		if want := path + `: not a cronus model: no "format" field; ` + advice; err == nil || err.Error() != want {
			t.Errorf("ReadModel(%s): got %v, want %q", name, err, want)
		}
		for _, from := range []string{"lightgbm", "ranklib"} {
			_, _, err := ImportFile(from, path)
			if err == nil || !strings.HasSuffix(err.Error(), "; "+advice) {
				t.Errorf("import --from %s %s: got %v, want it to end %q", from, name, err, advice)
			}
		}
	}
	// A model is still named as one.
	_, err := ReadModel(filepath.Join("testdata", "xgb-dart.json"))
	if err == nil || !strings.HasSuffix(err.Error(), "it looks like an XGBoost JSON model: convert it with cronus import --from xgboost") {
		t.Errorf("ReadModel(xgb-dart.json): got %v", err)
	}
}

// TestImportWrongFrom checks that a model of one library given to another's
// importer is refused naming the --from it looks like (the refusals said
// only what the file is not).
func TestImportWrongFrom(t *testing.T) {
	for _, c := range []struct{ from, file, want string }{
		{"lightgbm", "xgb-logitraw.json", "; it looks like an XGBoost JSON model: import it with --from xgboost"},
		{"ranklib", "xgb-logitraw.json", "; it looks like an XGBoost JSON model: import it with --from xgboost"},
		{"xgboost", "lgb-regression-dart.model.txt", "; it looks like a LightGBM text model: import it with --from lightgbm"},
		{"ranklib", "lgb-regression-dart.model.txt", "; it looks like a LightGBM text model: import it with --from lightgbm"},
		{"xgboost", "ranklib-mart.txt", "; it looks like a RankLib model: import it with --from ranklib"},
		{"lightgbm", "ranklib-rf.txt", "; it looks like a RankLib model: import it with --from ranklib"},
		{"xgboost", "ranklib-lambdamart.txt", "; it looks like a RankLib model: import it with --from ranklib"},
		{"lightgbm", "xgb-dart.ubj", "; it looks like an XGBoost UBJSON model: import it with --from xgboost"},
		{"ranklib", "xgb-dart.ubj", "; it looks like an XGBoost UBJSON model: import it with --from xgboost"},
	} {
		_, _, err := ImportFile(c.from, filepath.Join("testdata", c.file))
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("--from %s %s: got %v, want ...%q", c.from, c.file, err, c.want)
		}
	}
	// A file of the right library keeps its own message.
	_, _, err := ImportFile("xgboost", "testdata/xgb-categorical.json")
	if err == nil || strings.Contains(err.Error(), "looks like") {
		t.Errorf("categorical: %v", err)
	}
}

// TestImportXGBoostDeepChain imports a tree that is a chain of 20,000
// splits with a goroutine stack limited to 1 MB: the importer's walk,
// Tree.Validate and Tree.Depth recursed, a frame per level, and a crafted
// chain of 1.5 million splits (a 95 MB file) overflowed the 1 GB stack, a
// fatal error that no recover catches.
func TestImportXGBoostDeepChain(t *testing.T) {
	const depth = 20000
	n := 2*depth + 1 // split k is node 2k, its left leaf 2k+1; the last node a leaf
	left, right, split, cond, dl := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for i := range n {
		left[i], right[i], split[i], cond[i], dl[i] = "-1", "-1", "0", "0.25", "0"
	}
	for k := range depth {
		left[2*k], right[2*k], cond[2*k] = strconv.Itoa(2*k+1), strconv.Itoa(2*k+2), strconv.Itoa(k+1)
	}
	cond[n-1] = "1"
	j := func(a []string) string { return "[" + strings.Join(a, ",") + "]" }
	src := `{"learner":{"attributes":{},"feature_names":[],"feature_types":[],
"gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1","size_leaf_vector":"0"},
"tree_info":[0],"trees":[{"default_left":` + j(dl) + `,"id":0,"left_children":` + j(left) + `,"right_children":` + j(right) + `,
"split_conditions":` + j(cond) + `,"split_indices":` + j(split) + `,
"tree_param":{"num_deleted":"0","num_feature":"1","num_nodes":"` + strconv.Itoa(n) + `","size_leaf_vector":"0"}}]},"name":"gbtree"},
"learner_model_param":{"base_score":"0E0","boost_from_average":"1","num_class":"0","num_feature":"1","num_target":"1"},
"objective":{"name":"reg:squarederror","reg_loss_param":{"scale_pos_weight":"1"}}},"version":[1,7,4]}`
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	e, _, err := ImportXGBoost(strings.NewReader(src), "chain.json")
	if err != nil {
		t.Fatal(err)
	}
	if d := e.Depth(); d != depth {
		t.Errorf("depth %d, want %d", d, depth)
	}
	// x < k+1 goes left at split k: x = 100.5 goes right 100 times.
	for _, c := range []struct {
		x    float32
		want float64
	}{{0.5, 0.25}, {100.5, 0.25}, {depth + 1, 1}} {
		if got := rawScore(e, []float32{c.x}); got != c.want {
			t.Errorf("x=%v: score %v, want %v", c.x, got, c.want)
		}
	}
}

// TestImportXGBoostCategoricalUnused imports a model trained with
// enable_categorical whose categorical f0 (feature_types "c") no split
// uses: only categorical splits are refused, and its margins are
// XGBoost's (make_xgb_audit_fixtures.py).
func TestImportXGBoostCategoricalUnused(t *testing.T) {
	e, _, err := ImportFile("xgboost", "testdata/xgb-categorical-unused.json")
	if err != nil {
		t.Fatal(err)
	}
	want := readPreds(t, "testdata/xgb-categorical-unused.pred.txt")
	if len(want) != 12 {
		t.Fatalf("%d margins, want 12", len(want))
	}
	for k, w := range want {
		if got := rawScore(e, []float32{0, float32(k) / 4}); math.Abs(got-w) > 1e-6 {
			t.Errorf("row %d: score %v, XGBoost %v", k, got, w)
		}
	}
}

// TestImportUTF16 checks that a model file in UTF-16 (Windows PowerShell's
// >), given to any importer, is named as UTF-16 with the iconv that
// converts it, as model, cascade and data files are: the importers quoted
// its first line's bytes ("\xff\xfe#\x00#\x00 \x00L\x00…"), and the XGBoost
// one asked whether it was XGBoost's binary format.
func TestImportUTF16(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ from, file, kind string }{
		{"lightgbm", "lgb-regression-dart.model.txt", "a LightGBM text model"},
		{"xgboost", "xgb-logitraw.json", "an XGBoost JSON model"},
		{"ranklib", "ranklib-mart.txt", "a RankLib model"},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, bom := range []string{"\xff\xfe", "\xfe\xff"} {
			u := []byte(bom)
			for _, r := range string(b) {
				if bom == "\xff\xfe" {
					u = append(u, byte(r), byte(r>>8))
				} else {
					u = append(u, byte(r>>8), byte(r))
				}
			}
			path := filepath.Join(dir, c.file+".u16")
			if err := os.WriteFile(path, u, 0o666); err != nil {
				t.Fatal(err)
			}
			_, _, err := ImportFile(c.from, path)
			want := path + ": not " + c.kind + ": UTF-16 text (its byte order mark); expected "
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "in UTF-8 or ASCII: convert it, e.g. iconv -f UTF-16 -t UTF-8") {
				t.Errorf("--from %s %q: got %v, want %q…", c.from, bom, err, want)
			}
		}
	}
}

// TestImportFileKinds checks that a file of a kind told by its first bytes,
// given to any importer, is named as that kind with what was expected: an
// empty file was "1:1: empty file" (--from xgboost), or its empty first
// line quoted (the others).
func TestImportFileKinds(t *testing.T) {
	dir := t.TempDir()
	const png = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"
	for _, c := range []struct{ name, src, from, want string }{
		{"empty", "", "xgboost", ": empty file; expected an XGBoost JSON model"},
		{"empty", " \n", "lightgbm", ": empty file; expected a LightGBM text model (LightGBM's model.txt)"},
		{"empty", "", "ranklib", ": empty file; expected a RankLib model (RankLib's model text)"},
		// A plot (sweep --plot): the XML's first line quoted, or "it does
		// not start with '{'".
		{"plot.svg", "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">\n</svg>\n", "xgboost", ": not an XGBoost JSON model: an SVG image (a plot?); expected JSON"},
		{"plot.svg", "<svg>\n</svg>\n", "lightgbm", ": not a LightGBM text model: an SVG image (a plot?); expected LightGBM's model.txt"},
		{"plot.svg", "<?xml version=\"1.0\"?>\n<svg>\n</svg>\n", "ranklib", ": not a RankLib model: an SVG image (a plot?); expected RankLib's model text"},
		// A PNG plot: "XGBoost's binary format?", or its first line quoted.
		{"plot.png", png, "xgboost", ": not an XGBoost JSON model: a PNG image (a plot?); expected JSON"},
		{"plot.png", png, "lightgbm", ": not a LightGBM text model: a PNG image (a plot?); expected LightGBM's model.txt"},
		{"plot.png", png, "ranklib", ": not a RankLib model: a PNG image (a plot?); expected RankLib's model text"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.src), 0o666); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ImportFile(c.from, path); err == nil || err.Error() != path+c.want {
			t.Errorf("%s --from %s: got %v, want %s%s", c.name, c.from, err, path, c.want)
		}
	}
}

// An XGBoost model in its old binary format given to --from lightgbm or
// ranklib is named, with the way to import it: those importers quoted its
// first bytes, where --from xgboost already named it.
func TestImportOldXGBoostBinaryElsewhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := os.WriteFile(path, []byte("binf\x00\x00\x00?\x0e\x00\x00\x00\x01\x00\x00\x00"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{"lightgbm", "ranklib"} {
		_, _, err := ImportFile(from, path)
		if err == nil || !strings.Contains(err.Error(), "XGBoost model in its old binary format") || !strings.Contains(err.Error(), "--from xgboost") {
			t.Errorf("--from %s: got %v, want the old binary format named, with --from xgboost", from, err)
		}
	}
}
