package cronus

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// ExportC writes cascade c over ensemble e as one C99 source file that
// ranks a query's documents as Score does, for a search engine to compile
// into its own server. Its external functions are
//
//	typedef float (*PREFIX_feature_fn)(void *ctx, int doc, int feature);
//	int PREFIX_rank(int n, PREFIX_feature_fn get, void *ctx, int *rank,
//	                int *exit_stage, double *score, double *feature_cost,
//	                double *tree_cost);
//	int PREFIX_rank_dense(int n, const float *x, int stride, int *rank, …);
//	size_t PREFIX_work_size(int n);
//	int PREFIX_rank_work(int n, PREFIX_feature_fn get, void *ctx, void *work,
//	                     int *rank, …);
//
// PREFIX_rank takes one query of n documents and fetches each feature
// through get only when a stage the document reaches needs it, at most
// once per document: the extraction on demand that the cascade's cost
// counts. PREFIX_rank_work does the same in the caller's scratch of
// PREFIX_work_size(n) bytes instead of allocating its own. Which trees
// and features a document at stage k has paid for depends on k alone
// (every document there passed the same stages), so the file fixes them
// stage by stage, and a document's cost by its exit stage. The stage
// scores, exits, ranks and costs equal Score's bit for bit (rank[i] is
// n−1−Key[i]).
//
// featCost must have e.NumFeatures entries at least and treeCost one per
// tree, and every stage len(e.Trees)+1 weights, as for Score.
func ExportC(e *tree.Ensemble, c *Cascade, featCost, treeCost []float64, opt tree.CExportOptions) ([]byte, error) {
	return ExportCContext(context.Background(), e, c, featCost, treeCost, opt)
}

