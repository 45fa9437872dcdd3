package tree

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readEnsemble reads the cronus model file at path.
func readEnsemble(t *testing.T, path string) *Ensemble {
	t.Helper()
	m, err := ReadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.Ensemble()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// readRows reads a TSV of float32 rows ("nan" for a missing value).
func readRows(t *testing.T, path string) [][]float32 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]float32
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var r []float32
		for _, s := range strings.Split(sc.Text(), "\t") {
			v, err := strconv.ParseFloat(s, 32)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			r = append(r, float32(v))
		}
		rows = append(rows, r)
	}
	return rows
}

// TestExportXGBoostFixtures: the exporter writes, byte for byte, the files
// XGBoost 1.7.4 loaded (testdata/make_xgb_export_fixtures.py), and XGBoost's
// margins for them are cronus's scores of the models exported: a rank:ndcg
// and a binary:logistic model trained by cronus on MQ2008, on 300 test
// documents, and a hand-made model on values at, just above and just below
// each threshold, 0 and NaN, and one whose thresholds are the largest
// float32, which XGBoost's x < c says with c = Infinity.
func TestExportXGBoostFixtures(t *testing.T) {
	for _, fx := range []struct {
		name string
		rows func() [][]float32
		obj  string
	}{
		{"export-lambdarank", func() [][]float32 { return mq2008Test(t)[:300] }, "rank:ndcg"},
		{"export-binary", func() [][]float32 { return mq2008Test(t)[:300] }, "binary:logistic"},
		{"export-edge", func() [][]float32 { return readRows(t, "testdata/export-edge.data.txt") }, "reg:squarederror"},
		{"export-inf", func() [][]float32 { return readRows(t, "testdata/export-inf.data.txt") }, "reg:squarederror"},
	} {
		t.Run(fx.name, func(t *testing.T) {
			e := readEnsemble(t, "testdata/"+fx.name+".json")
			got, err := ExportXGBoost(e, ExportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile("testdata/" + fx.name + ".xgb.json")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the export differs from testdata/%s.xgb.json, which XGBoost's predictions were made on (if the change is meant, run testdata/make_xgb_export_fixtures.py)", fx.name)
			}
			if !bytes.Contains(got, []byte(`"objective":{"name":"`+fx.obj+`"`)) {
				t.Errorf("the export's objective is not %s", fx.obj)
			}
			rows := fx.rows()
			preds := readPreds(t, "testdata/"+fx.name+".xgb.pred.txt")
			if len(preds) != len(rows) {
				t.Fatalf("%d predictions for %d documents", len(preds), len(rows))
			}
			d, at := maxDiff(e, rows, preds)
			if d > 1e-5 {
				t.Errorf("largest |cronus - XGBoost| %g at document %d (cronus %v, XGBoost %v)", d, at, rawScore(e, rows[at]), preds[at])
			}
		})
	}
}

// TestExportXGBoostRoundTrip: the importer, checked against XGBoost's own
// predictions on its fixtures, reads an export back into the same trees:
// the same splits (features, thresholds, default directions, shape), the
// leaf values and base score to float32, and the gains and covers; with
// LibSVMIndices too.
func TestExportXGBoostRoundTrip(t *testing.T) {
	for _, name := range []string{"export-lambdarank", "export-binary", "export-edge", "export-inf"} {
		e := readEnsemble(t, "testdata/"+name+".json")
		for _, libsvm := range []bool{false, true} {
			b, err := ExportXGBoost(e, ExportOptions{LibSVMIndices: libsvm})
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := ImportXGBoostWith(bytes.NewReader(b), name, ImportOptions{LibSVMIndices: libsvm})
			if err != nil {
				t.Fatalf("%s (libsvm %v): %v", name, libsvm, err)
			}
			if back.NumFeatures != e.NumFeatures || len(back.Trees) != len(e.Trees) {
				t.Fatalf("%s: %d trees of %d features back for %d of %d", name, len(back.Trees), back.NumFeatures, len(e.Trees), e.NumFeatures)
			}
			if math.Abs(back.Base-e.Base) > 1e-6*math.Max(1, math.Abs(e.Base)) {
				t.Errorf("%s: base %v back for %v", name, back.Base, e.Base)
			}
			for i := range e.Trees {
				checkSameTree(t, name, i, &e.Trees[i], &back.Trees[i])
			}
		}
	}
}

