package tree_test

import (
	"fmt"

	"github.com/cronus-ltr/cronus/engine/tree"
)

// A tree of one split on feature 0, whose sides saw 6 and 4 training
// documents (hessian sums under squared loss): its expected value is
// (6·1 + 4·3)/10 = 1.8, and a document that goes left owes feature 0 the
// difference between its value and that.
func ExampleEnsemble_Contributions() {
	e := &tree.Ensemble{
		Trees: []tree.Tree{{
			Nodes:     []tree.Node{{Feature: 0, Threshold: 0.5, Left: tree.Leaf(0), Right: tree.Leaf(1)}},
			Leaves:    []float64{1, 3},
			Cover:     []float32{10},
			LeafCover: []float32{6, 4},
		}},
		Base:        0.5,
		NumFeatures: 2,
	}
	cols := [][]float32{{0.2, 0.9}, {7, 7}} // two documents, column-major
	phi, err := e.Contributions(nil, cols, 2, -1)
	if err != nil {
		panic(err)
	}
	scores := e.Predict(nil, cols, 2, -1)
	for i := range 2 {
		row := phi[i*3 : i*3+3]
		fmt.Printf("feature 1 %+.1f, feature 2 %+.1f, bias %.1f: score %.1f\n", row[0], row[1], row[2], scores[i])
	}
	// Output:
	// feature 1 -0.8, feature 2 +0.0, bias 2.3: score 1.5
	// feature 1 +1.2, feature 2 +0.0, bias 2.3: score 3.5
}
