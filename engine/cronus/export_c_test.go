package cronus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
	"github.com/cronus-ltr/cronus/internal/ctest"
)

// cDriver returns a C program that includes the exported cascades c0.c …
// c{m-1}.c and, for each in turn, reads the queries on standard input
// ("nq F", then per query "n" and n·F float32 bit patterns, row-major)
// and prints per document its exit stage, rank, the bits of its score,
// feature cost and tree cost, and the features the cascade fetched
// through the callback, ascending. A feature fetched twice for a document
// stops it with exit code 4. Cascade 0 is also run through c0_rank_dense
// and c0_rank_work (on scratch full of garbage), whose results must equal
// c0_rank's (exit codes 5 and 9).
func cDriver(m int) string {
	var b strings.Builder
	b.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n")
	for i := range m {
		fmt.Fprintf(&b, "#include \"c%d.c\"\n", i)
	}
	b.WriteString(`
typedef struct {
	const float *x;
	int nf;
	int *calls;
} fetch;

static float get(void *ctx, int doc, int f)
{
	fetch *q = (fetch *)ctx;
	q->calls[doc * q->nf + f]++;
	return f < q->nf ? q->x[doc * q->nf + f] : 0.0f;
}

static void put(double v)
{
	unsigned long long bits;
	memcpy(&bits, &v, sizeof bits);
	printf(" %016llx", bits);
}

int main(void)
{
	int nq, nf, q, i, f, c, n, total = 0;
	int *sizes;
	float *x;
	if (scanf("%d %d", &nq, &nf) != 2)
		return 2;
	sizes = (int *)malloc(sizeof *sizes * (size_t)(nq + 1));
	x = (float *)malloc(sizeof *x * 4000000);
	for (q = 0; q < nq; q++) {
		if (scanf("%d", &sizes[q]) != 1)
			return 2;
		for (i = 0; i < sizes[q] * nf; i++) {
			unsigned int u;
			if (scanf("%u", &u) != 1)
				return 3;
			memcpy(&x[total * nf + i], &u, sizeof u);
		}
		total += sizes[q];
	}
	for (c = 0; c < ` + strconv.Itoa(m) + `; c++) {
		int off = 0;
		printf("cascade %d\n", c);
		for (q = 0; q < nq; q++) {
			int *rank, *ex, *calls, r;
			double *s, *fc, *tc;
			fetch ctx;
			n = sizes[q];
			rank = (int *)malloc(sizeof *rank * (size_t)(n + 1));
			ex = (int *)malloc(sizeof *ex * (size_t)(n + 1));
			s = (double *)malloc(sizeof *s * (size_t)(n + 1));
			fc = (double *)malloc(sizeof *fc * (size_t)(n + 1));
			tc = (double *)malloc(sizeof *tc * (size_t)(n + 1));
			calls = (int *)calloc((size_t)(n * nf + 1), sizeof *calls);
			ctx.x = x + off * nf;
			ctx.nf = nf;
			ctx.calls = calls;
			switch (c) {
`)
	for i := range m {
		fmt.Fprintf(&b, "\t\t\tcase %d: r = c%d_rank(n, get, &ctx, rank, ex, s, fc, tc); break;\n", i, i)
	}
	b.WriteString(`			default: r = -9;
			}
			if (r != 0)
				return 6;
			for (i = 0; i < n; i++) {
				printf("%d %d", ex[i], rank[i]);
				put(s[i]);
				put(fc[i]);
				put(tc[i]);
				printf(" :");
				for (f = 0; f < nf; f++) {
					if (calls[i * nf + f] > 1)
						return 4;
					if (calls[i * nf + f])
						printf(" %d", f);
				}
				printf("\n");
			}
			if (c == 0) {
				int *rank2 = (int *)malloc(sizeof *rank2 * (size_t)(n + 1));
				int *ex2 = (int *)malloc(sizeof *ex2 * (size_t)(n + 1));
				double *s2 = (double *)malloc(sizeof *s2 * (size_t)(n + 1));
				if (c0_rank_dense(n, x + off * nf, nf, rank2, ex2, s2, NULL, NULL) != 0)
					return 6;
				for (i = 0; i < n; i++)
					if (rank2[i] != rank[i] || ex2[i] != ex[i] || memcmp(&s2[i], &s[i], sizeof s[i]) != 0)
						return 5;
				/* The caller's scratch, full of garbage, gives the same. */
				{
					size_t size = c0_work_size(n);
					void *work = malloc(size);
					fetch ctx2;
					if (size == 0 || work == NULL)
						return 8;
					memset(work, 0xa5, size);
					ctx2 = ctx;
					ctx2.calls = (int *)calloc((size_t)(n * nf + 1), sizeof *ctx2.calls);
					if (c0_rank_work(n, get, &ctx2, work, rank2, ex2, s2, NULL, NULL) != 0)
						return 6;
					for (i = 0; i < n; i++)
						if (rank2[i] != rank[i] || ex2[i] != ex[i] || memcmp(&s2[i], &s[i], sizeof s[i]) != 0)
							return 9;
					free(ctx2.calls);
					free(work);
				}
				free(rank2);
				free(ex2);
				free(s2);
			}
			free(rank);
			free(ex);
			free(s);
			free(fc);
			free(tc);
			free(calls);
			off += n;
		}
	}
	/* The argument checks. */
	if (c0_rank(-1, get, NULL, NULL, NULL, NULL, NULL, NULL) != -1 || c0_rank(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL) != -1 ||
	    c0_rank(0, get, NULL, NULL, NULL, NULL, NULL, NULL) != 0 || c0_rank_dense(0, NULL, 0, NULL, NULL, NULL, NULL, NULL) != 0 ||
	    c0_work_size(0) != 0 || c0_work_size(-1) != 0 || c0_work_size((1 << 29) + 1) != 0 || c0_work_size(1) == 0 ||
	    c0_rank_work(1, get, NULL, NULL, NULL, NULL, NULL, NULL, NULL) != -1 || c0_rank_work(0, get, NULL, NULL, NULL, NULL, NULL, NULL, NULL) != 0)
		return 7;
	printf("end\n");
	free(sizes);
	free(x);
	return 0;
}
`)
	return b.String()
}

