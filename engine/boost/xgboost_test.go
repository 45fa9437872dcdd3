package boost

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Training against XGBoost 1.7.4 (testdata/make_xgb_train_fixtures.py):
// on features of few distinct values both histograms are exact, so with
// XGBoost's hist lossguide trees, the same L2, min_child_weight = min
// hessian, one document as the least leaf and XGBoost's base_score set to
// Cronus's starting point, both must build the same trees. Every
// document's score after each tree is compared with XGBoost's margin.
func TestTrainMatchesXGBoost(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "xgb-train.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Cases []struct {
			Name, Data, Objective string
			Params                struct {
				Trees, Leaves int
				LearningRate  float64 `json:"learning_rate"`
				L2            float64
				MinHessian    float64 `json:"min_hessian"`
				MinGain       float64 `json:"min_gain"`
			}
			Margins [][]float64
		}
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) == 0 {
		t.Fatal("no cases in the fixture")
	}
	for _, c := range fx.Cases {
		t.Run(c.Name, func(t *testing.T) {
			d, err := data.ReadFile(context.Background(), filepath.Join("testdata", c.Data), data.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p := DefaultParams(c.Objective)
			p.Trees, p.LearningRate = c.Params.Trees, c.Params.LearningRate
			p.Grow = tree.GrowParams{MaxLeaves: c.Params.Leaves, MinDocs: 1, MinHess: c.Params.MinHessian, Lambda: c.Params.L2, MinGain: c.Params.MinGain}
			p.Workers = 1
			res, err := Train(context.Background(), d, nil, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			e := res.Ensemble
			if len(e.Trees) != len(c.Margins) {
				t.Fatalf("%d trees, XGBoost has %d", len(e.Trees), len(c.Margins))
			}
			n := d.NumDocs()
			for k, want := range c.Margins {
				got := e.Predict(nil, d.Cols, n, k+1)
				worst, at := 0.0, 0
				for i := range want {
					if diff := math.Abs(got[i] - want[i]); !(diff <= worst) { // NaN counts
						worst, at = diff, i
					}
				}
				if !(worst <= 1e-5) {
					t.Errorf("after %d trees: document %d scores %.9g, XGBoost %.9g (|diff| %.3g)", k+1, at+1, got[at], want[at], worst)
				}
			}
		})
	}
}
