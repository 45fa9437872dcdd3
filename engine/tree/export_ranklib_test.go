package tree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rankLibExportFixtures are models exported to RankLib's format (the
// .txt files, testdata/make_ranklib_export_fixtures.sh) and the data
// RankLib's own classes scored with them (the .pred.txt files): MQ2008
// Fold1 test for the lambdarank model, and for the edge cases
// export-edge's and export-inf's rows (thresholds at ±0, 1e-7, the
// float32 maximum, values a float32 step either side of them) as SVMlight,
// their NaNs left out, which RankLib and cronus read as 0.
var rankLibExportFixtures = []struct{ name, data string }{
	{"export-lambdarank", ""},
	{"export-edge", "ranklib-export-edge.data.txt.gz"},
	{"export-inf", "ranklib-export-inf.data.txt.gz"},
}

// rankLibScore is a document's score as RankLib's Ensemble.eval gives it
// for an export of e: each tree's leaf, read as a Java float, times the
// weight 1.0f, summed in float32 in the file's order, the base score's
// one-leaf tree last.
func rankLibScore(e *Ensemble, x []float32) float32 {
	var s float32
	for i := range e.Trees {
		s += float32(e.Trees[i].Predict(x)) * 1
	}
	return s + float32(e.Base)
}

// TestExportRankLibFixtures: the exporter writes, byte for byte, the files
// RankLib loaded, and RankLib's scores of them are those of a float32 sum
// of the model's leaves, bit for bit, within float32 rounding of cronus's
// own float64 scores.
func TestExportRankLibFixtures(t *testing.T) {
	for _, fx := range rankLibExportFixtures {
		t.Run(fx.name, func(t *testing.T) {
			e := readEnsemble(t, filepath.Join("testdata", fx.name+".json"))
			got, err := ExportRankLib(context.Background(), e, fx.name+".json")
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", "ranklib-"+fx.name+".txt")
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			// The feature count's line came after RankLib scored the
			// fixtures: a "##" line, which RankLib's reader skips as it
			// skips the "## Exported by" line the fixtures have.
			count := fmt.Sprintf("## No. of features = %d\n", e.NumFeatures)
			if !bytes.Contains(got, []byte("## Learning rate = 1.0\n"+count)) {
				t.Errorf("the export has no %q line after the learning rate", strings.TrimSpace(count))
			}
			if !bytes.Equal(bytes.Replace(got, []byte(count), nil, 1), want) {
				t.Errorf("the export, but for its feature count's line, differs from %s, which RankLib scored", file)
			}
			docs := mq2008Test(t)
			if fx.data != "" {
				docs = readSparse(t, filepath.Join("testdata", fx.data), e.NumFeatures, 0)
			}
			preds := readPreds(t, filepath.Join("testdata", "ranklib-"+fx.name+".pred.txt"))
			if len(preds) != len(docs) {
				t.Fatalf("%d RankLib scores for %d documents", len(preds), len(docs))
			}
			worst := 0.0
			for i, x := range docs {
				if s := rankLibScore(e, x); float64(s) != preds[i] {
					t.Errorf("document %d: RankLib's score %v, the float32 sum %v", i+1, preds[i], s)
				}
				// Each leaf rounded to float32 (half an ulp, 2⁻²⁴ of it),
				// each partial sum too.
				bound := math.Abs(e.Base)
				for j := range e.Trees {
					bound += math.Abs(e.Trees[j].Predict(x))
				}
				bound *= float64(len(e.Trees)+2) * 0x1p-24
				d := math.Abs(rawScore(e, x) - preds[i])
				if d > bound {
					t.Errorf("document %d: cronus %v, RankLib %v: %.3g apart, more than float32 rounding (%.3g)", i+1, rawScore(e, x), preds[i], d, bound)
				}
				worst = max(worst, d)
			}
			t.Logf("%d documents: RankLib's scores are the float32 sum's; largest |cronus − RankLib| %.3g", len(docs), worst)
		})
	}
}

