package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// wideCase is a model of 1,000,000 features (the highest index of a
// sparse data set) whose trees split on four of them, 0, 1, 2 and the
// last, the same model over those four alone (narrow), and data for
// each: the wide set's other columns all 0.
type wideCase struct {
	nf           int
	wide, narrow *tree.Ensemble
	dw, dn       *data.Dataset
}

func newWideCase(t *testing.T, n int) *wideCase {
	t.Helper()
	const nf = 1_000_000
	used := []int{0, 1, 2, nf - 1}
	stump := func(f int32, th float32, l, r float64, cl, cr float32) tree.Tree {
		return tree.Tree{Nodes: []tree.Node{{Feature: f, Threshold: th, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
			Leaves: []float64{l, r}, Cover: []float32{cl + cr}, LeafCover: []float32{cl, cr}}
	}
	deep := func(a, b int32) tree.Tree { // a on top, b under both sides
		return tree.Tree{Nodes: []tree.Node{
			{Feature: a, Threshold: 0.45, Left: 1, Right: 2},
			{Feature: b, Threshold: 0.35, Left: tree.Leaf(0), Right: tree.Leaf(1), DefaultLeft: true},
			{Feature: b, Threshold: 0.65, Left: tree.Leaf(2), Right: tree.Leaf(3)}},
			Leaves: []float64{-0.3, 0.1, 0.2, 0.7}, Cover: []float32{40, 25, 15}, LeafCover: []float32{10, 15, 9, 6}}
	}
	build := func(f []int32, d int) *tree.Ensemble {
		return &tree.Ensemble{Base: 0.125, NumFeatures: d, Objective: "regression", Trees: []tree.Tree{
			stump(f[0], 0.45, -1, 2, 30, 10), stump(f[3], 0.35, 0.5, -0.25, 12, 28),
			deep(f[1], f[3]), deep(f[3], f[2]), stump(f[2], 0.15, 0.1, 0.3, 5, 35)}}
	}
	c := &wideCase{nf: nf, wide: build([]int32{0, 1, 2, nf - 1}, nf), narrow: build([]int32{0, 1, 2, 3}, 4)}
	zero := make([]float32, n)
	wc := make([][]float32, nf)
	for f := range wc {
		wc[f] = zero
	}
	var nc [][]float32
	for k, f := range used {
		col := make([]float32, n)
		for i := range col {
			col[i] = float32((i*(3*k+7))%10) / 10
		}
		wc[f] = col
		nc = append(nc, col)
	}
	hand := func(cols [][]float32) *data.Dataset {
		d := &data.Dataset{Name: "hand", Cols: cols, Labels: make([]float32, n), HasQID: true,
			QueryIDs: []int64{7, 9}, QueryOffsets: []int{0, n / 2, n}}
		if err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		return d
	}
	c.dw, c.dn = hand(wc), hand(nc)
	return c
}

// hashOutput writes o's file into a SHA-256 and returns its sum, and the
// bytes allocated meanwhile.
func hashOutput(t *testing.T, o data.Output) ([]byte, uint64) {
	t.Helper()
	h := sha256.New()
	w := bufio.NewWriter(h)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	if err := o.Write(w); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	w.Flush()
	return h.Sum(nil), m1.TotalAlloc - m0.TotalAlloc
}

// widened is the sum of the narrow model's contributions file with each
// line's four feature columns put where the wide model has them, 0 in
// every other column: what the wide model's file must be.
func (c *wideCase) widened(t *testing.T, o data.Output) []byte {
	t.Helper()
	var narrow bytes.Buffer
	w := bufio.NewWriter(&narrow)
	if err := o.Write(w); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	h := sha256.New()
	lines := strings.Split(strings.TrimSuffix(narrow.String(), "\n"), "\n")
	io.WriteString(h, contribsHeader(c.nf))
	zeros := strings.Repeat("\t0", c.nf-4)
	for _, line := range lines[1:] {
		f := strings.Split(line, "\t") // qid, docid, the four, bias
		io.WriteString(h, strings.Join(f[:5], "\t")+zeros+"\t"+f[5]+"\t"+f[6]+"\n")
	}
	return h.Sum(nil)
}

// predict --contribs and inspect --data of a model whose trees split on a
// few features but whose highest index is 1,000,000 compute the
// contributions of those features alone, and predict writes the others
// as 0. Every document had a row of a million float64s and each chunk of
// 16 a million column headers: predict --contribs took 59 s and 1.7 GB
// resident, inspect --data 3.6 s and 1.7 GB, on 1,000 documents.
func TestContribsWideModel(t *testing.T) {
	c := newWideCase(t, 40)
	ctx := context.Background()
	var written docsWritten
	want := c.widened(t, contribsOutput(ctx, "n.tsv", c.dn, c.narrow, -1, &written))
	got, alloc := hashOutput(t, contribsOutput(ctx, "w.tsv", c.dw, c.wide, -1, &written))
	if !bytes.Equal(got, want) {
		t.Error("predict --contribs: the wide model's file is not the narrow one's with zeros in the other columns")
	}
	// The header and a line are some 8 MB and 2 MB, built by doubling.
	if alloc > 48<<20 {
		t.Errorf("predict --contribs allocated %d MB for %d documents", alloc>>20, c.dw.NumDocs())
	}

	// A cascade's stages: the first three trees, then all five.
	stages := func(e *tree.Ensemble) []*tree.Ensemble {
		first := *e
		first.Trees = e.Trees[:3]
		return []*tree.Ensemble{&first, e}
	}
	exit := make([]int, c.dw.NumDocs())
	for i := range exit {
		exit[i] = i % 3 / 2
	}
	want = c.widened(t, stageContribsOutput(ctx, "n.tsv", c.dn, stages(c.narrow), exit, &written))
	got, alloc = hashOutput(t, stageContribsOutput(ctx, "w.tsv", c.dw, stages(c.wide), exit, &written))
	if !bytes.Equal(got, want) {
		t.Error("predict --cascade --contribs: the wide model's file is not the narrow one's with zeros in the other columns")
	}
	if alloc > 48<<20 {
		t.Errorf("predict --cascade --contribs allocated %d MB for %d documents", alloc>>20, c.dw.NumDocs())
	}

	narrow, err := contribMeans(ctx, "hand", c.narrow, c.dn, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	wide, err := contribMeans(ctx, "hand", c.wide, c.dw, io.Discard)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	k := map[int]int{0: 0, 1: 1, 2: 2, c.nf - 1: 3}
	for f, v := range wide {
		if w, ok := k[f]; ok && v != narrow[w] || !ok && v != 0 {
			t.Fatalf("inspect --data: feature %d's mean |contribution| is %v", f+1, v)
		}
	}
	// The means themselves are 8 MB.
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 16<<20 {
		t.Errorf("inspect --data allocated %d MB for %d documents", a>>20, c.dw.NumDocs())
	}
}

// predict --leaves of a model whose highest index is 1,000,000 but whose
// trees split on four features gives the leaves the same model over those
// four gives, and slices the columns of those four alone for each chunk
// of documents: it sliced all 1,000,000 (24 MB of column headers) for
// every chunk, 120 MB for these 20,000 documents' five chunks.
func TestLeavesWideModel(t *testing.T) {
	c := newWideCase(t, 20_000)
	ctx := context.Background()
	var written docsWritten
	want, _ := hashOutput(t, leavesOutput(ctx, "n.tsv", c.dn, c.narrow, len(c.narrow.Trees), &written))
	got, alloc := hashOutput(t, leavesOutput(ctx, "w.tsv", c.dw, c.wide, len(c.wide.Trees), &written))
	if !bytes.Equal(got, want) {
		t.Error("predict --leaves: the wide model's file is not the narrow one's")
	}
	if alloc > 16<<20 {
		t.Errorf("predict --leaves allocated %d MB for %d documents", alloc>>20, c.dw.NumDocs())
	}
}
