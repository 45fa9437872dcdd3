package cronus

import (
	"context"

	"github.com/cronus-ltr/cronus/data"
	"github.com/cronus-ltr/cronus/engine/metric"
	"github.com/cronus-ltr/cronus/engine/tree"
)

// Evaluate scores d with cascade c for real (Score) and measures specs on
// the cascade's ranking, their means and their values query by query. A
// nil d gives the zero Eval.
func Evaluate(e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) Eval {
	ev, _ := EvaluateContext(context.Background(), e, c, d, featCost, treeCost, specs)
	return ev
}

// EvaluateContext is Evaluate that stops, within a query on each core,
// when ctx is done, and then returns ctx's error and the zero Eval.
func EvaluateContext(ctx context.Context, e *tree.Ensemble, c *Cascade, d *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) (Eval, error) {
	if d == nil {
		return Eval{}, ctx.Err()
	}
	r, err := ScoreContext(ctx, e, c, d, featCost, treeCost)
	if err != nil {
		return Eval{}, err
	}
	ev := Eval{Cost: r.Cost, Reached: r.Reached}
	ev.Measure(specs, r.Key, d)
	return ev, nil
}

// Measure sets ev's Metrics and PerQuery: specs on d ranked by scores (a
// cascade's ranking key, or an ensemble's scores), under DESIGN.md's
// default conventions.
func (ev *Eval) Measure(specs []metric.Spec, scores []float64, d *data.Dataset) {
	ev.Metrics, ev.PerQuery = map[string]float64{}, map[string][]float64{}
	for _, sp := range specs {
		pq := metric.PerQuery(sp, scores, d.Labels, d.QueryOffsets, metric.Options{}, nil)
		ev.Metrics[sp.String()], ev.PerQuery[sp.String()] = metric.MeanOf(pq), pq
	}
}

// NewEvaluator returns the Evaluator that scores cascades on valid and test
// (either may be nil), each under its own exit rule.
func NewEvaluator(e *tree.Ensemble, valid, test *data.Dataset, featCost, treeCost []float64, specs []metric.Spec) Evaluator {
	return func(ctx context.Context, c *Cascade) (v, t Eval, err error) {
		if v, err = EvaluateContext(ctx, e, c, valid, featCost, treeCost, specs); err != nil {
			return Eval{}, Eval{}, err
		}
		if t, err = EvaluateContext(ctx, e, c, test, featCost, treeCost, specs); err != nil {
			return Eval{}, Eval{}, err
		}
		return v, t, nil
	}
}