// The exported C cascades rank MQ2008 test exactly as Score does: the
// same exit stages, ranks, scores and costs, bit for bit, with each
// feature fetched once, and only those the trees of the stages a document
// reached split on. The ensemble sends missing values both ways and the
// data has some; the cascades are random (both exit rules, thresholds on
// scores, empty stages) and one hand-made: a first stage of a single-leaf
// tree that fetches nothing and ties every document, so that only the
// top-m rule's input order keeps three of each query, an empty stage that
// passes all, then half the trees. It is compiled in GCC's GNU mode with
// the machine's fused multiply-adds, which contract the stage sums (and
// moved scores) unless the file's pragma forbids it.
func TestExportCMatchesScore(t *testing.T) {
	fx := scLoad(t)
	r := rand.New(rand.NewPCG(13, 17))
	e := &tree.Ensemble{NumFeatures: fx.e.NumFeatures, Base: fx.e.Base, Objective: fx.e.Objective}
	for _, tr := range fx.e.Trees {
		nodes := slices.Clone(tr.Nodes)
		for i := range nodes {
			nodes[i].DefaultLeft = r.IntN(2) == 0
		}
		e.Trees = append(e.Trees, tree.Tree{Nodes: nodes, Leaves: tr.Leaves})
	}
	e.Trees = append(e.Trees, tree.Tree{Leaves: []float64{0.1}})
	T := len(e.Trees)
	src := fx.test
	d := &data.Dataset{Name: "nan", Labels: src.Labels, QueryIDs: src.QueryIDs, QueryOffsets: src.QueryOffsets, Cols: make([][]float32, len(src.Cols))}
	for f, col := range src.Cols {
		d.Cols[f] = slices.Clone(col)
		for i := range col {
			if r.IntN(20) == 0 {
				d.Cols[f][i] = float32(math.NaN())
			}
		}
	}
	featCost := slices.Clone(fx.featCost)
	treeCost := make([]float64, T)
	for t := range treeCost {
		treeCost[t] = 0.1 + r.Float64()
	}
	o := NewOutputs(e, d)
	var cascades []*Cascade
	for range 8 {
		cascades = append(cascades, scRandomCascade(r, o))
	}
	hand := &Cascade{Rule: RuleTopM, TopM: 3}
	b1 := make([]float64, T+1)
	b1[T-1], b1[T] = 2, -1
	b2 := make([]float64, T+1)
	b3 := make([]float64, T+1)
	for t := 0; t < T-1; t += 2 {
		b3[t] = 1
	}
	b3[T-1], b3[T] = 0.5, 0.25
	hand.Stages = []Stage{{Beta: b1, Theta: 5}, {Beta: b2, Theta: math.Inf(-1)}, {Beta: b3, Theta: math.Inf(-1)}}
	cascades = append(cascades, hand)

	exits := cCheckScore(t, e, cascades, d, featCost, treeCost, ctest.GNU())
	if len(exits) < 3 {
		t.Errorf("documents left at only %d distinct stages over all cascades", len(exits))
	}
}

