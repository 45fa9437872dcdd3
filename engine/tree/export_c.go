package tree

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// CFileComment is the advice on compiling that every C file the exporters
// write starts with.
const CFileComment = ` * Compile it as C99 or later, without -ffast-math. Its pragmas keep GCC
 * and clang from fusing a*b+c into one multiply-add, whatever their
 * flags (another compiler must be told not to contract floating-point
 * expressions). It then computes the same numbers as cronus, bit for bit,
 * on x86-64 and arm64 (on 32-bit x86, add -msse2 -mfpmath=sse). It needs
 * only the C standard library.
`

// cPragma is what a C file the exporters write has after its comment:
// the standard pragma that forbids contracting a*b+c into a fused
// multiply-add, which clang obeys, and GCC's own (GCC ignores the
// standard one, and contracts by default outside its ISO modes, so that
// -std=gnu99 -march=native fused the stage sums and moved scores).
const cPragma = "#if defined(__clang__)\n#pragma STDC FP_CONTRACT OFF\n#elif defined(__GNUC__)\n#pragma GCC optimize(\"fp-contract=off\")\n#endif\n"

// CPragma returns the lines that keep clang and GCC from fusing
// multiply-adds (cPragma).
func CPragma() string { return cPragma }

// CMaxExternalName is how many initial characters of an identifier with
// external linkage C99 (5.2.4.1) guarantees significant: two names that
// differ only after them may be one name to a conforming linker.
// CMaxInternalName is the same for internal identifiers and macro names.
const (
	CMaxExternalName = 31
	CMaxInternalName = 63
)

// CModelSuffixes and CCascadeSuffixes are what follows the prefix in every
// name with external linkage that the C files define: ExportC's for a
// model (or one stage of a cascade) and engine/cronus's ExportC's for a
// whole cascade.
var (
	CModelSuffixes   = []string{"_predict"}
	CCascadeSuffixes = []string{"_rank", "_rank_dense", "_rank_work", "_work_size"}
)

// CLongestSuffix is the longest of CModelSuffixes and CCascadeSuffixes,
// and CPrefixMax the longest prefix CPrefixOK takes: the longest external
// name of either kind of file, the prefix and CLongestSuffix, is then at
// most CMaxExternalName characters (20 and "_rank_dense", 31).
var (
	CLongestSuffix = cLongestSuffix()
	CPrefixMax     = CMaxExternalName - len(CLongestSuffix)
)

func cLongestSuffix() string {
	longest := ""
	for _, s := range append(slices.Clone(CModelSuffixes), CCascadeSuffixes...) {
		if len(s) > len(longest) {
			longest = s
		}
	}
	return longest
}

// CPrefixOK reports whether prefix can start the external names of an
// exported C file: a C identifier of at most CPrefixMax ASCII letters,
// digits and '_' that starts with a letter (C reserves every name that
// starts with '_' at file scope), and none of the names C99 reserves for
// its headers' future use (CReservedPrefix). The files' other names
// (static functions and tables, types, include guards) add at most 17
// characters and a tree or stage number to the prefix, well within
// CMaxInternalName.
func CPrefixOK(prefix string) bool {
	return cIdentifier(prefix) && CReservedPrefix(prefix) == ""
}

// cIdentifier reports whether prefix is a C identifier of at most
// CPrefixMax characters that starts with a letter.
func cIdentifier(prefix string) bool {
	if prefix == "" || len(prefix) > CPrefixMax {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := prefix[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case (c >= '0' && c <= '9' || c == '_') && i > 0:
		default:
			return false
		}
	}
	return true
}