// checkSameTree compares tree i of an ensemble with its export read back:
// both walk their nodes depth first, left before right.
func checkSameTree(t *testing.T, name string, i int, a, b *Tree) {
	t.Helper()
	if len(a.Nodes) != len(b.Nodes) || len(a.Leaves) != len(b.Leaves) {
		t.Fatalf("%s tree %d: %d splits and %d leaves back for %d and %d", name, i, len(b.Nodes), len(b.Leaves), len(a.Nodes), len(a.Leaves))
	}
	var walk func(x, y int32)
	walk = func(x, y int32) {
		if (x < 0) != (y < 0) {
			t.Fatalf("%s tree %d: a split and a leaf at the same place", name, i)
		}
		if x < 0 {
			if float32(a.Leaves[^x]) != float32(b.Leaves[^y]) {
				t.Errorf("%s tree %d: leaf %v back for %v", name, i, b.Leaves[^y], a.Leaves[^x])
			}
			if a.LeafCover != nil && (b.LeafCover == nil || a.LeafCover[^x] != b.LeafCover[^y]) {
				t.Errorf("%s tree %d: leaf %d's cover not kept", name, i, ^x)
			}
			return
		}
		p, q := a.Nodes[x], b.Nodes[y]
		if p.Feature != q.Feature || p.Threshold != q.Threshold || p.DefaultLeft != q.DefaultLeft {
			t.Errorf("%s tree %d: split %+v back for %+v", name, i, q, p)
		}
		if a.Gain != nil && (b.Gain == nil || a.Gain[x] != b.Gain[y] || a.Cover[x] != b.Cover[y]) {
			t.Errorf("%s tree %d: split %d's gain and cover not kept", name, i, x)
		}
		walk(p.Left, q.Left)
		walk(p.Right, q.Right)
	}
	ra, rb := int32(0), int32(0)
	if len(a.Nodes) == 0 {
		ra, rb = Leaf(0), Leaf(0)
	}
	walk(ra, rb)
}

