package tree

import (
	"bufio"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The RankLib fixtures (make_ranklib_fixtures.py) are real cronus trees
// written in RankLib's format, and their .pred.txt the scores that
// RankLib's own classes (Ensemble, Split, DenseDataPoint, ...) computed.
var rankLibFixtures = []struct {
	file, pred, ranker string
	trees, bags        int
	// exact: the scores follow bit for bit from summing the trees in
	// float32 in file order, as Ensemble.eval does (not for a forest,
	// whose leaves the importer divides by the number of bags).
	exact bool
}{
	{"ranklib-lambdamart.txt", "ranklib-lambdamart.pred.txt", "LambdaMART", 60, 0, true},
	{"ranklib-mart.txt", "ranklib-mart.pred.txt", "MART", 21, 0, true},
	{"ranklib-rf.txt", "ranklib-rf.pred.txt", "Random Forests", 9, 3, false},
}

// float32Sum is Ensemble.eval's arithmetic: float s = 0; s += out * weight,
// the product in double, the sum rounded to float after each tree.
func float32Sum(e *Ensemble, x []float32) float64 {
	var s float32
	for i := range e.Trees {
		s = float32(float64(s) + e.Trees[i].Predict(x))
	}
	return float64(s)
}

// onThreshold counts the documents that meet, on their path through some
// tree, a split whose threshold equals their value: those that a reader
// comparing with < instead of <= would send the other way.
func onThreshold(e *Ensemble, docs [][]float32) int {
	n := 0
	for _, x := range docs {
		hit := false
		for i := range e.Trees {
			t := &e.Trees[i]
			for c := int32(0); c >= 0 && len(t.Nodes) > 0 && !hit; {
				nd := t.Nodes[c]
				hit = x[nd.Feature] == nd.Threshold
				if x[nd.Feature] <= nd.Threshold {
					c = nd.Left
				} else {
					c = nd.Right
				}
			}
		}
		if hit {
			n++
		}
	}
	return n
}

func TestImportRankLibFixtures(t *testing.T) {
	docs := mq2008Test(t)
	for _, fx := range rankLibFixtures {
		t.Run(fx.file, func(t *testing.T) {
			e, prov, err := ImportFile("ranklib", filepath.Join("testdata", fx.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Trees) != fx.trees || e.Objective != fx.ranker {
				t.Errorf("%d trees, objective %q; want %d, %q", len(e.Trees), e.Objective, fx.trees, fx.ranker)
			}
			if prov["source"] != "ranklib" || prov["ranker"] != fx.ranker || prov["trees"] != fx.trees || prov["file"] != fx.file {
				t.Errorf("provenance %v", prov)
			}
			if h, _ := prov["header"].(map[string]any); h["Learning rate"] != "0.1" {
				t.Errorf("header %v", prov["header"])
			}
			if fx.bags > 0 && prov["bags"] != fx.bags {
				t.Errorf("bags %v, want %d", prov["bags"], fx.bags)
			}
			want := readPreds(t, filepath.Join("testdata", fx.pred))
			if len(want) != len(docs) {
				t.Fatalf("%d predictions for %d documents", len(want), len(docs))
			}
			d, at := maxDiff(e, docs, want)
			t.Logf("%s: max |cronus - RankLib| = %.3g over %d documents", fx.pred, d, len(docs))
			if !(d <= 1e-5) {
				t.Errorf("document %d: score %.9g, RankLib says %.9g", at+1, rawScore(e, docs[at]), want[at])
			}
			n := onThreshold(e, docs)
			t.Logf("%d of %d documents meet a threshold equal to their value", n, len(docs))
			if n < 100 {
				t.Errorf("only %d documents meet a threshold equal to their value: the fixture does not tell <= from <", n)
			}
			if !fx.exact {
				return
			}
			for i, x := range docs {
				if s := float32Sum(e, x); s != want[i] {
					t.Fatalf("document %d: float32 sum %.9g, RankLib says %.9g", i+1, s, want[i])
				}
			}
		})
	}
}

// readSparse reads an SVMlight file into dense rows of n features, a
// feature the line leaves out being absent.
func readSparse(t *testing.T, path string, n int, absent float32) [][]float32 {
	t.Helper()
	var docs [][]float32
	sc := bufio.NewScanner(openGzip(t, path))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		s, _, _ := strings.Cut(sc.Text(), "#")
		fs := strings.Fields(s)
		if len(fs) == 0 {
			continue
		}
		x := make([]float32, n)
		for j := range x {
			x[j] = absent
		}
		for _, tok := range fs[2:] {
			k, v, _ := strings.Cut(tok, ":")
			i, err1 := strconv.Atoi(k)
			val, err2 := strconv.ParseFloat(v, 32)
			if err1 != nil || err2 != nil || i < 1 || i > n {
				t.Fatalf("%s: bad pair %q", path, tok)
			}
			x[i-1] = float32(val)
		}
		docs = append(docs, x)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return docs
}

// TestImportRankLibSparse scores MQ2008 test with its zeros left out, which
// RankLib (with -missingZero for the features after a line's last) reads as
// 0. Read as missing (NaN), every split sends them where it sends 0.
func TestImportRankLibSparse(t *testing.T) {
	e, _, err := ImportFile("ranklib", "testdata/ranklib-lambdamart.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := readPreds(t, "testdata/ranklib-lambdamart.sparse.pred.txt")
	for _, absent := range []float32{0, float32(math.NaN())} {
		docs := readSparse(t, "testdata/mq2008-test-sparse.txt.gz", testNumFeatures, absent)
		if len(docs) != len(want) {
			t.Fatalf("%d documents, %d predictions", len(docs), len(want))
		}
		left := 0
		for _, x := range docs {
			for _, v := range x {
				if v != v {
					left++
				}
			}
		}
		for i, x := range docs {
			if s := float32Sum(e, x); s != want[i] {
				t.Fatalf("absent %v: document %d: %.9g, RankLib says %.9g", absent, i+1, s, want[i])
			}
		}
		if absent != 0 && left == 0 {
			t.Fatal("the sparse file leaves nothing out")
		}
	}
}

// rlModel is a one-tree LambdaMART model around the given tree body.
func rlModel(weight, body string) string {
	return "## LambdaMART\n## No. of trees = 1\n\n<ensemble>\n\t<tree id=\"1\" weight=\"" + weight + "\">\n" + body + "\t</tree>\n</ensemble>\n"
}

// rlStump splits on feature f at threshold thr, outputs a left, b right.
func rlStump(f, thr, a, b string) string {
	return "\t\t<split>\n\t\t\t<feature>" + f + " </feature>\n\t\t\t<threshold> " + thr + " </threshold>\n" +
		"\t\t\t<split pos=\"left\">\n\t\t\t\t<output>" + a + " </output>\n\t\t\t</split>\n" +
		"\t\t\t<split pos=\"right\">\n\t\t\t\t<output>" + b + " </output>\n\t\t\t</split>\n\t\t</split>\n"
}

// TestImportRankLibFormat checks hand-worked scores of small models:
// the <= rule at the threshold, Java float parsing of weights, thresholds
// and outputs, leaves at any depth, bags averaged, and the layouts RankLib's
// reader accepts (CRLF, comments, everything on one line).
func TestImportRankLibFormat(t *testing.T) {
	f32 := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 32)
		if err != nil {
			t.Fatal(err)
		}
		return float64(float32(v))
	}
	oneLine := "## MART\n<ensemble><tree id=\"1\" weight=\"1\"><split><feature>2</feature><threshold>1E-4</threshold>" +
		"<split pos=\"left\"><output>-2.5</output></split><split pos=\"right\"><feature>1</feature><threshold>-3</threshold>" +
		"<split><output>4</output></split><split><output>8</output></split></split></split></tree>" +
		"<tree id=\"2\" weight=\"0.5\"><split><output>1</output></split></tree></ensemble>"
	forest := "## Random Forests\n## No. of bags = 2\n\n" +
		"<ensemble>\n<tree id=\"1\" weight=\"0.1\">\n" + rlStump("1", "0.5", "1", "2") + "</tree>\n</ensemble>\n\n" +
		"<ensemble>\n<tree id=\"1\" weight=\"0.1\">\n" + rlStump("2", "0.5", "10", "20") + "</tree>\n" +
		"<tree id=\"2\" weight=\"1\">\n<split><output>3</output></split>\n</tree>\n</ensemble>\n"
	for _, c := range []struct {
		what, src string
		docs      [][]float32
		want      []float64
		features  int
	}{
		// 0.3 is a float32 in the file and in the data: equal values go left.
		{"threshold equal goes left", rlModel("0.1", rlStump("3", "0.3", "1.5", "-2")),
			[][]float32{{0, 0, 0.3}, {0, 0, math.Nextafter32(0.3, 1)}, {0, 0, -1}},
			[]float64{f32("0.1") * 1.5, f32("0.1") * -2, f32("0.1") * 1.5}, 3},
		// Outputs are written as doubles but read as floats.
		{"output read as float", rlModel("1", rlStump("1", "0", "0.1234567890123", "-7.000000001")),
			[][]float32{{0}, {1}}, []float64{f32("0.1234567890123"), f32("-7.000000001")}, 1},
		{"Java suffixes and exponents", rlModel("2.5f", rlStump("1", "5e-1F", "1d", "2.D")),
			[][]float32{{0.5}, {0.6}}, []float64{2.5, 5}, 1},
		{"infinite threshold", rlModel("1", rlStump("1", "Infinity", "1", "2")),
			[][]float32{{math.MaxFloat32}, {float32(math.NaN())}}, []float64{1, 1}, 1},
		{"a NaN reads as 0", rlModel("1", rlStump("1", "-0.5", "1", "2")),
			[][]float32{{float32(math.NaN())}, {-0.5}}, []float64{2, 1}, 1},
		{"one line, leaves at depths 1 and 2, a root leaf", oneLine,
			[][]float32{{0, 1e-4}, {-3, 2e-4}, {-2, 1}},
			[]float64{-2.5 + 0.5, 4 + 0.5, 8 + 0.5}, 2},
		{"CRLF and comments", strings.ReplaceAll("## LambdaMART\n# trained by hand\n"+rlModel("1", rlStump("1", "0", "1", "2"))[len("## LambdaMART\n"):]+"\n   # bye\n", "\n", "\r\n"),
			[][]float32{{0}, {1}}, []float64{1, 2}, 1},
		// Java's readLine, which RankLib reads models with, ends a line at a lone CR too.
		{"CR line ends", strings.ReplaceAll("## LambdaMART\n# trained by hand\n"+rlModel("1", rlStump("1", "0", "1", "2"))[len("## LambdaMART\n"):]+"\n", "\n", "\r"),
			[][]float32{{0}, {1}}, []float64{1, 2}, 1},
		// The count cronus's export writes, above the highest feature used.
		{"feature count line", strings.Replace(rlModel("1", rlStump("1", "0", "1", "2")), "\n\n", "\n## No. of features = 46\n\n", 1),
			[][]float32{{0}, {1}}, []float64{1, 2}, 46},
		// Bag 1 scores 0.1 or 0.2, bag 2 1+3 or 2+3: RankLib averages them.
		{"forest averages bags", forest,
			[][]float32{{0, 0}, {1, 1}},
			[]float64{(f32("0.1")*1 + f32("0.1")*10 + 3) / 2, (f32("0.1")*2 + f32("0.1")*20 + 3) / 2}, 2},
	} {
		e, prov, err := ImportRankLib(strings.NewReader(c.src), "m.txt")
		if err != nil {
			t.Errorf("%s: %v", c.what, err)
			continue
		}
		if e.NumFeatures != c.features {
			t.Errorf("%s: %d features, want %d", c.what, e.NumFeatures, c.features)
		}
		for i, x := range c.docs {
			if got := rawScore(e, x); math.Abs(got-c.want[i]) > 1e-12 {
				t.Errorf("%s: document %d: %v, want %v", c.what, i, got, c.want[i])
			}
		}
		reencode(t, NewModel(e, "ranklib", prov), e)
	}
}

func TestImportRankLibErrors(t *testing.T) {
	const name = "m.txt"
	orig := rlModel("0.1", rlStump("3", "0.3", "1.5", "-2"))
	line := func(s string) string { return name + ":" + strconv.Itoa(lineOf(t, orig, s)) + ": " }
	rep := func(old, new string) string {
		if !strings.Contains(orig, old) {
			t.Fatalf("%q not in the model", old)
		}
		return strings.Replace(orig, old, new, 1)
	}
	cases := []struct {
		what, src, want string
	}{
		{"empty", "", name + `:1: not a RankLib model: the first line names the ranker, as "## LambdaMART" (got "")`},
		{"LightGBM", "tree\nversion=v4\n", name + `:1: not a RankLib model`},
		{"unknown ranker", "## BoostedThing\n", name + `:1: unknown RankLib ranker "BoostedThing" (want LambdaMART, MART or Random Forests)`},
		{"no ensemble", "## LambdaMART\n## No. of trees = 0\n", name + ":2: no <ensemble> in the file"},
		{"empty ensemble", "## LambdaMART\n\n<ensemble>\n</ensemble>\n", name + ":3: <ensemble> holds no <tree>"},
		{"threshold not a number", rep("0.3 </threshold>", "abc </threshold>"), line("<threshold>") + `<threshold> "abc" is not a number`},
		{"output not a number", rep("1.5 </output>", "1.5.0 </output>"), line("1.5 </output>") + `<output> "1.5.0" is not a number`},
		{"long value cut at a character", rep("0.3 </threshold>", "a"+strings.Repeat("é", 30)+" </threshold>"), line("<threshold>") + `<threshold> "a` + strings.Repeat("é", 19) + `..." is not a number`},
		{"Go-only float syntax", rep("0.3 </threshold>", "inf </threshold>"), line("<threshold>") + `<threshold> "inf" is not a number`},
		{"weight not a number", rep(`weight="0.1"`, `weight="x"`), line("<tree") + `<tree> weight "x" is not a finite number`},
		{"no weight", rep(` weight="0.1"`, ""), line("<tree") + "<tree> without a weight attribute"},
		{"feature not an integer", rep("<feature>3 ", "<feature>3.0 "), line("<feature>") + `<feature> "3.0" is not an integer`},
		{"feature 0", rep("<feature>3 ", "<feature>0 "), line("<feature>") + "<feature> 0: RankLib numbers features from 1"},
		{"feature too large", rep("<feature>3 ", "<feature>10000001 "), line("<feature>") + "<feature> 10000001: cronus reads data with feature indices up to 10000000"},
		{"split without feature", rep("<feature>3 </feature>\n", ""), name + ":7: <split> (line 6) must start with <feature> (a split) or <output> (a leaf), got <threshold>"},
		{"tree with no output", rep("\t\t\t\t<output>1.5 </output>\n", ""), line(`<split pos="left">`) + "<split> with neither <feature> nor <output>: a tree with no output"},
		{"tree with no split", rep(rlStump("3", "0.3", "1.5", "-2"), ""), name + ":6: expected the <split> that is the tree's root, got </tree>"},
		{"missing right branch", rep("\t\t\t<split pos=\"right\">\n\t\t\t\t<output>-2 </output>\n\t\t\t</split>\n", ""),
			name + ":12: expected the right <split> of the split on feature 3 (line 7), got </split>"},
		{"unbalanced: </split> missing", rep("\t\t\t\t<output>1.5 </output>\n\t\t\t</split>\n", "\t\t\t\t<output>1.5 </output>\n"),
			name + `:11: expected </split> (<split> opened on line 9), got <split>`},
		{"unbalanced: stray </tree>", rep("</ensemble>", "</tree>\n</ensemble>"), line("</ensemble>") + "expected <tree> or </ensemble> (<ensemble> opened on line 4), got </tree>"},
		{"mismatched close", rep("1.5 </output>", "1.5 </outptu>"), line("1.5 </output>") + "expected </output> (opened on line 10), got </outptu>"},
		{"truncated", orig[:strings.Index(orig, "<split pos=\"right\">")], line(`<split pos="right">`) + "expected the right <split> of the split on feature 3 (line 7), got the end of the file"},
		{"truncated in a tag", orig[:strings.Index(orig, "<split pos=\"right\">")+5], line(`<split pos="right">`) + "a tag without its closing '>' (truncated?)"},
		{"pos contradicts order", rep(`<split pos="left">`, `<split pos="right">`), line(`<split pos="left">`) + `<split pos="right"> where the left branch is`},
		{"NaN threshold", rep("0.3 </threshold>", "NaN </threshold>"), line("<threshold>") + "<threshold> NaN sends every value right"},
		{"-Infinity threshold", rep("0.3 </threshold>", "-Infinity </threshold>"), line("<threshold>") + "<threshold> -Infinity sends every value right"},
		{"infinite output", rep("1.5 </output>", "1e39 </output>"), line("1.5 </output>") + "<output> 1e39 times the tree's weight 0.1 is not finite"},
		{"empty element", rep("<feature>3 </feature>", "<feature/>"), line("<feature>") + "empty element <feature/>"},
		{"two ensembles in LambdaMART", orig + "<ensemble>\n", name + ":" + strconv.Itoa(strings.Count(orig, "\n")+1) + ": a second <ensemble>: only a Random Forests model holds several"},
		{"text between tags", rep("<ensemble>", "<ensemble> junk"), line("<ensemble>") + `expected <tree> or </ensemble> (<ensemble> opened on line 4), got text "junk"`},
		{"unterminated comment", rep("<ensemble>", "<!-- x"), line("<ensemble>") + "<!-- without -->"},
		{"feature count below a split's", rep("## No. of trees = 1\n", "## No. of trees = 1\n## No. of features = 2\n"), name + `:3: "No. of features = 2", but a split uses feature 3`},
		{"feature count not a number", rep("## No. of trees = 1\n", "## No. of trees = 1\n## No. of features = 4.5\n"), name + `:3: "No. of features = 4.5": want a whole number from 1 to 10000000`},
		{"feature count too large", rep("## No. of trees = 1\n", "## No. of trees = 1\n## No. of features = 10000001\n"), name + `:3: "No. of features = 10000001": want a whole number from 1 to 10000000`},
	}
	// A Random Forests file holds as many <ensemble>s as its header's bags:
	// one cut after a bag, or two run together, is refused.
	bag := "<ensemble>\n<tree id=\"1\" weight=\"0.1\">\n" + rlStump("1", "0.5", "1", "2") + "</tree>\n</ensemble>\n"
	forest := func(bags string, n int) string {
		return "## Random Forests\n## No. of bags = " + bags + "\n## No. of trees = 1\n\n" + strings.Repeat(bag, n)
	}
	bagLines := strings.Count(bag, "\n")
	cases = append(cases, []struct{ what, src, want string }{
		{"forest cut after a bag", forest("3", 2), name + ":" + strconv.Itoa(4+2*bagLines) + `: the file ends after 2 <ensemble>s, and its header says "No. of bags = 3" (line 2): is it truncated?`},
		{"forest cut after its first bag", forest("2", 1), name + ":" + strconv.Itoa(4+bagLines) + `: the file ends after one <ensemble>, and its header says "No. of bags = 2" (line 2): is it truncated?`},
		{"forests run together", forest("2", 2) + forest("2", 2), name + ":" + strconv.Itoa(5+2*bagLines+4) + `: more <ensemble>s than the header's "No. of bags = 2" (line 2)`},
	}...)
	for _, r := range []string{"RankNet", "RankBoost", "AdaRank", "Coordinate Ascent", "LambdaRank", "ListNet", "Linear Regression"} {
		cases = append(cases, struct{ what, src, want string }{r, "## " + r + "\n## x = 1\n0 1 2\n",
			name + ":1: a RankLib " + r + " model is not a tree ensemble: cronus imports LambdaMART, MART and Random Forests models"})
	}
	for _, c := range cases {
		e, _, err := ImportRankLib(strings.NewReader(c.src), name)
		if err == nil || e != nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.what, err, c.want)
		}
	}
}

func TestImportRankLibWrongFile(t *testing.T) {
	if _, _, err := ImportFile("ranklib", "testdata/lgb-lambdarank.model.txt"); err == nil || !strings.HasPrefix(err.Error(), `testdata/lgb-lambdarank.model.txt:1: not a RankLib model: the first line names the ranker, as "## LambdaMART" (got "tree")`) {
		t.Errorf("LightGBM as RankLib: %v", err)
	}
	if _, _, err := ImportFile("lightgbm", "testdata/ranklib-mart.txt"); err == nil || !strings.HasPrefix(err.Error(), "testdata/ranklib-mart.txt:1: not a LightGBM text model") {
		t.Errorf("RankLib as LightGBM: %v", err)
	}
}