// TestExportRankLibRoundTrip: the RankLib importer reads an export back
// into the same trees (features, thresholds, shape), leaves rounded to
// float32, and the base score as a last one-leaf tree when it is not 0.
func TestExportRankLibRoundTrip(t *testing.T) {
	for _, fx := range rankLibExportFixtures {
		e := readEnsemble(t, filepath.Join("testdata", fx.name+".json"))
		// Data with features no split uses, as MQ2008's 46th for a small
		// model: a RankLib file alone would give the highest one used.
		used := e.Features(-1) // sorted, from 0
		e.NumFeatures = used[len(used)-1] + 1 + 3
		b, err := ExportRankLib(context.Background(), e, "")
		if err != nil {
			t.Fatal(err)
		}
		back, prov, err := ImportRankLib(bytes.NewReader(b), fx.name)
		if err != nil {
			t.Fatalf("%s: %v\n%s", fx.name, err, b)
		}
		if prov["ranker"] != "LambdaMART" {
			t.Errorf("%s: ranker %v", fx.name, prov["ranker"])
		}
		n := len(e.Trees)
		if float32(e.Base) != 0 {
			n++
		}
		if len(back.Trees) != n || back.Base != 0 {
			t.Fatalf("%s: %d trees and base %v back, want %d and 0", fx.name, len(back.Trees), back.Base, n)
		}
		for i := range e.Trees {
			a, c := &e.Trees[i], &back.Trees[i]
			if len(a.Nodes) != len(c.Nodes) || len(a.Leaves) != len(c.Leaves) {
				t.Fatalf("%s tree %d: %d splits, %d leaves back for %d, %d", fx.name, i, len(c.Nodes), len(c.Leaves), len(a.Nodes), len(a.Leaves))
			}
			// Walked together from the root, left before right: the
			// importer numbers nodes and leaves in the file's order.
			var walk func(x, y int32)
			walk = func(x, y int32) {
				switch {
				case (x < 0) != (y < 0):
					t.Fatalf("%s tree %d: a split and a leaf at the same place", fx.name, i)
				case x < 0:
					if v := a.Leaves[^x]; c.Leaves[^y] != float64(float32(v)) {
						t.Errorf("%s tree %d leaf %d: %v back for %v", fx.name, i, ^x, c.Leaves[^y], v)
					}
				default:
					nd, got := a.Nodes[x], c.Nodes[y]
					if got.Feature != nd.Feature || got.Threshold != nd.Threshold {
						t.Errorf("%s tree %d node %d: feature %d <= %v back for %d <= %v", fx.name, i, x, got.Feature, got.Threshold, nd.Feature, nd.Threshold)
					}
					walk(nd.Left, got.Left)
					walk(nd.Right, got.Right)
				}
			}
			if len(a.Nodes) == 0 {
				walk(^0, ^0)
			} else {
				walk(0, 0)
			}
		}
		if n > len(e.Trees) && back.Trees[n-1].Leaves[0] != float64(float32(e.Base)) {
			t.Errorf("%s: base tree %v, want %v", fx.name, back.Trees[n-1].Leaves, float32(e.Base))
		}
		// The count comes back from the export's header line, not from
		// the highest feature a split uses, which the count is raised past.
		if back.NumFeatures != e.NumFeatures {
			t.Errorf("%s: %d features back, want %d", fx.name, back.NumFeatures, e.NumFeatures)
		}
	}
}

