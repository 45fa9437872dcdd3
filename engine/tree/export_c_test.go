package tree

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/internal/ctest"
)

// cPredictDriver reads "n F" and n·F float32 bit patterns (row-major) on
// standard input and prints, for each document, the bits of the exported
// model's score as 16 hex digits.
const cPredictDriver = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.c"

int main(void)
{
	int n, nf, i, f;
	if (scanf("%d %d", &n, &nf) != 2)
		return 2;
	{
		float *x = (float *)malloc((size_t)(nf > 0 ? nf : 1) * sizeof *x);
		for (i = 0; i < n; i++) {
			unsigned long long bits;
			double s;
			for (f = 0; f < nf; f++) {
				unsigned int u;
				if (scanf("%u", &u) != 1)
					return 3;
				memcpy(&x[f], &u, sizeof u);
			}
			s = m_predict(x);
			memcpy(&bits, &s, sizeof bits);
			printf("%016llx\n", bits);
		}
		free(x);
	}
	return 0;
}
`

// cPredictCheck exports e as C, compiles it with the driver, scores the
// rows and fails unless every score equals Predict's bit for bit.
func cPredictCheck(t *testing.T, e *Ensemble, rows [][]float32) {
	t.Helper()
	src, err := ExportC(e, CExportOptions{Prefix: "m", Source: "a */ test /* model\nwith a line break"})
	if err != nil {
		t.Fatal(err)
	}
	exe := ctest.Build(t, map[string]string{"model.c": string(src), "main.c": cPredictDriver}, "main.c", ctest.ISO())
	var in bytes.Buffer
	fmt.Fprintf(&in, "%d %d\n", len(rows), e.NumFeatures)
	cols := make([][]float32, e.NumFeatures)
	for f := range cols {
		cols[f] = make([]float32, len(rows))
	}
	for i, x := range rows {
		for f := range e.NumFeatures {
			cols[f][i] = x[f]
			fmt.Fprintf(&in, "%d ", math.Float32bits(x[f]))
		}
		in.WriteByte('\n')
	}
	want := e.Predict(nil, cols, len(rows), -1)
	got := strings.Fields(string(ctest.Run(t, exe, in.Bytes())))
	if len(got) != len(rows) {
		t.Fatalf("%d scores from the C program for %d documents", len(got), len(rows))
	}
	for i, g := range got {
		bits, err := strconv.ParseUint(g, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		if c := math.Float64frombits(bits); math.Float64bits(want[i]) != bits {
			t.Fatalf("document %d: C scores %v (%016x), Predict %v (%016x)", i, c, bits, want[i], math.Float64bits(want[i]))
		}
	}
}

// Models imported from LightGBM, XGBoost and RankLib score MQ2008 test in
// C exactly as Predict scores them.
func TestExportCImported(t *testing.T) {
	rows := mq2008Test(t)
	for _, m := range []struct{ from, file string }{
		{"lightgbm", "testdata/lgb-lambdarank.model.txt"},
		{"lightgbm", "testdata/lgb-regression-dart.model.txt"},
		{"xgboost", "testdata/xgb-binary-logistic.json"},
		{"ranklib", "testdata/ranklib-lambdamart.txt"},
	} {
		t.Run(m.file, func(t *testing.T) {
			e, _, err := ImportFile(m.from, m.file)
			if err != nil {
				t.Fatal(err)
			}
			cPredictCheck(t, e, rows)
		})
	}
}

// Random trees with default directions both ways on data with missing
// values, infinities, signed zeros and values equal to the thresholds,
// and a single-leaf tree: the C walk takes every branch Predict takes.
func TestExportCEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	const F = 6
	e := &Ensemble{NumFeatures: F, Base: -0.3, Objective: "regression"}
	var thresholds []float32
	for range 40 {
		tr := cRandomTree(r, 2+r.IntN(12), F)
		for _, nd := range tr.Nodes {
			thresholds = append(thresholds, nd.Threshold)
		}
		e.Trees = append(e.Trees, tr)
	}
	e.Trees = append(e.Trees, Tree{Leaves: []float64{1.0 / 3}})
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1))}
	rows := make([][]float32, 3000)
	for i := range rows {
		x := make([]float32, F)
		for f := range x {
			switch r.IntN(4) {
			case 0:
				x[f] = special[r.IntN(len(special))]
			case 1:
				x[f] = thresholds[r.IntN(len(thresholds))]
			default:
				x[f] = float32(r.NormFloat64())
			}
		}
		rows[i] = x
	}
	cPredictCheck(t, e, rows)
}

// cRandomTree returns a tree of the given number of leaves on random
// features at random thresholds (one in five ±0), with random default
// directions and leaf values of every magnitude.
func cRandomTree(r *rand.Rand, leaves, F int) Tree {
	var tr Tree
	var build func(l int) int32
	build = func(l int) int32 {
		if l == 1 {
			tr.Leaves = append(tr.Leaves, r.NormFloat64()*math.Pow(10, float64(r.IntN(9)-4)))
			return Leaf(len(tr.Leaves) - 1)
		}
		n := len(tr.Nodes)
		th := float32(r.NormFloat64())
		if r.IntN(5) == 0 {
			th = float32(math.Copysign(0, float64(r.IntN(2))-0.5))
		}
		tr.Nodes = append(tr.Nodes, Node{Feature: int32(r.IntN(F)), Threshold: th, DefaultLeft: r.IntN(2) == 0})
		k := 1 + r.IntN(l-1)
		left := build(k)
		right := build(l - k)
		tr.Nodes[n].Left, tr.Nodes[n].Right = left, right
		return int32(n)
	}
	build(leaves)
	return tr
}

func TestExportCRefuses(t *testing.T) {
	ok := Tree{Nodes: []Node{{Feature: 0, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{1, 2}}
	for _, tc := range []struct {
		name string
		e    *Ensemble
		opt  CExportOptions
		want string
	}{
		{"no trees", &Ensemble{NumFeatures: 1}, CExportOptions{}, "no trees"},
		{"bad prefix", &Ensemble{NumFeatures: 1, Trees: []Tree{ok}}, CExportOptions{Prefix: "2x"}, "not a C identifier"},
		{"reserved prefix", &Ensemble{NumFeatures: 1, Trees: []Tree{ok}}, CExportOptions{Prefix: "__x"}, "not a C identifier"},
		{"feature out of range", &Ensemble{NumFeatures: 1, Trees: []Tree{ok, {Nodes: []Node{{Feature: 1, Left: Leaf(0), Right: Leaf(1)}}, Leaves: []float64{1, 2}}}}, CExportOptions{}, "tree 1: node 0 splits on feature index 1 of 1"},
		{"cycle", &Ensemble{NumFeatures: 1, Trees: []Tree{{Nodes: []Node{{Feature: 0, Left: 0, Right: Leaf(0)}}, Leaves: []float64{1}}}}, CExportOptions{}, "node 0 is reached twice"},
		{"leaf out of range", &Ensemble{NumFeatures: 1, Trees: []Tree{{Nodes: []Node{{Feature: 0, Left: Leaf(0), Right: Leaf(2)}}, Leaves: []float64{1, 2}}}}, CExportOptions{}, "leaf 2 of 2"},
		{"no leaves", &Ensemble{NumFeatures: 1, Trees: []Tree{{}}}, CExportOptions{}, "tree 0: no leaves"},
	} {
		_, err := ExportC(tc.e, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	for _, p := range []string{"cronus", "a1", "A_b", "a_", "x", strings.Repeat("a", 20), "cronus_ranker_v2_abc"} {
		if !CPrefixOK(p) {
			t.Errorf("CPrefixOK(%q) = false", p)
		}
	}
	for _, p := range []string{"", "_", "_x", "1a", "a-b", "a b", "_X", "__x", "é", strings.Repeat("a", 21), strings.Repeat("a", 64)} {
		if CPrefixOK(p) {
			t.Errorf("CPrefixOK(%q) = true", p)
		}
		if r := CReservedPrefix(p); r != "" {
			t.Errorf("CReservedPrefix(%q) = %q, want \"\" for what is no C identifier", p, r)
		}
	}
}

// C99 §7.26 reserves, for its headers' future use, the names that begin
// as below; the file's names are the prefix, '_' and more, so a prefix
// that ends where a rule wants a letter is free ("is": is_predict) and
// "SIG" is not (SIG_predict).
func TestCReservedPrefix(t *testing.T) {
	for p, want := range map[string]string{
		"isa": "<ctype.h>", "tolower": "<ctype.h>", "isz9": "<ctype.h>",
		"strx": "<string.h>", "memo": "<string.h>", "wcsx": "<wchar.h>", "strtod_r": "<stdlib.h>",
		"E1": "<errno.h>", "EX": "<errno.h>", "EDOM_x": "<errno.h>",
		"SIG": "<signal.h>", "SIG_a": "<signal.h>", "SIGX": "<signal.h>", "SIGINT2": "<signal.h>",
		"LC_X": "<locale.h>", "LC_ALL": "<locale.h>",
		"PRId": "<inttypes.h>", "SCNX": "<inttypes.h>",
	} {
		if r := CReservedPrefix(p); !strings.Contains(r, want) {
			t.Errorf("CReservedPrefix(%q) = %q, want the rule for %s", p, r, want)
		}
		if CPrefixOK(p) {
			t.Errorf("CPrefixOK(%q) = true for a reserved name", p)
		}
		if _, err := ExportC(&Ensemble{NumFeatures: 1, Trees: []Tree{{Leaves: []float64{1}}}}, CExportOptions{Prefix: p}); err == nil || !strings.Contains(err.Error(), "C99 reserves") {
			t.Errorf("ExportC with prefix %q: error %v, want one saying C99 reserves it", p, err)
		}
	}
	for _, p := range []string{"is", "to", "str", "mem", "wcs", "is_a", "to9", "isA", "Isa", "iSa", "strA", "st", "E", "Ea", "E_1", "e1",
		"SIGa", "SI", "sig", "LC", "LC_", "LC_a", "LCX", "PRI", "PRI_", "PRI9", "SCNY", "pri", "cronus", "x"} {
		if r := CReservedPrefix(p); r != "" {
			t.Errorf("CReservedPrefix(%q) = %q, want \"\"", p, r)
		}
		if !CPrefixOK(p) {
			t.Errorf("CPrefixOK(%q) = false", p)
		}
	}
}

// The constants read back to the same bits.
func TestCFloatConstants(t *testing.T) {
	for _, v := range []float32{1, -0.1, 3.4028235e38, 1e-45, 1.1754942e-38} {
		s := strings.TrimSuffix(CFloat32(v), "f")
		g, err := strconv.ParseFloat(s, 32)
		if err != nil || float32(g) != v {
			t.Errorf("CFloat32(%v) = %s, reads as %v (%v)", v, s, g, err)
		}
	}
	for _, v := range []float64{1, -0.1, math.MaxFloat64, 5e-324, math.Pi} {
		g, err := strconv.ParseFloat(CFloat64(v), 64)
		if err != nil || g != v {
			t.Errorf("CFloat64(%v) = %s, reads as %v (%v)", v, CFloat64(v), g, err)
		}
	}
}

// A chain of splits, each sending a document right to the next: the C
// file grows linearly with its depth (its nest is indented only so far),
// and documents that go past that depth score as Predict scores them. A
// chain of 5,000 splits was 50 MB of C, nearly all tabs, one of 20,000
// 800 MB.
func TestExportCDeepChain(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	chain := func(depth int) *Ensemble {
		var tr Tree
		for i := range depth {
			tr.Nodes = append(tr.Nodes, Node{Feature: int32(i % 3), Threshold: float32(-3.5 + r.Float64()), Left: Leaf(i), Right: int32(i + 1), DefaultLeft: i%7 == 0})
			tr.Leaves = append(tr.Leaves, float64(i)+0.5)
		}
		tr.Nodes[depth-1].Right = Leaf(depth)
		tr.Leaves = append(tr.Leaves, -1)
		if err := tr.Validate(3); err != nil {
			t.Fatal(err)
		}
		return &Ensemble{NumFeatures: 3, Trees: []Tree{tr}}
	}
	const depth = 5000
	src, err := ExportC(chain(depth), CExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(src) > 300*depth {
		t.Errorf("a chain of %d splits is %d bytes of C", depth, len(src))
	}
	rows := make([][]float32, 2000)
	for i := range rows {
		rows[i] = []float32{float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())}
		if i%5 == 0 {
			rows[i][i%3] = float32(math.NaN())
		}
	}
	cPredictCheck(t, chain(200), rows)
}

// cEval evaluates the C file ExportC writes, without a compiler: it reads
// the trees' nests of ifs and the sum of PREFIX_predict line by line (the
// shapes WriteCTree and ExportC write, and nothing else) and scores x.
// It fails the test on any line it does not know.
type cEval struct {
	trees map[string][]string // function name → body lines
	base  float64
	order []string // PREFIX_predict's calls, in order
}

func parseCFile(t testing.TB, src string) *cEval {
	t.Helper()
	ev := &cEval{trees: map[string][]string{}}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		name, ok := strings.CutPrefix(l, "static double ")
		if ok {
			name, _, _ = strings.Cut(name, "(")
			var body []string
			for i += 2; lines[i] != "}"; i++ {
				body = append(body, strings.TrimSpace(lines[i]))
			}
			ev.trees[name] = body
			continue
		}
		if strings.HasPrefix(l, "double ") && strings.HasSuffix(l, "_predict(const float *x)") {
			for i += 2; lines[i] != "}"; i++ {
				s := strings.TrimSpace(lines[i])
				switch {
				case strings.HasPrefix(s, "double s = "):
					ev.base = cConst(t, strings.TrimSuffix(strings.TrimPrefix(s, "double s = "), ";"))
				case strings.HasPrefix(s, "s += "):
					ev.order = append(ev.order, strings.TrimSuffix(strings.TrimPrefix(s, "s += "), "(x);"))
				case s == "return s;":
				default:
					t.Fatalf("unknown line in predict: %q", s)
				}
			}
		}
	}
	return ev
}

// cConst reads a constant as CFloat32 and CFloat64 write them.
func cConst(t testing.TB, s string) float64 {
	t.Helper()
	switch s {
	case "NAN", "((double)NAN)":
		return math.NaN()
	case "INFINITY", "((double)INFINITY)":
		return math.Inf(1)
	case "-INFINITY", "(-(double)INFINITY)":
		return math.Inf(-1)
	}
	if f, ok := strings.CutSuffix(s, "f"); ok && strings.HasPrefix(strings.TrimPrefix(f, "-"), "0x") {
		v, err := strconv.ParseFloat(f, 32)
		if err != nil {
			t.Fatalf("constant %q: %v", s, err)
		}
		return v
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("constant %q: %v", s, err)
	}
	return v
}

func (ev *cEval) predict(t testing.TB, x []float32) float64 {
	s := ev.base
	for _, name := range ev.order {
		body, ok := ev.trees[name]
		if !ok {
			t.Fatalf("predict calls %s, which the file does not define", name)
		}
		s += ev.walk(t, body, x)
	}
	return s
}

// walk runs one tree's body on x: at an if, the branch its condition
// takes, skipping the other by counting braces.
func (ev *cEval) walk(t testing.TB, body []string, x []float32) float64 {
	feat := func(s string) float32 {
		f, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(s, "x["), "]"))
		if err != nil || f < 0 || f >= len(x) {
			t.Fatalf("feature %q", s)
		}
		return x[f]
	}
	// elseOf returns the line "} else {" of the if at line i.
	elseOf := func(i int) int {
		depth := 1
		for i++; i < len(body); i++ {
			switch l := body[i]; {
			case strings.HasPrefix(l, "if ("):
				depth++
			case l == "} else {" && depth == 1:
				return i
			case l == "}":
				depth--
			}
		}
		t.Fatal("an if without its else")
		return 0
	}
	// Every branch ends in a return or an if of its own, so the walk
	// returns before it meets the end of a branch.
	for i := 0; i < len(body); {
		l := body[i]
		switch {
		case l == "(void)x;":
			i++
		case strings.HasPrefix(l, "return "):
			return cConst(t, strings.TrimSuffix(strings.TrimPrefix(l, "return "), ";"))
		case strings.HasPrefix(l, "if (") && strings.HasSuffix(l, ") {"):
			cond := strings.TrimSuffix(strings.TrimPrefix(l, "if ("), ") {")
			left, right, nan := strings.Cut(cond, " || ")
			if nan {
				v := strings.Fields(right)
				if len(v) != 3 || v[0] != v[2] || v[1] != "!=" {
					t.Fatalf("condition %q", cond)
				}
			}
			f := strings.Fields(left)
			if len(f) != 3 || f[1] != "<=" || nan && f[0] != strings.Fields(right)[0] {
				t.Fatalf("condition %q", cond)
			}
			v := feat(f[0])
			if float64(v) <= cConst(t, f[2]) || nan && v != v {
				i++
			} else {
				i = elseOf(i) + 1
			}
		default:
			t.Fatalf("unknown line in a tree: %q", l)
		}
	}
	t.Fatal("a tree's body ended without a return")
	return 0
}

// FuzzExportC: every model the model reader takes is exported, and the C
// file, read by cEval, scores documents at, just above and just below
// the thresholds, 0, NaN and infinities as Predict does, bit for bit.
func FuzzExportC(f *testing.F) {
	for _, name := range []string{"export-edge.json", "export-binary.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint64(1))
	}
	f.Add([]byte(`{"format":"cronus-ensemble","version":1,"objective":"regression","num_features":2,"base_score":0.5,"trees":[{"split_feature":[2,1],"threshold":[-0,1e-40],"left_child":[1,-1],"right_child":[-2,-3],"default_left":[true,false],"leaf_value":[1e-40,-2,3]},{"leaf_value":[0.25]}]}`), uint64(7))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		e := fuzzEnsemble(data)
		if e == nil {
			return
		}
		src, err := ExportC(e, CExportOptions{Prefix: "f"})
		if err != nil {
			if strings.Contains(err.Error(), "splits deep") {
				return // past CMaxDepth
			}
			t.Fatalf("a model the reader takes is refused: %v", err)
		}
		ev := parseCFile(t, string(src))
		if len(ev.order) != len(e.Trees) {
			t.Fatalf("predict sums %d trees of %d", len(ev.order), len(e.Trees))
		}
		vals := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
		for _, tr := range e.Trees {
			for _, nd := range tr.Nodes {
				th := nd.Threshold
				vals = append(vals, th, math.Nextafter32(th, float32(math.Inf(1))), math.Nextafter32(th, float32(math.Inf(-1))))
			}
		}
		r := rand.New(rand.NewPCG(seed, 1))
		x := make([]float32, e.NumFeatures)
		cols := make([][]float32, e.NumFeatures)
		for range 20 {
			for j := range x {
				x[j] = vals[r.IntN(len(vals))]
				cols[j] = []float32{x[j]}
			}
			want := e.Predict(nil, cols, 1, -1)[0]
			if got := ev.predict(t, x); math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
				t.Fatalf("x %v: the C file scores %v, Predict %v", x, got, want)
			}
		}
	})
}

// The file's first comment counts in words that agree: a one-tree model's
// said "1 trees", and a model of no features "features are x[0] to x[0]".
func TestExportCCommentCounts(t *testing.T) {
	split := Tree{Nodes: []Node{{Feature: 0, Threshold: 0.5, Left: -1, Right: -2}}, Leaves: []float64{1, 2}}
	for _, tc := range []struct {
		e    *Ensemble
		want []string
		nope string
	}{
		{&Ensemble{NumFeatures: 1, Trees: []Tree{split}}, []string{"m_predict: 1 tree over 1 feature;", "features are x[0] to x[0]: x[k-1]"}, "trees"},
		{&Ensemble{NumFeatures: 0, Trees: []Tree{{Leaves: []float64{1}}, {Leaves: []float64{2}}}}, []string{"m_predict: 2 trees over 0 features;", "features are never read"}, "x[0]"},
		{&Ensemble{NumFeatures: 3, Trees: []Tree{split, split}}, []string{"m_predict: 2 trees over 3 features;", "features are x[0] to x[2]: x[k-1]"}, "never read"},
	} {
		src, err := ExportC(tc.e, CExportOptions{Prefix: "m"})
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(string(src), "*/")
		for _, w := range tc.want {
			if !strings.Contains(head, w) {
				t.Errorf("%s: the comment does not say %q:\n%s", tc.want[0], w, head)
			}
		}
		if strings.Contains(head, tc.nope) {
			t.Errorf("%s: the comment says %q:\n%s", tc.want[0], tc.nope, head)
		}
	}
}

// TestExportCTooDeep: a tree deeper than CMaxDepth is refused with the
// reason, where a chain of 3,000,000 splits overflowed the stack of the
// recursive check (a fatal error, with a trace); a chain of CMaxDepth
// splits is written.
func TestExportCTooDeep(t *testing.T) {
	chain := func(n int) Tree {
		c := Tree{Leaves: make([]float64, n+1), Nodes: make([]Node, n)}
		for d := range c.Nodes {
			right := int32(d + 1)
			if d == n-1 {
				right = Leaf(d + 1)
			}
			c.Nodes[d] = Node{Threshold: float32(d), Left: Leaf(d), Right: right}
		}
		return c
	}
	_, err := ExportC(&Ensemble{NumFeatures: 1, Trees: []Tree{{Leaves: []float64{1}}, chain(CMaxDepth + 1)}}, CExportOptions{Prefix: "f"})
	if err == nil || !strings.Contains(err.Error(), "tree 1: more than 100000 splits deep") {
		t.Errorf("a chain %d deep: error %v", CMaxDepth+1, err)
	}
	b, err := ExportC(&Ensemble{NumFeatures: 1, Trees: []Tree{chain(CMaxDepth)}}, CExportOptions{Prefix: "f"})
	if err != nil || !bytes.Contains(b, []byte("f_predict")) {
		t.Errorf("a chain %d deep: %v", CMaxDepth, err)
	}
}
