package tree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ExportRankLib returns e as a RankLib LambdaMART model, the text file
// RankLib's -save writes and the Elasticsearch and OpenSearch LTR plugins
// take as a "model/ranklib" definition, in the layout of RankLib's own
// Ensemble.toString (tabs, "<feature>7 </feature>", "<threshold> 0.5
// </threshold>"). source, when not "", is named in a comment line, and the
// model's feature count in a "## No. of features = N" line, which RankLib
// skips and ImportRankLib reads.
//
// RankLib's feature ids are the data file's indices, as cronus's are. A
// RankLib split sends a document left when its value <= the threshold, as
// cronus's do, and both are float32: each threshold is written as the
// shortest decimal that reads back to it (Java's Float.parseFloat). Each
// tree gets weight 1 and its leaves their values, rounded to float32, which
// is how RankLib reads an <output>; the base score, when not 0, becomes a
// last tree that is a single leaf (RankLib has no base score). RankLib sums
// the trees in float32, so its scores agree with cronus's to float32
// rounding, not bit for bit. RankLib has no missing values: a feature a line
// leaves out reads 0, as cronus reads it by default (--absent zero), so a
// split's default direction is not written.
//
// A leaf value, or the base score, outside the float32 range is refused
// (RankLib would read it as infinite), as is a model whose largest score
// could pass it (RankLib's float32 sum would overflow), and a tree whose
// <split>s would nest more than rlMaxDepth deep. ctx is looked at between
// trees.
func ExportRankLib(ctx context.Context, e *Ensemble, source string) ([]byte, error) {
	if len(e.Trees) == 0 {
		return nil, errors.New("the model has no trees (RankLib's loader would score every document 0)")
	}
	base := float32(e.Base)
	if math.IsInf(float64(base), 0) || math.IsNaN(e.Base) {
		return nil, fmt.Errorf("the base score %v is outside RankLib's float32 range", e.Base)
	}
	// The largest |score| any document can get, each tree's largest
	// |leaf| summed (in float64, far from overflow for float32 leaves).
	bound := math.Abs(float64(base))
	leaves := 0
	for i := range e.Trees {
		t := &e.Trees[i]
		// The writer recurses once a level, as RankLib's reader does: a
		// crafted tree can be millions of splits deep. A leaf is a <split>
		// of its own, one level below its parent's.
		if d := t.Depth(); d+1 > rlMaxDepth {
			return nil, &ExportTreeError{Tree: i, Err: fmt.Errorf("%d splits deep: RankLib reads a tree by recursion, a <split> at a time (cronus's RankLib importer takes %d nested, %d splits and the leaf's)", d, rlMaxDepth, rlMaxDepth-1)}
		}
		m := 0.0
		for l, v := range t.Leaves {
			if f := float32(v); math.IsInf(float64(f), 0) || math.IsNaN(v) {
				return nil, &ExportTreeError{Tree: i, Err: fmt.Errorf("leaf %d: value %v is outside RankLib's float32 range", l, v)}
			}
			m = max(m, math.Abs(float64(float32(v))))
		}
		bound += m
		leaves = max(leaves, len(t.Leaves))
	}
	if bound > math.MaxFloat32 {
		return nil, fmt.Errorf("a document's score could reach %.4g, past the float32 range RankLib sums in (±3.4e+38)", bound)
	}
	trees := len(e.Trees)
	if base != 0 {
		trees++
	}
	var b bytes.Buffer
	b.WriteString("## LambdaMART\n")
	fmt.Fprintf(&b, "## No. of trees = %d\n", trees)
	fmt.Fprintf(&b, "## No. of leaves = %d\n", leaves)
	b.WriteString("## Learning rate = 1.0\n")
	if e.NumFeatures > 0 {
		// Not a line RankLib writes (it ignores "##" lines): cronus's
		// importer takes the count from it, where a RankLib model leaves it
		// to the highest feature a split uses.
		fmt.Fprintf(&b, "## No. of features = %d\n", e.NumFeatures)
	}
	if source != "" {
		// One line: a control character in a path would end the comment.
		fmt.Fprintf(&b, "## Exported by cronus from %s\n", strings.Map(func(r rune) rune {
			if r < ' ' || r == 0x7f {
				return '?'
			}
			return r
		}, source))
	}
	b.WriteString("\n<ensemble>\n")
	for i := range e.Trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := &e.Trees[i]
		fmt.Fprintf(&b, "\t<tree id=\"%d\" weight=\"1.0\">\n", i+1)
		if len(t.Nodes) == 0 {
			writeRLLeaf(&b, "", 2, t.Leaves[0])
		} else {
			writeRLNode(&b, t, 0, "", 2)
		}
		b.WriteString("\t</tree>\n")
	}
	if base != 0 {
		fmt.Fprintf(&b, "\t<tree id=\"%d\" weight=\"1.0\">\n", trees)
		writeRLLeaf(&b, "", 2, float64(base))
		b.WriteString("\t</tree>\n")
	}
	b.WriteString("</ensemble>\n")
	return b.Bytes(), nil
}