// CReservedPrefix returns the rule by which C99 (§7.26, future library
// directions) reserves the names an exported C file with prefix defines,
// or "" when none does. Every such name is the prefix, '_' and more
// (NAME_predict, NAME_tree0, NAME_doc), so "is" is free (is_predict) but
// "isa" is not, and "SIG" is reserved (SIG_predict). It looks only at a
// prefix that CPrefixOK would take but for these rules (a C identifier of
// at most CPrefixMax characters that starts with a letter; C reserves
// those that start with '_' too) and returns "" for any other.
func CReservedPrefix(prefix string) string {
	if !cIdentifier(prefix) {
		return ""
	}
	n := prefix + "_"
	at := func(i int, lo, hi byte) bool { return i < len(n) && n[i] >= lo && n[i] <= hi }
	lower := func(i int) bool { return at(i, 'a', 'z') }
	upper := func(i int) bool { return at(i, 'A', 'Z') }
	has := func(ps ...string) bool {
		for _, p := range ps {
			if strings.HasPrefix(n, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("is", "to") && lower(2):
		return `names that begin with "is" or "to" and a lowercase letter (for <ctype.h> and <wctype.h>)`
	case has("str", "mem", "wcs") && lower(3):
		return `names that begin with "str", "mem" or "wcs" and a lowercase letter (for <stdlib.h>, <string.h> and <wchar.h>)`
	case has("E") && (upper(1) || at(1, '0', '9')):
		return `names that begin with "E" and a digit or an uppercase letter (for <errno.h>)`
	case has("SIG_") || (has("SIG") && upper(3)):
		return `names that begin with "SIG" and an uppercase letter, or with "SIG_" (for <signal.h>)`
	case has("LC_") && upper(3):
		return `names that begin with "LC_" and an uppercase letter (for <locale.h>)`
	case has("PRI", "SCN") && (lower(3) || n[3] == 'X'):
		return `names that begin with "PRI" or "SCN" and a lowercase letter or X (for <inttypes.h>)`
	}
	return ""
}

// CDeclarations returns decls (C declarations, a line each) wrapped so
// that a C++ program sees them with C linkage.
func CDeclarations(decls string) string {
	return "#ifdef __cplusplus\nextern \"C\" {\n#endif\n" + decls + "#ifdef __cplusplus\n}\n#endif\n"
}

// CHeader returns a C header for the C file cFile whose declarations are
// decls: an include guard named after fn, the file's first function, and
// the declarations with C linkage. Files that link into one program have
// functions of different names, so their headers' guards differ too (the
// prefix in capitals, as it was, made "cas" and "CAS", or a model's and a
// cascade's file with one prefix, share a guard).
//
// cFile "" is a C file written to the standard output, which has no name
// to give ("The functions of -," the header said of `--out -`).
func CHeader(fn, cFile, decls string) []byte {
	guard := CGuard(fn)
	of := CComment(cFile)
	if cFile == "" {
		of = "the C file written to the standard output"
	}
	return []byte(fmt.Sprintf("/* The functions of %s, written by cronus export --to c with it;\n * its first comment says what they do. */\n#ifndef %s\n#define %s\n\n#include <stddef.h>\n\n%s\n#endif\n",
		of, guard, guard, CDeclarations(decls)))
}

// CGuard is the include guard of the header of the file whose first
// function is fn. The C file declares its functions under the same guard,
// so that a program may include the header and the file in one unit
// (C99 forbids a typedef twice).
func CGuard(fn string) string { return "CRONUS_" + fn + "_H" }

// CGuarded returns the declarations decls with C linkage under the
// header's guard for fn, for the C file itself.
func CGuarded(fn, decls string) string {
	g := CGuard(fn)
	return "#ifndef " + g + "\n#define " + g + "\n" + CDeclarations(decls) + "#endif\n"
}

// CModelDecls returns the declarations of ExportC's file for prefix.
func CModelDecls(prefix string) string {
	return "double " + prefix + "_predict(const float *x);\n"
}

// CFloat32 returns v, rounded to float32, as a C float constant that reads
// back to the same bits: hexadecimal (C99), or INFINITY, -INFINITY or NAN.
func CFloat32(v float32) string {
	switch {
	case v != v:
		return "NAN"
	case math.IsInf(float64(v), 1):
		return "INFINITY"
	case math.IsInf(float64(v), -1):
		return "-INFINITY"
	}
	return strconv.FormatFloat(float64(v), 'x', -1, 32) + "f"
}

// CFloat64 returns v as a C double constant that reads back to the same
// bits: hexadecimal (C99), or INFINITY, -INFINITY or NAN (as doubles).
func CFloat64(v float64) string {
	switch {
	case v != v:
		return "((double)NAN)"
	case math.IsInf(v, 1):
		return "((double)INFINITY)"
	case math.IsInf(v, -1):
		return "(-(double)INFINITY)"
	}
	return strconv.FormatFloat(v, 'x', -1, 64)
}

// WriteCTree writes tree t as the body of a C function of a `const float
// *x` (named x) that returns the value of the leaf a document reaches: a nest of
// if/else, each split `x[col(f)] <= threshold` going left, and a missing
// value (NaN) going left where the split's default is left and right
// elsewhere, as Tree.LeafIndex walks. With float32Leaves the leaf values
// are rounded to float32 (the function returns float, as the cascade
// scorer rounds tree outputs); otherwise they are exact doubles. indent is
// the indentation of the body's first line.
func WriteCTree(b *bytes.Buffer, t *Tree, col func(f int32) string, float32Leaves bool, indent string) {
	leaf := func(l int32) string {
		if float32Leaves {
			return CFloat32(float32(t.Leaves[l]))
		}
		return CFloat64(t.Leaves[l])
	}
	if len(t.Nodes) == 0 {
		fmt.Fprintf(b, "%s(void)x;\n%sreturn %s;\n", indent, indent, leaf(0))
		return
	}
	// Nested blocks are indented a tab a level down to cMaxIndent
	// levels, and no further: a chain of 20,000 splits (which Validate
	// takes) was 800 MB of tabs, quadratic in its depth.
	tabs := indent + strings.Repeat("\t", cMaxIndent)
	var walk func(n int32, depth int)
	walk = func(n int32, depth int) {
		ind := tabs[:len(indent)+min(depth, cMaxIndent)]
		if n < 0 {
			fmt.Fprintf(b, "%sreturn %s;\n", ind, leaf(^n))
			return
		}
		nd := &t.Nodes[n]
		v := col(nd.Feature)
		if nd.DefaultLeft {
			fmt.Fprintf(b, "%sif (%s <= %s || %s != %s) {\n", ind, v, CFloat32(nd.Threshold), v, v)
		} else {
			fmt.Fprintf(b, "%sif (%s <= %s) {\n", ind, v, CFloat32(nd.Threshold))
		}
		walk(nd.Left, depth+1)
		fmt.Fprintf(b, "%s} else {\n", ind)
		walk(nd.Right, depth+1)
		fmt.Fprintf(b, "%s}\n", ind)
	}
	walk(0, 0)
}

// cMaxIndent is how many levels deep WriteCTree indents a tree's nest.
const cMaxIndent = 32

// CMaxDepth is the deepest tree, in splits from the root to a leaf, that
// the C exporters write (CheckCTree refuses a deeper one): WriteCTree
// recurses a split at a time, and a compiler nests a block a split.
const CMaxDepth = 100000

// CExportOptions are the choices ExportC leaves to the caller.
type CExportOptions struct {
	// Prefix starts every external name of the file (default "cronus"),
	// so that several exported models can be linked into one program.
	Prefix string
	// Source names what the file was made from, in its first comment.
	Source string
	// Note, when not empty, is a paragraph added to the first comment
	// (lines of at most about 70 characters, separated by newlines).
	Note string
}

// cNote returns note as lines of a block comment, with an empty comment
// line after it; nothing for no note.
func cNote(note string) string {
	if note == "" {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(note, "\n") {
		b.WriteString(strings.TrimRight(" * "+CComment(l), " ") + "\n")
	}
	return b.String() + " *\n"
}

// CNote is cNote for the cascade exporter.
func CNote(note string) string { return cNote(note) }

// ExportC writes e as one C99 source file with a single external
// function,
//
//	double PREFIX_predict(const float *x);
//
// which returns e's score of a document whose features are x[0] (the
// file's feature 1) to x[NumFeatures-1]: the base score plus the leaf
// value of every tree, added in tree order as Predict adds them, so that
// it equals Predict bit for bit. Ensembles of one tree or more only; the
// trees must not be empty of leaves.
func ExportC(e *Ensemble, opt CExportOptions) ([]byte, error) {
	return ExportCContext(context.Background(), e, opt)
}

// ExportCContext is ExportC, given up when ctx is done: it looks at ctx
// between trees and returns its error.
func ExportCContext(ctx context.Context, e *Ensemble, opt CExportOptions) ([]byte, error) {
	p := opt.Prefix
	if p == "" {
		p = "cronus"
	}
	if r := CReservedPrefix(p); r != "" {
		return nil, fmt.Errorf("%q cannot start the file's names: C99 reserves %s", p, r)
	}
	if !CPrefixOK(p) {
		return nil, fmt.Errorf("%q is not a C identifier to start the file's names with", p)
	}
	if len(e.Trees) == 0 {
		return nil, fmt.Errorf("the model has no trees")
	}
	for i := range e.Trees {
		if err := CheckCTree(&e.Trees[i], e.NumFeatures); err != nil {
			return nil, fmt.Errorf("tree %d: %w", i, err)
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "/* %s_predict: %s over %s", p, CountWord(len(e.Trees), "tree"), CountWord(e.NumFeatures, "feature"))
	if opt.Source != "" {
		fmt.Fprintf(&b, ",\n * from %s", CComment(opt.Source))
	}
	fmt.Fprintf(&b, ";\n * written by cronus export --to c.\n *\n")
	fmt.Fprintf(&b, " *   double %s_predict(const float *x);\n *\n", p)
	fmt.Fprintf(&b, " * returns the model's raw score (objective %s) of a document whose\n", CComment(e.Objective))
	if e.NumFeatures == 0 { // "x[0] to x[0]" named a feature it has not
		fmt.Fprintf(&b, " * features are never read (the model has none): x may be NULL.\n *\n")
	} else {
		fmt.Fprintf(&b, " * features are x[0] to x[%d]: x[k-1] is feature k of a data file, as\n", e.NumFeatures-1)
		fmt.Fprintf(&b, " * cronus reads it (a feature a line leaves out is 0; NaN is missing).\n *\n")
	}
	b.WriteString(cNote(opt.Note))
	b.WriteString(CFileComment)
	b.WriteString(" */\n" + cPragma + "#include <math.h>\n\n")
	b.WriteString(CGuarded(p+"_predict", CModelDecls(p)))
	for i := range e.Trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\nstatic double %s_tree%d(const float *x)\n{\n", p, i)
		WriteCTree(&b, &e.Trees[i], func(f int32) string { return "x[" + strconv.Itoa(int(f)) + "]" }, false, "\t")
		b.WriteString("}\n")
	}
	fmt.Fprintf(&b, "\ndouble %s_predict(const float *x)\n{\n\tdouble s = %s;\n", p, CFloat64(e.Base))
	for i := range e.Trees {
		fmt.Fprintf(&b, "\ts += %s_tree%d(x);\n", p, i)
	}
	b.WriteString("\treturn s;\n}\n")
	return b.Bytes(), nil
}

// CheckCTree checks what WriteCTree relies on: every child index in
// range, each node reached once from the root (no cycles), every node's
// feature in 0..nf-1 (reached or not), at least one leaf, and no leaf more
// than CMaxDepth splits deep.
func CheckCTree(t *Tree, nf int) error {
	if len(t.Leaves) == 0 {
		return fmt.Errorf("no leaves")
	}
	// Every node, reached or not: the exporters read the features of all
	// (Tree.Features).
	for n, nd := range t.Nodes {
		if nd.Feature < 0 || int(nd.Feature) >= nf {
			return fmt.Errorf("node %d splits on feature index %d of %d", n, nd.Feature, nf)
		}
	}
	if len(t.Nodes) == 0 {
		return nil
	}
	// Without recursion, left before right: a crafted tree can be
	// millions of splits deep (a chain of 3,000,000 overflowed the stack
	// here), and WriteCTree, which recurses, takes at most CMaxDepth.
	seen := make([]bool, len(t.Nodes))
	seenLeaf := make([]bool, len(t.Leaves))
	type at struct {
		n     int32
		depth int // splits above n
	}
	stack := []at{{0, 0}}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.n < 0 {
			l := ^a.n
			if int(l) >= len(t.Leaves) {
				return fmt.Errorf("leaf %d of %d", l, len(t.Leaves))
			}
			if seenLeaf[l] {
				return fmt.Errorf("leaf %d is reached twice", l)
			}
			seenLeaf[l] = true
			continue
		}
		if int(a.n) >= len(t.Nodes) {
			return fmt.Errorf("node %d of %d", a.n, len(t.Nodes))
		}
		if seen[a.n] {
			return fmt.Errorf("node %d is reached twice", a.n)
		}
		if a.depth >= CMaxDepth {
			return fmt.Errorf("more than %d splits deep: the C file nests a block a split, and the exporter writes at most %d", CMaxDepth, CMaxDepth)
		}
		seen[a.n] = true
		nd := &t.Nodes[a.n]
		stack = append(stack, at{nd.Right, a.depth + 1}, at{nd.Left, a.depth + 1})
	}
	return nil
}

// CComment returns s fit to stand inside a C block comment: no "*/" or
// "/*", no line breaks or other control characters.
func CComment(s string) string {
	s = strings.ReplaceAll(s, "*/", "* /")
	s = strings.ReplaceAll(s, "/*", "/ *")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// CountWord is "n things", "1 thing" for one, as the C files' comments
// count (a one-tree model's said "1 trees").
func CountWord(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