// ExportCContext is ExportC, given up when ctx is done: it looks at ctx
// between trees and stages and returns its error.
func ExportCContext(ctx context.Context, e *tree.Ensemble, c *Cascade, featCost, treeCost []float64, opt tree.CExportOptions) ([]byte, error) {
	p := opt.Prefix
	if p == "" {
		p = "cronus"
	}
	if r := tree.CReservedPrefix(p); r != "" {
		return nil, fmt.Errorf("%q cannot start the file's names: C99 reserves %s", p, r)
	}
	if !tree.CPrefixOK(p) {
		return nil, fmt.Errorf("%q is not a C identifier to start the file's names with", p)
	}
	T, F := len(e.Trees), e.NumFeatures
	checkScoreArgs(c, T, F, featCost, treeCost, "ExportC")
	K := len(c.Stages)
	if K > math.MaxInt32 {
		return nil, fmt.Errorf("%d stages", K)
	}

	// Stage by stage: the trees first evaluated there and the features
	// first fetched there, each numbered by its slot in a document's
	// scratch (h for tree outputs, x for feature values) in that order.
	hslot := make([]int, T)
	for t := range hslot {
		hslot[t] = -1
	}
	xslot := make([]int, F)
	for f := range xslot {
		xslot[f] = -1
	}
	newTrees := make([][]int, K)
	newFeats := make([][]int, K)
	var featOrder []int // feature of each x slot
	var treeOrder []int // tree of each h slot
	featCostAt := make([]float64, K)
	treeCostAt := make([]float64, K)
	for k := range c.Stages {
		for _, t := range c.Stages[k].Active() {
			if hslot[t] >= 0 {
				continue
			}
			if err := tree.CheckCTree(&e.Trees[t], F); err != nil {
				return nil, fmt.Errorf("tree %d: %w", t, err)
			}
			hslot[t] = len(treeOrder)
			treeOrder = append(treeOrder, t)
			newTrees[k] = append(newTrees[k], t)
			for _, f := range e.Trees[t].Features() {
				if xslot[f] < 0 {
					xslot[f] = len(featOrder)
					featOrder = append(featOrder, f)
					newFeats[k] = append(newFeats[k], f)
				}
			}
		}
		// What a document leaving at stage k has paid, summed as
		// scoreWorker.paidCost sums it: features ascending, trees
		// ascending.
		paidF := slices.Sorted(slices.Values(featOrder))
		for _, f := range paidF {
			featCostAt[k] += featCost[f]
		}
		paidT := slices.Sorted(slices.Values(treeOrder))
		for _, t := range paidT {
			treeCostAt[k] += treeCost[t]
		}
	}
	NX, NH := max(len(featOrder), 1), max(len(treeOrder), 1)

	var b bytes.Buffer
	rule := "a document leaves at a stage when its score there is below\n * the stage's threshold"
	topM := 0
	if c.Rule == RuleTopM && c.TopM > 0 {
		topM = c.TopM
		rule += fmt.Sprintf(", unless it is among the query's %d best there", topM)
	}
	fmt.Fprintf(&b, "/* %s: a %d-stage cronus cascade over %d of the %d trees of its model,\n * reading %d of its %d features", p, K, len(treeOrder), T, len(featOrder), F)
	if opt.Source != "" {
		fmt.Fprintf(&b, ", from %s", tree.CComment(opt.Source))
	}
	fmt.Fprintf(&b, ";\n * written by cronus export --to c.\n *\n")
	fmt.Fprintf(&b, ` *   typedef float (*%[1]s_feature_fn)(void *ctx, int doc, int feature);
 *   int %[1]s_rank(int n, %[1]s_feature_fn get, void *ctx, int *rank,
 *                  int *exit_stage, double *score, double *feature_cost,
 *                  double *tree_cost);
 *   int %[1]s_rank_dense(int n, const float *x, int stride, int *rank,
 *                  int *exit_stage, double *score, double *feature_cost,
 *                  double *tree_cost);
 *   size_t %[1]s_work_size(int n);
 *   int %[1]s_rank_work(int n, %[1]s_feature_fn get, void *ctx, void *work,
 *                  int *rank, int *exit_stage, double *score,
 *                  double *feature_cost, double *tree_cost);
 *
 * %[1]s_rank ranks the n documents of one query, 0 to n-1. It asks
 * get(ctx, doc, feature) for a feature of a document only when a stage
 * the document reaches needs it, and at most once: feature is 0-based,
 * feature k of a data file is k-1, and a value the document lacks is 0
 * (NaN is missing). Each output may be NULL; for document i it writes
 *   rank[i]          its place in the cascade's ranking, 0 the first:
 *                    documents that went further come first, then those
 *                    with the higher score at the stage they left, then
 *                    input order;
 *   exit_stage[i]    the stage it left at, 1 to %[2]d (%[2]d: it reached the last);
 *   score[i]         its score at that stage;
 *   feature_cost[i], tree_cost[i]
 *                    what it paid for features and for trees.
 * It returns 0, or -1 when n < 0 or above 2^29, get is NULL or memory
 * runs out (and then writes nothing). It keeps no state between calls:
 * threads may call it at once. %[1]s_rank_dense does the same with
 * document i's features at x[i*stride] to x[i*stride+stride-1] (a feature
 * past stride is 0); it also returns -1 when stride < 0, or x is NULL
 * with n and stride above 0. %[1]s_rank allocates its scratch for each
 * call; %[1]s_rank_work uses the caller's instead, work, a block of at
 * least %[1]s_work_size(n) bytes from malloc, calloc or realloc (which
 * align it for any type; a char or double array is not one, by C's rules
 * on types), kept from call to call (it returns -1 for a NULL work when
 * n > 0). %[1]s_work_size returns 0 when n is below 1, above 2^29 or its
 * scratch would not fit in a size_t.
 *
 * Exit rule: %[3]s.
 * Cost per document by exit stage is fixed by the cascade (tables below).
 *
`, p, K, rule)
	b.WriteString(tree.CNote(opt.Note))
	b.WriteString(tree.CFileComment)
	b.WriteString(" */\n" + tree.CPragma() + "#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n\n")
	b.WriteString(tree.CGuarded(p+"_rank", CDecls(p)) + "\n")
	fmt.Fprintf(&b, "/* A document's scratch: the features fetched (x) and the tree outputs\n * evaluated (h) so far, in the order the stages need them. */\n")
	fmt.Fprintf(&b, "typedef struct {\n\tfloat x[%d];\n\tdouble h[%d];\n} %s_doc;\n", NX, NH, p)

	col := func(f int32) string { return "x[" + strconv.Itoa(xslot[f]) + "]" }
	for _, t := range treeOrder {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n/* tree %d */\nstatic float %s_tree%d(const float *x)\n{\n", t, p, t)
		tree.WriteCTree(&b, &e.Trees[t], col, true, "\t")
		b.WriteString("}\n")
	}
	for k := range c.Stages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st := &c.Stages[k]
		fmt.Fprintf(&b, "\n/* stage %d: %s", k+1, tree.CountWord(len(st.Active()), "tree"))
		if len(newTrees[k]) > 0 {
			fmt.Fprintf(&b, ", %d new, fetching %s", len(newTrees[k]), tree.CountWord(len(newFeats[k]), "feature"))
		}
		fmt.Fprintf(&b, " */\nstatic double %s_stage%d(%s_doc *d, int doc, %s_feature_fn get, void *ctx)\n{\n", p, k+1, p, p)
		fmt.Fprintf(&b, "\tdouble s = %s;\n", tree.CFloat64(st.Beta[T]))
		if len(st.Active()) == 0 {
			b.WriteString("\t(void)d;\n")
		}
		if len(newFeats[k]) == 0 {
			b.WriteString("\t(void)doc;\n\t(void)get;\n\t(void)ctx;\n")
		}
		for _, f := range newFeats[k] {
			fmt.Fprintf(&b, "\td->x[%d] = get(ctx, doc, %d);\n", xslot[f], f)
		}
		for _, t := range newTrees[k] {
			fmt.Fprintf(&b, "\td->h[%d] = %s_tree%d(d->x);\n", hslot[t], p, t)
		}
		for _, t := range st.Active() {
			fmt.Fprintf(&b, "\ts += %s * d->h[%d];\n", tree.CFloat64(st.Beta[t]), hslot[t])
		}
		b.WriteString("\treturn s;\n}\n")
	}

	fmt.Fprintf(&b, "\nstatic double (*const %s_stages[%d])(%s_doc *, int, %s_feature_fn, void *) = {", p, K, p, p)
	for k := range K {
		if k%4 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s_stage%d,", p, k+1)
	}
	b.WriteString("\n};\n")
	table := func(name, typ string, v func(k int) string) {
		fmt.Fprintf(&b, "\n/* %s */\nstatic const %s %s_%s[%d] = {", tableComment[name], typ, p, name, K)
		for k := range K {
			if k%4 == 0 {
				b.WriteString("\n\t")
			} else {
				b.WriteString(" ")
			}
			b.WriteString(v(k) + ",")
		}
		b.WriteString("\n};\n")
	}
	table("gate", "int", func(k int) string {
		if k < K-1 && !math.IsInf(c.Stages[k].Theta, -1) {
			return "1"
		}
		return "0"
	})
	table("theta", "double", func(k int) string {
		if k < K-1 && !math.IsInf(c.Stages[k].Theta, -1) {
			return tree.CFloat64(c.Stages[k].Theta)
		}
		return "0"
	})
	table("feature_cost", "double", func(k int) string { return tree.CFloat64(featCostAt[k]) })
	table("tree_cost", "double", func(k int) string { return tree.CFloat64(treeCostAt[k]) })

	// A query has at most 2^29 documents, so a larger M keeps them all
	// as M does, and the C compares its int counts with an int.
	block := ""
	if topM > 0 {
		block = cTopMBlock
	}
	r := strings.NewReplacer("TOPMBLOCK\n", block)
	code := r.Replace(cRankCode)
	r = strings.NewReplacer("PREFIX", p, "NSTAGES", strconv.Itoa(K), "TOPM", strconv.Itoa(min(topM, 1<<29)))
	r.WriteString(&b, code)
	return b.Bytes(), nil
}