// rlIndentMax caps the tabs a line is indented by: RankLib's reader
// (ModelLineProducer) drops them, and a chain of splits indented a tab a
// level grows as the square of its depth (350 MB at 10,000).
const rlIndentMax = 32

// rlIndent is the indentation of a line at depth.
func rlIndent(depth int) string { return strings.Repeat("\t", min(depth, rlIndentMax)) }

// writeRLNode writes node n of t, and below it its two sides, as a
// RankLib <split> at the given depth of tabs; pos is its "pos" attribute
// ("" for the root).
func writeRLNode(b *bytes.Buffer, t *Tree, n int32, pos string, depth int) {
	ind := rlIndent(depth)
	nd := &t.Nodes[n]
	b.WriteString(ind)
	writeRLOpen(b, pos)
	fmt.Fprintf(b, "%s\t<feature>%d </feature>\n", ind, nd.Feature+1)
	fmt.Fprintf(b, "%s\t<threshold> %s </threshold>\n", ind, javaFloatText(nd.Threshold))
	for _, c := range [2]struct {
		child int32
		pos   string
	}{{nd.Left, "left"}, {nd.Right, "right"}} {
		if c.child >= 0 {
			writeRLNode(b, t, c.child, c.pos, depth+1)
		} else {
			writeRLLeaf(b, c.pos, depth+1, t.Leaves[^c.child])
		}
	}
	b.WriteString(ind)
	b.WriteString("</split>\n")
}

// writeRLLeaf writes a leaf of value v as a <split> holding its <output>.
func writeRLLeaf(b *bytes.Buffer, pos string, depth int, v float64) {
	ind := rlIndent(depth)
	b.WriteString(ind)
	writeRLOpen(b, pos)
	fmt.Fprintf(b, "%s\t<output> %s </output>\n", ind, javaFloatText(float32(v)))
	b.WriteString(ind)
	b.WriteString("</split>\n")
}

func writeRLOpen(b *bytes.Buffer, pos string) {
	if pos == "" {
		b.WriteString("<split>\n")
		return
	}
	fmt.Fprintf(b, "<split pos=\"%s\">\n", pos)
}

// javaFloatText is the shortest decimal that Java's Float.parseFloat reads
// back to v, in a form it takes ("Infinity" for an infinite threshold, a
// split every finite value goes left of; -0 as "-0.0").
func javaFloatText(v float32) string {
	if math.IsInf(float64(v), 0) {
		if v < 0 {
			return "-Infinity"
		}
		return "Infinity"
	}
	s := strconv.FormatFloat(float64(v), 'g', -1, 32)
	if !strings.ContainsAny(s, ".eInN") {
		s += ".0"
	}
	return s
}
