package baseline

import (
	"math"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// stump splits on feature f at thr.
func stump(f int32, thr float32, left, right float64) tree.Tree {
	return tree.Tree{
		Nodes:  []tree.Node{{Feature: f, Threshold: thr, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
		Leaves: []float64{left, right},
	}
}

// chain is a tree on feature f that gives values[j] to a document whose
// value of f is j (j = 0, 1, ...): node j sends f <= j+0.5 to leaf j and
// the rest on to node j+1.
func chain(f int32, values []float64) tree.Tree {
	t := tree.Tree{Leaves: values}
	for j := range len(values) - 1 {
		right := int32(j + 1)
		if j == len(values)-2 {
			right = tree.Leaf(j + 1)
		}
		t.Nodes = append(t.Nodes, tree.Node{Feature: f, Threshold: float32(j) + 0.5, Left: tree.Leaf(j), Right: right})
	}
	return t
}

// handData builds a data set from columns, labels and query sizes.
func handData(t *testing.T, cols [][]float32, labels []float32, sizes ...int) *data.Dataset {
	t.Helper()
	d := &data.Dataset{Name: "hand", Cols: cols, Labels: labels, HasQID: true, QueryOffsets: []int{0}}
	for q, n := range sizes {
		d.QueryIDs = append(d.QueryIDs, int64(q+1))
		d.QueryOffsets = append(d.QueryOffsets, d.QueryOffsets[q]+n)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	return d
}

// noErr(t)(Prefix(…)) is the points of a baseline run that must not fail.
func noErr(t testing.TB) func([]Point, error) []Point {
	return func(points []Point, err error) []Point {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return points
	}
}

func mustSpecs(t testing.TB, s string) []metric.Spec {
	t.Helper()
	specs, err := metric.ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return specs
}

func near(a, b, tol float64) bool {
	return a == b || math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b))
}

func checkCost(t *testing.T, what string, got, want metric.Cost) {
	t.Helper()
	if !near(got.Total, want.Total, 1e-12) || !near(got.Features, want.Features, 1e-12) || !near(got.Trees, want.Trees, 1e-12) {
		t.Errorf("%s: cost %+v, want %+v", what, got, want)
	}
}