// CDecls returns the declarations of ExportC's file for prefix: the
// callback's type and the four functions.
func CDecls(p string) string {
	return fmt.Sprintf("typedef float (*%s_feature_fn)(void *ctx, int doc, int feature);\n", p) +
		fmt.Sprintf("int %s_rank(int n, %s_feature_fn get, void *ctx, int *rank, int *exit_stage, double *score, double *feature_cost, double *tree_cost);\n", p, p) +
		fmt.Sprintf("int %s_rank_dense(int n, const float *x, int stride, int *rank, int *exit_stage, double *score, double *feature_cost, double *tree_cost);\n", p) +
		fmt.Sprintf("size_t %s_work_size(int n);\n", p) +
		fmt.Sprintf("int %s_rank_work(int n, %s_feature_fn get, void *ctx, void *work, int *rank, int *exit_stage, double *score, double *feature_cost, double *tree_cost);\n", p, p)
}

var tableComment = map[string]string{
	"gate":         "per stage: 1 when it has an exit threshold (the last stage has none: it ranks)",
	"theta":        "per stage with a threshold: a document whose score is below it leaves",
	"feature_cost": "per exit stage: what a document that leaves there has paid for features",
	"tree_cost":    "per exit stage: what it has paid for trees",
}

// cTopMBlock is the part of PREFIX_rank's stage loop that only the top-m
// rule needs (TOPMBLOCK in cRankCode): the TOPM best documents at the
// stage go on, the last of them the pivot.
const cTopMBlock = `		if (na <= TOPM)
			continue;
		for (j = 0; j < na; j++)
			ord[j] = alive[j];
		PREFIX_sort(ord, tmp, na, NULL, s);
		pivot = ord[TOPM - 1];
`