// TestExportRankLibRefuses: what RankLib's float32 reader or sum cannot
// hold is refused, naming the tree and leaf; a model of no trees too.
func TestExportRankLibRefuses(t *testing.T) {
	split := func(l, r float64) Tree {
		return Tree{Nodes: []Node{{Feature: 0, Threshold: 0.5, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{l, r}}
	}
	for _, c := range []struct {
		e    Ensemble
		want string
	}{
		{Ensemble{NumFeatures: 1}, "no trees"},
		{Ensemble{NumFeatures: 1, Trees: []Tree{split(1, 1e39)}}, "leaf 1: value 1e+39 is outside RankLib's float32 range"},
		{Ensemble{NumFeatures: 1, Trees: []Tree{split(1, 2)}, Base: -1e39}, "base score -1e+39"},
		{Ensemble{NumFeatures: 1, Trees: []Tree{split(3e38, 1), split(-1, 3e38)}}, "past the float32 range"},
		{Ensemble{NumFeatures: 1, Trees: []Tree{split(math.NaN(), 1)}}, "leaf 0: value NaN"},
	} {
		_, err := ExportRankLib(context.Background(), &c.e, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.e, err, c.want)
		}
	}
	var te *ExportTreeError
	if _, err := ExportRankLib(context.Background(), &Ensemble{NumFeatures: 1, Trees: []Tree{split(1, 2), split(1, 1e39)}}, ""); !errors.As(err, &te) || te.Tree != 1 {
		t.Errorf("error %v, want one naming tree 1", err)
	}
	// A chain whose <split>s nest rlMaxDepth+1 deep (the leaf's too):
	// refused, not written by a recursion as deep (a crafted one can be
	// millions deep). One split less reads back.
	deep := func(n int) Tree {
		chain := Tree{Leaves: make([]float64, n+1)}
		for d := 0; d < n; d++ {
			right := int32(d + 1)
			if d == n-1 {
				right = Leaf(d + 1)
			}
			chain.Nodes = append(chain.Nodes, Node{Feature: 0, Threshold: float32(d), Left: Leaf(d), Right: right})
		}
		return chain
	}
	if _, err := ExportRankLib(context.Background(), &Ensemble{NumFeatures: 1, Trees: []Tree{split(1, 2), deep(rlMaxDepth)}}, ""); !errors.As(err, &te) || te.Tree != 1 ||
		!strings.Contains(err.Error(), "10000 splits deep") {
		t.Errorf("a chain %d deep: error %v, want one naming tree 1 and its depth", rlMaxDepth, err)
	}
	b, err := ExportRankLib(context.Background(), &Ensemble{NumFeatures: 1, Trees: []Tree{deep(rlMaxDepth - 1)}}, "")
	if err != nil {
		t.Fatalf("a chain %d deep: %v", rlMaxDepth-1, err)
	}
	// Indented a tab a level, the file was 350 MB.
	if len(b) > 5<<20 {
		t.Errorf("a chain %d deep: %d bytes", rlMaxDepth-1, len(b))
	}
	if back, _, err := ImportRankLib(bytes.NewReader(b), "m.txt"); err != nil || back.Trees[0].Depth() != rlMaxDepth-1 {
		t.Errorf("a chain %d deep read back: %v", rlMaxDepth-1, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ExportRankLib(ctx, &Ensemble{NumFeatures: 1, Trees: []Tree{split(1, 2)}}, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

// TestExportRankLibSourceComment: the comment naming the source is one
// line whatever the name holds.
func TestExportRankLibSourceComment(t *testing.T) {
	e := &Ensemble{NumFeatures: 1, Trees: []Tree{{Leaves: []float64{1}}}}
	b, err := ExportRankLib(context.Background(), e, "a\nb\r.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("## Exported by cronus from a?b?.json\n")) {
		t.Errorf("comment not one line:\n%s", b)
	}
	if _, _, err := ImportRankLib(bytes.NewReader(b), "m.txt"); err != nil {
		t.Error(err)
	}
}

// fuzzEnsemble is the model data holds for the exporters' fuzz targets,
// or nil when the model reader refuses it or it has more than 64 features.
func fuzzEnsemble(data []byte) *Ensemble {
	m, err := ParseModel(fuzzName, data)
	if err != nil {
		return nil
	}
	e, err := m.Ensemble()
	if err != nil || e.NumFeatures > 64 {
		return nil
	}
	return e
}

// FuzzExportRankLib: every model the model reader takes is exported or
// refused for a reason the exporter gives, and an export reads back with
// RankLib's importer into a model that scores as the float32 sum of the
// original's leaves, on documents at and around its thresholds.
func FuzzExportRankLib(f *testing.F) {
	for _, name := range []string{"export-edge.json", "export-inf.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":"cronus-ensemble","version":1,"objective":"binary","num_features":2,"base_score":14,"trees":[{"split_feature":[2],"threshold":[-0],"left_child":[-1],"right_child":[-2],"default_left":[true],"leaf_value":[1e-40,-2]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e := fuzzEnsemble(data)
		if e == nil {
			return
		}
		b, err := ExportRankLib(context.Background(), e, "m.json")
		if err != nil {
			for _, why := range []string{"no trees", "float32 range", "splits deep"} {
				if strings.Contains(err.Error(), why) {
					return
				}
			}
			t.Fatalf("refused for no known reason: %v", err)
		}
		back, _, err := ImportRankLib(bytes.NewReader(b), "m.txt")
		if err != nil {
			if strings.Contains(err.Error(), "-Infinity sends every value right") {
				return // a threshold of −∞, which cronus's RankLib importer refuses
			}
			t.Fatalf("the export does not read back: %v\n%s", err, b)
		}
		var vals []float32
		for _, tr := range e.Trees {
			for _, nd := range tr.Nodes {
				th := nd.Threshold
				vals = append(vals, th, math.Nextafter32(th, float32(math.Inf(1))), math.Nextafter32(th, float32(math.Inf(-1))))
			}
		}
		vals = append(vals, 0)
		if len(vals) > 40 {
			vals = vals[:40]
		}
		x := make([]float32, max(e.NumFeatures, back.NumFeatures))
		for _, v := range vals {
			for j := range x {
				x[j] = v
			}
			var s float32
			for i := range back.Trees {
				s += float32(back.Trees[i].Predict(x))
			}
			if want := rankLibScore(e, x); s != want && !(s != s && want != want) {
				t.Fatalf("x = %v: the export read back scores %v, the float32 sum of the model's leaves %v", v, s, want)
			}
		}
	})
}
