package cronus

import (
	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Evaluate scores d with cascade c for real (Score) and measures specs on
// the cascade's ranking. A nil d gives the zero Eval.
func Evaluate(e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) Eval {
	if d == nil {
		return Eval{}
	}
	r := Score(e, c, d, featCost, treeCost)
	ev := Eval{Metrics: map[string]float64{}, Cost: r.Cost, Reached: r.Reached}
	for _, sp := range specs {
		ev.Metrics[sp.String()] = metric.Mean(sp, r.Key, d.Labels, d.QueryOffsets, metric.Options{})
	}
	return ev
}

// NewEvaluator returns the Evaluator that scores cascades on valid and test
// (either may be nil), each under its own exit rule.
func NewEvaluator(e *tree.Ensemble, valid, test *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) Evaluator {
	return func(c *Cascade) (Eval, Eval) {
		return Evaluate(e, c, valid, featCost, treeCost, specs), Evaluate(e, c, test, featCost, treeCost, specs)
	}
}