// xgbRoundTrip exports e with opt and reads the file back.
func xgbRoundTrip(t *testing.T, e *Ensemble, opt ExportOptions) *Ensemble {
	t.Helper()
	b, err := ExportXGBoost(e, opt)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := ImportXGBoost(bytes.NewReader(b), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// TestExportXGBoostMissingAsZero: with MissingAsZero every split sends a
// missing value where it sends 0, so a document with values missing scores
// as with those values 0; without it the model's default directions stay.
func TestExportXGBoostMissingAsZero(t *testing.T) {
	e := readEnsemble(t, "testdata/export-lambdarank.json")
	if differ, _ := e.MissingSplits(-1); differ == 0 {
		t.Fatal("the fixture sends a missing value where 0 goes at every split: nothing to test")
	}
	back := xgbRoundTrip(t, e, ExportOptions{MissingAsZero: true})
	if differ, total := back.MissingSplits(-1); differ != 0 {
		t.Errorf("%d of %d splits send a missing value the other way than 0", differ, total)
	}
	for _, x := range mq2008Test(t)[:50] {
		nan := append([]float32(nil), x...)
		zero := append([]float32(nil), x...)
		for f := 0; f < len(x); f += 3 {
			nan[f], zero[f] = float32(math.NaN()), 0
		}
		if a, b := rawScore(back, nan), rawScore(e, zero); math.Abs(a-b) > 1e-5 {
			t.Fatalf("missing values score %v, zeros %v", a, b)
		}
	}
}

// A split at threshold 0 sends 0 left (0 <= 0), so with MissingAsZero a
// missing value goes left too, whatever the split's default was.
func TestExportXGBoostMissingAsZeroAtThresholdZero(t *testing.T) {
	e := &Ensemble{NumFeatures: 1, Trees: []Tree{{Nodes: []Node{{Threshold: 0, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{-1, 1}}}}
	back := xgbRoundTrip(t, e, ExportOptions{MissingAsZero: true})
	nan := float32(math.NaN())
	if got := rawScore(back, []float32{nan}) - rawScore(back, []float32{0}); got != 0 || !back.Trees[0].Nodes[0].DefaultLeft {
		t.Errorf("exported with missing as zero: NaN scores %v from 0, default left %v; want 0 and true", got, back.Trees[0].Nodes[0].DefaultLeft)
	}
}

// TestExportXGBoostBase: base_score is the objective's inverse link of the
// base score, and where a float32 probability is too coarse a margin (a
// base of 12 for binary:logistic), or the base is past what XGBoost's
// float32 link can take (40 or −100; exp(100) for count:poisson), the rest
// is in the first tree, so that the export read back scores within float32
// of the model.
func TestExportXGBoostBase(t *testing.T) {
	for _, c := range []struct {
		obj      string
		base     float64
		xgbObj   string
		baseText string
	}{
		{"regression", 0.3, "reg:squarederror", `"base_score":"0.3"`},
		{"binary", 0, "binary:logistic", `"base_score":"0.5"`},
		{"binary", 12, "binary:logistic", ""},
		{"count:poisson", math.Log(0.4), "count:poisson", `"base_score":"0.4"`},
		{"lambdarank", -2.5, "rank:ndcg", `"base_score":"-2.5"`},
		// Past what XGBoost's float32 link can take: base_score held at
		// the nearest it can, the rest in the first tree.
		{"binary", 40, "binary:logistic", `"base_score":"0.99999994"`},
		{"binary", -100, "binary:logistic", `"base_score":"1e-37"`},
		{"count:poisson", 100, "count:poisson", `"base_score":"3.4028235e+38"`},
		{"count:poisson", -200, "count:poisson", `"base_score":"1e-37"`},
	} {
		e := &Ensemble{Base: c.base, NumFeatures: 2, Objective: c.obj, Trees: []Tree{
			{Nodes: []Node{{Feature: 1, Threshold: 0.5, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{-0.25, 0.5}},
		}}
		b, err := ExportXGBoost(e, ExportOptions{})
		if err != nil {
			t.Fatalf("%s %v: %v", c.obj, c.base, err)
		}
		if !bytes.Contains(b, []byte(`"objective":{"name":"`+c.xgbObj+`"`)) || !bytes.Contains(b, []byte(c.baseText)) {
			t.Errorf("%s %v: not %s with %s:\n%s", c.obj, c.base, c.xgbObj, c.baseText, b)
		}
		back, _, err := ImportXGBoost(bytes.NewReader(b), "m.json")
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range [][]float32{{0, 0}, {0, 1}} {
			if got, want := rawScore(back, x), rawScore(e, x); math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Errorf("%s base %v: %v back for %v", c.obj, c.base, got, want)
			}
		}
	}
}

// TestXGBoostLogitBase: XGBoost turns a logistic base_score into its
// margin in float32, -logf(1.0f/p - 1.0f), which near p = 1 is far from
// the exact logit (14.84 for 0.9999997, not 15.03). The margins are XGBoost
// 1.7.4's own: output_margin of a binary:logistic model of one leaf of 0
// with that base_score. The importer reads them, and an export of a binary
// model of base 15 or 16.5 puts the rest in the first tree, so that XGBoost
// scores it as cronus does.
func TestXGBoostLogitBase(t *testing.T) {
	xgbMargin := map[string]float64{
		"0.3": -0.847297847, "0.001": -6.90675449, "0.999": 6.90675545,
		"0.9999997": 14.8437729, "0.99999994": 15.9423847,
	}
	for s, want := range xgbMargin {
		if got, err := xgbBase("binary:logistic", s); err != nil || math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("base_score %s: margin %.9g (%v), XGBoost's %.9g", s, got, err, want)
		}
	}
	for _, base := range []float64{15, 16.5, 0.999} {
		e := &Ensemble{Base: base, NumFeatures: 1, Objective: "binary", Trees: []Tree{{Leaves: []float64{0.25}}}}
		b, err := ExportXGBoost(e, ExportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Learner struct {
				Param struct {
					Base string `json:"base_score"`
				} `json:"learner_model_param"`
				Booster struct {
					Model struct {
						Trees []struct {
							Cond []float32 `json:"split_conditions"`
						} `json:"trees"`
					} `json:"model"`
				} `json:"gradient_booster"`
			} `json:"learner"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		want, ok := xgbMargin[m.Learner.Param.Base]
		if !ok {
			continue // 0.999 is not a float32's shortest form
		}
		if got := want + float64(m.Learner.Booster.Model.Trees[0].Cond[0]); math.Abs(got-(base+0.25)) > 4e-6 {
			t.Errorf("base %v: XGBoost's margin %.9g (base_score %s), want %v", base, got, m.Learner.Param.Base, base+0.25)
		}
	}
	if _, err := xgbBase("binary:logistic", "3.8E-44"); err == nil || !strings.Contains(err.Error(), "too close to 0") {
		t.Errorf("base_score 3.8E-44, whose margin XGBoost makes -inf: error %v", err)
	}
}

// TestExportXGBoostRefuses: what XGBoost's file cannot hold is refused
// with a message that says why.
func TestExportXGBoostRefuses(t *testing.T) {
	split := func(th float32, leaf float64) []Tree {
		return []Tree{{Nodes: []Node{{Threshold: th, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{0, leaf}}}
	}
	for _, c := range []struct {
		e    Ensemble
		want string
	}{
		{Ensemble{NumFeatures: 1, Objective: "regression"}, "no trees"},
		{Ensemble{NumFeatures: 1, Objective: "regression", Trees: split(0.5, 1e39)}, "float32 range"},
		{Ensemble{NumFeatures: 1, Objective: "regression", Base: 1e39, Trees: split(0.5, 1)}, "float32 range"},
	} {
		_, err := ExportXGBoost(&c.e, ExportOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.e, err, c.want)
		}
	}
}

// TestExportXGBoostNoFeatures: a model of no features (its trees all
// leaves) is written with num_feature 1: XGBoost 1.7.4 refuses a model of
// num_feature 0 at its first prediction ("Check failed:
// mparam_.num_feature != 0: 0 feature is supplied"), whatever the matrix.
func TestExportXGBoostNoFeatures(t *testing.T) {
	e := &Ensemble{Base: 0.3, NumFeatures: 0, Objective: "regression", Trees: []Tree{{Leaves: []float64{0.125}}}}
	b, err := ExportXGBoost(e, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Learner struct {
			Param struct {
				NumFeature string `json:"num_feature"`
			} `json:"learner_model_param"`
		} `json:"learner"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Learner.Param.NumFeature != "1" {
		t.Errorf("num_feature %q, which XGBoost refuses: want 1", m.Learner.Param.NumFeature)
	}
	back, _, err := ImportXGBoost(bytes.NewReader(b), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := rawScore(back, []float32{0}); math.Abs(got-0.425) > 1e-7 {
		t.Errorf("read back, it scores %v, want 0.425", got)
	}
}

// TestXGBoostObjective: cronus's, LightGBM's and RankLib's objectives have
// XGBoost counterparts; one without is written as reg:squarederror.
func TestXGBoostObjective(t *testing.T) {
	for obj, want := range map[string]string{
		"regression": "reg:squarederror", "binary": "binary:logistic", "lambdarank": "rank:ndcg",
		"poisson": "count:poisson", "LambdaMART": "rank:ndcg", "reg:linear": "reg:squarederror",
		"survival:cox": "survival:cox", "survival:aft": "survival:aft", "binary:hinge": "binary:hinge",
	} {
		if got, ok := XGBoostObjective(obj); got != want || !ok {
			t.Errorf("%s: %s %v, want %s", obj, got, ok, want)
		}
	}
	// The objectives the importers give the fixtures.
	for _, f := range []string{"ranklib-lambdamart.txt", "ranklib-mart.txt", "ranklib-rf.txt", "lgb-lambdarank.model.txt", "lgb-regression-dart.model.txt"} {
		from := "ranklib"
		if strings.HasPrefix(f, "lgb-") {
			from = "lightgbm"
		}
		e, _, err := ImportFile(from, filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := XGBoostObjective(e.Objective); !ok {
			t.Errorf("%s: objective %q written as %s without a counterpart", f, e.Objective, got)
		}
	}
	for _, obj := range []string{"reg:quantileerror", "quantile", ""} {
		if got, ok := XGBoostObjective(obj); got != "reg:squarederror" || ok {
			t.Errorf("%q: %s %v, want reg:squarederror without a counterpart", obj, got, ok)
		}
	}
}

// FuzzExportXGBoost: any model cronus reads either exports, and the export
// reads back (ImportXGBoost, with the same numbering) into an ensemble
// that sends every document the same way at every split and scores it
// within float32 of the model, on documents at, just above and just below
// every threshold, at 0 and NaN; or it is refused for one of the reasons
// XGBoost's file cannot hold (no trees, a value past the float32 range, a
// base score the link cannot take).
func FuzzExportXGBoost(f *testing.F) {
	for _, name := range []string{"export-edge.json", "export-binary.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false, false)
	}
	f.Add([]byte(`{"format":"cronus-ensemble","version":1,"objective":"binary","num_features":2,"base_score":14,"trees":[{"split_feature":[2],"threshold":[-0],"left_child":[-1],"right_child":[-2],"default_left":[true],"leaf_value":[1e-40,-2]}]}`), true, true)
	f.Add([]byte(`{"format":"cronus-ensemble","version":1,"objective":"count:poisson","num_features":1,"base_score":-3,"trees":[{"split_feature":[1],"threshold":[3.4028235e38],"left_child":[-1],"right_child":[-2],"leaf_value":[1,2]}]}`), false, true)
	// A model of no features (its one tree a leaf): written with
	// num_feature 1, which XGBoost needs, it reads back with one feature
	// (a column no split uses), or none with libsvm indices.
	noFeatures := []byte(`{"format":"cronus-ensemble","version":1,"objective":"regression","num_features":0,"base_score":0.5,"trees":[{"split_feature":[],"threshold":[],"left_child":[],"right_child":[],"leaf_value":[2]}]}`)
	f.Add(noFeatures, false, false)
	f.Add(noFeatures, true, false)
	f.Fuzz(func(t *testing.T, data []byte, libsvm, zero bool) {
		e := fuzzEnsemble(data)
		if e == nil {
			return
		}
		b, err := ExportXGBoost(e, ExportOptions{LibSVMIndices: libsvm, MissingAsZero: zero})
		if err != nil {
			for _, why := range []string{"no trees", "float32 range"} {
				if strings.Contains(err.Error(), why) {
					return
				}
			}
			t.Fatalf("refused for no known reason: %v", err)
		}
		back, _, err := ImportXGBoostWith(bytes.NewReader(b), "m.json", ImportOptions{LibSVMIndices: libsvm})
		if err != nil {
			t.Fatalf("the export does not read back: %v\n%s", err, b)
		}
		// XGBoost needs a feature: a model of none is written with
		// num_feature 1, which reads back as one feature, or none with
		// libsvm indices.
		wantFeatures := e.NumFeatures
		if !libsvm {
			wantFeatures = max(wantFeatures, 1)
		}
		if len(back.Trees) != len(e.Trees) || back.NumFeatures != wantFeatures {
			t.Fatalf("%d trees of %d features back for %d of %d (want %d)", len(back.Trees), back.NumFeatures, len(e.Trees), e.NumFeatures, wantFeatures)
		}
		// Documents: every feature at one value of the model's
		// thresholds' neighbourhoods, 0 or NaN, in turn.
		var vals []float32
		for _, tr := range e.Trees {
			for _, nd := range tr.Nodes {
				th := nd.Threshold
				vals = append(vals, th, math.Nextafter32(th, float32(math.Inf(1))), math.Nextafter32(th, float32(math.Inf(-1))))
			}
		}
		vals = append(vals, 0, float32(math.NaN()))
		if len(vals) > 40 {
			vals = vals[:40]
		}
		x := make([]float32, e.NumFeatures)
		for _, v := range vals {
			for j := range x {
				x[j] = v
			}
			want := rawScore(e, x)
			for i := range e.Trees {
				a, c := &e.Trees[i], &back.Trees[i]
				xa := x
				if zero && v != v {
					xa = make([]float32, len(x)) // a missing value goes where 0 goes
				}
				la, lc := a.Predict(xa), c.Predict(x)
				if i == 0 {
					// The first tree holds what base_score's float32 lost.
					la, lc = la+e.Base, lc+back.Base
				}
				if float32(la) != float32(lc) && math.Abs(la-lc) > 1e-6*math.Max(1, math.Abs(la)) {
					t.Fatalf("tree %d: value %v: leaf %v back for %v", i, v, lc, la)
				}
			}
			if zero && v != v {
				want = rawScore(e, make([]float32, len(x)))
			}
			got := rawScore(back, x)
			if math.IsInf(want, 0) || math.IsNaN(want) {
				continue
			}
			tol := 1e-6 * math.Max(1, math.Abs(want))
			for _, tr := range e.Trees {
				for _, l := range tr.Leaves {
					tol += math.Abs(l) * 0x1p-23 // each leaf rounded to float32
				}
			}
			tol += math.Abs(e.Base) * 0x1p-20
			if math.Abs(got-want) > tol {
				t.Fatalf("value %v: score %v back for %v", v, got, want)
			}
		}
	})
}

// TestExportXGBoostOwnObjective: a model XGBoost 1.7.4 trained under any
// of its single-output objectives goes back out under that objective,
// with the parameter objects XGBoost saved with it by default, so that
// XGBoost's prediction of the export (its link: exp for survival:cox and
// survival:aft, the 0/1 step of binary:hinge) is the original's, and its
// base_score is the original's. survival:cox, survival:aft and
// binary:hinge were written as reg:squarederror, with a note that they had
// no XGBoost counterpart: the export's prediction was the raw margin.
func TestExportXGBoostOwnObjective(t *testing.T) {
	type xgbObjectiveAndBase struct {
		Learner struct {
			Objective map[string]json.RawMessage `json:"objective"`
			Param     struct {
				BaseScore string `json:"base_score"`
			} `json:"learner_model_param"`
		} `json:"learner"`
	}
	for _, m := range readXGBObjectives(t).Models {
		var orig xgbObjectiveAndBase
		if err := json.Unmarshal(m.Model, &orig); err != nil {
			t.Fatal(err)
		}
		e, _, err := ImportXGBoost(bytes.NewReader(m.Model), m.Name+".json")
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if got, ok := XGBoostObjective(e.Objective); got != e.Objective || !ok {
			t.Errorf("%s: objective %s written as %s (counterpart %v)", m.Name, e.Objective, got, ok)
			continue
		}
		b, err := ExportXGBoost(e, ExportOptions{})
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		var out xgbObjectiveAndBase
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(orig.Learner.Objective)
		got, _ := json.Marshal(out.Learner.Objective)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: objective %s, XGBoost saved %s", m.Name, got, want)
		}
		o, _ := strconv.ParseFloat(orig.Learner.Param.BaseScore, 32)
		x, _ := strconv.ParseFloat(out.Learner.Param.BaseScore, 32)
		if math.Abs(x-o) > 1e-6*math.Abs(o) {
			t.Errorf("%s: base_score %s, XGBoost saved %s", m.Name, out.Learner.Param.BaseScore, orig.Learner.Param.BaseScore)
		}
	}
}
