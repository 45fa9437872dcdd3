package tree

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// closeTo reports whether got is within a relative 1e-5 of want (the
// libraries' statistics are float32s, summed in another order).
func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-5*math.Max(1, math.Abs(want))
}

// Splits, total gain and total cover per feature equal XGBoost's own
// Booster.get_score ("weight", "total_gain", "total_cover") on three of the
// importer's fixtures (testdata/make_xgb_importance_fixtures.py).
func TestImportanceMatchesXGBoost(t *testing.T) {
	b, err := os.ReadFile("testdata/xgb-importance.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]map[string]float64
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != 3 {
		t.Fatalf("%d models in the fixture", len(want))
	}
	for name, imp := range want {
		e, _, err := ImportFile("xgboost", filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !e.HasGain() || !e.HasCover() {
			t.Fatalf("%s: gains %v, covers %v: XGBoost's loss_changes and sum_hessian were not kept", name, e.HasGain(), e.HasCover())
		}
		used := 0
		for _, s := range e.Importance(nil) {
			key := fmt.Sprintf("f%d", s.Feature) // f{k} is feature k+1
			if s.Splits > 0 {
				used++
			}
			if float64(s.Splits) != imp["weight"][key] || !closeTo(s.Gain, imp["total_gain"][key]) || !closeTo(s.Cover, imp["total_cover"][key]) {
				t.Errorf("%s: %s: splits %d, gain %v, cover %v; XGBoost: %v, %v, %v", name, key, s.Splits, s.Gain, s.Cover,
					imp["weight"][key], imp["total_gain"][key], imp["total_cover"][key])
			}
		}
		if used != len(imp["weight"]) || used == 0 {
			t.Errorf("%s: %d features used, XGBoost lists %d", name, used, len(imp["weight"]))
		}
	}
}

// Splits per feature equal the feature_importances section LightGBM writes
// at the end of its model files, and gains and covers the sums of the
// split_gain and internal_weight lines over the splits on each column
// (read here with a plain scan, column c being feature c).
func TestImportanceMatchesLightGBM(t *testing.T) {
	for _, name := range []string{"lgb-lambdarank.model.txt", "lgb-regression-dart.model.txt"} {
		path := filepath.Join("testdata", name)
		e, _, err := ImportFile("lightgbm", path)
		if err != nil {
			t.Fatal(err)
		}
		if !e.HasGain() || !e.HasCover() {
			t.Fatalf("%s: gains %v, covers %v", name, e.HasGain(), e.HasCover())
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		splits := map[int]int{}
		gain, cover := map[int]float64{}, map[int]float64{}
		var cols []int
		inImportances := false
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			l := sc.Text()
			key, val, _ := strings.Cut(l, "=")
			switch {
			case l == "feature_importances:":
				inImportances = true
			case inImportances && strings.HasPrefix(key, "Column_"):
				c, _ := strconv.Atoi(strings.TrimPrefix(key, "Column_"))
				splits[c], _ = strconv.Atoi(val)
			case inImportances:
				inImportances = false
			case key == "split_feature":
				cols = cols[:0]
				for _, s := range strings.Fields(val) {
					c, _ := strconv.Atoi(s)
					cols = append(cols, c)
				}
			case key == "split_gain" || key == "internal_weight":
				for j, s := range strings.Fields(val) {
					v, _ := strconv.ParseFloat(s, 64)
					if key == "split_gain" {
						gain[cols[j]] += v
					} else {
						cover[cols[j]] += v
					}
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		if len(splits) == 0 {
			t.Fatalf("%s: no feature_importances section", name)
		}
		for _, s := range e.Importance(nil) {
			c := s.Feature + 1
			if s.Splits != splits[c] || !closeTo(s.Gain, gain[c]) || !closeTo(s.Cover, cover[c]) {
				t.Errorf("%s: column %d: splits %d, gain %v, cover %v; the file: %d, %v, %v", name, c, s.Splits, s.Gain, s.Cover, splits[c], gain[c], cover[c])
			}
		}
	}
}

// Statistics missing or malformed in one tree are dropped from all
// (keepCompleteStats), so that no importance sums over some trees only; a
// model without them still counts splits and trees.
func TestImportanceIncompleteStats(t *testing.T) {
	b, err := os.ReadFile("testdata/lgb-lambdarank.model.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	want := 0 // splits in all
	for _, l := range strings.Split(s, "\n") {
		if v, ok := strings.CutPrefix(l, "split_feature="); ok {
			want += len(strings.Fields(v))
		}
	}
	i := strings.Index(s, "\nsplit_gain=")
	j := i + 1 + strings.Index(s[i+1:], "\n")
	for _, c := range []struct{ what, line string }{
		{"absent", ""},
		{"short", "\nsplit_gain=1 2"},
		{"not a number", "\nsplit_gain=x" + s[i+len("\nsplit_gain=x"):j]},
	} {
		e, _, err := ImportLightGBM(strings.NewReader(s[:i]+c.line+s[j:]), "m.txt")
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if e.HasGain() || !e.HasCover() {
			t.Errorf("%s split_gain in tree 0: gains %v, covers %v; want none and all", c.what, e.HasGain(), e.HasCover())
		}
		for _, tr := range e.Trees {
			if tr.Gain != nil {
				t.Fatalf("%s: a tree kept its gains", c.what)
			}
		}
		total, trees := 0, 0
		for _, st := range e.Importance(nil) {
			total += st.Splits
			trees += st.Trees
			if st.Gain != 0 {
				t.Fatalf("%s: feature %d has gain %v", c.what, st.Feature+1, st.Gain)
			}
		}
		if total != want || trees == 0 || trees > total {
			t.Errorf("%s: %d splits counted (%d tree-feature pairs), want %d", c.what, total, trees, want)
		}
	}
}

// A negative cover (sum_hessian, internal_weight) at a split, which a
// model file refuses, is dropped at import as malformed statistics are:
// the import wrote nothing, failing with "split 0: cover -1.5 is not a
// finite number >= 0". The gains are kept, and the model scores as before.
func TestImportNegativeCover(t *testing.T) {
	xgbJSON, err := os.ReadFile("testdata/xgb-rank-ndcg.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(xgbJSON, &doc); err != nil {
		t.Fatal(err)
	}
	tree0 := doc["learner"].(map[string]any)["gradient_booster"].(map[string]any)["model"].(map[string]any)["trees"].([]any)[0].(map[string]any)
	tree0["sum_hessian"].([]any)[0] = -1.5 // node 0, the root: a split
	xgbNeg, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	lgb, err := os.ReadFile("testdata/lgb-lambdarank.model.txt")
	if err != nil {
		t.Fatal(err)
	}
	lgbNeg := strings.Replace(string(lgb), "\ninternal_weight=", "\ninternal_weight=-", 1)
	for _, c := range []struct {
		from, src string
	}{{"xgboost", string(xgbNeg)}, {"lightgbm", lgbNeg}} {
		var e *Ensemble
		if c.from == "xgboost" {
			e, _, err = ImportXGBoost(strings.NewReader(c.src), "m.json")
		} else {
			e, _, err = ImportLightGBM(strings.NewReader(c.src), "m.txt")
		}
		if err != nil {
			t.Fatalf("%s: %v", c.from, err)
		}
		if !e.HasGain() || e.HasCover() {
			t.Errorf("%s: gains %v, covers %v; want all and none", c.from, e.HasGain(), e.HasCover())
		}
		if err := WriteModel(filepath.Join(t.TempDir(), "m.json"), NewModel(e, c.from, nil)); err != nil {
			t.Errorf("%s: writing the imported model: %v", c.from, err)
		}
	}
}

// Imported leaf covers (XGBoost's sum_hessian of a leaf node, LightGBM's
// leaf_weight) are in the trees' leaf order: every split's cover is the
// sum of its two children's, within the files' float32 rounding.
func TestImportLeafCover(t *testing.T) {
	for _, fx := range []struct{ from, file string }{
		{"xgboost", "xgb-rank-ndcg.json"},
		{"xgboost", "xgb-reg-lossguide.json"},
		{"xgboost", "xgb-dart.json"},
		{"lightgbm", "lgb-lambdarank.model.txt"},
		{"lightgbm", "lgb-regression-dart.model.txt"},
	} {
		e, _, err := ImportFile(fx.from, filepath.Join("testdata", fx.file))
		if err != nil {
			t.Fatal(err)
		}
		if !e.HasCover() || !leafCoverRule.complete(e.Trees) {
			t.Fatalf("%s: covers %v, leaf covers %v", fx.file, e.HasCover(), leafCoverRule.complete(e.Trees))
		}
		for i, tr := range e.Trees {
			cover := func(c int32) float64 {
				if c < 0 {
					return float64(tr.LeafCover[^c])
				}
				return float64(tr.Cover[c])
			}
			for n, nd := range tr.Nodes {
				if sum := cover(nd.Left) + cover(nd.Right); math.Abs(sum-float64(tr.Cover[n])) > 1e-5*sum {
					t.Errorf("%s: tree %d: split %d: cover %v, its children's %v", fx.file, i, n, tr.Cover[n], sum)
				}
			}
		}
	}
}

// A leaf cover that is negative (a custom objective's hessians) or no
// number in LightGBM's leaf_weight is dropped at import, as a split's
// internal_weight is: the model imports, scores as before and has no leaf
// covers. The import failed with "leaf 0: leaf cover -62.72 is not a
// finite number >= 0".
func TestImportMalformedLeafCover(t *testing.T) {
	b, err := os.ReadFile("testdata/lgb-lambdarank.model.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := ImportLightGBM(strings.NewReader(string(b)), "m.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, with string }{
		{"negative", "\nleaf_weight=-"},
		{"not a number", "\nleaf_weight=nan "},
	} {
		e, _, err := ImportLightGBM(strings.NewReader(strings.Replace(string(b), "\nleaf_weight=", c.with, 1)), "m.txt")
		if err != nil {
			t.Fatalf("%s leaf_weight in tree 0: %v", c.what, err)
		}
		if leafCoverRule.complete(e.Trees) || !e.HasCover() {
			t.Errorf("%s leaf_weight in tree 0: leaf covers %v, covers %v; want none and all", c.what, leafCoverRule.complete(e.Trees), e.HasCover())
		}
		for i := range e.Trees {
			if e.Trees[i].LeafCover != nil || !slices.Equal(e.Trees[i].Nodes, want.Trees[i].Nodes) || !slices.Equal(e.Trees[i].Leaves, want.Trees[i].Leaves) {
				t.Fatalf("%s leaf_weight in tree 0: tree %d kept its leaf covers or changed", c.what, i)
			}
		}
	}
}