// cCheckScore exports the cascades over e, compiles them with the flags
// (any warning fails the test) and fails unless the programs rank the
// queries of d exactly as Score does, each document fetching once the
// features of the stages it reached and no others. It returns the exit
// stages seen.
func cCheckScore(t *testing.T, e *tree.Ensemble, cascades []*Cascade, d *data.Dataset, featCost, treeCost []float64, flags []string) map[int]bool {
	t.Helper()
	F := e.NumFeatures
	files := map[string]string{"main.c": cDriver(len(cascades))}
	for i, c := range cascades {
		b, err := ExportC(e, c, featCost, treeCost, tree.CExportOptions{Prefix: fmt.Sprintf("c%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("c%d.c", i)] = string(b)
	}
	exe := ctest.Build(t, files, "main.c", flags)

	nq := len(d.QueryOffsets) - 1
	out := strings.Split(strings.TrimSuffix(string(ctest.Run(t, exe, ctest.Queries(d.PaddedCols(F), d.QueryOffsets, F))), "\n"), "\n")
	if out[len(out)-1] != "end" {
		t.Fatalf("the C program did not finish: %q", out[len(out)-1])
	}
	line := 0
	exits := map[int]bool{}
	for ci, c := range cascades {
		if out[line] != fmt.Sprintf("cascade %d", ci) {
			t.Fatalf("line %d: %q", line, out[line])
		}
		line++
		res := Score(e, c, d, featCost, treeCost)
		// The features a document leaving at stage k has fetched: those
		// of the active trees of stages 0..k.
		fetched := make([]string, len(c.Stages))
		var trees []tree.Tree
		for k := range c.Stages {
			for _, t := range c.Stages[k].Active() {
				trees = append(trees, e.Trees[t])
			}
			var s []string
			for _, f := range tree.SplitFeatures(trees) {
				s = append(s, " "+strconv.Itoa(f))
			}
			fetched[k] = strings.Join(s, "")
		}
		for q := range nq {
			lo, hi := d.QueryOffsets[q], d.QueryOffsets[q+1]
			for i := lo; i < hi; i++ {
				rank := hi - lo - 1 - int(res.Key[i])
				want := fmt.Sprintf("%d %d %016x %016x %016x :%s", res.Exit[i]+1, rank, math.Float64bits(res.Score[i]),
					math.Float64bits(res.FeatureCost[i]), math.Float64bits(res.TreeCost[i]), fetched[res.Exit[i]])
				if out[line] != want {
					t.Fatalf("cascade %d (%s, %d stages), query %d, document %d:\n C  %s\nGo  %s", ci, c.Rule, len(c.Stages), q, i, out[line], want)
				}
				exits[res.Exit[i]] = true
				line++
			}
		}
	}
	return exits
}

// At -O3 -Wall GCC 12 inlined PREFIX_rank into PREFIX_rank_dense and, for
// a cascade of one stage, warned that the exit stages and scores it sorts
// "may be used uninitialized" (they are written for every document, but
// GCC could not tell), which -Werror made an error. The file must build
// without a warning at -O3 too, in ISO and GNU modes, and rank as Score.
func TestExportCOptimised(t *testing.T) {
	fx := scLoad(t)
	T := len(fx.e.Trees)
	all, half := cAllHalf(T)
	all[T] = fx.e.Base
	cascades := []*Cascade{
		{Rule: RuleGlobal, Stages: []Stage{{Beta: all, Theta: math.Inf(-1)}}},
		{Rule: RuleTopM, TopM: 2, Stages: []Stage{{Beta: half, Theta: math.Inf(-1)}}},
		{Rule: RuleTopM, TopM: 2, Stages: []Stage{{Beta: half, Theta: 0}, {Beta: all, Theta: math.Inf(-1)}}},
	}
	for _, flags := range [][]string{ctest.ISO(), ctest.GNU()} {
		flags = slices.Clone(flags)
		flags[slices.Index(flags, "-O2")] = "-O3"
		cCheckScore(t, fx.e, cascades, fx.test, fx.featCost, make([]float64, T), flags)
	}
}

// cAllHalf returns stage weights over T trees: all of them at 1, and
// every other one at 0.5, the intercepts 0.
func cAllHalf(T int) (all, half []float64) {
	all, half = make([]float64, T+1), make([]float64, T+1)
	for i := range T {
		all[i] = 1
		if i%2 == 0 {
			half[i] = 0.5
		}
	}
	return all, half
}

// A cascade file may keep more documents per query than an int holds
// (top_m is bounded below only): the file compared a query's int count
// with a number such as 2^40 (math.MaxInt here, which 386 builds take
// too), which -Wextra calls always true, an error under -Werror. Every
// document goes on, as in Score.
func TestExportCHugeTopM(t *testing.T) {
	fx := scLoad(t)
	T := len(fx.e.Trees)
	all, half := cAllHalf(T)
	// A threshold above every stage-1 score: only the top-m rule keeps
	// documents.
	c := &Cascade{Rule: RuleTopM, TopM: math.MaxInt, Stages: []Stage{{Beta: half, Theta: 1e9}, {Beta: all, Theta: math.Inf(-1)}}}
	exits := cCheckScore(t, fx.e, []*Cascade{c}, fx.test, fx.featCost, make([]float64, T), ctest.ISO())
	if len(exits) != 1 || !exits[1] {
		t.Errorf("exit stages %v, want only the last (1)", exits)
	}
}

func TestExportCRefusesPrefix(t *testing.T) {
	e := &tree.Ensemble{NumFeatures: 1, Trees: []tree.Tree{{Leaves: []float64{1}}}}
	c := &Cascade{Stages: []Stage{{Beta: []float64{1, 0}, Theta: math.Inf(-1)}}}
	if _, err := ExportC(e, c, []float64{1}, []float64{1}, tree.CExportOptions{Prefix: "a b"}); err == nil {
		t.Error("a prefix with a space was taken")
	}
}

// Where size_t has 32 bits, a query's scratch of n documents can pass
// it well below n = 2^29: with 520 trees a document's holds 520 tree
// outputs (4,180 bytes), and 2^20 of them 4.4 GB, whose size wrapped
// around to 86 MB, which malloc gave, and the first stage wrote past it
// (a segmentation fault). PREFIX_rank must say -1, as when memory runs
// out, and still rank a query that fits.
func TestExportCSizeOverflow32(t *testing.T) {
	flags := ctest.M32(t)
	const T, F = 520, 5
	e := &tree.Ensemble{NumFeatures: F}
	beta := make([]float64, T+1)
	for i := range T {
		e.Trees = append(e.Trees, tree.Tree{Nodes: []tree.Node{{Feature: int32(i % F), Threshold: float32(i % 7), Left: tree.Leaf(0), Right: tree.Leaf(1)}}, Leaves: []float64{-1, float64(i)}})
		beta[i] = 1
	}
	c := &Cascade{Stages: []Stage{{Beta: beta, Theta: math.Inf(-1)}}}
	src, err := ExportC(e, c, make([]float64, F), make([]float64, T), tree.CExportOptions{Prefix: "w"})
	if err != nil {
		t.Fatal(err)
	}
	const driver = `#include <stdio.h>
#include "w.c"

static float get(void *ctx, int doc, int f)
{
	(void)ctx;
	return (float)(doc + f);
}

int main(void)
{
	int rank[3];
	printf("%d\n", w_rank(1 << 20, get, NULL, NULL, NULL, NULL, NULL, NULL));
	printf("%d", w_rank(3, get, NULL, rank, NULL, NULL, NULL, NULL));
	printf(" %d %d %d\n", rank[0], rank[1], rank[2]);
	return 0;
}
`
	exe := ctest.Build(t, map[string]string{"w.c": string(src), "main.c": driver}, "main.c", flags)
	d := &data.Dataset{Name: "3", Labels: make([]float32, 3), QueryOffsets: []int{0, 3}, Cols: make([][]float32, F)}
	for f := range F {
		d.Cols[f] = []float32{float32(f), float32(1 + f), float32(2 + f)}
	}
	res := Score(e, c, d, make([]float64, F), make([]float64, T))
	want := fmt.Sprintf("-1\n0 %d %d %d\n", 2-int(res.Key[0]), 2-int(res.Key[1]), 2-int(res.Key[2]))
	if got := string(ctest.Run(t, exe, nil)); got != want {
		t.Errorf("the 32-bit program printed %q, want %q", got, want)
	}
}

// Headers written for files that link into one program can be included
// together: their include guards differ. The guard was the prefix in
// capitals, so that the headers of two cascades whose prefixes differ only
// in case (cas and CAS), or of a cascade and a model with one prefix
// (cas_rank and cas_predict, which link), shared it, and the second
// header declared nothing.
func TestExportCHeadersTogether(t *testing.T) {
	e := &tree.Ensemble{NumFeatures: 2, Trees: []tree.Tree{
		{Nodes: []tree.Node{{Feature: 0, Threshold: 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}}, Leaves: []float64{-1, 1}},
		{Nodes: []tree.Node{{Feature: 1, Threshold: 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}}, Leaves: []float64{-2, 2}},
	}}
	c := &Cascade{Stages: []Stage{{Beta: []float64{1, 0, 0}, Theta: 0}, {Beta: []float64{1, 1, 0}, Theta: math.Inf(-1)}}}
	files := map[string]string{}
	for _, p := range []string{"cas", "CAS"} {
		src, err := ExportC(e, c, []float64{1, 1}, []float64{1, 1}, tree.CExportOptions{Prefix: p})
		if err != nil {
			t.Fatal(err)
		}
		files[p+".c"] = string(src)
		files[p+".h"] = string(tree.CHeader(p+"_rank", p+".c", CDecls(p)))
	}
	src, err := tree.ExportC(e, tree.CExportOptions{Prefix: "cas"})
	if err != nil {
		t.Fatal(err)
	}
	files["model.c"], files["model.h"] = string(src), string(tree.CHeader("cas_predict", "model.c", tree.CModelDecls("cas")))
	files["main.c"] = `#include <stdio.h>
#include "cas.h"
#include "CAS.h"
#include "model.h"

int main(void)
{
	static const float x[4] = {1, 0, 0, 1};
	int r1[2], r2[2];
	if (cas_rank_dense(2, x, 2, r1, NULL, NULL, NULL, NULL) != 0 || CAS_rank_dense(2, x, 2, r2, NULL, NULL, NULL, NULL) != 0)
		return 1;
	printf("%d %d %d %d %g %g\n", r1[0], r1[1], r2[0], r2[1], cas_predict(x), cas_predict(x + 2));
	return 0;
}
`
	exe := ctest.BuildAll(t, files, []string{"main.c", "cas.c", "CAS.c", "model.c"}, ctest.ISO())
	// Document 0 scores 1 at stage 1 and goes on (θ = 0), document 1
	// scores -1 and leaves; the model scores them 1 - 2 and -1 + 2.
	if got, want := string(ctest.Run(t, exe, nil)), "0 1 0 1 -1 1\n"; got != want {
		t.Errorf("the program printed %q, want %q", got, want)
	}
}

// A program may include a cascade's header and its C file in one unit:
// the file declares its functions under the header's guard, so C99 does
// not see the callback's typedef twice (-pedantic warned of it).
func TestExportCHeaderAndFileInOneUnit(t *testing.T) {
	e := &tree.Ensemble{NumFeatures: 1, Trees: []tree.Tree{
		{Nodes: []tree.Node{{Feature: 0, Threshold: 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}}, Leaves: []float64{-1, 1}},
	}}
	c := &Cascade{Stages: []Stage{{Beta: []float64{1, 0}, Theta: math.Inf(-1)}}}
	src, err := ExportC(e, c, []float64{1}, []float64{1}, tree.CExportOptions{Prefix: "cas"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"cas.c": string(src), "cas.h": string(tree.CHeader("cas_rank", "cas.c", CDecls("cas"))),
		"main.c": `#include <stdio.h>
#include "cas.h"
#include "cas.c"

int main(void)
{
	static const float x[2] = {1, 0};
	int r[2];
	if (cas_rank_dense(2, x, 1, r, NULL, NULL, NULL, NULL) != 0)
		return 1;
	printf("%d %d\n", r[0], r[1]);
	return 0;
}
`}
	exe := ctest.Build(t, files, "main.c", ctest.ISO())
	if got, want := string(ctest.Run(t, exe, nil)), "0 1\n"; got != want {
		t.Errorf("the program printed %q, want %q", got, want)
	}
}

// cNamesFiles exports a model (and its header) and a cascade under each
// exit rule (and their headers) over a two-tree ensemble with prefix p.
func cNamesFiles(t *testing.T, p string) map[string]string {
	t.Helper()
	e := &tree.Ensemble{NumFeatures: 2, Trees: []tree.Tree{
		{Nodes: []tree.Node{{Feature: 0, Threshold: 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}}, Leaves: []float64{-1, 1}},
		{Nodes: []tree.Node{{Feature: 1, Threshold: 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}}, Leaves: []float64{-2, 2}},
	}}
	stages := []Stage{{Beta: []float64{1, 0, 0}, Theta: 0}, {Beta: []float64{1, 1, 0}, Theta: math.Inf(-1)}}
	files := map[string]string{}
	model, err := tree.ExportC(e, tree.CExportOptions{Prefix: p})
	if err != nil {
		t.Fatal(err)
	}
	files["model.c"], files["model.h"] = string(model), string(tree.CHeader(p+"_predict", "model.c", tree.CModelDecls(p)))
	for i, c := range []*Cascade{{Stages: stages}, {Stages: stages, Rule: RuleTopM, TopM: 1}} {
		src, err := ExportC(e, c, []float64{1, 1}, []float64{1, 1}, tree.CExportOptions{Prefix: p})
		if err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("cascade%d.c", i)] = string(src)
		files[fmt.Sprintf("cascade%d.h", i)] = string(tree.CHeader(p+"_rank", fmt.Sprintf("cascade%d.c", i), CDecls(p)))
	}
	return files
}

// The names the C files define stay within what C99 (5.2.4.1) holds
// significant for the longest prefix tree.CPrefixOK takes: 31 characters
// of an external name (what nm lists of a model's file and a cascade's
// under both exit rules), 63 of an internal one or a macro (every
// identifier of the files, the include guards included). The prefix
// could be 64 characters, so that PREFIX_rank_dense was 75 and two
// cascades whose names differed past the 31st could link as one.
func TestExportCNamesSignificant(t *testing.T) {
	p := ""
	for n := 1; n <= 100; n++ {
		if tree.CPrefixOK(strings.Repeat("a", n)) {
			p = strings.Repeat("a", n)
		}
	}
	files := cNamesFiles(t, p)
	comment := regexp.MustCompile(`(?s)/\*.*?\*/`)
	ident := regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*`)
	for name, src := range files {
		for _, id := range ident.FindAllString(comment.ReplaceAllString(src, ""), -1) {
			if len(id) > 63 {
				t.Errorf("%s: prefix of %d characters: identifier %s has %d characters, above 63", name, len(p), id, len(id))
			}
		}
		if !strings.HasSuffix(name, ".c") {
			continue
		}
		for _, ext := range ctest.Externals(t, files, name, ctest.ISO()) {
			if len(ext) > 31 {
				t.Errorf("%s: prefix of %d characters: external name %s has %d characters, above 31", name, len(p), ext, len(ext))
			}
		}
	}
}

// The external names the files define are the prefix and
// tree.CModelSuffixes (a model's) or tree.CCascadeSuffixes (a
// cascade's), the lists tree.CPrefixMax is computed from, and it leaves
// the longest of them 31 characters.
func TestExportCExternalSuffixes(t *testing.T) {
	p := "cas"
	files := cNamesFiles(t, p)
	for name, suffixes := range map[string][]string{"model.c": tree.CModelSuffixes, "cascade0.c": tree.CCascadeSuffixes, "cascade1.c": tree.CCascadeSuffixes} {
		got := ctest.Externals(t, files, name, ctest.ISO())
		var want []string
		for _, s := range suffixes {
			want = append(want, p+s)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s defines %v with external linkage, want %v", name, got, want)
		}
	}
	if n := tree.CPrefixMax + len(tree.CLongestSuffix); n != 31 || !tree.CPrefixOK(strings.Repeat("a", tree.CPrefixMax)) || tree.CPrefixOK(strings.Repeat("a", tree.CPrefixMax+1)) {
		t.Errorf("CPrefixMax %d and CLongestSuffix %q make %d characters, want 31, and CPrefixOK to take CPrefixMax and no more", tree.CPrefixMax, tree.CLongestSuffix, n)
	}
}