// cRankCode is the part of the C file that does not depend on the
// cascade but for its names (PREFIX), its number of stages (NSTAGES) and
// its top-m rule (TOPM; 0 for the global rule). The orders are Score's:
// byScore (cmp.Compare on the scores, highest first, NaN last, then input
// order) and rankScratch.order.
const cRankCode = `
/* -1, 0 or +1 as x is below, equal to or above y, NaN below every number
 * (Go's cmp.Compare, which cronus sorts with). */
static int PREFIX_cmp(double x, double y)
{
	int xn = x != x, yn = y != y;
	if (xn || yn)
		return yn - xn;
	return (x > y) - (x < y);
}

/* The order of a query's documents: when ex is not NULL, the later exit
 * stage first; then the higher score; then the lower index. */
static int PREFIX_before(const int *ex, const double *s, int a, int b)
{
	int c;
	if (ex != NULL && ex[a] != ex[b])
		return ex[a] > ex[b];
	c = PREFIX_cmp(s[a], s[b]);
	if (c != 0)
		return c > 0;
	return a < b;
}

/* Sorts a[0..n-1] by PREFIX_before, with tmp as scratch (bottom-up merge). */
static void PREFIX_sort(int *a, int *tmp, int n, const int *ex, const double *s)
{
	int w, lo, i, j, o, mid, hi;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = mid + w < n ? mid + w : n;
			i = lo, j = mid, o = lo;
			while (i < mid && j < hi)
				tmp[o++] = PREFIX_before(ex, s, a[j], a[i]) ? a[j++] : a[i++];
			while (i < mid)
				tmp[o++] = a[i++];
			while (j < hi)
				tmp[o++] = a[j++];
		}
		for (i = 0; i < n; i++)
			a[i] = tmp[i];
	}
}

size_t PREFIX_work_size(int n)
{
	size_t un, doc, total;
	if (n < 1 || n > (1 << 29))
		return 0;
	un = (size_t)n;
	doc = sizeof(PREFIX_doc) + sizeof(double) + 4 * sizeof(int);
	/* Where size_t has 32 bits, n documents' scratch may not fit in one. */
	if (un > (size_t)-1 / doc)
		return 0;
	total = un * doc;
	return total;
}

int PREFIX_rank_work(int n, PREFIX_feature_fn get, void *ctx, void *work, int *rank, int *exit_stage, double *score, double *feature_cost, double *tree_cost)
{
	PREFIX_doc *d;
	int *alive, *ord, *tmp, *ex;
	double *s;
	int k, j, m, na, a, pivot;
	size_t un;
	if (n < 0 || n > (1 << 29) || get == NULL)
		return -1;
	if (n == 0)
		return 0;
	if (work == NULL || PREFIX_work_size(n) == 0)
		return -1;
	un = (size_t)n;
	/* The documents' scratch, then the scores (both aligned as a double
	   is, the first as work is, the second after whole PREFIX_docs),
	   then the ints. */
	d = (PREFIX_doc *)work;
	s = (double *)(void *)(d + un);
	alive = (int *)(void *)(s + un);
	ord = alive + un;
	tmp = ord + un;
	ex = tmp + un;
	for (j = 0; j < n; j++)
		alive[j] = j;
	na = n;
	for (k = 0; k < NSTAGES && na > 0; k++) {
		for (j = 0; j < na; j++) {
			a = alive[j];
			s[a] = PREFIX_stages[k](&d[a], a, get, ctx);
		}
		if (k == NSTAGES - 1) {
			for (j = 0; j < na; j++)
				ex[alive[j]] = k;
			break;
		}
		pivot = -1;
TOPMBLOCK
		m = 0;
		for (j = 0; j < na; j++) {
			a = alive[j];
			if (!PREFIX_gate[k] || s[a] >= PREFIX_theta[k] || (pivot >= 0 && !PREFIX_before(NULL, s, pivot, a)))
				alive[m++] = a;
			else
				ex[a] = k;
		}
		na = m;
	}
	for (j = 0; j < n; j++)
		ord[j] = j;
	PREFIX_sort(ord, tmp, n, ex, s);
	for (j = 0; j < n; j++) {
		a = ord[j];
		if (rank != NULL)
			rank[a] = j;
		if (exit_stage != NULL)
			exit_stage[a] = ex[a] + 1;
		if (score != NULL)
			score[a] = s[a];
		if (feature_cost != NULL)
			feature_cost[a] = PREFIX_feature_cost[ex[a]];
		if (tree_cost != NULL)
			tree_cost[a] = PREFIX_tree_cost[ex[a]];
	}
	return 0;
}

int PREFIX_rank(int n, PREFIX_feature_fn get, void *ctx, int *rank, int *exit_stage, double *score, double *feature_cost, double *tree_cost)
{
	void *work;
	size_t size;
	int r;
	if (n < 0 || n > (1 << 29) || get == NULL)
		return -1;
	if (n == 0)
		return 0;
	size = PREFIX_work_size(n);
	if (size == 0)
		return -1;
	work = malloc(size);
	if (work == NULL)
		return -1;
	/* The scores and ints cleared, though every document's score and exit
	   stage are written before they are read, because GCC at -O3 -Wall
	   could not tell for one stage and warned. */
	memset((char *)work + (size_t)n * sizeof(PREFIX_doc), 0, size - (size_t)n * sizeof(PREFIX_doc));
	r = PREFIX_rank_work(n, get, ctx, work, rank, exit_stage, score, feature_cost, tree_cost);
	free(work);
	return r;
}

typedef struct {
	const float *x;
	int stride;
} PREFIX_dense;

static float PREFIX_dense_get(void *ctx, int doc, int feature)
{
	const PREFIX_dense *m = (const PREFIX_dense *)ctx;
	return feature < m->stride ? m->x[(size_t)doc * (size_t)m->stride + (size_t)feature] : 0.0f;
}

int PREFIX_rank_dense(int n, const float *x, int stride, int *rank, int *exit_stage, double *score, double *feature_cost, double *tree_cost)
{
	PREFIX_dense m;
	if (stride < 0 || (x == NULL && n > 0 && stride > 0))
		return -1;
	m.x = x;
	m.stride = stride;
	return PREFIX_rank(n, PREFIX_dense_get, &m, rank, exit_stage, score, feature_cost, tree_cost);
}
`
