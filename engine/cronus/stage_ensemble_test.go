package cronus

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStageEnsemble: a stage as an ensemble of its own predicts the
// stage's score (the tree outputs times β^k plus the intercept) for every
// document, which is the scorer's score for the documents that leave
// there; it holds the stage's active trees, with their statistics.
func TestStageEnsemble(t *testing.T) {
	fx := scLoad(t)
	e, d := fx.e, fx.test
	o := NewOutputs(e, d)
	r := rand.New(rand.NewPCG(11, 2))
	s := make([]float64, o.N)
	stages := 0
	for range 10 {
		c := scRandomCascade(r, o)
		res := Score(e, c, d, fx.featCost, make([]float64, len(e.Trees)))
		for k := range c.Stages {
			se := StageEnsemble(e, c, k)
			active := c.Stages[k].Active()
			if len(se.Trees) != len(active) || se.NumFeatures != e.NumFeatures || se.Base != c.Stages[k].Beta[len(e.Trees)] {
				t.Fatalf("stage %d: %d trees, %d features, base %v", k, len(se.Trees), se.NumFeatures, se.Base)
			}
			for j, tr := range active {
				if len(se.Trees[j].Nodes) != len(e.Trees[tr].Nodes) || &se.Trees[j].Cover[0] != &e.Trees[tr].Cover[0] {
					t.Fatalf("stage %d: tree %d is not tree %d with its covers", k, j, tr)
				}
			}
			got := se.Predict(nil, d.Cols, d.NumDocs(), -1)
			o.Scores(s, c.Stages[k].Beta)
			for i := range got {
				if math.Abs(got[i]-s[i]) > 1e-12*max(1, math.Abs(s[i])) {
					t.Fatalf("stage %d, document %d: the stage's ensemble scores %v, the stage %v", k, i, got[i], s[i])
				}
				if res.Exit[i] == k && math.Abs(got[i]-res.Score[i]) > 1e-12*max(1, math.Abs(s[i])) {
					t.Fatalf("stage %d, document %d: the stage's ensemble scores %v, the scorer %v", k, i, got[i], res.Score[i])
				}
			}
			stages++
		}
	}
	if stages < 10 {
		t.Fatalf("only %d stages tried", stages)
	}
}
