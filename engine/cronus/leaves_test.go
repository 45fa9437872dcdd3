package cronus

import (
	"strings"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// NewProblem refuses an ensemble with a leaf past the float32 range, as
// the tree outputs hold it (±Inf there, and NaN weights after it), and
// takes one at the largest float32.
func TestNewProblemLeafPastFloat32(t *testing.T) {
	d := &data.Dataset{Name: "d", Cols: [][]float32{{0, 1, 0, 1}}, Labels: []float32{0, 1, 0, 1}, QueryIDs: []int64{1, 2}, QueryOffsets: []int{0, 2, 4}, HasQID: true}
	for _, c := range []struct {
		leaf float64
		ok   bool
	}{{3.4028234663852886e38, true}, {-3.5e38, false}, {1e300, false}} {
		e := &tree.Ensemble{NumFeatures: 1, Trees: []tree.Tree{
			{Nodes: []tree.Node{{Feature: 0, Threshold: 0.5, Left: -1, Right: -2}}, Leaves: []float64{-1, 1}},
			{Nodes: []tree.Node{{Feature: 0, Threshold: 0.5, Left: -1, Right: -2}}, Leaves: []float64{0.5, c.leaf}},
		}}
		_, err := NewProblem(e, d, []float64{1}, 1, DefaultTargets())
		if c.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "tree 1: leaf 1's value") {
			t.Errorf("leaf %g: %v", c.leaf, err)
		}
	}
}
